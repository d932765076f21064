//! Markdown: the reference's text synopsis with its header line replaced by the heading outline
//! (every `#` and `##` heading, in order), which the reference cuts at 18 headers of any kind.

use super::document::joined_within;
use super::Input;
use crate::kinds::Synopsis;
use crate::python::{one_line, py_splitlines, py_strip};

/// Fewer `#`/`##` headings than this is not a document worth an outline.
const MIN_HEADINGS: usize = 3;
/// Chars of the outline line.
const OUTLINE_WIDTH: usize = 900;

/// The text of a level 1 or 2 ATX heading, outside fenced code blocks.
fn heading(line: &str) -> Option<(usize, &str)> {
    let level = line.bytes().take_while(|&b| b == b'#').count();
    let rest = line.get(level..)?;
    ((1..=2).contains(&level) && rest.starts_with([' ', '\t'])).then(|| (level, py_strip(rest)))
}

pub fn synopsis(input: &Input<'_>) -> Option<Synopsis> {
    if input.reference_kind != "text" {
        return None;
    }
    let mut outline: Vec<String> = Vec::new();
    let mut fenced = false;
    for line in py_splitlines(input.output) {
        if line.starts_with("```") || line.starts_with("~~~") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        if let Some((level, text)) = heading(line) {
            let text = one_line(text, 80);
            outline.push(if level == 1 {
                format!("# {text}")
            } else {
                text
            });
        }
    }
    if outline.len() < MIN_HEADINGS {
        return None;
    }
    // The reference's text synopsis, computed already.
    let mut synopsis = input.reference.clone();
    synopsis.kind = "markdown".to_string();
    synopsis.title = "Markdown output".to_string();
    let line = format!(
        "Outline ({} headings): {}.",
        outline.len(),
        joined_within(&outline, OUTLINE_WIDTH)
    );
    match synopsis
        .summary
        .iter_mut()
        .find(|item| item.starts_with("Detected section headers:"))
    {
        Some(headers) => *headers = line,
        None => synopsis.summary.push(line),
    }
    Some(synopsis)
}
