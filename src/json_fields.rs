//! Hand-written `Deserialize` for the biggest structs the binding reads: a `serde_json::Value`
//! object read field by field. A derived deserializer repeats per struct a map visitor, a
//! sequence visitor and a field matcher (5-15 KB of the shipped wasm each); these share one
//! reader per field type, and give serde's own error messages.

use serde::de::{DeserializeOwned, Error as _, Unexpected};
use serde_json::{Error, Map, Value};

/// The value as an object, or serde's "invalid type" error naming what was `expected`.
pub(crate) fn object(value: Value, expected: &'static str) -> Result<Map<String, Value>, Error> {
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
pub(crate) fn take<T: DeserializeOwned>(value: Value) -> Result<T, Error> {
    T::deserialize(value)
}

/// A field without a default: serde's "missing field" error when it was absent.
pub(crate) fn required<T>(field: Option<T>, name: &'static str) -> Result<T, Error> {
    field.ok_or_else(|| Error::missing_field(name))
}

/// `impl Deserialize` through `$type::from_json(Value)`, for every deserializer.
macro_rules! deserialize_from_json {
    ($type:ty) => {
        impl<'de> serde::Deserialize<'de> for $type {
            fn deserialize<D: serde::Deserializer<'de>>(
                deserializer: D,
            ) -> std::result::Result<Self, D::Error> {
                let value = serde_json::Value::deserialize(deserializer)?;
                Self::from_json(value).map_err(serde::de::Error::custom)
            }
        }
    };
}
pub(crate) use deserialize_from_json;

/// `from_json` and `Deserialize` for a struct whose every field defaults to the struct's
/// `Default` when absent, each read under the listed JSON keys (a name and its aliases). With
/// `deny_unknown_fields` an unknown key is refused as serde does it, listing every key allowed;
/// otherwise it is ignored. Unlike serde, a field given under both its name and an alias takes
/// the later value instead of failing as a duplicate.
macro_rules! defaulted_struct {
    ($type:ident, deny_unknown_fields, { $($field:ident: $($key:literal)|+),* $(,)? }) => {
        $crate::json_fields::defaulted_struct!(@impl $type, true, { $($field: $($key)|+),* });
    };
    ($type:ident, { $($field:ident: $($key:literal)|+),* $(,)? }) => {
        $crate::json_fields::defaulted_struct!(@impl $type, false, { $($field: $($key)|+),* });
    };
    (@impl $type:ident, $deny:literal, { $($field:ident: $($key:literal)|+),* }) => {
        impl $type {
            pub fn from_json(value: serde_json::Value) -> std::result::Result<Self, serde_json::Error> {
                const KEYS: &[&str] = &[$($($key),+),*];
                let mut read = <$type>::default();
                for (key, value) in $crate::json_fields::object(value, concat!("struct ", stringify!($type)))? {
                    match key.as_str() {
                        $($($key)|+ => read.$field = $crate::json_fields::take(value)?,)*
                        _ => $crate::json_fields::unknown_key(&key, KEYS, $deny)?,
                    }
                }
                Ok(read)
            }
        }
        $crate::json_fields::deserialize_from_json!($type);
    };
}
pub(crate) use defaulted_struct;

/// `from_json` and `Deserialize` for a struct without defaults: every field must be present
/// (an absent `Option` is `None`, as with serde); unknown keys are ignored.
macro_rules! required_struct {
    ($type:ident, { $($field:ident: $key:literal),* $(,)? }) => {
        impl $type {
            pub fn from_json(value: serde_json::Value) -> std::result::Result<Self, serde_json::Error> {
                let mut fields = $crate::json_fields::object(value, concat!("struct ", stringify!($type)))?;
                Ok($type { $($field: $crate::json_fields::field(fields.remove($key), $key)?),* })
            }
        }
        $crate::json_fields::deserialize_from_json!($type);
    };
}
pub(crate) use required_struct;

/// `from_json` and `Deserialize` for a struct that refuses unknown keys and mixes fields that
/// must be present with fields that have a default (`= expression`), as serde's derive with
/// `deny_unknown_fields` and `#[serde(default = ...)]` reads it: keys in the order given, the
/// first bad value or unknown key refused, then the first absent required field in declaration
/// order.
macro_rules! strict_struct {
    ($type:ident, { $($field:ident: $key:literal $(= $default:expr)?),* $(,)? }) => {
        impl $type {
            pub fn from_json(value: serde_json::Value) -> std::result::Result<Self, serde_json::Error> {
                const KEYS: &[&str] = &[$($key),*];
                $(let mut $field = None;)*
                for (key, value) in $crate::json_fields::object(value, concat!("struct ", stringify!($type)))? {
                    match key.as_str() {
                        $($key => $field = Some($crate::json_fields::take(value)?),)*
                        _ => $crate::json_fields::unknown_key(&key, KEYS, true)?,
                    }
                }
                Ok($type {
                    $($field: match $field {
                        Some(read) => read,
                        None => $crate::json_fields::strict_struct!(@absent $key $(, $default)?),
                    },)*
                })
            }
        }
        $crate::json_fields::deserialize_from_json!($type);
    };
    (@absent $key:literal) => {
        return Err(<serde_json::Error as serde::de::Error>::missing_field($key))
    };
    (@absent $key:literal, $default:expr) => {
        $default
    };
}
pub(crate) use strict_struct;

/// A field without a default: its value read as serde reads it when present; when absent, `None`
/// for an `Option` (what reading `null` gives) and serde's "missing field" error for the rest.
pub(crate) fn field<T: DeserializeOwned>(
    value: Option<Value>,
    name: &'static str,
) -> Result<T, Error> {
    match value {
        Some(value) => T::deserialize(value),
        None => T::deserialize(Value::Null).map_err(|_| Error::missing_field(name)),
    }
}

/// An unknown key: serde's "unknown field" error when `deny`, else ignored.
pub(crate) fn unknown_key(
    key: &str,
    allowed: &'static [&'static str],
    deny: bool,
) -> Result<(), Error> {
    if deny {
        Err(Error::unknown_field(key, allowed))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::retention::StoredResult;
    use crate::turn::{ToolPart, TurnConfig, WriteOutcome};
    use serde_json::json;

    fn error<T: serde::de::DeserializeOwned + std::fmt::Debug>(value: serde_json::Value) -> String {
        serde_json::from_value::<T>(value)
            .expect_err("rejected")
            .to_string()
    }

    #[test]
    fn errors_read_like_serde_derive() {
        assert_eq!(
            error::<ToolPart>(json!({"toolId": 5})),
            "invalid type: integer `5`, expected a string"
        );
        assert_eq!(
            error::<ToolPart>(json!([])),
            "invalid type: sequence, expected struct ToolPart"
        );
        assert_eq!(
            error::<WriteOutcome>(json!({"status": "lost"})),
            "unknown variant `lost`, expected `stored` or `failed`"
        );
        assert_eq!(
            error::<WriteOutcome>(json!({"status": "stored"})),
            "missing field `metadataJson`"
        );
        let part: ToolPart = serde_json::from_value(json!({"toolId": "t", "other": 1}))
            .expect("unknown keys ignored");
        assert_eq!((part.tool_id.as_str(), part.original_chars), ("t", None));
    }

    #[test]
    fn aliases_defaults_and_absent_options() {
        let config: TurnConfig =
            serde_json::from_value(json!({"threshold_chars": 5, "previewChars": 7}))
                .expect("config");
        assert_eq!(
            (config.threshold_chars, config.preview_chars, config.enabled),
            (5, 7, true)
        );
        let refused = error::<TurnConfig>(json!({"enabled": true, "treshold": 1}));
        assert!(refused.starts_with("unknown field `treshold`, expected one of `enabled`, `thresholdChars`, `threshold_chars`"));
        let result: StoredResult =
            serde_json::from_value(json!({"toolResultId": "tr_1", "bytes": 3})).expect("result");
        assert_eq!(result.created_at_ms, None);
        assert_eq!(
            error::<StoredResult>(json!({"toolResultId": "tr_1"})),
            "missing field `bytes`"
        );
        assert_eq!(
            error::<StoredResult>(json!({"toolResultId": "tr_1", "bytes": -1})),
            "invalid value: integer `-1`, expected u64"
        );
    }

    /// A struct read by `strict_struct!` and its twin read by serde's derive.
    mod strict {
        use serde::Deserialize;

        #[derive(Debug, PartialEq)]
        pub struct Inner {
            pub count: u64,
            pub label: String,
        }
        crate::json_fields::strict_struct!(Inner, { count: "count", label: "label" = "none".into() });

        #[derive(Debug, PartialEq)]
        pub struct Outer {
            pub inner: Inner,
            pub items: Vec<Inner>,
            pub flag: bool,
            pub names: Vec<String>,
        }
        crate::json_fields::strict_struct!(Outer, {
            inner: "inner",
            items: "items",
            flag: "flag" = false,
            names: "names" = Vec::new(),
        });

        fn none() -> String {
            "none".into()
        }

        #[derive(Debug, PartialEq, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct DerivedInner {
            pub count: u64,
            #[serde(default = "none")]
            pub label: String,
        }

        #[derive(Debug, PartialEq, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct DerivedOuter {
            pub inner: DerivedInner,
            pub items: Vec<DerivedInner>,
            #[serde(default)]
            pub flag: bool,
            #[serde(default)]
            pub names: Vec<String>,
        }
    }

    #[test]
    fn strict_structs_read_like_serde_derive() {
        use strict::{DerivedOuter, Outer};
        let inputs = [
            json!({"inner": {"count": 1}, "items": []}),
            json!({"inner": {"count": 1, "label": "a"}, "items": [{"count": 2}], "flag": true, "names": ["x"]}),
            json!({"items": [], "inner": {"count": 1}}),
            json!({"inner": {"count": 1}}),
            json!({"items": []}),
            json!({}),
            json!({"inner": {"count": -1}, "items": []}),
            json!({"inner": {"count": 1}, "items": [{"label": "b"}]}),
            json!({"inner": {"count": 1}, "items": [], "extra": 1}),
            json!({"extra": 1, "inner": "not an object"}),
            json!({"inner": {"count": 1, "lable": "typo"}, "items": []}),
            json!({"inner": {"count": 1}, "items": {}, "flag": "yes"}),
            json!({"inner": {"count": 1}, "items": [], "flag": null}),
            json!("text"),
            json!(null),
        ];
        for input in inputs {
            let strict = serde_json::from_value::<Outer>(input.clone())
                .map(|read| {
                    format!("{read:?}")
                        .replace("Outer", "")
                        .replace("Inner", "")
                })
                .map_err(|e| {
                    e.to_string()
                        .replace("struct Outer", "struct DerivedOuter")
                        .replace("struct Inner", "struct DerivedInner")
                });
            let derived = serde_json::from_value::<DerivedOuter>(input.clone())
                .map(|read| {
                    format!("{read:?}")
                        .replace("DerivedOuter", "")
                        .replace("DerivedInner", "")
                })
                .map_err(|e| e.to_string());
            assert_eq!(strict, derived, "{input}");
        }
    }

    #[test]
    fn context_input_defaults() {
        let input: crate::context::ContextInput = serde_json::from_value(json!({
            "policy": {"trigger": 10, "target": 5},
            "totalTokens": 12,
            "results": [{"tokens": 3, "head": "h"}],
            "stubHeader": "[s]",
        }))
        .expect("input");
        let policy = &input.policy;
        assert_eq!(
            (
                policy.keep_recent,
                policy.clear_at_least,
                policy.stub_tokens
            ),
            (3, 0, crate::context::DEFAULT_STUB_TOKENS)
        );
        assert_eq!(
            policy.reference_tokens,
            crate::context::DEFAULT_REFERENCE_TOKENS
        );
        assert!(policy.exclude_tools.is_empty() && !input.resume);
        assert_eq!(
            (input.results[0].tool_name.as_str(), input.results[0].pinned),
            ("", false)
        );
        let refused = serde_json::from_value::<crate::context::ContextInput>(json!({
            "policy": {"trigger": 10, "target": 5, "keep_recent": 1},
        }))
        .expect_err("snake case key refused")
        .to_string();
        assert!(
            refused.starts_with("unknown field `keep_recent`, expected one of `trigger`"),
            "{refused}"
        );
    }
}
