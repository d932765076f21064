//! A loaded document (JSON or YAML) as one value type, so one analysis (`document.rs`) reads
//! both. Loaded by the reference's own parsers (`kinds::json::load_value`, `kinds::yaml`), with
//! their rules; containers past their depth limit keep their length without their items.

use std::borrow::Cow;

#[derive(Debug)]
pub enum Value<'a> {
    Null,
    Bool(bool),
    /// The number as printed (JSON digits, Python's float repr).
    Number(Cow<'a, str>),
    Text(Cow<'a, str>),
    /// Items (all of them unless past the depth limit) and the length.
    List(Vec<Value<'a>>, usize),
    /// Entries in document order (keys unique) and the number of keys.
    Map(Vec<(Cow<'a, str>, Value<'a>)>, usize),
}

impl<'a> Value<'a> {
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::Text(_) => "string",
            Value::List(..) => "array",
            Value::Map(..) => "object",
        }
    }

    pub fn is_scalar(&self) -> bool {
        !matches!(self, Value::List(..) | Value::Map(..))
    }

    /// A scalar as the stub prints it (`None` for containers).
    pub fn scalar_text(&self) -> Option<Cow<'_, str>> {
        match self {
            Value::Null => Some(Cow::Borrowed("null")),
            Value::Bool(true) => Some(Cow::Borrowed("true")),
            Value::Bool(false) => Some(Cow::Borrowed("false")),
            Value::Number(text) | Value::Text(text) => Some(Cow::Borrowed(text.as_ref())),
            Value::List(..) | Value::Map(..) => None,
        }
    }

    /// The value under `key` of a map.
    pub fn get(&self, key: &str) -> Option<&Value<'a>> {
        match self {
            Value::Map(entries, _) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The value at a dotted path of map keys (`metadata.name`).
    pub fn at_path(&self, path: &str) -> Option<&Value<'a>> {
        path.split('.').try_fold(self, |value, key| value.get(key))
    }
}
