//! The JavaScript files generated from the core (src/js_constants.rs) must match it: a stale file
//! fails here and the message says how to write it again. File access lives here, not in the core
//! (tests/limits.rs checks that src/ touches no files). The files list the enhanced layer's kinds
//! too: they are generated with the `enhanced` feature (a default one).
#![cfg(feature = "enhanced")]

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

fn rust_sources(dir: &Path, found: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_sources(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let text = std::fs::read_to_string(&path).expect("a UTF-8 source");
            found.push((path.display().to_string(), text));
        }
    }
}

/// The string literals that follow each `opening` in `text` (e.g. the kind of `Synopsis::new("x"`).
fn literals_after<'a>(text: &'a str, opening: &str) -> Vec<&'a str> {
    text.match_indices(opening)
        .filter_map(|(at, _)| {
            let rest = &text[at + opening.len()..];
            rest.find('"').map(|end| &rest[..end])
        })
        .collect()
}

/// The contract's kinds are every kind the core names, and only those: a synopsis made with a
/// kind the lists lack (or a listed kind no code makes) fails here, so the generated types and
/// the JS that branches on kinds cannot drift from the analyzers.
#[test]
fn the_contract_lists_every_kind_the_core_names() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let contract = tool_stub::generated_js_files()
        .into_iter()
        .find(|(file, _)| file.ends_with("contract.js"))
        .expect("the contract is generated")
        .1;
    let listed = |name: &str| -> Vec<String> {
        let start = contract
            .find(&format!("export const {name} = "))
            .expect("the list");
        let list = &contract[start..start + contract[start..].find(");").expect("its end")];
        list.split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    let kinds: Vec<String> = [listed("REFERENCE_KINDS"), listed("ENHANCED_KINDS")].concat();
    assert!(kinds.len() >= 10, "the kinds are listed: {kinds:?}");
    let mut sources = Vec::new();
    rust_sources(&root.join("src"), &mut sources);
    let mut made = Vec::new();
    for (file, text) in &sources {
        let code: String = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
        for opening in [
            "Synopsis::new(\"",
            ".kind = \"",
            "describe(&value, \"JSON\", \"",
        ] {
            for kind in literals_after(&code, opening) {
                assert!(
                    kinds.iter().any(|listed| listed == kind),
                    "{file} makes a synopsis of kind {kind:?}, which the contract does not list"
                );
                made.push(kind.to_string());
            }
        }
    }
    for kind in &kinds {
        let named = sources
            .iter()
            .any(|(_, text)| text.contains(&format!("\"{kind}\"")));
        assert!(
            named,
            "the contract lists kind {kind:?}, which no source names"
        );
    }
    assert!(made.len() > 15, "the synopses' kinds are found: {made:?}");
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
