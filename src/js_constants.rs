//! The files of the JavaScript layer that are generated from the core, so that each rule has one
//! source: js/core-constants.js (the store layout's names, the calls' defaults) and
//! js/stores/error-codes.js / .d.ts (the error codes). Pure text here; tests/generated_js.rs
//! checks the files in the repository against it (the core itself touches no files).

use crate::context::forms::HEAD_CHARS;
use crate::error::ErrorCode;
use crate::record::{INDEX_FILE, METADATA_FILE, OUTPUT_FILE, RESULTS_DIR};
use crate::retrieval::{DEFAULT_LIST_LIMIT, DEFAULT_READ_LIMIT};

const REWRITE: &str =
    "// Write it again with: TOOL_STUB_WRITE_GENERATED=1 cargo test --test generated_js\n";

/// Each generated file: its path from the repository root, and its text.
pub fn generated_js_files() -> [(&'static str, String); 3] {
    [
        ("js/core-constants.js", core_constants()),
        ("js/stores/error-codes.js", error_codes_javascript()),
        ("js/stores/error-codes.d.ts", error_codes_typescript()),
    ]
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
