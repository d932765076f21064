//! A loaded document (JSON or YAML) as one value type, so one analysis (`document.rs`) reads
//! both. Loaded by the reference's own parsers (`kinds::json::load_value`, `kinds::yaml`), with
//! their rules; containers past their depth limit keep their length without their items.
//!
//! A large container may be loaded as a SAMPLE: `List(items, len)` / `Map(entries, len)` with
//! `0 < items.len() < len` holds its first `document::SAMPLED_RECORDS` items (entries), then its
//! last one, and `len` is the exact count (a map's distinct keys). Containers of at most
//! `SAMPLED_RECORDS + 1` items are held whole, so a small output reads the same either way.
//! A producer samples a container only when its items are all of one type (`type_name`), so
//! what the sample says of types (how many items are records) holds for the whole; a sample of
//! mixed items is read as telling nothing of the items it left out.

use std::borrow::Cow;

use super::document::SAMPLED_RECORDS;

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

/// Map entries read to decide whether a map holds records (the first ones).
const SHAPE_SAMPLE: usize = 2_000;

/// Keys of an operation in a map of API paths (OpenAPI, Swagger): the HTTP methods.
pub const HTTP_METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

impl<'a> Value<'a> {
    /// A map whose entries are records (`services:`, `jobs:`, `paths:`, `Resources:`,
    /// `definitions:`): at least 3 values, more than half of them maps, and one key that more
    /// than half of those maps share. The record entries (name and value) in document order.
    pub fn record_entries(&self) -> Option<Vec<(&str, &Value<'a>)>> {
        self.record_entries_sharing(1, 2)
    }

    /// `record_entries` of a document's root, which is more often a configuration of sections
    /// that happen to share a key (Helm values' subcharts and their `enabled`) than a map of
    /// records (GitLab CI jobs): the shared key must be in at least 3 in 4 of its maps.
    pub fn root_record_entries(&self) -> Option<Vec<(&str, &Value<'a>)>> {
        self.record_entries_sharing(3, 4)
    }

    /// `record_entries` with a shared key in more than half of the maps and at least
    /// `numerator` in `denominator` of them.
    fn record_entries_sharing(
        &self,
        numerator: usize,
        denominator: usize,
    ) -> Option<Vec<(&str, &Value<'a>)>> {
        let Value::Map(entries, _) = self else {
            return None;
        };
        let records: Vec<(&str, &Value<'a>)> = entries
            .iter()
            .filter(|(_, value)| matches!(value, Value::Map(..)))
            .map(|(key, value)| (key.as_ref(), value))
            .collect();
        if records.len() < 3 || records.len() * 2 <= entries.len() {
            return None;
        }
        // How many of the sampled records hold each key: one shared key makes them records.
        let sample = &records[..records.len().min(SHAPE_SAMPLE)];
        // (Keyed by `String`, the map type the analysis already uses: one more instantiation
        // of the hash map costs the shipped wasm ~10 KB.)
        let mut holders: std::collections::HashMap<String, usize> =
            std::collections::HashMap::new();
        for (_, record) in sample {
            if let Value::Map(fields, _) = record {
                for (key, _) in fields {
                    match holders.get_mut(key.as_ref()) {
                        Some(count) => *count += 1,
                        None => {
                            holders.insert(key.to_string(), 1);
                        }
                    }
                }
            }
        }
        let shared = holders.values().copied().max().unwrap_or(0);
        (shared * 2 > sample.len() && shared * denominator >= sample.len() * numerator)
            .then_some(records)
    }

    /// How many operations a map of API paths holds: the HTTP-method keys of its entries, when
    /// most entries have one (`None` for other maps).
    pub fn operation_count(entries: &[(&str, &Value<'a>)]) -> Option<usize> {
        let mut operations = 0;
        let mut with_operations = 0;
        for (_, entry) in entries {
            if let Value::Map(fields, _) = entry {
                let here = fields
                    .iter()
                    .filter(|(key, _)| HTTP_METHODS.contains(&key.as_ref()))
                    .count();
                operations += here;
                with_operations += usize::from(here > 0);
            }
        }
        (with_operations * 2 > entries.len()).then_some(operations)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::yaml::load_documents;

    fn entries_of(text: &str, key: &str) -> Option<Vec<String>> {
        let documents = load_documents(text).expect("valid YAML");
        let value = documents[0].get(key).expect("the key");
        value.record_entries().map(|entries| {
            entries
                .into_iter()
                .map(|(name, _)| name.to_string())
                .collect()
        })
    }

    #[test]
    fn a_map_is_of_records_when_most_values_are_maps_sharing_a_key() {
        let services =
            "s:\n  a: {image: x}\n  b: {image: y, ports: [1]}\n  c: {build: .}\n  d: {image: z}\n";
        assert_eq!(
            entries_of(services, "s"),
            Some(vec!["a".into(), "b".into(), "c".into(), "d".into()])
        );
        // Sections with nothing in common (OpenAPI `components`) are not records.
        let sections =
            "c:\n  schemas: {A: {}}\n  responses: {NotFound: {}}\n  parameters: {Limit: {}}\n";
        assert_eq!(entries_of(sections, "c"), None);
        // Mostly scalars (a ConfigMap's `data`), or too few records, are not either.
        assert_eq!(entries_of("d:\n  a: 1\n  b: 2\n  c: {x: 1}\n", "d"), None);
        assert_eq!(entries_of("d:\n  a: {x: 1}\n  b: {x: 2}\n", "d"), None);
    }

    #[test]
    fn operations_are_the_http_method_keys_of_api_paths() {
        let documents = load_documents(
            "p:\n  /a: {get: {}, post: {}}\n  /b: {get: {}, parameters: []}\n  /c: {delete: {}}\n",
        )
        .expect("valid YAML");
        let entries = documents[0]
            .get("p")
            .and_then(Value::record_entries)
            .expect("records");
        assert_eq!(Value::operation_count(&entries), Some(4));
        let documents = load_documents("s:\n  a: {image: x}\n  b: {image: y}\n  c: {get: z}\n")
            .expect("valid YAML");
        let entries = documents[0]
            .get("s")
            .and_then(Value::record_entries)
            .expect("records");
        assert_eq!(Value::operation_count(&entries), None);
    }
}
