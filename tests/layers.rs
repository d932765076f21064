//! The structure the source keeps: dependencies point one way (the reference layer never imports
//! enhanced mode's analyzers; `src/enhanced_source.rs` is the one seam, and `src/lib.rs` re-exports
//! them), and no source file is over 1,500 lines before its tests.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

fn sources(folder: &str) -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join(folder), &mut files);
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let name = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .display()
                .to_string();
            (
                name,
                std::fs::read_to_string(&path).expect("a UTF-8 source"),
            )
        })
        .collect()
}

#[test]
fn the_reference_layer_never_imports_the_enhanced_one() {
    let files = sources("src");
    assert!(files.len() > 20, "the core's sources are found");
    let seams = ["src/lib.rs", "src/enhanced_source.rs"];
    for (name, text) in &files {
        if name.starts_with("src/enhanced/") || seams.contains(&name.as_str()) {
            continue;
        }
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            assert!(
                !code.contains("enhanced::"),
                "{name}:{}: the reference layer imports the enhanced one: {line}",
                number + 1
            );
        }
    }
}

#[test]
fn no_source_file_is_over_1500_lines_before_its_tests() {
    let mut files = sources("src");
    files.extend(sources("bindings"));
    for (name, text) in &files {
        let lines: Vec<&str> = text.lines().collect();
        let before_tests = lines
            .windows(2)
            .position(|pair| pair[0] == "#[cfg(test)]" && pair[1].starts_with("mod tests"))
            .unwrap_or(lines.len());
        assert!(
            before_tests <= 1_500,
            "{name} has {before_tests} lines before its tests: split it by concern"
        );
    }
}
