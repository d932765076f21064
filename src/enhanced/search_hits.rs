//! `search_hits` kind: the output of `grep -n` / `grep -rn`, `rg -n --no-heading` and
//! `rg --vimgrep`: one hit a line, `path:line:text` or `path:line:column:text` (`--` between
//! context groups, `path-line-text` for context lines). Claimed when nearly all of the first lines
//! are hits and none is a compiler's `error:`/`warning:` diagnostic (those are build output). The
//! synopsis counts the hits exactly and names the files with the most.

use std::collections::HashMap;

use super::analyzer::{Analyzer, Claim, Family};
use super::document::joined_within;
use super::text_helpers::lines;
use super::Input;
use crate::kinds::Synopsis;
use crate::python::one_line;

/// Non-blank lines read to claim an output, and the least hits among them.
const CLAIM_LINES: usize = 64;
const MIN_HITS: usize = 3;
/// Files listed, their line's width, hits quoted.
const SHOWN_FILES: usize = 12;
const FILES_WIDTH: usize = 600;
const QUOTED_HITS: usize = 3;
const HIT_CHARS: i64 = 140;

/// A hit's path, line number and text (`None`: not a hit line).
fn hit(line: &str) -> Option<(&str, &str, &str)> {
    let colon = line.find(':')?;
    let path = &line[..colon];
    if path.is_empty() || path.contains([' ', '\t', '"', '\'', '(', '=']) {
        return None;
    }
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    if !(name.contains('.') || path.contains('/')) || path.starts_with("http") {
        return None;
    }
    let rest = &line[colon + 1..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || rest.as_bytes().get(digits) != Some(&b':') {
        return None;
    }
    let number = &rest[..digits];
    let mut text = &rest[digits + 1..];
    // `rg --vimgrep`'s column.
    let column = text.bytes().take_while(u8::is_ascii_digit).count();
    if column > 0 && text.as_bytes().get(column) == Some(&b':') {
        text = &text[column + 1..];
    }
    Some((path, number, text))
}

/// Whether a hit's text is a compiler's severity (`a.c:3:5: error: x`): build output, not hits.
fn is_diagnostic(text: &str) -> bool {
    let text = text.trim_start();
    ["error", "warning", "note:", "fatal error"]
        .iter()
        .any(|word| text.starts_with(word))
}

/// A context line of `grep -C` (`path-12-text`) or a group separator.
fn is_context(line: &str) -> bool {
    line == "--"
        || line.split_once('-').is_some_and(|(path, rest)| {
            !path.contains(' ')
                && path.contains('.')
                && rest.bytes().take_while(u8::is_ascii_digit).count() > 0
        })
}

pub struct SearchHits;

impl Analyzer for SearchHits {
    fn name(&self) -> &'static str {
        "search_hits"
    }
    fn family(&self) -> Family {
        Family::Text
    }
    fn claim(&self, input: &Input<'_>) -> Option<Claim> {
        if matches!(input.reference_kind, "json" | "xml") {
            return None;
        }
        let (mut seen, mut hits, mut stray) = (0usize, 0usize, 0usize);
        for line in lines(input.output)
            .map(|line| line.trim_end_matches('\r'))
            .filter(|line| !line.trim().is_empty())
            .take(CLAIM_LINES)
        {
            seen += 1;
            // go vet / go build print `# package` above their diagnostics: build output.
            if line.starts_with("# ") {
                return None;
            }
            match hit(line) {
                Some((_, _, text)) if is_diagnostic(text) => return None,
                Some(_) => hits += 1,
                None if is_context(line) => {}
                None => stray += 1,
            }
        }
        // Nearly every line: one stray line in ten at most.
        (hits >= MIN_HITS && stray * 10 <= seen).then_some(())?;
        Claim::evidence("path:line: hits on nearly every line")
    }
    fn synopsis(&self, input: &Input<'_>, _: &Claim) -> Option<Synopsis> {
        describe(input.output)
    }
}

fn describe(output: &str) -> Option<Synopsis> {
    let mut per_file: Vec<(&str, usize)> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut hits = 0usize;
    let mut other = 0usize;
    let mut quoted: Vec<String> = Vec::new();
    for line in lines(output).map(|line| line.trim_end_matches('\r')) {
        if line.trim().is_empty() || is_context(line) {
            continue;
        }
        let Some((path, number, text)) = hit(line) else {
            other += 1;
            continue;
        };
        hits += 1;
        let slot = *index.entry(path).or_insert_with(|| {
            per_file.push((path, 0));
            per_file.len() - 1
        });
        per_file[slot].1 += 1;
        if quoted.len() < QUOTED_HITS {
            quoted.push(format!(
                "{path}:{number}: {}",
                one_line(text.trim(), HIT_CHARS)
            ));
        }
    }
    if hits == 0 {
        return None;
    }
    let mut synopsis = Synopsis::new("search_hits", "Search hits");
    synopsis.summary.push(format!(
        "Search hits (grep/rg): {hits} hits in {} files.",
        per_file.len()
    ));
    let mut ranked: Vec<&(&str, usize)> = per_file.iter().collect();
    ranked.sort_by_key(|file| std::cmp::Reverse(file.1));
    let listed: Vec<String> = ranked
        .iter()
        .take(SHOWN_FILES)
        .map(|(path, count)| format!("{path} {count}"))
        .collect();
    synopsis.summary.push(format!(
        "Files by hits: {}.",
        joined_within(&listed, FILES_WIDTH)
    ));
    synopsis.structure.push("First hits:".to_string());
    synopsis.structure.extend(quoted);
    if other > 0 {
        synopsis
            .notable_items
            .push(format!("Lines that are not hits: {other}."));
    }
    Some(synopsis)
}
