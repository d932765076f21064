//! Scanner (port of PyYAML's scanner.py): the input as tokens.

use super::*;

//
// The scanner walks the UTF-8 bytes of the input and decodes a char only where a non-ASCII byte
// is met, and scalars that are one run of the input borrow it instead of copying: PyYAML's
// per-char Python loop ported over a `Vec<char>` with a `String` per token cost most of the time.

/// PyYAML's `'\0\r\n\x85\u2028\u2029'`: end of stream or a line break.
pub(super) fn is_break_or_end(c: char) -> bool {
    matches!(c, '\0' | '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// PyYAML's `'\0 \t\r\n\x85\u2028\u2029'`.
pub(super) fn is_blank_or_break_or_end(c: char) -> bool {
    c == ' ' || c == '\t' || is_break_or_end(c)
}

/// PyYAML's `'\0 \r\n\x85\u2028\u2029'` (no tab: directives, tags and block scalar headers).
pub(super) fn is_space_or_break_or_end(c: char) -> bool {
    c == ' ' || is_break_or_end(c)
}

/// PyYAML's `'\r\n\x85\u2028\u2029'`.
pub(super) fn is_line_break(c: char) -> bool {
    c != '\0' && is_break_or_end(c)
}

/// Anchor, alias and directive names: `[0-9A-Za-z_-]`.
pub(super) fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Token<'a> {
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
pub(super) enum Directive {
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
pub(super) enum Kind {
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
    pub(super) fn kind(&self) -> Kind {
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
pub(super) struct Chunks {
    /// The run `text[start..end]`, while `owned` is `None`.
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) owned: Option<String>,
}

impl Chunks {
    pub(super) fn is_empty(&self) -> bool {
        match &self.owned {
            Some(owned) => owned.is_empty(),
            None => self.start == self.end,
        }
    }

    /// Appends `text[start..end]`, extending the run when it continues it.
    pub(super) fn push_source(&mut self, text: &str, start: usize, end: usize) {
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

    pub(super) fn push_str(&mut self, text: &str, piece: &str) {
        if !piece.is_empty() {
            self.owned(text).push_str(piece);
        }
    }

    pub(super) fn push_char(&mut self, text: &str, ch: char) {
        self.owned(text).push(ch);
    }

    /// Appends another builder's content.
    pub(super) fn append(&mut self, text: &str, other: Chunks) {
        match other.owned {
            Some(piece) => self.push_str(text, &piece),
            None => self.push_source(text, other.start, other.end),
        }
    }

    pub(super) fn owned(&mut self, text: &str) -> &mut String {
        let (start, end) = (self.start, self.end);
        self.owned
            .get_or_insert_with(|| text.get(start..end).unwrap_or("").to_string())
    }

    pub(super) fn finish(self, text: &str) -> Cow<'_, str> {
        match self.owned {
            Some(owned) => Cow::Owned(owned),
            None => Cow::Borrowed(text.get(self.start..self.end).unwrap_or("")),
        }
    }
}

/// A place where a simple (implicit) key may start, pending the `:` that would confirm it.
pub(super) struct SimpleKey {
    pub(super) flow_level: usize,
    pub(super) token_number: usize,
    pub(super) required: bool,
    pub(super) index: usize,
    pub(super) line: usize,
    pub(super) column: usize,
}

pub(super) struct Scanner<'a> {
    pub(super) text: &'a str,
    pub(super) bytes: &'a [u8],
    /// Byte offset of the next char; one past the end once the virtual final `\0` is consumed.
    pub(super) pos: usize,
    /// Chars consumed (PyYAML's `index`, which the 1024-char simple-key limit counts).
    pub(super) index: usize,
    pub(super) line: usize,
    /// PyYAML does not count BOM chars in the column, wherever they are.
    pub(super) column: usize,
    pub(super) done: bool,
    pub(super) flow_level: usize,
    pub(super) tokens: VecDeque<Token<'a>>,
    pub(super) tokens_taken: usize,
    pub(super) indent: isize,
    pub(super) indents: Vec<isize>,
    pub(super) allow_simple_key: bool,
    /// At most one per flow level; usually zero or one in all, so a small list beats a map.
    pub(super) possible_simple_keys: Vec<SimpleKey>,
}

impl<'a> Scanner<'a> {
    pub(super) fn new(text: &'a str) -> Self {
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
    pub(super) fn char_at(&self, at: usize) -> char {
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
    pub(super) fn peek(&self) -> char {
        self.char_at(self.pos)
    }

    /// The char `offset` chars after the next one (PyYAML's `peek(offset)`).
    pub(super) fn peek_at(&self, offset: usize) -> char {
        let mut at = self.pos;
        for _ in 0..offset {
            at += self.bytes.get(at).map_or(1, |&byte| utf8_len(byte));
        }
        self.char_at(at)
    }

    /// Whether the next chars are `expected` (ASCII).
    pub(super) fn prefix_is(&self, expected: &str) -> bool {
        self.bytes
            .get(self.pos..)
            .is_some_and(|rest| rest.starts_with(expected.as_bytes()))
    }

    /// The byte offset just after the run of chars from `start` that satisfy `in_run`.
    pub(super) fn run_end(&self, start: usize, in_run: impl Fn(char) -> bool) -> usize {
        let mut end = start;
        loop {
            let ch = self.char_at(end);
            if ch == '\0' || !in_run(ch) {
                return end;
            }
            end += ch.len_utf8();
        }
    }

    pub(super) fn slice(&self, start: usize, end: usize) -> &'a str {
        self.text.get(start..end).unwrap_or("")
    }

    /// Consumes one char (PyYAML's `forward()`).
    pub(super) fn forward_char(&mut self) {
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

    pub(super) fn forward(&mut self, count: usize) {
        for _ in 0..count {
            self.forward_char();
        }
    }

    /// Consumes up to byte `end`, a run that holds no line break (what every scanning loop stops at).
    pub(super) fn forward_within_line(&mut self, end: usize) {
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

    pub(super) fn column_isize(&self) -> isize {
        isize::try_from(self.column).unwrap_or(isize::MAX)
    }

    // Token queue.

    pub(super) fn peek_kind(&mut self) -> Res<Option<Kind>> {
        self.fill()?;
        Ok(self.tokens.front().map(Token::kind))
    }

    pub(super) fn check(&mut self, kinds: &[Kind]) -> Res<bool> {
        Ok(self.peek_kind()?.is_some_and(|kind| kinds.contains(&kind)))
    }

    pub(super) fn next_token(&mut self) -> Res<Token<'a>> {
        self.fill()?;
        let token = self.tokens.pop_front().ok_or(Rejected)?;
        self.tokens_taken += 1;
        Ok(token)
    }

    /// Runs once per parser check: the common case (a token queued, no pending simple key) must
    /// not pay for the scanning machinery.
    #[inline]
    pub(super) fn fill(&mut self) -> Res<()> {
        if self.done || (!self.tokens.is_empty() && self.possible_simple_keys.is_empty()) {
            return Ok(());
        }
        self.fill_slow()
    }

    pub(super) fn fill_slow(&mut self) -> Res<()> {
        while self.need_more_tokens()? {
            self.fetch_more_tokens()?;
        }
        Ok(())
    }

    pub(super) fn need_more_tokens(&mut self) -> Res<bool> {
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

    pub(super) fn fetch_more_tokens(&mut self) -> Res<()> {
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

    pub(super) fn next_possible_simple_key(&self) -> Option<usize> {
        self.possible_simple_keys
            .iter()
            .map(|key| key.token_number)
            .min()
    }

    pub(super) fn stale_possible_simple_keys(&mut self) -> Res<()> {
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

    pub(super) fn save_possible_simple_key(&mut self) -> Res<()> {
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
    pub(super) fn take_possible_simple_key(&mut self) -> Option<SimpleKey> {
        let position = self
            .possible_simple_keys
            .iter()
            .position(|key| key.flow_level == self.flow_level)?;
        Some(self.possible_simple_keys.swap_remove(position))
    }

    pub(super) fn remove_possible_simple_key(&mut self) -> Res<()> {
        match self.take_possible_simple_key() {
            Some(key) if key.required => Err(Rejected),
            _ => Ok(()),
        }
    }

    pub(super) fn unwind_indent(&mut self, column: isize) {
        if self.flow_level > 0 {
            return;
        }
        while self.indent > column {
            self.indent = self.indents.pop().unwrap_or(-1);
            self.tokens.push_back(Token::BlockEnd);
        }
    }

    pub(super) fn add_indent(&mut self, column: isize) -> bool {
        if self.indent < column {
            self.indents.push(self.indent);
            self.indent = column;
            true
        } else {
            false
        }
    }

    pub(super) fn fetch_stream_end(&mut self) -> Res<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        self.possible_simple_keys.clear();
        self.tokens.push_back(Token::StreamEnd);
        self.done = true;
        Ok(())
    }

    pub(super) fn fetch_directive(&mut self) -> Res<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_directive()?;
        self.tokens.push_back(token);
        Ok(())
    }

    pub(super) fn check_document_indicator(&self, indicator: &str) -> bool {
        self.column == 0 && self.prefix_is(indicator) && is_blank_or_break_or_end(self.peek_at(3))
    }

    pub(super) fn fetch_document_indicator(&mut self, token: Token<'a>) -> Res<()> {
        self.unwind_indent(-1);
        self.remove_possible_simple_key()?;
        self.allow_simple_key = false;
        self.forward(3);
        self.tokens.push_back(token);
        Ok(())
    }

    pub(super) fn fetch_flow_collection_start(&mut self, token: Token<'a>) -> Res<()> {
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

    pub(super) fn fetch_flow_collection_end(&mut self, token: Token<'a>) -> Res<()> {
        self.remove_possible_simple_key()?;
        // PyYAML lets the level go negative on a stray closer; the parser then rejects the token.
        self.flow_level = self.flow_level.saturating_sub(1);
        self.allow_simple_key = false;
        self.forward_char();
        self.tokens.push_back(token);
        Ok(())
    }

    pub(super) fn fetch_flow_entry(&mut self) -> Res<()> {
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        self.forward_char();
        self.tokens.push_back(Token::FlowEntry);
        Ok(())
    }

    pub(super) fn fetch_block_entry(&mut self) -> Res<()> {
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

    pub(super) fn fetch_key(&mut self) -> Res<()> {
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

    pub(super) fn fetch_value(&mut self) -> Res<()> {
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

    pub(super) fn fetch_anchor_or_alias(&mut self, alias: bool) -> Res<()> {
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

    pub(super) fn fetch_tag(&mut self) -> Res<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_tag()?;
        self.tokens.push_back(token);
        Ok(())
    }

    pub(super) fn fetch_block_scalar(&mut self, folded: bool) -> Res<()> {
        self.allow_simple_key = true;
        self.remove_possible_simple_key()?;
        let token = self.scan_block_scalar(folded)?;
        self.tokens.push_back(token);
        Ok(())
    }

    pub(super) fn fetch_flow_scalar(&mut self, double: bool) -> Res<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_flow_scalar(double)?;
        self.tokens.push_back(token);
        Ok(())
    }

    pub(super) fn fetch_plain(&mut self) -> Res<()> {
        self.save_possible_simple_key()?;
        self.allow_simple_key = false;
        let token = self.scan_plain();
        self.tokens.push_back(token);
        Ok(())
    }

    /// `ch` is the next char, `next_is_blank` whether the one after it is blank, a break or the end.
    pub(super) fn check_plain(&self, ch: char, next_is_blank: bool) -> bool {
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
    pub(super) fn scan_to_next_token(&mut self) {
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

    pub(super) fn scan_directive(&mut self) -> Res<Token<'a>> {
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

    pub(super) fn skip_spaces(&mut self) {
        let end = self.run_end(self.pos, |c| c == ' ');
        self.forward_within_line(end);
    }

    pub(super) fn scan_yaml_directive_number(&mut self) -> Res<&'a str> {
        let start = self.pos;
        let end = self.run_end(start, |c| c.is_ascii_digit());
        if end == start {
            return Err(Rejected);
        }
        self.forward_within_line(end);
        Ok(self.slice(start, end))
    }

    pub(super) fn scan_tag(&mut self) -> Res<Token<'a>> {
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

    pub(super) fn scan_block_scalar(&mut self, folded: bool) -> Res<Token<'a>> {
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
    pub(super) fn scan_block_scalar_indentation(&mut self) -> (String, isize) {
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

    pub(super) fn scan_block_scalar_breaks(&mut self, indent: isize) -> String {
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

    pub(super) fn scan_flow_scalar(&mut self, double: bool) -> Res<Token<'a>> {
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

    pub(super) fn scan_flow_scalar_non_spaces(
        &mut self,
        double: bool,
        chunks: &mut Chunks,
    ) -> Res<()> {
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

    pub(super) fn scan_flow_scalar_spaces(&mut self, chunks: &mut Chunks) -> Res<()> {
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

    pub(super) fn scan_flow_scalar_breaks(&mut self, chunks: &mut Chunks) -> Res<()> {
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
    pub(super) fn at_document_marker(&self) -> bool {
        (self.prefix_is("---") || self.prefix_is("..."))
            && is_blank_or_break_or_end(self.peek_at(3))
    }

    /// The end (byte offset) of the plain-scalar chunk starting at `start`.
    pub(super) fn plain_chunk_end(&self, start: usize) -> usize {
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

    pub(super) fn scan_plain(&mut self) -> Token<'a> {
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
    pub(super) fn scan_plain_spaces(&mut self) -> Option<Chunks> {
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

    pub(super) fn scan_tag_handle(&mut self) -> Res<&'a str> {
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

    pub(super) fn scan_tag_uri(&mut self) -> Res<Cow<'a, str>> {
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

    pub(super) fn scan_uri_escapes(&mut self) -> Res<String> {
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
    pub(super) fn scan_line_break(&mut self) -> Option<char> {
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

pub(super) fn escape_replacement(ch: char) -> Option<char> {
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

pub(super) fn escape_code_length(ch: char) -> Option<usize> {
    match ch {
        'x' => Some(2),
        'u' => Some(4),
        'U' => Some(8),
        _ => None,
    }
}
