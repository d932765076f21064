//! `code` kind (SPEC 3.4): line count, imports and top-level-looking symbols, found per line by
//! light regexes (no parsing: the reference does not parse code either).

use super::Synopsis;
use crate::python::{is_py_space, is_py_word, one_line, py_lstrip, py_splitlines, py_strip};

const MAX_IMPORTS: usize = 12;
const MAX_IMPORT_CHARS: i64 = 180;
const MAX_SYMBOLS: usize = 24;
const MAX_SYMBOL_CHARS: i64 = 200;

/// The keywords of the code-line pattern `(keyword){s}+{w}+`, some two words joined by `{s}+`.
const CODE_LINE_KEYWORDS: &[&[&str]] = &[
    &["class"],
    &["def"],
    &["async", "def"],
    &["function"],
    &["export", "function"],
    &["const"],
    &["let"],
    &["var"],
    &["package"],
    &["use"],
    &["pub", "fn"],
    &["fn"],
    &["public", "class"],
];

/// The keywords of the symbol pattern, in the reference's order (the first match wins).
const SYMBOL_KEYWORDS: &[&[&str]] = &[
    &["class"],
    &["def"],
    &["async", "def"],
    &["function"],
    &["export", "function"],
    &["pub", "fn"],
    &["fn"],
];

/// The bytes a code line can start with: the keywords' first letters, and `from`'s and `import`'s.
const CODE_LINE_FIRST_BYTES: [bool; 256] = first_bytes(CODE_LINE_KEYWORDS, b"fi");
const SYMBOL_FIRST_BYTES: [bool; 256] = first_bytes(SYMBOL_KEYWORDS, b"");

/// A table of the first bytes of `keywords` and of `more`, built from the lists at compile time so
/// the first-byte tests cannot fall out of step with them.
const fn first_bytes(keywords: &[&[&str]], more: &[u8]) -> [bool; 256] {
    let mut table = [false; 256];
    let mut i = 0;
    while i < keywords.len() {
        table[keywords[i][0].as_bytes()[0] as usize] = true;
        i += 1;
    }
    let mut i = 0;
    while i < more.len() {
        table[more[i] as usize] = true;
        i += 1;
    }
    table
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
        let at = rest.len() - py_lstrip(rest).len();
        tested_up_to = start + at + 1;
        if starts_code_line(&rest[at..]) {
            return true;
        }
    }
    false
}

/// The alternatives of the three detection patterns, anchored at `s`.
fn starts_code_line(s: &str) -> bool {
    // Most lines are rejected at their first byte, before a dozen prefix comparisons.
    if !s
        .as_bytes()
        .first()
        .is_some_and(|&b| CODE_LINE_FIRST_BYTES[usize::from(b)])
    {
        return false;
    }
    // `import{s}+{S}+` and `from{s}+{S}+{s}+import`.
    if imported_module(s).is_some() {
        return true;
    }
    CODE_LINE_KEYWORDS.iter().any(|words| {
        after_keyword(s, words)
            .and_then(spaces)
            .and_then(|r| r.chars().next())
            .is_some_and(is_py_word)
    })
}

/// What follows `words` at the start of `s`, the words joined by Python `\s+`.
fn after_keyword<'a>(s: &'a str, words: &[&str]) -> Option<&'a str> {
    let mut rest = s;
    for (i, word) in words.iter().enumerate() {
        rest = if i == 0 { rest } else { spaces(rest)? };
        rest = rest.strip_prefix(word)?;
    }
    Some(rest)
}

/// What follows one or more Python `\s` chars at the start of `s`, if there is one.
pub(crate) fn spaces(s: &str) -> Option<&str> {
    let rest = py_lstrip(s);
    (rest.len() < s.len()).then_some(rest)
}

/// The module of the reference's `^(?:from\s+(\S+)\s+import|import\s+(\S+))` at the start of `s`.
/// The `\S+` runs are maximal: a shorter one would leave a non-space where `\s+` must follow.
fn imported_module(s: &str) -> Option<&str> {
    // Every line of code is tried: most fail here, before two prefix comparisons.
    if !matches!(s.as_bytes().first(), Some(b'f' | b'i')) {
        return None;
    }
    fn leading_module(rest: &str) -> Option<(&str, &str)> {
        let rest = spaces(rest)?;
        let end = rest.find(is_py_space).unwrap_or(rest.len());
        (end > 0).then(|| rest.split_at(end))
    }
    if let Some((module, after)) = s.strip_prefix("from").and_then(leading_module) {
        if spaces(after).is_some_and(|r| r.starts_with("import")) {
            return Some(module);
        }
    }
    s.strip_prefix("import")
        .and_then(leading_module)
        .map(|(module, _)| module)
}

/// The reference's `^(class|def|async\s+def|function|export\s+function|pub\s+fn|fn)\s+([A-Za-z_]\w*)`
/// on a stripped line, as (keyword as written, name): the first alternative that matches wins.
fn symbol_at_start(line: &str) -> Option<(&str, &str)> {
    // Most lines fail at their first byte, before seven comparisons.
    if !line
        .as_bytes()
        .first()
        .is_some_and(|&b| SYMBOL_FIRST_BYTES[usize::from(b)])
    {
        return None;
    }
    SYMBOL_KEYWORDS.iter().find_map(|words| {
        let after = after_keyword(line, words)?;
        let keyword = line.get(..line.len() - after.len())?;
        let name = spaces(after)?;
        if !name.starts_with(|c: char| c == '_' || c.is_ascii_alphabetic()) {
            return None;
        }
        let end = name.find(|c: char| !is_py_word(c)).unwrap_or(name.len());
        Some((keyword, name.get(..end)?))
    })
}

pub fn synopsis(output: &str) -> Synopsis {
    let mut imports = Vec::new();
    let mut symbols = Vec::new();
    let mut lines = 0;
    for line in py_splitlines(output) {
        lines += 1;
        let line = py_strip(line);
        if let Some(module) = imported_module(line) {
            imports.push(one_line(module, MAX_IMPORT_CHARS));
            continue;
        }
        if symbols.len() < MAX_SYMBOLS {
            if let Some((keyword, name)) = symbol_at_start(line) {
                symbols.push(one_line(&format!("{keyword} {name}"), MAX_SYMBOL_CHARS));
            }
        }
    }
    let mut synopsis = Synopsis::new("code", "Code output");
    synopsis
        .summary
        .push(format!("Code-like output with {lines} lines."));
    synopsis.structure.push(format!("line_count: {lines}"));
    if !imports.is_empty() {
        imports.truncate(MAX_IMPORTS);
        synopsis
            .structure
            .push(format!("imports: {}", imports.join(", ")));
    }
    synopsis.notable_items = symbols;
    synopsis
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::python::PY_SPACE_CLASS;
    use crate::test_support::joined_pieces;

    #[test]
    fn detection_uses_python_whitespace_and_crosses_lines() {
        assert!(looks_like_code("text\n  import os"));
        assert!(looks_like_code("\n\n\u{1c}def f():"));
        assert!(!looks_like_code("we import things"));
        // `\s*` may run over blank lines before the keyword.
        assert!(looks_like_code("x\n\n\n   fn main"));
        // A carriage return alone does not start a line for `^`.
        assert!(!looks_like_code("x\rdef f"));
        assert!(
            looks_like_code("from  a.b \u{3000}import c")
                && !looks_like_code("from a.b  importer"[..9].as_ref())
        );
        assert!(
            looks_like_code("x\n pub \t fn é") && !looks_like_code("pubfn x\nconstant y\nfn -")
        );
        assert!(looks_like_code("export function\n\u{661}") && !looks_like_code("import"));
    }

    #[test]
    fn imports_and_symbols() {
        let s =
            synopsis("from a.b import c\nimport os\n  async  def go(x):\nclass Foo:\nfn 1bad\n");
        assert_eq!(s.structure, ["line_count: 5", "imports: a.b, os"]);
        assert_eq!(s.notable_items, ["async def go", "class Foo"]);
    }

    const PIECES: &[&str] = &[
        "class", "def", "async", "function", "export", "pub", "fn", "fnord", "from", "import", " ",
        "\t", "\u{3000}", "\u{85}", "_x", "é", "1", "٣x", "\u{301}", "-", "(", "a.b", "",
    ];

    #[test]
    fn symbol_matcher_agrees_with_the_reference_pattern() {
        let space = format!("[{PY_SPACE_CLASS}]");
        let reference = regex::Regex::new(&format!(
            r"^(class|def|async{space}+def|function|export{space}+function|pub{space}+fn|fn){space}+([A-Za-z_][\p{{L}}\p{{N}}_]*)"
        ))
        .unwrap();
        for line in joined_pieces(PIECES) {
            let expected = reference
                .captures(&line)
                .map(|found| (found[1].to_string(), found[2].to_string()));
            let actual = symbol_at_start(&line).map(|(k, n)| (k.to_string(), n.to_string()));
            assert_eq!(actual, expected, "line {line:?}");
        }
    }

    #[test]
    fn import_matcher_agrees_with_the_reference_pattern() {
        let reference = regex::Regex::new(&format!(
            r"^(?:from[{PY_SPACE_CLASS}]+([^{PY_SPACE_CLASS}]+)[{PY_SPACE_CLASS}]+import|import[{PY_SPACE_CLASS}]+([^{PY_SPACE_CLASS}]+))"
        ))
        .unwrap();
        for line in joined_pieces(PIECES) {
            let expected = reference
                .captures(&line)
                .and_then(|found| found.get(1).or_else(|| found.get(2)));
            assert_eq!(
                imported_module(&line),
                expected.map(|m| m.as_str()),
                "line {line:?}"
            );
        }
    }

    #[test]
    fn modules_and_symbol_names() {
        assert_eq!(imported_module("from a.b\u{3000}import c"), Some("a.b"));
        assert_eq!(imported_module("from a.b importer"), Some("a.b"));
        assert_eq!(imported_module("from a.b  x import c"), None);
        assert_eq!(imported_module("import\tos, sys"), Some("os,"));
        assert_eq!(imported_module("importos"), None);
    }

    #[test]
    fn symbol_names_take_unicode_word_chars_but_not_marks() {
        assert_eq!(symbol_at_start("def _é٣x\u{301}y"), Some(("def", "_é٣x")));
        assert_eq!(
            symbol_at_start("pub\u{3000}fn\tmain()"),
            Some(("pub\u{3000}fn", "main"))
        );
        assert_eq!(symbol_at_start("fn é"), None);
        assert_eq!(symbol_at_start("function"), None);
    }
}
