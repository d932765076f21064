//! What a model needs from a loaded document (JSON, JSON Lines, YAML): each top-level entry in
//! brief (scalars with their value, containers with their size), and for lists of records the
//! union of their fields with types and presence, the values of low-cardinality fields with
//! counts, values shared by every record, rare values with the record that holds them, and the
//! first and last record's identifying fields.

use std::borrow::Cow;
use std::collections::HashMap;

use super::field_values::{shown, state_rank, STATE_FIELDS};
use super::table::is_number_or_date;
use crate::kinds::Synopsis;
use crate::python::{char_len, clip, stable_sort_by};
use crate::value::Value;

/// Top-level entries described one per line; the rest are named on one line.
const LISTED_ENTRIES: usize = 14;
/// Keys a map's brief names.
const BRIEF_KEYS: usize = 8;
/// Record collections analysed (the largest).
const RECORD_COLLECTIONS: usize = 2;
/// Chars of the outline of a document's top-level keys.
const OUTLINE_WIDTH: usize = 240;
/// A map in the outline names its keys when it has at most this many, each a container.
const OUTLINE_SECTIONS: usize = 4;
/// A top-level map of at most this many short scalars (`SETTING_CHARS`) is shown with its
/// values in the outline.
const OUTLINE_SETTINGS: usize = 2;
const SETTING_CHARS: usize = 24;
/// Fields a map in the outline shows the value of (what names the document).
const OUTLINE_LABELS: [&str; 4] = ["name", "title", "version", "id"];
/// Distinct values counted when looking for a map's identifying field.
const MAX_IDENTITY_VALUES: usize = 64;
/// Lists of a map's records shown entry by entry (`listed_values`), and the values shown of each.
const LISTED_FIELDS: usize = 2;
const LISTED_VALUES: usize = 4;
/// Chars of a map's records with their names (or identifying values).
const ENTRIES_WIDTH: usize = 400;
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
pub(crate) use crate::value::SAMPLED_RECORDS;
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

/// Joins `items` with ", " up to about `LINE_WIDTH` chars, then says how many were left out.
pub fn joined_names<S: AsRef<str>>(items: &[S]) -> String {
    joined_within(items, LINE_WIDTH)
}

/// `joined_names` up to about `width` chars.
pub fn joined_within<S: AsRef<str>>(items: &[S], width: usize) -> String {
    joined_of(items, items.len(), width)
}

/// `joined_within` of the first `items` of `total` names (a sample's, or the first ones of a
/// long list written out): the count of those left out is of the total.
pub fn joined_of<S: AsRef<str>>(items: &[S], total: usize, width: usize) -> String {
    let mut line = String::new();
    let mut chars = 0;
    for (index, item) in items.iter().enumerate() {
        let item = item.as_ref();
        if index > 0 && chars + char_len(item) > width {
            line.push_str(&format!(", ... {} more", total.saturating_sub(index)));
            return line;
        }
        if index > 0 {
            line.push_str(", ");
        }
        line.push_str(item);
        chars += char_len(item) + 2;
    }
    if total > items.len() {
        line.push_str(&format!(", ... {} more", total - items.len()));
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
pub fn value_summary(value: &Value<'_>) -> String {
    match value {
        Value::List(items, len) => {
            let mut text = format!("array of {len} {}", item_types(items));
            if *len > 0 && items.iter().all(Value::is_scalar) && !items.is_empty() {
                let names: Vec<Cow<'_, str>> =
                    items.iter().filter_map(Value::scalar_text).collect();
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
                let total = if value.sampled() { *len } else { keys.len() };
                text.push_str(": ");
                text.push_str(&joined_of(&keys, total, LINE_WIDTH));
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
            // The document's outline: every top-level key in order, with its value or size.
            // (Keys past the first few hundred never fit the line: they are counted only.)
            let outline: Vec<(String, usize)> = entries
                .iter()
                .take(OUTLINE_WIDTH)
                .map(|(key, value)| (outline_entry(key, value), 1))
                .collect();
            let keys = if root.sampled() { *len } else { entries.len() };
            synopsis.summary.push(format!(
                "{label} object, {len} keys: {}.",
                joined_counted(&outline, keys, OUTLINE_WIDTH)
            ));
            // Record collections first (each one's headline, then their details), then the
            // other containers in brief, in document order (scalars are in the outline).
            let collections = record_collections(root);
            let mut details = Vec::new();
            for collection in &collections {
                let (headline, more) = record_lines(
                    &collection.path,
                    &collection.records,
                    collection.total,
                    collection.names.as_deref(),
                    true,
                );
                synopsis.structure.extend(headline);
                details.push(more);
            }
            synopsis.structure.extend(details.into_iter().flatten());
            // A top-level collection, or a record of the root's (every map at the top level
            // when the root holds records), has been described.
            let root_records = collections.iter().any(|c| c.depth == 0);
            let covered = |key: &str, value: &Value<'_>| {
                (root_records && matches!(value, Value::Map(..)))
                    || collections.iter().any(|c| c.depth == 1 && c.top_key == key)
            };
            // (A section the outline shows with its values is not described again.)
            let inlined = |value: &Value<'_>| match value {
                Value::Map(entries, len) => settings(entries, *len).is_some(),
                _ => false,
            };
            let containers = entries
                .iter()
                .filter(|(key, value)| {
                    !value.is_scalar() && !covered(key, value) && !inlined(value)
                })
                .take(LISTED_ENTRIES);
            for (key, value) in containers {
                synopsis
                    .structure
                    .push(format!("{key}: {}", value_summary(value)));
            }
        }
        Value::List(items, len) => {
            synopsis
                .summary
                .push(format!("{label} array of {len} {}.", item_types(items)));
            if items.iter().any(|item| matches!(item, Value::Map(..))) {
                let records: Vec<&Value<'_>> = items
                    .iter()
                    .filter(|i| matches!(i, Value::Map(..)))
                    .collect();
                let (headline, details) =
                    record_lines("", &records, root.record_count(), None, true);
                synopsis.structure.extend(headline);
                synopsis.structure.extend(details);
            } else {
                describe_scalars(items, root.sampled(), &mut synopsis);
            }
        }
        scalar => synopsis.summary.push(format!(
            "{label} {}: {}",
            scalar.type_name(),
            value_summary(scalar)
        )),
    }
    synopsis
}

/// Records at the root or one or two levels under it: lists of maps (`path[]`) and maps of
/// records (`services`, `jobs`, `paths`: `Value::record_entries`, whose entries are named).
struct Collection<'v, 'a> {
    path: String,
    /// The top-level key it is under ("" for the root).
    top_key: String,
    /// 0 for the root, 1 for a top-level key, 2 under one.
    depth: usize,
    /// The records held (all of them, or a sample's: the first ones and the last).
    records: Vec<&'v Value<'a>>,
    /// How many records the collection has (`None`: a sample of mixed items, unknown).
    total: Option<usize>,
    /// The names of a map's records (its keys); `None` for a list.
    names: Option<Vec<&'v str>>,
}

/// The record collections worth describing: the `RECORD_COLLECTIONS` largest, shallow ones first
/// (then the larger), so `paths` comes before `components.schemas`.
fn record_collections<'v, 'a>(root: &'v Value<'a>) -> Vec<Collection<'v, 'a>> {
    let mut found: Vec<Collection<'v, 'a>> = Vec::new();
    let Value::Map(entries, _) = root else {
        return found;
    };
    let mut consider = |path: String, top_key: &str, depth: usize, value: &'v Value<'a>| {
        let collection = |records, names| Collection {
            path: path.clone(),
            top_key: top_key.to_string(),
            depth,
            records,
            total: value.record_count(),
            names,
        };
        match value {
            Value::List(items, _) if depth > 0 => {
                let records: Vec<&'v Value<'a>> = items
                    .iter()
                    .filter(|i| matches!(i, Value::Map(..)))
                    .collect();
                if records.len() >= 3 && records.len() * 2 > items.len() {
                    found.push(Collection {
                        path: format!("{path}[]"),
                        ..collection(records, None)
                    });
                }
            }
            Value::Map(..) => {
                let entries = if depth == 0 {
                    value.root_record_entries()
                } else {
                    value.record_entries()
                };
                if let Some(entries) = entries {
                    let (names, records) = entries.into_iter().unzip();
                    found.push(collection(records, Some(names)));
                }
            }
            _ => {}
        }
    };
    consider(String::new(), "", 0, root);
    for (key, value) in entries {
        consider(key.to_string(), key, 1, value);
        if let Value::Map(children, _) = value {
            for (child_key, child) in children {
                consider(format!("{key}.{child_key}"), key, 2, child);
            }
        }
    }
    // The most records (equal counts keep document order: a stable sort), then shallow first.
    let size = |c: &Collection<'_, '_>| c.total.unwrap_or(c.records.len());
    stable_sort_by(&mut found, |a, b| size(b).cmp(&size(a)));
    found.truncate(RECORD_COLLECTIONS);
    stable_sort_by(&mut found, |a, b| a.depth.cmp(&b.depth));
    found
}

/// One top-level key in the outline: `key=scalar`, `key[len]`, and for a map `key{len}`, its
/// label fields (`info{title=..., version=..., +3}`) or, when it holds a few sections (every
/// value a map or list), their names (`on{push, pull_request}`).
fn outline_entry(key: &str, value: &Value<'_>) -> String {
    match value {
        Value::List(_, len) => format!("{key}[{len}]"),
        Value::Map(entries, len) => {
            let labels: Vec<String> = entries
                .iter()
                .filter(|(name, value)| {
                    OUTLINE_LABELS.contains(&name.as_ref()) && value.is_scalar()
                })
                .filter_map(|(name, value)| {
                    Some(format!("{name}={}", shown(&value.scalar_text()?, 40)))
                })
                .take(2)
                .collect();
            if !labels.is_empty() {
                let rest = len - labels.len();
                let more = if rest > 0 {
                    format!(", +{rest}")
                } else {
                    String::new()
                };
                return format!("{key}{{{}{more}}}", labels.join(", "));
            }
            if *len <= OUTLINE_SECTIONS && entries.iter().all(|(_, value)| !value.is_scalar()) {
                let names: Vec<&str> = entries.iter().map(|(name, _)| name.as_ref()).collect();
                return format!("{key}{{{}}}", names.join(", "));
            }
            if let Some(settings) = settings(entries, *len) {
                return format!("{key}{{{settings}}}");
            }
            format!("{key}{{{len}}}")
        }
        scalar => format!(
            "{key}={}",
            shown(&scalar.scalar_text().unwrap_or_default(), 40)
        ),
    }
}

/// A small section of short settings as its values (`image=node:20-bookworm`,
/// `contents=read`): in the outline a count would say nothing of them. `None` for other maps.
fn settings(entries: &[(Cow<'_, str>, Value<'_>)], len: usize) -> Option<String> {
    if len > OUTLINE_SETTINGS {
        return None;
    }
    let pairs: Option<Vec<String>> = entries
        .iter()
        .map(|(name, value)| {
            let text = value
                .scalar_text()
                .filter(|t| char_len(t) <= SETTING_CHARS)?;
            Some(format!("{name}={text}"))
        })
        .collect();
    pairs.map(|pairs| pairs.join(", "))
}

/// Names in order, a run of 4 or more that share a first word (`build-core`, `build-cli`, ...;
/// `/orders`, `/orders/{id}`, ...) shown as its first two and a count (`+16 build-*`). Each
/// shown item with the number of names it stands for.
fn grouped_names(names: &[&str]) -> Vec<(String, usize)> {
    fn first_word(name: &str) -> &str {
        let end = name
            .char_indices()
            .skip(1)
            .find(|(_, c)| matches!(c, '-' | '_' | '.' | '/' | ':'))
            .map_or(name.len(), |(at, _)| at);
        &name[..end]
    }
    let mut shown_names = Vec::new();
    let mut start = 0;
    while start < names.len() {
        let word = first_word(names[start]);
        let run = names[start..]
            .iter()
            .take_while(|name| first_word(name) == word)
            .count();
        if run >= 4 {
            shown_names.extend(
                names[start..start + 2]
                    .iter()
                    .map(|name| (name.to_string(), 1)),
            );
            let separator = names[start + 2][word.len()..].chars().next().unwrap_or('-');
            shown_names.push((format!("+{} {word}{separator}*", run - 2), run - 2));
        } else {
            shown_names.extend(
                names[start..start + run]
                    .iter()
                    .map(|name| (name.to_string(), 1)),
            );
        }
        start += run;
    }
    shown_names
}

/// Items (each standing for some of `total` names) joined with ", " up to about `width` chars,
/// then how many names were left out.
fn joined_counted(items: &[(String, usize)], total: usize, width: usize) -> String {
    let mut line = String::new();
    let mut chars = 0;
    let mut covered = 0;
    for (index, (item, names)) in items.iter().enumerate() {
        if index > 0 && chars + char_len(item) > width {
            break;
        }
        if index > 0 {
            line.push_str(", ");
        }
        line.push_str(item);
        chars += char_len(item) + 2;
        covered += names;
    }
    if covered < total {
        line.push_str(&format!(", ... {} more", total - covered));
    }
    line
}

/// The field that tells a map's records apart beyond their names (`image`, `Type`, `uses`): a
/// text field most records have, with many distinct values (more than half as many as the
/// records holding it, so not a category such as `restart` or `runs-on`), that is mostly neither the
/// record's name again nor prose, numbers or dates; of those, the one most records have, then the one with the most distinct values.
fn identifying_field<'v>(records: &[&'v Value<'_>], names: &[&str]) -> Option<&'v str> {
    let mut candidates: Vec<(&'v str, usize, Vec<&'v str>, usize)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for (record, name) in records.iter().zip(names) {
        let Value::Map(fields, _) = record else {
            continue;
        };
        for (key, value) in fields {
            let Value::Text(text) = value else {
                continue;
            };
            let slot = match index.get(key.as_ref()) {
                Some(&slot) => slot,
                None => {
                    candidates.push((key.as_ref(), 0, Vec::new(), 0));
                    index.insert(key.to_string(), candidates.len() - 1);
                    candidates.len() - 1
                }
            };
            let candidate = &mut candidates[slot];
            candidate.1 += 1;
            if candidate.2.len() <= MAX_IDENTITY_VALUES && !candidate.2.contains(&text.as_ref()) {
                candidate.2.push(text.as_ref());
            }
            // Restating the name, prose (a description), a number or a date (`updatedAt`)
            // does not tell records apart.
            let prose = char_len(text) > SHORT_VALUE || text.split(' ').count() > 3;
            let untelling = prose || is_number_or_date(text) || same_name(text, name);
            candidate.3 += usize::from(untelling);
        }
    }
    candidates
        .into_iter()
        .filter(|(_, present, values, echoes)| {
            *present * 2 > records.len()
                && values.len() >= 2
                && values.len() * 2 > (*present).min(MAX_IDENTITY_VALUES)
                && *echoes * 2 <= *present
        })
        .max_by(|a, b| (a.1, a.2.len()).cmp(&(b.1, b.2.len())).then(b.0.cmp(a.0)))
        .map(|(key, ..)| key)
}

/// Whether a value restates a record's name (`Lint` for `lint`, `Build core` for `build-core`).
fn same_name(value: &str, name: &str) -> bool {
    // ASCII letters and digits: Unicode case tables would cost the shipped wasm more than
    // this comparison is worth.
    let letters = |text: &str| -> Vec<u8> {
        text.bytes()
            .filter(u8::is_ascii_alphanumeric)
            .map(|b| b.to_ascii_lowercase())
            .collect()
    };
    letters(value) == letters(name)
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

/// The identifying fields of a record: `id=1, title=...`.
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

fn is_label_field(key: &str) -> bool {
    LABEL_FIELDS.contains(&key)
}

fn is_url_field(key: &str) -> bool {
    let key = key.to_ascii_lowercase();
    key == "url" || key.ends_with("_url") || key.ends_with("url") && key.len() > 3 || key == "href"
}

/// Union of keys, field value statistics and identities of a list of records (all of them).
pub fn describe_records(path: &str, all: &[&Value<'_>], synopsis: &mut Synopsis) {
    let (headline, details) = record_lines(path, all, Some(all.len()), None, true);
    synopsis.structure.extend(headline);
    synopsis.structure.extend(details);
}

/// The headline of a map of records: its size, its operations when it maps API paths, and its
/// records' names, with their identifying values when they have one
/// (`services: 36 entries, by image: postgres=postgres:16, ...`). `total`: how many records
/// the map has (`None` when `records` are a sample of a map of mixed values).
fn map_headline(
    path: &str,
    records: &[&Value<'_>],
    names: &[&str],
    total: Option<usize>,
) -> String {
    let count = match total {
        Some(total) => format!("{total} entries"),
        None => format!("{} entries (in a sample)", names.len()),
    };
    let mut line = if path.is_empty() {
        count
    } else {
        format!("{path}: {count}")
    };
    let total = total.unwrap_or(names.len());
    // Names past the first few hundred never fit the line: they are counted, not formatted.
    let sampled = records.len().min(SAMPLED_RECORDS);
    let named: Vec<(&str, &Value<'_>)> =
        names.iter().copied().zip(records.iter().copied()).collect();
    // Operations are counted where the records are held: all of them, or the first ones.
    let counted = if total > named.len() {
        sampled
    } else {
        named.len()
    };
    if let Some(operations) = Value::operation_count(&named[..counted]) {
        line.push_str(&format!(", {operations} operations"));
        if counted < total {
            line.push_str(&format!(" (in the first {counted})"));
        }
    }
    let (records, names) = (&records[..sampled], &names[..sampled]);
    let shown_names: Vec<(String, usize)> = match identifying_field(records, names) {
        Some(field) => {
            line.push_str(&format!(", by {field}"));
            names
                .iter()
                .zip(records)
                .take(ENTRIES_WIDTH)
                .map(
                    |(name, record)| match record.get(field).and_then(Value::scalar_text) {
                        Some(value) => (format!("{name}={}", shown(&value, VALUE_WIDTH)), 1),
                        None => (name.to_string(), 1),
                    },
                )
                .collect()
        }
        None => grouped_names(names),
    };
    format!(
        "{line}: {}",
        joined_counted(&shown_names, total, ENTRIES_WIDTH)
    )
}

/// The lines describing records: the headline (a list's count and fields, a map's names) and
/// the details (fields of a map's records, values, identities, names). `names` are the names
/// of a map's records, which then stand for their identity.
/// The lines of a list of records whose values carry no types (XML elements): the headline is
/// the fields alone (`name`, `name[]` for a list), and the details leave out the first and last
/// record (the caller names them, as it reads them apart from the sample).
pub fn untyped_record_lines(records: &[&Value<'_>]) -> (Vec<String>, Vec<String>) {
    record_lines("", records, Some(records.len()), None, false)
}

/// `all`: the records held, all of them or a sample's (the first `SAMPLED_RECORDS` and the
/// last); `known_total`: how many there are (`None`: `all` is from a sample of mixed items).
fn record_lines(
    path: &str,
    all: &[&Value<'_>],
    known_total: Option<usize>,
    names: Option<&[&str]>,
    typed: bool,
) -> (Vec<String>, Vec<String>) {
    // Fields and values are read from a sample: a 10 MB list costs little more than its decode.
    let total = known_total.unwrap_or(all.len());
    let records = &all[..all.len().min(SAMPLED_RECORDS)];
    let count = records.len();
    let mut headline = Vec::new();
    let mut lines = Vec::new();
    let prefix = match (path.is_empty(), names.is_some()) {
        (true, false) => String::new(),
        (true, true) => "*: ".to_string(),
        (false, false) => format!("{path}: "),
        (false, true) => format!("{path}.*: "),
    };
    if let Some(names) = names {
        headline.push(map_headline(path, all, names, known_total));
    }
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
    let fields_line = if !typed {
        joined_names(&fields)
    } else if names.is_some() {
        format!(
            "{prefix}{} fields{sampled}: {}",
            keys.len(),
            joined_names(&fields)
        )
    } else {
        let in_sample = if known_total.is_none() {
            " (in a sample)"
        } else {
            ""
        };
        format!(
            "{prefix}{total} records{in_sample}, {} fields{sampled}: {}",
            keys.len(),
            joined_names(&fields)
        )
    };
    if names.is_some() {
        lines.push(fields_line);
    } else {
        headline.push(fields_line);
    }
    // Values of every leaf field.
    let mut stats: Vec<(String, FieldStats)> = Vec::new();
    let mut stat_index: HashMap<String, usize> = HashMap::new();
    let mut path = String::new();
    for (index, record) in records.iter().enumerate() {
        leaves(record, &mut path, 0, &mut |field, text, depth, numeric| {
            let slot = match stat_index.get(field) {
                Some(&slot) => slot,
                None => {
                    stats.push((
                        field.to_string(),
                        FieldStats {
                            depth,
                            ..FieldStats::default()
                        },
                    ));
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
        let tail = if more > 0 {
            format!(", ... {more} more")
        } else {
            String::new()
        };
        // Counts over a sample say so.
        format!(
            "{prefix}{field}: {}{tail}{sampled}",
            shown_values.join(", ")
        )
    };
    let (first_fields, other_fields) = varied.split_at(varied.len().min(2));
    lines.extend(first_fields.iter().map(value_line));
    if let Some(names) = names {
        lines.extend(listed_values(
            &prefix,
            records,
            names,
            &keys,
            &stats,
            &stat_index,
        ));
    }
    // A map's records are known by their names (in the headline).
    if names.is_none() && typed {
        if let Some(first) = all.first().and_then(|r| record_identity(r, VALUE_WIDTH)) {
            lines.push(format!("{prefix}first: {first}"));
        }
        // (The last record held is the last one unless a sample of mixed items left it out.)
        if total > 1 && known_total.is_some() {
            if let Some(last) = all.last().and_then(|r| record_identity(r, VALUE_WIDTH)) {
                lines.push(format!("{prefix}last: {last}"));
            }
        }
    }
    // Rare values of the low-cardinality fields, with the record that holds them.
    if count >= 10 {
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
                let label = match names {
                    Some(names) => names.get(*holder).map(|name| shown(name, 50)),
                    None => records.get(*holder).and_then(|record| record_label(record)),
                };
                rare.push(match label {
                    Some(label) => format!("{field}={value} ({label})"),
                    None => format!("{field}={value}"),
                });
            }
        }
        if !rare.is_empty() {
            lines.push(format!("{prefix}rare{sampled}: {}", rare.join("; ")));
        }
    }
    // Values every record shares.
    let constant: Vec<String> = stats
        .iter()
        .filter(|(_, s)| s.values.len() == 1 && s.records == count && count >= 2 && s.depth <= 2)
        .filter(|(_, s)| char_len(&s.values[0].0) <= SHORT_VALUE)
        .take(SHOWN_FIELDS)
        .map(|(field, s)| format!("{field}={}", shown(&s.values[0].0, VALUE_WIDTH)))
        .collect();
    if !constant.is_empty() {
        lines.push(format!("{prefix}all{sampled}: {}", constant.join(", ")));
    }
    // The records' names (or ids), each once, in order: what to ask for next.
    let mut record_names: Vec<String> = Vec::new();
    // (A set beside the list: 2,000 records of 600 names would be a million comparisons.)
    let mut seen_names: HashMap<String, usize> = HashMap::new();
    for record in records.iter().filter(|_| names.is_none()) {
        // Names only: titles and ids are not what a record is asked for by.
        let name = ["name", "metadata.name"]
            .iter()
            .find_map(|path| record.at_path(path)?.scalar_text().map(|n| shown(&n, 50)));
        if let Some(name) = name {
            if seen_names.insert(name.clone(), 0).is_none() {
                record_names.push(name);
            }
        }
    }
    if record_names.len() > 1 {
        let sampled = if count < total {
            format!(" in the first {count}")
        } else {
            String::new()
        };
        lines.push(format!(
            "{prefix}names ({}{sampled}): {}",
            record_names.len(),
            joined_within(&record_names, NAMES_WIDTH)
        ));
    }
    lines.extend(
        other_fields
            .iter()
            .take(SHOWN_FIELDS - first_fields.len())
            .map(value_line),
    );
    (headline, lines)
}

/// The short lists of a map's records that tell them apart (`ports`, `needs`, `depends_on`:
/// lists of scalars most of whose values differ), each as one line of the records holding one
/// (`services.*: ports: postgres=5432:5432, minio=9000:9000|9001:9001, ...`); at most
/// `LISTED_FIELDS`, the most held first.
fn listed_values(
    prefix: &str,
    records: &[&Value<'_>],
    names: &[&str],
    keys: &[(String, Vec<&'static str>, usize)],
    stats: &[(String, FieldStats)],
    stat_index: &HashMap<String, usize>,
) -> Vec<String> {
    let mut fields: Vec<&(String, Vec<&'static str>, usize)> = keys
        .iter()
        .filter(|(key, types, present)| {
            let Some(&slot) = stat_index.get(&format!("{key}[]")) else {
                return false;
            };
            let values = &stats[slot].1;
            let distinct = values.many || values.values.len() * 2 > values.total;
            types == &["array"] && *present >= 2 && distinct
        })
        .collect();
    stable_sort_by(&mut fields, |a, b| b.2.cmp(&a.2));
    fields
        .iter()
        .take(LISTED_FIELDS)
        .map(|(key, _, _)| {
            let held: Vec<String> = records
                .iter()
                .zip(names)
                .filter_map(|(record, name)| {
                    let Some(Value::List(items, _)) = record.get(key) else {
                        return None;
                    };
                    let values: Vec<String> = items
                        .iter()
                        .take(LISTED_VALUES)
                        .filter_map(|item| item.scalar_text().map(|text| shown(&text, VALUE_WIDTH)))
                        .collect();
                    (!values.is_empty()).then(|| format!("{name}={}", values.join("|")))
                })
                .take(ENTRIES_WIDTH / 4)
                .collect();
            format!("{prefix}{key}: {}", joined_within(&held, LINE_WIDTH))
        })
        .collect()
}

/// Value counts of a list of scalars (when few distinct), else its first items. A `sampled`
/// list's values are counted in its first items.
fn describe_scalars(items: &[Value<'_>], sampled: bool, synopsis: &mut Synopsis) {
    let mut stats = FieldStats::default();
    let counted = if sampled {
        &items[..SAMPLED_RECORDS.min(items.len())]
    } else {
        items
    };
    for (index, item) in counted.iter().enumerate() {
        if let Some(text) = item.scalar_text() {
            stats.add(&shown(&text, VALUE_WIDTH), index);
        }
    }
    if !stats.many && stats.values.len() < stats.total {
        let mut values = stats.values;
        stable_sort_by(&mut values, |a, b| b.1.cmp(&a.1));
        let shown_values: Vec<String> = values.iter().map(|(v, n, _)| format!("{v} {n}")).collect();
        let sample = if sampled {
            format!(" (in the first {})", counted.len())
        } else {
            String::new()
        };
        synopsis
            .structure
            .push(format!("values{sample}: {}", shown_values.join(", ")));
    } else {
        let first: Vec<String> = items.iter().take(10).map(value_summary).collect();
        synopsis
            .structure
            .push(format!("first items: {}", joined_names(&first)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::{json::load_value, yaml::load_documents};
    use crate::python::one_line;
    use crate::test_support::synopsis_text;

    fn yaml(text: &str) -> Synopsis {
        let documents = load_documents(text).expect("valid YAML");
        describe(&documents[0], "YAML", "yaml", "YAML output")
    }

    fn json(text: &str) -> Synopsis {
        let (value, _) = load_value(text, SAMPLED_RECORDS).expect("valid JSON");
        describe(&value, "JSON", "json", "JSON output")
    }

    /// A compose-like file: `count` services, each with an image, a restart policy, a network,
    /// and a port on every third.
    fn services(count: usize) -> String {
        let mut text = String::from("version: \"3.9\"\nservices:\n");
        for i in 0..count {
            text.push_str(&format!("  svc{i}:\n    image: registry/app{i}:1.{i}\n    restart: always\n    networks: [back]\n"));
            if i % 3 == 0 {
                text.push_str(&format!("    ports: [\"{}:80\"]\n", 9000 + i));
            }
        }
        text.push_str("volumes:\n  data: {}\nnetworks:\n  back: {}\n");
        text
    }

    #[test]
    fn joined_lists_count_what_they_leave_out_of_the_total() {
        assert_eq!(joined_of(&["a", "b"], 2, 80), "a, b");
        assert_eq!(joined_of(&["a", "b"], 5, 80), "a, b, ... 3 more");
        assert_eq!(joined_of(&["abc", "def", "ghi"], 9, 6), "abc, ... 8 more");
        assert_eq!(joined_within(&["abc", "def", "ghi"], 6), "abc, ... 2 more");
    }

    #[test]
    fn the_outline_names_every_top_level_key_in_order_with_its_value_or_size() {
        let shown = synopsis_text(&yaml(
            "openapi: 3.1.0\ninfo:\n  title: Pets\n  version: '2'\n  contact: {email: a@b}\ntags: [a, b, c]\nhooks:\n  push: {branches: [main]}\n  tag: {}\nlimits:\n  a: 1\n  b: 2\n  c: 3\n  d: 4\n  e: 5\n",
        ));
        assert!(
            shown.contains("YAML object, 5 keys: openapi=3.1.0, info{title=Pets, version=2, +1}, tags[3], hooks{push, tag}, limits{5}."),
            "{shown}"
        );
        // The scalars are in the outline; containers get a line of their own.
        assert!(
            !shown.contains("\nopenapi:") && shown.contains("limits: object with 5 keys"),
            "{shown}"
        );
    }

    #[test]
    fn a_map_of_records_is_named_counted_and_told_apart_by_its_identifying_field() {
        let synopsis = yaml(&services(12));
        let shown = synopsis_text(&synopsis);
        // The headline comes first among the structure lines.
        assert!(
            synopsis.structure[0].starts_with(
                "services: 12 entries, by image: svc0=registry/app0:1.0, svc1=registry/app1:1.1,"
            ),
            "{shown}"
        );
        // The union of the records' keys with how many have each; the categories by value.
        assert!(
            shown.contains(
                "services.*: 4 fields: ports:arr (4/12), image:str, restart:str, networks:arr"
            ),
            "{shown}"
        );
        assert!(
            shown.contains("services.*: all: restart=always, networks[]=back"),
            "{shown}"
        );
        // A short list that differs from entry to entry, entry by entry (`networks`, the same
        // everywhere, is not one).
        assert!(
            shown.contains(
                "services.*: ports: svc0=9000:80, svc3=9003:80, svc6=9006:80, svc9=9009:80"
            ),
            "{shown}"
        );
        assert!(!shown.contains("networks: svc0"), "{shown}");
        assert!(
            shown.contains("services{12}, volumes{data}, networks{back}"),
            "{shown}"
        );
        // Covered by its headline, `services` gets no brief line of its own.
        assert!(!shown.contains("services: object with"), "{shown}");
    }

    #[test]
    fn the_identifying_field_is_not_a_category_a_restated_name_prose_or_a_date() {
        let mut jobs = String::from("jobs:\n");
        for (i, name) in ["lint", "test", "build", "deploy", "docs", "bench"]
            .iter()
            .enumerate()
        {
            jobs.push_str(&format!(
                "  {name}:\n    name: {}\n    runs-on: {}\n    description: runs the {name} step of the pipeline\n    updated: 2024-01-0{}\n",
                name.to_uppercase(),
                if i == 0 { "macos" } else { "ubuntu" },
                i + 1
            ));
        }
        let shown = synopsis_text(&yaml(&jobs));
        assert!(
            shown.contains("jobs: 6 entries: lint, test, build, deploy, docs, bench"),
            "{shown}"
        );
        // With a field that tells them apart, it is the one most records have.
        let resources = r#"{"Resources": {
            "Bucket": {"Type": "AWS::S3::Bucket", "Properties": {}},
            "Queue": {"Type": "AWS::SQS::Queue"},
            "Topic": {"Type": "AWS::SNS::Topic", "Condition": "Prod"},
            "Role": {"Type": "AWS::IAM::Role", "Condition": "Prod"}}}"#;
        let shown = synopsis_text(&json(resources));
        assert!(
            shown.contains("Resources: 4 entries, by Type: Bucket=AWS::S3::Bucket, Queue=AWS::SQS::Queue, Topic=AWS::SNS::Topic, Role=AWS::IAM::Role"),
            "{shown}"
        );
    }

    #[test]
    fn maps_of_api_paths_count_their_operations() {
        let mut paths = String::from("swagger: '2.0'\npaths:\n");
        for resource in ["users", "teams", "repos"] {
            paths.push_str(&format!(
                "  /{resource}:\n    get: {{summary: list}}\n    post: {{summary: create}}\n"
            ));
            paths.push_str(&format!("  /{resource}/{{id}}:\n    parameters: []\n    get: {{summary: one}}\n    delete: {{summary: drop}}\n"));
        }
        paths.push_str("definitions:\n  User: {type: object}\n  Team: {type: object}\n  Repo: {type: object}\n");
        let shown = synopsis_text(&yaml(&paths));
        assert!(
            shown.contains("paths: 6 entries, 12 operations: /users, /users/{id}, /teams,"),
            "{shown}"
        );
        assert!(
            shown.contains("definitions: 3 entries: User, Team, Repo"),
            "{shown}"
        );
        // Records that are not API paths have no operations.
        assert!(!synopsis_text(&yaml(&services(5))).contains("operations"));
    }

    #[test]
    fn long_runs_of_names_sharing_a_first_word_are_counted() {
        let names = [
            "lint", "build-a", "build-b", "build-c", "build-d", "build-e", "/x", "/x/{id}", "/x/a",
            "/x/b", "test",
        ];
        let grouped: Vec<String> = grouped_names(&names)
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        assert_eq!(
            grouped,
            [
                "lint",
                "build-a",
                "build-b",
                "+3 build-*",
                "/x",
                "/x/{id}",
                "+2 /x/*",
                "test"
            ]
        );
        // A short run stays as it is; the count of names left out counts names, not groups.
        let items = grouped_names(&names[..4]);
        assert_eq!(items.len(), 4);
        assert_eq!(
            joined_counted(&grouped_names(&names), 11, 30),
            "lint, build-a, build-b, ... 8 more"
        );
    }

    #[test]
    fn json_and_yaml_share_the_analysis_of_maps_of_records() {
        let yaml_text = services(4);
        let documents = load_documents(&yaml_text).expect("valid YAML");
        let as_json = serde_json::to_string(&to_json(&documents[0])).expect("serializable");
        let from_yaml = yaml(&yaml_text);
        let from_json = json(&as_json);
        assert_eq!(from_yaml.structure, from_json.structure);
    }

    /// A loaded value back as JSON (to feed the JSON reader the same document).
    fn to_json(value: &Value<'_>) -> serde_json::Value {
        match value {
            Value::Null => serde_json::Value::Null,
            Value::Bool(flag) => serde_json::Value::Bool(*flag),
            Value::Number(text) => serde_json::from_str(text).expect("a number"),
            Value::Text(text) => serde_json::Value::String(text.to_string()),
            Value::List(items, _) => serde_json::Value::Array(items.iter().map(to_json).collect()),
            Value::Map(entries, _) => serde_json::Value::Object(
                entries
                    .iter()
                    .map(|(key, value)| (key.to_string(), to_json(value)))
                    .collect(),
            ),
        }
    }

    #[test]
    fn a_root_that_is_a_map_of_records_is_described_as_one() {
        // GitLab CI: jobs at the top level beside `stages` and `variables`.
        let mut ci = String::from("stages: [build, test]\nvariables:\n  GO: '1.22'\n");
        for (job, stage) in [
            ("compile", "build"),
            ("unit", "test"),
            ("lint", "test"),
            ("e2e", "test"),
        ] {
            ci.push_str(&format!(
                "{job}:\n  stage: {stage}\n  script: [make {job}]\n"
            ));
        }
        let shown = synopsis_text(&yaml(&ci));
        assert!(
            shown.contains("YAML object, 6 keys: stages[2], variables{GO=1.22}, compile{2}"),
            "{shown}"
        );
        // Each job is in the headline, not on a line of its own.
        assert!(!shown.contains("compile: object"), "{shown}");
        assert!(
            shown.contains("5 entries: variables, compile, unit, lint, e2e"),
            "{shown}"
        );
        assert!(shown.contains("*: stage: test 3, build 1"), "{shown}");
        // Helm values: sections, some of them subcharts sharing `enabled`, are not records at
        // the root (the shared key must be in 3 in 4 of its maps there).
        let values = "image: {repository: web, tag: '1'}\nservice: {type: ClusterIP, port: 80}\npostgresql: {enabled: true, auth: {}}\nredis: {enabled: false}\nminio: {enabled: true}\nreplicaCount: 2\n";
        let shown = synopsis_text(&yaml(values));
        assert!(!shown.contains("entries"), "{shown}");
        assert!(
            shown.contains("image{repository=web, tag=1}, service{type=ClusterIP, port=80}"),
            "{shown}"
        );
    }

    /// `value` held as a sampling loader holds it: a container of more than `SAMPLED_RECORDS + 1`
    /// items keeps its first `SAMPLED_RECORDS` and its last, with its length.
    fn sample_of(value: Value<'_>) -> Value<'_> {
        fn cut<T>(items: Vec<T>) -> Vec<T> {
            if items.len() <= SAMPLED_RECORDS + 1 {
                return items;
            }
            let last = items.len() - 1;
            items
                .into_iter()
                .enumerate()
                .filter(|(index, _)| *index < SAMPLED_RECORDS || *index == last)
                .map(|(_, item)| item)
                .collect()
        }
        match value {
            Value::List(items, len) => {
                Value::List(cut(items.into_iter().map(sample_of).collect()), len)
            }
            Value::Map(entries, len) => Value::Map(
                cut(entries
                    .into_iter()
                    .map(|(key, value)| (key, sample_of(value)))
                    .collect()),
                len,
            ),
            scalar => scalar,
        }
    }

    /// The stub lines of `text` read whole and read as a sample.
    fn whole_and_sampled(text: &str) -> (Synopsis, Synopsis) {
        let (whole, _) = load_value(text, usize::MAX).expect("valid JSON");
        let (value, _) = load_value(text, usize::MAX).expect("valid JSON");
        let sampled = sample_of(value);
        (
            describe(&whole, "JSON", "json", "JSON output"),
            describe(&sampled, "JSON", "json", "JSON output"),
        )
    }

    fn records_json(count: usize) -> String {
        let records: Vec<String> = (0..count)
            .map(|i| {
                format!(
                    r#"{{"id":{i},"name":"n{}","state":"{}","tags":["t{}"]}}"#,
                    i % 700,
                    ["open", "closed"][i % 2],
                    i % 3
                )
            })
            .collect();
        format!("[{}]", records.join(","))
    }

    #[test]
    fn a_value_is_shown_as_one_line_clipped_on_the_fast_path_too() {
        let values = [
            "open",
            "two words",
            " lead",
            "trail ",
            "double  space",
            "tab\there",
            "line\nbreak",
            "nbsp\u{a0}x",
            "caf\u{e9} au lait",
            "\u{7f}del",
            "",
            " ",
            "x\u{1c}y",
            "a b c d e f g h i j k l m n o p q r s t u v w x y z 0 1 2 3",
        ];
        for value in values {
            for width in [-1, 0, 3, 10, 60] {
                assert_eq!(
                    shown(value, width),
                    one_line(value, width),
                    "{value:?} {width}"
                );
            }
        }
    }

    #[test]
    fn a_sampled_list_of_records_reads_as_the_whole_list() {
        let (whole, sampled) = whole_and_sampled(&records_json(5_000));
        assert_eq!(
            (&whole.summary, &whole.structure),
            (&sampled.summary, &sampled.structure)
        );
        let shown = synopsis_text(&sampled);
        assert!(shown.contains("JSON array of 5000 objects."), "{shown}");
        assert!(
            shown.contains(
                "5000 records, 4 fields (in the first 2000): id:num, name:str, state:str, tags:arr"
            ),
            "{shown}"
        );
        assert!(shown.contains("last: name=n99, id=4999"), "{shown}");
        assert!(
            shown.contains("names (700 in the first 2000): n0, n1,"),
            "{shown}"
        );
        // Up to `SAMPLED_RECORDS + 1` records nothing is sampled.
        let shown = synopsis_text(&whole_and_sampled(&records_json(2_001)).1);
        assert!(
            shown.contains("2001 records, 4 fields (in the first 2000)")
                && shown.contains("id=2000"),
            "{shown}"
        );
        assert!(!synopsis_text(&json(&records_json(30))).contains("in the first"));
    }

    #[test]
    fn a_sampled_map_counts_its_keys_and_records_exactly() {
        let services: Vec<String> = (0..4_000)
            .map(|i| format!(r#""svc{i}":{{"image":"img{i}","restart":"always"}}"#))
            .collect();
        let wide: Vec<String> = (0..3_000).map(|i| format!(r#""k{i}":{i}"#)).collect();
        let text = format!(
            r#"{{"services":{{{}}},"wide":{{{}}},"v":1}}"#,
            services.join(","),
            wide.join(",")
        );
        let (whole, sampled) = whole_and_sampled(&text);
        assert_eq!(
            (&whole.summary, &whole.structure),
            (&sampled.summary, &sampled.structure)
        );
        let shown = synopsis_text(&sampled);
        assert!(
            shown.contains("services: 4000 entries, by image: svc0=img0,"),
            "{shown}"
        );
        assert!(
            shown.contains("wide: object with 3000 keys: k0, k1,")
                && shown.contains("... 2962 more"),
            "{shown}"
        );
        // A sampled root counts its keys from its length too.
        let root: Vec<String> = (0..3_000).map(|i| format!(r#""key{i}":"v""#)).collect();
        let (whole, sampled) = whole_and_sampled(&format!("{{{}}}", root.join(",")));
        assert_eq!(whole.summary, sampled.summary);
        assert!(
            sampled.summary[0].starts_with("JSON object, 3000 keys: key0=v,")
                && sampled.summary[0].ends_with("more.")
        );
    }

    #[test]
    fn what_is_read_from_a_sample_says_so() {
        // Operations of API paths past the sample are not counted: the count says where from.
        let paths: Vec<String> = (0..2_500)
            .map(|i| format!(r#""/r{i}":{{"get":{{}},"post":{{}}}}"#))
            .collect();
        let text = format!(r#"{{"paths":{{{}}}}}"#, paths.join(","));
        let (whole, sampled) = whole_and_sampled(&text);
        assert!(synopsis_text(&whole).contains("paths: 2500 entries, 5000 operations: /r0,"));
        let shown = synopsis_text(&sampled);
        assert!(
            shown.contains("paths: 2500 entries, 4000 operations (in the first 2000): /r0,"),
            "{shown}"
        );
        // Values of a sampled list of scalars are counted in its first items.
        let values: Vec<&str> = (0..3_000)
            .map(|i| ["\"a\"", "\"b\""][usize::from(i % 3 == 0)])
            .collect();
        let (_, sampled) = whole_and_sampled(&format!("[{}]", values.join(",")));
        assert!(
            synopsis_text(&sampled).contains("values (in the first 2000): a 1333, b 667"),
            "{}",
            synopsis_text(&sampled)
        );
        // A sample of mixed items says nothing of the items it left out: its records are
        // counted in the sample, and its last record need not be the list's.
        let mut items: Vec<Value<'_>> = Vec::new();
        for i in 0..=SAMPLED_RECORDS {
            items.push(if i % 2 == 0 {
                Value::Map(vec![("id".into(), Value::Number(i.to_string().into()))], 1)
            } else {
                Value::Null
            });
        }
        let shown = synopsis_text(&describe(
            &Value::List(items, 9_999),
            "JSON",
            "json",
            "JSON output",
        ));
        assert!(
            shown.contains("JSON array of 9999 items.")
                && shown.contains("1001 records (in a sample), 1 fields: id:num"),
            "{shown}"
        );
        assert!(!shown.contains("last:"), "{shown}");
    }
}
