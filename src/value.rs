//! The value tree: a loaded document (JSON or YAML) as one value type, so one analysis (enhanced
//! mode's `enhanced/document.rs`) reads both. Built by the reference's own parsers
//! (`kinds::json::load_value`, `kinds::yaml`), with their rules; containers past their depth limit
//! keep their length without their items. A neutral module: the parsers that build it and the
//! analyses that read it both depend on it, and it depends on neither.
//!
//! A large container may be loaded as a SAMPLE: `List(items, len)` / `Map(entries, len)` with
//! `0 < items.len() < len` holds its first `SAMPLED_RECORDS` items (entries), then its
//! last one, and `len` is the exact count (a map's distinct keys). Containers of at most
//! `SAMPLED_RECORDS + 1` items are held whole, so a small output reads the same either way.
//! A producer samples a container only when its items are all of one type (`type_name`), so
//! what the sample says of types (how many items are records) holds for the whole; a sample of
//! mixed items is read as telling nothing of the items it left out.

use std::borrow::Cow;

/// Records whose fields and values are read (the first ones); counts and the last record's
/// identity cover them all. A sampling loader holds this many items of a large container, then
/// its last one.
pub(crate) const SAMPLED_RECORDS: usize = 2_000;

#[derive(Debug, PartialEq)]
pub enum Value<'a> {
    Null,
    Bool(bool),
    /// The number as printed (JSON digits, Python's float repr).
    Number(Cow<'a, str>),
    Text(Cow<'a, str>),
    /// Items (all of them, none past the depth limit, or a sample) and the length.
    List(Vec<Value<'a>>, usize),
    /// Entries in document order (keys unique; all of them, none past the depth limit, or a
    /// sample) and the number of keys.
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

    /// Whether a list or map holds a sample of its items (its first `SAMPLED_RECORDS` and its
    /// last), not all of them.
    pub fn sampled(&self) -> bool {
        let (held, len) = match self {
            Value::List(items, len) => (items.len(), *len),
            Value::Map(entries, len) => (entries.len(), *len),
            _ => return false,
        };
        held == SAMPLED_RECORDS + 1 && len > held
    }

    /// How many of a list's items (a map's values) are records (maps), exactly: `None` for a
    /// sample of mixed items (the ones it left out may be anything) and for scalars.
    pub fn record_count(&self) -> Option<usize> {
        let (held, records, len) = match self {
            Value::List(items, len) => (
                items.len(),
                items.iter().filter(|i| matches!(i, Value::Map(..))).count(),
                *len,
            ),
            Value::Map(entries, len) => (
                entries.len(),
                entries
                    .iter()
                    .filter(|(_, v)| matches!(v, Value::Map(..)))
                    .count(),
                *len,
            ),
            _ => return None,
        };
        if !self.sampled() || records == 0 {
            Some(records)
        } else {
            (records == held).then_some(len)
        }
    }

    /// Whether a container anywhere in `self` is held as a sample of `sample` items.
    #[cfg(test)]
    pub fn sampled_somewhere(&self, sample: usize) -> bool {
        match self {
            Value::List(items, len) => {
                (items.len() == sample + 1 && *len > items.len())
                    || items.iter().any(|i| i.sampled_somewhere(sample))
            }
            Value::Map(entries, len) => {
                (entries.len() == sample + 1 && *len > entries.len())
                    || entries.iter().any(|(_, v)| v.sampled_somewhere(sample))
            }
            _ => false,
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
