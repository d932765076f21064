//! What enhanced mode reads of a value tree's maps: whether a map holds records (`services:`,
//! `jobs:`, `paths:`), and how many API operations a map of paths holds.

use crate::value::Value;

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
