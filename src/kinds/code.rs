//! `code` kind (SPEC 3.4): line count, imports and top-level-looking symbols, found per line by
//! light regexes (no parsing: the reference does not parse code either).

use std::sync::OnceLock;

use regex::Regex;

use crate::pyutil::{is_py_space, one_line, py_line_count, py_splitlines, py_strip, PY_SPACE_CLASS, PY_WORD_CLASS};
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

/// SPEC step 8: does any line of the output look like code? The reference's three patterns all
/// read `(?m)^\s*(keyword...)`; `\s*` may cross lines, so from every line start the test runs at
/// the next non-space char. Hand-written because it runs on every text-like output: the regexes
/// took most of a text synopsis's time.
pub fn looks_like_code(output: &str) -> bool {
    let mut tested_up_to = 0;
    let line_starts = std::iter::once(0).chain(output.match_indices('\n').map(|(at, _)| at + 1));
    for start in line_starts {
        if start < tested_up_to {
            continue;
        }
        let rest = output.get(start..).unwrap_or("");
        let at = rest.len() - rest.trim_start_matches(is_py_space).len();
        tested_up_to = start + at + 1;
        if starts_code_line(&rest[at..]) {
            return true;
        }
    }
    false
}

/// The alternatives of the three detection patterns, anchored at `s`.
fn starts_code_line(s: &str) -> bool {
    // `import{s}+{S}+` and `from{s}+{S}+{s}+import`.
    if let Some(rest) = s.strip_prefix("import").and_then(spaces) {
        return rest.starts_with(|c: char| !is_py_space(c));
    }
    if let Some(rest) = s.strip_prefix("from").and_then(spaces) {
        let after_module = rest.trim_start_matches(|c: char| !is_py_space(c));
        if after_module.len() < rest.len() && spaces(after_module).is_some_and(|r| r.starts_with("import")) {
            return true;
        }
    }
    // `(keyword){s}+{w}+`, where some keywords are two words joined by `{s}+`.
    const KEYWORDS: &[&[&str]] = &[
        &["class"], &["def"], &["async", "def"], &["function"], &["export", "function"], &["const"],
        &["let"], &["var"], &["package"], &["use"], &["pub", "fn"], &["fn"], &["public", "class"],
    ];
    KEYWORDS.iter().any(|words| {
        let mut rest = Some(s);
        for (i, word) in words.iter().enumerate() {
            rest = rest.and_then(|r| if i == 0 { Some(r) } else { spaces(r) }).and_then(|r| r.strip_prefix(word));
        }
        rest.and_then(spaces).and_then(|r| r.chars().next()).is_some_and(is_py_word)
    })
}

/// What follows one or more Python `\s` chars at the start of `s`, if there is one.
fn spaces(s: &str) -> Option<&str> {
    let rest = s.trim_start_matches(is_py_space);
    (rest.len() < s.len()).then_some(rest)
}

/// Python's `\w` for one char (`str.isalnum()` or `_`), with the same class the other patterns use.
pub(crate) fn is_py_word(c: char) -> bool {
    static WORD: OnceLock<Regex> = OnceLock::new();
    c == '_' || c.is_ascii_alphanumeric() || (!c.is_ascii() && WORD.get_or_init(|| python_regex("^{w}")).is_match(c.encode_utf8(&mut [0; 4])))
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
        assert!(looks_like_code("from  a.b \u{3000}import c") && !looks_like_code("from a.b  importer"[..9].as_ref()));
        assert!(looks_like_code("x\n pub \t fn é") && !looks_like_code("pubfn x\nconstant y\nfn -"));
        assert!(looks_like_code("export function\n\u{661}") && !looks_like_code("import"));
    }

    #[test]
    fn imports_and_symbols() {
        let s = synopsis("from a.b import c\nimport os\n  async  def go(x):\nclass Foo:\nfn 1bad\n");
        assert_eq!(s.structure, ["line_count: 5", "imports: a.b, os"]);
        assert_eq!(s.notable_items, ["async def go", "class Foo"]);
    }
}
