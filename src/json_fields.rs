//! Hand-written `Deserialize` for the biggest structs the binding reads: a `serde_json::Value`
//! object read field by field. A derived deserializer repeats per struct a map visitor, a
//! sequence visitor and a field matcher (5-15 KB of the shipped wasm each); these share one
//! reader per field type, and give serde's own error messages.

use serde::de::{DeserializeOwned, Error as _, Unexpected};
use serde_json::{Error, Map, Value};

/// The value as an object, or serde's "invalid type" error naming what was `expected`.
pub fn object(value: Value, expected: &'static str) -> Result<Map<String, Value>, Error> {
    match value {
        Value::Object(fields) => Ok(fields),
        other => Err(Error::invalid_type(unexpected(&other), &expected)),
    }
}

fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(flag) => Unexpected::Bool(*flag),
        Value::Number(number) => match (number.as_u64(), number.as_i64()) {
            (Some(unsigned), _) => Unexpected::Unsigned(unsigned),
            (None, Some(signed)) => Unexpected::Signed(signed),
            (None, None) => Unexpected::Float(number.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(text) => Unexpected::Str(text),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// One field's value, read as serde reads it.
pub fn take<T: DeserializeOwned>(value: Value) -> Result<T, Error> {
    T::deserialize(value)
}

/// A field without a default: serde's "missing field" error when it was absent.
pub fn required<T>(field: Option<T>, name: &'static str) -> Result<T, Error> {
    field.ok_or_else(|| Error::missing_field(name))
}

/// `impl Deserialize` through `$type::from_json(Value)`, for every deserializer.
macro_rules! deserialize_from_json {
    ($type:ty) => {
        impl<'de> serde::Deserialize<'de> for $type {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
                let value = serde_json::Value::deserialize(deserializer)?;
                Self::from_json(value).map_err(serde::de::Error::custom)
            }
        }
    };
}
pub(crate) use deserialize_from_json;

#[cfg(test)]
mod tests {
    use crate::turn::{ToolPart, TurnPlan, WriteOutcome};
    use serde_json::json;

    fn error<T: serde::de::DeserializeOwned + std::fmt::Debug>(value: serde_json::Value) -> String {
        serde_json::from_value::<T>(value).expect_err("rejected").to_string()
    }

    #[test]
    fn errors_read_like_serde_derive() {
        assert_eq!(error::<ToolPart>(json!({"toolId": 5})), "invalid type: integer `5`, expected a string");
        assert_eq!(error::<ToolPart>(json!([])), "invalid type: sequence, expected struct ToolPart");
        assert_eq!(error::<TurnPlan>(json!({"parts": []})), "missing field `writes`");
        assert_eq!(
            error::<WriteOutcome>(json!({"status": "lost"})),
            "unknown variant `lost`, expected `stored` or `failed`"
        );
        assert_eq!(error::<WriteOutcome>(json!({"status": "stored"})), "missing field `metadataJson`");
        let part: ToolPart = serde_json::from_value(json!({"toolId": "t", "other": 1})).expect("unknown keys ignored");
        assert_eq!((part.tool_id.as_str(), part.original_chars), ("t", None));
    }
}
