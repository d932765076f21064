//! The core's constants that the JavaScript layer uses too (the store layout's names, the calls'
//! defaults), written as js/core-constants.js: one source for them. The test fails when the file
//! is stale and says how to write it again.

use crate::record::{INDEX_FILE, METADATA_FILE, OUTPUT_FILE, RESULTS_DIR};
use crate::retrieval::{DEFAULT_LIST_LIMIT, DEFAULT_READ_LIMIT};

fn javascript() -> String {
    let strings = [
        ("RESULTS_DIR", RESULTS_DIR, "The folder of a session's results: `<session>/tool-results/<id>/`."),
        ("OUTPUT_FILE", OUTPUT_FILE, "A result's raw output."),
        ("METADATA_FILE", METADATA_FILE, "A result's record, written last: a result exists once it is."),
        ("INDEX_FILE", INDEX_FILE, "A result's position index (see output-index.js)."),
    ];
    let numbers = [
        ("DEFAULT_READ_LIMIT", DEFAULT_READ_LIMIT, "`read`'s default limit, in code points."),
        ("DEFAULT_LIST_LIMIT", DEFAULT_LIST_LIMIT, "`list`'s default limit."),
    ];
    let mut text = String::from(
        "// Generated from the core's constants (src/js_constants.rs): do not edit.\n\
         // Write it again with: TOOL_STUB_WRITE_JS_CONSTANTS=1 cargo test --lib js_constants\n",
    );
    for (name, value, meaning) in strings {
        text += &format!("\n/** {meaning} */\nexport const {name} = \"{value}\";\n");
    }
    for (name, value, meaning) in numbers {
        text += &format!("\n/** {meaning} */\nexport const {name} = {value};\n");
    }
    text
}

#[test]
fn js_constants_are_generated_from_the_core() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("js/core-constants.js");
    if std::env::var_os("TOOL_STUB_WRITE_JS_CONSTANTS").is_some() {
        std::fs::write(&path, javascript()).expect("write js/core-constants.js");
    }
    let found = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        found == javascript(),
        "js/core-constants.js is stale: run TOOL_STUB_WRITE_JS_CONSTANTS=1 cargo test --lib js_constants"
    );
}
