//! What a model needs from a loaded document (JSON, JSON Lines, YAML): each top-level entry in
//! brief (scalars with their value, containers with their size), and for lists of records the
//! union of their fields with types and presence, the values of low-cardinality fields with
//! counts, values shared by every record, rare values with the record that holds them, and the
//! first and last record's identifying fields.

use std::borrow::Cow;
use std::collections::HashMap;

use super::value::Value;
use crate::kinds::Synopsis;
use crate::python::{char_len, clip, one_line, stable_sort_by};

/// Top-level entries described one per line; the rest are named on one line.
const LISTED_ENTRIES: usize = 14;
/// Keys a map's brief names.
const BRIEF_KEYS: usize = 8;
/// Record lists analysed (the longest first).
const RECORD_LISTS: usize = 2;
/// A field is low-cardinality with at most this many distinct values.
const MAX_DISTINCT: usize = 16;
/// Values shown per low-cardinality field.
const SHOWN_VALUES: usize = 16;
/// Values longer than this (URLs, sentences) do not make a field low-cardinality.
const SHORT_VALUE: usize = 40;
/// Low-cardinality fields shown per record list.
const SHOWN_FIELDS: usize = 6;
/// Fields nested deeper than this inside a record are not analysed.
const MAX_FIELD_DEPTH: usize = 6;
/// Records whose fields and values are read (the first ones); counts and the last record's
/// identity cover them all.
pub const SAMPLED_RECORDS: usize = 2_000;
/// Chars of the line of record names.
const NAMES_WIDTH: usize = 600;
/// Width of one value in a stub line.
const VALUE_WIDTH: i64 = 60;
/// Longest line a list of names becomes (the stub's bound clips further when needed).
const LINE_WIDTH: usize = 180;

/// Field names that identify a record, most telling first.
const LABEL_FIELDS: [&str; 9] = [
    "name",
    "metadata.name",
    "title",
    "id",
    "key",
    "number",
    "login",
    "email",
    "path",
];
/// Last segments of field names whose values are states or categories: shown first.
const STATE_FIELDS: [&str; 16] = [
    "state",
    "status",
    "phase",
    "level",
    "severity",
    "kind",
    "type",
    "reason",
    "event",
    "result",
    "outcome",
    "conclusion",
    "method",
    "code",
    "category",
    "currency",
];

/// A scalar for a stub line: one line, clipped.
pub fn shown(text: &str, width: i64) -> String {
    one_line(text, width)
}

/// Joins `items` with ", " up to about `LINE_WIDTH` chars, then says how many were left out.
pub fn joined_names<S: AsRef<str>>(items: &[S]) -> String {
    joined_within(items, LINE_WIDTH)
}

/// `joined_names` up to about `width` chars.
pub fn joined_within<S: AsRef<str>>(items: &[S], width: usize) -> String {
    let mut line = String::new();
    let mut chars = 0;
    for (index, item) in items.iter().enumerate() {
        let item = item.as_ref();
        if index > 0 && chars + char_len(item) > width {
            line.push_str(&format!(", ... {} more", items.len() - index));
            return line;
        }
        if index > 0 {
            line.push_str(", ");
        }
        line.push_str(item);
        chars += char_len(item) + 2;
    }
    line
}

/// What a list holds: `objects`, `strings`, `numbers`, ... or `items` when mixed.
fn item_types(items: &[Value<'_>]) -> &'static str {
    let mut kinds = items.iter().map(Value::type_name);
    let Some(first) = kinds.next() else {
        return "items";
    };
    if !kinds.all(|kind| kind == first) {
        return "items";
    }
    match first {
        "object" => "objects",
        "array" => "arrays",
        "string" => "strings",
        "number" => "numbers",
        "boolean" => "booleans",
        _ => "items",
    }
}

/// One value in brief: a scalar as it is, a list by length (and its scalars when short), a map
/// by its number of keys and the first of them.
pub fn brief(value: &Value<'_>) -> String {
    match value {
        Value::List(items, len) => {
            let mut text = format!("array of {len} {}", item_types(items));
            if *len > 0 && items.iter().all(Value::is_scalar) && !items.is_empty() {
                let names: Vec<Cow<'_, str>> = items.iter().filter_map(Value::scalar_text).collect();
                text.push_str(": ");
                text.push_str(&clip(&names.join(", "), 80));
            }
            text
        }
        Value::Map(entries, len) => {
            // Small maps show their scalars; children name their size (`schemas{74}`, `tags[3]`).
            let small = *len <= BRIEF_KEYS;
            let keys: Vec<String> = entries
                .iter()
                .map(|(key, value)| match value {
                    Value::Map(_, n) if small => format!("{key}{{{n}}}"),
                    Value::List(_, n) if small => format!("{key}[{n}]"),
                    scalar if small => match scalar.scalar_text() {
                        Some(text) => format!("{key}={}", shown(&text, 40)),
                        None => key.to_string(),
                    },
                    _ => key.to_string(),
                })
                .collect();
            let mut text = format!("object with {len} keys");
            if !keys.is_empty() {
                text.push_str(": ");
                text.push_str(&joined_names(&keys));
            }
            text
        }
        scalar => scalar
            .scalar_text()
            .map(|text| shown(&text, VALUE_WIDTH))
            .unwrap_or_default(),
    }
}

/// The synopsis of a loaded document. `label` names the format (`JSON`, `JSON Lines`, `YAML`).
pub fn describe(root: &Value<'_>, label: &str, kind: &str, title: &str) -> Synopsis {
    let mut synopsis = Synopsis::new(kind, title);
    match root {
        Value::Map(entries, len) => {
            synopsis
                .summary
                .push(format!("{label} object with {len} top-level keys."));
            for (key, value) in entries.iter().take(LISTED_ENTRIES) {
                synopsis.structure.push(format!("{key}: {}", brief(value)));
            }
            if entries.len() > LISTED_ENTRIES {
                let rest: Vec<&str> = entries[LISTED_ENTRIES..].iter().map(|(k, _)| k.as_ref()).collect();
                synopsis.structure.push(format!("more keys: {}", joined_names(&rest)));
            }
            for (path, records) in record_lists(root) {
                describe_records(&path, &records, &mut synopsis);
            }
        }
        Value::List(items, len) => {
            synopsis
                .summary
                .push(format!("{label} array of {len} {}.", item_types(items)));
            if items.iter().any(|item| matches!(item, Value::Map(..))) {
                let records: Vec<&Value<'_>> =
                    items.iter().filter(|i| matches!(i, Value::Map(..))).collect();
                describe_records("", &records, &mut synopsis);
            } else {
                describe_scalars(items, &mut synopsis);
            }
        }
        scalar => synopsis.summary.push(format!(
            "{label} {}: {}",
            scalar.type_name(),
            brief(scalar)
        )),
    }
    synopsis
}

/// Records one or two levels under the root, the most first: lists of maps (`path[]`) and
/// maps whose values are maps (`path.*`, a service or job per key).
fn record_lists<'v, 'a>(root: &'v Value<'a>) -> Vec<(String, Vec<&'v Value<'a>>)> {
    let mut found: Vec<(String, Vec<&'v Value<'a>>)> = Vec::new();
    let Value::Map(entries, _) = root else {
        return found;
    };
    let mut consider = |path: String, value: &'v Value<'a>| {
        let (records, total, marker): (Vec<&'v Value<'a>>, usize, &str) = match value {
            Value::List(items, _) => (
                items.iter().filter(|i| matches!(i, Value::Map(..))).collect(),
                items.len(),
                "[]",
            ),
            Value::Map(children, _) => (
                children.iter().map(|(_, v)| v).filter(|v| matches!(v, Value::Map(..))).collect(),
                children.len(),
                ".*",
            ),
            _ => return,
        };
        if records.len() >= 3 && records.len() * 2 > total {
            found.push((format!("{path}{marker}"), records));
        }
    };
    for (key, value) in entries {
        consider(key.to_string(), value);
        if let Value::Map(children, _) = value {
            for (child_key, child) in children {
                consider(format!("{key}.{child_key}"), child);
            }
        }
    }
    // The most records first; equal counts keep document order (a stable sort).
    stable_sort_by(&mut found, |a, b| b.1.len().cmp(&a.1.len()));
    found.truncate(RECORD_LISTS);
    found
}

/// Values of one field across records.
#[derive(Default)]
struct FieldStats {
    /// Distinct values with their counts and the first record holding them, in first-seen
    /// order (up to `MAX_DISTINCT`).
    values: Vec<(String, usize, usize)>,
    /// Records with at least one value here.
    records: usize,
    /// Total values seen.
    total: usize,
    /// More than `MAX_DISTINCT` distinct values.
    many: bool,
    /// Index of the last record counted in `records`.
    last_record: usize,
    /// A number was seen.
    numeric: bool,
    depth: usize,
}

impl FieldStats {
    fn add(&mut self, value: &str, record: usize) {
        if self.total == 0 || self.last_record != record {
            self.records += 1;
            self.last_record = record;
        }
        self.total += 1;
        if self.many {
            return;
        }
        if let Some(slot) = self.values.iter_mut().find(|(v, _, _)| v == value) {
            slot.1 += 1;
        } else if self.values.len() < MAX_DISTINCT {
            self.values.push((value.to_string(), 1, record));
        } else {
            self.many = true;
        }
    }
}

/// Calls `on_leaf(path, scalar, depth, numeric)` for every scalar leaf of `value` under `path`
/// (maps by `.key`, lists by `[]`), to `MAX_FIELD_DEPTH`. `path` is one buffer, grown and cut
/// back as the walk goes: no allocation per leaf.
fn leaves(
    value: &Value<'_>,
    path: &mut String,
    depth: usize,
    on_leaf: &mut dyn FnMut(&str, &str, usize, bool),
) {
    let length = path.len();
    match value {
        Value::Map(entries, _) if depth < MAX_FIELD_DEPTH => {
            for (key, child) in entries {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
                leaves(child, path, depth + 1, on_leaf);
                path.truncate(length);
            }
        }
        Value::List(items, _) if depth < MAX_FIELD_DEPTH && depth > 0 => {
            path.push_str("[]");
            for item in items {
                leaves(item, path, depth + 1, on_leaf);
            }
            path.truncate(length);
        }
        Value::Map(..) | Value::List(..) => {}
        scalar => {
            if let Some(text) = scalar.scalar_text() {
                on_leaf(path, &text, depth, matches!(scalar, Value::Number(_)));
            }
        }
    }
}

/// The record's identifying value: its first label field that holds a scalar.
fn record_label(record: &Value<'_>) -> Option<String> {
    LABEL_FIELDS.iter().find_map(|path| {
        let value = record.at_path(path)?;
        let text = value.scalar_text()?;
        (!text.is_empty()).then(|| shown(&text, 50))
    })
}

/// The identifying fields of a record: `id=1, title=...`, each value at most `width` chars.
pub fn record_identity(record: &Value<'_>, width: i64) -> Option<String> {
    let parts: Vec<String> = LABEL_FIELDS
        .iter()
        .filter_map(|path| {
            let text = record.at_path(path)?.scalar_text()?.into_owned();
            (!text.is_empty()).then(|| format!("{path}={}", shown(&text, width)))
        })
        .take(3)
        .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// A type name as the field list prints it.
fn short_type(type_name: &str) -> &str {
    match type_name {
        "string" => "str",
        "number" => "num",
        "boolean" => "bool",
        "object" => "obj",
        "array" => "arr",
        other => other,
    }
}

fn last_segment(path: &str) -> &str {
    let tail = path.rsplit('.').next().unwrap_or(path);
    tail.trim_end_matches("[]")
}

/// How telling a field's values are: its name's place in `STATE_FIELDS` (a `_suffix` match
/// after every exact one), or after all of them.
pub fn state_rank(path: &str) -> usize {
    let tail = last_segment(path).to_ascii_lowercase();
    let exact = STATE_FIELDS.iter().position(|name| tail == *name);
    let suffix = || {
        STATE_FIELDS
            .iter()
            .position(|name| tail.ends_with(&format!("_{name}")))
            .map(|at| STATE_FIELDS.len() + at)
    };
    exact.or_else(suffix).unwrap_or(2 * STATE_FIELDS.len())
}

fn is_label_field(key: &str) -> bool {
    LABEL_FIELDS.contains(&key)
}

fn is_url_field(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    key == "url" || key.ends_with("_url") || key.ends_with("url") && key.len() > 3 || key == "href"
}

/// Union of keys, field value statistics and identities of a list of records, in the order
/// JSON and YAML stubs show them.
pub fn describe_records(path: &str, all: &[&Value<'_>], synopsis: &mut Synopsis) {
    // Fields and values are read from a sample: a 10 MB list costs little more than its decode.
    let sample = &all[..all.len().min(SAMPLED_RECORDS)];
    let lines = record_lines(path, sample, all.len(), all.last().copied(), true);
    let (first_values, other_values) = lines.values.split_at(lines.values.len().min(2));
    synopsis.structure.push(lines.fields);
    synopsis.structure.extend(first_values.iter().cloned());
    synopsis.structure.extend(lines.first);
    synopsis.structure.extend(lines.last);
    synopsis.structure.extend(lines.rare);
    synopsis.structure.extend(lines.all);
    synopsis.structure.extend(lines.names);
    synopsis.structure.extend(other_values.iter().cloned());
}

/// What a list of records says, line by line (each line starts with `path: ` when `path` is
/// set), for callers to order as their format needs.
pub struct RecordLines {
    /// `N records, K fields: id:num, title:str, ...` (identifying fields first, URLs last).
    pub fields: String,
    /// The fields alone, as that line lists them.
    pub field_names: Vec<String>,
    /// Low-cardinality fields with their values and counts, states first (at most `SHOWN_FIELDS`).
    pub values: Vec<String>,
    /// The first and last record's identifying fields.
    pub first: Option<String>,
    pub last: Option<String>,
    /// Rare states with the record holding them.
    pub rare: Option<String>,
    /// Values every record shares.
    pub all: Option<String>,
    /// The records' names, each once.
    pub names: Option<String>,
}

/// The lines of `record_lines`: `records` is the sample whose fields and values are read (the
/// first records), `total` how many there are, `last` the last of them. `typed` adds each
/// field's JSON types (`id:num`); without it a field that is a list is marked `name[]`.
pub fn record_lines(
    path: &str,
    records: &[&Value<'_>],
    total: usize,
    last: Option<&Value<'_>>,
    typed: bool,
) -> RecordLines {
    let count = records.len();
    let prefix = if path.is_empty() {
        String::new()
    } else {
        format!("{path}: ")
    };
    // Union of top-level keys: first-seen order, types and presence.
    let mut keys: Vec<(String, Vec<&'static str>, usize)> = Vec::new();
    let mut key_index: HashMap<String, usize> = HashMap::new();
    for record in records {
        if let Value::Map(entries, _) = record {
            for (key, value) in entries {
                let slot = match key_index.get(key.as_ref()) {
                    Some(&slot) => slot,
                    None => {
                        keys.push((key.to_string(), Vec::new(), 0));
                        key_index.insert(key.to_string(), keys.len() - 1);
                        keys.len() - 1
                    }
                };
                let entry = &mut keys[slot];
                entry.2 += 1;
                if !entry.1.contains(&value.type_name()) {
                    entry.1.push(value.type_name());
                }
            }
        }
    }
    // Identifying fields first, then those only some records have, URLs last.
    let rank = |key: &str, present: usize| {
        if is_label_field(key) {
            0
        } else if is_url_field(key) {
            3
        } else if present < count {
            1
        } else {
            2
        }
    };
    let mut ordered: Vec<&(String, Vec<&'static str>, usize)> = keys.iter().collect();
    stable_sort_by(&mut ordered, |a, b| rank(&a.0, a.2).cmp(&rank(&b.0, b.2)));
    let fields: Vec<String> = ordered
        .iter()
        .map(|(key, types, present)| {
            let types = if typed {
                let names: Vec<&str> = types.iter().map(|t| short_type(t)).collect();
                format!(":{}", names.join("|"))
            } else if types.contains(&"array") {
                "[]".to_string()
            } else {
                String::new()
            };
            if *present == count {
                format!("{key}{types}")
            } else {
                format!("{key}{types} ({present}/{count})")
            }
        })
        .collect();
    let sampled = if count < total {
        format!(" (in the first {count})")
    } else {
        String::new()
    };
    let fields_line = format!(
        "{prefix}{total} records, {} fields{sampled}: {}",
        keys.len(),
        joined_names(&fields)
    );
    // Values of every leaf field.
    let mut stats: Vec<(String, FieldStats)> = Vec::new();
    let mut stat_index: HashMap<String, usize> = HashMap::new();
    let mut path = String::new();
    for (index, record) in records.iter().enumerate() {
        leaves(record, &mut path, 0, &mut |field, text, depth, numeric| {
            let slot = match stat_index.get(field) {
                Some(&slot) => slot,
                None => {
                    stats.push((field.to_string(), FieldStats { depth, ..FieldStats::default() }));
                    stat_index.insert(field.to_string(), stats.len() - 1);
                    stats.len() - 1
                }
            };
            let field_stats = &mut stats[slot].1;
            field_stats.add(text, index);
            field_stats.numeric |= numeric;
        });
    }
    // Low-cardinality fields with more than one value (short strings and booleans): states
    // first, then shallow ones.
    let mut varied: Vec<&(String, FieldStats)> = stats
        .iter()
        .filter(|(_, s)| {
            !s.many
                && !s.numeric
                && s.values.len() >= 2
                && s.values.len() * 2 <= s.total
                && s.values.iter().all(|(v, _, _)| char_len(v) <= SHORT_VALUE)
                && count >= 3
        })
        .collect();
    let order_key = |(field, s): &&(String, FieldStats)| {
        let rank = state_rank(field);
        (rank / STATE_FIELDS.len(), s.depth, rank)
    };
    stable_sort_by(&mut varied, |a, b| order_key(a).cmp(&order_key(b)));
    let value_line = |(field, s): &&(String, FieldStats)| {
        let mut values: Vec<&(String, usize, usize)> = s.values.iter().collect();
        stable_sort_by(&mut values, |a, b| b.1.cmp(&a.1));
        let shown_values: Vec<String> = values
            .iter()
            .take(SHOWN_VALUES)
            .map(|(value, n, _)| format!("{} {n}", shown(value, VALUE_WIDTH)))
            .collect();
        let more = values.len().saturating_sub(SHOWN_VALUES);
        let tail = if more > 0 { format!(", ... {more} more") } else { String::new() };
        format!("{prefix}{field}: {}{tail}", shown_values.join(", "))
    };
    let values: Vec<String> = varied.iter().take(SHOWN_FIELDS).map(value_line).collect();
    let first = records
        .first()
        .and_then(|r| record_identity(r, VALUE_WIDTH))
        .map(|first| format!("{prefix}first: {first}"));
    let last = last
        .filter(|_| total > 1)
        .and_then(|r| record_identity(r, VALUE_WIDTH))
        .map(|last| format!("{prefix}last: {last}"));
    // Rare values of the low-cardinality fields, with the record that holds them.
    let rare = if count >= 10 {
        let rare_limit = (count / 50).max(1);
        let mut rare = Vec::new();
        // States and reasons only (a rare host or id says nothing), also where only a few
        // records have the field at all.
        let states = stats.iter().filter(|(field, s)| {
            state_rank(field) < 2 * STATE_FIELDS.len()
                && !s.many
                && !s.numeric
                && s.values.iter().all(|(v, _, _)| char_len(v) <= SHORT_VALUE)
                && (s.values.len() >= 2 || s.records <= rare_limit)
        });
        for (field, s) in states {
            for (value, n, holder) in &s.values {
                if *n > rare_limit || rare.len() >= SHOWN_FIELDS {
                    continue;
                }
                let value = shown(value, VALUE_WIDTH);
                rare.push(match records.get(*holder).and_then(|record| record_label(record)) {
                    Some(label) => format!("{field}={value} ({label})"),
                    None => format!("{field}={value}"),
                });
            }
        }
        (!rare.is_empty()).then(|| format!("{prefix}rare: {}", rare.join("; ")))
    } else {
        None
    };
    // Values every record shares.
    let constant: Vec<String> = stats
        .iter()
        .filter(|(_, s)| s.values.len() == 1 && s.records == count && count >= 2 && s.depth <= 2)
        .filter(|(_, s)| char_len(&s.values[0].0) <= SHORT_VALUE)
        .take(SHOWN_FIELDS)
        .map(|(field, s)| format!("{field}={}", shown(&s.values[0].0, VALUE_WIDTH)))
        .collect();
    let all = (!constant.is_empty()).then(|| format!("{prefix}all: {}", constant.join(", ")));
    // The records' names (or ids), each once, in order: what to ask for next.
    let mut names: Vec<String> = Vec::new();
    for record in records {
        // Names only: titles and ids are not what a record is asked for by.
        let name = ["name", "metadata.name"]
            .iter()
            .find_map(|path| record.at_path(path)?.scalar_text().map(|n| shown(&n, 50)));
        if let Some(name) = name {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    let names = (names.len() > 1).then(|| {
        format!("{prefix}names ({}): {}", names.len(), joined_within(&names, NAMES_WIDTH))
    });
    RecordLines {
        fields: fields_line,
        field_names: fields,
        values,
        first,
        last,
        rare,
        all,
        names,
    }
}

/// Value counts of a list of scalars (when few distinct), else its first items.
fn describe_scalars(items: &[Value<'_>], synopsis: &mut Synopsis) {
    let mut stats = FieldStats::default();
    for (index, item) in items.iter().enumerate() {
        if let Some(text) = item.scalar_text() {
            stats.add(&shown(&text, VALUE_WIDTH), index);
        }
    }
    if !stats.many && stats.values.len() < stats.total {
        let mut values = stats.values;
        stable_sort_by(&mut values, |a, b| b.1.cmp(&a.1));
        let shown_values: Vec<String> = values.iter().map(|(v, n, _)| format!("{v} {n}")).collect();
        synopsis.structure.push(format!("values: {}", shown_values.join(", ")));
    } else {
        let first: Vec<String> = items.iter().take(10).map(brief).collect();
        synopsis.structure.push(format!("first items: {}", joined_names(&first)));
    }
}
