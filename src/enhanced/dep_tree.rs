//! `tree` kind (enhanced mode): tree-shaped listings drawn with `├──`, `└─┬`, `│` (or npm's ASCII
//! `+--`, `` `-- ``, `|`): `npm ls`, `pipdeptree`, `cargo tree`, `tree`. The synopsis: the root(s),
//! how many entries hang directly under the root (depth 1) and in all, the deepest level, the
//! first direct entries, and flagged entries (`UNMET DEPENDENCY`, `invalid`, `extraneous`,
//! `missing`) with the count of `deduped` / `(*)` repeats; lines outside the tree (an error
//! footer, `tree`'s `3 directories, 9 files`) are quoted briefly.
//!
//! One pass; each line's prefix is read char by char up to its entry.

use crate::kinds::Synopsis;

use super::text_helpers::bounded_one_line;

/// Of the first non-blank lines, how many are looked at to reject a non-tree quickly.
const PROBE_LINES: usize = 20;
const MIN_PROBE_ENTRIES: usize = 3;
const MIN_ENTRIES: usize = 5;
/// Share (percent) of the non-blank lines that must be tree lines.
const TREE_PERCENT: usize = 60;
const SHOWN_DIRECT: usize = 8;
const SHOWN_FLAGGED: usize = 4;
const SHOWN_OTHER_LINES: usize = 2;
const ENTRY_CHARS: i64 = 60;
const LINE_CHARS: i64 = 100;
/// Prefix chars read before giving up on a line as a tree line (bounded nesting).
const MAX_PREFIX_CHARS: usize = 400;

/// A line of the listing.
enum Line<'a> {
    /// An entry drawn with a connector at char column `column`.
    Entry {
        column: usize,
        text: &'a str,
    },
    /// A line with no tree prefix at column 0 (a root, or text outside the tree).
    Plain(&'a str),
    Blank,
}

fn classify(line: &str) -> Line<'_> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    if line.trim().is_empty() {
        return Line::Blank;
    }
    let mut chars = line.char_indices().peekable();
    let mut column = 0;
    while let Some((at, c)) = chars.next() {
        if column > MAX_PREFIX_CHARS {
            break;
        }
        match c {
            ' ' | '│' | '|' => column += 1,
            '├' | '└' | '+' | '`' => {
                // A connector is followed by a horizontal line: `├──`, `└─┬`, `+--`, `` `-- ``.
                if !matches!(chars.peek(), Some((_, '─' | '-'))) {
                    break;
                }
                let mut text_at = line.len();
                for (next_at, next) in chars.by_ref() {
                    if !matches!(next, '─' | '-' | '┬' | '┼' | ' ') {
                        text_at = next_at;
                        break;
                    }
                }
                return Line::Entry {
                    column,
                    text: &line[text_at..],
                };
            }
            _ => {
                return if column == 0 {
                    Line::Plain(line)
                } else {
                    // Indented text without a connector: not a tree line.
                    Line::Plain(&line[at..])
                };
            }
        }
    }
    Line::Plain(line.trim())
}

/// The problem an entry is flagged with, and its name.
fn flag(text: &str) -> Option<(&'static str, &str)> {
    for (prefix, label) in [
        ("UNMET OPTIONAL DEPENDENCY ", "unmet optional"),
        ("UNMET DEPENDENCY ", "unmet"),
        ("UNMET PEER DEPENDENCY ", "unmet peer"),
    ] {
        if let Some(name) = text.strip_prefix(prefix) {
            return Some((label, first_word(name)));
        }
    }
    let name = first_word(text);
    let rest = &text[name.len()..];
    for word in ["invalid", "extraneous", "missing"] {
        if rest.split([' ', ':']).any(|token| token == word) {
            return Some((word, name));
        }
    }
    None
}

/// An entry's name: its first word, past an `UNMET ... DEPENDENCY` prefix.
fn entry_name(text: &str) -> &str {
    flag(text).map_or_else(|| first_word(text), |(_, name)| name)
}

fn first_word(text: &str) -> &str {
    text.split(' ').next().unwrap_or(text)
}

fn repeated(text: &str) -> bool {
    text.ends_with(" deduped") || text.ends_with(" (*)")
}

/// The synopsis of a tree listing, or `None` when `output` is not one.
pub fn synopsis(output: &str) -> Option<Synopsis> {
    let probe_entries = output
        .split('\n')
        .filter(|line| !line.trim().is_empty())
        .take(PROBE_LINES)
        .filter(|line| matches!(classify(line), Line::Entry { .. }))
        .count();
    if probe_entries < MIN_PROBE_ENTRIES {
        return None;
    }
    let mut entries = 0;
    let mut plain = 0;
    let mut min_column = usize::MAX;
    let mut unit = usize::MAX;
    let mut max_column = 0;
    let mut roots: Vec<String> = Vec::new();
    let mut root_count = 0;
    let mut other_lines: Vec<String> = Vec::new();
    let mut deduped = 0;
    let mut flagged: Vec<(&'static str, usize, Vec<String>)> = Vec::new();
    // Direct entries are those at the smallest connector column: counted once that is known.
    let mut columns: Vec<(usize, usize)> = Vec::new(); // (column, count) for the few smallest
    let mut direct_names: Vec<(usize, String)> = Vec::new();
    let mut pending_plain: Option<&str> = None;
    for line in output.split('\n') {
        match classify(line) {
            Line::Blank => {}
            Line::Plain(text) => {
                plain += 1;
                if let Some(previous) = pending_plain.take() {
                    if other_lines.len() < SHOWN_OTHER_LINES {
                        other_lines.push(bounded_one_line(previous, LINE_CHARS));
                    }
                }
                pending_plain = Some(text);
            }
            Line::Entry { column, text } => {
                // A plain line right before an entry is the root of what follows.
                if let Some(root) = pending_plain.take() {
                    root_count += 1;
                    plain -= 1;
                    if roots.len() < SHOWN_DIRECT {
                        roots.push(bounded_one_line(root.trim(), ENTRY_CHARS));
                    }
                }
                entries += 1;
                max_column = max_column.max(column);
                if column > 0 {
                    unit = unit.min(column);
                }
                if column < min_column {
                    min_column = column;
                    direct_names.clear();
                }
                if column == min_column && direct_names.len() < SHOWN_DIRECT {
                    direct_names.push((column, bounded_one_line(entry_name(text), ENTRY_CHARS)));
                }
                if let Some(at) = columns.iter().position(|(c, _)| *c == column) {
                    columns[at].1 += 1;
                } else if columns.len() < 64 {
                    columns.push((column, 1));
                }
                if repeated(text) {
                    deduped += 1;
                }
                if let Some((label, name)) = flag(text) {
                    let at = match flagged.iter().position(|(l, _, _)| *l == label) {
                        Some(at) => at,
                        None => {
                            flagged.push((label, 0, Vec::new()));
                            flagged.len() - 1
                        }
                    };
                    flagged[at].1 += 1;
                    if flagged[at].2.len() < SHOWN_FLAGGED {
                        flagged[at].2.push(bounded_one_line(name, ENTRY_CHARS));
                    }
                }
            }
        }
    }
    if let Some(last) = pending_plain {
        if other_lines.len() < SHOWN_OTHER_LINES {
            other_lines.push(bounded_one_line(last, LINE_CHARS));
        }
    }
    if entries < MIN_ENTRIES || entries * 100 < (entries + plain) * TREE_PERCENT {
        return None;
    }
    let direct = columns
        .iter()
        .find(|(c, _)| *c == min_column)
        .map_or(0, |(_, n)| *n);
    let depth = if unit == usize::MAX {
        1
    } else {
        (max_column - min_column) / unit + 1
    };
    let mut synopsis = Synopsis::new("tree", "Tree listing");
    let root_text = match roots.as_slice() {
        [] => String::new(),
        [root] => format!("root {root}, "),
        _ => format!("{root_count} roots ({}), ", roots.join(", ")),
    };
    synopsis.summary.push(format!(
        "Tree: {root_text}{direct} direct entries (depth 1), {entries} entries in all, {depth} levels deep, {deduped} repeats (deduped)."
    ));
    for (label, count, names) in &flagged {
        synopsis
            .summary
            .push(format!("Flagged {label} {count}: {}", names.join(", ")));
    }
    let names: Vec<&str> = direct_names.iter().map(|(_, name)| name.as_str()).collect();
    synopsis.structure.push(format!(
        "Direct entries (first {}): {}",
        names.len(),
        names.join(", ")
    ));
    if !other_lines.is_empty() {
        synopsis
            .structure
            .push(format!("Other lines: {}", other_lines.join(" | ")));
    }
    Some(synopsis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::synopsis_text as text;

    #[test]
    fn npm_style_tree_counts_direct_entries_and_flags() {
        let output = "shop@1.0.0 /srv/shop\n├─┬ alpha@1.0.0\n│ ├── beta@2.0.0\n│ └─┬ gamma@3.0.0\n│   └── beta@2.0.0 deduped\n├── UNMET DEPENDENCY delta@^4.0.0\n├── eps@1.1.1 invalid: \"^2\" from the root project\n└── zeta@0.1.0 extraneous\n\nnpm error code ELSPROBLEMS\n";
        let s = synopsis(output).expect("a tree");
        let all = text(&s);
        assert_eq!(s.kind, "tree");
        assert!(all.contains("Tree: root shop@1.0.0 /srv/shop, 4 direct entries (depth 1), 7 entries in all, 3 levels deep, 1 repeats"), "{all}");
        assert!(all.contains("Flagged unmet 1: delta@^4.0.0"), "{all}");
        assert!(all.contains("Flagged invalid 1: eps@1.1.1"), "{all}");
        assert!(all.contains("Flagged extraneous 1: zeta@0.1.0"), "{all}");
        assert!(
            all.contains(
                "Direct entries (first 4): alpha@1.0.0, delta@^4.0.0, eps@1.1.1, zeta@0.1.0"
            ),
            "{all}"
        );
        assert!(
            all.contains("Other lines: npm error code ELSPROBLEMS"),
            "{all}"
        );
    }

    #[test]
    fn four_column_indents_and_ascii_connectors() {
        let cargo = "app v0.1.0 (/src/app)\n├── anyhow v1.0.0\n├── serde v1.0.0\n│   └── serde_derive v1.0.0\n│       └── syn v2.0.0\n└── tokio v1.0.0\n    └── serde v1.0.0 (*)\n";
        let all = text(&synopsis(cargo).expect("cargo tree"));
        assert!(all.contains("root app v0.1.0 (/src/app), 3 direct entries (depth 1), 6 entries in all, 3 levels deep, 1 repeats"), "{all}");
        let ascii =
            "root@1.0.0\n+-- a@1.0.0\n| `-- b@1.0.0\n+-- c@1.0.0\n`-- d@1.0.0\n  `-- e@1.0.0\n";
        let all = text(&synopsis(ascii).expect("ascii npm"));
        assert!(
            all.contains("3 direct entries (depth 1), 5 entries in all, 2 levels deep"),
            "{all}"
        );
    }

    #[test]
    fn several_roots_as_pipdeptree_prints() {
        let output = "flask==3.0.0\n├── click [required: >=8.1, installed: 8.1.7]\n└── jinja2 [required: >=3.1, installed: 3.1.3]\n    └── MarkupSafe [required: >=2.0, installed: 2.1.5]\nrequests==2.31.0\n├── idna [required: <4, installed: 3.6]\n└── urllib3 [required: <3, installed: 2.2.0]\n";
        let all = text(&synopsis(output).expect("pipdeptree"));
        assert!(
            all.contains("2 roots (flask==3.0.0, requests==2.31.0)"),
            "{all}"
        );
    }

    #[test]
    fn not_a_tree() {
        for output in [
            "plain text\nwith lines\n",
            "- a markdown list\n- item\n  - nested\n- item\n- item\n- item\n",
            "+ added line\n+ another\n- removed\n+ more\n+ more\n",
            "",
        ] {
            assert!(synopsis(output).is_none(), "{output:?}");
        }
    }
}
