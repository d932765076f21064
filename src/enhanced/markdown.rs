//! Markdown (and MDX): the reference's text synopsis with its header line replaced by the heading
//! outline (ATX headings outside fenced code blocks, which the reference cuts at 18 headers of any
//! kind), the title (front matter's `title:` or the first `#` heading), the fenced code blocks by
//! language and the number of links. Claimed on a `text/markdown` MIME type, or on headings
//! outside fenced blocks (a `## ` heading among them, so `#` comments of a script are not one).

use super::analyzer::{Analyzer, Claim, Confidence, Family};
use super::document::joined_within;
use super::Input;
use crate::kinds::Synopsis;
use crate::python::{one_line, py_splitlines, py_strip};

/// Fewer headings than this is not a document worth an outline, unless declared Markdown.
const MIN_HEADINGS: usize = 3;
/// Chars of the outline line.
const OUTLINE_WIDTH: usize = 900;
/// Languages of code blocks listed.
const SHOWN_LANGUAGES: usize = 8;
/// Headings kept with their text, of levels 1-2 and of deeper levels each: more never fit the
/// outline line.
const KEPT_HEADINGS: usize = 400;

/// The level and text of an ATX heading (`#` to `######`).
fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    let rest = line.get(level..)?;
    ((1..=6).contains(&level) && rest.starts_with([' ', '\t'])).then(|| (level, py_strip(rest)))
}

/// A fence line (up to 3 spaces, then 3 or more backticks or tildes): its char and info string.
fn fence(line: &str) -> Option<(u8, usize, &str)> {
    let trimmed = line.trim_start_matches(' ');
    if line.len() - trimmed.len() > 3 {
        return None;
    }
    let mark = *trimmed.as_bytes().first()?;
    if mark != b'`' && mark != b'~' {
        return None;
    }
    let run = trimmed.bytes().take_while(|&b| b == mark).count();
    (run >= 3).then(|| (mark, run, trimmed[run..].trim()))
}

/// What one pass over a Markdown document finds.
#[derive(Default)]
struct Survey {
    /// Headings outside fenced blocks: level and text (the first `KEPT_HEADINGS` of levels
    /// 1-2 and of deeper levels; the rest only counted).
    headings: Vec<(usize, String)>,
    shallow_count: usize,
    deep_count: usize,
    /// Byte ranges of the fenced blocks' contents (between their fence lines).
    fenced_spans: Vec<(usize, usize)>,
    /// Fenced blocks per language (`""`: none named), in first-seen order.
    blocks: Vec<(String, usize)>,
    fenced_blocks: usize,
    links: usize,
    front_title: Option<String>,
}

fn survey(output: &str) -> Survey {
    let mut found = Survey::default();
    let mut lines = py_splitlines(output).peekable();
    // YAML front matter: `---` first, closed by `---` or `...`.
    if lines.peek().is_some_and(|line| line.trim_end() == "---") {
        lines.next();
        for line in lines.by_ref() {
            let line = line.trim_end();
            if line == "---" || line == "..." {
                break;
            }
            if let Some(title) = line.strip_prefix("title:") {
                let title = py_strip(title).trim_matches(['"', '\'']);
                if !title.is_empty() {
                    found.front_title = Some(one_line(title, 120));
                }
            }
        }
    }
    let mut open: Option<(u8, usize)> = None;
    let mut span_start = 0;
    let offset = |line: &str| line.as_ptr() as usize - output.as_ptr() as usize;
    for line in lines {
        if let Some((mark, run, info)) = fence(line) {
            match open {
                Some((open_mark, open_run))
                    if mark == open_mark && run >= open_run && info.is_empty() =>
                {
                    open = None;
                    found.fenced_spans.push((span_start, offset(line)));
                }
                Some(_) => {}
                None => {
                    open = Some((mark, run));
                    span_start = offset(line) + line.len();
                    found.fenced_blocks += 1;
                    let language = info
                        .split(|c: char| c.is_whitespace() || c == '{' || c == ',')
                        .next()
                        .unwrap_or("")
                        .to_ascii_lowercase();
                    match found.blocks.iter_mut().find(|(name, _)| *name == language) {
                        Some((_, count)) => *count += 1,
                        None => found.blocks.push((language, 1)),
                    }
                }
            }
            continue;
        }
        if open.is_some() {
            continue;
        }
        if let Some((level, text)) = heading(line) {
            let count = if level <= 2 {
                &mut found.shallow_count
            } else {
                &mut found.deep_count
            };
            *count += 1;
            if *count <= KEPT_HEADINGS {
                found.headings.push((level, one_line(text, 80)));
            }
        }
        if line.contains("](") {
            found.links += line.matches("](").count();
        }
    }
    if open.is_some() {
        found.fenced_spans.push((span_start, output.len()));
    }
    found
}

/// The reference's opening and closing excerpts of the text outside fenced blocks' contents:
/// quoted compiler output or test results in a sample would read as the document's own.
fn prose_excerpts(output: &str, spans: &[(usize, usize)]) -> (String, String) {
    let wanted = crate::kinds::text::EXCERPT_CHARS;
    let mut pieces = Vec::with_capacity(spans.len() + 1);
    let mut at = 0;
    for &(start, end) in spans {
        pieces.push(&output[at..start.max(at)]);
        at = end.max(at);
    }
    pieces.push(&output[at..]);
    // Enough pieces from each end to hold the excerpt's chars (a char is at most 4 bytes, at
    // least 1: `wanted` bytes at least, `4 * wanted` at most are read).
    let mut head = String::new();
    for piece in &pieces {
        head.push_str(piece);
        if head.len() >= 4 * wanted {
            break;
        }
    }
    let mut tail_pieces = Vec::new();
    let mut tail_len = 0;
    for piece in pieces.iter().rev() {
        tail_pieces.push(*piece);
        tail_len += piece.len();
        if tail_len >= 4 * wanted {
            break;
        }
    }
    let tail: String = tail_pieces.into_iter().rev().collect();
    (
        crate::kinds::text::excerpt(crate::python::take_chars(&head, wanted)),
        crate::kinds::text::excerpt(crate::python::last_chars(&tail, wanted)),
    )
}

pub struct Markdown;

impl Analyzer for Markdown {
    fn name(&self) -> &'static str {
        "markdown"
    }
    fn family(&self) -> Family {
        Family::Markdown
    }
    fn claim(&self, input: &Input<'_>) -> Option<Claim> {
        if super::analyzer::declared_family(input.mime) == Some(Family::Markdown) {
            return Some(Claim {
                confidence: Confidence::Declared,
                evidence: "MIME type",
            });
        }
        match input.reference_kind {
            "text" => {}
            // Code is Markdown only with fenced blocks (a script's `#` comments are no headings):
            // one look for a fence at a line start in the head, before any line is read.
            "code" => {
                let head = &input.output[..super::text_helpers::floor_char_boundary(
                    input.output,
                    super::text_helpers::PROBE_BYTES,
                )];
                super::text_helpers::find_str(head, "\n```")?;
            }
            _ => return None,
        }
        Claim::evidence("headings outside fenced blocks")
    }
    fn synopsis(&self, input: &Input<'_>, claim: &Claim) -> Option<Synopsis> {
        let found = survey(input.output);
        if claim.confidence == Confidence::Evidence {
            let second_level = found.headings.iter().any(|(level, _)| *level == 2);
            if found.shallow_count < MIN_HEADINGS || !second_level {
                return None;
            }
            if input.reference_kind == "code" && found.fenced_blocks < 2 {
                return None;
            }
        }
        Some(describe(input, &found))
    }
}

fn describe(input: &Input<'_>, found: &Survey) -> Synopsis {
    if input.reference_kind != "text" {
        return compact(input, found);
    }
    // The reference's text synopsis, computed already when the reference saw text.
    let mut synopsis = if input.reference_kind == "text" {
        input.reference.clone()
    } else {
        crate::kinds::text::synopsis(input.output)
    };
    synopsis.kind = "markdown".to_string();
    synopsis.title = "Markdown output".to_string();
    // Levels 1 and 2 when there are enough of them, else every level.
    let deepest = if found.shallow_count >= MIN_HEADINGS {
        2
    } else {
        6
    };
    let total = found.shallow_count + if deepest == 2 { 0 } else { found.deep_count };
    let outline: Vec<String> = found
        .headings
        .iter()
        .filter(|(level, _)| *level <= deepest)
        .map(|(level, text)| {
            if *level == 1 {
                format!("# {text}")
            } else {
                text.clone()
            }
        })
        .collect();
    let mut lines = Vec::new();
    let title = found.front_title.clone().or_else(|| {
        found
            .headings
            .iter()
            .find(|(level, _)| *level == 1)
            .map(|(_, text)| text.clone())
    });
    if let Some(title) = title {
        lines.push(format!("Title: {title}."));
    }
    if !outline.is_empty() {
        lines.push(format!(
            "Outline ({total} headings): {}.",
            joined_within(&outline, OUTLINE_WIDTH)
        ));
    }
    lines.extend(super::markup::code_blocks_and_links(
        &found.blocks,
        found.fenced_blocks,
        found.links,
        SHOWN_LANGUAGES,
    ));
    let at = synopsis
        .summary
        .iter()
        .position(|item| item.starts_with("Detected section headers:"));
    match at {
        Some(at) => {
            synopsis.summary.splice(at..=at, lines);
        }
        None => synopsis.summary.extend(lines),
    }
    if !found.fenced_spans.is_empty() {
        let (opening, closing) = prose_excerpts(input.output, &found.fenced_spans);
        for item in &mut synopsis.summary {
            if item.starts_with("Opening excerpt:") {
                *item = format!("Opening excerpt: {opening}.");
            } else if item.starts_with("Closing excerpt:") {
                *item = format!("Closing excerpt: {closing}.");
            }
        }
    }
    synopsis
}

/// The synopsis of a document the reference read as code: its stub, and so the enhanced one's
/// bound, is a few lines, so each line says the most it can (what a model picks sections by).
fn compact(input: &Input<'_>, found: &Survey) -> Synopsis {
    let mut synopsis = Synopsis::new("markdown", "Markdown output");
    let title = found
        .front_title
        .clone()
        .or_else(|| {
            found
                .headings
                .iter()
                .find(|(level, _)| *level == 1)
                .map(|(_, text)| text.clone())
        })
        .map_or(String::new(), |title| format!(": {title};"));
    let lines = py_splitlines(input.output).count();
    synopsis
        .summary
        .push(format!("Markdown document{title} {lines} lines."));
    let sections: Vec<&String> = found
        .headings
        .iter()
        .filter(|(level, _)| *level == 2)
        .map(|(_, text)| text)
        .collect();
    let shown: Vec<&String> = if sections.len() >= MIN_HEADINGS {
        sections
    } else {
        found.headings.iter().map(|(_, text)| text).collect()
    };
    let counted = if shown.len() == found.headings.len() {
        "headings"
    } else {
        "sections"
    };
    if !shown.is_empty() {
        synopsis.summary.push(format!(
            "{} {counted}: {}.",
            shown.len(),
            super::markup::first_and_last(&shown, COMPACT_OUTLINE_WIDTH)
        ));
    }
    synopsis
        .summary
        .extend(super::markup::code_blocks_and_links(
            &found.blocks,
            found.fenced_blocks,
            found.links,
            SHOWN_LANGUAGES,
        ));
    synopsis
}

/// Chars of the compact outline's names.
const COMPACT_OUTLINE_WIDTH: usize = 72;
