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

/// The modules of `src/enhanced/` each file imports (`super::NAME`, `super::super::NAME` from a
/// folder's files, `crate::enhanced::NAME`, also inside `{...}` groups), before its tests:
/// `(importer, imported)`, both by their top-level name under `src/enhanced/`.
fn enhanced_imports(files: &[(String, String)]) -> Vec<(String, String)> {
    let module_of = |name: &str| -> Option<(String, bool)> {
        let rest = name.strip_prefix("src/enhanced/")?;
        Some(match rest.split_once('/') {
            Some((folder, file)) => (folder.to_string(), file != "mod.rs"),
            None => (rest.trim_end_matches(".rs").to_string(), false),
        })
    };
    let modules: Vec<String> = files
        .iter()
        .filter_map(|(name, _)| module_of(name).map(|(module, _)| module))
        .collect();
    let mut edges = Vec::new();
    for (name, text) in files {
        let Some((module, nested)) = module_of(name) else {
            continue;
        };
        let code: String = text
            .split("#[cfg(test)]\nmod tests")
            .next()
            .unwrap_or("")
            .lines()
            .map(|line| line.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        let parent = if nested { "super::super::" } else { "super::" };
        for prefix in [parent, "crate::enhanced::"] {
            for (at, _) in code.match_indices(prefix) {
                let after = &code[at + prefix.len()..];
                if nested && prefix == "super::" {
                    continue;
                }
                let names: Vec<&str> = match after.strip_prefix('{') {
                    Some(group) => top_level_items(group),
                    None => vec![after],
                };
                for item in names {
                    let ident: String = item
                        .trim_start()
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if ident != module && modules.contains(&ident) {
                        edges.push((module.clone(), ident));
                    }
                }
            }
        }
    }
    edges.sort();
    edges.dedup();
    edges
}

/// The items of a `{...}` group (the text after its `{`), split at its own commas.
fn top_level_items(group: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..at]);
                return items;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    items
}

/// A circle of imports in `edges` (`[a, b, ..., a]`), if there is one.
fn import_circle(edges: &[(String, String)]) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        edges: &[(String, String)],
        path: &mut Vec<String>,
        done: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|m| m == module) {
            let mut circle = path[at..].to_vec();
            circle.push(module.to_string());
            return Some(circle);
        }
        if done.iter().any(|m| m == module) {
            return None;
        }
        path.push(module.to_string());
        for (_, imported) in edges.iter().filter(|(from, _)| from == module) {
            if let Some(circle) = visit(imported, edges, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.push(module.to_string());
        None
    }
    let mut done = Vec::new();
    edges
        .iter()
        .find_map(|(from, _)| visit(from, edges, &mut Vec::new(), &mut done))
}

#[test]
fn enhanced_modules_import_each_other_without_circles() {
    let files = sources("src/enhanced");
    let edges = enhanced_imports(&files);
    assert!(
        edges
            .iter()
            .any(|(from, to)| from == "table" && to == "field_values"),
        "the imports are found: {edges:?}"
    );
    if let Some(circle) = import_circle(&edges) {
        panic!(
            "src/enhanced modules import each other in a circle: {}; move the shared piece \
             into a module of its own",
            circle.join(" -> ")
        );
    }
}

#[test]
fn an_import_circle_is_found() {
    let file = |name: &str, text: &str| (name.to_string(), text.to_string());
    let files = [
        file("src/enhanced/a.rs", "use super::b::x;\n"),
        file("src/enhanced/b/mod.rs", "use super::{c::{y, z}, d};\n"),
        file("src/enhanced/b/inner.rs", "use super::super::c;\n"),
        file("src/enhanced/c.rs", "use crate::enhanced::a::w;\n"),
        file("src/enhanced/d.rs", "// use super::a;\n"),
    ];
    let edges = enhanced_imports(&files);
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(
        edges,
        [
            pair("a", "b"),
            pair("b", "c"),
            pair("b", "d"),
            pair("c", "a")
        ]
    );
    assert_eq!(
        import_circle(&edges),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    assert_eq!(import_circle(&edges[..3]), None);
}
