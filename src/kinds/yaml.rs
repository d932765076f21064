//! YAML kind (SPEC 3.3): load ONE document with PyYAML `yaml.safe_load` semantics and summarise it.
//!
//! Parity with PyYAML matters more than YAML-spec correctness: the reference accepts exactly what
//! PyYAML's pure-Python `SafeLoader` accepts, so the reader check, scanner, parser and composer below
//! are a port of PyYAML's (MIT licence, Copyright (c) 2017-2021 Ingy döt Net, Copyright (c) 2006-2016
//! Kirill Simonov), including its YAML 1.1 implicit resolvers and its `SafeConstructor` rules.
//! Only what the synopsis needs is kept: no marks, no error messages (any error means "not YAML").
//!
//! Safety: aliases are node ids into an arena (never copies), so an alias bomb costs nothing; merged
//! key lists are de-duplicated by Python key equality as they are built, so merge bombs stay bounded
//! by the number of distinct keys; nothing recurses with the input's nesting except merge flattening,
//! whose depth is capped (PyYAML itself dies with `RecursionError` well before that).

mod simple;

use super::Synopsis;
use crate::python::{py_bytes_repr, py_repr_float, py_strip, utf8_len, INT_MAX_STR_DIGITS};
use regex_lite::Regex;
use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::sync::OnceLock;

/// How many keys the summary and structure show (SPEC 3.3).
const MAX_LISTED_KEYS: usize = 30;

/// PyYAML's composer recurses twice per nested collection, so under CPython's default recursion
/// limit of 1000 it raises `RecursionError` at about 490 nested collections (measured with PyYAML
/// 6.0.3 on CPython 3.11: 490 block levels load, 491 do not; flow sequences reach 494). The exact
/// threshold also depends on the caller's own stack depth, so this is the measured block value.
const MAX_NESTING_DEPTH: usize = 490;

/// Merge flattening recurses per nested `<<`; Python would hit its recursion limit near here.
const MAX_FLATTEN_DEPTH: usize = 900;

/// Any reason the document does not load (PyYAML would raise).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rejected;

type Res<T> = Result<T, Rejected>;

/// Loads one YAML document from `output` like `yaml.safe_load` and summarises a top-level mapping
/// or sequence; `None` when PyYAML would raise or the document is anything else.
pub fn synopsis(output: &str) -> Option<Synopsis> {
    let document = load(output).ok()?;
    let mut synopsis = Synopsis::new("yaml", "YAML output");
    match document {
        TopLevel::Mapping(entries) => {
            synopsis.summary.push("YAML object.".to_string());
            let listed = &entries[..entries.len().min(MAX_LISTED_KEYS)];
            let mut names = Vec::with_capacity(listed.len());
            for (key, _) in listed {
                names.push(key.py_str().ok()?);
            }
            synopsis
                .summary
                .push(format!("top-level keys: {}", names.join(", ")));
            for (name, (_, type_name)) in names.iter().zip(listed) {
                synopsis.structure.push(format!("{name}: {type_name}"));
            }
        }
        TopLevel::Sequence(length) => {
            synopsis.summary.push("YAML array.".to_string());
            synopsis.summary.push(format!("array length: {length}"));
        }
    }
    Some(synopsis)
}

/// What the summary needs from a loaded document.
#[derive(Debug, PartialEq)]
enum TopLevel {
    /// Python dict entries in insertion order: the key as first spelled, and the last value's type name.
    Mapping(Vec<(PyScalar, &'static str)>),
    /// A Python list of this length.
    Sequence(usize),
}

/// `yaml.safe_load(text)` reduced to what the synopsis needs.
fn load(text: &str) -> Res<TopLevel> {
    // The fast path checks printability itself as it reads each line.
    if let Some(top_level) = simple::load(text) {
        return Ok(top_level);
    }
    check_printable(text)?;
    load_with_port(text)
}

/// The full PyYAML port: scanner, parser, composer and constructor.
fn load_with_port(text: &str) -> Res<TopLevel> {
    let mut composer = Composer::new(text);
    let Some(root) = composer.compose_single_document()? else {
        return Err(Rejected); // empty stream: None is not a mapping or a sequence
    };
    let mut constructor = Constructor {
        nodes: composer.nodes,
    };
    constructor.construct_document(root)?;
    constructor.top_level(root)
}

// ---------------------------------------------------------------------------------------------
// Reader

/// PyYAML's reader refuses these characters anywhere in a str stream ("special characters are not
/// allowed"); `\0` is among them.
fn check_printable(text: &str) -> Res<()> {
    let printable = |c: char| {
        matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}'
            | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
    };
    // Mostly ASCII: blocks of printable ASCII bytes are checked without decoding chars; elsewhere
    // one char at a time (`at` stays on a char boundary either way).
    const BLOCK: usize = 32;
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let block_end = (at + BLOCK).min(bytes.len());
        if bytes.get(at..block_end).is_some_and(all_printable_ascii) {
            at = block_end;
            continue;
        }
        // Decode the chars that start in this block, so no byte is looked at twice.
        let rest = text.get(at..).ok_or(Rejected)?;
        for ch in rest.chars() {
            if !printable(ch) {
                return Err(Rejected);
            }
            at += ch.len_utf8();
            if at >= block_end {
                break;
            }
        }
    }
    Ok(())
}

/// Whether every byte is printable ASCII (`\t`, `\n`, `\r`, `' '..='~'`). Written as a fold of
/// bitwise flags without an early exit so that it vectorizes.
fn all_printable_ascii(block: &[u8]) -> bool {
    let bad = block.iter().fold(0u8, |bad, &byte| {
        let control = u8::from(byte < b' ')
            & u8::from(byte != b'\t')
            & u8::from(byte != b'\n')
            & u8::from(byte != b'\r');
        bad | control | u8::from(byte > b'~')
    });
    bad == 0
}

// ---------------------------------------------------------------------------------------------
// Scanner (port of PyYAML's scanner.py)
//
// The scanner walks the UTF-8 bytes of the input and decodes a char only where a non-ASCII byte
// is met, and scalars that are one run of the input borrow it instead of copying: PyYAML's
// per-char Python loop ported over a `Vec<char>` with a `String` per token cost most of the time.

/// PyYAML's `'\0\r\n\x85\u2028\u2029'`: end of stream or a line break.
fn is_break_or_end(c: char) -> bool {
    matches!(c, '\0' | '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// PyYAML's `'\0 \t\r\n\x85\u2028\u2029'`.
fn is_blank_or_break_or_end(c: char) -> bool {
    c == ' ' || c == '\t' || is_break_or_end(c)
}

/// PyYAML's `'\0 \r\n\x85\u2028\u2029'` (no tab: directives, tags and block scalar headers).
fn is_space_or_break_or_end(c: char) -> bool {
    c == ' ' || is_break_or_end(c)
}

/// PyYAML's `'\r\n\x85\u2028\u2029'`.
fn is_line_break(c: char) -> bool {
    c != '\0' && is_break_or_end(c)
}

/// Anchor, alias and directive names: `[0-9A-Za-z_-]`.
fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token<'a> {
    StreamStart,
    StreamEnd,
    Directive(Directive),
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowMappingStart,
    FlowSequenceEnd,
    FlowMappingEnd,
    Key,
    Value,
    BlockEntry,
    FlowEntry,
    Alias(&'a str),
    Anchor(&'a str),
    /// `(handle, suffix)`; the handle is `None` for verbatim `!<...>` tags and a lone `!`.
    Tag(Option<&'a str>, Cow<'a, str>),
    Scalar {
        value: Cow<'a, str>,
        plain: bool,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Directive {
    /// `%YAML major.minor`: only whether the major version is 1 matters.
    Yaml {
        major_is_one: bool,
    },
    Tag {
        handle: String,
        prefix: String,
    },
    Other,
}

/// Token kinds without payload, for `check_token`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    StreamStart,
    StreamEnd,
    Directive,
    DocumentStart,
    DocumentEnd,
    BlockSequenceStart,
    BlockMappingStart,
    BlockEnd,
    FlowSequenceStart,
    FlowMappingStart,
    FlowSequenceEnd,
    FlowMappingEnd,
    Key,
    Value,
    BlockEntry,
    FlowEntry,
    Alias,
    Anchor,
    Tag,
    Scalar,
}

impl Token<'_> {
    fn kind(&self) -> Kind {
        match self {
            Token::StreamStart => Kind::StreamStart,
            Token::StreamEnd => Kind::StreamEnd,
            Token::Directive(_) => Kind::Directive,
            Token::DocumentStart => Kind::DocumentStart,
            Token::DocumentEnd => Kind::DocumentEnd,
            Token::BlockSequenceStart => Kind::BlockSequenceStart,
            Token::BlockMappingStart => Kind::BlockMappingStart,
            Token::BlockEnd => Kind::BlockEnd,
            Token::FlowSequenceStart => Kind::FlowSequenceStart,
            Token::FlowMappingStart => Kind::FlowMappingStart,
            Token::FlowSequenceEnd => Kind::FlowSequenceEnd,
            Token::FlowMappingEnd => Kind::FlowMappingEnd,
            Token::Key => Kind::Key,
            Token::Value => Kind::Value,
            Token::BlockEntry => Kind::BlockEntry,
            Token::FlowEntry => Kind::FlowEntry,
            Token::Alias(_) => Kind::Alias,
            Token::Anchor(_) => Kind::Anchor,
            Token::Tag(..) => Kind::Tag,
            Token::Scalar { .. } => Kind::Scalar,
        }
    }
}

/// A scalar value being built: while it is one contiguous run of the input it stays a byte range
/// (no copy); anything else (a folded break, an escape) turns it into owned text.
#[derive(Debug, Default)]
struct Chunks {
    /// The run `text[start..end]`, while `owned` is `None`.
    start: usize,
    end: usize,
    owned: Option<String>,
}

impl Chunks {
    fn is_empty(&self) -> bool {
        match &self.owned {
            Some(owned) => owned.is_empty(),
            None => self.start == self.end,
        }
    }

    /// Appends `text[start..end]`, extending the run when it continues it.
    fn push_source(&mut self, text: &str, start: usize, end: usize) {
        if start >= end {
            return;
        }
        if self.owned.is_none() {
            if self.start == self.end {
                (self.start, self.end) = (start, end);
                return;
            }
            if self.end == start {
                self.end = end;
                return;
            }
        }
        self.owned(text)
            .push_str(text.get(start..end).unwrap_or(""));
    }

    fn push_str(&mut self, text: &str, piece: &str) {
        if !piece.is_empty() {
            self.owned(text).push_str(piece);
        }
    }

    fn push_char(&mut self, text: &str, ch: char) {
        self.owned(text).push(ch);
    }

    /// Appends another builder's content.
    fn append(&mut self, text: &str, other: Chunks) {
        match other.owned {
            Some(piece) => self.push_str(text, &piece),
            None => self.push_source(text, other.start, other.end),
        }
    }

    fn owned(&mut self, text: &str) -> &mut String {
        let (start, end) = (self.start, self.end);
        self.owned
            .get_or_insert_with(|| text.get(start..end).unwrap_or("").to_string())
    }

    fn finish(self, text: &str) -> Cow<'_, str> {
        match self.owned {
            Some(owned) => Cow::Owned(owned),
            None => Cow::Borrowed(text.get(self.start..self.end).unwrap_or("")),
        }
    }
}

/// A place where a simple (implicit) key may start, pending the `:` that would confirm it.
struct SimpleKey {
    flow_level: usize,
    token_number: usize,
    required: bool,
    index: usize,
    line: usize,
    column: usize,
}

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    /// Byte offset of the next char; one past the end once the virtual final `\0` is consumed.
    pos: usize,
    /// Chars consumed (PyYAML's `index`, which the 1024-char simple-key limit counts).
    index: usize,
    line: usize,
    /// PyYAML does not count BOM chars in the column, wherever they are.
    column: usize,
    done: bool,
    flow_level: usize,
    tokens: VecDeque<Token<'a>>,
    tokens_taken: usize,
    indent: isize,
    indents: Vec<isize>,
    allow_simple_key: bool,
    /// At most one per flow level; usually zero or one in all, so a small list beats a map.
    possible_simple_keys: Vec<SimpleKey>,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Scanner {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            index: 0,
            line: 0,
            column: 0,
            done: false,
            flow_level: 0,
            tokens: VecDeque::from([Token::StreamStart]),
            tokens_taken: 0,
            indent: -1,
            indents: Vec::new(),
            allow_simple_key: true,
            possible_simple_keys: Vec::new(),
        }
    }

    // Reader primitives. Past the end everything reads as `\0`, where PyYAML stops anyway (the
    // reader check has refused any `\0` inside the text).

    /// The char starting at byte `at`.
    fn char_at(&self, at: usize) -> char {
        match self.bytes.get(at) {
            Some(&byte) if byte < 0x80 => char::from(byte),
            Some(_) => self
                .text
                .get(at..)
                .and_then(|rest| rest.chars().next())
                .unwrap_or('\0'),
            None => '\0',
        }
    }

    /// The next char (PyYAML's `peek()`).
    fn peek(&self) -> char {
        self.char_at(self.pos)
    }

    /// The char `offset` chars after the next one (PyYAML's `peek(offset)`).
    fn peek_at(&self, offset: usize) -> char {
        let mut at = self.pos;
        for _ in 0..offset {
            at += self.bytes.get(at).map_or(1, |&byte| utf8_len(byte));
        }
        self.char_at(at)
    }

    /// Whether the next chars are `expected` (ASCII).
    fn prefix_is(&self, expected: &str) -> bool {
        self.bytes
            .get(self.pos..)
            .is_some_and(|rest| rest.starts_with(expected.as_bytes()))
    }

    /// The byte offset just after the run of chars from `start` that satisfy `in_run`.
    fn run_end(&self, start: usize, in_run: impl Fn(char) -> bool) -> usize {
        let mut end = start;
        loop {
            let ch = self.char_at(end);
            if ch == '\0' || !in_run(ch) {
                return end;
            }
            end += ch.len_utf8();
        }
    }

    fn slice(&self, start: usize, end: usize) -> &'a str {
        self.text.get(start..end).unwrap_or("")
    }

    /// Consumes one char (PyYAML's `forward()`).
    fn forward_char(&mut self) {
        let Some(&byte) = self.bytes.get(self.pos) else {
            // Consuming the virtual final `\0` once, as PyYAML may.
            if self.pos == self.bytes.len() {
                self.pos += 1;
                self.index += 1;
                self.column += 1;
            }
            return;
        };
        self.index += 1;
        if byte < 0x80 {
            self.pos += 1;
            if byte == b'\n' || (byte == b'\r' && self.bytes.get(self.pos) != Some(&b'\n')) {
                self.line += 1;
                self.column = 0;
            } else {
                self.column += 1;
            }
            return;
        }
        let ch = self.char_at(self.pos);
        self.pos += ch.len_utf8();
        match ch {
            '\u{85}' | '\u{2028}' | '\u{2029}' => {
                self.line += 1;
                self.column = 0;
            }
            '\u{FEFF}' => {}
            _ => self.column += 1,
        }
    }

    fn forward(&mut self, count: usize) {
        for _ in 0..count {
            self.forward_char();
        }
    }

    /// Consumes up to byte `end`, a run that holds no line break (what every scanning loop stops at).
    fn forward_within_line(&mut self, end: usize) {
        let Some(run) = self.bytes.get(self.pos..end) else {
            return;
        };
        if run.is_ascii() {
            self.index += run.len();
            self.column += run.len();
        } else {
            for ch in self.slice(self.pos, end).chars() {
                self.index += 1;
                if ch != '\u{FEFF}' {
                    self.column += 1;
                }
            }
        }
        self.pos = end;
    }

    fn column_isize(&self) -> isize {
        isize::try_from(self.column).unwrap_or(isize::MAX)
    }

    // Token queue.

    fn peek_kind(&mut self) -> Res<Option<Kind>> {
        self.fill()?;
        Ok(self.tokens.front().map(Token::kind))
    }

    fn check(&mut self, kinds: &[Kind]) -> Res<bool> {
        Ok(self.peek_kind()?.is_some_and(|kind| kinds.contains(&kind)))
    }

    fn next_token(&mut self) -> Res<Token<'a>> {
        self.fill()?;
        let token = self.tokens.pop_front().ok_or(Rejected)?;
        self.tokens_taken += 1;
        Ok(token)
    }

    /// Runs once per parser check: the common case (a token queued, no pending simple key) must
    /// not pay for the scanning machinery.
    #[inline]
    fn fill(&mut self) -> Res<()> {
        if self.done || (!self.tokens.is_empty() && self.possible_simple_keys.is_empty()) {
            return Ok(());
        }
        self.fill_slow()
    }

    fn fill_slow(&mut self) -> Res<()> {
        while self.need_more_tokens()? {
            self.fetch_more_tokens()?;
        }
        Ok(())
    }

    fn need_more_tokens(&mut self) -> Res<bool> {
        if self.done {
            return Ok(false);
        }
        if self.tokens.is_empty() {
            return Ok(true);
        }
        // A token may not leave the queue while a simple key before it could still become a KEY.
        self.stale_possible_simple_keys()?;
        Ok(self.next_possible_simple_key() == Some(self.tokens_taken))
    }

    fn fetch_more_tokens(&mut self) -> Res<()> {
        self.scan_to_next_token();
        self.stale_possible_simple_keys()?;
        self.unwind_indent(self.column_isize());
        let ch = self.peek();
        match ch {
            '\0' => return self.fetch_stream_end(),
            '%' if self.column == 0 => return self.fetch_directive(),
            '-' if self.check_document_indicator("---") => {
                return self.fetch_document_indicator(Token::DocumentStart)
            }
            '.' if self.check_document_indicator("...") => {
                return self.fetch_document_indicator(Token::DocumentEnd)
            }
            '[' => return self.fetch_flow_collection_start(Token::FlowSequenceStart),
            '{' => return self.fetch_flow_collection_start(Token::FlowMappingStart),
            ']' => return self.fetch_flow_collection_end(Token::FlowSequenceEnd),
            '}' => return self.fetch_flow_collection_end(Token::FlowMappingEnd),
            ',' => return self.fetch_flow_entry(),
            _ => {}
        }
        let next_is_blank = is_blank_or_break_or_end(self.peek_at(1));
        match ch {
            '-' if next_is_blank => return self.fetch_block_entry(),
            '?' if self.flow_level > 0 || next_is_blank => return self.fetch_key(),
            ':' if self.flow_level > 0 || next_is_blank => return self.fetch_value(),
            '*' => return self.fetch_anchor_or_alias(true),
            '&' => return self.fetch_anchor_or_alias(false),
            '!' => return self.fetch_tag(),
            '|' if self.flow_level == 0 => return self.fetch_block_scalar(false),
            '>' if self.flow_level == 0 => return self.fetch_block_scalar(true),
            '\'' => return self.fetch_flow_scalar(false),
            '"' => return self.fetch_flow_scalar(true),
            _ => {}
        }
        if self.check_plain(ch, next_is_blank) {
            return self.fetch_plain();
        }
        Err(Rejected) // "found character that cannot start any token" (a tab, `@`, `` ` ``, ...)
    }

    fn next_possible_simple_key(&self) -> Option<usize> {
        self.possible_simple_keys
            .iter()
            .map(|key| key.token_number)
            .min()
    }

    fn stale_possible_simple_keys(&mut self) -> Res<()> {
        if self.possible_simple_keys.is_empty() {
            return Ok(());
        }
        let (line, index) = (self.line, self.index);
        let mut required_went_stale = false;
        self.possible_simple_keys.retain(|key| {
            let stale = key.line != line || index - key.index > 1024;
            required_went_stale |= stale && key.required;
            !stale
        });
        if required_went_stale {
            return Err(Rejected); // "could not find expected ':'"
        }
        Ok(())
    }

    fn save_possible_simple_key(&mut self) -> Res<()> {
        let required = self.flow_level == 0 && self.indent == self.column_isize();
        if self.allow_simple_key {
            self.remove_possible_simple_key()?;
            let key = SimpleKey {
                flow_level: self.flow_level,
                token_number: self.tokens_taken + self.tokens.len(),
                required,
                index: self.index,
                line: self.line,
                column: self.column,
            };
            self.possible_simple_keys.push(key);
        }
        Ok(())
    }

    /// Removes and returns the possible simple key of the current flow level.
    fn take_possible_simple_key(&mut self) -> Option<SimpleKey> {
        let position = self
            .possible_simple_keys
            .iter()
            .position(|key| key.flow_level == self.flow_level)?;
        Some(self.possible_simple_keys.swap_remove(position))
    }

    fn remove_possible_simple_key(&mut self) -> Res<()> {
        match self.take_possible_simple_key() {
            Some(key) if key.required => Err(Rejected),
            _ => Ok(()),
        }
    }

    fn unwind_indent(&mut self, column: isize) {
        if self.flow_level > 0 {
            return;
        }
        while self.indent > column {
            self.indent = self.indents.pop().unwrap_or(-1);
            self.tokens.push_back(Token::BlockEnd);
        }
    }

    fn add_indent(&mut self, column: isize) -> bool {
        if self.indent < column {
            self.indents.push(self.indent);
            self.indent = column;
            true
        } else {
            false
        }
    }

    fn fetch_stream_end(&mut self) -> Res<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        self.possible_simple_keys.clear();
        self.tokens.push_back(Token::StreamEnd);
        self.done = true;
        Ok(())
    }

    fn fetch_directive(&mut self) -> Res<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_directive()?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn check_document_indicator(&self, indicator: &str) -> bool {
        self.column == 0 && self.prefix_is(indicator) && is_blank_or_break_or_end(self.peek_at(3))
    }

    fn fetch_document_indicator(&mut self, token: Token<'a>) -> Res<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        self.forward(3);
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_flow_collection_start(&mut self, token: Token<'a>) -> Res<()> {
        self.save_possible_simple_key()?;
        self.flow_level += 1;
        // Deeper flow nesting means deeper node nesting, which PyYAML's composer cannot handle
        // anyway; stopping here also bounds the simple-key bookkeeping.
        if self.flow_level > MAX_NESTING_DEPTH {
            return Err(Rejected);
        }
        self.allow_simple_key = true;
        self.forward_char();
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_flow_collection_end(&mut self, token: Token<'a>) -> Res<()> {
        self.remove_possible_simple_key()?;
        // PyYAML lets the level go negative on a stray closer; the parser then rejects the token.
        self.flow_level = self.flow_level.saturating_sub(1);
        self.allow_simple_key = false;
        self.forward_char();
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_flow_entry(&mut self) -> Res<()> {
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        self.forward_char();
        self.tokens.push_back(Token::FlowEntry);
        Ok(())
    }

    fn fetch_block_entry(&mut self) -> Res<()> {
        if self.flow_level == 0 {
            if !self.allow_simple_key {
                return Err(Rejected); // "sequence entries are not allowed here"
            }
            if self.add_indent(self.column_isize()) {
                self.tokens.push_back(Token::BlockSequenceStart);
            }
        }
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        self.forward_char();
        self.tokens.push_back(Token::BlockEntry);
        Ok(())
    }

    fn fetch_key(&mut self) -> Res<()> {
        if self.flow_level == 0 {
            if !self.allow_simple_key {
                return Err(Rejected); // "mapping keys are not allowed here"
            }
            if self.add_indent(self.column_isize()) {
                self.tokens.push_back(Token::BlockMappingStart);
            }
        }
        self.allow_simple_key = self.flow_level == 0;
        self.remove_possible_simple_key()?;
        self.forward_char();
        self.tokens.push_back(Token::Key);
        Ok(())
    }

    fn fetch_value(&mut self) -> Res<()> {
        if let Some(key) = self.take_possible_simple_key() {
            // The pending simple key is confirmed: insert KEY (and maybe BLOCK-MAPPING-START) before it.
            let position = key
                .token_number
                .checked_sub(self.tokens_taken)
                .ok_or(Rejected)?;
            if position > self.tokens.len() {
                return Err(Rejected);
            }
            self.tokens.insert(position, Token::Key);
            if self.flow_level == 0
                && self.add_indent(isize::try_from(key.column).unwrap_or(isize::MAX))
            {
                self.tokens.insert(position, Token::BlockMappingStart);
            }
            self.allow_simple_key = false;
        } else {
            if self.flow_level == 0 {
                if !self.allow_simple_key {
                    return Err(Rejected); // "mapping values are not allowed here"
                }
                if self.add_indent(self.column_isize()) {
                    self.tokens.push_back(Token::BlockMappingStart);
                }
            }
            self.allow_simple_key = self.flow_level == 0;
            self.remove_possible_simple_key()?;
        }
        self.forward_char();
        self.tokens.push_back(Token::Value);
        Ok(())
    }

    fn fetch_anchor_or_alias(&mut self, alias: bool) -> Res<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        self.forward_char();
        let start = self.pos;
        let end = self.run_end(start, is_name_char);
        if end == start {
            return Err(Rejected);
        }
        let name = self.slice(start, end);
        self.forward_within_line(end);
        let ch = self.peek();
        if !(is_blank_or_break_or_end(ch)
            || matches!(ch, '?' | ':' | ',' | ']' | '}' | '%' | '@' | '`'))
        {
            return Err(Rejected);
        }
        self.tokens.push_back(if alias {
            Token::Alias(name)
        } else {
            Token::Anchor(name)
        });
        Ok(())
    }

    fn fetch_tag(&mut self) -> Res<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_tag()?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_block_scalar(&mut self, folded: bool) -> Res<()> {
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        let token = self.scan_block_scalar(folded)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_flow_scalar(&mut self, double: bool) -> Res<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_flow_scalar(double)?;
        self.tokens.push_back(token);
        Ok(())
    }

    fn fetch_plain(&mut self) -> Res<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_plain();
        self.tokens.push_back(token);
        Ok(())
    }

    /// `ch` is the next char, `next_is_blank` whether the one after it is blank, a break or the end.
    fn check_plain(&self, ch: char, next_is_blank: bool) -> bool {
        let indicator = is_blank_or_break_or_end(ch)
            || matches!(
                ch,
                '-' | '?'
                    | ':'
                    | ','
                    | '['
                    | ']'
                    | '{'
                    | '}'
                    | '#'
                    | '&'
                    | '*'
                    | '!'
                    | '|'
                    | '>'
                    | '\''
                    | '"'
                    | '%'
                    | '@'
                    | '`'
            );
        !indicator
            || (!next_is_blank && (ch == '-' || (self.flow_level == 0 && (ch == '?' || ch == ':'))))
    }

    /// Skips spaces (not tabs), comments and line breaks.
    fn scan_to_next_token(&mut self) {
        if self.pos == 0 && self.peek() == '\u{FEFF}' {
            self.forward_char();
        }
        loop {
            let end = self.run_end(self.pos, |c| c == ' ');
            self.forward_within_line(end);
            if self.peek() == '#' {
                let end = self.run_end(self.pos, |c| !is_break_or_end(c));
                self.forward_within_line(end);
            }
            if self.scan_line_break().is_some() {
                if self.flow_level == 0 {
                    self.allow_simple_key = true;
                }
            } else {
                break;
            }
        }
    }

    fn scan_directive(&mut self) -> Res<Token<'a>> {
        self.forward_char();
        let start = self.pos;
        let end = self.run_end(start, is_name_char);
        if end == start {
            return Err(Rejected);
        }
        let name = self.slice(start, end);
        self.forward_within_line(end);
        if !is_space_or_break_or_end(self.peek()) {
            return Err(Rejected);
        }
        let directive = match name {
            "YAML" => {
                self.skip_spaces();
                let major = self.scan_yaml_directive_number()?;
                if self.peek() != '.' {
                    return Err(Rejected);
                }
                self.forward_char();
                self.scan_yaml_directive_number()?;
                if !is_space_or_break_or_end(self.peek()) {
                    return Err(Rejected);
                }
                // Python's int() of the digits: leading zeros allowed.
                Directive::Yaml {
                    major_is_one: major.trim_start_matches('0') == "1",
                }
            }
            "TAG" => {
                self.skip_spaces();
                let handle = self.scan_tag_handle()?.to_string();
                if self.peek() != ' ' {
                    return Err(Rejected);
                }
                self.skip_spaces();
                let prefix = self.scan_tag_uri()?.into_owned();
                if !is_space_or_break_or_end(self.peek()) {
                    return Err(Rejected);
                }
                Directive::Tag { handle, prefix }
            }
            _ => {
                let end = self.run_end(self.pos, |c| !is_break_or_end(c));
                self.forward_within_line(end);
                Directive::Other
            }
        };
        // The rest of the line: spaces and a comment only.
        self.skip_spaces();
        if self.peek() == '#' {
            let end = self.run_end(self.pos, |c| !is_break_or_end(c));
            self.forward_within_line(end);
        }
        if !is_break_or_end(self.peek()) {
            return Err(Rejected);
        }
        self.scan_line_break();
        Ok(Token::Directive(directive))
    }

    fn skip_spaces(&mut self) {
        let end = self.run_end(self.pos, |c| c == ' ');
        self.forward_within_line(end);
    }

    fn scan_yaml_directive_number(&mut self) -> Res<&'a str> {
        let start = self.pos;
        let end = self.run_end(start, |c| c.is_ascii_digit());
        if end == start {
            return Err(Rejected);
        }
        self.forward_within_line(end);
        Ok(self.slice(start, end))
    }

    fn scan_tag(&mut self) -> Res<Token<'a>> {
        let ch = self.peek_at(1);
        let (handle, suffix) = if ch == '<' {
            self.forward(2);
            let suffix = self.scan_tag_uri()?;
            if self.peek() != '>' {
                return Err(Rejected);
            }
            self.forward_char();
            (None, suffix)
        } else if is_blank_or_break_or_end(ch) {
            self.forward_char();
            (None, Cow::Borrowed("!"))
        } else {
            // `!handle!suffix` when a second `!` comes before a space, else `!suffix`.
            let after_bang = self.pos + 1;
            let probe_end = self.run_end(after_bang, |c| !is_space_or_break_or_end(c) && c != '!');
            let use_handle = self.char_at(probe_end) == '!';
            let handle = if use_handle {
                self.scan_tag_handle()?
            } else {
                self.forward_char();
                "!"
            };
            (Some(handle), self.scan_tag_uri()?)
        };
        if !is_space_or_break_or_end(self.peek()) {
            return Err(Rejected);
        }
        Ok(Token::Tag(handle, suffix))
    }

    fn scan_block_scalar(&mut self, folded: bool) -> Res<Token<'a>> {
        self.forward_char();
        // Header: chomping (`+` keep, `-` strip) and indentation indicator, either order.
        let mut chomping: Option<bool> = None;
        let mut increment: Option<isize> = None;
        let ch = self.peek();
        if ch == '+' || ch == '-' {
            chomping = Some(ch == '+');
            self.forward_char();
            if let Some(digit) = self.peek().to_digit(10) {
                if digit == 0 {
                    return Err(Rejected);
                }
                increment = Some(digit as isize);
                self.forward_char();
            }
        } else if let Some(digit) = ch.to_digit(10) {
            if digit == 0 {
                return Err(Rejected);
            }
            increment = Some(digit as isize);
            self.forward_char();
            let ch = self.peek();
            if ch == '+' || ch == '-' {
                chomping = Some(ch == '+');
                self.forward_char();
            }
        }
        if !is_space_or_break_or_end(self.peek()) {
            return Err(Rejected);
        }
        self.skip_spaces();
        if self.peek() == '#' {
            let end = self.run_end(self.pos, |c| !is_break_or_end(c));
            self.forward_within_line(end);
        }
        if !is_break_or_end(self.peek()) {
            return Err(Rejected);
        }
        self.scan_line_break();

        let min_indent = (self.indent + 1).max(1);
        let (mut breaks, indent) = match increment {
            None => {
                let (breaks, max_indent) = self.scan_block_scalar_indentation();
                (breaks, min_indent.max(max_indent))
            }
            Some(increment) => {
                let indent = min_indent + increment - 1;
                (self.scan_block_scalar_breaks(indent), indent)
            }
        };
        let mut chunks = String::new();
        let mut line_break: Option<char> = None;
        while self.column_isize() == indent && self.peek() != '\0' {
            chunks.push_str(&breaks);
            let leading_non_space = self.peek() != ' ' && self.peek() != '\t';
            let start = self.pos;
            let end = self.run_end(start, |c| !is_break_or_end(c));
            chunks.push_str(self.slice(start, end));
            self.forward_within_line(end);
            line_break = self.scan_line_break();
            breaks = self.scan_block_scalar_breaks(indent);
            if self.column_isize() == indent && self.peek() != '\0' {
                let next_is_space = self.peek() == ' ' || self.peek() == '\t';
                if folded && line_break == Some('\n') && leading_non_space && !next_is_space {
                    if breaks.is_empty() {
                        chunks.push(' ');
                    }
                } else if let Some(line_break) = line_break {
                    chunks.push(line_break);
                }
            } else {
                break;
            }
        }
        if chomping != Some(false) {
            if let Some(line_break) = line_break {
                chunks.push(line_break);
            }
        }
        if chomping == Some(true) {
            chunks.push_str(&breaks);
        }
        Ok(Token::Scalar {
            value: Cow::Owned(chunks),
            plain: false,
        })
    }

    /// Leading blank lines of an auto-indented block scalar, and the largest indentation among them.
    fn scan_block_scalar_indentation(&mut self) -> (String, isize) {
        let mut chunks = String::new();
        let mut max_indent = 0;
        loop {
            let ch = self.peek();
            if ch == ' ' {
                self.forward_char();
                max_indent = max_indent.max(self.column_isize());
            } else if is_line_break(ch) {
                if let Some(line_break) = self.scan_line_break() {
                    chunks.push(line_break);
                }
            } else {
                break;
            }
        }
        (chunks, max_indent)
    }

    fn scan_block_scalar_breaks(&mut self, indent: isize) -> String {
        let mut chunks = String::new();
        while self.column_isize() < indent && self.peek() == ' ' {
            self.forward_char();
        }
        while is_line_break(self.peek()) {
            if let Some(line_break) = self.scan_line_break() {
                chunks.push(line_break);
            }
            while self.column_isize() < indent && self.peek() == ' ' {
                self.forward_char();
            }
        }
        chunks
    }

    fn scan_flow_scalar(&mut self, double: bool) -> Res<Token<'a>> {
        let quote = self.peek();
        self.forward_char();
        let mut chunks = Chunks::default();
        self.scan_flow_scalar_non_spaces(double, &mut chunks)?;
        while self.peek() != quote {
            self.scan_flow_scalar_spaces(&mut chunks)?;
            self.scan_flow_scalar_non_spaces(double, &mut chunks)?;
        }
        self.forward_char();
        Ok(Token::Scalar {
            value: chunks.finish(self.text),
            plain: false,
        })
    }

    fn scan_flow_scalar_non_spaces(&mut self, double: bool, chunks: &mut Chunks) -> Res<()> {
        let text = self.text;
        loop {
            let start = self.pos;
            let end = self.run_end(start, |c| {
                !(is_blank_or_break_or_end(c) || matches!(c, '\'' | '"' | '\\'))
            });
            if end > start {
                chunks.push_source(text, start, end);
                self.forward_within_line(end);
            }
            let ch = self.peek();
            if !double && ch == '\'' && self.peek_at(1) == '\'' {
                chunks.push_char(text, '\'');
                self.forward(2);
            } else if (double && ch == '\'') || (!double && (ch == '"' || ch == '\\')) {
                chunks.push_source(text, self.pos, self.pos + 1);
                self.forward_char();
            } else if double && ch == '\\' {
                self.forward_char();
                let ch = self.peek();
                if let Some(replacement) = escape_replacement(ch) {
                    chunks.push_char(text, replacement);
                    self.forward_char();
                } else if let Some(length) = escape_code_length(ch) {
                    self.forward_char();
                    let mut code: u32 = 0;
                    for offset in 0..length {
                        let digit = self.peek_at(offset).to_digit(16).ok_or(Rejected)?;
                        code = code * 16 + digit;
                    }
                    // Python's chr(): above U+10FFFF is an error; a lone surrogate is a valid str
                    // char there but cannot be one here, so it becomes U+FFFD.
                    if code > 0x10FFFF {
                        return Err(Rejected);
                    }
                    chunks.push_char(text, char::from_u32(code).unwrap_or('\u{FFFD}'));
                    self.forward(length);
                } else if is_line_break(ch) {
                    self.scan_line_break();
                    self.scan_flow_scalar_breaks(chunks)?;
                } else {
                    return Err(Rejected); // unknown escape character
                }
            } else {
                return Ok(());
            }
        }
    }

    fn scan_flow_scalar_spaces(&mut self, chunks: &mut Chunks) -> Res<()> {
        let start = self.pos;
        let end = self.run_end(start, |c| c == ' ' || c == '\t');
        self.forward_within_line(end);
        let ch = self.peek();
        if ch == '\0' {
            return Err(Rejected); // unexpected end of stream
        }
        if is_line_break(ch) {
            let line_break = self.scan_line_break();
            let mut breaks = Chunks::default();
            self.scan_flow_scalar_breaks(&mut breaks)?;
            if line_break != Some('\n') {
                if let Some(line_break) = line_break {
                    chunks.push_char(self.text, line_break);
                }
            } else if breaks.is_empty() {
                chunks.push_char(self.text, ' ');
            }
            chunks.append(self.text, breaks);
        } else {
            chunks.push_source(self.text, start, end);
        }
        Ok(())
    }

    fn scan_flow_scalar_breaks(&mut self, chunks: &mut Chunks) -> Res<()> {
        loop {
            if self.at_document_marker() {
                return Err(Rejected); // document separator inside a quoted scalar
            }
            let end = self.run_end(self.pos, |c| c == ' ' || c == '\t');
            self.forward_within_line(end);
            if is_line_break(self.peek()) {
                if let Some(line_break) = self.scan_line_break() {
                    chunks.push_char(self.text, line_break);
                }
            } else {
                return Ok(());
            }
        }
    }

    /// `---` or `...` followed by a blank, a break or the end (at any column: the callers are at
    /// the start of a line).
    fn at_document_marker(&self) -> bool {
        (self.prefix_is("---") || self.prefix_is("..."))
            && is_blank_or_break_or_end(self.peek_at(3))
    }

    /// The end (byte offset) of the plain-scalar chunk starting at `start`.
    fn plain_chunk_end(&self, start: usize) -> usize {
        let in_flow = self.flow_level > 0;
        let mut end = start;
        loop {
            let Some(&byte) = self.bytes.get(end) else {
                return end;
            };
            if byte >= 0x80 {
                let ch = self.char_at(end);
                if is_break_or_end(ch) {
                    return end;
                }
                end += ch.len_utf8();
                continue;
            }
            match byte {
                b'\0' | b' ' | b'\t' | b'\r' | b'\n' => return end,
                b':' => {
                    let after = self.char_at(end + 1);
                    if is_blank_or_break_or_end(after)
                        || (in_flow && matches!(after, ',' | '[' | ']' | '{' | '}'))
                    {
                        return end;
                    }
                }
                b',' | b'?' | b'[' | b']' | b'{' | b'}' if in_flow => return end,
                _ => {}
            }
            end += 1;
        }
    }

    fn scan_plain(&mut self) -> Token<'a> {
        let text = self.text;
        let mut chunks = Chunks::default();
        let indent = self.indent + 1;
        let mut spaces = Chunks::default();
        loop {
            if self.peek() == '#' {
                break;
            }
            let start = self.pos;
            let end = self.plain_chunk_end(start);
            if end == start {
                break;
            }
            self.allow_simple_key = false;
            chunks.append(text, std::mem::take(&mut spaces));
            chunks.push_source(text, start, end);
            self.forward_within_line(end);
            match self.scan_plain_spaces() {
                Some(found) if !found.is_empty() => spaces = found,
                _ => break,
            }
            if self.peek() == '#' || (self.flow_level == 0 && self.column_isize() < indent) {
                break;
            }
        }
        Token::Scalar {
            value: chunks.finish(text),
            plain: true,
        }
    }

    /// The separation after a plain chunk, as it folds into the value; `None` at a document marker.
    fn scan_plain_spaces(&mut self) -> Option<Chunks> {
        let text = self.text;
        let mut chunks = Chunks::default();
        let start = self.pos;
        let end = self.run_end(start, |c| c == ' ');
        self.forward_within_line(end);
        let ch = self.peek();
        if is_line_break(ch) {
            let line_break = self.scan_line_break();
            self.allow_simple_key = true;
            if self.at_document_marker() {
                return None;
            }
            let mut breaks = Chunks::default();
            loop {
                let ch = self.peek();
                if ch == ' ' {
                    self.forward_char();
                } else if is_line_break(ch) {
                    if let Some(line_break) = self.scan_line_break() {
                        breaks.push_char(text, line_break);
                    }
                    if self.at_document_marker() {
                        return None;
                    }
                } else {
                    break;
                }
            }
            if line_break != Some('\n') {
                if let Some(line_break) = line_break {
                    chunks.push_char(text, line_break);
                }
            } else if breaks.is_empty() {
                chunks.push_char(text, ' ');
            }
            chunks.append(text, breaks);
        } else {
            chunks.push_source(text, start, end);
        }
        Some(chunks)
    }

    fn scan_tag_handle(&mut self) -> Res<&'a str> {
        if self.peek() != '!' {
            return Err(Rejected);
        }
        let start = self.pos;
        let mut end = start + 1;
        if self.char_at(end) != ' ' {
            end = self.run_end(end, is_name_char);
            if self.char_at(end) != '!' {
                return Err(Rejected);
            }
            end += 1;
        }
        self.forward_within_line(end);
        Ok(self.slice(start, end))
    }

    fn scan_tag_uri(&mut self) -> Res<Cow<'a, str>> {
        let text = self.text;
        let mut chunks = Chunks::default();
        loop {
            let start = self.pos;
            let end = self.run_end(start, |c| {
                c != '%' && (c.is_ascii_alphanumeric() || "-;/?:@&=+$,_.!~*'()[]".contains(c))
            });
            chunks.push_source(text, start, end);
            self.forward_within_line(end);
            if self.peek() != '%' {
                break;
            }
            let decoded = self.scan_uri_escapes()?;
            chunks.push_str(text, &decoded);
        }
        if chunks.is_empty() {
            return Err(Rejected);
        }
        Ok(chunks.finish(text))
    }

    fn scan_uri_escapes(&mut self) -> Res<String> {
        let mut bytes = Vec::new();
        while self.peek() == '%' {
            self.forward_char();
            let high = self.peek().to_digit(16).ok_or(Rejected)?;
            let low = self.peek_at(1).to_digit(16).ok_or(Rejected)?;
            bytes.push(u8::try_from(high * 16 + low).map_err(|_| Rejected)?);
            self.forward(2);
        }
        String::from_utf8(bytes).map_err(|_| Rejected)
    }

    /// Consumes one line break; `\r\n`, `\r`, `\n` and NEL read as `\n`, LS and PS as themselves.
    fn scan_line_break(&mut self) -> Option<char> {
        let ch = self.peek();
        match ch {
            '\r' | '\n' | '\u{85}' => {
                if ch == '\r' && self.peek_at(1) == '\n' {
                    self.forward(2);
                } else {
                    self.forward_char();
                }
                Some('\n')
            }
            '\u{2028}' | '\u{2029}' => {
                self.forward_char();
                Some(ch)
            }
            _ => None,
        }
    }
}

fn escape_replacement(ch: char) -> Option<char> {
    Some(match ch {
        '0' => '\0',
        'a' => '\u{07}',
        'b' => '\u{08}',
        't' | '\t' => '\t',
        'n' => '\n',
        'v' => '\u{0B}',
        'f' => '\u{0C}',
        'r' => '\r',
        'e' => '\u{1B}',
        ' ' => ' ',
        '"' => '"',
        '\\' => '\\',
        '/' => '/',
        'N' => '\u{85}',
        '_' => '\u{A0}',
        'L' => '\u{2028}',
        'P' => '\u{2029}',
        _ => return None,
    })
}

fn escape_code_length(ch: char) -> Option<usize> {
    match ch {
        'x' => Some(2),
        'u' => Some(4),
        'U' => Some(8),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Parser (port of PyYAML's parser.py: a state machine, no recursion)

#[derive(Debug, Clone, PartialEq, Eq)]
enum Event<'a> {
    StreamStart,
    StreamEnd,
    DocumentStart,
    DocumentEnd,
    Alias(&'a str),
    /// `resolve_implicitly` is PyYAML's `implicit[0]`: plain (or `!`-tagged) scalars get the
    /// implicit resolvers, quoted and block scalars are strings.
    Scalar {
        anchor: Option<&'a str>,
        tag: Option<Cow<'a, str>>,
        resolve_implicitly: bool,
        value: Cow<'a, str>,
    },
    SequenceStart {
        anchor: Option<&'a str>,
        tag: Option<Cow<'a, str>>,
    },
    SequenceEnd,
    MappingStart {
        anchor: Option<&'a str>,
        tag: Option<Cow<'a, str>>,
    },
    MappingEnd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    StreamStart,
    ImplicitDocumentStart,
    DocumentStart,
    DocumentEnd,
    DocumentContent,
    BlockNode,
    BlockSequenceFirstEntry,
    BlockSequenceEntry,
    IndentlessSequenceEntry,
    BlockMappingFirstKey,
    BlockMappingKey,
    BlockMappingValue,
    FlowSequenceFirstEntry,
    FlowSequenceEntry,
    FlowSequenceEntryMappingKey,
    FlowSequenceEntryMappingValue,
    FlowSequenceEntryMappingEnd,
    FlowMappingFirstKey,
    FlowMappingKey,
    FlowMappingValue,
    FlowMappingEmptyValue,
    Finished,
}

struct Parser<'a> {
    scanner: Scanner<'a>,
    state: State,
    states: Vec<State>,
    tag_handles: HashMap<String, String>,
    peeked: Option<Event<'a>>,
}

fn default_tag_handles() -> HashMap<String, String> {
    HashMap::from([
        ("!".to_string(), "!".to_string()),
        ("!!".to_string(), "tag:yaml.org,2002:".to_string()),
    ])
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser {
            scanner: Scanner::new(text),
            state: State::StreamStart,
            states: Vec::new(),
            tag_handles: default_tag_handles(),
            peeked: None,
        }
    }

    fn peek_event(&mut self) -> Res<&Event<'a>> {
        if self.peeked.is_none() {
            let event = self.produce()?;
            self.peeked = Some(event);
        }
        self.peeked.as_ref().ok_or(Rejected)
    }

    fn next_event(&mut self) -> Res<Event<'a>> {
        match self.peeked.take() {
            Some(event) => Ok(event),
            None => self.produce(),
        }
    }

    fn pop_state(&mut self) -> Res<State> {
        self.states.pop().ok_or(Rejected)
    }

    fn check(&mut self, kinds: &[Kind]) -> Res<bool> {
        self.scanner.check(kinds)
    }

    fn skip_token(&mut self) -> Res<()> {
        self.scanner.next_token().map(|_| ())
    }

    fn produce(&mut self) -> Res<Event<'a>> {
        match self.state {
            State::StreamStart => {
                self.skip_token()?;
                self.state = State::ImplicitDocumentStart;
                Ok(Event::StreamStart)
            }
            State::ImplicitDocumentStart => {
                if !self.check(&[Kind::Directive, Kind::DocumentStart, Kind::StreamEnd])? {
                    self.tag_handles = default_tag_handles();
                    self.states.push(State::DocumentEnd);
                    self.state = State::BlockNode;
                    Ok(Event::DocumentStart)
                } else {
                    self.parse_document_start()
                }
            }
            State::DocumentStart => self.parse_document_start(),
            State::DocumentEnd => {
                if self.check(&[Kind::DocumentEnd])? {
                    self.skip_token()?;
                }
                self.state = State::DocumentStart;
                Ok(Event::DocumentEnd)
            }
            State::DocumentContent => {
                if self.check(&[
                    Kind::Directive,
                    Kind::DocumentStart,
                    Kind::DocumentEnd,
                    Kind::StreamEnd,
                ])? {
                    self.state = self.pop_state()?;
                    Ok(empty_scalar())
                } else {
                    self.parse_node(true, false)
                }
            }
            State::BlockNode => self.parse_node(true, false),
            State::BlockSequenceFirstEntry => {
                self.skip_token()?;
                self.parse_block_sequence_entry()
            }
            State::BlockSequenceEntry => self.parse_block_sequence_entry(),
            State::IndentlessSequenceEntry => {
                if self.check(&[Kind::BlockEntry])? {
                    self.skip_token()?;
                    if !self.check(&[Kind::BlockEntry, Kind::Key, Kind::Value, Kind::BlockEnd])? {
                        self.states.push(State::IndentlessSequenceEntry);
                        return self.parse_node(true, false);
                    }
                    self.state = State::IndentlessSequenceEntry;
                    return Ok(empty_scalar());
                }
                self.state = self.pop_state()?;
                Ok(Event::SequenceEnd)
            }
            State::BlockMappingFirstKey => {
                self.skip_token()?;
                self.parse_block_mapping_key()
            }
            State::BlockMappingKey => self.parse_block_mapping_key(),
            State::BlockMappingValue => {
                if self.check(&[Kind::Value])? {
                    self.skip_token()?;
                    if !self.check(&[Kind::Key, Kind::Value, Kind::BlockEnd])? {
                        self.states.push(State::BlockMappingKey);
                        return self.parse_node(true, true);
                    }
                }
                self.state = State::BlockMappingKey;
                Ok(empty_scalar())
            }
            State::FlowSequenceFirstEntry => {
                self.skip_token()?;
                self.parse_flow_sequence_entry(true)
            }
            State::FlowSequenceEntry => self.parse_flow_sequence_entry(false),
            State::FlowSequenceEntryMappingKey => {
                self.skip_token()?;
                if !self.check(&[Kind::Value, Kind::FlowEntry, Kind::FlowSequenceEnd])? {
                    self.states.push(State::FlowSequenceEntryMappingValue);
                    return self.parse_node(false, false);
                }
                self.state = State::FlowSequenceEntryMappingValue;
                Ok(empty_scalar())
            }
            State::FlowSequenceEntryMappingValue => {
                if self.check(&[Kind::Value])? {
                    self.skip_token()?;
                    if !self.check(&[Kind::FlowEntry, Kind::FlowSequenceEnd])? {
                        self.states.push(State::FlowSequenceEntryMappingEnd);
                        return self.parse_node(false, false);
                    }
                }
                self.state = State::FlowSequenceEntryMappingEnd;
                Ok(empty_scalar())
            }
            State::FlowSequenceEntryMappingEnd => {
                self.state = State::FlowSequenceEntry;
                Ok(Event::MappingEnd)
            }
            State::FlowMappingFirstKey => {
                self.skip_token()?;
                self.parse_flow_mapping_key(true)
            }
            State::FlowMappingKey => self.parse_flow_mapping_key(false),
            State::FlowMappingValue => {
                if self.check(&[Kind::Value])? {
                    self.skip_token()?;
                    if !self.check(&[Kind::FlowEntry, Kind::FlowMappingEnd])? {
                        self.states.push(State::FlowMappingKey);
                        return self.parse_node(false, false);
                    }
                }
                self.state = State::FlowMappingKey;
                Ok(empty_scalar())
            }
            State::FlowMappingEmptyValue => {
                self.state = State::FlowMappingKey;
                Ok(empty_scalar())
            }
            State::Finished => Err(Rejected),
        }
    }

    fn parse_document_start(&mut self) -> Res<Event<'a>> {
        while self.check(&[Kind::DocumentEnd])? {
            self.skip_token()?;
        }
        if self.check(&[Kind::StreamEnd])? {
            self.skip_token()?;
            self.state = State::Finished;
            return Ok(Event::StreamEnd);
        }
        self.process_directives()?;
        if !self.check(&[Kind::DocumentStart])? {
            return Err(Rejected); // "expected '<document start>'"
        }
        self.skip_token()?;
        self.states.push(State::DocumentEnd);
        self.state = State::DocumentContent;
        Ok(Event::DocumentStart)
    }

    fn process_directives(&mut self) -> Res<()> {
        let mut seen_yaml_directive = false;
        self.tag_handles = HashMap::new();
        while self.check(&[Kind::Directive])? {
            match self.scanner.next_token()? {
                Token::Directive(Directive::Yaml { major_is_one }) => {
                    if seen_yaml_directive || !major_is_one {
                        return Err(Rejected);
                    }
                    seen_yaml_directive = true;
                }
                Token::Directive(Directive::Tag { handle, prefix }) => {
                    if self.tag_handles.contains_key(&handle) {
                        return Err(Rejected);
                    }
                    self.tag_handles.insert(handle, prefix);
                }
                _ => {}
            }
        }
        for (handle, prefix) in default_tag_handles() {
            self.tag_handles.entry(handle).or_insert(prefix);
        }
        Ok(())
    }

    fn parse_node(&mut self, block: bool, indentless_sequence: bool) -> Res<Event<'a>> {
        if self.check(&[Kind::Alias])? {
            let Token::Alias(name) = self.scanner.next_token()? else {
                return Err(Rejected);
            };
            self.state = self.pop_state()?;
            return Ok(Event::Alias(name));
        }
        let mut anchor = None;
        let mut tag_token = None;
        if self.check(&[Kind::Anchor])? {
            anchor = self.take_anchor()?;
            if self.check(&[Kind::Tag])? {
                tag_token = self.take_tag()?;
            }
        } else if self.check(&[Kind::Tag])? {
            tag_token = self.take_tag()?;
            if self.check(&[Kind::Anchor])? {
                anchor = self.take_anchor()?;
            }
        }
        let tag = match tag_token {
            Some((Some(handle), suffix)) => {
                let prefix = self.tag_handles.get(handle).ok_or(Rejected)?; // undefined tag handle
                Some(Cow::Owned(format!("{prefix}{suffix}")))
            }
            Some((None, suffix)) => Some(suffix),
            None => None,
        };
        let non_specific = tag.as_deref().is_none_or(|tag| tag == "!");
        if indentless_sequence && self.check(&[Kind::BlockEntry])? {
            self.state = State::IndentlessSequenceEntry;
            return Ok(Event::SequenceStart { anchor, tag });
        }
        match self.scanner.peek_kind()? {
            Some(Kind::Scalar) => {
                let Token::Scalar { value, plain } = self.scanner.next_token()? else {
                    return Err(Rejected);
                };
                let resolve_implicitly = (plain && tag.is_none()) || tag.as_deref() == Some("!");
                self.state = self.pop_state()?;
                Ok(Event::Scalar {
                    anchor,
                    tag,
                    resolve_implicitly,
                    value,
                })
            }
            Some(Kind::FlowSequenceStart) => {
                self.state = State::FlowSequenceFirstEntry;
                Ok(Event::SequenceStart { anchor, tag })
            }
            Some(Kind::FlowMappingStart) => {
                self.state = State::FlowMappingFirstKey;
                Ok(Event::MappingStart { anchor, tag })
            }
            Some(Kind::BlockSequenceStart) if block => {
                self.state = State::BlockSequenceFirstEntry;
                Ok(Event::SequenceStart { anchor, tag })
            }
            Some(Kind::BlockMappingStart) if block => {
                self.state = State::BlockMappingFirstKey;
                Ok(Event::MappingStart { anchor, tag })
            }
            _ if anchor.is_some() || tag.is_some() => {
                // An anchor or tag alone: an empty scalar.
                self.state = self.pop_state()?;
                Ok(Event::Scalar {
                    anchor,
                    tag,
                    resolve_implicitly: non_specific,
                    value: Cow::Borrowed(""),
                })
            }
            _ => Err(Rejected), // "expected the node content"
        }
    }

    fn take_anchor(&mut self) -> Res<Option<&'a str>> {
        match self.scanner.next_token()? {
            Token::Anchor(name) => Ok(Some(name)),
            _ => Err(Rejected),
        }
    }

    fn take_tag(&mut self) -> Res<Option<(Option<&'a str>, Cow<'a, str>)>> {
        match self.scanner.next_token()? {
            Token::Tag(handle, suffix) => Ok(Some((handle, suffix))),
            _ => Err(Rejected),
        }
    }

    fn parse_block_sequence_entry(&mut self) -> Res<Event<'a>> {
        if self.check(&[Kind::BlockEntry])? {
            self.skip_token()?;
            if !self.check(&[Kind::BlockEntry, Kind::BlockEnd])? {
                self.states.push(State::BlockSequenceEntry);
                return self.parse_node(true, false);
            }
            self.state = State::BlockSequenceEntry;
            return Ok(empty_scalar());
        }
        if !self.check(&[Kind::BlockEnd])? {
            return Err(Rejected); // "expected <block end>"
        }
        self.skip_token()?;
        self.state = self.pop_state()?;
        Ok(Event::SequenceEnd)
    }

    fn parse_block_mapping_key(&mut self) -> Res<Event<'a>> {
        if self.check(&[Kind::Key])? {
            self.skip_token()?;
            if !self.check(&[Kind::Key, Kind::Value, Kind::BlockEnd])? {
                self.states.push(State::BlockMappingValue);
                return self.parse_node(true, true);
            }
            self.state = State::BlockMappingValue;
            return Ok(empty_scalar());
        }
        if !self.check(&[Kind::BlockEnd])? {
            return Err(Rejected); // "expected <block end>"
        }
        self.skip_token()?;
        self.state = self.pop_state()?;
        Ok(Event::MappingEnd)
    }

    fn parse_flow_sequence_entry(&mut self, first: bool) -> Res<Event<'a>> {
        if !self.check(&[Kind::FlowSequenceEnd])? {
            if !first {
                if self.check(&[Kind::FlowEntry])? {
                    self.skip_token()?;
                } else {
                    return Err(Rejected); // "expected ',' or ']'"
                }
            }
            if self.check(&[Kind::Key])? {
                // `[a: b]`: a single-pair mapping inside a flow sequence.
                self.state = State::FlowSequenceEntryMappingKey;
                return Ok(Event::MappingStart {
                    anchor: None,
                    tag: None,
                });
            }
            if !self.check(&[Kind::FlowSequenceEnd])? {
                self.states.push(State::FlowSequenceEntry);
                return self.parse_node(false, false);
            }
        }
        self.skip_token()?;
        self.state = self.pop_state()?;
        Ok(Event::SequenceEnd)
    }

    fn parse_flow_mapping_key(&mut self, first: bool) -> Res<Event<'a>> {
        if !self.check(&[Kind::FlowMappingEnd])? {
            if !first {
                if self.check(&[Kind::FlowEntry])? {
                    self.skip_token()?;
                } else {
                    return Err(Rejected); // "expected ',' or '}'"
                }
            }
            if self.check(&[Kind::Key])? {
                self.skip_token()?;
                if !self.check(&[Kind::Value, Kind::FlowEntry, Kind::FlowMappingEnd])? {
                    self.states.push(State::FlowMappingValue);
                    return self.parse_node(false, false);
                }
                self.state = State::FlowMappingValue;
                return Ok(empty_scalar());
            }
            if !self.check(&[Kind::FlowMappingEnd])? {
                self.states.push(State::FlowMappingEmptyValue);
                return self.parse_node(false, false);
            }
        }
        self.skip_token()?;
        self.state = self.pop_state()?;
        Ok(Event::MappingEnd)
    }
}

fn empty_scalar<'a>() -> Event<'a> {
    Event::Scalar {
        anchor: None,
        tag: None,
        resolve_implicitly: true,
        value: Cow::Borrowed(""),
    }
}

// ---------------------------------------------------------------------------------------------
// Composer: events to a node graph; an alias is the id of the anchored node (never a copy).

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tag {
    Str,
    Null,
    Bool,
    Int,
    Float,
    Timestamp,
    Binary,
    Merge,
    Value,
    Seq,
    Map,
    Set,
    Omap,
    Pairs,
    /// Any tag SafeConstructor has no constructor for: an error if the node is ever constructed.
    Unknown,
}

fn tag_from_uri(uri: &str) -> Tag {
    match uri.strip_prefix("tag:yaml.org,2002:") {
        Some("str") => Tag::Str,
        Some("null") => Tag::Null,
        Some("bool") => Tag::Bool,
        Some("int") => Tag::Int,
        Some("float") => Tag::Float,
        Some("timestamp") => Tag::Timestamp,
        Some("binary") => Tag::Binary,
        Some("merge") => Tag::Merge,
        Some("value") => Tag::Value,
        Some("seq") => Tag::Seq,
        Some("map") => Tag::Map,
        Some("set") => Tag::Set,
        Some("omap") => Tag::Omap,
        Some("pairs") => Tag::Pairs,
        _ => Tag::Unknown,
    }
}

#[derive(Debug, Clone)]
enum Body<'a> {
    Scalar(Cow<'a, str>),
    Sequence(Vec<usize>),
    Mapping(Vec<(usize, usize)>),
}

#[derive(Debug, Clone)]
struct Node<'a> {
    tag: Tag,
    body: Body<'a>,
}

struct Composer<'a> {
    parser: Parser<'a>,
    nodes: Vec<Node<'a>>,
    anchors: HashMap<&'a str, usize>,
}

/// A collection being composed, with the key waiting for its value when it is a mapping.
struct OpenCollection {
    node: usize,
    pending_key: Option<usize>,
}

impl<'a> Composer<'a> {
    fn new(text: &'a str) -> Self {
        Composer {
            parser: Parser::new(text),
            nodes: Vec::new(),
            anchors: HashMap::new(),
        }
    }

    /// PyYAML's `get_single_node`: `None` for an empty stream, an error for a second document.
    fn compose_single_document(&mut self) -> Res<Option<usize>> {
        if self.parser.next_event()? != Event::StreamStart {
            return Err(Rejected);
        }
        let mut root = None;
        if *self.parser.peek_event()? != Event::StreamEnd {
            self.parser.next_event()?; // DocumentStart
            root = Some(self.compose_node()?);
            if self.parser.next_event()? != Event::DocumentEnd {
                return Err(Rejected);
            }
        }
        if self.parser.next_event()? != Event::StreamEnd {
            return Err(Rejected); // "expected a single document in the stream"
        }
        Ok(root)
    }

    fn register_anchor(&mut self, anchor: Option<&'a str>, node: usize) -> Res<()> {
        if let Some(anchor) = anchor {
            if self.anchors.insert(anchor, node).is_some() {
                return Err(Rejected); // duplicate anchor
            }
        }
        Ok(())
    }

    fn add_node(&mut self, tag: Tag, body: Body<'a>) -> usize {
        self.nodes.push(Node { tag, body });
        self.nodes.len() - 1
    }

    /// Composes one node tree with an explicit stack of open collections.
    fn compose_node(&mut self) -> Res<usize> {
        let mut open: Vec<OpenCollection> = Vec::new();
        loop {
            let finished = match self.parser.next_event()? {
                Event::Alias(name) => Some(*self.anchors.get(name).ok_or(Rejected)?),
                Event::Scalar {
                    anchor,
                    tag,
                    resolve_implicitly,
                    value,
                } => {
                    // Python checks for a duplicate anchor before building the node.
                    if anchor
                        .as_ref()
                        .is_some_and(|name| self.anchors.contains_key(name))
                    {
                        return Err(Rejected);
                    }
                    let tag = match tag.as_deref() {
                        None | Some("!") if resolve_implicitly => resolve_plain_scalar(&value),
                        None | Some("!") => Tag::Str,
                        Some(uri) => tag_from_uri(uri),
                    };
                    let node = self.add_node(tag, Body::Scalar(value));
                    self.register_anchor(anchor, node)?;
                    Some(node)
                }
                Event::SequenceStart { anchor, tag } => {
                    let tag = match tag.as_deref() {
                        None | Some("!") => Tag::Seq,
                        Some(uri) => tag_from_uri(uri),
                    };
                    self.open_collection(&mut open, anchor, tag, Body::Sequence(Vec::new()))?;
                    None
                }
                Event::MappingStart { anchor, tag } => {
                    let tag = match tag.as_deref() {
                        None | Some("!") => Tag::Map,
                        Some(uri) => tag_from_uri(uri),
                    };
                    self.open_collection(&mut open, anchor, tag, Body::Mapping(Vec::new()))?;
                    None
                }
                Event::SequenceEnd | Event::MappingEnd => Some(open.pop().ok_or(Rejected)?.node),
                _ => return Err(Rejected),
            };
            let Some(node) = finished else { continue };
            let Some(parent) = open.last_mut() else {
                return Ok(node);
            };
            let parent_node = self.nodes.get_mut(parent.node).ok_or(Rejected)?;
            match &mut parent_node.body {
                Body::Sequence(items) => items.push(node),
                Body::Mapping(pairs) => match parent.pending_key.take() {
                    Some(key) => pairs.push((key, node)),
                    None => parent.pending_key = Some(node),
                },
                Body::Scalar(_) => return Err(Rejected),
            }
        }
    }

    fn open_collection(
        &mut self,
        open: &mut Vec<OpenCollection>,
        anchor: Option<&'a str>,
        tag: Tag,
        body: Body<'a>,
    ) -> Res<()> {
        if anchor
            .as_ref()
            .is_some_and(|name| self.anchors.contains_key(name))
        {
            return Err(Rejected);
        }
        // PyYAML's recursive composer raises RecursionError past this depth.
        if open.len() >= MAX_NESTING_DEPTH {
            return Err(Rejected);
        }
        let node = self.add_node(tag, body);
        self.register_anchor(anchor, node)?;
        open.push(OpenCollection {
            node,
            pending_key: None,
        });
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Resolver: PyYAML's YAML 1.1 implicit resolvers for plain scalars.

struct Resolvers {
    timestamp_re: Regex,
    timestamp_parts_re: Regex,
}

fn resolvers() -> &'static Resolvers {
    static RESOLVERS: OnceLock<Resolvers> = OnceLock::new();
    RESOLVERS.get_or_init(|| {
        // The patterns are PyYAML's (resolver.py / constructor.py) with the re.X whitespace removed.
        let compile = |pattern: &str| Regex::new(pattern).unwrap_or_else(|_| unreachable_regex());
        Resolvers {
            timestamp_re: compile(
                r"^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$",
            ),
            timestamp_parts_re: compile(
                r"^(?P<year>[0-9][0-9][0-9][0-9])-(?P<month>[0-9][0-9]?)-(?P<day>[0-9][0-9]?)(?:(?:[Tt]|[ \t]+)(?P<hour>[0-9][0-9]?):(?P<minute>[0-9][0-9]):(?P<second>[0-9][0-9])(?:\.(?P<fraction>[0-9]*))?(?:[ \t]*(?P<tz>Z|(?P<tz_sign>[-+])(?P<tz_hour>[0-9][0-9]?)(?::(?P<tz_minute>[0-9][0-9]))?))?)?$",
            ),
        }
    })
}

/// The patterns above are constants that compile; this only exists to avoid a panicking unwrap.
fn unreachable_regex() -> Regex {
    Regex::new("$^").unwrap_or_else(|_| unreachable_regex())
}

/// The text Python's `$` lets a pattern match: the whole string, or the string without one final `\n`.
fn py_dollar_candidates(value: &str) -> impl Iterator<Item = &str> {
    std::iter::once(value).chain(value.strip_suffix('\n'))
}

fn py_match(regex: &Regex, value: &str) -> bool {
    py_dollar_candidates(value).any(|candidate| regex.is_match(candidate))
}

// PyYAML's bool, null, int and float resolver patterns as hand-written matchers over the whole
// candidate (the regexes ran on every plain scalar); the differential test below checks them
// against the patterns themselves.

/// `yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF`
fn is_yaml_bool(s: &str) -> bool {
    matches!(
        s,
        "yes"
            | "Yes"
            | "YES"
            | "no"
            | "No"
            | "NO"
            | "true"
            | "True"
            | "TRUE"
            | "false"
            | "False"
            | "FALSE"
            | "on"
            | "On"
            | "ON"
            | "off"
            | "Off"
            | "OFF"
    )
}

/// `~|null|Null|NULL|` (the empty string included).
fn is_yaml_null(s: &str) -> bool {
    matches!(s, "~" | "null" | "Null" | "NULL" | "")
}

/// The rest of `s` after a leading run of chars in `class` (possibly empty).
fn skip_run(s: &str, class: impl Fn(u8) -> bool) -> &str {
    let end = s.bytes().position(|b| !class(b)).unwrap_or(s.len());
    s.get(end..).unwrap_or("")
}

fn is_digit_or_underscore(b: u8) -> bool {
    b.is_ascii_digit() || b == b'_'
}

/// `[1-9][0-9_]*` or `[0-9][0-9_]*` (per `first`) at the start of `s`: what follows, if it matched.
fn digits_from(s: &str, first: impl Fn(u8) -> bool) -> Option<&str> {
    let rest = s.strip_prefix(|c: char| c.is_ascii() && first(c as u8))?;
    Some(skip_run(rest, is_digit_or_underscore))
}

/// `(?::[0-5]?[0-9])+` over all of `s`.
fn is_sexagesimal_tail(s: &str) -> bool {
    s.strip_prefix(':').is_some_and(|groups| {
        groups.split(':').all(|group| match group.as_bytes() {
            [digit] => digit.is_ascii_digit(),
            [tens, digit] => (b'0'..=b'5').contains(tens) && digit.is_ascii_digit(),
            _ => false,
        })
    })
}

/// `0b[0-1_]+|0[0-7_]+|0|[1-9][0-9_]*|0x[0-9a-fA-F_]+|[1-9][0-9_]*(?::[0-5]?[0-9])+`, signed.
fn is_yaml_int(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    let nonempty_run =
        |rest: &str, class: fn(u8) -> bool| !rest.is_empty() && skip_run(rest, class).is_empty();
    if let Some(rest) = s.strip_prefix("0b") {
        if nonempty_run(rest, |b| matches!(b, b'0' | b'1' | b'_')) {
            return true;
        }
    }
    if let Some(rest) = s.strip_prefix("0x") {
        if nonempty_run(rest, |b| b.is_ascii_hexdigit() || b == b'_') {
            return true;
        }
    }
    if let Some(rest) = s.strip_prefix('0') {
        return rest.is_empty() || nonempty_run(rest, |b| matches!(b, b'0'..=b'7' | b'_'));
    }
    match digits_from(s, |b| matches!(b, b'1'..=b'9')) {
        Some(rest) => rest.is_empty() || is_sexagesimal_tail(rest),
        None => false,
    }
}

/// `[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|
/// [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)`
fn is_yaml_float(s: &str) -> bool {
    let optional_exponent = |rest: &str| {
        rest.is_empty()
            || rest
                .strip_prefix(['e', 'E'])
                .and_then(|r| r.strip_prefix(['-', '+']))
                .is_some_and(|digits| {
                    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
                })
    };
    if matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    if let Some(fraction) = s
        .strip_prefix('.')
        .and_then(|r| digits_from(r, |b| b.is_ascii_digit()))
    {
        if optional_exponent(fraction) {
            return true;
        }
    }
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    let Some(after_int) = digits_from(unsigned, |b| b.is_ascii_digit()) else {
        return false;
    };
    if let Some(fraction) = after_int.strip_prefix('.') {
        return optional_exponent(skip_run(fraction, is_digit_or_underscore));
    }
    // Sexagesimal: the first `.` ends the `:` groups (the groups hold no `.`).
    match after_int.split_once('.') {
        Some((groups, fraction)) => {
            is_sexagesimal_tail(groups) && skip_run(fraction, is_digit_or_underscore).is_empty()
        }
        None => false,
    }
}

/// PyYAML's `resolve(ScalarNode, value, (True, _))`: resolvers are tried by first char, in
/// registration order (bool, float, int, merge, null, timestamp, value).
fn resolve_plain_scalar(value: &str) -> Tag {
    let resolvers = resolvers();
    let Some(first) = value.chars().next() else {
        return Tag::Null;
    };
    match first {
        'y' | 'Y' | 'n' | 'N' | 't' | 'T' | 'f' | 'F' | 'o' | 'O' => {
            if py_dollar_candidates(value).any(is_yaml_bool) {
                return Tag::Bool;
            }
            if (first == 'n' || first == 'N') && py_dollar_candidates(value).any(is_yaml_null) {
                return Tag::Null;
            }
        }
        '-' | '+' | '0'..='9' | '.' => {
            if py_dollar_candidates(value).any(is_yaml_float) {
                return Tag::Float;
            }
            if first != '.' && py_dollar_candidates(value).any(is_yaml_int) {
                return Tag::Int;
            }
            if first.is_ascii_digit() && py_match(&resolvers.timestamp_re, value) {
                return Tag::Timestamp;
            }
        }
        '<' if value == "<<" || value == "<<\n" => return Tag::Merge,
        '~' if py_dollar_candidates(value).any(is_yaml_null) => return Tag::Null,
        '=' if value == "=" || value == "=\n" => return Tag::Value,
        _ => {}
    }
    Tag::Str
}

// ---------------------------------------------------------------------------------------------
// Constructor: SafeConstructor's checks, and Python values for scalars.

/// A constructed scalar (the only hashable things SafeConstructor makes, so the only possible keys).
#[derive(Debug, Clone, PartialEq)]
enum PyScalar {
    None,
    Bool(bool),
    Int(BigInt),
    /// The float, and for NaN which object it is (Python dicts match NaN keys by identity).
    Float(f64, NanObject),
    Str(String),
    Bytes(Vec<u8>),
    Date(Date),
    DateTime(DateTime),
}

/// `SafeConstructor.nan_value` is one shared object for every `.nan`; `float('nan')` makes a new one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum NanObject {
    Shared,
    Node(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Date {
    year: i64,
    month: u32,
    day: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct DateTime {
    date: Date,
    hour: u32,
    minute: u32,
    second: u32,
    microsecond: u32,
    /// UTC offset in minutes for an aware datetime.
    offset_minutes: Option<i64>,
}

/// What Python dict lookup compares: `True == 1 == 1.0`, aware datetimes by instant, NaN by identity.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum KeyIdentity {
    Integer(BigInt),
    NonIntegralFloat(u64),
    Nan(NanObject),
    Text(String),
    NoneValue,
    Bytes(Vec<u8>),
    Date(Date),
    NaiveDateTime(Date, u32, u32, u32, u32),
    AwareDateTime(i128),
}

impl PyScalar {
    fn into_identity(self) -> KeyIdentity {
        match self {
            PyScalar::None => KeyIdentity::NoneValue,
            PyScalar::Bool(flag) => KeyIdentity::Integer(BigInt::from_u64(u64::from(flag))),
            PyScalar::Int(value) => KeyIdentity::Integer(value),
            PyScalar::Float(value, nan_object) => {
                if value.is_nan() {
                    KeyIdentity::Nan(nan_object)
                } else if value.is_finite() && value.fract() == 0.0 {
                    KeyIdentity::Integer(BigInt::from_integral_f64(value))
                } else {
                    KeyIdentity::NonIntegralFloat(value.to_bits())
                }
            }
            PyScalar::Str(text) => KeyIdentity::Text(text),
            PyScalar::Bytes(bytes) => KeyIdentity::Bytes(bytes),
            PyScalar::Date(date) => KeyIdentity::Date(date),
            PyScalar::DateTime(datetime) => match datetime.offset_minutes {
                None => KeyIdentity::NaiveDateTime(
                    datetime.date,
                    datetime.hour,
                    datetime.minute,
                    datetime.second,
                    datetime.microsecond,
                ),
                Some(offset) => {
                    let days = i128::from(days_from_civil(datetime.date));
                    let seconds = days * 86_400
                        + i128::from(datetime.hour) * 3600
                        + i128::from(datetime.minute) * 60
                        + i128::from(datetime.second)
                        - i128::from(offset) * 60;
                    KeyIdentity::AwareDateTime(
                        seconds * 1_000_000 + i128::from(datetime.microsecond),
                    )
                }
            },
        }
    }

    /// Python's `str(value)`; an error where Python raises (an int over 4300 digits).
    fn py_str(&self) -> Res<String> {
        Ok(match self {
            PyScalar::None => "None".to_string(),
            PyScalar::Bool(true) => "True".to_string(),
            PyScalar::Bool(false) => "False".to_string(),
            PyScalar::Int(value) => value.to_decimal().ok_or(Rejected)?,
            PyScalar::Float(value, _) => py_repr_float(*value),
            PyScalar::Str(text) => text.clone(),
            PyScalar::Bytes(bytes) => py_bytes_repr(bytes),
            PyScalar::Date(date) => format_date(date),
            PyScalar::DateTime(datetime) => format_datetime(datetime),
        })
    }
}

/// Python's `type_name` of the value a node constructs to, from its (validated) tag.
fn type_name(tag: Tag) -> &'static str {
    match tag {
        Tag::Map => "object",
        Tag::Seq | Tag::Omap | Tag::Pairs => "array",
        Tag::Bool => "boolean",
        Tag::Null => "null",
        Tag::Int | Tag::Float => "number",
        // str, date/datetime, bytes, set: none of the above.
        _ => "string",
    }
}

struct Constructor<'a> {
    nodes: Vec<Node<'a>>,
}

impl<'a> Constructor<'a> {
    fn node(&self, id: usize) -> Res<&Node<'a>> {
        self.nodes.get(id).ok_or(Rejected)
    }

    fn pairs(&self, id: usize) -> Res<&Vec<(usize, usize)>> {
        match &self.node(id)?.body {
            Body::Mapping(pairs) => Ok(pairs),
            _ => Err(Rejected),
        }
    }

    fn pairs_mut(&mut self, id: usize) -> Res<&mut Vec<(usize, usize)>> {
        match self.nodes.get_mut(id).map(|node| &mut node.body) {
            Some(Body::Mapping(pairs)) => Ok(pairs),
            _ => Err(Rejected),
        }
    }

    /// Constructs every node PyYAML's `construct_document` would, failing where it raises.
    /// The order differs from PyYAML's, which only matters for which error comes first.
    fn construct_document(&mut self, root: usize) -> Res<()> {
        let mut constructed = vec![false; self.nodes.len()];
        let mut pending = vec![root];
        while let Some(id) = pending.pop() {
            match constructed.get_mut(id) {
                Some(done) if !*done => *done = true,
                Some(_) => continue,
                None => return Err(Rejected),
            }
            let node = self.node(id)?;
            match (node.tag, &node.body) {
                (Tag::Seq, Body::Sequence(items)) => pending.extend(items.iter().copied()),
                (Tag::Omap | Tag::Pairs, Body::Sequence(items)) => {
                    // Each item must be a one-pair mapping; its key and value are constructed (the
                    // key need not be hashable), the item mapping itself is not.
                    for &item in items {
                        match &self.node(item)?.body {
                            Body::Mapping(pairs) if pairs.len() == 1 => {
                                pending.extend(pairs.iter().flat_map(|&(key, value)| [key, value]));
                            }
                            _ => return Err(Rejected),
                        }
                    }
                }
                (Tag::Map | Tag::Set, Body::Mapping(_)) => {
                    self.flatten_mapping(id, 0, &mut pending)?;
                    for &(key, value) in self.pairs(id)? {
                        self.check_key(key)?;
                        if let Some(done) = constructed.get_mut(key) {
                            *done = true;
                        }
                        pending.push(value);
                    }
                }
                (Tag::Str | Tag::Null, _) => {
                    self.scalar_text(id)?;
                }
                (Tag::Int, Body::Scalar(text)) if is_plain_small_decimal(text) => {}
                (Tag::Bool | Tag::Int | Tag::Float | Tag::Timestamp | Tag::Binary, _) => {
                    self.construct_scalar(id)?;
                }
                _ => return Err(Rejected), // wrong node kind for the tag, or no constructor
            }
        }
        Ok(())
    }

    /// `construct_key` for validation only: strings and nulls need no copy of their text.
    fn check_key(&self, id: usize) -> Res<()> {
        match self.node(id)?.tag {
            Tag::Str | Tag::Null => self.scalar_text(id).map(|_| ()),
            _ => self.construct_key(id).map(|_| ()),
        }
    }

    /// A mapping key: must construct to something hashable, i.e. a scalar.
    fn construct_key(&self, id: usize) -> Res<PyScalar> {
        match self.node(id)?.tag {
            Tag::Str
            | Tag::Null
            | Tag::Bool
            | Tag::Int
            | Tag::Float
            | Tag::Timestamp
            | Tag::Binary => self.construct_scalar(id),
            _ => Err(Rejected), // unhashable (list, dict, set) or not constructible
        }
    }

    /// SafeConstructor's `flatten_mapping`: `<<` pairs are replaced by the merged mappings' pairs,
    /// placed first (a later merge source wins over an earlier one, own pairs win over all), and
    /// `=` keys become strings. Node lists are mutated in place as in PyYAML. Unlike PyYAML, the
    /// result keeps only one pair per distinct key (first key, last value: what a dict keeps),
    /// so chains of aliased merges cannot grow exponentially; the dropped pairs still get their
    /// keys checked and their values queued for construction, as PyYAML constructs them all.
    fn flatten_mapping(&mut self, id: usize, depth: usize, pending: &mut Vec<usize>) -> Res<()> {
        if depth > MAX_FLATTEN_DEPTH {
            return Err(Rejected);
        }
        let mut merge: Vec<(usize, usize)> = Vec::new();
        let mut index = 0;
        while let Some(&(key, value)) = self.pairs(id)?.get(index) {
            match self.node(key)?.tag {
                Tag::Merge => {
                    self.pairs_mut(id)?.remove(index);
                    match &self.node(value)?.body {
                        Body::Mapping(_) => {
                            self.flatten_mapping(value, depth + 1, pending)?;
                            merge.extend(self.pairs(value)?.iter().copied());
                        }
                        Body::Sequence(items) => {
                            let mut sources = Vec::with_capacity(items.len());
                            for source in items.clone() {
                                if !matches!(self.node(source)?.body, Body::Mapping(_)) {
                                    return Err(Rejected);
                                }
                                self.flatten_mapping(source, depth + 1, pending)?;
                                sources.push(self.pairs(source)?.clone());
                            }
                            for source_pairs in sources.into_iter().rev() {
                                merge.extend(source_pairs);
                            }
                        }
                        Body::Scalar(_) => return Err(Rejected),
                    }
                }
                Tag::Value => {
                    if let Some(node) = self.nodes.get_mut(key) {
                        node.tag = Tag::Str;
                    }
                    index += 1;
                }
                _ => index += 1,
            }
        }
        if merge.is_empty() {
            return Ok(());
        }
        let own = std::mem::take(self.pairs_mut(id)?);
        merge.extend(own);
        // Every value of the combined list gets constructed in PyYAML, including the ones a
        // later duplicate key overrides (and those are about to be dropped here).
        pending.extend(merge.iter().map(|&(_, value)| value));
        let mut position_by_key: HashMap<KeyIdentity, usize> = HashMap::new();
        let mut deduplicated: Vec<(usize, usize)> = Vec::new();
        for (key, value) in merge {
            let identity = self.construct_key(key)?.into_identity();
            match position_by_key.get(&identity) {
                Some(&position) => {
                    if let Some(pair) = deduplicated.get_mut(position) {
                        pair.1 = value;
                    }
                }
                None => {
                    position_by_key.insert(identity, deduplicated.len());
                    deduplicated.push((key, value));
                }
            }
        }
        *self.pairs_mut(id)? = deduplicated;
        Ok(())
    }

    /// SafeConstructor's `construct_scalar`: a scalar's text, or (a quirk) the value of the first
    /// `=` key of a mapping node.
    fn scalar_text(&self, id: usize) -> Res<&str> {
        let mut current = id;
        // A chain of `=` mappings longer than the node count is a cycle: RecursionError in Python.
        for _ in 0..=self.nodes.len() {
            match &self.node(current)?.body {
                Body::Scalar(text) => return Ok(text),
                Body::Mapping(pairs) => {
                    let mut next = None;
                    for &(key, value) in pairs {
                        if self.node(key)?.tag == Tag::Value {
                            next = Some(value);
                            break;
                        }
                    }
                    current = next.ok_or(Rejected)?;
                }
                Body::Sequence(_) => return Err(Rejected),
            }
        }
        Err(Rejected)
    }

    fn construct_scalar(&self, id: usize) -> Res<PyScalar> {
        let node = self.node(id)?;
        let text = self.scalar_text(id)?;
        match node.tag {
            Tag::Str => Ok(PyScalar::Str(text.to_string())),
            Tag::Null => Ok(PyScalar::None),
            // ASCII lowering is Python's `lower()` here: no non-ASCII char lowers into these words.
            Tag::Bool => match text.to_ascii_lowercase().as_str() {
                "yes" | "true" | "on" => Ok(PyScalar::Bool(true)),
                "no" | "false" | "off" => Ok(PyScalar::Bool(false)),
                _ => Err(Rejected),
            },
            Tag::Int => construct_yaml_int(text).map(PyScalar::Int),
            Tag::Float => construct_yaml_float(text, id),
            Tag::Binary => decode_base64(text).map(PyScalar::Bytes),
            Tag::Timestamp => match &node.body {
                // The regex runs on `node.value`, which is a list for a mapping node: TypeError.
                Body::Scalar(value) => construct_yaml_timestamp(value),
                _ => Err(Rejected),
            },
            _ => Err(Rejected),
        }
    }

    fn top_level(&self, root: usize) -> Res<TopLevel> {
        let node = self.node(root)?;
        match (node.tag, &node.body) {
            (Tag::Map, Body::Mapping(pairs)) => {
                // Only the first listed keys are shown, so a later key matters only when it equals
                // one of them (its value then replaces theirs): no map over every key is needed.
                let mut entries: Vec<(PyScalar, &'static str)> = Vec::new();
                let mut identities: Vec<KeyIdentity> = Vec::new();
                // The listed string keys again, borrowed: most keys are strings, and comparing
                // them needs no constructed value.
                let mut listed_texts: Vec<(&str, usize)> = Vec::new();
                for &(key, value) in pairs {
                    let value_type = type_name(self.node(value)?.tag);
                    if self.node(key)?.tag == Tag::Str {
                        let text = self.scalar_text(key)?;
                        match listed_texts.iter().find(|(listed, _)| *listed == text) {
                            Some(&(_, position)) => {
                                if let Some(entry) = entries.get_mut(position) {
                                    entry.1 = value_type;
                                }
                            }
                            None if entries.len() < MAX_LISTED_KEYS => {
                                listed_texts.push((text, entries.len()));
                                identities.push(KeyIdentity::Text(text.to_string()));
                                entries.push((PyScalar::Str(text.to_string()), value_type));
                            }
                            None => {}
                        }
                        continue;
                    }
                    let key = self.construct_key(key)?;
                    let identity = key.clone().into_identity();
                    match identities.iter().position(|known| *known == identity) {
                        Some(position) => {
                            if let Some(entry) = entries.get_mut(position) {
                                entry.1 = value_type;
                            }
                        }
                        None if entries.len() < MAX_LISTED_KEYS => {
                            identities.push(identity);
                            entries.push((key, value_type));
                        }
                        None => {}
                    }
                }
                Ok(TopLevel::Mapping(entries))
            }
            (Tag::Seq | Tag::Omap | Tag::Pairs, Body::Sequence(items)) => {
                Ok(TopLevel::Sequence(items.len()))
            }
            _ => Err(Rejected), // a scalar, a set, or a `=` mapping read as a scalar
        }
    }
}

/// A decimal int `construct_yaml_int` always accepts (`0`, or an optional sign and at most 18
/// digits without a leading zero or `_`): validating it needs no big-int arithmetic.
fn is_plain_small_decimal(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    text == "0"
        || (!digits.is_empty()
            && digits.len() <= 18
            && !digits.starts_with('0')
            && digits.bytes().all(|byte| byte.is_ascii_digit()))
}

/// SafeConstructor's `construct_yaml_int`.
fn construct_yaml_int(text: &str) -> Res<BigInt> {
    let value = text.replace('_', "");
    let (negative, value) = split_sign(&value)?;
    let magnitude = if value == "0" {
        BigInt::zero()
    } else if let Some(digits) = value.strip_prefix("0b") {
        python_int(digits, 2)?
    } else if let Some(digits) = value.strip_prefix("0x") {
        python_int(digits, 16)?
    } else if value.starts_with('0') {
        python_int(value, 8)?
    } else if value.contains(':') {
        // Sexagesimal: each part is a Python int(); i128 covers any realistic value.
        let mut total: i128 = 0;
        for part in value.split(':') {
            let part = python_int(part, 10)?.to_i128().ok_or(Rejected)?;
            total = total
                .checked_mul(60)
                .and_then(|t| t.checked_add(part))
                .ok_or(Rejected)?;
        }
        BigInt::from_i128(total)
    } else {
        python_int(value, 10)?
    };
    Ok(if negative {
        magnitude.negated()
    } else {
        magnitude
    })
}

/// The `sign` handling shared by the int and float constructors (`value[0]` of "" raises).
fn split_sign(value: &str) -> Res<(bool, &str)> {
    match value.chars().next() {
        None => Err(Rejected),
        Some('-') => Ok((true, value.get(1..).unwrap_or(""))),
        Some('+') => Ok((false, value.get(1..).unwrap_or(""))),
        Some(_) => Ok((false, value)),
    }
}

/// Python's `int(text, base)` for bases 2, 8, 10 and 16 (ASCII digits; `_` is already removed).
fn python_int(text: &str, base: u32) -> Res<BigInt> {
    let text = py_strip(text);
    let (negative, digits) = match text.chars().next() {
        Some('-') => (true, text.get(1..).unwrap_or("")),
        Some('+') => (false, text.get(1..).unwrap_or("")),
        _ => (false, text),
    };
    let prefix = match base {
        2 => Some(["0b", "0B"]),
        8 => Some(["0o", "0O"]),
        16 => Some(["0x", "0X"]),
        _ => None,
    };
    let digits = prefix
        .and_then(|prefixes| {
            prefixes
                .iter()
                .find_map(|prefix| digits.strip_prefix(prefix))
        })
        .unwrap_or(digits);
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(base)) {
        return Err(Rejected);
    }
    let magnitude = match base {
        10 => {
            if digits.len() > INT_MAX_STR_DIGITS {
                return Err(Rejected);
            }
            BigInt::from_decimal_digits(digits)
        }
        _ => BigInt::from_power_of_two_digits(digits, base),
    };
    Ok(if negative {
        magnitude.negated()
    } else {
        magnitude
    })
}

/// SafeConstructor's `construct_yaml_float`.
fn construct_yaml_float(text: &str, node: usize) -> Res<PyScalar> {
    // ASCII lowering suffices: a non-ASCII char fails `python_float` either way, lowered or not
    // (Python's `lower()` of U+0130 and U+212A gives ASCII letters no float accepts).
    let value = text.replace('_', "").to_ascii_lowercase();
    let (negative, value) = split_sign(&value)?;
    let sign = if negative { -1.0 } else { 1.0 };
    if value == ".inf" {
        return Ok(PyScalar::Float(sign * f64::INFINITY, NanObject::Node(node)));
    }
    if value == ".nan" {
        return Ok(PyScalar::Float(f64::NAN, NanObject::Shared));
    }
    let magnitude = if value.contains(':') {
        let mut parts = Vec::new();
        for part in value.split(':') {
            parts.push(python_float(part)?);
        }
        let mut total = 0.0;
        let mut base = 1.0;
        for part in parts.iter().rev() {
            total += part * base;
            base *= 60.0;
        }
        total
    } else {
        python_float(value)?
    };
    Ok(PyScalar::Float(sign * magnitude, NanObject::Node(node)))
}

/// Python's `float(text)`: surrounding whitespace allowed, `inf`/`nan`/`infinity` in any case.
fn python_float(text: &str) -> Res<f64> {
    let text = py_strip(text);
    // Rust also accepts these forms; anything with a letter other than e/inf/nan fails in both.
    text.parse::<f64>().map_err(|_| Rejected)
}

/// SafeConstructor's `construct_yaml_timestamp`, with Python's date/datetime range checks.
fn construct_yaml_timestamp(value: &str) -> Res<PyScalar> {
    let parts_re = &resolvers().timestamp_parts_re;
    let captures = py_dollar_candidates(value)
        .find_map(|candidate| parts_re.captures(candidate))
        .ok_or(Rejected)?;
    let number =
        |name: &str| -> Option<u32> { captures.name(name).and_then(|m| m.as_str().parse().ok()) };
    let year = i64::from(number("year").ok_or(Rejected)?);
    let month = number("month").ok_or(Rejected)?;
    let day = number("day").ok_or(Rejected)?;
    if !(1..=9999).contains(&year)
        || !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
    {
        return Err(Rejected);
    }
    let date = Date { year, month, day };
    let Some(hour) = number("hour") else {
        return Ok(PyScalar::Date(date));
    };
    let minute = number("minute").ok_or(Rejected)?;
    let second = number("second").ok_or(Rejected)?;
    if hour > 23 || minute > 59 || second > 59 {
        return Err(Rejected);
    }
    let microsecond = match captures.name("fraction").map(|m| m.as_str()) {
        Some(fraction) if !fraction.is_empty() => {
            let digits: String = fraction
                .chars()
                .chain(std::iter::repeat('0'))
                .take(6)
                .collect();
            digits.parse().map_err(|_| Rejected)?
        }
        _ => 0,
    };
    let offset_minutes = if let Some(sign) = captures.name("tz_sign") {
        let offset = i64::from(number("tz_hour").ok_or(Rejected)?) * 60
            + i64::from(number("tz_minute").unwrap_or(0));
        // datetime.timezone needs -24h < offset < 24h.
        if offset >= 24 * 60 {
            return Err(Rejected);
        }
        Some(if sign.as_str() == "-" {
            -offset
        } else {
            offset
        })
    } else if captures.name("tz").is_some() {
        Some(0)
    } else {
        None
    };
    Ok(PyScalar::DateTime(DateTime {
        date,
        hour,
        minute,
        second,
        microsecond,
        offset_minutes,
    }))
}

fn days_in_month(year: i64, month: u32) -> u32 {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 (proleptic Gregorian), for comparing aware datetimes by instant.
fn days_from_civil(date: Date) -> i64 {
    let year = if date.month <= 2 {
        date.year - 1
    } else {
        date.year
    };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month = i64::from(date.month);
    let day_of_year =
        (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(date.day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

fn format_date(date: &Date) -> String {
    format!("{:04}-{:02}-{:02}", date.year, date.month, date.day)
}

/// Python's `str(datetime)`: `YYYY-MM-DD HH:MM:SS[.ffffff][+HH:MM]`.
fn format_datetime(datetime: &DateTime) -> String {
    let mut text = format!(
        "{} {:02}:{:02}:{:02}",
        format_date(&datetime.date),
        datetime.hour,
        datetime.minute,
        datetime.second
    );
    if datetime.microsecond != 0 {
        text.push_str(&format!(".{:06}", datetime.microsecond));
    }
    if let Some(offset) = datetime.offset_minutes {
        let sign = if offset < 0 { '-' } else { '+' };
        text.push_str(&format!(
            "{sign}{:02}:{:02}",
            offset.abs() / 60,
            offset.abs() % 60
        ));
    }
    text
}

/// `base64.decodebytes` (binascii's non-strict decoder): other chars are skipped, a pad ends the
/// data once a quad is complete, a dangling partial quad is an error. Non-ASCII text is an error.
fn decode_base64(text: &str) -> Res<Vec<u8>> {
    if !text.is_ascii() {
        return Err(Rejected);
    }
    let mut output = Vec::new();
    let mut quad_position = 0;
    let mut pads = 0;
    let mut left: u32 = 0;
    for byte in text.bytes() {
        if byte == b'=' {
            if quad_position >= 2 {
                pads += 1;
                if quad_position + pads >= 4 {
                    return Ok(output);
                }
            }
            continue;
        }
        let sextet = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => continue,
        };
        let sextet = u32::from(sextet);
        match quad_position {
            0 => {
                left = sextet;
                quad_position = 1;
            }
            1 => {
                output.push(((left << 2) | (sextet >> 4)) as u8);
                left = sextet & 0x0f;
                quad_position = 2;
            }
            2 => {
                output.push(((left << 4) | (sextet >> 2)) as u8);
                left = sextet & 0x03;
                quad_position = 3;
            }
            _ => {
                output.push(((left << 6) | sextet) as u8);
                left = 0;
                quad_position = 0;
            }
        }
    }
    if quad_position == 0 {
        Ok(output)
    } else {
        Err(Rejected)
    }
}

// ---------------------------------------------------------------------------------------------
// Arbitrary-precision integers, only as far as keys need them (equality and decimal printing).

/// Sign and little-endian base-2^32 magnitude without high zero limbs; zero is never negative.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct BigInt {
    negative: bool,
    magnitude: Vec<u32>,
}

impl BigInt {
    fn zero() -> Self {
        BigInt {
            negative: false,
            magnitude: Vec::new(),
        }
    }

    fn normalized(mut self) -> Self {
        while self.magnitude.last() == Some(&0) {
            self.magnitude.pop();
        }
        if self.magnitude.is_empty() {
            self.negative = false;
        }
        self
    }

    fn from_u64(value: u64) -> Self {
        BigInt {
            negative: false,
            magnitude: vec![value as u32, (value >> 32) as u32],
        }
        .normalized()
    }

    fn from_i128(value: i128) -> Self {
        let magnitude = value.unsigned_abs();
        let limbs = (0..4)
            .map(|index| (magnitude >> (32 * index)) as u32)
            .collect();
        BigInt {
            negative: value < 0,
            magnitude: limbs,
        }
        .normalized()
    }

    fn to_i128(&self) -> Option<i128> {
        if self.magnitude.len() > 3 {
            return None;
        }
        let magnitude = self
            .magnitude
            .iter()
            .rev()
            .fold(0i128, |total, &limb| (total << 32) | i128::from(limb));
        Some(if self.negative { -magnitude } else { magnitude })
    }

    fn negated(mut self) -> Self {
        self.negative = !self.negative;
        self.normalized()
    }

    /// `magnitude = magnitude * multiplier + addend`.
    fn multiply_add(&mut self, multiplier: u32, addend: u32) {
        let mut carry = u64::from(addend);
        for limb in &mut self.magnitude {
            let product = u64::from(*limb) * u64::from(multiplier) + carry;
            *limb = product as u32;
            carry = product >> 32;
        }
        if carry > 0 {
            self.magnitude.push(carry as u32);
        }
    }

    /// Decimal digits, at most `INT_MAX_STR_DIGITS` of them, so quadratic work stays small.
    fn from_decimal_digits(digits: &str) -> Self {
        let mut value = BigInt::zero();
        let bytes = digits.as_bytes();
        for chunk in bytes.chunks(9) {
            let chunk_value = chunk
                .iter()
                .fold(0u32, |total, &digit| total * 10 + u32::from(digit - b'0'));
            let multiplier = 10u32.pow(u32::try_from(chunk.len()).unwrap_or(0));
            value.multiply_add(multiplier, chunk_value);
        }
        value.normalized()
    }

    /// Digits of base 2, 8 or 16, packed bit by bit in linear time.
    fn from_power_of_two_digits(digits: &str, base: u32) -> Self {
        let bits_per_digit = base.trailing_zeros();
        let mut magnitude = Vec::new();
        let mut accumulator: u64 = 0;
        let mut accumulated_bits = 0;
        for digit in digits.chars().rev().filter_map(|c| c.to_digit(base)) {
            accumulator |= u64::from(digit) << accumulated_bits;
            accumulated_bits += bits_per_digit;
            if accumulated_bits >= 32 {
                magnitude.push(accumulator as u32);
                accumulator >>= 32;
                accumulated_bits -= 32;
            }
        }
        magnitude.push(accumulator as u32);
        BigInt {
            negative: false,
            magnitude,
        }
        .normalized()
    }

    /// The exact integer value of an integral finite float.
    fn from_integral_f64(value: f64) -> Self {
        let bits = value.to_bits();
        let negative = bits >> 63 == 1;
        let exponent_bits = ((bits >> 52) & 0x7ff) as i64;
        let fraction = bits & ((1u64 << 52) - 1);
        if exponent_bits == 0 {
            return BigInt::zero(); // zero or subnormal, and integral means zero
        }
        let mantissa = fraction | (1u64 << 52);
        let shift = exponent_bits - 1075;
        let mut result = if shift >= 0 {
            let mut result = BigInt::from_u64(mantissa);
            let limb_shift = usize::try_from(shift / 32).unwrap_or(0);
            let bit_shift = (shift % 32) as u32;
            if bit_shift > 0 {
                result.multiply_add(1u32 << bit_shift, 0);
            }
            let mut magnitude = vec![0u32; limb_shift];
            magnitude.extend(result.magnitude);
            BigInt {
                negative: false,
                magnitude,
            }
        } else {
            BigInt::from_u64(mantissa >> (-shift).min(63))
        };
        result.negative = negative;
        result.normalized()
    }

    /// Python's `str(int)`; `None` past CPython's 4300-digit limit (where `str()` raises).
    fn to_decimal(&self) -> Option<String> {
        // 4300 decimal digits need at most 14285 bits; larger values cannot print.
        if self.magnitude.len() * 32 > 14_400 {
            return None;
        }
        let mut remaining = self.magnitude.clone();
        let mut chunks: Vec<u32> = Vec::new();
        while !remaining.is_empty() {
            let mut remainder: u64 = 0;
            for limb in remaining.iter_mut().rev() {
                let current = (remainder << 32) | u64::from(*limb);
                *limb = (current / 1_000_000_000) as u32;
                remainder = current % 1_000_000_000;
            }
            chunks.push(remainder as u32);
            while remaining.last() == Some(&0) {
                remaining.pop();
            }
        }
        let mut text = String::from(if self.negative { "-" } else { "" });
        match chunks.split_last() {
            None => text.push('0'),
            Some((most_significant, rest)) => {
                text.push_str(&most_significant.to_string());
                for chunk in rest.iter().rev() {
                    text.push_str(&format!("{chunk:09}"));
                }
            }
        }
        let digit_count = text.trim_start_matches('-').len();
        (digit_count <= INT_MAX_STR_DIGITS).then_some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> Option<Vec<String>> {
        synopsis(text).map(|s| s.structure)
    }

    fn summary(text: &str) -> Option<Vec<String>> {
        synopsis(text).map(|s| s.summary)
    }

    #[test]
    fn mapping_and_sequence() {
        let result =
            synopsis("a: 1\nb: [1, 2]\nc: {x: y}\nd:\ne: yes\nf: 2024-01-02\ng: 'x'\n").unwrap();
        assert_eq!(
            result.summary,
            vec!["YAML object.", "top-level keys: a, b, c, d, e, f, g"]
        );
        assert_eq!(
            result.structure,
            vec![
                "a: number",
                "b: array",
                "c: object",
                "d: null",
                "e: boolean",
                "f: string",
                "g: string"
            ]
        );
        assert_eq!(
            summary("- 1\n- 2\n- 3\n").unwrap(),
            vec!["YAML array.", "array length: 3"]
        );
        assert_eq!(synopsis("- 1\n").unwrap().structure, Vec::<String>::new());
    }

    #[test]
    fn non_collections_are_not_yaml() {
        for text in [
            "",
            "# only a comment\n",
            "just text",
            "42",
            "~",
            "---\n",
            "!!set {a, b}",
            "!!str {=: x}",
        ] {
            assert_eq!(synopsis(text), None, "{text:?}");
        }
    }

    #[test]
    fn yaml_11_key_spellings_and_python_equality() {
        assert_eq!(
            summary("yes: 1\nNo: 2\nON: 3\n").unwrap()[1],
            "top-level keys: True, False"
        );
        // True == 1 == 1.0: one key, first spelling, last value.
        assert_eq!(
            keys("on: a\n1: 2\n1.0: [x]\n").unwrap(),
            vec!["True: array"]
        );
        assert_eq!(keys("1: a\ntrue: 2\n").unwrap(), vec!["1: number"]);
        assert_eq!(
            keys("~: 1\nnull: 2\n'null': 3\n").unwrap(),
            vec!["None: number", "null: number"]
        );
        assert_eq!(
            keys("0x1F: a\n0b11: b\n017: c\n1_000: d\n1:20: e\n").unwrap()[..5].to_vec(),
            vec![
                "31: string",
                "3: string",
                "15: string",
                "1000: string",
                "80: string"
            ]
        );
        assert_eq!(
            keys("1.5: a\n100.0: b\n1e3: c\n.inf: d\n-.inf: e\n1.0e+16: f\n").unwrap(),
            vec![
                "1.5: string",
                "100.0: string",
                "1e3: string",
                "inf: string",
                "-inf: string",
                "1e+16: string"
            ]
        );
    }

    #[test]
    fn nan_keys_follow_python_identity() {
        // SafeConstructor returns one shared NaN object for `.nan`, so the dict keeps one key.
        assert_eq!(keys(".nan: 1\n.NaN: 2\n").unwrap(), vec!["nan: number"]);
        // float('nan') makes a new object per node: two keys.
        assert_eq!(
            keys("!!float nan: 1\n!!float nan: x\n").unwrap(),
            vec!["nan: number", "nan: string"]
        );
    }

    #[test]
    fn quoted_scalars_are_strings() {
        assert_eq!(
            keys("'yes': 1\n\"1\": 2\nx: '12'\n").unwrap(),
            vec!["yes: number", "1: number", "x: string"]
        );
        // A lone `!` tag makes even a quoted scalar go through the resolvers (PyYAML quirk).
        assert_eq!(keys("! '12': x\n").unwrap(), vec!["12: string"]);
    }

    #[test]
    fn timestamps() {
        assert_eq!(
            keys("2024-01-02: a\n2001-12-14t21:59:43.10-05:00: b\n2001-12-15 2:59:43.1Z: c\n2002-12-14: d\n").unwrap(),
            vec!["2024-01-02: string", "2001-12-14 21:59:43.100000-05:00: string", "2002-12-14: string"]
        );
        assert_eq!(synopsis("a: 2024-13-01\n"), None);
        assert_eq!(synopsis("a: 2023-02-29\n"), None);
    }

    #[test]
    fn merge_keys() {
        let text = "base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  y: 3\n";
        assert_eq!(keys(text).unwrap(), vec!["base: object", "other: object"]);
        assert_eq!(
            keys("<<: {a: 1, b: [1]}\nc: 2\nb: 3\n").unwrap(),
            vec!["a: number", "b: number", "c: number"]
        );
        assert_eq!(
            keys("<<: [{a: 1}, {a: [x], b: 2}]\n").unwrap(),
            vec!["a: number", "b: number"]
        );
        assert_eq!(synopsis("a: <<\n"), None);
        // An overridden value is still constructed, so its error still counts.
        assert_eq!(synopsis("<<: {x: 1}\na: !!int bad\na: 2\n"), None);
        assert_eq!(synopsis("<<: [{a: !!int bad}, {a: 1}]\n"), None);
        assert_eq!(synopsis("<<: 1\n"), None);
        assert_eq!(synopsis("a: =\n"), None);
        assert_eq!(keys("=: 1\n").unwrap(), vec!["=: number"]);
    }

    #[test]
    fn merge_bomb_stays_small() {
        let mut text = String::from("a0: &a0 {k0: 1, k1: 2}\n");
        for level in 1..60 {
            let previous = format!("*a{}", level - 1);
            text.push_str(&format!(
                "a{level}: &a{level} {{<<: [{previous}, {previous}, {previous}]}}\n"
            ));
        }
        assert_eq!(synopsis(&text).unwrap().structure.len(), 30);
    }

    #[test]
    fn alias_bomb_is_not_expanded() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for level in 1..40 {
            let previous = format!("*a{}", level - 1);
            let items = [previous.as_str(); 10].join(", ");
            text.push_str(&format!("a{level}: &a{level} [{items}]\n"));
        }
        assert_eq!(synopsis(&text).unwrap().summary[0], "YAML object.");
    }

    #[test]
    fn errors_reject() {
        for text in [
            "a: 1\n---\nb: 2\n",  // two documents
            "[1]: x\n",           // unhashable key
            "{a: 1}: x\n",        // unhashable key
            "a: !foo x\n",        // unknown tag
            "a: b\tc\n",          // tab cannot start a token
            "a:\n\tb: 1\n",       // tab indentation
            "a: *nope\n",         // undefined alias
            "a: &x 1\nb: &x 2\n", // duplicate anchor
            "a: 0b_\n",           // int('', 2)
            "a: !!int x\n",       // bad int
            "a: \"\\q\"\n",       // unknown escape
            "a: 1\n b: 2\n",      // mapping values are not allowed here
            "a: [1, 2\n",         // unclosed flow
            "key: value\u{7}\n",  // non-printable
        ] {
            assert_eq!(synopsis(text), None, "{text:?}");
        }
        assert!(synopsis("a: 1\n...\n").is_some());
    }

    #[test]
    fn deep_nesting_matches_python_recursion_limit() {
        let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert!(synopsis(&nested(MAX_NESTING_DEPTH)).is_some());
        assert_eq!(synopsis(&nested(MAX_NESTING_DEPTH + 1)), None);
        assert_eq!(synopsis(&nested(10_000)), None);
        let block: String = (0..10_000)
            .map(|level| format!("{}a:\n", " ".repeat(level)))
            .collect();
        assert_eq!(synopsis(&block), None);
    }

    #[test]
    fn float_keys_print_with_pythons_repr() {
        // An exact tie between two shortest digit strings: Python keeps the even one (a copy
        // of the float repr without that rule gave `934877530335423.3`, issue 17).
        assert_eq!(
            keys("934877530335423.25: c\n934877530335423.75: d\n1.2345e-5: e\n100.0: f\n"),
            Some(vec![
                "934877530335423.2: string".to_string(),
                "934877530335423.8: string".to_string(),
                "1.2345e-05: string".to_string(),
                "100.0: string".to_string(),
            ])
        );
    }

    #[test]
    fn big_integers() {
        assert_eq!(
            keys("123456789012345678901234567890: a\n").unwrap(),
            vec!["123456789012345678901234567890: string"]
        );
        assert_eq!(
            keys("0xFFFFFFFFFFFFFFFFFFFF: a\n").unwrap(),
            vec!["1208925819614629174706175: string"]
        );
        assert_eq!(
            keys("-0x10: a\n1e20: b\n100000000000000000000: c\n").unwrap(),
            vec![
                "-16: string",
                "1e20: string",
                "100000000000000000000: string"
            ]
        );
        assert_eq!(
            keys("100000000000000000000.0: a\n100000000000000000000: c\n").unwrap(),
            vec!["1e+20: string"]
        );
    }

    #[test]
    fn omap_and_binary() {
        assert_eq!(
            summary("!!omap [a: 1, b: 2]").unwrap(),
            vec!["YAML array.", "array length: 2"]
        );
        assert_eq!(synopsis("!!omap [a: 1, {b: 2, c: 3}]"), None);
        assert_eq!(keys("!!binary aGk=: x\n").unwrap(), vec!["b'hi': string"]);
        assert_eq!(synopsis("a: !!binary aGk\n"), None);
    }

    #[test]
    fn simple_path_agrees_with_the_port() {
        let pieces = [
            "a: 1",
            "b:",
            "  - x",
            "- y",
            "  c: yes",
            "    d: 2024-01-02",
            "# c",
            "",
            "- - z",
            "-",
            "  -",
            "e: f # g",
            "---",
            "k:  v  ",
            " x: 1",
            "a: 0x1F",
            "  b: 2023-02-29",
            "- k: v",
            "  k2: ~",
            "q: 'it''s: #'",
            "- \"x\"",
        ];
        let mut answered = 0;
        for lines in crate::test_support::joined_pieces(
            &pieces
                .map(|piece| format!("{piece}\n"))
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>(),
        ) {
            if let Some(fast) = simple::load(&lines) {
                answered += 1;
                assert_eq!(Ok(fast), load_with_port(&lines), "{lines:?}");
            }
        }
        assert!(answered > 5_000, "{answered}");
        // The benchmark's shape is answered by the simple path.
        let bench = "---\nitem_0:\n  name: café über\n  count: 12\n  enabled: true\n  tags:\n    - alpha\n    - 日本語\n";
        assert!(simple::load(bench).is_some());
        // Its own printable check agrees with the reader's.
        let printable = |c: char| {
            matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}'
                | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
        };
        let probes = (0..0x300)
            .chain(0x2000..0x2100)
            .chain(0xD700..0xE100)
            .chain(0xFEF0..0x10010);
        for ch in probes.filter_map(char::from_u32) {
            let text = format!("a: b{ch}c\n");
            let answered = simple::load(&text).is_some();
            let special = matches!(
                ch,
                '\t' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{FEFF}' | '\n' | '#' | ':'
            );
            if !special {
                assert_eq!(answered, printable(ch), "{ch:?}");
            } else if !printable(ch) {
                assert!(!answered, "{ch:?}");
            }
        }
        // What it leaves to the port.
        for text in [
            "a: \"q\\n\"\n",
            "a: 'q' x\n",
            "a: [1]\n",
            "a: &x 1\n",
            "a: b\r\n",
            "a:\tb\n",
            "1: x\n",
            "a: <<\n",
            "a: b\n  c\n",
        ] {
            assert_eq!(simple::load(text), None, "{text:?}");
        }
    }

    #[test]
    fn printable_check_agrees_with_the_char_rule() {
        let printable = |c: char| {
            matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}'
                | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
        };
        let pieces = [
            "a", "\t", "\n", "\r", "\u{7}", "\u{7F}", "\u{85}", "\u{9F}", "é", "\u{FFFE}", "😀",
            "\0",
        ];
        let long = "x".repeat(40);
        for joined in crate::test_support::joined_pieces(&pieces) {
            for text in [
                joined.clone(),
                format!("{long}{joined}"),
                format!("{joined}{long}"),
                format!("{}{joined}", &long[..31]),
            ] {
                assert_eq!(
                    check_printable(&text).is_ok(),
                    text.chars().all(printable),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn scalar_resolvers_agree_with_pyyamls_patterns() {
        let pattern = |body: &str| regex::Regex::new(&format!("^(?:{body})$")).unwrap();
        type Matcher = fn(&str) -> bool;
        let checks: [(regex::Regex, Matcher); 4] = [
            (
                pattern(
                    "yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF",
                ),
                is_yaml_bool,
            ),
            (pattern("~|null|Null|NULL|"), is_yaml_null),
            (
                pattern(
                    r"[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+",
                ),
                is_yaml_int,
            ),
            (
                pattern(
                    r"[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)",
                ),
                is_yaml_float,
            ),
        ];
        let pieces = [
            "0", "1", "7", "9", "_", ".", ":", "5", "60", "e", "E", "+", "-", "b", "x", "f", "inf",
            "NaN", "ON", "No", "~", "null", "",
        ];
        for candidate in crate::test_support::joined_pieces(&pieces) {
            for (reference, matcher) in &checks {
                assert_eq!(
                    matcher(&candidate),
                    reference.is_match(&candidate),
                    "{candidate:?} against {reference}"
                );
            }
        }
    }
}
