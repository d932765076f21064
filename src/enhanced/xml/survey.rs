//! Pass 1: the survey of the document's paths, records and problems.

use super::*;

/// A record flagged by a problem child or attribute.
pub(super) struct Flagged {
    pub(super) path: Option<usize>,
    pub(super) label: String,
    /// `failure`, `error`, `outcome=Failed`.
    pub(super) kind: String,
    pub(super) message: String,
}

pub(super) struct Survey<'a> {
    pub(super) paths: Paths<'a>,
    pub(super) root: usize,
    pub(super) root_attributes: &'a str,
    pub(super) flagged: Vec<Flagged>,
    /// Problem records found (all of them), per kind in first-seen order.
    pub(super) flag_counts: Vec<(String, usize)>,
}

/// The label of an element from its attributes.
pub(super) fn label_attribute(raw: &str) -> Option<String> {
    LABELS
        .iter()
        .find_map(|name| attribute(raw, name).filter(|value| !value.trim().is_empty()))
        .map(|value| shown(&value, VALUE_WIDTH))
}

/// The first line of a message, clipped.
pub(super) fn first_line(text: &str) -> String {
    let line = text.trim().split('\n').next().unwrap_or("");
    shown(line, MESSAGE_WIDTH)
}

/// Counts `kind` in `counts` (first-seen order).
pub(super) fn count_kind(counts: &mut Vec<(String, usize)>, kind: &str) {
    match counts.iter_mut().find(|(k, _)| k == kind) {
        Some(slot) => slot.1 += 1,
        None => counts.push((kind.to_string(), 1)),
    }
}

/// A problem attribute of a start tag: `outcome=Failed`.
pub(super) fn problem_attribute(raw: &str) -> Option<String> {
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
pub(super) fn is_problem_element(name: &str) -> bool {
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
pub(super) fn may_hold_problem_attribute(raw: &str) -> bool {
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
pub(super) fn same_name(a: &str, b: &str) -> bool {
    same_bytes(a.as_bytes(), b.as_bytes())
}

/// [`same_name`] of bytes.
#[inline(always)]
pub(super) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// An element open in the survey: where its path stands and what problem detection needs.
pub(super) struct Open<'a> {
    pub(super) name: &'a str,
    pub(super) path: Option<usize>,
    pub(super) serial: usize,
    /// Whether it has child elements, and attributes (what makes it structured).
    pub(super) children: bool,
    pub(super) attributes: bool,
    pub(super) raw: &'a str,
    /// Whether it is counted as a problem record already.
    pub(super) flagged: bool,
    /// Whether its name holds no `>` (so `</name>` can close it by a plain comparison).
    pub(super) plain: bool,
    /// The path of its child element opened last (`NO_PATH` before the first).
    pub(super) last_child: usize,
    /// The path its next child is expected to have (`NO_PATH`: no guess): its path's
    /// `first_child` until a child opens, then that child's path's `next_sibling`. Read when the
    /// guess is made, these are what [`Surveyor::predicted`] would look up: only this element
    /// (the one open element of its path) changes them before its next child opens.
    pub(super) expect: usize,
}

/// The survey's walk: the element walk of [`walk`] (same paths, same order, same caps, same
/// closing of stray and missing end tags) fused with the problem-record detection, with no
/// per-token dispatch and text read only while a problem record waits for its message.
pub(super) struct Surveyor<'a> {
    pub(super) paths: Paths<'a>,
    pub(super) stack: Vec<Open<'a>>,
    /// Elements opened past `MAX_DEPTH` and not closed yet.
    pub(super) hidden: usize,
    pub(super) serial: usize,
    pub(super) root: Option<(Option<usize>, &'a str)>,
    pub(super) flagged: Vec<Flagged>,
    pub(super) flag_counts: Vec<(String, usize)>,
    /// The flag whose message the next text gives, with the depth that text must have.
    pub(super) awaiting_message: Option<(usize, usize)>,
}

impl<'a> Surveyor<'a> {
    /// The path the element whose start tag begins at `start` has when its name is the one
    /// the innermost open element's children last had in this place (the child that followed
    /// its last child, or its first child), with the offset past that name: the path
    /// [`Paths::enter`] would find for it, without reading the name or looking it up.
    #[inline(always)]
    pub(super) fn predicted(&self, bytes: &[u8], start: usize) -> Option<(usize, usize)> {
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
            && bytes.get(name_end).is_none_or(|&byte| byte.is_ascii_whitespace() || matches!(byte, b'/' | b'>'));
        same.then_some((hint, name_end))
    }

    /// Records that a child of path `id` opened in the innermost open element: what the next
    /// sibling's (or the next such element's first child's) prediction reads.
    #[inline(always)]
    pub(super) fn note_child(&mut self, id: usize) {
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
    pub(super) fn may_read_leaf(&self, id: usize) -> bool {
        self.awaiting_message.is_none() && self.paths.list.get(id).is_some_and(|info| !info.problem)
    }

    /// A leaf element of path `id` (found by [`Surveyor::predicted`], no attributes, its text
    /// then its own end tag, and [`Surveyor::may_read_leaf`]): counted as [`Surveyor::start`],
    /// [`Surveyor::text`] and [`Surveyor::closes_top`] count it (an element neither structured
    /// nor a problem, whose text gives no message), without a frame.
    #[inline(always)]
    pub(super) fn leaf(&mut self, id: usize, offset: usize) {
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
    pub(super) fn start(&mut self, tag: &StartTag<'a>, offset: usize, known: Option<usize>) {
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
    pub(super) fn closes_top(&mut self, bytes: &[u8], name_at: usize) -> Option<usize> {
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
    pub(super) fn end(&mut self, name: &str) {
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
    pub(super) fn close(&mut self, frame: &Open<'a>) {
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
    pub(super) fn text(&mut self, piece: &str, cdata: bool) {
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
pub(super) struct StartTag<'a> {
    /// The offset past it.
    pub(super) end: usize,
    pub(super) name: &'a str,
    /// Whether the name holds no `>` (only a quoted one, in a tag not well-formed, can).
    pub(super) plain: bool,
    /// The raw text of its attributes.
    pub(super) raw: &'a str,
    /// Whether it closes itself.
    pub(super) empty: bool,
    /// Whether its attributes may hold a problem attribute (`false`: they hold none).
    pub(super) may_hold_problem: bool,
}

/// The start tag whose `<` is at `start`.
#[inline(always)]
pub(super) fn start_tag(text: &str, start: usize) -> StartTag<'_> {
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
pub(super) fn start_tag_from(text: &str, start: usize, name_end: usize) -> StartTag<'_> {
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
pub(super) fn survey(text: &str) -> Option<Survey<'_>> {
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
