//! The files of the JavaScript layer that are generated from the core, so that each rule has one
//! source: js/core-constants.js (the store layout's names, the calls' defaults),
//! js/stores/error-codes.js / .d.ts (the error codes) and js/generated/contract.js / .d.ts (what
//! crosses the wasm boundary: layout names, reasons, modes, error codes, and the `Synopsis` type,
//! its fields read from the Rust type's own serialization). Pure text here; tests/generated_js.rs
//! checks the files in the repository against it (the core itself touches no files).

use crate::context::forms::HEAD_CHARS;
use crate::error::ErrorCode;
use crate::kinds::Synopsis;
use crate::record::{INDEX_FILE, METADATA_FILE, OFFSET_UNIT, OUTPUT_FILE, RESULTS_DIR};
use crate::retrieval::{DEFAULT_LIST_LIMIT, DEFAULT_READ_LIMIT};
use crate::synopsis_mode::SynopsisMode;
use crate::turn::{
    FailureMode, REASON_BUDGET, REASON_SINGLE, REASON_SOURCE_READ, REASON_TOO_LARGE,
};

/// Generated lines longer than this are broken as biome.json's formatter would break them, so the
/// files read like the rest of the JS (biome itself leaves generated files alone).
const LINE_WIDTH: usize = 100;

const REWRITE: &str =
    "// Write it again with: TOOL_STUB_WRITE_GENERATED=1 cargo test --test generated_js\n";

/// Each generated file: its path from the repository root, and its text.
pub fn generated_js_files() -> [(&'static str, String); 5] {
    [
        ("js/core-constants.js", core_constants()),
        ("js/stores/error-codes.js", error_codes_javascript()),
        ("js/stores/error-codes.d.ts", error_codes_typescript()),
        ("js/generated/contract.js", contract_javascript()),
        ("js/generated/contract.d.ts", contract_typescript()),
    ]
}

/// The string values the contract names, by list: (JS name, TS type name, meaning, values).
fn contract_lists() -> Vec<(&'static str, &'static str, &'static str, Vec<String>)> {
    let names = |values: &[&str]| values.iter().map(|v| v.to_string()).collect::<Vec<_>>();
    let serialized = |value: serde_json::Value| value.as_str().unwrap_or_default().to_string();
    vec![
        (
            "LAYOUT_NAMES",
            "LayoutName",
            "The store layout's names: a session's results folder and each result's files.",
            names(&[RESULTS_DIR, OUTPUT_FILE, METADATA_FILE, INDEX_FILE]),
        ),
        (
            "EXTERNALIZED_REASONS",
            "ExternalizedReason",
            "Why a part was externalized (`externalizedReason`, a record's `reason`).",
            names(&[
                REASON_SINGLE,
                REASON_BUDGET,
                REASON_SOURCE_READ,
                REASON_TOO_LARGE,
            ]),
        ),
        (
            "SYNOPSIS_MODES",
            "SynopsisMode",
            "The synopsis rules a stub is made with (`config.synopsisMode`).",
            SynopsisMode::ALL
                .iter()
                .map(|mode| serialized(serde_json::to_value(mode).unwrap_or_default()))
                .collect(),
        ),
        (
            "FAILURE_MODES",
            "FailureMode",
            "What a failed store write does to a turn (`config.failureMode`).",
            FailureMode::ALL
                .iter()
                .map(|mode| serialized(serde_json::to_value(mode).unwrap_or_default()))
                .collect(),
        ),
        (
            "ERROR_CODES",
            "ErrorCode",
            "The stable codes of ToolStubError: callers branch on these, never on messages.",
            ErrorCode::ALL
                .iter()
                .map(|code| code.as_str().to_string())
                .collect(),
        ),
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

fn contract_javascript() -> String {
    let mut text = contract_header();
    text += &format!("\n/** The unit of read offsets and limits. */\nexport const OFFSET_UNIT = \"{OFFSET_UNIT}\";\n");
    for (name, _, meaning, values) in contract_lists() {
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

fn contract_typescript() -> String {
    let mut text = contract_header();
    text += &format!("\n/** The unit of read offsets and limits. */\nexport declare const OFFSET_UNIT: \"{OFFSET_UNIT}\";\n");
    for (name, type_name, meaning, values) in contract_lists() {
        let union = values
            .iter()
            .map(|value| format!("\"{value}\""))
            .collect::<Vec<_>>()
            .join(" | ");
        let line = format!("export type {type_name} = {union};");
        let declaration = if line.len() <= LINE_WIDTH {
            line
        } else {
            let members: String = values.iter().map(|v| format!("\n  | \"{v}\"")).collect();
            format!("export type {type_name} ={members};")
        };
        text += &format!(
            "\n/** {meaning} */\n{declaration}\nexport declare const {name}: readonly {type_name}[];\n"
        );
    }
    // Synopsis's fields as the core serializes them (every field of the Rust type, in order).
    let synopsis = serde_json::to_value(Synopsis::default()).unwrap_or_default();
    text += "\n/** What a stub says about an output (the core's `Synopsis`). */\nexport interface Synopsis {\n";
    if let Some(fields) = synopsis.as_object() {
        for (field, value) in fields {
            text += &format!("  {field}: {};\n", typescript_type(value));
        }
    }
    text + "}\n"
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

fn error_codes_header() -> String {
    format!("// Generated from ErrorCode in src/error.rs, the one list of error codes: do not edit.\n{REWRITE}\n/** The stable codes of ToolStubError: callers branch on these, never on messages. */\n")
}

fn error_codes_javascript() -> String {
    let mut text = error_codes_header() + "export const ERROR_CODES = Object.freeze([\n";
    for code in ErrorCode::ALL {
        text += &format!("  /** {} */\n  \"{}\",\n", code.meaning(), code.as_str());
    }
    text + "]);\n"
}

fn error_codes_typescript() -> String {
    let mut text = error_codes_header() + "export type ToolStubErrorCode =";
    for code in ErrorCode::ALL {
        text += &format!("\n  /** {} */\n  | \"{}\"", code.meaning(), code.as_str());
    }
    // The `;` right after the last member, where the formatter (biome.json) puts it.
    text + ";\n\nexport declare const ERROR_CODES: readonly ToolStubErrorCode[];\n"
}
