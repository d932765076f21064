//! reStructuredText and AsciiDoc documents: the title, the outline of the top sections, the code
//! blocks by language and the number of links. Neither format has a kind of its own (the stub's
//! kind stays `text`, which is what they are, where the reference may call a document with
//! indented samples `code`); the synopsis names the format it proved.
//!
//! Proven from each format's own section grammar, never from a word:
//! - reStructuredText (docutils' "Sections"): a title is a line of text under (and optionally
//!   over) an adornment line of one repeated punctuation char at least as long as the text, the
//!   title after a blank line. Levels are the adornment styles in the order they first appear.
//!   Literal code is indented, so a line at column 0 that opens a declaration or an import (a
//!   module whose docstring has titles) disproves the document.
//! - AsciiDoc: `= Title` on the first line (after comment lines), sections `== Name` to
//!   `====== Name` at column 0 after a blank line, delimited blocks (`----`) with a
//!   `[source,lang]` attribute list; attribute entries `:name: value` at the header.

use super::analyzer::{Analyzer, Claim, Family};
use super::document::joined_within;
use super::text_helpers::{floor_char_boundary, PROBE_BYTES};
use super::Input;
use crate::kinds::Synopsis;
use crate::python::{one_line, py_splitlines, py_strip};

/// The fewest section titles that make a document (besides the document's title).
const MIN_SECTIONS: usize = 2;
/// Chars of the outline's names.
const OUTLINE_WIDTH: usize = 72;
/// Languages of code blocks named.
const SHOWN_LANGUAGES: usize = 6;

/// The punctuation docutils accepts as section adornment.
const ADORNMENT: &[u8] = b"!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/// Column-0 line starts that only source code writes (rST indents its literal blocks).
const CODE_STARTS: [&str; 14] = [
    "def ",
    "class ",
    "import ",
    "from ",
    "function ",
    "#include",
    "package ",
    "fn ",
    "pub ",
    "use ",
    "func ",
    "public ",
    "const ",
    "export ",
];

/// Which markup a document is written in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Markup {
    Rst,
    AsciiDoc,
}

impl Markup {
    fn name(self) -> &'static str {
        match self {
            Markup::Rst => "reStructuredText",
            Markup::AsciiDoc => "AsciiDoc",
        }
    }
}

/// What one read of a document finds.
struct Outline {
    markup: Markup,
    title: Option<String>,
    /// AsciiDoc's author line (the header's line after the title).
    author: Option<String>,
    /// Section titles with their level (1 for the top sections under the title).
    sections: Vec<(usize, String)>,
    /// Code blocks per language (`""`: none named), in first-seen order.
    blocks: Vec<(String, usize)>,
    code_blocks: usize,
    links: usize,
    lines: usize,
    words: usize,
}

impl Outline {
    fn new(markup: Markup) -> Outline {
        Outline {
            markup,
            title: None,
            author: None,
            sections: Vec::new(),
            blocks: Vec::new(),
            code_blocks: 0,
            links: 0,
            lines: 0,
            words: 0,
        }
    }

    fn add_block(&mut self, language: &str) {
        self.code_blocks += 1;
        let language = language.to_ascii_lowercase();
        match self.blocks.iter_mut().find(|(name, _)| *name == language) {
            Some((_, count)) => *count += 1,
            None => self.blocks.push((language, 1)),
        }
    }
}

/// An adornment line: one punctuation char repeated (3 at least), and nothing else but trailing
/// spaces.
fn adornment(line: &str) -> Option<u8> {
    let line = line.trim_end();
    let first = *line.as_bytes().first()?;
    (line.len() >= 3 && ADORNMENT.contains(&first) && line.bytes().all(|b| b == first))
        .then_some(first)
}

/// The reStructuredText reading of `output`, or `None` when its grammar does not hold.
fn rst(output: &str) -> Option<Outline> {
    let lines: Vec<&str> = py_splitlines(output).collect();
    let mut found = Outline::new(Markup::Rst);
    // Adornment styles (char, overlined) in the order they first appear: a title's level.
    let mut styles: Vec<(u8, bool)> = Vec::new();
    let mut titles: Vec<(usize, String)> = Vec::new();
    let mut directives = 0;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        found.words += line.split_whitespace().count();
        // Source code, or Markdown (whose setext headings share rST's underlines).
        if CODE_STARTS.iter().any(|start| line.starts_with(start))
            || line.starts_with("```")
            || line.starts_with("## ")
            || line.contains("](")
        {
            return None;
        }
        if let Some(rest) = line.strip_prefix(".. ") {
            if let Some((name, argument)) = rest.split_once("::") {
                directives += 1;
                if matches!(name.trim(), "code-block" | "code" | "sourcecode") {
                    found.add_block(py_strip(argument));
                }
            }
        }
        found.links += line.matches(">`_").count() + line.matches(":ref:`").count();
        // A title: text under an adornment at least as long, after a blank line (or an
        // overline of the same char).
        let text = line.trim_end();
        let starts_section = i == 0 || lines[i - 1].trim().is_empty();
        let overline = i > 0 && adornment(lines[i - 1]).is_some();
        if !text.is_empty()
            && !line.starts_with([' ', '\t'])
            && adornment(text).is_none()
            && (starts_section || overline)
        {
            if let Some(under) = lines.get(i + 1).and_then(|next| adornment(next)) {
                let under_len = lines[i + 1].trim_end().chars().count();
                let over = overline.then(|| adornment(lines[i - 1])).flatten();
                if under_len >= text.chars().count() && over.is_none_or(|c| c == under) {
                    let style = (under, over.is_some());
                    let level = match styles.iter().position(|s| *s == style) {
                        Some(level) => level,
                        None => {
                            styles.push(style);
                            styles.len() - 1
                        }
                    };
                    titles.push((level, one_line(text, 80)));
                    i += 2;
                    continue;
                }
            }
        }
        i += 1;
    }
    found.lines = lines.len();
    // The first style is the document's title when it is used once (docutils promotes a lone
    // top-level title).
    let lone_top = titles.iter().filter(|(level, _)| *level == 0).count() == 1;
    if lone_top && titles.first().is_some_and(|(level, _)| *level == 0) {
        // The other styles keep their levels: 1 for the top sections under the title.
        found.title = Some(titles.remove(0).1);
    } else {
        for (level, _) in &mut titles {
            *level += 1;
        }
    }
    found.sections = titles;
    let sections = found.sections.len();
    (sections >= MIN_SECTIONS && (found.title.is_some() || directives > 0 || sections >= 3))
        .then_some(found)
}

/// The AsciiDoc reading of `output`, or `None` when its grammar does not hold.
fn asciidoc(output: &str) -> Option<Outline> {
    let mut found = Outline::new(Markup::AsciiDoc);
    let mut header = true;
    let mut attributes = 0;
    let mut previous_blank = true;
    let mut pending_source: Option<String> = None;
    let mut in_block = false;
    for line in py_splitlines(output) {
        found.lines += 1;
        found.words += line.split_whitespace().count();
        let text = line.trim_end();
        if in_block {
            if text == "----" {
                in_block = false;
            }
            previous_blank = false;
            continue;
        }
        if text.starts_with("//") {
            continue;
        }
        if header && found.title.is_none() {
            match text.strip_prefix("= ") {
                Some(title) if !title.trim().is_empty() => {
                    found.title = Some(one_line(title, 120));
                    previous_blank = false;
                    continue;
                }
                _ if text.is_empty() => continue,
                _ => header = false,
            }
        }
        if header {
            if text.is_empty() {
                header = false;
            } else if text.starts_with(':') && (text[1..].contains(": ") || text.ends_with(':')) {
                attributes += 1;
            } else if found.author.is_none() && attributes == 0 {
                found.author = Some(one_line(text, 120));
            }
            previous_blank = text.is_empty();
            continue;
        }
        if let Some(list) = text.strip_prefix("[source") {
            let language = list
                .trim_start_matches(',')
                .split([',', ']'])
                .next()
                .unwrap_or("");
            pending_source = Some(language.trim().to_string());
        } else if text == "----" {
            in_block = true;
            if let Some(language) = pending_source.take() {
                found.add_block(&language);
            }
        } else if previous_blank {
            let level = text.bytes().take_while(|&b| b == b'=').count();
            let name = &text[level..];
            if (2..=6).contains(&level) && name.starts_with(' ') && !name.trim().is_empty() {
                found.sections.push((level - 1, one_line(name, 80)));
            }
        }
        found.links += text.matches("link:").count() + text.matches("<<").count();
        previous_blank = text.is_empty();
    }
    (found.sections.len() >= MIN_SECTIONS && (found.title.is_some() || attributes > 0))
        .then_some(found)
}

fn describe(found: &Outline) -> Synopsis {
    let mut synopsis = Synopsis::new("text", &format!("{} document", found.markup.name()));
    // Short lines: a document's stub is bounded by the reference's, often a few lines of code.
    let title = found
        .title
        .as_ref()
        .map_or(String::new(), |title| format!(": {title};"));
    synopsis.summary.push(format!(
        "{} document{title} {} lines.",
        found.markup.name(),
        found.lines
    ));
    if let Some(author) = &found.author {
        synopsis.summary.push(format!("Author: {author}."));
    }
    // The top sections when there are enough of them, else every level.
    let top = found
        .sections
        .iter()
        .filter(|(level, _)| *level == 1)
        .count();
    let deepest = if top >= 3 { 1 } else { usize::MAX };
    let shown: Vec<&String> = found
        .sections
        .iter()
        .filter(|(level, _)| *level <= deepest)
        .map(|(_, name)| name)
        .collect();
    synopsis.summary.push(format!(
        "{} sections: {}.",
        shown.len(),
        first_and_last(&shown, OUTLINE_WIDTH)
    ));
    synopsis.summary.extend(code_blocks_and_links(
        &found.blocks,
        found.code_blocks,
        found.links,
        SHOWN_LANGUAGES,
    ));
    synopsis
}

/// A document's code blocks by language (the most used first, `shown` of them) and its link
/// count, or the links alone when it has no code blocks: what a model picks examples by.
pub(crate) fn code_blocks_and_links(
    blocks: &[(String, usize)],
    code_blocks: usize,
    links: usize,
    shown: usize,
) -> Option<String> {
    if code_blocks == 0 {
        return (links > 0).then(|| format!("Links: {links}."));
    }
    let mut by_use: Vec<&(String, usize)> = blocks.iter().collect();
    by_use.sort_by_key(|block| std::cmp::Reverse(block.1));
    let named: Vec<String> = by_use
        .iter()
        .take(shown)
        .map(|(language, count)| {
            let language = if language.is_empty() {
                "plain"
            } else {
                language
            };
            format!("{language} {count}")
        })
        .collect();
    Some(format!(
        "Code blocks: {code_blocks} ({}); links: {links}.",
        named.join(", ")
    ))
}

/// The names within `width` chars, the last one kept when the list is cut: an outline's end
/// says where the document goes.
pub(crate) fn first_and_last<S: AsRef<str>>(items: &[S], width: usize) -> String {
    first_and_last_of(items, items.len(), width)
}

/// `first_and_last` of the first names of a list of `total` and its last (the last of `items`).
fn first_and_last_of<S: AsRef<str>>(items: &[S], total: usize, width: usize) -> String {
    let Some((last, rest)) = items.split_last() else {
        return String::new();
    };
    let all = joined_within(items, width);
    if total == items.len() && !all.contains(", ... ") {
        return all;
    }
    let last = last.as_ref();
    let head_width = width.saturating_sub(last.chars().count() + 12);
    let mut head = String::new();
    let mut kept = 0;
    for item in rest {
        let item = item.as_ref();
        if kept > 0 && head.chars().count() + item.chars().count() + 2 > head_width {
            break;
        }
        if kept > 0 {
            head.push_str(", ");
        }
        head.push_str(item);
        kept += 1;
    }
    if kept == 0 {
        return format!("... {} more, {last}", total - 1);
    }
    format!("{head}, ... {} more, {last}", total - 1 - kept)
}

/// The analyzer of reStructuredText and AsciiDoc documents.
pub struct ProseMarkup;

impl Analyzer for ProseMarkup {
    fn name(&self) -> &'static str {
        "markup"
    }
    fn family(&self) -> Family {
        Family::Text
    }
    fn claim(&self, input: &Input<'_>) -> Option<Claim> {
        matches!(input.reference_kind, "text" | "code").then_some(())?;
        Claim::evidence("a markup's section titles")
    }
    fn synopsis(&self, input: &Input<'_>, _: &Claim) -> Option<Synopsis> {
        // Most outputs are neither: their first 64 KB say so before the whole is read.
        let output = input.output;
        let head = &output[..floor_char_boundary(output, PROBE_BYTES)];
        if head.len() < output.len() && asciidoc(head).or_else(|| rst(head)).is_none() {
            return None;
        }
        let found = asciidoc(output).or_else(|| rst(output))?;
        Some(describe(&found))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(output: &str) -> Option<String> {
        let reference = crate::synopsis::generate(output, "text/plain", 2_000);
        let input = Input {
            output,
            mime: "",
            reference_kind: &reference.kind,
            reference: &reference,
        };
        let claim = ProseMarkup.claim(&input)?;
        ProseMarkup
            .synopsis(&input, &claim)
            .map(|synopsis| crate::test_support::synopsis_text(&synopsis))
    }

    #[test]
    fn rst_titles_sections_and_code_blocks() {
        let doc = "=====\nGuide\n=====\n\nIntro.\n\nInstall\n-------\n\nText.\n\n.. code-block:: python\n\n   import x\n\nUsage\n-----\n\nMore, see `docs <https://x>`_.\n\nDetails\n~~~~~~~\n\nDeep.\n\nFAQ\n---\n\nEnd.\n";
        let shown = of(doc).expect("an rST document");
        assert!(shown.contains("reStructuredText document"), "{shown}");
        assert!(
            shown.contains("reStructuredText document: Guide; 29 lines."),
            "{shown}"
        );
        assert!(
            shown.contains("3 sections: Install, Usage, FAQ."),
            "{shown}"
        );
        assert!(
            shown.contains("Code blocks: 1 (python 1); links: 1."),
            "{shown}"
        );
    }

    #[test]
    fn asciidoc_titles_sections_and_source_blocks() {
        let doc = "= Manual\nA Writer <a@example.com>\n:toc: left\n\nIntro.\n\n== Setup\n\n[source,yaml]\n----\na: 1\n== not a section\n----\n\n=== Detail\n\n== Running\n\nSee link:https://x[the guide].\n";
        let shown = of(doc).expect("an AsciiDoc document");
        assert!(shown.contains("AsciiDoc document"), "{shown}");
        assert!(
            shown.contains("AsciiDoc document: Manual; 19 lines."),
            "{shown}"
        );
        assert!(
            shown.contains("3 sections: Setup, Detail, Running."),
            "{shown}"
        );
        assert!(
            shown.contains("Code blocks: 1 (yaml 1); links: 1."),
            "{shown}"
        );
    }

    #[test]
    fn source_whose_docstrings_have_titles_is_no_document() {
        let module = "\"\"\"\nBilling\n=======\n\nUsage\n-----\n\nCall it.\n\nNotes\n-----\n\nNone.\n\"\"\"\nimport os\n\ndef charge():\n    pass\n";
        assert_eq!(of(module), None);
        // Underlines shorter than their text, or a heading-free text, are not sections.
        assert_eq!(
            of("Intro text here\n----\n\nMore text\n----\n\nAnd more\n----\n"),
            None
        );
        assert_eq!(of("== Running tests ==\n== Done ==\n"), None);
        // Markdown with setext headings is Markdown's.
        let setext = "Guide\n=====\n\nSee [docs](https://x).\n\nInstall\n-------\n\nUsage\n-----\n\nFAQ\n---\n";
        assert_eq!(of(setext), None);
    }
}
