//! The JavaScript files generated from the core (src/js_constants.rs) must match it: a stale file
//! fails here and the message says how to write it again. File access lives here, not in the core
//! (tests/limits.rs checks that src/ touches no files).

use std::path::Path;

#[test]
fn generated_js_files_match_the_core() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let rewrite = std::env::var_os("TOOL_STUB_WRITE_GENERATED").is_some();
    for (file, expected) in tool_stub::generated_js_files() {
        let path = root.join(file);
        if rewrite {
            std::fs::write(&path, &expected).expect("write the generated file");
        }
        let found = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            found == expected,
            "{file} is stale: run TOOL_STUB_WRITE_GENERATED=1 cargo test --test generated_js"
        );
    }
}
