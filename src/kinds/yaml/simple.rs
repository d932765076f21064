//! A fast path for the common shape of YAML tool outputs: block mappings and block sequences whose
//! scalars are plain and fit on their line, with comments and blank lines. It reads the text line
//! by line instead of token by token, and builds nothing but the top-level summary.
//!
//! Values may also be one-line quoted strings without escapes.
//!
//! It is only an accelerator: it answers only when it is sure of PyYAML's result, and gives up
//! (`None`) on anything outside that shape or anything doubtful (other quoting, flow collections, anchors,
//! tags, tabs, CR, multi-line scalars, merge keys, non-string top-level keys, a scalar that does
//! not construct, ...). The full port in the parent module then decides, so a wrong give-up costs
//! time, never parity. The parent's differential tests run both on the same inputs.

use super::{
    construct_yaml_float, construct_yaml_int, construct_yaml_timestamp, is_plain_small_decimal,
    resolve_plain_scalar, type_name, PyScalar, Tag, TopLevel, MAX_LISTED_KEYS,
};

/// Deeper block nesting gives up: PyYAML's own limit (`MAX_NESTING_DEPTH`) is the port's business.
const MAX_SIMPLE_DEPTH: usize = 64;

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
struct Block {
    kind: BlockKind,
    /// Column of its keys or `-` entries.
    indent: usize,
}

/// Where the value of an entry whose content is on later lines goes, and what may start it.
#[derive(Debug, Clone, Copy)]
struct Pending {
    /// Column of the key or `-` that is waiting for its value.
    owner_indent: usize,
    /// A mapping key's value may be an indentless sequence at the key's own column.
    after_key: bool,
    /// The top-level entry (index into `entries`) whose type this value decides, if any.
    top_entry: Option<usize>,
}

struct Summary {
    blocks: Vec<Block>,
    pending: Option<Pending>,
    /// Root mapping entries as listed (first 30 distinct keys, last value's type).
    entries: Vec<(String, &'static str)>,
    root_sequence_length: usize,
    root_started: bool,
}

/// Loads `text` when it has the simple shape; `None` to let the full port decide.
pub(super) fn load(text: &str) -> Option<TopLevel> {
    let mut summary = Summary {
        blocks: Vec::new(),
        pending: None,
        entries: Vec::new(),
        root_sequence_length: 0,
        root_started: false,
    };
    let mut document_start_allowed = true;
    let mut line_start = 0;
    while line_start <= text.len() {
        let line = LineShape::scan(text.as_bytes(), line_start)?;
        let rest = text.get(line.content_start..line.end)?;
        line_start = line.end + 1;
        if rest.is_empty() || rest.starts_with('#') {
            continue;
        }
        let column = line.content_start - line.start;
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
        // A plain scalar ends at ` #`; nothing else on these lines can hide a `#`.
        let content = match line.comment {
            Some(comment) => text.get(line.content_start..comment)?,
            None => rest,
        }
        .trim_end_matches(' ');
        summary.line(column, content)?;
    }
    summary.finish()
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
        for (offset, &byte) in tail.iter().enumerate() {
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
    let mut chars = scalar.chars();
    let starts_plain = match chars.next() {
        Some(first) if first.is_ascii_alphanumeric() || !first.is_ascii() => true,
        Some('.' | '/' | '~' | '_' | '(' | '$' | '+') => true,
        Some('-') => chars.next().is_some_and(|second| second != ' '),
        _ => false,
    };
    starts_plain && find_colon_space(scalar).is_none() && strip_final_colon(scalar).is_none()
}

/// A quoted scalar that opens and closes on this line with nothing after it: single-quoted with
/// its inner quotes doubled, or double-quoted with no escape and no inner quote. Either is a str
/// whatever it holds (a `: ` or `#` inside is fine; a ` #` cut off as a comment leaves it open).
fn is_simple_quoted(scalar: &str) -> bool {
    match scalar.as_bytes() {
        [b'\'', inner @ .., b'\''] => {
            let mut bytes = inner.iter();
            while let Some(&byte) = bytes.next() {
                if byte == b'\'' && bytes.next() != Some(&b'\'') {
                    return false;
                }
            }
            true
        }
        [b'"', inner @ .., b'"'] => !inner.iter().any(|&byte| byte == b'"' || byte == b'\\'),
        _ => false,
    }
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

impl Summary {
    /// One content line (comment removed, trailing spaces removed) starting at `column`.
    fn line(&mut self, column: usize, content: &str) -> Option<()> {
        if let Some(pending) = self.pending.take() {
            if column > pending.owner_indent {
                // The value is a nested block starting on this line.
                return self.start_node(column, content, pending);
            }
            if column == pending.owner_indent && pending.after_key && is_entry(content) {
                self.set_value_type(pending, "array");
                self.push(BlockKind::IndentlessSequence, column)?;
                return self.entries_and_rest(column, content);
            }
            self.set_value_type(pending, "null");
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
        }
        match self.blocks.last().copied() {
            None if !self.root_started && column == 0 => {
                self.root_started = true;
                let root = Pending {
                    owner_indent: 0,
                    after_key: false,
                    top_entry: None,
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

    fn push(&mut self, kind: BlockKind, indent: usize) -> Option<()> {
        if self.blocks.len() >= MAX_SIMPLE_DEPTH {
            return None;
        }
        self.blocks.push(Block { kind, indent });
        Some(())
    }

    /// Whether the innermost open block is the root one.
    fn at_root(&self) -> bool {
        self.blocks.len() == 1
    }

    /// A node that starts at `column` with `content`: a sequence, a mapping, or (given up) a scalar
    /// on a line of its own.
    fn start_node(&mut self, column: usize, content: &str, owner: Pending) -> Option<()> {
        if is_entry(content) {
            self.set_value_type(owner, "array");
            self.push(BlockKind::Sequence, column)?;
            self.entries_and_rest(column, content)
        } else {
            split_key(content)?;
            self.set_value_type(owner, "object");
            self.push(BlockKind::Mapping, column)?;
            self.mapping_entry(column, content)
        }
    }

    /// `- ` entries of the innermost sequence (at `column`), each `- ` after the first opening a
    /// nested sequence, then what follows the last one.
    fn entries_and_rest(&mut self, column: usize, content: &str) -> Option<()> {
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
        };
        if rest.is_empty() {
            self.pending = Some(entry);
            return Some(());
        }
        if is_entry(rest) || split_key(rest).is_some() {
            return self.start_node(rest_column, rest, entry);
        }
        self.value_scalar(rest).map(|_| ())
    }

    /// `key: value` or `key:` in the innermost mapping (at `column`).
    fn mapping_entry(&mut self, column: usize, content: &str) -> Option<()> {
        let (raw_key, value) = split_key(content)?;
        if raw_key.len() > MAX_SIMPLE_KEY_BYTES {
            return None;
        }
        let key = raw_key.trim_end_matches(' ');
        let key_tag = self.scalar(key)?;
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
        };
        if value.is_empty() {
            self.pending = Some(owner);
            return Some(());
        }
        let value_tag = self.value_scalar(value)?;
        self.set_value_type(owner, type_name(value_tag));
        Some(())
    }

    /// A plain scalar (key or value) that must construct: its tag.
    fn scalar(&self, scalar: &str) -> Option<Tag> {
        if !is_simple_plain(scalar) {
            return None;
        }
        constructed_tag(scalar)
    }

    /// A value: a plain scalar as above, or a quoted string that ends on its line.
    fn value_scalar(&self, scalar: &str) -> Option<Tag> {
        if scalar.starts_with(['\'', '"']) {
            return is_simple_quoted(scalar).then_some(Tag::Str);
        }
        self.scalar(scalar)
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

    fn set_value_type(&mut self, owner: Pending, type_name: &'static str) {
        if let Some(entry) = owner
            .top_entry
            .and_then(|position| self.entries.get_mut(position))
        {
            entry.1 = type_name;
        }
    }

    fn finish(mut self) -> Option<TopLevel> {
        if let Some(pending) = self.pending.take() {
            self.set_value_type(pending, "null");
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
