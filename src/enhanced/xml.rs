//! XML documents (POM files, RSS/Atom feeds, JUnit reports, SVG sprites, SOAP and config files):
//! the root with its identifying attributes, the document's own fields (leaves under the root or
//! under its single wrapper, such as an RSS `channel`), repeated elements as records (`channel/item:
//! 120 records` with their fields, first and last, shared values and ids, read by the same record
//! analysis as JSON), and records flagged by a problem child (`<failure>`, `<error>`) or attribute
//! (`outcome="Failed"`), named first.
//!
//! A tolerant streaming tag scanner, not a validating parser (the reference's port of expat has
//! already accepted or rejected the document): comments, processing instructions, DOCTYPE and
//! CDATA are stepped over in one forward scan, a stray end tag closes what it matches or nothing,
//! nesting past `MAX_DEPTH` is counted but not kept, and every list it keeps is capped. Two passes:
//! a survey of element paths and problem records, then the values of the chosen records.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write;

use super::document::{
    joined_within, record_identity, shown, untyped_record_lines, SAMPLED_RECORDS,
};
use super::value::Value;
use super::Input;
use crate::kinds::Synopsis;
use crate::python::swar::{self, bytes_equal, WORD_BYTES};
use crate::python::{clip, stable_sort_by};

/// Open elements kept on the stack; deeper ones are counted only.
const MAX_DEPTH: usize = 64;
/// Distinct element paths surveyed; elements under a path past this are not analysed.
const MAX_PATHS: usize = 4_096;
/// Child paths a path looks up in its own list (the rest through a map).
const LISTED_CHILDREN: usize = 16;
/// Levels of a record (or document field) turned into values.
const MAX_VALUE_DEPTH: usize = 6;
/// Keys kept per element value, and items kept per repeated child.
const MAX_KEYS: usize = 48;
const MAX_ITEMS: usize = 64;
/// Bytes of text kept per element.
const MAX_TEXT: usize = 240;
/// Repeated element paths described as record lists.
const RECORD_LISTS: usize = 2;
/// A repeated path under another record list counts as its own list only with this many
/// elements per parent (test cases per suite), else it is a field of its parent's records.
const NESTED_LIST_MIN: usize = 5;
/// Problem records named, and chars of a problem message.
const MAX_FLAGGED: usize = 12;
const MESSAGE_WIDTH: i64 = 80;
/// Width of a value, and of one line of names or fields.
const VALUE_WIDTH: i64 = 60;
/// Width of a value naming the first or last record (a title is recognisable by its start).
const IDENTITY_WIDTH: i64 = 40;
const LINE_WIDTH: usize = 160;
/// Chars of one synopsis line, and of all of them.
const MAX_LINE_CHARS: usize = 600;
const MAX_SYNOPSIS_CHARS: usize = 6_000;
/// Root attributes shown.
const ROOT_ATTRIBUTES: usize = 8;
/// Child elements whose presence marks their parent as a problem record.
const PROBLEM_ELEMENTS: [&str; 5] = ["failure", "error", "fault", "exception", "failed"];
/// Attributes whose value may mark an element as a problem record, and those values.
const PROBLEM_ATTRIBUTES: [&str; 5] = ["status", "result", "outcome", "state", "conclusion"];
const PROBLEM_VALUES: [&str; 9] = [
    "fail", "failed", "failure", "error", "errored", "broken", "timeout", "crashed", "aborted",
];
/// Attributes or child leaves that name an element, most telling first.
const LABELS: [&str; 7] = ["name", "testname", "title", "id", "key", "ref", "label"];
/// Attributes that are markup plumbing, not identity (namespaces, schema hints, styling).
fn is_plumbing(attribute: &str) -> bool {
    attribute == "xmlns"
        || attribute.starts_with("xmlns:")
        || attribute.ends_with("schemaLocation")
        || matches!(attribute, "style" | "class")
}

/// A decimal fraction (`time="171.512"`) that is not a version: a measurement, not what
/// identifies or counts the document.
fn is_measurement(name: &str, value: &str) -> bool {
    let fraction = value.split_once('.').is_some_and(|(whole, part)| {
        !part.is_empty()
            && [whole, part]
                .iter()
                .all(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
    });
    fraction && !name.to_ascii_lowercase().contains("version")
}

/// The enhanced synopsis of an XML output: what the reference parsed as XML, or text that
/// declares itself XML (`<?xml`) or comes with an XML MIME type.
pub fn detect(input: &Input<'_>) -> Option<Synopsis> {
    let start = input
        .output
        .trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
    let declared = start.starts_with("<?xml") || input.mime.contains("xml");
    if input.reference_kind != "xml" && !(declared && start.starts_with('<')) {
        return None;
    }
    synopsis(input.output)
}

/// The synopsis of `output` read as XML, or `None` when it holds no element.
pub fn synopsis(output: &str) -> Option<Synopsis> {
    let survey = survey(output)?;
    let plan = Plan::new(&survey);
    let values = collect_values(output, &survey, &plan);
    Some(render(&survey, &plan, values))
}

// ---------------------------------------------------------------- tokens

/// One piece of markup, borrowed from the output.
enum Token<'a> {
    /// A start tag: its name, the raw text of its attributes, and whether it closes itself.
    Start(&'a str, &'a str, bool),
    End(&'a str),
    /// Character data as written (entities not yet decoded), or the inside of a CDATA section.
    Text(&'a str),
    CData(&'a str),
}

/// The tokens of `text` in one forward scan: each step moves past what it read.
struct Tokens<'a> {
    text: &'a str,
    at: usize,
}

/// The offset just past the first `needle` at or after `from`, or the end of `text`.
fn past(text: &str, from: usize, needle: &str) -> usize {
    text[from..]
        .find(needle)
        .map_or(text.len(), |at| from + at + needle.len())
}

/// Whether `c` may start an element name.
fn name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == ':' || !c.is_ascii()
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let text = self.text;
        loop {
            let start = self.at;
            let rest = &text[start..];
            if rest.is_empty() {
                return None;
            }
            if !rest.starts_with('<') {
                self.at = start
                    + rest
                        .bytes()
                        .position(|byte| byte == b'<')
                        .unwrap_or(rest.len());
                return Some(Token::Text(&text[start..self.at]));
            }
            // Dispatch on the byte after `<` (one comparison for most tags).
            match rest.as_bytes().get(1) {
                Some(b'/') => {
                    let name = &rest[2..];
                    let close = name.bytes().position(|byte| byte == b'>');
                    self.at = start + 2 + close.map_or(name.len(), |at| at + 1);
                    return Some(Token::End(name[..close.unwrap_or(name.len())].trim_ascii()));
                }
                Some(b'!') if rest.starts_with("<!--") => self.at = past(text, start + 4, "-->"),
                Some(b'!') if rest.starts_with("<![CDATA[") => {
                    let body = start + 9;
                    self.at = past(text, body, "]]>");
                    let end = text[body..self.at]
                        .strip_suffix("]]>")
                        .map_or(self.at, |b| body + b.len());
                    return Some(Token::CData(&text[body..end]));
                }
                Some(b'!') => self.at = declaration_end(text, start + 2),
                Some(b'?') => self.at = past(text, start + 2, "?>"),
                _ if rest[1..].chars().next().is_some_and(name_start) => {
                    let tag = start_tag(text, start);
                    self.at = tag.end;
                    return Some(Token::Start(tag.name, tag.raw, tag.empty));
                }
                _ => {
                    // A lone `<` (in text that is not well-formed) is text.
                    self.at = start + 1;
                    return Some(Token::Text("<"));
                }
            }
        }
    }
}

/// The offset past the `>` that ends a tag begun before `from` (quoted `>` skipped). Eight
/// bytes a step: only the quotes and `>` among them are looked at one by one.
fn tag_end(text: &str, from: usize) -> usize {
    tag_end_noting::<false>(text, from).0
}

/// Whether the byte before an `=` at `at` may end a problem attribute's name (or the
/// whitespace after it): what [`may_hold_problem_attribute`] looks for, or more.
#[inline(always)]
fn may_name_problem(bytes: &[u8], at: usize) -> bool {
    at.checked_sub(1)
        .and_then(|before| bytes.get(before))
        .is_some_and(|&byte| {
            byte.is_ascii_whitespace()
                || matches!(byte.to_ascii_lowercase(), b's' | b't' | b'e' | b'n')
        })
}

/// [`tag_end`], and (with `EQUALS`) whether some `=` at or after `from`, up to the tag's end
/// or a few bytes past it, [`may_name_problem`]: `false` means the attribute text from `from`
/// holds no problem attribute, read in the same words as the tag's end.
#[inline(always)]
fn tag_end_noting<const EQUALS: bool>(text: &str, from: usize) -> (usize, bool) {
    let bytes = text.as_bytes();
    let mut noted = false;
    let mut quote = 0u8;
    // What one quote or `>` does: opens or closes a quoted value, or ends the tag (`true`).
    let mut step = |byte: u8| {
        if quote == 0 {
            if byte == b'>' {
                return true;
            }
            quote = byte;
        } else if byte == quote {
            quote = 0;
        }
        false
    };
    let mut at = from;
    // 16 bytes a step with wasm SIMD where the module is built with it, then 8 with words.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::{u8x16_bitmask, u8x16_eq, u8x16_splat, v128_or};
        while let Some(chunk) = swar::vector_at(bytes, at) {
            if EQUALS && !noted {
                let mut equals = u8x16_bitmask(u8x16_eq(chunk, u8x16_splat(b'=')));
                while equals != 0 && !noted {
                    noted = may_name_problem(bytes, at + equals.trailing_zeros() as usize);
                    equals &= equals - 1;
                }
            }
            let quotes = v128_or(
                u8x16_eq(chunk, u8x16_splat(b'"')),
                u8x16_eq(chunk, u8x16_splat(b'\'')),
            );
            let mut hits = u8x16_bitmask(v128_or(u8x16_eq(chunk, u8x16_splat(b'>')), quotes));
            while hits != 0 {
                let offset = hits.trailing_zeros() as usize;
                hits &= hits - 1;
                if step(bytes.get(at + offset).copied().unwrap_or_default()) {
                    return (at + offset + 1, noted);
                }
            }
            at += 16;
        }
    }
    while let Some(chunk) = bytes.get(at..at + WORD_BYTES) {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        if EQUALS && !noted {
            let mut equals = bytes_equal(word, b'=');
            while equals != 0 && !noted {
                noted = may_name_problem(bytes, at + equals.trailing_zeros() as usize / 8);
                equals &= equals - 1;
            }
        }
        let mut hits = bytes_equal(word, b'>') | bytes_equal(word, b'"') | bytes_equal(word, b'\'');
        while hits != 0 {
            let offset = hits.trailing_zeros() as usize / 8;
            hits &= hits - 1;
            if step(chunk.get(offset).copied().unwrap_or_default()) {
                return (at + offset + 1, noted);
            }
        }
        at += WORD_BYTES;
    }
    for (offset, &byte) in bytes.get(at..).unwrap_or_default().iter().enumerate() {
        noted |= EQUALS && byte == b'=' && may_name_problem(bytes, at + offset);
        if matches!(byte, b'>' | b'"' | b'\'') && step(byte) {
            return (at + offset + 1, noted);
        }
    }
    (text.len(), noted)
}

/// The offset of the first `byte` at or after `from`, or the end of `bytes` (`from` when past it).
#[inline(always)]
fn find_byte(bytes: &[u8], from: usize, byte: u8) -> usize {
    swar::find_byte(bytes, from, byte).unwrap_or(bytes.len().max(from))
}

/// The offset past a `<!...>` declaration (a DOCTYPE's internal subset in `[...]` included).
fn declaration_end(text: &str, from: usize) -> usize {
    let mut quote = 0u8;
    let mut brackets = 0usize;
    for (at, &byte) in text.as_bytes()[from..].iter().enumerate() {
        match byte {
            b'"' | b'\'' if quote == 0 => quote = byte,
            _ if byte == quote => quote = 0,
            b'[' if quote == 0 => brackets += 1,
            b']' if quote == 0 => brackets = brackets.saturating_sub(1),
            b'>' if quote == 0 && brackets == 0 => return from + at + 1,
            _ => {}
        }
    }
    text.len()
}

/// The `name="value"` pairs of a start tag's attribute text, values raw (entities undecoded);
/// anything that is not an attribute is skipped.
fn attributes(raw: &str) -> impl Iterator<Item = (&str, &str)> {
    let mut rest = raw;
    std::iter::from_fn(move || loop {
        rest = rest.trim_ascii_start();
        if rest.is_empty() {
            return None;
        }
        let name_len = rest
            .bytes()
            .position(|byte| byte.is_ascii_whitespace() || byte == b'=')
            .unwrap_or(rest.len());
        let name = &rest[..name_len];
        rest = rest[name_len..].trim_ascii_start();
        let Some(after) = rest.strip_prefix('=') else {
            // A name without a value.
            if name.is_empty() {
                rest = &rest[rest.chars().next().map_or(0, char::len_utf8)..];
                continue;
            }
            return Some((name, ""));
        };
        rest = after.trim_ascii_start();
        let value = match rest.chars().next() {
            Some(quote @ ('"' | '\'')) => {
                let body = &rest[1..];
                let end = body
                    .bytes()
                    .position(|byte| byte == quote as u8)
                    .unwrap_or(body.len());
                rest = &body[(end + 1).min(body.len())..];
                &body[..end]
            }
            _ => {
                let end = rest
                    .bytes()
                    .position(|byte| byte.is_ascii_whitespace())
                    .unwrap_or(rest.len());
                let value = &rest[..end];
                rest = &rest[end..];
                value
            }
        };
        if !name.is_empty() {
            return Some((name, value));
        }
    })
}

/// The attribute `name` of a start tag (case-insensitive), decoded.
fn attribute<'a>(raw: &'a str, name: &str) -> Option<Cow<'a, str>> {
    attributes(raw)
        .find(|(key, _)| local(key).eq_ignore_ascii_case(name))
        .map(|(_, value)| decode(value))
}

/// A name without its namespace prefix.
fn local(name: &str) -> &str {
    match name.bytes().rposition(|byte| byte == b':') {
        Some(colon) => &name[colon + 1..],
        None => name,
    }
}

/// Text with the predefined entities and character references decoded (others kept as written).
fn decode(raw: &str) -> Cow<'_, str> {
    if !raw.contains('&') {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest[1..]
            .find([';', '&', '<'])
            .map(|e| e + 1)
            .filter(|&e| e <= 12 && rest.as_bytes()[e] == b';');
        let decoded = end.and_then(|end| {
            let entity = &rest[1..end];
            let character = match entity {
                "lt" => '<',
                "gt" => '>',
                "amp" => '&',
                "quot" => '"',
                "apos" => '\'',
                _ => {
                    let number = entity.strip_prefix('#')?;
                    let code = match number.strip_prefix(['x', 'X']) {
                        Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                        None => number.parse().ok()?,
                    };
                    char::from_u32(code)?
                }
            };
            Some((character, end + 1))
        });
        match decoded {
            Some((character, used)) => {
                out.push(character);
                rest = &rest[used..];
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

// ---------------------------------------------------------------- the element walk

/// What the walk reports: an element opened (`path` is `None` past the path cap), text inside
/// the innermost kept element, an element closed.
enum Event<'a> {
    Open {
        path: Option<usize>,
        name: &'a str,
        attributes: &'a str,
    },
    /// Character data as written, or a CDATA section's inside (`true`).
    Text(&'a str, bool),
    Close,
}

struct Frame<'a> {
    name: &'a str,
    path: Option<usize>,
    serial: usize,
    children: bool,
    attributes: bool,
}

/// One element path (`channel/item`) and how its elements occur.
struct PathInfo<'a> {
    name: &'a str,
    parent: Option<usize>,
    count: usize,
    /// Parent elements holding at least one of these (so `count > parents` means repeated).
    parents: usize,
    last_parent: usize,
    /// Where the last of these elements starts.
    last_offset: usize,
    /// The first `LISTED_CHILDREN` child paths, by name.
    children: Vec<(&'a str, usize)>,
    /// Elements with attributes or child elements (records rather than text leaves).
    structured: usize,
    /// What the survey expects to open next (`NO_PATH` for nothing): the child path that last
    /// opened first in one of these elements, and the sibling path that last opened after one
    /// of these. A guess checked against the text before it is used, never trusted.
    first_child: usize,
    next_sibling: usize,
    /// Whether the name holds none of the bytes that end a start tag's name (whitespace, `/`,
    /// `>`, quotes), so that the name followed by one of them in the text is that name.
    predictable: bool,
    /// Whether the name is a problem child's ([`is_problem_element`]).
    problem: bool,
}

/// No path (an unset prediction hint).
const NO_PATH: usize = usize::MAX;

/// Whether `byte` ends a start tag's name as [`start_tag`] reads it.
#[inline(always)]
fn ends_name(byte: u8) -> bool {
    byte.is_ascii_whitespace() || matches!(byte, b'/' | b'>' | b'"' | b'\'')
}

#[derive(Default)]
struct Paths<'a> {
    list: Vec<PathInfo<'a>>,
    /// Top-level paths (the root's), as `PathInfo::children`.
    top: Vec<(&'a str, usize)>,
    /// Path ids by `parent id/name` past a parent's `LISTED_CHILDREN` (a `String` key: the map
    /// type the wasm already has).
    index: HashMap<String, usize>,
    key: String,
}

/// Walks the elements of `text`, keeping the open ones on a bounded stack and counting their
/// paths in `paths`; tokens past the root's end are read as further top-level elements. `Close`
/// comes for every opened element, those a stray end tag or the end of the text closes included.
/// `on` gets each event with the depth of its element (0 for the root), and stops the walk by
/// answering `false`.
fn walk<'a>(text: &'a str, paths: &mut Paths<'a>, on: &mut dyn FnMut(Event<'a>, usize) -> bool) {
    let mut stack: Vec<Frame<'a>> = Vec::new();
    let mut hidden = 0usize;
    let mut serial = 0usize;
    let mut tokens = Tokens { text, at: 0 };
    loop {
        let offset = tokens.at;
        let Some(token) = tokens.next() else { break };
        let go_on = match token {
            Token::Start(name, raw, empty) => {
                if stack.len() >= MAX_DEPTH {
                    hidden += usize::from(!empty);
                    continue;
                }
                serial += 1;
                let (parent_path, parent_serial) = match stack.last_mut() {
                    Some(parent) => {
                        parent.children = true;
                        (parent.path, parent.serial)
                    }
                    None => (Some(usize::MAX), 0),
                };
                let path =
                    parent_path.and_then(|parent| paths.enter(parent, name, parent_serial, offset));
                let attributes = raw.bytes().any(|byte| !byte.is_ascii_whitespace());
                let frame = Frame {
                    name,
                    path,
                    serial,
                    children: false,
                    attributes,
                };
                let go_on = on(
                    Event::Open {
                        path,
                        name,
                        attributes: raw,
                    },
                    stack.len(),
                );
                if empty {
                    go_on && close(frame, paths, stack.len(), on)
                } else {
                    stack.push(frame);
                    go_on
                }
            }
            Token::End(name) => {
                let mut go_on = true;
                if hidden > 0 {
                    hidden -= 1;
                } else if let Some(at) = stack.iter().rposition(|frame| frame.name == name) {
                    while go_on && stack.len() > at {
                        let Some(frame) = stack.pop() else { break };
                        go_on = close(frame, paths, stack.len(), on);
                    }
                }
                go_on
            }
            Token::Text(raw) if hidden == 0 && !stack.is_empty() => {
                on(Event::Text(raw, false), stack.len())
            }
            Token::CData(raw) if hidden == 0 && !stack.is_empty() => {
                on(Event::Text(raw, true), stack.len())
            }
            Token::Text(_) | Token::CData(_) => true,
        };
        if !go_on {
            return;
        }
    }
    while let Some(frame) = stack.pop() {
        if !close(frame, paths, stack.len(), on) {
            return;
        }
    }
}

/// Ends an element: counts it as structured (attributes or children) and reports it.
fn close<'a>(
    frame: Frame<'a>,
    paths: &mut Paths<'a>,
    depth: usize,
    on: &mut dyn FnMut(Event<'a>, usize) -> bool,
) -> bool {
    if let Some(path) = frame.path.filter(|_| frame.children || frame.attributes) {
        paths.list[path].structured += 1;
    }
    on(Event::Close, depth)
}

impl<'a> Paths<'a> {
    /// The path of an element `name` under `parent` (`usize::MAX` at the top), counted.
    fn enter(
        &mut self,
        parent: usize,
        name: &'a str,
        parent_serial: usize,
        offset: usize,
    ) -> Option<usize> {
        // A path's first children are found in its own short list; past that, by the map.
        let known = match self.list.get(parent) {
            Some(info) => &info.children,
            None => &self.top,
        };
        let found = known
            .iter()
            .find(|(child, _)| same_name(child, name))
            .map(|&(_, id)| id);
        let listed = known.len() < LISTED_CHILDREN;
        let id = match found {
            Some(id) => id,
            None => {
                self.key.clear();
                if !listed {
                    let _ = write!(self.key, "{parent}/{name}");
                }
                match self.index.get(self.key.as_str()).filter(|_| !listed) {
                    Some(&id) => id,
                    None if self.list.len() < MAX_PATHS => {
                        let id = self.list.len();
                        self.list.push(PathInfo {
                            name,
                            parent: (parent != usize::MAX).then_some(parent),
                            count: 0,
                            parents: 0,
                            last_parent: usize::MAX,
                            last_offset: 0,
                            structured: 0,
                            children: Vec::new(),
                            first_child: NO_PATH,
                            next_sibling: NO_PATH,
                            predictable: !name.bytes().any(ends_name),
                            problem: is_problem_element(name),
                        });
                        match (listed, self.list.get_mut(parent)) {
                            (true, Some(info)) => info.children.push((name, id)),
                            (true, None) => self.top.push((name, id)),
                            (false, _) => {
                                self.index.insert(self.key.clone(), id);
                            }
                        }
                        id
                    }
                    None => return None,
                }
            }
        };
        self.count(id, parent_serial, offset);
        Some(id)
    }

    /// Counts an element of path `id` (under the element numbered `parent_serial`, its start
    /// tag's token beginning at `offset`).
    #[inline(always)]
    fn count(&mut self, id: usize, parent_serial: usize, offset: usize) {
        let Some(info) = self.list.get_mut(id) else {
            return;
        };
        info.count += 1;
        info.last_offset = offset;
        if info.last_parent != parent_serial {
            info.parents += 1;
            info.last_parent = parent_serial;
        }
    }

    /// `channel/item`: the path's names below the root.
    fn display(&self, id: usize) -> String {
        let mut names = Vec::new();
        let mut at = Some(id);
        while let Some(current) = at {
            let info = &self.list[current];
            if info.parent.is_some() {
                names.push(info.name);
            }
            at = info.parent;
        }
        if names.is_empty() {
            return self.list[id].name.to_string();
        }
        names.reverse();
        names.join("/")
    }

    fn children(&self, id: usize) -> impl Iterator<Item = usize> + '_ {
        (id + 1..self.list.len()).filter(move |&child| self.list[child].parent == Some(id))
    }

    fn is_repeated_record(&self, id: usize) -> bool {
        let info = &self.list[id];
        info.count >= 3 && info.count > info.parents && info.structured * 2 > info.count
    }
}

// ---------------------------------------------------------------- pass 1: the survey

/// A record flagged by a problem child or attribute.
struct Flagged {
    path: Option<usize>,
    label: String,
    /// `failure`, `error`, `outcome=Failed`.
    kind: String,
    message: String,
}

struct Survey<'a> {
    paths: Paths<'a>,
    root: usize,
    root_attributes: &'a str,
    flagged: Vec<Flagged>,
    /// Problem records found (all of them), per kind in first-seen order.
    flag_counts: Vec<(String, usize)>,
}

/// The label of an element from its attributes.
fn label_attribute(raw: &str) -> Option<String> {
    LABELS
        .iter()
        .find_map(|name| attribute(raw, name).filter(|value| !value.trim().is_empty()))
        .map(|value| shown(&value, VALUE_WIDTH))
}

/// The first line of a message, clipped.
fn first_line(text: &str) -> String {
    let line = text.trim().split('\n').next().unwrap_or("");
    shown(line, MESSAGE_WIDTH)
}

/// Counts `kind` in `counts` (first-seen order).
fn count_kind(counts: &mut Vec<(String, usize)>, kind: &str) {
    match counts.iter_mut().find(|(k, _)| k == kind) {
        Some(slot) => slot.1 += 1,
        None => counts.push((kind.to_string(), 1)),
    }
}

/// A problem attribute of a start tag: `outcome=Failed`.
fn problem_attribute(raw: &str) -> Option<String> {
    attributes(raw).find_map(|(key, value)| {
        let key = local(key);
        let problem = PROBLEM_ATTRIBUTES
            .iter()
            .any(|a| key.eq_ignore_ascii_case(a))
            && PROBLEM_VALUES
                .iter()
                .any(|v| value.trim().eq_ignore_ascii_case(v));
        problem.then(|| format!("{key}={}", shown(value, 20)))
    })
}

/// Whether `name` (its local part, any case) is a problem child: `failure`, `error`.
fn is_problem_element(name: &str) -> bool {
    // The shortest problem element has five letters.
    if name.len() < 5 {
        return false;
    }
    let local_name = local(name);
    PROBLEM_ELEMENTS
        .iter()
        .any(|p| local_name.eq_ignore_ascii_case(p))
}

/// Whether a start tag's attribute text may hold a problem attribute: some `=` follows (past
/// whitespace) the last letter of a `PROBLEM_ATTRIBUTES` name. A cheap, conservative filter in
/// front of [`problem_attribute`]'s full parse: every attribute's `=` is in the text, after its
/// name and whitespace, so a tag this answers `false` for has none.
fn may_hold_problem_attribute(raw: &str) -> bool {
    let bytes = raw.as_bytes();
    let mut from = 0;
    loop {
        let equals = find_byte(bytes, from, b'=');
        if equals >= bytes.len() {
            return false;
        }
        let before = bytes[..equals].trim_ascii_end();
        if before
            .last()
            .is_some_and(|last| matches!(last.to_ascii_lowercase(), b's' | b't' | b'e' | b'n'))
        {
            return true;
        }
        from = equals + 1;
    }
}

/// Whether two element names are equal: a loop the compiler keeps inline, cheaper than a call
/// to `memcmp` for names of a few bytes.
#[inline(always)]
fn same_name(a: &str, b: &str) -> bool {
    same_bytes(a.as_bytes(), b.as_bytes())
}

/// [`same_name`] of bytes.
#[inline(always)]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// An element open in the survey: where its path stands and what problem detection needs.
struct Open<'a> {
    name: &'a str,
    path: Option<usize>,
    serial: usize,
    /// Whether it has child elements, and attributes (what makes it structured).
    children: bool,
    attributes: bool,
    raw: &'a str,
    /// Whether it is counted as a problem record already.
    flagged: bool,
    /// Whether its name holds no `>` (so `</name>` can close it by a plain comparison).
    plain: bool,
    /// The path of its child element opened last (`NO_PATH` before the first).
    last_child: usize,
    /// The path its next child is expected to have (`NO_PATH`: no guess): its path's
    /// `first_child` until a child opens, then that child's path's `next_sibling`. Read when the
    /// guess is made, these are what [`Surveyor::predicted`] would look up: only this element
    /// (the one open element of its path) changes them before its next child opens.
    expect: usize,
}

/// The survey's walk: the element walk of [`walk`] (same paths, same order, same caps, same
/// closing of stray and missing end tags) fused with the problem-record detection, with no
/// per-token dispatch and text read only while a problem record waits for its message.
struct Surveyor<'a> {
    paths: Paths<'a>,
    stack: Vec<Open<'a>>,
    /// Elements opened past `MAX_DEPTH` and not closed yet.
    hidden: usize,
    serial: usize,
    root: Option<(Option<usize>, &'a str)>,
    flagged: Vec<Flagged>,
    flag_counts: Vec<(String, usize)>,
    /// The flag whose message the next text gives, with the depth that text must have.
    awaiting_message: Option<(usize, usize)>,
}

impl<'a> Surveyor<'a> {
    /// The path the element whose start tag begins at `start` has when its name is the one
    /// the innermost open element's children last had in this place (the child that followed
    /// its last child, or its first child), with the offset past that name: the path
    /// [`Paths::enter`] would find for it, without reading the name or looking it up.
    #[inline(always)]
    fn predicted(&self, bytes: &[u8], start: usize) -> Option<(usize, usize)> {
        if self.stack.len() >= MAX_DEPTH {
            return None;
        }
        let parent = self.stack.last()?;
        let hint = parent.expect;
        let info = self.paths.list.get(hint)?;
        let name = info.name.as_bytes();
        let name_end = start + 1 + name.len();
        let same = info.predictable
            && bytes.get(start + 1..name_end).is_some_and(|there| there.iter().zip(name).all(|(x, y)| x == y))
            // A quote after the name sends the tag to the general reading, which reads past it.
            && bytes.get(name_end).map_or(true, |&byte| byte.is_ascii_whitespace() || matches!(byte, b'/' | b'>'));
        same.then_some((hint, name_end))
    }

    /// Records that a child of path `id` opened in the innermost open element: what the next
    /// sibling's (or the next such element's first child's) prediction reads.
    #[inline(always)]
    fn note_child(&mut self, id: usize) {
        let Some(parent) = self.stack.last_mut() else {
            return;
        };
        let previous = std::mem::replace(&mut parent.last_child, id);
        let hint = match previous {
            NO_PATH => parent
                .path
                .and_then(|p| self.paths.list.get_mut(p))
                .map(|info| &mut info.first_child),
            sibling => self
                .paths
                .list
                .get_mut(sibling)
                .map(|info| &mut info.next_sibling),
        };
        if let Some(hint) = hint {
            *hint = id;
        }
        parent.expect = self
            .paths
            .list
            .get(id)
            .map_or(NO_PATH, |info| info.next_sibling);
    }

    /// Whether an element of path `id` may be read as a leaf ([`Surveyor::leaf`]): no problem
    /// child, and no problem waiting for its message in its text.
    #[inline(always)]
    fn may_read_leaf(&self, id: usize) -> bool {
        self.awaiting_message.is_none() && self.paths.list.get(id).is_some_and(|info| !info.problem)
    }

    /// A leaf element of path `id` (found by [`Surveyor::predicted`], no attributes, its text
    /// then its own end tag, and [`Surveyor::may_read_leaf`]): counted as [`Surveyor::start`],
    /// [`Surveyor::text`] and [`Surveyor::closes_top`] count it (an element neither structured
    /// nor a problem, whose text gives no message), without a frame.
    #[inline(always)]
    fn leaf(&mut self, id: usize, offset: usize) {
        self.serial += 1;
        let Some(parent) = self.stack.last_mut() else {
            return;
        };
        parent.children = true;
        let parent_serial = parent.serial;
        self.paths.count(id, parent_serial, offset);
        self.note_child(id);
    }

    /// A start tag: `known` is its path when [`Surveyor::predicted`] found it.
    #[inline(always)]
    fn start(&mut self, tag: &StartTag<'a>, offset: usize, known: Option<usize>) {
        let StartTag {
            name,
            plain: plain_name,
            raw,
            empty,
            may_hold_problem,
            ..
        } = *tag;
        if self.stack.len() >= MAX_DEPTH {
            self.hidden += usize::from(!empty);
            return;
        }
        self.serial += 1;
        let depth = self.stack.len();
        let (parent_path, parent_serial) = match self.stack.last_mut() {
            Some(parent) => {
                parent.children = true;
                (parent.path, parent.serial)
            }
            None => (Some(usize::MAX), 0),
        };
        let path = match known {
            Some(id) => {
                self.paths.count(id, parent_serial, offset);
                Some(id)
            }
            None => {
                parent_path.and_then(|parent| self.paths.enter(parent, name, parent_serial, offset))
            }
        };
        if let Some(id) = path {
            self.note_child(id);
        }
        self.root.get_or_insert((path, raw));
        // A function of the name, so of the path (known once the path is).
        let problem_element = match path {
            Some(id) => self.paths.list.get(id).is_some_and(|info| info.problem),
            None => is_problem_element(name),
        };
        if problem_element {
            if let Some(parent) = self.stack.last_mut().filter(|parent| !parent.flagged) {
                parent.flagged = true;
                let kind = local(name).to_ascii_lowercase();
                count_kind(&mut self.flag_counts, &kind);
                if self.flagged.len() < MAX_FLAGGED {
                    let message = ["message", "reason"]
                        .iter()
                        .find_map(|key| attribute(raw, key))
                        .map(|m| first_line(&m))
                        .unwrap_or_default();
                    if message.is_empty() {
                        self.awaiting_message = Some((self.flagged.len(), depth + 1));
                    }
                    let label = label_attribute(parent.raw).unwrap_or_default();
                    self.flagged.push(Flagged {
                        path: parent.path,
                        label,
                        kind,
                        message,
                    });
                }
            }
        }
        let problem = if may_hold_problem && may_hold_problem_attribute(raw) {
            problem_attribute(raw)
        } else {
            None
        };
        if let Some(kind) = &problem {
            count_kind(&mut self.flag_counts, kind);
            if self.flagged.len() < MAX_FLAGGED {
                let label = label_attribute(raw).unwrap_or_default();
                self.flagged.push(Flagged {
                    path,
                    label,
                    kind: kind.clone(),
                    message: String::new(),
                });
            }
        }
        let attributes = !raw.is_empty() && raw.bytes().any(|byte| !byte.is_ascii_whitespace());
        let frame = Open {
            name,
            path,
            serial: self.serial,
            children: false,
            attributes,
            raw,
            flagged: problem.is_some(),
            plain: plain_name,
            last_child: NO_PATH,
            expect: path
                .and_then(|id| self.paths.list.get(id))
                .map_or(NO_PATH, |info| info.first_child),
        };
        if empty {
            self.close(&frame);
        } else {
            self.stack.push(frame);
        }
    }

    /// The offset past an end tag whose name starts at `name_at` when it is `</name>` for the
    /// innermost open element: that element closed, as [`Surveyor::end`] would close it (an end
    /// tag's name runs to the first `>`, so an open name holding a `>` never takes this way).
    #[inline(always)]
    fn closes_top(&mut self, bytes: &[u8], name_at: usize) -> Option<usize> {
        if self.hidden > 0 {
            return None;
        }
        let top = self.stack.last()?;
        let name = top.name.as_bytes();
        let end = name_at + name.len();
        let matches = top.plain
            && bytes.get(end) == Some(&b'>')
            && bytes
                .get(name_at..end)
                .is_some_and(|there| there.iter().zip(name).all(|(x, y)| x == y));
        if !matches {
            return None;
        }
        let frame = self.stack.pop()?;
        self.close(&frame);
        Some(end + 1)
    }

    /// An end tag closes the innermost open element of its name and those inside it.
    fn end(&mut self, name: &str) {
        if self.hidden > 0 {
            self.hidden -= 1;
        } else if let Some(at) = self
            .stack
            .iter()
            .rposition(|frame| same_name(frame.name, name))
        {
            while self.stack.len() > at {
                let Some(frame) = self.stack.pop() else { break };
                self.close(&frame);
            }
        }
    }

    /// Ends an element (already off the stack): counts it as structured (attributes or
    /// children), and gives up a message its text did not give.
    #[inline(always)]
    fn close(&mut self, frame: &Open<'a>) {
        if let Some(path) = frame.path.filter(|_| frame.children || frame.attributes) {
            self.paths.list[path].structured += 1;
        }
        if self
            .awaiting_message
            .is_some_and(|(_, at_depth)| self.stack.len() < at_depth)
        {
            self.awaiting_message = None;
        }
    }

    /// Character data, or a CDATA section's inside (`cdata`): a waiting problem's message.
    #[inline(always)]
    fn text(&mut self, piece: &str, cdata: bool) {
        let Some((index, at_depth)) = self.awaiting_message else {
            return;
        };
        if self.hidden == 0 && self.stack.len() >= at_depth && !piece.trim().is_empty() {
            let piece = if cdata {
                Cow::Borrowed(piece)
            } else {
                decode(piece)
            };
            self.flagged[index].message = first_line(&piece);
            self.awaiting_message = None;
        }
    }
}

/// A start tag as [`Tokens`] reads it.
#[derive(Clone, Copy)]
struct StartTag<'a> {
    /// The offset past it.
    end: usize,
    name: &'a str,
    /// Whether the name holds no `>` (only a quoted one, in a tag not well-formed, can).
    plain: bool,
    /// The raw text of its attributes.
    raw: &'a str,
    /// Whether it closes itself.
    empty: bool,
    /// Whether its attributes may hold a problem attribute (`false`: they hold none).
    may_hold_problem: bool,
}

/// The start tag whose `<` is at `start`.
#[inline(always)]
fn start_tag(text: &str, start: usize) -> StartTag<'_> {
    let bytes = text.as_bytes();
    // The name runs to whitespace, `/` or `>`; a quote in it (not well-formed) takes the general
    // reading below.
    let name_start = start + 1;
    let name_end = name_start
        + bytes[name_start..]
            .iter()
            .position(|&b| ends_name(b))
            .unwrap_or(bytes.len() - name_start);
    start_tag_from(text, start, name_end)
}

/// [`start_tag`] given where the tag's name ends: at the first byte past `start + 1` that
/// [`ends_name`], or at the end of `text`.
#[inline(always)]
fn start_tag_from(text: &str, start: usize, name_end: usize) -> StartTag<'_> {
    let bytes = text.as_bytes();
    let name_start = start + 1;
    let name = &text[name_start..name_end];
    match bytes.get(name_end) {
        Some(b'>') => {
            return StartTag {
                end: name_end + 1,
                name,
                plain: true,
                raw: "",
                empty: false,
                may_hold_problem: false,
            }
        }
        Some(b'/') if bytes.get(name_end + 1) == Some(&b'>') => {
            return StartTag {
                end: name_end + 2,
                name,
                plain: true,
                raw: "",
                empty: true,
                may_hold_problem: false,
            }
        }
        Some(b) if b.is_ascii_whitespace() => {
            // No quote before `name_end`: the tag's end is found from there (and every `=` of
            // its attributes is past `name_end`).
            let (end, may_hold_problem) = tag_end_noting::<true>(text, name_end);
            let inside = text[name_end..end]
                .strip_suffix('>')
                .unwrap_or(&text[name_end..end]);
            let (raw, empty) = match inside.strip_suffix('/') {
                Some(raw) => (raw, true),
                None => (inside, false),
            };
            return StartTag {
                end,
                name,
                plain: true,
                raw,
                empty,
                may_hold_problem,
            };
        }
        _ => {}
    }
    let end = tag_end(text, name_start);
    let inside = text[name_start..end]
        .strip_suffix('>')
        .unwrap_or(&text[name_start..end]);
    let (inside, empty) = match inside.strip_suffix('/') {
        Some(inside) => (inside, true),
        None => (inside, false),
    };
    let name_len = inside
        .bytes()
        .position(|byte| byte.is_ascii_whitespace() || byte == b'/')
        .unwrap_or(inside.len());
    let name = &inside[..name_len];
    StartTag {
        end,
        name,
        plain: !name.contains('>'),
        raw: &inside[name_len..],
        empty,
        may_hold_problem: true,
    }
}

/// Pass 1: every element's path counted, the root, and the problem records, in one forward scan
/// that reads markup as [`Tokens`] does.
fn survey(text: &str) -> Option<Survey<'_>> {
    let mut walk = Surveyor {
        paths: Paths::default(),
        stack: Vec::new(),
        hidden: 0,
        serial: 0,
        root: None,
        flagged: Vec::new(),
        flag_counts: Vec::new(),
        awaiting_message: None,
    };
    let bytes = text.as_bytes();
    let mut at = 0;
    // Where the token being read began to be looked for: an element's offset, as `walk` gives
    // it, is there (comments, processing instructions and declarations before its tag included).
    let mut token_from = 0;
    while at < bytes.len() {
        let start = at;
        if bytes[start] != b'<' {
            at = find_byte(bytes, start, b'<');
            if walk.awaiting_message.is_some() {
                walk.text(&text[start..at], false);
            }
            token_from = at;
            continue;
        }
        match bytes.get(start + 1) {
            Some(b'/') => {
                // Most end tags close the innermost element by its exact name: `</name>`.
                match walk.closes_top(bytes, start + 2) {
                    Some(end) => at = end,
                    None => {
                        let close = find_byte(bytes, start + 2, b'>');
                        at = (close + 1).min(bytes.len());
                        walk.end(text[start + 2..close].trim_ascii());
                    }
                }
            }
            Some(b'!') if bytes[start..].starts_with(b"<!--") => {
                at = past(text, start + 4, "-->");
                continue;
            }
            Some(b'!') if bytes[start..].starts_with(b"<![CDATA[") => {
                let body = start + 9;
                at = past(text, body, "]]>");
                let end = text[body..at]
                    .strip_suffix("]]>")
                    .map_or(at, |b| body + b.len());
                walk.text(&text[body..end], true);
            }
            Some(b'!') => {
                at = declaration_end(text, start + 2);
                continue;
            }
            Some(b'?') => {
                at = past(text, start + 2, "?>");
                continue;
            }
            // A name starts with a letter, `_`, `:` or any non-ASCII char (`name_start`).
            Some(&next)
                if next.is_ascii_alphabetic()
                    || matches!(next, b'_' | b':')
                    || !next.is_ascii() =>
            {
                // Records repeat their shape: the name is most often the one expected there.
                let predicted = walk.predicted(bytes, start);
                let tag = match predicted {
                    Some((_, name_end)) => start_tag_from(text, start, name_end),
                    None => start_tag(text, start),
                };
                at = tag.end;
                match predicted {
                    // Most elements of such records are leaves, `<name>text</name>`: read whole.
                    Some((id, _)) if tag.raw.is_empty() && !tag.empty && walk.may_read_leaf(id) => {
                        let text_end = find_byte(bytes, tag.end, b'<');
                        let closing = text_end + 2 + tag.name.len();
                        let own_end = bytes.get(text_end + 1) == Some(&b'/')
                            && bytes.get(closing) == Some(&b'>')
                            && bytes
                                .get(text_end + 2..closing)
                                .is_some_and(|there| same_bytes(there, tag.name.as_bytes()));
                        if own_end {
                            walk.leaf(id, token_from);
                            at = closing + 1;
                        } else {
                            // Not a leaf: its start tag, then the text read up to the next tag.
                            walk.start(&tag, token_from, Some(id));
                            if text_end > tag.end {
                                walk.text(&text[tag.end..text_end], false);
                            }
                            at = text_end;
                        }
                    }
                    _ => walk.start(&tag, token_from, predicted.map(|(id, _)| id)),
                }
            }
            _ => {
                // A lone `<` (in text that is not well-formed) is text.
                at = start + 1;
                walk.text("<", false);
            }
        }
        token_from = at;
    }
    while let Some(frame) = walk.stack.pop() {
        walk.close(&frame);
    }
    let (root, root_attributes) = walk.root?;
    Some(Survey {
        paths: walk.paths,
        root: root?,
        root_attributes,
        flagged: walk.flagged,
        flag_counts: walk.flag_counts,
    })
}

// ---------------------------------------------------------------- what to describe

struct Plan {
    /// Record lists, the most elements first.
    records: Vec<usize>,
    /// The element whose children are the document's own fields: the root, or its single
    /// wrapper (an RSS `channel`, a SOAP `Body`).
    body: usize,
    /// The body's children that occur once (its fields), in document order.
    fields: Vec<usize>,
}

impl Plan {
    fn new(survey: &Survey<'_>) -> Plan {
        let paths = &survey.paths;
        let mut body = survey.root;
        for _ in 0..3 {
            let children: Vec<usize> = paths.children(body).collect();
            match children[..] {
                [only] if paths.list[only].count == 1 && paths.list[only].structured == 1 => {
                    body = only
                }
                _ => break,
            }
        }
        let fields = paths
            .children(body)
            .filter(|&child| paths.list[child].count == 1)
            .collect();
        let candidate: Vec<bool> = (0..paths.list.len())
            .map(|id| paths.is_repeated_record(id))
            .collect();
        let mut records: Vec<usize> = (0..paths.list.len())
            .filter(|&id| candidate[id])
            .filter(|&id| {
                let info = &paths.list[id];
                let mut ancestor = info.parent;
                while let Some(up) = ancestor {
                    if candidate[up] {
                        return info.count >= NESTED_LIST_MIN * info.parents;
                    }
                    ancestor = paths.list[up].parent;
                }
                true
            })
            .collect();
        // The most elements first; equal counts keep document order (a stable sort).
        stable_sort_by(&mut records, |a, b| {
            paths.list[*b].count.cmp(&paths.list[*a].count)
        });
        records.truncate(RECORD_LISTS);
        Plan {
            records,
            body,
            fields,
        }
    }
}

// ---------------------------------------------------------------- pass 2: values

/// An element being turned into a value.
struct Building<'a> {
    name: &'a str,
    entries: Vec<(Cow<'a, str>, Value<'a>)>,
    /// Its text so far: borrowed from the output while it is one piece with no entity.
    text: Cow<'a, str>,
}

/// Values of the records of each record list (the first `SAMPLED_RECORDS` and the last) and of
/// the document's fields.
struct Values<'a> {
    records: Vec<(Vec<Value<'a>>, Option<Value<'a>>)>,
    fields: Vec<(&'a str, Value<'a>)>,
}

/// The value of a finished element: a leaf's text (a number when it reads as one), or a map of
/// its attributes and children (with its own text under `#text`).
fn finish(building: Building<'_>) -> Value<'_> {
    let text = match building.text {
        Cow::Borrowed(text) => Cow::Borrowed(text.trim()),
        Cow::Owned(text) if text.trim().len() == text.len() => Cow::Owned(text),
        Cow::Owned(text) => Cow::Owned(text.trim().to_string()),
    };
    if building.entries.is_empty() {
        return leaf(text);
    }
    let mut entries = building.entries;
    if !text.is_empty() && entries.len() < MAX_KEYS {
        entries.push((Cow::Borrowed("#text"), leaf(text)));
    }
    let len = entries.len();
    Value::Map(entries, len)
}

fn leaf(text: Cow<'_, str>) -> Value<'_> {
    let numeric = !text.is_empty()
        && text.len() < 24
        && text.parse::<f64>().is_ok_and(f64::is_finite)
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'.' | b'e' | b'E' | b'+'));
    if numeric {
        Value::Number(text)
    } else {
        Value::Text(text)
    }
}

/// Adds `value` as the child `name` of `parent`: a second child of the same name makes a list.
fn attach<'a>(parent: &mut Building<'a>, name: &'a str, value: Value<'a>) {
    let full = parent.entries.len() >= MAX_KEYS;
    match parent.entries.iter_mut().find(|(key, _)| key == name) {
        Some((_, Value::List(items, len))) => {
            *len += 1;
            if items.len() < MAX_ITEMS {
                items.push(value);
            }
        }
        Some((_, existing)) => {
            let first = std::mem::replace(existing, Value::Null);
            *existing = Value::List(vec![first, value], 2);
        }
        None if !full => parent.entries.push((Cow::Borrowed(name), value)),
        None => {}
    }
}

/// One element being turned into a value (a record or a document field), with the elements
/// open inside it.
struct Build<'a> {
    /// The record list it belongs to, or `None` for a document field.
    list: Option<usize>,
    depth: usize,
    open: Vec<Building<'a>>,
    /// Elements opened past `MAX_VALUE_DEPTH` and not closed yet.
    skipped: usize,
}

/// The elements being turned into values. Builds nest (a test suite record holds test case
/// records): each event goes to all of them, at most one per planned path on a branch.
#[derive(Default)]
struct Builder<'a> {
    builds: Vec<Build<'a>>,
}

impl<'a> Builder<'a> {
    /// An element opens; `start` begins a build of it (for record list `Some(i)` or a field).
    fn open(&mut self, start: Option<Option<usize>>, name: &'a str, raw: &'a str, depth: usize) {
        if let Some(list) = start {
            self.builds.push(Build {
                list,
                depth,
                open: Vec::new(),
                skipped: 0,
            });
        }
        for build in &mut self.builds {
            if build.skipped > 0 || depth.saturating_sub(build.depth) >= MAX_VALUE_DEPTH {
                build.skipped += 1;
                continue;
            }
            let mut entries: Vec<(Cow<'a, str>, Value<'a>)> = Vec::new();
            for (key, value) in attributes(raw).filter(|(key, _)| !is_plumbing(key)) {
                if entries.len() >= MAX_KEYS {
                    break;
                }
                if !entries.iter().any(|(k, _)| k == key) {
                    entries.push((Cow::Borrowed(key), leaf(clipped(decode(value)))));
                }
            }
            build.open.push(Building {
                name,
                entries,
                text: Cow::Borrowed(""),
            });
        }
    }

    fn text(&mut self, raw: &'a str, cdata: bool) {
        if self.builds.is_empty() {
            return;
        }
        let piece = if cdata {
            Cow::Borrowed(raw)
        } else {
            decode(raw)
        };
        for build in self.builds.iter_mut().filter(|build| build.skipped == 0) {
            if let Some(top) = build.open.last_mut() {
                append_text(&mut top.text, &piece);
            }
        }
    }

    /// An element closes: the build it completes, if any (its list, name and value).
    fn close(&mut self) -> Option<(Option<usize>, &'a str, Value<'a>)> {
        let mut finished = None;
        for build in &mut self.builds {
            if build.skipped > 0 {
                build.skipped -= 1;
            } else if let Some(done) = build.open.pop() {
                let name = done.name;
                let value = finish(done);
                match build.open.last_mut() {
                    Some(parent) => attach(parent, name, value),
                    None => finished = Some((build.list, name, value)),
                }
            }
        }
        self.builds.retain(|build| !build.open.is_empty());
        finished
    }
}

fn collect_values<'a>(text: &'a str, survey: &Survey<'a>, plan: &Plan) -> Values<'a> {
    let mut values = Values {
        records: plan.records.iter().map(|_| (Vec::new(), None)).collect(),
        fields: Vec::new(),
    };
    // What each path's elements start: a record of list `i` (`Some(Some(i))`) or a field.
    let mut role: Vec<Option<Option<usize>>> = vec![None; survey.paths.list.len()];
    for (index, &path) in plan.records.iter().enumerate() {
        role[path] = Some(Some(index));
    }
    for &path in &plan.fields {
        role[path] = Some(None);
    }
    // The walk numbers the paths as the survey did (same text, same order, same cap), and stops
    // once every sample is full and every field read.
    let mut paths = Paths::default();
    let mut builder = Builder::default();
    let mut fields_left = plan.fields.len();
    let wanted = |values: &Values<'a>, list: usize| values.records[list].0.len() < SAMPLED_RECORDS;
    walk(text, &mut paths, &mut |event, depth| {
        match event {
            Event::Open {
                path,
                name,
                attributes: raw,
                ..
            } => {
                let start = path
                    .and_then(|path| role.get(path).copied().flatten())
                    .filter(|start| start.map_or(true, |list| wanted(&values, list)));
                builder.open(start, name, raw, depth);
            }
            Event::Text(raw, cdata) => builder.text(raw, cdata),
            Event::Close => match builder.close() {
                Some((Some(list), _, value)) => values.records[list].0.push(value),
                Some((None, name, value)) => {
                    fields_left -= 1;
                    values.fields.push((name, value));
                }
                None => {}
            },
        }
        !builder.builds.is_empty()
            || fields_left > 0
            || (0..plan.records.len()).any(|list| wanted(&values, list))
    });
    // The last record of a list longer than its sample, read where the survey saw it start.
    for (list, &path) in plan.records.iter().enumerate() {
        let info = &survey.paths.list[path];
        if info.count > values.records[list].0.len() {
            values.records[list].1 = element_at(text, info.last_offset);
        }
    }
    for (sample, last) in &mut values.records {
        as_lists_throughout(sample, last);
    }
    values
}

/// The value of the element whose start tag begins at `offset`.
fn element_at(text: &str, offset: usize) -> Option<Value<'_>> {
    let mut builder = Builder::default();
    let mut value = None;
    walk(
        text.get(offset..)?,
        &mut Paths::default(),
        &mut |event, depth| {
            match event {
                Event::Open {
                    name,
                    attributes: raw,
                    ..
                } => builder.open((depth == 0).then_some(None), name, raw, depth),
                Event::Text(raw, cdata) => builder.text(raw, cdata),
                Event::Close => value = builder.close().map(|(_, _, value)| value),
            }
            value.is_none()
        },
    );
    value
}

/// A child that some records repeat is a list in every record (one `category` and three are
/// the same field), so its values are counted as one field.
fn as_lists_throughout<'a>(sample: &mut [Value<'a>], last: &mut Option<Value<'a>>) {
    let mut repeated: Vec<String> = Vec::new();
    for record in sample.iter().chain(last.iter()) {
        if let Value::Map(entries, _) = record {
            for (key, value) in entries {
                if matches!(value, Value::List(..))
                    && repeated.len() < MAX_KEYS
                    && !repeated.iter().any(|r| r == key)
                {
                    repeated.push(key.to_string());
                }
            }
        }
    }
    for record in sample.iter_mut().chain(last.iter_mut()) {
        if let Value::Map(entries, _) = record {
            for (key, value) in entries.iter_mut() {
                if !matches!(value, Value::List(..)) && repeated.iter().any(|r| r == key) {
                    let single = std::mem::replace(value, Value::Null);
                    *value = Value::List(vec![single], 1);
                }
            }
        }
    }
}

/// The first `end` bytes of `text` (a char boundary), borrowed when `text` is.
fn prefix<'a>(text: &Cow<'a, str>, end: usize) -> Cow<'a, str> {
    match text {
        Cow::Borrowed(text) => Cow::Borrowed(&text[..end]),
        Cow::Owned(text) => Cow::Owned(text[..end].to_string()),
    }
}

/// `text` cut to at most `MAX_TEXT` bytes at a char boundary.
fn clipped(text: Cow<'_, str>) -> Cow<'_, str> {
    let mut end = text.len().min(MAX_TEXT);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    if end == text.len() {
        text
    } else {
        prefix(&text, end)
    }
}

/// Adds a piece of an element's text, up to `MAX_TEXT` bytes (whitespace-only pieces between
/// children become one space). A first piece is kept as it is (borrowed from the output when it
/// is), later ones are copied after it.
fn append_text<'a>(text: &mut Cow<'a, str>, piece: &Cow<'a, str>) {
    if piece.trim().is_empty() {
        if !text.is_empty() && !text.ends_with(' ') && text.len() < MAX_TEXT {
            text.to_mut().push(' ');
        }
        return;
    }
    let mut end = piece.len().min(MAX_TEXT.saturating_sub(text.len()));
    while !piece.is_char_boundary(end) {
        end -= 1;
    }
    if text.is_empty() {
        *text = prefix(piece, end);
    } else {
        text.to_mut().push_str(&piece[..end]);
    }
}

// ---------------------------------------------------------------- the synopsis

/// `key=value` pairs of a map's scalar entries and the sizes of its containers.
fn pairs(entries: &[(Cow<'_, str>, Value<'_>)]) -> Vec<String> {
    entries
        .iter()
        .map(|(key, value)| match value {
            Value::Map(_, n) => format!("{key}{{{n}}}"),
            Value::List(_, n) => format!("{key}[{n}]"),
            scalar => format!(
                "{key}={}",
                shown(&scalar.scalar_text().unwrap_or_default(), VALUE_WIDTH)
            ),
        })
        .collect()
}

/// How much a leaf says about its document: names and titles, then ids and versions, then
/// anything short, then URLs and long prose.
fn field_rank(name: &str, value: &str) -> usize {
    let name = local(name).to_ascii_lowercase();
    if LABELS.contains(&name.as_str()) {
        0
    } else if name.ends_with("id") || name.ends_with("name") || name.contains("version") {
        1
    } else if value.starts_with("http") || value.chars().count() > VALUE_WIDTH as usize {
        3
    } else {
        2
    }
}

fn render(survey: &Survey<'_>, plan: &Plan, values: Values<'_>) -> Synopsis {
    let paths = &survey.paths;
    let mut synopsis = Synopsis::new("xml", "XML output");
    // The document's own leaves, most telling first; its title or name goes in the summary.
    let mut leaves: Vec<(&str, String)> = values
        .fields
        .iter()
        .filter_map(|(name, value)| Some((*name, value.scalar_text()?.into_owned())))
        .filter(|(_, value)| !value.is_empty())
        .collect();
    stable_sort_by(&mut leaves, |a, b| {
        field_rank(a.0, &a.1).cmp(&field_rank(b.0, &b.1))
    });
    let title = leaves
        .iter()
        .position(|(name, _)| matches!(local(name).to_ascii_lowercase().as_str(), "title" | "name"))
        .map(|at| leaves.remove(at));
    let root = paths.list[survey.root].name;
    let root_attributes: Vec<String> = attributes(survey.root_attributes)
        .filter(|(key, value)| !is_plumbing(key) && !is_measurement(key, value))
        .take(ROOT_ATTRIBUTES)
        .map(|(key, value)| format!("{key}={}", shown(&decode(value), 40)))
        .collect();
    let mut summary = format!("XML {root}");
    if !root_attributes.is_empty() {
        summary.push_str(&format!(" ({})", root_attributes.join(", ")));
    }
    if let Some((_, value)) = &title {
        summary.push_str(&format!(": {}", shown(value, VALUE_WIDTH)));
    }
    summary.push('.');
    synopsis.summary.push(summary);

    let mut lines: Vec<String> = Vec::new();
    // Problem records first, rarest kind first: their names, then (later) their messages.
    let mut kinds = survey.flag_counts.clone();
    stable_sort_by(&mut kinds, |a, b| a.1.cmp(&b.1));
    if !kinds.is_empty() {
        let element = survey
            .flagged
            .iter()
            .find_map(|f| f.path)
            .map(|p| paths.display(p));
        let groups: Vec<String> = kinds
            .iter()
            .map(|(kind, n)| {
                let names: Vec<&str> = survey
                    .flagged
                    .iter()
                    .filter(|f| &f.kind == kind && !f.label.is_empty())
                    .map(|f| f.label.as_str())
                    .collect();
                if names.is_empty() {
                    format!("{kind} ({n})")
                } else {
                    format!("{kind} ({n}): {}", names.join(", "))
                }
            })
            .collect();
        let prefix = element.map_or(String::new(), |name| format!("{name} "));
        lines.push(format!("{prefix}{}", groups.join("; ")));
    }
    let mut later: Vec<String> = Vec::new();
    for (index, (&path, (sample, last))) in plan.records.iter().zip(&values.records).enumerate() {
        // The fields line names the path; the lines after it the element (`item first: ...`).
        let element = paths.list[path].name;
        let total = paths.list[path].count;
        let sample_refs: Vec<&Value<'_>> = sample.iter().collect();
        let last = last.as_ref().or(sample.last());
        let (fields, details) = untyped_record_lines(&sample_refs);
        let identity = |value: Option<&Value<'_>>, which: &str| {
            let value = value?;
            let id = record_identity(value, IDENTITY_WIDTH).or_else(|| fallback_identity(value))?;
            Some(format!("{which}: {id}"))
        };
        let sampled = if sample.len() < total {
            format!(", fields of the first {}", sample.len())
        } else {
            String::new()
        };
        let fields = fields.concat();
        let mut these = vec![format!(
            "{} ({total}{sampled}): {fields}",
            paths.display(path)
        )];
        let mut own = Vec::new();
        own.extend(identity(sample.first(), "first"));
        if total > 1 {
            own.extend(identity(last, "last"));
        }
        // Values every record shares (`all: ...`) come with the identities, the value counts
        // and rare states after the document's fields.
        let (shared, minor): (Vec<String>, Vec<String>) = details
            .into_iter()
            .partition(|line| line.starts_with("all: "));
        own.extend(shared);
        own.extend(ids_line(sample));
        // The first list's lines follow its fields line; the second's name their element.
        let named = |line: String| {
            if index == 0 {
                line
            } else {
                format!("{element} {line}")
            }
        };
        these.extend(own.into_iter().map(named));
        let minor = minor.into_iter().map(named);
        if index == 0 {
            lines.extend(these);
            later.extend(minor);
        } else {
            later.extend(these);
            later.extend(minor);
        }
    }
    // The document's own fields: its leaves on one line, then each container of fields.
    let body = paths.list[plan.body].name;
    if !leaves.is_empty() {
        let shown_leaves: Vec<String> = leaves
            .iter()
            .map(|(name, value)| format!("{name}={}", shown(value, VALUE_WIDTH)))
            .collect();
        lines.push(format!(
            "{body}: {}",
            joined_within(&shown_leaves, LINE_WIDTH)
        ));
    }
    for (name, value) in &values.fields {
        if let Value::Map(entries, _) = value {
            if entries.iter().any(|(_, v)| v.is_scalar()) {
                lines.push(format!(
                    "{name}: {}",
                    joined_within(&pairs(entries), LINE_WIDTH)
                ));
            }
        }
    }
    lines.extend(later);
    let messages: Vec<String> = survey
        .flagged
        .iter()
        .filter(|f| !f.message.is_empty())
        .map(|f| {
            if f.label.is_empty() {
                f.message.clone()
            } else {
                format!("{}: {}", f.label, f.message)
            }
        })
        .collect();
    if !messages.is_empty() {
        lines.push(format!("messages: {}", messages.join("; ")));
    }
    let children: Vec<String> = paths
        .children(survey.root)
        .map(|child| match paths.list[child].count {
            1 => paths.list[child].name.to_string(),
            n => format!("{} ({n})", paths.list[child].name),
        })
        .collect();
    if !children.is_empty() {
        lines.push(format!(
            "{root} children: {}",
            joined_within(&children, LINE_WIDTH)
        ));
    }
    // Every line clipped, and the lines past a total dropped: whatever the document, the
    // synopsis stays small (the stub's own bound clips it further).
    let mut total = 0;
    for line in lines {
        total += line.len().min(MAX_LINE_CHARS);
        if total > MAX_SYNOPSIS_CHARS {
            break;
        }
        synopsis.structure.push(clip(&line, MAX_LINE_CHARS as i64));
    }
    synopsis.summary = synopsis
        .summary
        .iter()
        .map(|line| clip(line, MAX_LINE_CHARS as i64))
        .collect();
    synopsis
}

/// A record without a name, title or id field: its first two scalar fields.
fn fallback_identity(record: &Value<'_>) -> Option<String> {
    let Value::Map(entries, _) = record else {
        return record.scalar_text().map(|text| shown(&text, VALUE_WIDTH));
    };
    let parts: Vec<String> = entries
        .iter()
        .filter_map(|(key, value)| {
            Some(format!(
                "{key}={}",
                shown(&value.scalar_text()?, IDENTITY_WIDTH)
            ))
        })
        .take(2)
        .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// The records' ids (their `id`, else `name` or `key`, whichever the first record has), each
/// once, in document order.
fn ids_line(records: &[Value<'_>]) -> Option<String> {
    let field = ["id", "name", "key"].into_iter().find(|field| {
        records
            .first()
            .and_then(|r| r.get(field))
            .is_some_and(Value::is_scalar)
    })?;
    let mut ids: Vec<String> = Vec::new();
    for record in records {
        if let Some(id) = record.get(field).and_then(Value::scalar_text) {
            let id = shown(&id, 40);
            if !ids.contains(&id) && ids.len() < 64 {
                ids.push(id);
            }
        }
    }
    (ids.len() > 1).then(|| format!("{field}s: {}", joined_within(&ids, LINE_WIDTH)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::synopsis_text;

    /// The survey as it was before `Surveyor`: events of `walk` read by a closure (the oracle of
    /// the differential test).
    fn walked_survey(text: &str) -> Option<Survey<'_>> {
        let mut paths = Paths::default();
        let mut root: Option<(Option<usize>, &str)> = None;
        let mut flagged: Vec<Flagged> = Vec::new();
        let mut flag_counts: Vec<(String, usize)> = Vec::new();
        // Per open element: its path, its attribute text, whether it is flagged already. The flag
        // whose message the next text gives, with the depth of that text.
        let mut open: Vec<(Option<usize>, &str, bool)> = Vec::new();
        let mut awaiting_message: Option<(usize, usize)> = None;
        walk(text, &mut paths, &mut |event, depth| {
            match event {
                Event::Open {
                    path,
                    name,
                    attributes: raw,
                    ..
                } => {
                    root.get_or_insert((path, raw));
                    let local_name = local(name);
                    let is_problem = PROBLEM_ELEMENTS
                        .iter()
                        .any(|p| local_name.eq_ignore_ascii_case(p));
                    if let Some((parent_path, parent_raw, flagged_already)) =
                        open.last_mut().filter(|_| is_problem)
                    {
                        if !*flagged_already {
                            *flagged_already = true;
                            let kind = local_name.to_ascii_lowercase();
                            count_kind(&mut flag_counts, &kind);
                            if flagged.len() < MAX_FLAGGED {
                                let message = ["message", "reason"]
                                    .iter()
                                    .find_map(|key| attribute(raw, key))
                                    .map(|m| first_line(&m))
                                    .unwrap_or_default();
                                if message.is_empty() {
                                    awaiting_message = Some((flagged.len(), depth + 1));
                                }
                                let label = label_attribute(parent_raw).unwrap_or_default();
                                flagged.push(Flagged {
                                    path: *parent_path,
                                    label,
                                    kind,
                                    message,
                                });
                            }
                        }
                    }
                    let problem = if raw.is_empty() {
                        None
                    } else {
                        problem_attribute(raw)
                    };
                    if let Some(kind) = &problem {
                        count_kind(&mut flag_counts, kind);
                        if flagged.len() < MAX_FLAGGED {
                            let label = label_attribute(raw).unwrap_or_default();
                            flagged.push(Flagged {
                                path,
                                label,
                                kind: kind.clone(),
                                message: String::new(),
                            });
                        }
                    }
                    open.push((path, raw, problem.is_some()));
                }
                Event::Text(piece, cdata) => {
                    if let Some((index, at_depth)) = awaiting_message {
                        if depth >= at_depth && !piece.trim().is_empty() {
                            let piece = if cdata {
                                Cow::Borrowed(piece)
                            } else {
                                decode(piece)
                            };
                            flagged[index].message = first_line(&piece);
                            awaiting_message = None;
                        }
                    }
                }
                Event::Close => {
                    open.pop();
                    if awaiting_message.is_some_and(|(_, at_depth)| depth < at_depth) {
                        awaiting_message = None;
                    }
                }
            }
            true
        });
        let (root, root_attributes) = root?;
        Some(Survey {
            paths,
            root: root?,
            root_attributes,
            flagged,
            flag_counts,
        })
    }

    fn text_of(output: &str) -> String {
        synopsis_text(&synopsis(output).expect("an XML synopsis"))
    }

    #[test]
    fn a_wrapped_list_of_entries_gives_the_title_the_count_the_fields_and_the_ends() {
        let mut feed = String::from("<?xml version=\"1.0\"?>\n<catalog format=\"3\"><shelf><label>Spring books</label><curator>ann</curator>");
        for i in 0..30 {
            let extra = if i % 2 == 0 {
                "<tag>a</tag><tag>b</tag>"
            } else {
                "<tag>c</tag>"
            };
            feed.push_str(&format!("<book lang=\"en\"><title>Book &amp; {i}</title><added>2024-01-{:02}</added>{extra}</book>", i % 28 + 1));
        }
        feed.push_str("</shelf></catalog>");
        let shown = text_of(&feed);
        assert!(shown.starts_with("XML catalog (format=3)"), "{shown}");
        assert!(
            shown.contains("shelf/book (30): title, lang, added, tag[]"),
            "{shown}"
        );
        assert!(
            shown.contains("first: title=Book & 0") && shown.contains("last: title=Book & 29"),
            "{shown}"
        );
        assert!(shown.contains("all: lang=en"), "{shown}");
        // The wrapper's leaves are the document's fields; a tag repeated in some records only is
        // one list field everywhere.
        assert!(
            shown.contains("shelf: label=Spring books, curator=ann"),
            "{shown}"
        );
        assert!(shown.contains("tag[]: a 15, b 15, c 15"), "{shown}");
    }

    #[test]
    fn records_with_a_problem_child_are_named_first_rarest_kind_first_with_their_messages() {
        let mut report = String::from("<results total=\"40\">");
        for suite in 0..2 {
            report.push_str(&format!("<suite name=\"s{suite}\">"));
            for case in 0..20 {
                let body = match (suite, case) {
                    (0, 3) => "<failure message=\"expected 1 got 2\">trace</failure>",
                    (1, 7) => "<failure>\n  boom happened\n  at x.rs:1</failure>",
                    (1, 9) => "<error type=\"Timeout\"><![CDATA[timed out after 5s]]></error>",
                    _ => "",
                };
                report.push_str(&format!(
                    "<case name=\"case {suite}-{case}\" t=\"0.1\">{body}</case>"
                ));
            }
            report.push_str("</suite>");
        }
        report.push_str("</results>");
        let synopsis = synopsis(&report).expect("an XML synopsis");
        assert_eq!(
            synopsis.structure[0],
            "suite/case error (1): case 1-9; failure (2): case 0-3, case 1-7"
        );
        let shown = synopsis_text(&synopsis);
        assert!(
            shown.contains("suite/case (40): name, failure[]")
                || shown.contains("suite/case (40): name"),
            "{shown}"
        );
        assert!(
            shown.contains("messages: case 0-3: expected 1 got 2; case 1-7: boom happened; case 1-9: timed out after 5s"),
            "{shown}"
        );
        // Per-suite case lists are long enough to be a list of their own, ahead of the suites.
        assert!(
            shown.find("suite/case (40)") < shown.find("suite (2)"),
            "{shown}"
        );
    }

    #[test]
    fn a_problem_attribute_flags_its_own_element() {
        let runs: String = (0..6)
            .map(|i| {
                let outcome = if i == 4 { "Failed" } else { "Passed" };
                format!("<Run testName=\"t{i}\" outcome=\"{outcome}\"/>")
            })
            .collect();
        let shown = text_of(&format!("<TestRun><Results>{runs}</Results></TestRun>"));
        assert!(
            shown.contains("Results/Run outcome=Failed (1): t4"),
            "{shown}"
        );
        assert!(shown.contains("outcome: Passed 5, Failed 1"), "{shown}");
    }

    #[test]
    fn repeated_elements_list_their_ids_and_shared_attributes_and_nested_short_lists_stay_fields() {
        let symbols: String = (0..12)
            .map(|i| format!("<symbol id=\"s-{i}\" box=\"0 0 8 8\"><path d=\"M{i}\"/><path d=\"L{i}\"/></symbol>"))
            .collect();
        let shown = text_of(&format!(
            "<sprite xmlns=\"urn:x\" style=\"a\"><name>set</name>{symbols}</sprite>"
        ));
        assert!(shown.starts_with("XML sprite: set."), "{shown}");
        assert!(shown.contains("symbol (12): id, path[], box"), "{shown}");
        assert!(shown.contains("ids: s-0, s-1, s-2"), "{shown}");
        assert!(shown.contains("all: box=0 0 8 8"), "{shown}");
        // Two paths per symbol are a field of the symbols, not a record list of their own.
        assert!(!shown.contains("symbol/path ("), "{shown}");
    }

    #[test]
    fn a_config_document_shows_its_leaves_and_its_containers_of_settings() {
        let deps: String = (0..5)
            .map(|i| format!("<dep><group>org.g{i}</group><artifact>lib-{i}</artifact></dep>"))
            .collect();
        let doc = format!(
            "<!DOCTYPE conf [<!ENTITY x \"y\">]><conf><!-- c --><artifactId>svc</artifactId><version>1.2.0</version>\
             <base><artifactId>base-parent</artifactId></base><settings><lang.level>17</lang.level></settings>\
             <deps>{deps}</deps><make/></conf>"
        );
        let shown = text_of(&doc);
        assert!(
            shown.contains("conf: artifactId=svc, version=1.2.0"),
            "{shown}"
        );
        assert!(
            shown.contains("base: artifactId=base-parent")
                && shown.contains("settings: lang.level=17"),
            "{shown}"
        );
        assert!(shown.contains("deps/dep (5): group, artifact"), "{shown}");
        // Records without a name, title or id are known by their first fields.
        assert!(
            shown.contains("first: group=org.g0, artifact=lib-0"),
            "{shown}"
        );
        assert!(
            shown.contains("conf children: artifactId, version, base, settings, deps, make"),
            "{shown}"
        );
    }

    #[test]
    fn tokens_step_over_markup_that_is_not_elements_and_decode_text() {
        let tokens: Vec<String> = Tokens { text: "<?pi x?><!-- <a> --><!DOCTYPE d [<!ELEMENT e (#PCDATA)>]><a k='v>'>x &lt;&#65;&#x42;&bogus; <![CDATA[<b>]]></a>< 3", at: 0 }
            .map(|token| match token {
                Token::Start(name, raw, empty) => format!("start {name}{raw} {empty}"),
                Token::End(name) => format!("end {name}"),
                Token::Text(raw) => format!("text {}", decode(raw)),
                Token::CData(raw) => format!("cdata {raw}"),
            })
            .collect();
        assert_eq!(
            tokens,
            [
                "start a k='v>' false",
                "text x <AB&bogus; ",
                "cdata <b>",
                "end a",
                "text <",
                "text  3"
            ]
        );
    }

    /// Everything a survey found, written out (paths with every count, the root, the flags).
    fn fingerprint(survey: Option<Survey<'_>>) -> String {
        let Some(survey) = survey else {
            return "none".to_string();
        };
        let mut out = String::new();
        for (id, info) in survey.paths.list.iter().enumerate() {
            let _ = writeln!(
                out,
                "{id} {:?} parent={:?} count={} parents={} last_parent={} last_offset={} structured={} children={:?}",
                info.name, info.parent, info.count, info.parents, info.last_parent, info.last_offset, info.structured, info.children
            );
        }
        let _ = writeln!(
            out,
            "top={:?} root={} root_attributes={:?}",
            survey.paths.top, survey.root, survey.root_attributes
        );
        for flag in &survey.flagged {
            let _ = writeln!(
                out,
                "flag {:?} {:?} {:?} {:?}",
                flag.path, flag.label, flag.kind, flag.message
            );
        }
        let _ = writeln!(out, "counts {:?}", survey.flag_counts);
        out
    }

    /// A generated document: record lists (nested, with attributes), problem records past the
    /// sample, CDATA, comments, entities, declarations, and (with `broken`) the markup errors a
    /// tolerant scanner must read the same way whatever its shortcuts.
    fn generated_document(seed: u32, broken: bool) -> String {
        let mut state = seed;
        let mut next = move |n: u32| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) % n
        };
        const NAMES: [&str; 12] = [
            "item", "case", "name", "x:error", "failure", "Error", "count", "é", "a_b", "suite",
            "v", "fault",
        ];
        const ATTRIBUTES: [&str; 10] = [
            " id=\"7\"",
            " status=\"failed\"",
            " x:Outcome = ' Failed '",
            " name='n &amp; m'",
            " message=\"boom\nline 2\"",
            " kind=\"a>b\"",
            " state=ok",
            " result",
            "  ",
            " testname=\"t\" conclusion=\"aborted\"",
        ];
        const TEXTS: [&str; 9] = [
            "text",
            "  ",
            "\n  ",
            "a &lt; b &#65;",
            "<![CDATA[ <raw> ]]>",
            "<!-- c <a> -->",
            "<?pi x?>",
            "&bogus;",
            "1.5",
        ];
        const BROKEN: [&str; 13] = [
            "<",
            "< x",
            "</>",
            "</item >",
            "</item x>",
            "<a\"b>\"c>",
            "<a/b>",
            "<![CDATA[",
            "<!--",
            "<!DOCTYPE d [<!ENTITY e 'f'>]>",
            "</nope>",
            "<q '",
            "</a\"b>\"c>",
        ];
        let mut out = String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE root>");
        let mut open: Vec<&str> = Vec::new();
        let steps = 200 + next(2_000);
        for _ in 0..steps {
            match next(if broken { 12 } else { 10 }) {
                0..=3 if open.len() < 70 => {
                    let name = NAMES[next(NAMES.len() as u32) as usize];
                    out.push('<');
                    out.push_str(name);
                    for _ in 0..next(3) {
                        out.push_str(ATTRIBUTES[next(ATTRIBUTES.len() as u32) as usize]);
                    }
                    if next(5) == 0 {
                        out.push_str(if next(2) == 0 { "/>" } else { " />" });
                    } else {
                        out.push('>');
                        open.push(name);
                    }
                }
                4..=6 => {
                    if let Some(name) = open.pop() {
                        out.push_str(&format!("</{name}>"));
                    }
                }
                7..=9 => out.push_str(TEXTS[next(TEXTS.len() as u32) as usize]),
                _ => out.push_str(BROKEN[next(BROKEN.len() as u32) as usize]),
            }
        }
        while let Some(name) = open.pop() {
            if next(4) != 0 {
                out.push_str(&format!("</{name}>"));
            }
        }
        out
    }

    #[test]
    fn start_tags_read_by_their_shortcuts_as_by_the_general_reading() {
        // The general reading: the tag up to its end (quotes respected), less `>` and a closing
        // `/`; the name runs to whitespace or `/`. `start_tag`'s shortcuts must agree with it.
        fn general(text: &str) -> (usize, &str, &str, bool) {
            let end = tag_end(text, 1);
            let inside = text[1..end].strip_suffix('>').unwrap_or(&text[1..end]);
            let (inside, empty) = inside
                .strip_suffix('/')
                .map_or((inside, false), |inside| (inside, true));
            let name_len = inside
                .bytes()
                .position(|b| b.is_ascii_whitespace() || b == b'/')
                .unwrap_or(inside.len());
            (end, &inside[..name_len], &inside[name_len..], empty)
        }
        let tags = [
            "<a>",
            "<a/>",
            "<a />",
            "<a b=\"1\">",
            "<a b='>'/>",
            "<a\tb=\"x/\" />",
            "<a/b>",
            "<a\"q>\">",
            "<a'q'>",
            "<a",
            "<a b",
            "<a />x",
            "<a\x0cb='1'>",
            "<ns:a xmlns:ns='u'>",
            "<é b='é'/>",
        ];
        let problem_tags = [
            "<a status='failed'>",
            "<a state\t=\tfailed/>",
            "<a x:Result = \"error\">",
            "<a k='=' OUTCOME=Broken>",
        ];
        for tag in tags.into_iter().chain(problem_tags) {
            let read = start_tag(tag, 0);
            assert_eq!(
                (read.end, read.name, read.raw, read.empty),
                general(tag),
                "{tag:?}"
            );
            // The filter read with the tag's end passes every tag with a problem attribute.
            assert!(
                read.may_hold_problem || problem_attribute(read.raw).is_none(),
                "{tag:?}"
            );
            assert_eq!(
                problem_attribute(read.raw).is_some(),
                problem_tags.contains(&tag),
                "{tag:?}"
            );
        }
    }

    #[test]
    fn the_fused_survey_finds_what_the_event_walk_finds() {
        let mut checked = 0;
        for seed in 0..400 {
            let document = generated_document(seed, seed % 2 == 1);
            // Every cut of a few bytes too: unclosed tags, quotes, comments, CDATA.
            let cuts = [
                document.len(),
                document.len() * 2 / 3,
                document.len() / 3 + seed as usize % 7,
            ];
            for cut in cuts {
                let Some(text) = document.get(..cut) else {
                    continue;
                };
                let (fused, walked) = (fingerprint(survey(text)), fingerprint(walked_survey(text)));
                let first_difference = fused.lines().zip(walked.lines()).find(|(a, b)| a != b);
                assert!(
                    fused == walked,
                    "seed {seed} cut {cut}: {first_difference:?}\n{text}"
                );
                checked += 1;
            }
        }
        assert!(checked > 1_000, "{checked}");
        // Record lists past the sample with problem records far past it; nesting past `MAX_DEPTH`.
        let mut long = String::from("<run>");
        for i in 0..5_000 {
            let problem = match i % 1_777 {
                1_000 => "<failure>\n <![CDATA[late trace]]></failure>",
                1_500 => "<error message='late'/>",
                _ => "",
            };
            let status = if i == 4_321 { "failed" } else { "passed" };
            long.push_str(&format!(
                "<test name=\"t{i}\" status=\"{status}\"><v>{i}</v>{problem}</test>\n"
            ));
        }
        long.push_str(&"<deep>".repeat(100));
        long.push_str("</run>");
        let found = fingerprint(survey(&long));
        assert!(
            found.contains("counts [(\"failure\", 3), (\"error\", 2), (\"status=failed\", 1)]"),
            "{found}"
        );
        assert_eq!(found, fingerprint(walked_survey(&long)));
    }

    /// A generated document of records that repeat one shape (what the survey's predictions
    /// expect), broken now and then by names that share a prefix with the expected one, tags
    /// that end in every way a name can end, problem attributes written every way, and markup
    /// errors, so that each guess is sometimes right and sometimes nearly right.
    fn repetitive_document(seed: u32) -> String {
        let mut state = seed;
        let mut next = move |n: u32| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) % n
        };
        const FIELDS: [&str; 4] = ["name", "count", "x:state", "é"];
        const NEAR: [&str; 10] = [
            "names",
            "nam",
            "Name",
            "name\"q\"",
            "coun",
            "x:stat",
            "x:stated",
            "éé",
            "failure",
            "x:error",
        ];
        const ENDINGS: [&str; 8] = [
            ">",
            " >",
            "\t>",
            "/>",
            " />",
            "\n  a='1'>",
            " b=\"x>y\">",
            "/ >",
        ];
        const ATTRIBUTES: [&str; 9] = [
            " id=\"3\"",
            " status=\"failed\"",
            " state=failed",
            " Result\t=\n'Error'",
            " x:outcome = \" aborted \"",
            " kind=\"s=t\"",
            " conclusion='ok'",
            " n='a=b' status='timeout'",
            " e=",
        ];
        let mut out = String::from("<?xml version=\"1.0\"?>\n<catalog>");
        for _ in 0..50 + next(300) {
            let record = if next(20) == 0 { "items" } else { "item" };
            out.push_str("\n  <");
            out.push_str(record);
            for _ in 0..next(3) {
                out.push_str(ATTRIBUTES[next(ATTRIBUTES.len() as u32) as usize]);
            }
            out.push('>');
            for (at, field) in FIELDS.iter().enumerate() {
                if next(8) == 0 {
                    continue;
                }
                let name = if next(10) == 0 {
                    NEAR[next(NEAR.len() as u32) as usize]
                } else {
                    field
                };
                out.push('<');
                out.push_str(name);
                if next(6) == 0 {
                    out.push_str(ATTRIBUTES[next(ATTRIBUTES.len() as u32) as usize]);
                }
                let ending = if next(4) == 0 {
                    ENDINGS[next(ENDINGS.len() as u32) as usize]
                } else {
                    ">"
                };
                out.push_str(ending);
                if !ending.ends_with("/>") {
                    out.push_str(
                        ["v", "a &amp; b", "<![CDATA[x]]>", "", "<!-- c -->"]
                            [(next(5) as usize + at) % 5],
                    );
                    if next(30) != 0 {
                        let closing = name.split(['"', ' ']).next().unwrap_or(name);
                        out.push_str(&format!("</{closing}>"));
                    }
                }
            }
            if next(25) != 0 {
                out.push_str(&format!("</{record}>"));
            }
        }
        out.push_str("\n</catalog>");
        out
    }

    #[test]
    fn the_survey_s_guesses_of_the_next_name_change_nothing_it_finds() {
        let mut predicted = 0;
        for seed in 0..300 {
            let document = repetitive_document(seed);
            for cut in [document.len(), document.len() / 2 + seed as usize % 11] {
                let Some(text) = document.get(..cut) else {
                    continue;
                };
                let (fused, walked) = (fingerprint(survey(text)), fingerprint(walked_survey(text)));
                let first_difference = fused.lines().zip(walked.lines()).find(|(a, b)| a != b);
                assert!(
                    fused == walked,
                    "seed {seed} cut {cut}: {first_difference:?}\n{text}"
                );
                predicted +=
                    usize::from(fused.contains("status=failed") && fused.contains("\"items\""));
            }
        }
        // The generator reaches what the guesses must get right.
        assert!(predicted > 50, "{predicted}");
    }

    #[test]
    fn hostile_documents_stay_bounded_and_never_panic() {
        let deep = "<a>".repeat(100_000) + "x" + &"</a>".repeat(100_000);
        let many_attributes = format!(
            "<r {}/>",
            (0..50_000)
                .map(|i| format!("a{i}=\"{i}\""))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let many_names: String = (0..20_000).map(|i| format!("<n{i}>v</n{i}>")).collect();
        let wide_record: String = (0..300)
            .map(|i| {
                format!(
                    "<rec>{}</rec>",
                    (0..200)
                        .map(|j| format!("<f{j}>{i}</f{j}>"))
                        .collect::<String>()
                )
            })
            .collect();
        for output in [
            deep,
            many_attributes,
            format!("<root>{many_names}</root>"),
            format!("<root>{wide_record}</root>"),
            "<a><b><c>unclosed".to_string(),
            "</x></y><a attr=\"never closed".to_string(),
            "<a><![CDATA[never closed".to_string(),
            "<a><!-- never closed".to_string(),
            "<<<<>>>></></>".to_string(),
            "<é ü=\"ß\">ñ&#1114112;&#xD800;</é>".to_string(),
        ] {
            if let Some(synopsis) = synopsis(&output) {
                let chars: usize = synopsis.lines().map(|line| line.chars().count()).sum();
                assert!(
                    chars <= 8_000,
                    "{chars} chars for {}",
                    &output[..output.len().min(40)]
                );
            }
        }
        assert!(synopsis("no markup here").is_none());
    }

    #[test]
    fn detection_takes_parsed_xml_and_text_that_declares_itself_xml() {
        let reference = Synopsis::new("text", "Text output");
        let input = |output, mime, kind| Input {
            output,
            mime,
            reference_kind: kind,
            reference: &reference,
        };
        assert!(detect(&input("<a><b/></a>", "text/plain", "xml")).is_some());
        assert!(detect(&input(
            "<?xml version=\"1.0\"?><a><b></a>",
            "text/plain",
            "text"
        ))
        .is_some());
        assert!(detect(&input("<a><b></a>", "application/xml", "text")).is_some());
        assert!(detect(&input("<a><b></a>", "text/plain", "text")).is_none());
        assert!(detect(&input("a log line <xml>", "application/xml", "text")).is_none());
    }
}
