//! The files of the JavaScript layer that are generated from the core, so that each rule has one
//! source: js/core-constants.js (the store layout's and the catalog's names, the calls' defaults)
//! and js/generated/contract.js / .d.ts (what crosses the wasm boundary: layout names, kinds,
//! reasons, modes, formats, error codes, and the `Synopsis` type, its fields read from the Rust
//! type's own serialization). Pure text here; tests/generated_js.rs
//! checks the files in the repository against it (the core itself touches no files).

use crate::agent::DefinitionFormat;
use crate::catalog::pages;
use crate::catalog::{
    CATALOG_DIR, CATALOG_FORMAT, CATALOG_VERSION, HEAD_FILE, HEAD_FORMAT, LOCK_FILE, LOG_DIR,
    SNAPSHOT_FILE,
};
use crate::context::forms::HEAD_CHARS;
use crate::error::ErrorCode;
use crate::kinds::{Synopsis, REFERENCE_KINDS};
use crate::record::{INDEX_FILE, METADATA_FILE, OFFSET_UNIT, OUTPUT_FILE, RESULTS_DIR};
use crate::retrieval::hit_coordinates::{POINTER_KINDS, ROW_KINDS};
use crate::retrieval::search_all::SearchOrder;
use crate::retrieval::{DEFAULT_LIST_LIMIT, DEFAULT_READ_LIMIT};
use crate::synopsis_mode::SynopsisMode;
use crate::turn::{
    FailureMode, REASON_BUDGET, REASON_CONTEXT, REASON_SINGLE, REASON_SOURCE_READ, REASON_TOO_LARGE,
};

/// Generated lines longer than this are broken as biome.json's formatter would break them, so the
/// files read like the rest of the JS (biome itself leaves generated files alone).
const LINE_WIDTH: usize = 100;

const REWRITE: &str =
    "// Write it again with: TOOL_STUB_WRITE_GENERATED=1 cargo test --test generated_js\n";

/// Each generated file: its path from the repository root, and its text. `enhanced_kinds` are the
/// kinds enhanced mode adds (given by the crate root: this module is not of the enhanced layer).
pub(crate) fn generated_js_files(enhanced_kinds: &[&str]) -> [(&'static str, String); 3] {
    [
        ("js/core-constants.js", core_constants()),
        (
            "js/generated/contract.js",
            contract_javascript(enhanced_kinds),
        ),
        (
            "js/generated/contract.d.ts",
            contract_typescript(enhanced_kinds),
        ),
    ]
}

/// A list of string values the contract names: its JS constant, its TS type, what it is, and its
/// values, each with what it means where the core says.
struct ContractList {
    name: &'static str,
    type_name: &'static str,
    meaning: &'static str,
    values: Vec<(String, Option<&'static str>)>,
}

fn plain(values: &[&str]) -> Vec<(String, Option<&'static str>)> {
    values
        .iter()
        .map(|value| (value.to_string(), None))
        .collect()
}

/// The string values the contract names, by list.
fn contract_lists(enhanced_kinds: &[&str]) -> Vec<ContractList> {
    let serialized = |value: serde_json::Value| value.as_str().unwrap_or_default().to_string();
    let coordinate_kinds: Vec<&str> = ROW_KINDS.iter().chain(&POINTER_KINDS).copied().collect();
    vec![
        ContractList {
            name: "LAYOUT_NAMES",
            type_name: "LayoutName",
            meaning: "The store layout's names: a session's results folder and each result's files.",
            values: plain(&[RESULTS_DIR, OUTPUT_FILE, METADATA_FILE, INDEX_FILE]),
        },
        ContractList {
            name: "REFERENCE_KINDS",
            type_name: "ReferenceKind",
            meaning: "The kinds the reference's detection names (a synopsis's `kind`, a record's `synopsis_kind`).",
            values: plain(&REFERENCE_KINDS),
        },
        ContractList {
            name: "ENHANCED_KINDS",
            type_name: "EnhancedKind",
            meaning: "The kinds enhanced mode (`synopsisMode: \"enhanced\"`) names beyond the reference's.",
            values: plain(enhanced_kinds),
        },
        ContractList {
            name: "KINDS_WITH_HIT_COORDINATES",
            type_name: "HitCoordinateKind",
            meaning: "The kinds whose search hits carry a `row` (CSV/TSV) or a `jsonPointer` (JSON).",
            values: plain(&coordinate_kinds),
        },
        ContractList {
            name: "EXTERNALIZED_REASONS",
            type_name: "ExternalizedReason",
            meaning: "Why a part was externalized (`externalizedReason`, a record's `reason`).",
            values: plain(&[
                REASON_SINGLE,
                REASON_BUDGET,
                REASON_SOURCE_READ,
                REASON_CONTEXT,
                REASON_TOO_LARGE,
            ]),
        },
        ContractList {
            name: "SYNOPSIS_MODES",
            type_name: "SynopsisMode",
            meaning: "The synopsis rules a stub is made with (`config.synopsisMode`).",
            values: SynopsisMode::ALL
                .iter()
                .map(|mode| (serialized(serde_json::to_value(mode).unwrap_or_default()), None))
                .collect(),
        },
        ContractList {
            name: "FAILURE_MODES",
            type_name: "FailureMode",
            meaning: "What a failed store write does to a turn (`config.failureMode`).",
            values: FailureMode::ALL
                .iter()
                .map(|mode| (serialized(serde_json::to_value(mode).unwrap_or_default()), None))
                .collect(),
        },
        ContractList {
            name: "TOOL_DEFINITION_FORMATS",
            type_name: "ToolDefinitionFormat",
            meaning: "The shapes `toolDefinitions` gives the retrieval tools in (`format`).",
            values: plain(&DefinitionFormat::NAMES),
        },
        ContractList {
            name: "SEARCH_ORDERS",
            type_name: "SearchOrder",
            meaning: "How `searchAll` ranks its results (`order`; the first is the default).",
            values: plain(&SearchOrder::NAMES),
        },
        ContractList {
            name: "ERROR_CODES",
            type_name: "ErrorCode",
            meaning: "The stable codes of ToolStubError: callers branch on these, never on messages.",
            values: ErrorCode::ALL
                .iter()
                .map(|code| (code.as_str().to_string(), Some(code.meaning())))
                .collect(),
        },
    ]
}

fn contract_header() -> String {
    format!("// Generated from the core (src/js_constants.rs): what crosses the wasm boundary. Do not edit.\n{REWRITE}")
}

fn quoted(values: &[String]) -> String {
    values
        .iter()
        .map(|value| format!("\"{value}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

fn contract_javascript(enhanced_kinds: &[&str]) -> String {
    let mut text = contract_header();
    text += &format!("\n/** The unit of read offsets and limits. */\nexport const OFFSET_UNIT = \"{OFFSET_UNIT}\";\n");
    for ContractList {
        name,
        meaning,
        values,
        ..
    } in contract_lists(enhanced_kinds)
    {
        let values: Vec<String> = values.into_iter().map(|(value, _)| value).collect();
        let line = format!(
            "export const {name} = Object.freeze([{}]);",
            quoted(&values)
        );
        let statement = if line.len() <= LINE_WIDTH {
            line
        } else {
            // One item a line, as the formatter (biome.json) writes a list that does not fit.
            let items: String = values.iter().map(|v| format!("  \"{v}\",\n")).collect();
            format!("export const {name} = Object.freeze([\n{items}]);")
        };
        text += &format!("\n/** {meaning} */\n{statement}\n");
    }
    text
}

/// The TypeScript type of a JSON value the core writes (read from a serialized default).
fn typescript_type(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::String(_) => "string",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::Bool(_) => "boolean",
        serde_json::Value::Array(_) => "string[]",
        serde_json::Value::Object(_) => "Record<string, unknown>",
        serde_json::Value::Null => "unknown",
    }
}

fn contract_typescript(enhanced_kinds: &[&str]) -> String {
    let mut text = contract_header();
    text += &format!("\n/** The unit of read offsets and limits. */\nexport declare const OFFSET_UNIT: \"{OFFSET_UNIT}\";\n");
    for ContractList {
        name,
        type_name,
        meaning,
        values,
    } in contract_lists(enhanced_kinds)
    {
        let union = values
            .iter()
            .map(|(value, _)| format!("\"{value}\""))
            .collect::<Vec<_>>()
            .join(" | ");
        let line = format!("export type {type_name} = {union};");
        let documented = values.iter().any(|(_, doc)| doc.is_some());
        let declaration = if line.len() <= LINE_WIDTH && !documented {
            line
        } else {
            // One member a line (as the formatter, biome.json, breaks a long union), each with
            // what it means where the core says.
            let members: String = values
                .iter()
                .map(|(value, doc)| match doc {
                    Some(doc) => format!("\n  /** {doc} */\n  | \"{value}\""),
                    None => format!("\n  | \"{value}\""),
                })
                .collect();
            format!("export type {type_name} ={members};")
        };
        text += &format!(
            "\n/** {meaning} */\n{declaration}\nexport declare const {name}: readonly {type_name}[];\n"
        );
    }
    text += "\n/** Every kind a synopsis may have. */\nexport type SynopsisKind = ReferenceKind | EnhancedKind;\n";
    // Synopsis's fields as the core serializes them (every field of the Rust type, in order).
    let synopsis = serde_json::to_value(Synopsis::default()).unwrap_or_default();
    text += "\n/** What a stub says about an output (the core's `Synopsis`). */\nexport interface Synopsis {\n";
    if let Some(fields) = synopsis.as_object() {
        for (field, value) in fields {
            let field_type = match field.as_str() {
                "kind" => "SynopsisKind",
                _ => typescript_type(value),
            };
            text += &format!("  {field}: {field_type};\n");
        }
    }
    text += "}\n";
    text + &crate::js_shapes::typescript()
}

fn core_constants() -> String {
    let strings = [
        (
            "RESULTS_DIR",
            RESULTS_DIR,
            "The folder of a session's results: `<session>/tool-results/<id>/`.",
        ),
        ("OUTPUT_FILE", OUTPUT_FILE, "A result's raw output."),
        (
            "METADATA_FILE",
            METADATA_FILE,
            "A result's record, written last: a result exists once it is.",
        ),
        (
            "INDEX_FILE",
            INDEX_FILE,
            "A result's position index (see output-index.js).",
        ),
        (
            "CATALOG_DIR",
            CATALOG_DIR,
            "The folder of a session's catalog: `<session>/tool-stub/` (see src/catalog.rs).",
        ),
        (
            "CATALOG_INDEX_FILE",
            pages::INDEX_FILE,
            "The catalog's index: its totals and its pages' names, first ids and sums.",
        ),
        (
            "CATALOG_PAGES_DIR",
            pages::PAGES_DIR,
            "The folder of the catalog's pages (entries in id order, never rewritten in place).",
        ),
        (
            "SNAPSHOT_FILE",
            SNAPSHOT_FILE,
            "The catalog's snapshot in the layout before pages (read once, then written in pages).",
        ),
        (
            "LOG_DIR",
            LOG_DIR,
            "The folder of the log records after the snapshot, in the layout before pages.",
        ),
        (
            "HEAD_FILE",
            HEAD_FILE,
            "The catalog's generation, in the layout before pages.",
        ),
        ("LOCK_FILE", LOCK_FILE, "The session's lock."),
        (
            "CATALOG_FORMAT",
            CATALOG_FORMAT,
            "A catalog snapshot's `format`.",
        ),
        ("HEAD_FORMAT", HEAD_FORMAT, "The catalog head's `format`."),
    ];
    let numbers = [
        (
            "DEFAULT_READ_LIMIT",
            DEFAULT_READ_LIMIT,
            "`read`'s default limit, in code points.",
        ),
        (
            "DEFAULT_LIST_LIMIT",
            DEFAULT_LIST_LIMIT,
            "`list`'s default limit.",
        ),
        (
            "CONTEXT_HEAD_CHARS",
            HEAD_CHARS as i64,
            "How many chars of a tool result the context governor's plan reads to tell its form.",
        ),
        (
            "CATALOG_VERSION",
            CATALOG_VERSION,
            "A catalog snapshot's `version`.",
        ),
        (
            "CATALOG_RECENT_ENTRIES",
            crate::catalog::recent::RECENT_ENTRIES as i64,
            "Entries of the catalog's newest page: a newest-first window this long reads it alone.",
        ),
    ];
    let mut text = format!(
        "// Generated from the core's constants (src/js_constants.rs): do not edit.\n{REWRITE}"
    );
    for (name, value, meaning) in strings {
        text += &format!("\n/** {meaning} */\nexport const {name} = \"{value}\";\n");
    }
    for (name, value, meaning) in numbers {
        text += &format!("\n/** {meaning} */\nexport const {name} = {value};\n");
    }
    text
}
