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

/// src/kinds/xml/names.rs is what scripts/xml-name-tables.py writes from the expat Python links
/// (the reference's XML parser). Without python3, or with another expat, the check is skipped.
#[test]
fn xml_name_tables_match_their_generator() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = root.join("scripts/xml-name-tables.py");
    let Ok(run) = std::process::Command::new("python3")
        .arg(&script)
        .arg("--check")
        .output()
    else {
        println!("PARITY-SKIPPED xml name tables: no python3 to run {script:?}");
        return;
    };
    if run.status.code() == Some(3) {
        println!(
            "PARITY-SKIPPED xml name tables: {}",
            String::from_utf8_lossy(&run.stderr).trim()
        );
        return;
    }
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
}
