//! A fast path for the common shapes of YAML tool outputs: block mappings and block sequences
//! whose scalars fit on their line, with comments and blank lines, as Kubernetes manifests and
//! config dumps write them. It reads the text line by line instead of token by token, and builds
//! nothing but the top-level summary.
//!
//! Beside plain scalars (also folded over more indented lines) it takes: quoted scalars (escapes
//! checked as PyYAML's scanner does; values may go on over lines), one-line flow collections of
//! such scalars (`args: ["--port", "80"]`, `{app: x}`), literal and folded block scalars without
//! an indentation indicator, anchors on values, aliases as whole values, and `<<: *alias` merges
//! of an earlier, finished, merge-free mapping into a nested mapping.
//!
//! It is only an accelerator: it answers only when it is sure of PyYAML's result, and gives up
//! (`None`) on anything outside that shape or anything doubtful (tags, multi-line flow
//! collections, quoted keys, a flow entry with an empty value, `?` keys, anchors or aliases
//! inside flow collections, an alias to a node not yet finished, tabs, CR, plain scalars with
//! blank lines or comments inside, merges at the root, non-string top-level keys, a scalar that
//! does not construct, ...). The full port in the parent module then decides, so a wrong give-up
//! costs time, never parity. The parent's differential tests run both on the same inputs.

use super::{
    construct_yaml_float, construct_yaml_int, construct_yaml_timestamp, is_plain_small_decimal,
    resolve_plain_scalar, type_name, PyScalar, Tag, TopLevel, MAX_LISTED_KEYS,
};
use crate::python::swar::{bytes_below, bytes_equal, HIGH_BITS, WORD_BYTES};
use std::collections::HashMap;

/// Deeper block nesting gives up: PyYAML's own limit (`MAX_NESTING_DEPTH`) is the port's business.
const MAX_SIMPLE_DEPTH: usize = 64;

/// Deeper flow nesting gives up too (block and flow depth together stay far below PyYAML's limit).
const MAX_SIMPLE_FLOW_DEPTH: usize = 16;

/// A simple key longer than 1024 chars is an error in PyYAML; long keys are left to the port.
const MAX_SIMPLE_KEY_BYTES: usize = 1000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    Mapping,
    Sequence,
    /// A sequence whose `- ` entries sit at the indentation of the mapping key that owns it.
    IndentlessSequence,
}

#[derive(Debug, Clone, Copy)]
struct Block<'a> {
    kind: BlockKind,
    /// Column of its keys or `-` entries.
    indent: usize,
    /// The anchor on this collection, finished when the block closes.
    anchor: Option<&'a str>,
}

/// Where the value of an entry whose content is on later lines goes, and what may start it.
#[derive(Debug, Clone, Copy)]
struct Pending<'a> {
    /// Column of the key or `-` that is waiting for its value.
    owner_indent: usize,
    /// A mapping key's value may be an indentless sequence at the key's own column.
    after_key: bool,
    /// The top-level entry (index into `entries`) whose type this value decides, if any.
    top_entry: Option<usize>,
    /// The anchor written before the value (`key: &name`).
    anchor: Option<&'a str>,
}

/// What an alias to an anchor may stand for.
#[derive(Debug, Clone, Copy)]
struct Anchored {
    type_name: &'static str,
    /// PyYAML registers an anchor when its node starts; an alias inside the node itself (a
    /// recursive structure) is left to the port.
    finished: bool,
    /// The anchored mapping holds a `<<` key of its own: merging it is left to the port.
    has_merge: bool,
}

/// A literal or folded block scalar whose content lines are being skipped.
#[derive(Debug, Clone, Copy)]
struct BlockScalar {
    /// PyYAML's `max(self.indent + 1, 1)`: one more than the column of the innermost block.
    min_indent: usize,
    /// The content's column, fixed by the first line that is not blank.
    indent: Option<usize>,
    /// The most spaces on a blank line before that one (PyYAML's `max_indent`).
    blank_indent: usize,
}

impl BlockScalar {
    /// Whether the line (starting at `column`, blank or not) is content of the scalar; `None`
    /// when PyYAML would read the next line as something this fast path does not vouch for.
    fn takes(&mut self, column: usize, blank: bool) -> Option<bool> {
        if blank {
            if self.indent.is_none() {
                self.blank_indent = self.blank_indent.max(column);
            }
            return Some(true);
        }
        match self.indent {
            Some(indent) => Some(column >= indent),
            // Less indented than the block allows: the scalar is empty and the line is the
            // parent's again.
            None if column < self.min_indent => Some(false),
            // Blank lines with more spaces than the first content line: PyYAML's indentation is
            // theirs, the scalar ends empty and the line that follows is an error.
            None if column < self.blank_indent => None,
            None => {
                self.indent = Some(column);
                Some(true)
            }
        }
    }
}

/// A plain scalar value that may go on over more indented lines, folded into one.
struct PlainScalar<'a> {
    /// PyYAML's `self.indent + 1`: continuation lines start at this column or deeper.
    min_indent: usize,
    /// The top-level entry whose type the value decides, if any.
    top_entry: Option<usize>,
    first: &'a str,
    /// The value so far, once a continuation line came.
    folded: Option<String>,
    /// A comment ended the scalar: a continuation line is an error.
    closed: bool,
    after_blank: bool,
}

struct Summary<'a> {
    blocks: Vec<Block<'a>>,
    pending: Option<Pending<'a>>,
    /// Root mapping entries as listed (first 30 distinct keys, last value's type).
    entries: Vec<(String, &'static str)>,
    root_sequence_length: usize,
    root_started: bool,
    anchors: HashMap<&'a str, Anchored>,
    block_scalar: Option<BlockScalar>,
    plain: Option<PlainScalar<'a>>,
    /// Whether the line being read has a comment.
    line_has_comment: bool,
    /// A quoted scalar value going on over lines: whether it is double-quoted.
    open_quoted: Option<bool>,
    text: &'a str,
    /// Where the line being read ends.
    line_end: usize,
}

/// Loads `text` when it has the simple shape; `None` to let the full port decide.
pub(super) fn load(text: &str) -> Option<TopLevel> {
    let mut summary = Summary {
        blocks: Vec::new(),
        pending: None,
        entries: Vec::new(),
        root_sequence_length: 0,
        root_started: false,
        anchors: HashMap::new(),
        block_scalar: None,
        plain: None,
        line_has_comment: false,
        open_quoted: None,
        text,
        line_end: 0,
    };
    let mut document_start_allowed = true;
    let mut line_start = 0;
    while line_start <= text.len() {
        let line = LineShape::scan(text.as_bytes(), line_start)?;
        let rest = text.get(line.content_start..line.end)?;
        line_start = line.end + 1;
        let column = line.content_start - line.start;
        if let Some(double) = summary.open_quoted {
            // PyYAML skips the line's leading blanks and refuses a document marker.
            if column == 0 && is_document_marker(rest) {
                return None;
            }
            match scan_quoted(rest.as_bytes(), 0, double) {
                QuotedScan::Open => {}
                QuotedScan::Closed(end) if is_blank_or_comment(rest.get(end..)?) => {
                    summary.open_quoted = None;
                }
                QuotedScan::Closed(_) | QuotedScan::Invalid => return None,
            }
            continue;
        }
        if let Some(block_scalar) = summary.block_scalar.as_mut() {
            if block_scalar.takes(column, rest.is_empty())? {
                continue;
            }
            summary.block_scalar = None;
        }
        // A plain scalar ends at ` #`; nothing else on these lines can hide a `#`.
        let content = match line.comment {
            Some(comment) => text.get(line.content_start..comment)?,
            None => rest,
        }
        .trim_end_matches(' ');
        if let Some(plain) = &summary.plain {
            if plain.folded.is_none() && column < plain.min_indent && !rest.is_empty() {
                // The common case: a one-line value, and the next line is its parent's.
                summary.plain = None;
            } else if summary.continue_plain(column, rest, content, line.comment.is_some())? {
                continue;
            }
        }
        if rest.is_empty() || rest.starts_with('#') {
            continue;
        }
        if column == 0
            && matches!(
                rest.as_bytes(),
                [b'-', b'-', b'-', ..] | [b'.', b'.', b'.', ..]
            )
        {
            // One leading `---` alone on its line; any other marker or directive: give up.
            if !(document_start_allowed && rest.trim_end_matches(' ') == "---") {
                return None;
            }
            document_start_allowed = false;
            continue;
        }
        document_start_allowed = false;
        summary.line_has_comment = line.comment.is_some();
        summary.line_end = line.end;
        summary.line(column, content)?;
    }
    summary.finish()
}

/// `---` or `...` followed by a space or the end of the line.
fn is_document_marker(rest: &str) -> bool {
    matches!(
        rest.as_bytes(),
        [b'-', b'-', b'-']
            | [b'-', b'-', b'-', b' ', ..]
            | [b'.', b'.', b'.']
            | [b'.', b'.', b'.', b' ', ..]
    )
}

/// One line, found in a single pass over its bytes (the fast path's main cost).
struct LineShape {
    start: usize,
    /// The first char that is not a space.
    content_start: usize,
    /// The `\n` ending the line, or the end of the text.
    end: usize,
    /// The space before the first ` #`, where a comment starts.
    comment: Option<usize>,
}

impl LineShape {
    /// `None` when the line holds a tab, a CR, a char PyYAML reads as a break (NEL, LS, PS) or
    /// leaves out of the column (BOM), or one its reader refuses: so an answer of the fast path
    /// also stands for the reader's printable check, which then runs only before the port.
    fn scan(bytes: &[u8], start: usize) -> Option<LineShape> {
        let mut at = start;
        while bytes.get(at) == Some(&b' ') {
            at += 1;
        }
        let content_start = at;
        let tail = bytes.get(content_start..).unwrap_or_default();
        let mut length = tail.len();
        let mut comment = None;
        let mut offset = 0;
        loop {
            // 8 bytes at a time while none needs a look (a break, a `#`, a control char, DEL or
            // a byte of a non-ASCII char): most lines are mostly such runs.
            while let Some(chunk) = tail.get(offset..offset + WORD_BYTES) {
                let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
                let special = bytes_below(word, 0x20)
                    | bytes_equal(word, b'#')
                    | bytes_equal(word, 0x7F)
                    | (word & HIGH_BITS);
                if special != 0 {
                    offset += (special.trailing_zeros() / 8) as usize;
                    break;
                }
                offset += WORD_BYTES;
            }
            let Some(&byte) = tail.get(offset) else {
                break;
            };
            match byte {
                b'\n' => {
                    length = offset;
                    break;
                }
                b'#' if comment.is_none() && offset > 0 && tail.get(offset - 1) == Some(&b' ') => {
                    comment = Some(content_start + offset - 1);
                }
                // Tab, CR, and what PyYAML's reader refuses: the other C0 controls and DEL.
                0x00..=0x1F | 0x7F => return None,
                // C1 controls (C2 80..9F: NEL is among them, and a break), LS and PS (E2 80 A8/A9,
                // breaks), BOM (EF BB BF, not in the column), U+FFFE and U+FFFF (EF BF BE/BF,
                // refused by the reader). No other non-ASCII char matters here.
                0xC2 | 0xE2 | 0xEF => {
                    let sequence = tail.get(offset..).unwrap_or_default();
                    let refused = match sequence {
                        [0xC2, second, ..] => (0x80..=0x9F).contains(second),
                        [0xE2, 0x80, third, ..] => matches!(third, 0xA8 | 0xA9),
                        [0xEF, 0xBB, 0xBF, ..] | [0xEF, 0xBF, 0xBE | 0xBF, ..] => true,
                        _ => false,
                    };
                    if refused {
                        return None;
                    }
                }
                _ => {}
            }
            offset += 1;
        }
        let at = content_start + length;
        Some(LineShape {
            start,
            content_start,
            end: at,
            comment,
        })
    }
}

/// A scalar this fast path accepts as plain: it starts like a plain scalar can (no indicator),
/// and holds no `: ` and no final `:` that would make it a mapping key.
fn is_simple_plain(scalar: &str) -> bool {
    is_simple_plain_key(scalar) && find_colon_space(scalar).is_none()
}

/// [`is_simple_plain`] for what [`split_key`] found before the first `: `, which holds none.
fn is_simple_plain_key(scalar: &str) -> bool {
    let starts_plain = match scalar.as_bytes() {
        [first, ..] if first.is_ascii_alphanumeric() || !first.is_ascii() => true,
        [b'.' | b'/' | b'~' | b'_' | b'(' | b'$' | b'+', ..] => true,
        [b'-', second, ..] => *second != b' ',
        _ => false,
    };
    starts_plain && strip_final_colon(scalar).is_none()
}

/// Whether `first` (followed by `second`) may start a plain scalar inside a flow collection: the
/// block rule, with a `-` start narrowed to what no flow indicator can follow.
fn starts_flow_plain(first: u8, second: Option<u8>) -> bool {
    match first {
        b'.' | b'/' | b'~' | b'_' | b'(' | b'$' | b'+' => true,
        b'-' => second.is_some_and(|byte| byte.is_ascii_alphanumeric() || byte == b'.'),
        _ => first.is_ascii_alphanumeric() || !first.is_ascii(),
    }
}

/// A plain scalar inside a flow collection, from its first byte: the scalar (trailing spaces
/// removed) and what follows it. PyYAML ends it at `,[]{}`, or at a `:` followed by a space, one
/// of `,[]{}` or the end; a `?` (which would end it and start a key) and a ` #` (a comment,
/// the collection then going on over lines) are left to the port.
fn flow_plain(text: &str) -> Option<(&str, &str)> {
    let bytes = text.as_bytes();
    if !starts_flow_plain(*bytes.first()?, bytes.get(1).copied()) {
        return None;
    }
    let mut end = 0;
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b',' | b'[' | b']' | b'{' | b'}' => break,
            // `?` would end it and start a key; ` #` starts a comment, the flow goes on below.
            b'?' => return None,
            b'#' if at > 0 && bytes.get(at - 1) == Some(&b' ') => return None,
            b':' if matches!(
                bytes.get(at + 1),
                None | Some(b' ' | b',' | b'[' | b']' | b'{' | b'}')
            ) =>
            {
                break
            }
            b' ' => {
                at += 1;
                continue;
            }
            _ => {}
        }
        at += 1;
        end = at;
    }
    Some((text.get(..end)?, text.get(end..)?))
}

/// How far a quoted scalar's text goes on this line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum QuotedScan {
    /// It closes here: the byte just after the closing quote.
    Closed(usize),
    /// It goes on over the next line.
    Open,
    /// An escape PyYAML refuses.
    Invalid,
}

/// Scans a quoted scalar's text in `line` from byte `from` (inside the quotes): single-quoted
/// with its inner quotes doubled, or double-quoted with escapes PyYAML's scanner accepts (a `\`
/// ending the line escapes the line break). Either kind is a str whatever it holds.
fn scan_quoted(line: &[u8], from: usize, double: bool) -> QuotedScan {
    let mut at = from;
    while let Some(&byte) = line.get(at) {
        match byte {
            b'"' if double => return QuotedScan::Closed(at + 1),
            b'\\' if double => {
                if at + 1 == line.len() {
                    return QuotedScan::Open;
                }
                match line.get(at + 1..).and_then(escape_length) {
                    Some(length) => at += 1 + length,
                    None => return QuotedScan::Invalid,
                }
            }
            b'\'' if !double && line.get(at + 1) == Some(&b'\'') => at += 2,
            b'\'' if !double => return QuotedScan::Closed(at + 1),
            _ => at += 1,
        }
    }
    QuotedScan::Open
}

/// The byte just after a quoted scalar that opens at the start of `text` and closes on it.
fn quoted_end(text: &str) -> Option<usize> {
    let double = match text.as_bytes().first()? {
        b'\'' => false,
        b'"' => true,
        _ => return None,
    };
    match scan_quoted(text.as_bytes(), 1, double) {
        QuotedScan::Closed(end) => Some(end),
        QuotedScan::Open | QuotedScan::Invalid => None,
    }
}

/// What may follow a node to the end of its line: nothing, or spaces and a comment.
fn is_blank_or_comment(rest: &str) -> bool {
    let after_spaces = rest.trim_start_matches(' ');
    after_spaces.is_empty() || (after_spaces.starts_with('#') && after_spaces.len() < rest.len())
}

/// The length of a double-quoted scalar's escape after its `\`: one of PyYAML's single-char
/// escapes, or `x`, `u`, `U` with 2, 4, 8 hex digits naming a code point Python's `chr` takes.
/// An escaped line break (the scalar goes on) and unknown escapes are `None`.
fn escape_length(escape: &[u8]) -> Option<usize> {
    let digits = match escape.first()? {
        b'0' | b'a' | b'b' | b't' | b'n' | b'v' | b'f' | b'r' | b'e' | b' ' | b'"' | b'\\'
        | b'/' | b'N' | b'_' | b'L' | b'P' => return Some(1),
        b'x' => 2,
        b'u' => 4,
        b'U' => 8,
        _ => return None,
    };
    let hex = escape.get(1..=digits)?;
    let code = hex.iter().try_fold(0u32, |code, &digit| {
        let value = char::from(digit).to_digit(16)?;
        Some(code * 16 + value)
    })?;
    (code <= 0x10FFFF).then_some(1 + digits)
}

/// `text` without its leading spaces.
fn skip_spaces(text: &str) -> &str {
    text.trim_start_matches(' ')
}

/// `&name` at the start of a value, and the node after it: `(None, value)` without an anchor,
/// `None` when the anchor is not followed by a space or the end of the content.
fn split_anchor(value: &str) -> Option<(Option<&str>, &str)> {
    let Some(after) = value.strip_prefix('&') else {
        return Some((None, value));
    };
    let length = after.bytes().take_while(|&byte| is_name_byte(byte)).count();
    if length == 0 {
        return None;
    }
    let (name, rest) = after.split_at(length);
    match rest.as_bytes().first() {
        None => Some((Some(name), "")),
        Some(b' ') => Some((Some(name), skip_spaces(rest))),
        Some(_) => None,
    }
}

/// Anchor and alias names: `[0-9A-Za-z_-]`.
fn is_name_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_'
}

/// Whether a node that starts with this byte is a value on its own (a flow collection, a quoted
/// or block scalar, an anchored node or an alias), never the key of a mapping this fast path takes.
fn starts_inline_node(byte: u8) -> bool {
    matches!(
        byte,
        b'[' | b'{' | b'\'' | b'"' | b'|' | b'>' | b'&' | b'*' | b'!'
    )
}

/// The resolved tag of a plain scalar when SafeConstructor constructs it without error, else
/// `None`; merge (`<<`) and value (`=`) keys are left to the port.
fn constructed_tag(scalar: &str) -> Option<Tag> {
    let tag = resolve_plain_scalar(scalar);
    let constructs = match tag {
        Tag::Str | Tag::Null | Tag::Bool => true,
        Tag::Int => is_plain_small_decimal(scalar) || construct_yaml_int(scalar).is_ok(),
        Tag::Float => construct_yaml_float(scalar, 0).is_ok(),
        Tag::Timestamp => construct_yaml_timestamp(scalar).is_ok(),
        _ => false,
    };
    constructs.then_some(tag)
}

/// The first `: ` (a byte search: `str::find` with a string pattern sets up a searcher per call).
fn find_colon_space(text: &str) -> Option<usize> {
    text.as_bytes()
        .windows(2)
        .position(|pair| matches!(pair, [b':', b' ']))
}

/// `text` without a final `:` (bytes again: `strip_suffix(char)` encodes the char per call).
fn strip_final_colon(text: &str) -> Option<&str> {
    match text.as_bytes() {
        [.., b':'] => text.get(..text.len() - 1),
        _ => None,
    }
}

/// `key: value`, `key:` (value on later lines), or `None` when the content is not a mapping entry.
/// The key keeps its trailing spaces: PyYAML's simple-key length limit counts them.
fn split_key(content: &str) -> Option<(&str, &str)> {
    let (key, value) = match find_colon_space(content) {
        Some(colon) => (content.get(..colon)?, content.get(colon + 2..)?),
        None => (strip_final_colon(content)?, ""),
    };
    Some((key, value.trim_start_matches(' ')))
}

/// A `-` sequence entry indicator at the start of `content`.
fn is_entry(content: &str) -> bool {
    // Bytes, not `str::starts_with`: this runs several times per line, and wasm calls memcmp.
    matches!(content.as_bytes(), [b'-'] | [b'-', b' ', ..])
}

impl<'a> Summary<'a> {
    /// One content line (comment removed, trailing spaces removed) starting at `column`.
    fn line(&mut self, column: usize, content: &'a str) -> Option<()> {
        if let Some(pending) = self.pending.take() {
            if column > pending.owner_indent {
                // The value is a nested block starting on this line.
                return self.start_node(column, content, pending);
            }
            if column == pending.owner_indent && pending.after_key && is_entry(content) {
                self.set_value_type(pending, "array");
                self.push(BlockKind::IndentlessSequence, column, pending.anchor)?;
                return self.entries_and_rest(column, content);
            }
            self.decided(pending, "null")?;
        }
        // Close the blocks this line is outside of.
        while let Some(block) = self.blocks.last().copied() {
            let closes = block.indent > column
                || (block.indent == column
                    && block.kind == BlockKind::IndentlessSequence
                    && !is_entry(content));
            if !closes {
                break;
            }
            self.blocks.pop();
            if let Some(anchored) = block.anchor.and_then(|name| self.anchors.get_mut(name)) {
                anchored.finished = true;
            }
        }
        match self.blocks.last().copied() {
            None if !self.root_started && column == 0 => {
                self.root_started = true;
                let root = Pending {
                    owner_indent: 0,
                    after_key: false,
                    top_entry: None,
                    anchor: None,
                };
                self.start_node(column, content, root)
            }
            Some(block) if block.indent == column => match block.kind {
                BlockKind::Mapping => self.mapping_entry(column, content),
                BlockKind::Sequence | BlockKind::IndentlessSequence => {
                    self.entries_and_rest(column, content)
                }
            },
            _ => None,
        }
    }

    /// Opens a block collection (registering its anchor, as PyYAML's composer does at its start).
    fn push(&mut self, kind: BlockKind, indent: usize, anchor: Option<&'a str>) -> Option<()> {
        if self.blocks.len() >= MAX_SIMPLE_DEPTH {
            return None;
        }
        if let Some(name) = anchor {
            let type_name = if kind == BlockKind::Mapping {
                "object"
            } else {
                "array"
            };
            self.define_anchor(name, type_name, false)?;
        }
        self.blocks.push(Block {
            kind,
            indent,
            anchor,
        });
        Some(())
    }

    /// A second anchor of the same name is an error in PyYAML's composer: left to the port.
    fn define_anchor(
        &mut self,
        name: &'a str,
        type_name: &'static str,
        finished: bool,
    ) -> Option<()> {
        let anchored = Anchored {
            type_name,
            finished,
            has_merge: false,
        };
        match self.anchors.insert(name, anchored) {
            None => Some(()),
            Some(_) => None,
        }
    }

    /// Whether the innermost open block is the root one.
    fn at_root(&self) -> bool {
        self.blocks.len() == 1
    }

    /// A node that starts at `column` with `content`: a sequence, a mapping, or (given up) a scalar
    /// on a line of its own.
    fn start_node(&mut self, column: usize, content: &'a str, owner: Pending<'a>) -> Option<()> {
        if is_entry(content) {
            self.set_value_type(owner, "array");
            self.push(BlockKind::Sequence, column, owner.anchor)?;
            self.entries_and_rest(column, content)
        } else {
            split_key(content)?;
            self.set_value_type(owner, "object");
            self.push(BlockKind::Mapping, column, owner.anchor)?;
            self.mapping_entry(column, content)
        }
    }

    /// `- ` entries of the innermost sequence (at `column`), each `- ` after the first opening a
    /// nested sequence, then what follows the last one.
    fn entries_and_rest(&mut self, column: usize, content: &'a str) -> Option<()> {
        if !is_entry(content) {
            return None;
        }
        if self.at_root() {
            self.root_sequence_length += 1;
        }
        let after_dash = content.get(1..)?;
        let rest = after_dash.trim_start_matches(' ');
        let rest_column = column + 1 + (after_dash.len() - rest.len());
        let entry = Pending {
            owner_indent: column,
            after_key: false,
            top_entry: None,
            anchor: None,
        };
        let Some(&first) = rest.as_bytes().first() else {
            self.pending = Some(entry);
            return Some(());
        };
        if !starts_inline_node(first) && (is_entry(rest) || split_key(rest).is_some()) {
            return self.start_node(rest_column, rest, entry);
        }
        self.inline_value(column, rest, entry)
    }

    /// `key: value` or `key:` in the innermost mapping (at `column`).
    fn mapping_entry(&mut self, column: usize, content: &'a str) -> Option<()> {
        let (raw_key, value) = split_key(content)?;
        if raw_key.len() > MAX_SIMPLE_KEY_BYTES {
            return None;
        }
        let key = raw_key.trim_end_matches(' ');
        if key == "<<" {
            return self.merge(value);
        }
        if !is_simple_plain_key(key) {
            return None;
        }
        let key_tag = constructed_tag(key)?;
        let top_entry = if self.at_root() {
            if key_tag != Tag::Str {
                return None; // Python key equality and str() of other types: the port's job
            }
            self.top_level_key(key)
        } else {
            None
        };
        let owner = Pending {
            owner_indent: column,
            after_key: true,
            top_entry,
            anchor: None,
        };
        if value.is_empty() {
            self.pending = Some(owner);
            return Some(());
        }
        self.inline_value(column, value, owner)
    }

    /// `<<: *name` in a nested mapping: SafeConstructor merges the aliased mapping's pairs, which
    /// changes no type this summary shows and cannot fail when that mapping is finished, holds
    /// only keys already checked and has no merge of its own to flatten.
    fn merge(&mut self, value: &str) -> Option<()> {
        if self.at_root() {
            return None; // merged root keys: the port's job
        }
        let name = value.strip_prefix('*')?;
        let anchored = self.anchors.get(name)?;
        if !(anchored.finished && anchored.type_name == "object" && !anchored.has_merge) {
            return None;
        }
        if let Some(owner) = self.blocks.last().and_then(|block| block.anchor) {
            self.anchors.get_mut(owner)?.has_merge = true;
        }
        Some(())
    }

    /// The node after `key: ` or `- ` on the line of the innermost block (at `block_indent`):
    /// optionally anchored, then nothing (its content follows on later lines), an alias, a
    /// one-line flow collection, a block scalar header, a quoted or a plain scalar.
    fn inline_value(
        &mut self,
        block_indent: usize,
        value: &'a str,
        owner: Pending<'a>,
    ) -> Option<()> {
        // Most values are plain scalars: they skip the other shapes' checks.
        if !starts_inline_node(*value.as_bytes().first()?) {
            let tag = self.scalar(value)?;
            self.set_value_type(owner, type_name(tag));
            self.plain = Some(PlainScalar {
                min_indent: block_indent + 1,
                top_entry: owner.top_entry,
                first: value,
                folded: None,
                closed: self.line_has_comment,
                after_blank: false,
            });
            return Some(());
        }
        self.inline_node(block_indent, value, owner)
    }

    /// `inline_value` for the nodes that start with an indicator.
    #[inline(never)]
    fn inline_node(
        &mut self,
        block_indent: usize,
        value: &'a str,
        owner: Pending<'a>,
    ) -> Option<()> {
        let (anchor, node) = split_anchor(value)?;
        let owner = Pending { anchor, ..owner };
        let Some(&first) = node.as_bytes().first() else {
            self.pending = Some(owner);
            return Some(());
        };
        let type_name = match first {
            b'*' => {
                if anchor.is_some() {
                    return None; // an anchored empty scalar, then a stray alias: an error
                }
                let anchored = self.anchors.get(node.get(1..)?)?;
                if !anchored.finished {
                    return None;
                }
                anchored.type_name
            }
            b'[' | b'{' => {
                // Read from the whole line: a ` #` inside a quoted entry is no comment.
                let after = self.flow_collection(self.to_line_end(node)?, 0)?;
                if !is_blank_or_comment(after) {
                    return None; // `[a]: b` (an unhashable key) or other text after it
                }
                if first == b'[' {
                    "array"
                } else {
                    "object"
                }
            }
            b'|' | b'>' => {
                // Chomping indicators only: an explicit indentation is left to the port.
                if !matches!(node.as_bytes().get(1..)?, [] | [b'-' | b'+']) {
                    return None;
                }
                self.block_scalar = Some(BlockScalar {
                    min_indent: block_indent + 1,
                    indent: None,
                    blank_indent: 0,
                });
                "string"
            }
            b'\'' | b'"' => {
                let full = self.to_line_end(node)?;
                match scan_quoted(full.as_bytes(), 1, first == b'"') {
                    QuotedScan::Closed(end) if is_blank_or_comment(full.get(end..)?) => {}
                    QuotedScan::Open => self.open_quoted = Some(first == b'"'),
                    QuotedScan::Closed(_) | QuotedScan::Invalid => return None,
                }
                "string"
            }
            _ => type_name(self.scalar(node)?),
        };
        self.decided(owner, type_name)
    }

    /// `node` (a part of the line being read) and the rest of its line, comment included.
    fn to_line_end(&self, node: &str) -> Option<&'a str> {
        let start = (node.as_ptr() as usize).checked_sub(self.text.as_ptr() as usize)?;
        self.text.get(start..self.line_end)
    }

    /// A flow collection that opens at the start of `text` and closes on this line: what follows
    /// its closing bracket. Its entries are quoted scalars, plain scalars that construct, and
    /// nested flow collections; a mapping's keys are scalars followed by `: ` and a value.
    fn flow_collection(&self, text: &'a str, depth: usize) -> Option<&'a str> {
        let (close, is_mapping) = match text.as_bytes().first()? {
            b'[' => (b']', false),
            b'{' => (b'}', true),
            _ => return None,
        };
        if depth >= MAX_SIMPLE_FLOW_DEPTH {
            return None;
        }
        let mut rest = skip_spaces(text.get(1..)?);
        if rest.as_bytes().first() == Some(&close) {
            return rest.get(1..);
        }
        loop {
            if is_mapping {
                rest = self.flow_key(rest)?;
            }
            rest = skip_spaces(self.flow_node(rest, depth)?);
            match *rest.as_bytes().first()? {
                b',' => {
                    // One trailing `,` before the closing bracket is allowed.
                    rest = skip_spaces(rest.get(1..)?);
                    if rest.as_bytes().first() == Some(&close) {
                        return rest.get(1..);
                    }
                }
                byte if byte == close => return rest.get(1..),
                _ => return None, // `[a: b]` (a pair in a sequence), a `:` after a quoted scalar, ...
            }
        }
    }

    /// One entry of a flow collection: what follows it.
    fn flow_node(&self, text: &'a str, depth: usize) -> Option<&'a str> {
        match text.as_bytes().first()? {
            b'[' | b'{' => self.flow_collection(text, depth + 1),
            b'\'' | b'"' => text.get(quoted_end(text)?..),
            _ => {
                let (scalar, rest) = flow_plain(text)?;
                constructed_tag(scalar)?;
                Some(rest)
            }
        }
    }

    /// A flow mapping's key (a scalar; any scalar is hashable) and its `: `: where the value
    /// starts. An empty value is left to the port.
    fn flow_key(&self, text: &'a str) -> Option<&'a str> {
        let after_key = match text.as_bytes().first()? {
            b'\'' | b'"' => text.get(quoted_end(text)?..)?,
            _ => {
                let (scalar, rest) = flow_plain(text)?;
                constructed_tag(scalar)?;
                rest
            }
        };
        // PyYAML forgets a possible simple key 1024 chars on: the `:` would then be an error.
        if text.len() - after_key.len() > MAX_SIMPLE_KEY_BYTES {
            return None;
        }
        let value = skip_spaces(skip_spaces(after_key).strip_prefix(": ")?);
        match value.as_bytes().first() {
            None | Some(b',' | b'}' | b']') => None,
            Some(_) => Some(value),
        }
    }

    /// A plain scalar (key or value) that must construct: its tag.
    fn scalar(&self, scalar: &str) -> Option<Tag> {
        if !is_simple_plain(scalar) {
            return None;
        }
        constructed_tag(scalar)
    }

    /// The listed entry a top-level string key updates or adds, as the port's `top_level` does.
    fn top_level_key(&mut self, key: &str) -> Option<usize> {
        if let Some(position) = self.entries.iter().position(|(listed, _)| listed == key) {
            return Some(position);
        }
        if self.entries.len() < MAX_LISTED_KEYS {
            self.entries.push((key.to_string(), "null"));
            return Some(self.entries.len() - 1);
        }
        None
    }

    /// A value that is complete on this line (or an empty one): its type, and its anchor.
    fn decided(&mut self, owner: Pending<'a>, type_name: &'static str) -> Option<()> {
        if let Some(name) = owner.anchor {
            self.define_anchor(name, type_name, true)?;
        }
        self.set_value_type(owner, type_name);
        Some(())
    }

    fn set_value_type(&mut self, owner: Pending<'a>, type_name: &'static str) {
        if let Some(entry) = owner
            .top_entry
            .and_then(|position| self.entries.get_mut(position))
        {
            entry.1 = type_name;
        }
    }

    /// A line after a plain scalar value: `true` when it continues the scalar (folded into it),
    /// `false` when it ends it and is read as usual.
    fn continue_plain(
        &mut self,
        column: usize,
        rest: &str,
        content: &str,
        has_comment: bool,
    ) -> Option<bool> {
        let plain = self.plain.as_mut()?;
        if rest.is_empty() {
            plain.after_blank = true;
            return Some(true);
        }
        if column < plain.min_indent || rest.starts_with('#') {
            self.finish_plain()?;
            return Some(false);
        }
        // Given up: after a blank line (the value would hold a line break), after a comment
        // (PyYAML's scalar ended there, so this line is an error), and a line holding what could
        // end a plain scalar or start another token.
        if plain.after_blank || plain.closed || !is_simple_plain(content) {
            return None;
        }
        let folded = plain.folded.get_or_insert_with(|| plain.first.to_string());
        folded.push(' ');
        folded.push_str(content);
        plain.closed = has_comment;
        Some(true)
    }

    /// The type of a plain scalar that went on over several lines: its folded value's.
    fn finish_plain(&mut self) -> Option<()> {
        let Some(plain) = self.plain.take() else {
            return Some(());
        };
        if let Some(folded) = plain.folded {
            let tag = constructed_tag(&folded)?;
            if let Some(entry) = plain.top_entry.and_then(|at| self.entries.get_mut(at)) {
                entry.1 = type_name(tag);
            }
        }
        Some(())
    }

    fn finish(mut self) -> Option<TopLevel> {
        if self.open_quoted.is_some() {
            return None; // a quoted scalar left open: an error
        }
        self.finish_plain()?;
        if let Some(pending) = self.pending.take() {
            self.decided(pending, "null")?;
        }
        match self.blocks.first()?.kind {
            BlockKind::Mapping => Some(TopLevel::Mapping(
                self.entries
                    .into_iter()
                    .map(|(key, type_name)| (PyScalar::Str(key), type_name))
                    .collect(),
            )),
            BlockKind::Sequence => Some(TopLevel::Sequence(self.root_sequence_length)),
            BlockKind::IndentlessSequence => None,
        }
    }
}
