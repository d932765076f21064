//! The XML tokenizer and the element walk both passes share.

use super::*;

/// One piece of markup, borrowed from the output.
pub(super) enum Token<'a> {
    /// A start tag: its name, the raw text of its attributes, and whether it closes itself.
    Start(&'a str, &'a str, bool),
    End(&'a str),
    /// Character data as written (entities not yet decoded), or the inside of a CDATA section.
    Text(&'a str),
    CData(&'a str),
}

/// The tokens of `text` in one forward scan: each step moves past what it read.
pub(super) struct Tokens<'a> {
    pub(super) text: &'a str,
    pub(super) at: usize,
}

/// The offset just past the first `needle` at or after `from`, or the end of `text`.
pub(super) fn past(text: &str, from: usize, needle: &str) -> usize {
    text[from..]
        .find(needle)
        .map_or(text.len(), |at| from + at + needle.len())
}

/// Whether `c` may start an element name.
pub(super) fn name_start(c: char) -> bool {
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
pub(super) fn tag_end(text: &str, from: usize) -> usize {
    tag_end_noting::<false>(text, from).0
}

/// Whether the byte before an `=` at `at` may end a problem attribute's name (or the
/// whitespace after it): what [`may_hold_problem_attribute`] looks for, or more.
#[inline(always)]
pub(super) fn may_name_problem(bytes: &[u8], at: usize) -> bool {
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
pub(super) fn tag_end_noting<const EQUALS: bool>(text: &str, from: usize) -> (usize, bool) {
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
pub(super) fn find_byte(bytes: &[u8], from: usize, byte: u8) -> usize {
    swar::find_byte(bytes, from, byte).unwrap_or(bytes.len().max(from))
}

/// The offset past a `<!...>` declaration (a DOCTYPE's internal subset in `[...]` included).
pub(super) fn declaration_end(text: &str, from: usize) -> usize {
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
pub(super) fn attributes(raw: &str) -> impl Iterator<Item = (&str, &str)> {
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
pub(super) fn attribute<'a>(raw: &'a str, name: &str) -> Option<Cow<'a, str>> {
    attributes(raw)
        .find(|(key, _)| local(key).eq_ignore_ascii_case(name))
        .map(|(_, value)| decode(value))
}

/// A name without its namespace prefix.
pub(super) fn local(name: &str) -> &str {
    match name.bytes().rposition(|byte| byte == b':') {
        Some(colon) => &name[colon + 1..],
        None => name,
    }
}

/// Text with the predefined entities and character references decoded (others kept as written).
pub(super) fn decode(raw: &str) -> Cow<'_, str> {
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
pub(super) enum Event<'a> {
    Open {
        path: Option<usize>,
        name: &'a str,
        attributes: &'a str,
    },
    /// Character data as written, or a CDATA section's inside (`true`).
    Text(&'a str, bool),
    Close,
}

pub(super) struct Frame<'a> {
    pub(super) name: &'a str,
    pub(super) path: Option<usize>,
    pub(super) serial: usize,
    pub(super) children: bool,
    pub(super) attributes: bool,
}

/// One element path (`channel/item`) and how its elements occur.
pub(super) struct PathInfo<'a> {
    pub(super) name: &'a str,
    pub(super) parent: Option<usize>,
    pub(super) count: usize,
    /// Parent elements holding at least one of these (so `count > parents` means repeated).
    pub(super) parents: usize,
    pub(super) last_parent: usize,
    /// Where the last of these elements starts.
    pub(super) last_offset: usize,
    /// The first `LISTED_CHILDREN` child paths, by name.
    pub(super) children: Vec<(&'a str, usize)>,
    /// Elements with attributes or child elements (records rather than text leaves).
    pub(super) structured: usize,
    /// What the survey expects to open next (`NO_PATH` for nothing): the child path that last
    /// opened first in one of these elements, and the sibling path that last opened after one
    /// of these. A guess checked against the text before it is used, never trusted.
    pub(super) first_child: usize,
    pub(super) next_sibling: usize,
    /// Whether the name holds none of the bytes that end a start tag's name (whitespace, `/`,
    /// `>`, quotes), so that the name followed by one of them in the text is that name.
    pub(super) predictable: bool,
    /// Whether the name is a problem child's ([`is_problem_element`]).
    pub(super) problem: bool,
}

/// No path (an unset prediction hint).
pub(super) const NO_PATH: usize = usize::MAX;

/// Whether `byte` ends a start tag's name as [`start_tag`] reads it.
#[inline(always)]
pub(super) fn ends_name(byte: u8) -> bool {
    byte.is_ascii_whitespace() || matches!(byte, b'/' | b'>' | b'"' | b'\'')
}

#[derive(Default)]
pub(super) struct Paths<'a> {
    pub(super) list: Vec<PathInfo<'a>>,
    /// Top-level paths (the root's), as `PathInfo::children`.
    pub(super) top: Vec<(&'a str, usize)>,
    /// Path ids by `parent id/name` past a parent's `LISTED_CHILDREN` (a `String` key: the map
    /// type the wasm already has).
    pub(super) index: HashMap<String, usize>,
    pub(super) key: String,
}

/// Walks the elements of `text`, keeping the open ones on a bounded stack and counting their
/// paths in `paths`; tokens past the root's end are read as further top-level elements. `Close`
/// comes for every opened element, those a stray end tag or the end of the text closes included.
/// `on` gets each event with the depth of its element (0 for the root), and stops the walk by
/// answering `false`.
pub(super) fn walk<'a>(
    text: &'a str,
    paths: &mut Paths<'a>,
    on: &mut dyn FnMut(Event<'a>, usize) -> bool,
) {
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
pub(super) fn close<'a>(
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
    pub(super) fn enter(
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
    pub(super) fn count(&mut self, id: usize, parent_serial: usize, offset: usize) {
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
    pub(super) fn display(&self, id: usize) -> String {
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

    pub(super) fn children(&self, id: usize) -> impl Iterator<Item = usize> + '_ {
        (id + 1..self.list.len()).filter(move |&child| self.list[child].parent == Some(id))
    }

    pub(super) fn is_repeated_record(&self, id: usize) -> bool {
        let info = &self.list[id];
        info.count >= 3 && info.count > info.parents && info.structured * 2 > info.count
    }
}
