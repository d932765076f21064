//! The TypeScript types of the values the core hands the JavaScript layer (read windows, search
//! hits, records, catalog entries, position indexes), written into js/generated/contract.d.ts.
//! Each type is read from what the core returns: the functions the bindings call are run on small
//! samples and their answers, serialized as the bindings serialize them, give the field names
//! (as JSON spells them) and the field types. A field one sample has and another lacks is optional;
//! one that is `null` in a sample may be `null`. So a field renamed, added or retyped in Rust
//! changes the generated file, and tests/generated_js.rs fails until it is written again.

use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::catalog::CatalogEntry;
use crate::context::{plan as context_plan, ContextInput, Replacement};
use crate::kinds::Synopsis;
use crate::record::{ToolResultRecord, OFFSET_UNIT};
use crate::retrieval::search_all::{self, Hit, SearchOrder};
use crate::retrieval::{grep, json_pointer, lines, output_index, table_rows};

/// One generated interface: its name, what it is, and the core's answers it is read from.
pub(crate) struct Shape {
    pub name: &'static str,
    pub meaning: &'static str,
    samples: Vec<Value>,
    /// TypeScript types that say more than the JSON shows (a field's literal values, a named
    /// type), by field name.
    named: Vec<(&'static str, String)>,
    /// Optional fields no small sample shows, with their types.
    unseen: &'static [(&'static str, &'static str)],
}

/// A field whose values are the contract's own lists, in every shape.
const NAMED_FIELDS: &[(&str, &str)] = &[
    ("kind", "SynopsisKind"),
    ("synopsis_kind", "SynopsisKind"),
    ("offset_unit", "typeof OFFSET_UNIT"),
    ("offsetUnit", "typeof OFFSET_UNIT"),
    ("synopsis", "Synopsis"),
];

fn value(answer: impl Serialize) -> Value {
    serde_json::to_value(answer).unwrap_or(Value::Null)
}

/// A request as the host sends it (the binding reads it from JSON).
fn request<T: serde::de::DeserializeOwned>(json: Value) -> Option<T> {
    serde_json::from_value(json).ok()
}

fn answers<T: Serialize, R: serde::de::DeserializeOwned, E>(
    run: impl Fn(&R) -> Result<T, E>,
    requests: &[Value],
) -> Vec<Value> {
    requests
        .iter()
        .filter_map(|json| request::<R>(json.clone()))
        .filter_map(|request| run(&request).ok())
        .map(value)
        .collect()
}

fn sample_record() -> ToolResultRecord {
    let mut synopsis = Synopsis::new("text", "Text output");
    synopsis.summary.push("1 line".into());
    ToolResultRecord {
        tool_result_id: "tr_sample".into(),
        session_id: "s".into(),
        message_id: "m".into(),
        tool_id: "t".into(),
        tool_name: "shell".into(),
        user_id: Some("default".into()),
        peer_id: None,
        created_at: "2026-01-01T00:00:00Z".into(),
        original_chars: 5,
        original_tokens: None,
        original_tokens_estimated_from_chars: None,
        preview_chars: 5,
        sha256: "0".repeat(64),
        mime_type: "text/plain".into(),
        synopsis_kind: synopsis.kind.clone(),
        synopsis,
        storage_uri: "viking://user/default/sessions/s/tool-results/tr_sample".into(),
        output_uri: "viking://user/default/sessions/s/tool-results/tr_sample/output.txt".into(),
        offset_unit: OFFSET_UNIT.into(),
    }
}

/// The TypeScript union of the values' JSON strings (an enum's variants as the core writes them).
fn union(values: &[impl Serialize]) -> String {
    values
        .iter()
        .map(|variant| value(variant).to_string())
        .collect::<Vec<_>>()
        .join(" | ")
}

/// `rankSearchAll`'s answers for two hits of the sample's matches: cut to one (with the count of
/// unsearched candidates) and not cut.
fn ranked_samples(text: &str) -> Vec<Value> {
    let Some(found) = request::<grep::GrepRequest>(json!({ "query": "o" }))
        .and_then(|request| grep::grep(text, &request).ok())
    else {
        return Vec::new();
    };
    let hit = |id: &str| Hit {
        tool_result_id: id.into(),
        reference: format!("viking://user/default/sessions/s/tool-results/{id}"),
        tool_name: "shell".into(),
        created_at: "2026-01-01T00:00:00Z".into(),
        total_matches: found.total_matches,
        matches: found.matches.iter().map(value).collect(),
    };
    [(1, 1), (10, 0)]
        .iter()
        .filter_map(|&(limit, unsearched)| {
            let hits = vec![hit("tr_a"), hit("tr_b")];
            search_all::rank(hits, limit, SearchOrder::Relevance, unsearched).ok()
        })
        .map(value)
        .collect()
}

/// The shapes, in the order they are written.
pub(crate) fn shapes() -> Vec<Shape> {
    let lines_text = "one\ntwo\nthree\n";
    let table = "id,city\n1,Lyon\n2,Nîmes\n3,Metz\n";
    let document = json!({ "items": (0..400).collect::<Vec<_>>(), "name": "x" }).to_string();
    let record = sample_record();
    let record_text = serde_json::to_string(&record).unwrap_or_default();
    // A record of a turn counted in tokens (`budgetUnit: "tokens"`) has their count too.
    let counted = ToolResultRecord {
        original_tokens: Some(2),
        ..sample_record()
    };
    // One over the threshold whose tokens were estimated from a counted head.
    let estimated = ToolResultRecord {
        original_tokens: Some(40_000),
        original_tokens_estimated_from_chars: Some(65_536),
        ..sample_record()
    };
    let estimated_text = serde_json::to_string(&estimated).unwrap_or_default();
    let counted_text = serde_json::to_string(&counted).unwrap_or_default();
    vec![
        Shape {
            name: "ReadWindow",
            meaning: "`readWindow`: a window of an output by code-point offset and limit.",
            samples: [(0, 3), (0, -1)]
                .iter()
                .filter_map(|&(offset, limit)| {
                    crate::retrieval::read(lines_text, offset, limit).ok()
                })
                .map(value)
                .collect(),
            named: Vec::new(),
            unseen: &[],
        },
        Shape {
            name: "LineWindow",
            meaning: "`readLines`: a window of an output's lines.",
            samples: answers(
                |r| lines::read_lines(lines_text, r),
                &[
                    json!({ "line": 1, "lines": 1 }),
                    json!({ "line": 1, "lines": 10 }),
                ],
            ),
            named: Vec::new(),
            unseen: &[],
        },
        Shape {
            name: "PointerRead",
            meaning:
                "`readJsonPointer`: the value a JSON pointer names, printed within `maxChars`.",
            samples: answers(
                |r| json_pointer::read_pointer(&document, r),
                &[
                    json!({ "jsonPointer": "", "maxChars": 400 }),
                    json!({ "jsonPointer": "/name" }),
                ],
            ),
            named: vec![("type", union(&json_pointer::type_names()))],
            unseen: &[],
        },
        Shape {
            name: "RowsRead",
            meaning: "`readTableRows`: data rows of a CSV/TSV output, with its header.",
            samples: answers(
                |r| table_rows::read_rows(table, r),
                &[json!({ "rows": { "start": 1, "count": 1 } })],
            ),
            named: vec![("delimiter", "\",\" | \"\\t\"".to_string())],
            unseen: &[],
        },
        Shape {
            name: "GrepResult",
            meaning: "`grepContent`: the matches of a search in one output.",
            samples: answers(
                |r| grep::grep(lines_text, r),
                &[json!({ "query": "o" }), json!({ "query": "absent" })],
            ),
            named: Vec::new(),
            // Set only when the listed matches stop early (the snippets' budget, the grep
            // module's work budget).
            unseen: &[("note", "string")],
        },
        Shape {
            name: "RankedSearch",
            meaning: "`rankSearchAll`: the results of a search over the session, ranked and cut.",
            samples: ranked_samples(lines_text),
            named: Vec::new(),
            unseen: &[],
        },
        Shape {
            name: "ContextPlan",
            meaning: "`contextPlan`: which tool results to clear, oldest first, and into what.",
            samples: [4_000, 100]
                .iter()
                .filter_map(|&tokens| {
                    request::<ContextInput>(json!({
                        "policy": { "trigger": 1000, "target": 500, "keepRecent": 0 },
                        "totalTokens": tokens + 100,
                        "results": [{ "tokens": tokens, "toolName": "t", "head": "output" }],
                        "stubHeader": "[tool result]",
                    }))
                })
                .filter_map(|input| context_plan(&input).ok())
                .map(value)
                .collect(),
            named: vec![("to", union(&[Replacement::Stub, Replacement::Reference]))],
            unseen: &[],
        },
        Shape {
            name: "ToolResultRecord",
            meaning:
                "A result's record (metadata.json, `parseStoredRecord`), snake_case as stored.",
            samples: vec![value(&record), value(&counted), value(&estimated)],
            named: vec![
                ("user_id", "string | null".to_string()),
                ("peer_id", "string | null".to_string()),
            ],
            unseen: &[],
        },
        Shape {
            name: "CatalogEntry",
            meaning: "`catalogEntryOf`: one stored result as the session's catalog knows it.",
            samples: [&record_text, &counted_text, &estimated_text]
                .iter()
                .filter_map(|text| CatalogEntry::from_record("tr_sample", text, 42))
                .map(|entry| entry.to_json())
                .collect(),
            named: vec![("createdAtMs", "number | null".to_string())],
            unseen: &[],
        },
        Shape {
            name: "OutputIndex",
            meaning: "`outputIndex`: a stored output's position index (index.json).",
            samples: vec![value(output_index::output_index(lines_text, true))],
            named: vec![(
                "checkpoints",
                "[number, number, number, number][]".to_string(),
            )],
            unseen: &[],
        },
    ]
}

/// The TypeScript type of the JSON values a field took in the samples.
fn type_of(values: &[&Value], named: &[(&str, String)]) -> String {
    let mut types: Vec<String> = Vec::new();
    let items: Vec<&Value> = values
        .iter()
        .filter_map(|value| value.as_array())
        .flatten()
        .collect();
    let objects: Vec<&Value> = values.iter().copied().filter(|v| v.is_object()).collect();
    for value in values {
        let found = match value {
            Value::String(_) => "string".to_string(),
            Value::Number(_) => "number".to_string(),
            Value::Bool(_) => "boolean".to_string(),
            Value::Null => "null".to_string(),
            Value::Array(_) if items.is_empty() => "unknown[]".to_string(),
            Value::Array(_) => match type_of(&items, named) {
                item if item.contains(' ') && !item.starts_with('{') => format!("({item})[]"),
                item => format!("{item}[]"),
            },
            Value::Object(_) => format!("{{ {} }}", members(&objects, named).join(" ")),
        };
        if !types.contains(&found) {
            types.push(found);
        }
    }
    types.join(" | ")
}

/// An object type's members (`name: type;`, `name?: type;` where a sample lacks it).
fn members(samples: &[&Value], named: &[(&str, String)]) -> Vec<String> {
    let objects: Vec<&Map<String, Value>> = samples.iter().filter_map(|v| v.as_object()).collect();
    let mut fields: Vec<&String> = Vec::new();
    for object in &objects {
        for key in object.keys() {
            if !fields.contains(&key) {
                fields.push(key);
            }
        }
    }
    let mut members = Vec::new();
    for field in fields {
        let values: Vec<&Value> = objects.iter().filter_map(|o| o.get(field)).collect();
        let optional = if values.len() < objects.len() {
            "?"
        } else {
            ""
        };
        let known = named
            .iter()
            .map(|(name, ts)| (*name, ts.as_str()))
            .chain(NAMED_FIELDS.iter().copied())
            .find(|(name, _)| name == field)
            .map(|(_, ts)| ts.to_string());
        let field_type = known.unwrap_or_else(|| type_of(&values, named));
        members.push(format!("{field}{optional}: {field_type};"));
    }
    members
}

/// The interfaces, as TypeScript declarations.
pub(crate) fn typescript() -> String {
    let mut text = String::new();
    for shape in shapes() {
        let samples: Vec<&Value> = shape.samples.iter().collect();
        let mut members = members(&samples, &shape.named);
        members.extend(
            shape
                .unseen
                .iter()
                .map(|(field, ts)| format!("{field}?: {ts};")),
        );
        let body: String = members
            .iter()
            .map(|member| format!("  {member}\n"))
            .collect();
        text += &format!(
            "\n/** {} */\nexport interface {} {{\n{body}}}\n",
            shape.meaning, shape.name
        );
    }
    text
}
