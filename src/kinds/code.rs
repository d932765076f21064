//! `code` kind (SPEC 3.4): line count, imports and top-level-looking symbols, found per line by
//! light regexes (no parsing: the reference does not parse code either).

use std::sync::OnceLock;

use regex::Regex;

use crate::pyutil::{one_line, py_line_count, py_splitlines, py_strip, PY_SPACE_CLASS, PY_WORD_CLASS};
use crate::synopsis::Synopsis;

const MAX_IMPORTS: usize = 12;
const MAX_IMPORT_CHARS: i64 = 180;
const MAX_SYMBOLS: usize = 24;
const MAX_SYMBOL_CHARS: i64 = 200;

/// Builds a regex from a pattern written with Python's `\s`, `\S` and `\w` (which differ from the
/// regex crate's Unicode classes), spelled here as `{s}`, `{S}` and `{w}`.
pub(crate) fn python_regex(pattern: &str) -> Regex {
    let expanded = pattern
        .replace("{s}", &format!("[{PY_SPACE_CLASS}]"))
        .replace("{S}", &format!("[^{PY_SPACE_CLASS}]"))
        .replace("{w}", &format!("[{PY_WORD_CLASS}]"));
    match Regex::new(&expanded) {
        Ok(regex) => regex,
        // The patterns are constants of this crate; a failure is a bug caught by any test run.
        Err(error) => panic!("invalid built-in pattern {pattern:?}: {error}"),
    }
}

/// SPEC step 8: does any line of the output look like code? (`\s*` may cross lines.)
pub fn looks_like_code(output: &str) -> bool {
    static PATTERNS: OnceLock<[Regex; 3]> = OnceLock::new();
    let patterns = PATTERNS.get_or_init(|| {
        [
            python_regex(r"(?m)^{s}*(from{s}+{S}+{s}+import|import{s}+{S}+)"),
            python_regex(
                r"(?m)^{s}*(class|def|async{s}+def|function|export{s}+function|const|let|var){s}+{w}+",
            ),
            python_regex(r"(?m)^{s}*(package|use|pub{s}+fn|fn|public{s}+class){s}+{w}+"),
        ]
    });
    patterns.iter().any(|pattern| pattern.is_match(output))
}

fn import_pattern() -> &'static Regex {
    static PATTERN: OnceLock<Regex> = OnceLock::new();
    PATTERN.get_or_init(|| python_regex(r"^(?:from{s}+({S}+){s}+import|import{s}+({S}+))"))
}

fn symbol_pattern() -> &'static Regex {
    static PATTERN: OnceLock<Regex> = OnceLock::new();
    PATTERN.get_or_init(|| {
        python_regex(r"^(class|def|async{s}+def|function|export{s}+function|pub{s}+fn|fn){s}+([A-Za-z_]{w}*)")
    })
}

pub fn synopsis(output: &str) -> Synopsis {
    let mut imports = Vec::new();
    let mut symbols = Vec::new();
    for line in py_splitlines(output) {
        let line = py_strip(line);
        if let Some(found) = import_pattern().captures(line) {
            if let Some(module) = found.get(1).or_else(|| found.get(2)) {
                imports.push(one_line(module.as_str(), MAX_IMPORT_CHARS));
            }
            continue;
        }
        if symbols.len() < MAX_SYMBOLS {
            if let Some(found) = symbol_pattern().captures(line) {
                let keyword = found.get(1).map_or("", |m| m.as_str());
                let name = found.get(2).map_or("", |m| m.as_str());
                symbols.push(one_line(&format!("{keyword} {name}"), MAX_SYMBOL_CHARS));
            }
        }
    }
    let lines = py_line_count(output);
    let mut synopsis = Synopsis::new("code", "Code output");
    synopsis.summary.push(format!("Code-like output with {lines} lines."));
    synopsis.structure.push(format!("line_count: {lines}"));
    if !imports.is_empty() {
        imports.truncate(MAX_IMPORTS);
        synopsis.structure.push(format!("imports: {}", imports.join(", ")));
    }
    synopsis.notable_items = symbols;
    synopsis
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_uses_python_whitespace_and_crosses_lines() {
        assert!(looks_like_code("text\n  import os"));
        assert!(looks_like_code("\n\n\u{1c}def f():"));
        assert!(!looks_like_code("we import things"));
        // `\s*` may run over blank lines before the keyword.
        assert!(looks_like_code("x\n\n\n   fn main"));
        // A carriage return alone does not start a line for `^`.
        assert!(!looks_like_code("x\rdef f"));
    }

    #[test]
    fn imports_and_symbols() {
        let s = synopsis("from a.b import c\nimport os\n  async  def go(x):\nclass Foo:\nfn 1bad\n");
        assert_eq!(s.structure, ["line_count: 5", "imports: a.b, os"]);
        assert_eq!(s.notable_items, ["async def go", "class Foo"]);
    }
}
