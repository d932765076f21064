//! Source code: its language (from line starts only one language writes), what it defines (one
//! list, most telling first: interfaces, traits, enums and classes, then functions, types, public
//! methods, other methods) and its imports by short name. Line-based like the reference's `code`
//! kind: no parsing.

use super::document::joined_within;
use super::Input;
use crate::kinds::Synopsis;
use crate::python::{is_py_word, py_splitlines, stable_sort_by};
use std::collections::HashMap;

/// Distinct imports kept (a list far longer than a stub shows is not read further).
const MAX_IMPORTS: usize = 200;

const LANGUAGE_NAMES: [&str; 6] = ["Go", "Rust", "Python", "TypeScript", "JavaScript", "Java"];

/// Line starts (after indentation) that only one language writes, with its index.
const LANGUAGE_MARKS: [(&str, usize); 14] = [
    ("func ", 0),
    ("package main", 0),
    ("fn ", 1),
    ("pub fn ", 1),
    ("impl ", 1),
    ("#[derive", 1),
    ("def ", 2),
    ("async def ", 2),
    ("elif ", 2),
    ("interface ", 3),
    ("export interface ", 3),
    ("export type ", 3),
    ("function ", 4),
    ("public class ", 5),
];

/// Declaration keywords (after modifiers): the rank of what they declare (lower is shown first)
/// and the word the list prints before the name ("" for functions, which print as `name()`).
const DECLARATIONS: [(&str, u8, &str); 13] = [
    ("interface ", 0, "interface "),
    ("trait ", 0, "trait "),
    ("enum ", 0, "enum "),
    ("class ", 0, "class "),
    ("fn ", 1, ""),
    ("def ", 1, ""),
    ("function ", 1, ""),
    ("func ", 1, ""),
    ("struct ", 2, "struct "),
    ("type ", 2, "type "),
    ("record ", 2, "record "),
    ("mod ", 2, "mod "),
    ("object ", 2, "object "),
];

/// Modifiers before a declaration keyword.
const MODIFIERS: [&str; 14] = [
    "pub(crate) ", "pub(super) ", "pub ", "export default ", "export ", "async ", "public ",
    "private ", "protected ", "static ", "abstract ", "declare ", "final ", "unsafe ",
];

/// Words a method-looking line (`name(...) {`) may start with that are not methods.
const NOT_METHODS: [&str; 12] = [
    "if", "for", "while", "switch", "return", "catch", "function", "super", "await", "new", "else",
    "constructor",
];

/// The identifier at the start of `text`.
fn ident(text: &str) -> &str {
    let end = text.find(|c: char| !is_py_word(c)).unwrap_or(text.len());
    &text[..end]
}

/// A declaration on `raw`: its rank (0 abstractions, 1 functions, 2 data types, 3 public
/// methods, 4 other methods) and how the list prints it.
fn declaration(raw: &str, rust: bool) -> Option<(u8, String)> {
    let indented = raw.starts_with([' ', '\t']);
    let mut line = raw.trim_start();
    let mut public = !rust || line.starts_with("pub");
    while let Some(modifier) = MODIFIERS.iter().find(|m| line.starts_with(**m)) {
        public &= *modifier != "private ";
        line = &line[modifier.len()..];
    }
    line = line.strip_prefix("const fn ").map_or(line, |rest| &line[line.len() - rest.len() - 3..]);
    for (keyword, rank, word) in DECLARATIONS {
        let Some(mut rest) = line.strip_prefix(keyword) else {
            continue;
        };
        // Go methods: `func (s *Server) Name(`.
        if keyword == "func " && rest.starts_with('(') {
            rest = rest.split_once(')').map_or(rest, |(_, after)| after.trim_start());
        }
        let name = ident(rest);
        if name.is_empty() || name.starts_with("__") {
            return None;
        }
        public &= !name.starts_with('_');
        // Go's `type Name struct` / `type Name interface`.
        let word = match (keyword, rest[name.len()..].trim_start().split(' ').next()) {
            ("type ", Some(kind @ ("struct" | "interface"))) => kind,
            _ => word.trim_end(),
        };
        let rank = match rank {
            1 if indented => 4 - u8::from(public),
            2 if word == "interface" => 0,
            rank => rank,
        };
        return Some((
            rank,
            if word.is_empty() {
                format!("{name}()")
            } else {
                format!("{word} {name}")
            },
        ));
    }
    // Methods of a class body: `  async listOrders(...) {`.
    let name = ident(line);
    let trimmed = raw.trim_end();
    (indented
        && !name.is_empty()
        && line[name.len()..].starts_with('(')
        && trimmed.ends_with('{')
        && !NOT_METHODS.contains(&name))
    .then(|| (4 - u8::from(public && !name.starts_with('_')), format!("{name}()")))
}

/// An import's short name: a path's last segment that is not a version, a Rust crate, a module.
fn import_name(line: &str) -> Option<&str> {
    let path = if let Some(start) = line.find(['"', '\'']) {
        // `import x from "zod"`, `from "./a" import`, a Go import line.
        let rest = &line[start + 1..];
        &rest[..rest.find(['"', '\''])?]
    } else {
        let rest = ["from ", "import ", "use ", "pub use "]
            .iter()
            .find_map(|prefix| line.strip_prefix(prefix))?;
        ident(rest.trim_start_matches(':'))
    };
    path.rsplit('/')
        .find(|segment| {
            let version = segment.len() > 1
                && segment.starts_with('v')
                && segment[1..].bytes().all(|b| b.is_ascii_digit());
            !segment.is_empty() && !version
        })
        .map(|name| name.trim_start_matches('@'))
        .filter(|name| !name.is_empty() && !matches!(*name, "self" | "super" | "crate" | "."))
}

/// The enhanced synopsis of what the reference reads as code.
pub fn synopsis(input: &Input<'_>) -> Option<Synopsis> {
    if input.reference_kind != "code" {
        return None;
    }
    let mut votes = [0usize; 6];
    let mut lines = 0;
    let mut imports: Vec<&str> = Vec::new();
    let mut defines: Vec<(u8, String)> = Vec::new();
    // What is in `defines` (a lookup per line: a long file must not make it quadratic).
    let mut defined: HashMap<String, usize> = HashMap::new();
    let mut package = "";
    let mut notes: Vec<&str> = Vec::new();
    let mut in_import_block = false;
    // The language decides how methods read, so it is found first.
    for raw in py_splitlines(input.output) {
        let line = raw.trim_start();
        for (mark, language) in LANGUAGE_MARKS {
            if line.starts_with(mark) {
                votes[language] += 1;
            }
        }
    }
    let language = (0..6)
        .max_by_key(|&i| (votes[i], 6 - i))
        .filter(|&i| votes[i] > 0);
    let rust = language == Some(1);
    for raw in py_splitlines(input.output) {
        lines += 1;
        let line = raw.trim();
        if in_import_block || line == "import (" {
            in_import_block = line != ")";
            if let Some(name) = import_name(line).filter(|_| line != "import (") {
                if imports.len() < MAX_IMPORTS && !imports.contains(&name) {
                    imports.push(name);
                }
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("package ") {
            package = ident(rest);
            continue;
        }
        if !raw.starts_with([' ', '\t'])
            && ["import ", "from ", "use ", "pub use "].iter().any(|p| line.starts_with(p))
        {
            if let Some(name) = import_name(line) {
                if imports.len() < MAX_IMPORTS && !imports.contains(&name) {
                    imports.push(name);
                }
            }
            continue;
        }
        if line.starts_with("if __name__") {
            notes.push("__main__ guard");
        } else if line.starts_with("#[cfg(test)]") && !notes.contains(&"unit tests") {
            notes.push("unit tests");
        }
        if let Some(found) = declaration(raw, rust) {
            if defined.insert(found.1.clone(), 0).is_none() {
                defines.push(found);
            }
        }
    }
    let mut synopsis = Synopsis::new("code", "Code output");
    let language = language.map_or("Code", |i| LANGUAGE_NAMES[i]);
    let package = if package.is_empty() {
        String::new()
    } else {
        format!(", package {package}")
    };
    synopsis
        .summary
        .push(format!("{language} source, {lines} lines{package}."));
    stable_sort_by(&mut defines, |a, b| a.0.cmp(&b.0));
    let names: Vec<&str> = defines.iter().map(|(_, name)| name.as_str()).collect();
    for (label, names, width) in [
        ("defines", &names, DEFINES_WIDTH),
        ("imports", &imports, LIST_WIDTH),
        ("entry", &notes, LIST_WIDTH),
    ] {
        if !names.is_empty() {
            synopsis.structure.push(format!(
                "{label} ({}): {}",
                names.len(),
                joined_within(names, width)
            ));
        }
    }
    Some(synopsis)
}

/// Chars of the list of what the code defines (the stub's bound may clip it further).
const DEFINES_WIDTH: usize = 420;
/// Chars of the other lists.
const LIST_WIDTH: usize = 120;
