//! `html` kind (enhanced mode): an HTML page's title, heading outline, element counts and a
//! main-text excerpt. HTML is hostile input, so this is a linear tokenizer over bytes: every byte is
//! looked at a bounded number of times (comments, raw-text elements and quoted attribute values are
//! skipped with forward searches that never restart), there is no recursion and no element stack
//! (nesting is a pair of saturating counters), and everything kept is capped.

use std::borrow::Cow;

use crate::kinds::Synopsis;
use crate::python::{is_py_space, one_line, py_words, take_chars};

use super::text_helpers::{find_str, trim_set};

/// Bytes at the start of an output the HTML sniffing reads.
const SNIFF_BYTES: usize = 4096;
/// Headings (h1-h3) remembered for the outline, and how many the synopsis shows.
const MAX_STORED_HEADINGS: usize = 64;
const MAX_OUTLINE: usize = 12;
const HEADING_CHARS: usize = 120;
const TITLE_CHARS: usize = 200;
/// Chars of main text kept while scanning, and shown.
const TEXT_KEEP_CHARS: usize = 1200;
const EXCERPT_CHARS: i64 = 320;
/// Headings holding a link, at one level, that make a page a list of results.
const MIN_RESULTS: usize = 3;

/// Whether `output` is an HTML document: it starts with markup and its first bytes hold a doctype,
/// an `<html>`, `<head>` or `<body>` tag (XML, SVG and RSS hold none of them).
fn looks_like_html(output: &str) -> bool {
    let trimmed = output.strip_prefix('\u{feff}').unwrap_or(output);
    let trimmed = trim_set(trimmed, b" \t\r\n", true, false);
    if !trimmed.starts_with('<') {
        return false;
    }
    let head = &trimmed.as_bytes()[..trimmed.len().min(SNIFF_BYTES)];
    let lowered = head.to_ascii_lowercase();
    [
        &b"<!doctype html"[..],
        b"<html",
        b"<head>",
        b"<head ",
        b"<body",
    ]
    .iter()
    .any(|tag| lowered.windows(tag.len()).any(|window| window == *tag))
}

/// Elements whose text is page furniture, not content.
const FURNITURE: [&str; 9] = [
    "nav", "header", "footer", "aside", "noscript", "template", "svg", "select", "head",
];
/// Inline elements: their tags do not separate words.
const INLINE: [&str; 12] = [
    "a", "span", "b", "i", "em", "strong", "code", "small", "sup", "sub", "mark", "abbr",
];

struct Heading {
    level: usize,
    text: CappedText,
    /// Whether the heading holds a link (a search result's title does).
    linked: bool,
}

#[derive(Default)]
struct Page {
    title: Option<String>,
    heading_counts: [usize; 6],
    headings: Vec<Heading>,
    open_heading: Option<Heading>,
    links: usize,
    forms: usize,
    tables: usize,
    images: usize,
    scripts: usize,
    furniture_depth: usize,
    main_depth: usize,
    text: CappedText,
    main_text: CappedText,
}

/// Text gathered up to a cap of chars, whitespace collapsed; a full one ignores more in O(1), so
/// a page of a million tiny text nodes costs no more than its bytes.
#[derive(Default)]
struct CappedText {
    text: String,
    chars: usize,
}

impl CappedText {
    /// Appends `text` (entities decoded, whitespace runs as one space) up to `max` chars.
    fn append(&mut self, text: &str, max: usize) {
        if self.chars >= max {
            return;
        }
        if text.starts_with(is_py_space) {
            self.space();
        }
        let decoded = decode_entities(take_chars(text, max * 2));
        for (index, word) in py_words(&decoded).enumerate() {
            if index > 0 {
                self.space();
            }
            if self.chars >= max {
                return;
            }
            self.push_word(word);
        }
        if text.ends_with(is_py_space) {
            self.space();
        }
    }

    fn push_word(&mut self, word: &str) {
        // Zero-width chars (anchor links' `&ZeroWidthSpace;`, BOMs) are invisible noise.
        for c in word
            .chars()
            .filter(|c| !matches!(c, '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}'))
        {
            self.text.push(c);
            self.chars += 1;
        }
    }

    /// A word break: the next word starts after one space.
    fn space(&mut self) {
        if !self.text.is_empty() && !self.text.ends_with(' ') {
            self.text.push(' ');
            self.chars += 1;
        }
    }
}

/// The named character references decoded (the common ones in page text).
const NAMED_REFERENCES: [(&str, char); 9] = [
    ("amp", '&'),
    ("lt", '<'),
    ("gt", '>'),
    ("quot", '"'),
    ("apos", '\''),
    ("nbsp", ' '),
    ("mdash", '—'),
    ("ndash", '–'),
    ("hellip", '…'),
];

/// Decodes the common character references (`&amp;`, `&#39;`, `&#x2F;`, `&nbsp;`, ...); others stay.
#[inline(never)]
fn decode_entities(text: &str) -> Cow<'_, str> {
    if !text.contains('&') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest.as_bytes().iter().take(12).position(|&b| b == b';');
        let decoded = end.and_then(|end| {
            let name = &rest[1..end];
            let named = NAMED_REFERENCES
                .iter()
                .find(|(known, _)| *known == name)
                .map(|&(_, c)| c);
            let c = named.or_else(|| {
                let number = name.strip_prefix('#')?;
                let code = match number
                    .strip_prefix('x')
                    .or_else(|| number.strip_prefix('X'))
                {
                    Some(hex) => u32::from_str_radix(hex, 16).ok(),
                    None => number.parse().ok(),
                };
                code.and_then(char::from_u32)
            });
            c.map(|c| (c, end + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// The index of the first case-insensitive `</name` at or after `from`, or the end of `s`: the end of
/// a raw-text element. One forward pass.
fn raw_text_end(s: &str, from: usize, name: &[u8]) -> usize {
    let bytes = s.as_bytes();
    let mut at = from;
    while let Some(start) = find_from(s, at, "</") {
        let candidate = bytes.get(start + 2..start + 2 + name.len());
        if candidate.is_some_and(|c| c.eq_ignore_ascii_case(name)) {
            return start;
        }
        at = start + 2;
    }
    s.len()
}

/// The index of `needle` at or after byte `from` (a char boundary: the scan only stops after
/// ASCII bytes), with the standard library's fast substring search.
fn find_from(s: &str, from: usize, needle: &str) -> Option<usize> {
    find_str(s.get(from..)?, needle).map(|at| from + at)
}

/// A start tag's name (lowercased, at most 15 bytes kept) and the attributes the page reads.
#[derive(Default)]
struct Tag {
    name: [u8; 15],
    name_len: usize,
    href: bool,
    role_main: bool,
}

impl Tag {
    fn name(&self) -> &str {
        std::str::from_utf8(&self.name[..self.name_len]).unwrap_or("")
    }
}

/// Reads a start tag's name and attributes from `at` (just past `<`); returns the tag and the index
/// past its `>` (or the end of input when it never closes). Linear: each byte once.
fn read_tag(s: &[u8], mut at: usize) -> (Tag, usize) {
    let mut tag = Tag::default();
    while at < s.len() && !matches!(s[at], b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>') {
        if tag.name_len < tag.name.len() {
            tag.name[tag.name_len] = s[at].to_ascii_lowercase();
            tag.name_len += 1;
        }
        at += 1;
    }
    loop {
        while at < s.len() && matches!(s[at], b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/') {
            at += 1;
        }
        if at >= s.len() {
            return (tag, s.len());
        }
        if s[at] == b'>' {
            return (tag, at + 1);
        }
        let name_start = at;
        while at < s.len()
            && !matches!(
                s[at],
                b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>' | b'='
            )
        {
            at += 1;
        }
        let name = &s[name_start..at];
        while at < s.len() && matches!(s[at], b' ' | b'\t' | b'\n' | b'\r') {
            at += 1;
        }
        if at >= s.len() || s[at] != b'=' {
            continue;
        }
        at += 1;
        while at < s.len() && matches!(s[at], b' ' | b'\t' | b'\n' | b'\r') {
            at += 1;
        }
        let (value_start, value_end);
        if at < s.len() && matches!(s[at], b'"' | b'\'') {
            let quote = s[at];
            value_start = at + 1;
            value_end = s[value_start..]
                .iter()
                .position(|&b| b == quote)
                .map_or(s.len(), |end| value_start + end);
            at = (value_end + 1).min(s.len());
        } else {
            value_start = at;
            while at < s.len() && !matches!(s[at], b' ' | b'\t' | b'\n' | b'\r' | b'>') {
                at += 1;
            }
            value_end = at;
        }
        if name.eq_ignore_ascii_case(b"href") {
            tag.href = true;
        } else if name.eq_ignore_ascii_case(b"role") {
            tag.role_main |= s[value_start..value_end].eq_ignore_ascii_case(b"main");
        }
    }
}

fn heading_level(name: &str) -> Option<usize> {
    match name.as_bytes() {
        [b'h', digit @ b'1'..=b'6'] => Some(usize::from(digit - b'0')),
        _ => None,
    }
}

impl Page {
    fn text(&mut self, text: &str) {
        if let Some(heading) = &mut self.open_heading {
            heading.text.append(text, HEADING_CHARS);
        }
        if self.furniture_depth == 0 {
            self.text.append(text, TEXT_KEEP_CHARS);
            if self.main_depth > 0 {
                self.main_text.append(text, TEXT_KEEP_CHARS);
            }
        }
    }

    fn separate_words(&mut self) {
        if let Some(heading) = &mut self.open_heading {
            heading.text.space();
        }
        self.text.space();
        self.main_text.space();
    }

    fn close_heading(&mut self) {
        let Some(mut heading) = self.open_heading.take() else {
            return;
        };
        let trimmed = heading.text.text.trim().to_string();
        heading.text.text = trimmed;
        if heading.text.text.is_empty() {
            return;
        }
        self.heading_counts[heading.level - 1] += 1;
        if heading.level <= 3 && self.headings.len() < MAX_STORED_HEADINGS {
            self.headings.push(heading);
        }
    }

    fn start_tag(&mut self, tag: &Tag) {
        let name = tag.name();
        if !INLINE.contains(&name) {
            self.separate_words();
        }
        if let Some(level) = heading_level(name) {
            self.close_heading();
            self.open_heading = Some(Heading {
                level,
                text: CappedText::default(),
                linked: false,
            });
            return;
        }
        #[allow(
            clippy::collapsible_match,
            reason = "an `a` without href must not fall through to the furniture arm"
        )]
        match name {
            "a" => {
                if tag.href {
                    self.links += 1;
                    if let Some(heading) = &mut self.open_heading {
                        heading.linked = true;
                    }
                }
            }
            "form" => self.forms += 1,
            "table" => self.tables += 1,
            "img" => self.images += 1,
            "main" | "article" => self.main_depth = self.main_depth.saturating_add(1),
            _ if FURNITURE.contains(&name) => {
                self.furniture_depth = self.furniture_depth.saturating_add(1);
            }
            _ => {}
        }
        if tag.role_main && name != "main" {
            self.main_depth = self.main_depth.saturating_add(1);
        }
    }

    fn end_tag(&mut self, name: &str) {
        if !INLINE.contains(&name) {
            self.separate_words();
        }
        if heading_level(name).is_some() {
            self.close_heading();
        } else if name == "main" || name == "article" {
            self.main_depth = self.main_depth.saturating_sub(1);
        } else if FURNITURE.contains(&name) {
            self.furniture_depth = self.furniture_depth.saturating_sub(1);
        }
    }
}

/// One pass over the document.
fn scan(s: &str) -> Page {
    let bytes = s.as_bytes();
    let mut page = Page::default();
    let mut at = 0;
    while at < bytes.len() {
        let Some(lt) = find_from(s, at, "<") else {
            page.text(&s[at..]);
            break;
        };
        if lt > at {
            page.text(&s[at..lt]);
        }
        let next = bytes.get(lt + 1).copied().unwrap_or(0);
        if bytes[lt..].starts_with(b"<!--") {
            at = find_from(s, lt + 4, "-->").map_or(bytes.len(), |end| end + 3);
        } else if next == b'!' || next == b'?' {
            at = find_from(s, lt, ">").map_or(bytes.len(), |end| end + 1);
        } else if next == b'/' {
            let (tag, end) = read_tag(bytes, lt + 2);
            page.end_tag(tag.name());
            at = end;
        } else if next.is_ascii_alphabetic() {
            let (tag, end) = read_tag(bytes, lt + 1);
            at = end;
            match tag.name() {
                name @ ("script" | "style" | "textarea" | "title") => {
                    let close = raw_text_end(s, at, name.as_bytes());
                    if name == "script" {
                        page.scripts += 1;
                    } else if name == "title" && page.title.is_none() && page.furniture_depth <= 1 {
                        let raw = s.get(at..close).unwrap_or("");
                        page.title = Some(one_line(
                            &decode_entities(take_chars(raw, TITLE_CHARS * 2)),
                            TITLE_CHARS as i64,
                        ));
                    } else if name == "textarea" {
                        page.text(s.get(at..close).unwrap_or(""));
                    }
                    // Past the closing tag's `>`, or to the end when the element never closes.
                    at = find_from(s, close, ">").map_or(bytes.len(), |end| end + 1);
                }
                _ => page.start_tag(&tag),
            }
        } else {
            page.text("<");
            at = lt + 1;
        }
    }
    page.close_heading();
    page
}

/// The synopsis of an HTML page, or `None` when `output` is not one.
pub fn synopsis(output: &str) -> Option<Synopsis> {
    if !looks_like_html(output) {
        return None;
    }
    let page = scan(output);
    let mut synopsis = Synopsis::new("html", "HTML page");
    let summary = &mut synopsis.summary;
    summary.push(format!(
        "Title: {}.",
        page.title
            .as_deref()
            .filter(|t| !t.is_empty())
            .unwrap_or("(none)")
    ));
    let mut line = "Counts:".to_string();
    for (n, one, many) in [
        (page.links, "link", "links"),
        (page.forms, "form", "forms"),
        (page.tables, "table", "tables"),
        (page.images, "image", "images"),
        (page.scripts, "script", "scripts"),
    ] {
        line.push_str(&format!(" {n} {},", if n == 1 { one } else { many }));
    }
    line.pop();
    line.push_str("; headings:");
    let mut any_heading = false;
    for level in 0..6 {
        if page.heading_counts[level] > 0 {
            line.push_str(&format!(" h{} {},", level + 1, page.heading_counts[level]));
            any_heading = true;
        }
    }
    line.pop();
    line.push_str(if any_heading { "." } else { " none." });
    summary.push(line);
    // Many headings of one level that each hold a link: a list of results (search, index pages).
    for level in 1..=3 {
        let linked = page
            .headings
            .iter()
            .filter(|h| h.level == level && h.linked)
            .count();
        let all = page.heading_counts[level - 1];
        if linked >= MIN_RESULTS && linked * 2 >= all {
            summary.push(format!(
                "Results: {all} (h{level} headings that link to pages)."
            ));
        }
    }
    let shown = page.headings.len().min(MAX_OUTLINE);
    if shown > 0 {
        let total: usize = page.heading_counts[..3].iter().sum();
        synopsis
            .structure
            .push(format!("Outline (h1-h3, {shown} of {total}):"));
        for h in page.headings.iter().take(MAX_OUTLINE) {
            synopsis
                .structure
                .push(format!("h{} {}", h.level, h.text.text));
        }
    }
    let main = if page.main_text.chars >= 80 {
        &page.main_text.text
    } else {
        &page.text.text
    };
    let excerpt = one_line(main, EXCERPT_CHARS);
    if !excerpt.is_empty() {
        synopsis.notable_items.push(format!("Main text: {excerpt}"));
    }
    Some(synopsis)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::synopsis_text as text;

    const PAGE: &str = "<!DOCTYPE html><html><head><title>Retries &amp; timeouts | SDK</title>\
        <meta name=\"description\" content=\"How retries work.\"><style>h1{color:red}</style>\
        <script>var s = '<h1>not a heading</h1>';</script></head><body>\
        <nav><a href=\"/\">Home</a> navigation text</nav><main><h1>Configuring <em>retries</em></h1>\
        <p>The SDK retries   failed\n requests.</p><h2 id=x>Default policy</h2><!-- <h2>hidden</h2> -->\
        <h3>Backoff</h3><table><tr><td>1</td></tr></table><form><input></form><img src=a.png>\
        <a href=\"https://x.io/a\">A</a></main><footer>footer text</footer></body></html>";

    #[test]
    fn title_counts_and_outline() {
        let s = synopsis(PAGE).expect("html");
        assert_eq!(s.kind, "html");
        let all = text(&s);
        assert!(all.contains("Title: Retries & timeouts | SDK."), "{all}");
        assert!(
            all.contains(
                "Counts: 2 links, 1 form, 1 table, 1 image, 1 script; headings: h1 1, h2 1, h3 1."
            ),
            "{all}"
        );
        assert!(
            all.contains(
                "Outline (h1-h3, 3 of 3):\nh1 Configuring retries\nh2 Default policy\nh3 Backoff"
            ),
            "{all}"
        );
    }

    #[test]
    fn main_text_skips_scripts_styles_and_furniture() {
        let all = text(&synopsis(PAGE).unwrap());
        let main = all.lines().find(|l| l.starts_with("Main text:")).unwrap();
        assert!(main.contains("The SDK retries failed requests."), "{main}");
        for hidden in [
            "navigation",
            "footer",
            "color:red",
            "not a heading",
            "hidden",
        ] {
            assert!(!main.contains(hidden), "{main}");
        }
    }

    #[test]
    fn linked_headings_make_a_result_list() {
        let mut page = String::from("<html><body>");
        for i in 0..4 {
            page.push_str(&format!(
                "<h2 class=r><a href=\"//search.example/l/?uddg=https%3A%2F%2Fdocs.rs%2Fa{i}%3Fx%3D1&amp;rut=ff\">Result {i}</a></h2>"
            ));
        }
        let all = text(&synopsis(&page).unwrap());
        assert!(
            all.contains("Results: 4 (h2 headings that link to pages)."),
            "{all}"
        );
        assert!(
            all.contains("Outline (h1-h3, 4 of 4):\nh2 Result 0\nh2 Result 1"),
            "{all}"
        );
    }

    #[test]
    fn entities() {
        assert_eq!(
            decode_entities("a&lt;b&#39;c&#x41;&bogus;&"),
            "a<b'cA&bogus;&"
        );
    }

    #[test]
    fn only_html_documents() {
        assert!(
            synopsis("<?xml version=\"1.0\"?><rss><channel><title>x</title></channel></rss>")
                .is_none()
        );
        assert!(synopsis("<svg xmlns=\"http://www.w3.org/2000/svg\"><g/></svg>").is_none());
        assert!(synopsis("plain text mentioning <html> later").is_none());
        assert!(synopsis("<html><body>hi</body></html>").is_some());
    }

    #[test]
    fn outline_and_text_are_capped() {
        let page = format!(
            "<html><body>{}</body></html>",
            "<h2>a very long heading text</h2><p>word</p>".repeat(10_000)
        );
        let s = synopsis(&page).unwrap();
        assert_eq!(s.structure.len(), MAX_OUTLINE + 1);
        let zero_width =
            synopsis("<html><h2>Overview&#8203;</h2><h2>\u{200b}</h2></html>").unwrap();
        assert_eq!(
            zero_width.structure,
            ["Outline (h1-h3, 1 of 1):", "h2 Overview"]
        );
        assert!(s.summary.iter().any(|l| l.contains("h2 10000")));
        assert!(s.notable_items[0].chars().count() < 400);
    }

    #[test]
    fn hostile_markup_is_scanned_once() {
        // Each would be quadratic with a rescan per `<` (about 10^12 steps): these finish at once.
        let n = 2_000_000;
        for hostile in [
            format!("<html>{}", "<".repeat(n)),
            format!("<html><!--{}", "<!--".repeat(n / 4)),
            format!("<html><a href=\"{}", "<a href=\"".repeat(n / 9)),
            format!("<html><script>{}", "</scrip".repeat(n / 7)),
            format!("<html>{}", "<h1><nav><main>".repeat(n / 15)),
            format!("<html>{}", "&#x".repeat(n / 3)),
        ] {
            let s = synopsis(&hostile).expect("html");
            assert_eq!(s.kind, "html");
        }
    }
}
