//! Structured reads of JSON outputs: `read(ref, { jsonPointer: "/items/3" })` gives that subtree
//! pretty-printed (2-space indent, like `json.dumps(v, indent=2)`) within `max_chars`, and says
//! the type and size of everything it had to cut.
//!
//! The document is the first JSON value of the stripped output, as for the JSON synopsis, checked
//! with Python's `json` rules (`NaN`/`Infinity` accepted, raw control chars in strings rejected,
//! integers of at most 4300 digits, a duplicate key keeps its first position with its last value)
//! through the JSON kind's own scanning primitives, so both accept the same documents. Nothing is decoded into a tree:
//! a validating scanner walks the text, so a 50 MB document costs one pass per pointer step plus
//! the printed part, and scalars print exactly as written (big integers and escapes intact).
//! Pointers follow RFC 6901 (`~1` is `/`, `~0` is `~`); one that does not resolve is an
//! `INVALID_ARGUMENT` naming the deepest part of it that exists.

use std::collections::HashMap;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::json_fields;
use crate::kinds::json::{self, NumberError, StringError};
use crate::python::{
    byte_offset, char_len, is_py_space, INT_MAX_STR_DIGITS, JSON_MAX_NESTING as MAX_NESTING,
};

/// Chars kept free for the closing brackets and the cut marker of each open container.
const PER_LEVEL_RESERVE: usize = 72;
/// Chars kept free for the outermost marker.
const WINDOW_RESERVE: usize = 120;
/// Cuts listed in the result at most (the count is always exact).
const LISTED_CUTS: usize = 20;

/// One part of the document that was not printed in full.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cut {
    /// JSON pointer of the cut value.
    pub pointer: String,
    #[serde(rename = "type")]
    pub type_name: &'static str,
    /// Keys, items or chars of the whole value.
    pub size: usize,
    /// How many of them were printed.
    pub shown: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PointerRead {
    pub pointer: String,
    #[serde(rename = "type")]
    pub type_name: &'static str,
    /// Keys (object), items (array) or chars (string; scalars: chars as written).
    pub size: usize,
    pub content: String,
    pub truncated: bool,
    pub cuts: Vec<Cut>,
    pub total_cuts: usize,
}

/// The validating scanner; positions are byte indexes into `text`.
struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
}

/// Every `type` a read or a cut names, from the first byte of a value of each type.
pub fn type_names() -> [&'static str; 6] {
    [b'{', b'[', b'"', b'0', b't', b'n'].map(type_name_of)
}

fn type_name_of(first: u8) -> &'static str {
    match first {
        b'{' => "object",
        b'[' => "array",
        b'"' => "string",
        b't' | b'f' => "boolean",
        b'n' => "null",
        _ => "number",
    }
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Scanner {
            text,
            bytes: text.as_bytes(),
        }
    }

    fn at(&self, pos: usize) -> Option<u8> {
        self.bytes.get(pos).copied()
    }

    fn ws(&self, mut pos: usize) -> usize {
        while matches!(self.at(pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            pos += 1;
        }
        pos
    }

    fn error(&self, pos: usize, what: &str) -> Error {
        let at = char_len(self.text.get(..pos).unwrap_or(self.text));
        Error::invalid(format!("the output is not valid JSON: {what} at char {at}"))
    }

    fn string_end(&self, start: usize) -> Result<usize> {
        if self.at(start) != Some(b'"') {
            return Err(self.error(start, "expected a string"));
        }
        json::string_end(self.bytes, start).map_err(|(at, error)| {
            let what = match error {
                StringError::Unterminated => "unterminated string",
                StringError::BadUnicodeEscape => "invalid \\u escape",
                StringError::BadEscape => "invalid escape",
                StringError::ControlChar => "control char in string",
            };
            self.error(at, what)
        })
    }

    fn number_end(&self, start: usize) -> Result<usize> {
        match json::number_end(self.bytes, start) {
            Ok((end, _)) => Ok(end),
            Err(NumberError::NotANumber) => Err(self.error(start, "expected a value")),
            Err(NumberError::TooManyDigits) => Err(self.error(
                start,
                &format!("an integer of more than {INT_MAX_STR_DIGITS} digits (Python's limit)"),
            )),
        }
    }

    fn scalar_end(&self, start: usize) -> Result<usize> {
        let rest = self.bytes.get(start..).unwrap_or(&[]);
        for word in ["true", "false", "null", "NaN", "Infinity", "-Infinity"] {
            if rest.starts_with(word.as_bytes()) {
                return Ok(start + word.len());
            }
        }
        match self.at(start) {
            Some(b'"') => self.string_end(start),
            _ => self.number_end(start),
        }
    }

    /// After an object's `{` or `,`: a key, `:`, and the position of its value.
    fn key_and_colon(&self, pos: usize) -> Result<(usize, usize, usize)> {
        let key_end = self.string_end(pos)?;
        let colon = self.ws(key_end);
        if self.at(colon) != Some(b':') {
            return Err(self.error(colon, "expected ':'"));
        }
        Ok((pos, key_end, self.ws(colon + 1)))
    }

    /// Validates the value at `start` and returns where it ends. Iterative: any nesting up to
    /// [`MAX_NESTING`] costs no stack.
    fn value_end(&self, start: usize) -> Result<usize> {
        let mut open: Vec<u8> = Vec::new();
        let mut pos = self.ws(start);
        loop {
            match self.at(pos) {
                Some(bracket @ (b'{' | b'[')) => {
                    if open.len() >= MAX_NESTING {
                        return Err(self.error(pos, "nesting too deep"));
                    }
                    let inner = self.ws(pos + 1);
                    let close = if bracket == b'{' { b'}' } else { b']' };
                    if self.at(inner) == Some(close) {
                        pos = inner + 1;
                    } else {
                        open.push(bracket);
                        pos = if bracket == b'{' {
                            self.key_and_colon(inner)?.2
                        } else {
                            inner
                        };
                        continue;
                    }
                }
                _ => pos = self.scalar_end(pos)?,
            }
            // After a value: close what ends here, then expect the next member or item.
            loop {
                let Some(&top) = open.last() else {
                    return Ok(pos);
                };
                pos = self.ws(pos);
                match (top, self.at(pos)) {
                    (_, Some(b',')) => {
                        let next = self.ws(pos + 1);
                        pos = if top == b'{' {
                            self.key_and_colon(next)?.2
                        } else {
                            next
                        };
                        break;
                    }
                    (b'{', Some(b'}')) | (b'[', Some(b']')) => {
                        pos += 1;
                        open.pop();
                    }
                    _ => return Err(self.error(pos, "expected ',' or a closing bracket")),
                }
            }
        }
    }

    /// The members of the (valid) object at `start`: decoded key, raw key, value range; a
    /// duplicate key keeps its first position and takes the last value, as a Python dict does.
    fn members(&self, start: usize) -> Result<Vec<(String, (usize, usize))>> {
        let mut members: Vec<(String, (usize, usize))> = Vec::new();
        let mut positions: HashMap<String, usize> = HashMap::new();
        let mut pos = self.ws(start + 1);
        if self.at(pos) == Some(b'}') {
            return Ok(members);
        }
        loop {
            let (key_start, key_end, value_start) = self.key_and_colon(pos)?;
            let value_end = self.value_end(value_start)?;
            let key = decode_string(&self.text[key_start + 1..key_end - 1]);
            match positions.get(&key) {
                Some(&at) => {
                    if let Some(member) = members.get_mut(at) {
                        member.1 = (value_start, value_end);
                    }
                }
                None => {
                    positions.insert(key.clone(), members.len());
                    members.push((key, (value_start, value_end)));
                }
            }
            pos = self.ws(value_end);
            match self.at(pos) {
                Some(b',') => pos = self.ws(pos + 1),
                _ => return Ok(members),
            }
        }
    }

    /// The item ranges of the (valid) array at `start`.
    fn items(&self, start: usize) -> Result<Vec<(usize, usize)>> {
        let mut items = Vec::new();
        let mut pos = self.ws(start + 1);
        if self.at(pos) == Some(b']') {
            return Ok(items);
        }
        loop {
            let end = self.value_end(pos)?;
            items.push((pos, end));
            pos = self.ws(end);
            match self.at(pos) {
                Some(b',') => pos = self.ws(pos + 1),
                _ => return Ok(items),
            }
        }
    }

    fn size(&self, (start, end): (usize, usize)) -> Result<usize> {
        Ok(match self.at(start) {
            Some(b'{') => self.members(start)?.len(),
            Some(b'[') => self.items(start)?.len(),
            Some(b'"') => char_len(&decode_string(&self.text[start + 1..end - 1])),
            _ => char_len(&self.text[start..end]),
        })
    }

    fn describe(&self, range: (usize, usize)) -> Result<String> {
        let size = self.size(range)?;
        Ok(match self.at(range.0).map_or("null", type_name_of) {
            "object" => format!("an object with {size} keys"),
            "array" => format!("an array of {size} items"),
            "string" => format!("a string of {size} chars"),
            other => format!("a {other}"),
        })
    }
}

/// Work allowed to [`hit_pointers`], in bytes scanned per byte of text: a hit under thousands
/// of nested containers would otherwise cost depth x size. Past it, a hit gets the pointer of
/// the innermost value reached so far (one that holds it, not the innermost).
const HIT_POINTER_WORK_PER_BYTE: usize = 8;

/// For each hit (byte ranges, sorted, not overlapping), the RFC 6901 pointer of the innermost
/// value of the document that holds all of it (`""` is the whole document), or `None` when the
/// hit lies outside the document (trailing text) or the text is not JSON. Hits in a key belong
/// to the object holding the key; a duplicate key's earlier value is not addressable (the
/// pointer resolves to the last), so its hits belong to the object too.
pub fn hit_pointers(text: &str, hits: &[(usize, usize)]) -> Vec<Option<String>> {
    let mut pointers = vec![None; hits.len()];
    let scanner = Scanner::new(text);
    let root_start = text
        .char_indices()
        .find(|&(_, c)| !is_py_space(c))
        .map_or(text.len(), |(at, _)| at);
    let Ok(root_end) = scanner.value_end(root_start) else {
        return pointers;
    };
    let holds = |(start, end): (usize, usize), hit: (usize, usize)| start <= hit.0 && hit.1 <= end;
    let mut budget = text.len().saturating_mul(HIT_POINTER_WORK_PER_BYTE);
    let root_hits: Vec<usize> = (0..hits.len())
        .filter(|&i| holds((root_start, root_end), hits[i]))
        .collect();
    // Containers to look into, each with the hits it holds: no recursion, any depth.
    let mut work = vec![((root_start, root_end), String::new(), root_hits)];
    while let Some((range, pointer, inside)) = work.pop() {
        for &i in &inside {
            pointers[i] = Some(pointer.clone());
        }
        let cost = range.1 - range.0;
        if cost > budget {
            continue;
        }
        let children: Vec<(String, (usize, usize))> = match scanner.at(range.0) {
            Some(b'{') => scanner.members(range.0).unwrap_or_default(),
            Some(b'[') => scanner
                .items(range.0)
                .unwrap_or_default()
                .into_iter()
                .enumerate()
                .map(|(index, item)| (index.to_string(), item))
                .collect(),
            _ => continue,
        };
        budget -= cost;
        for (key, child) in children {
            let held: Vec<usize> = inside
                .iter()
                .copied()
                .filter(|&i| holds(child, hits[i]))
                .collect();
            if !held.is_empty() {
                work.push((child, format!("{pointer}/{}", escape_token(&key)), held));
            }
        }
    }
    pointers
}

/// The text of a JSON string body (escapes resolved; a lone surrogate becomes U+FFFD).
fn decode_string(body: &str) -> String {
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars();
    let hex4 = |chars: &mut std::str::Chars<'_>| -> u32 {
        let digits: String = chars.by_ref().take(4).collect();
        u32::from_str_radix(&digits, 16).unwrap_or(0xfffd)
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('u') => {
                let high = hex4(&mut chars);
                let code = if (0xd800..0xdc00).contains(&high) && chars.as_str().starts_with("\\u")
                {
                    let mut lookahead = chars.clone();
                    lookahead.nth(1);
                    let low = hex4(&mut lookahead);
                    if (0xdc00..0xe000).contains(&low) {
                        chars = lookahead;
                        0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00)
                    } else {
                        high
                    }
                } else {
                    high
                };
                out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// RFC 6901 reference tokens of `pointer`.
fn parse_pointer(pointer: &str) -> Result<Vec<String>> {
    if pointer.is_empty() {
        return Ok(Vec::new());
    }
    let Some(rest) = pointer.strip_prefix('/') else {
        return Err(Error::invalid(format!(
            "JSON pointer {pointer:?} must be empty or start with '/'"
        )));
    };
    rest.split('/')
        .map(|token| {
            let mut out = String::with_capacity(token.len());
            let mut chars = token.chars();
            while let Some(c) = chars.next() {
                match (c, c == '~') {
                    (_, false) => out.push(c),
                    (_, true) => match chars.next() {
                        Some('0') => out.push('~'),
                        Some('1') => out.push('/'),
                        _ => {
                            return Err(Error::invalid(format!(
                                "JSON pointer {pointer:?}: '~' must be followed by 0 or 1"
                            )))
                        }
                    },
                }
            }
            Ok(out)
        })
        .collect()
}

/// A token as it is written in a pointer.
fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// The array index a token names, if it is one (RFC 6901: no sign, no leading zero).
fn array_index(token: &str) -> Option<usize> {
    let canonical = token == "0" || (!token.starts_with('0') && !token.is_empty());
    (canonical && token.bytes().all(|b| b.is_ascii_digit()))
        .then(|| token.parse().ok())
        .flatten()
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PointerRequest {
    pub json_pointer: String,
    pub max_chars: Option<i64>,
}

json_fields::defaulted_struct!(PointerRequest, deny_unknown_fields, {
    json_pointer: "jsonPointer",
    max_chars: "maxChars",
});

/// The `max_chars` of structured reads: at least room for a marker and some text.
pub fn checked_max_chars(max_chars: Option<i64>) -> Result<usize> {
    let value = max_chars.unwrap_or(super::lines::DEFAULT_WINDOW_MAX_CHARS);
    if value < super::lines::MIN_WINDOW_MAX_CHARS {
        return Err(Error::invalid(format!(
            "maxChars must be >= {} (got {value})",
            super::lines::MIN_WINDOW_MAX_CHARS
        )));
    }
    Ok(usize::try_from(value).unwrap_or(usize::MAX))
}

/// Checks a request without any text.
pub fn check_request(request: &PointerRequest) -> Result<()> {
    parse_pointer(&request.json_pointer)?;
    checked_max_chars(request.max_chars).map(|_| ())
}

/// The byte range of the value at JSON pointer `pointer` in the JSON output `text` (exactly as
/// written there), and the pointer as it resolved.
pub fn pointer_range(text: &str, pointer: &str) -> Result<(std::ops::Range<usize>, String)> {
    let (range, path) = locate(&Scanner::new(text), text, pointer)?;
    Ok((range.0..range.1, path))
}

fn locate(scanner: &Scanner, text: &str, pointer: &str) -> Result<((usize, usize), String)> {
    let tokens = parse_pointer(pointer)?;
    let root_start = text
        .char_indices()
        .find(|&(_, c)| !is_py_space(c))
        .map_or(text.len(), |(at, _)| at);
    let mut range = (root_start, scanner.value_end(root_start)?);
    let mut path = String::new();
    for token in &tokens {
        let next = match scanner.at(range.0) {
            Some(b'{') => scanner
                .members(range.0)?
                .into_iter()
                .find(|(key, _)| key == token)
                .map(|(_, r)| r),
            Some(b'[') => {
                array_index(token).and_then(|i| scanner.items(range.0).ok()?.get(i).copied())
            }
            _ => None,
        };
        let Some(next) = next else {
            let shown = if path.is_empty() {
                "the root".to_string()
            } else {
                format!("{path:?}")
            };
            return Err(Error::invalid(format!(
                "JSON pointer {pointer:?} does not resolve: {shown} is {} without {} {token:?}",
                scanner.describe(range)?,
                if scanner.at(range.0) == Some(b'[') {
                    "index"
                } else {
                    "key"
                },
            )));
        };
        path.push('/');
        path.push_str(&escape_token(token));
        range = next;
    }
    Ok((range, path))
}

/// The subtree at `request.json_pointer` of the JSON output `text`.
pub fn read_pointer(text: &str, request: &PointerRequest) -> Result<PointerRead> {
    let max_chars = checked_max_chars(request.max_chars)?;
    let scanner = Scanner::new(text);
    let (range, path) = locate(&scanner, text, &request.json_pointer)?;
    let mut printer = Printer {
        scanner: &scanner,
        out: String::new(),
        out_chars: 0,
        budget: max_chars.saturating_sub(WINDOW_RESERVE),
        reserved: 0,
        cuts: Vec::new(),
        total_cuts: 0,
    };
    printer.value(range, 0, &mut path.clone())?;
    let type_name = scanner.at(range.0).map_or("null", type_name_of);
    Ok(PointerRead {
        pointer: path,
        type_name,
        size: scanner.size(range)?,
        truncated: printer.total_cuts > 0,
        content: printer.out,
        cuts: printer.cuts,
        total_cuts: printer.total_cuts,
    })
}

/// Pretty-prints within a budget; what does not fit is replaced by a marker and listed.
struct Printer<'s, 'a> {
    scanner: &'s Scanner<'a>,
    out: String,
    out_chars: usize,
    budget: usize,
    /// Chars promised to the closing brackets and markers of the open containers.
    reserved: usize,
    cuts: Vec<Cut>,
    total_cuts: usize,
}

impl Printer<'_, '_> {
    fn push(&mut self, text: &str) {
        self.out_chars += char_len(text);
        self.out.push_str(text);
    }

    fn room(&self) -> usize {
        self.budget.saturating_sub(self.out_chars + self.reserved)
    }

    fn cut(&mut self, pointer: &str, type_name: &'static str, size: usize, shown: usize) {
        self.total_cuts += 1;
        if self.cuts.len() < LISTED_CUTS {
            self.cuts.push(Cut {
                pointer: pointer.to_string(),
                type_name,
                size,
                shown,
            });
        }
    }

    fn value(&mut self, range: (usize, usize), depth: usize, path: &mut String) -> Result<()> {
        let scanner = self.scanner;
        let (start, end) = range;
        match scanner.at(start) {
            Some(b'{') => {
                let members = scanner.members(start)?;
                let entries: Vec<(String, (usize, usize))> = members
                    .into_iter()
                    .map(|(key, r)| (serde_json::to_string(&key).unwrap_or_default(), r))
                    .collect();
                self.container(('{', '}'), "object", "keys", entries, depth, path)
            }
            Some(b'[') => {
                let items = scanner.items(start)?;
                let entries = items.into_iter().map(|r| (String::new(), r)).collect();
                self.container(('[', ']'), "array", "items", entries, depth, path)
            }
            _ => {
                let raw = &scanner.text[start..end];
                let raw_chars = char_len(raw);
                if raw_chars <= self.room() {
                    self.push(raw);
                    return Ok(());
                }
                let type_name = type_name_of(scanner.at(start).unwrap_or(b'0'));
                let shown = self.room().saturating_sub(48);
                self.push(&raw[..byte_offset(raw, shown)]);
                self.push(&format!(
                    "... [cut: {type_name} of {raw_chars} chars as written]"
                ));
                self.cut(path, type_name, scanner.size(range)?, shown);
                Ok(())
            }
        }
    }

    /// An object (entries keyed by their JSON-quoted key) or an array (empty keys).
    fn container(
        &mut self,
        (open, close): (char, char),
        type_name: &'static str,
        unit: &str,
        entries: Vec<(String, (usize, usize))>,
        depth: usize,
        path: &mut String,
    ) -> Result<()> {
        if entries.is_empty() {
            self.push(&format!("{open}{close}"));
            return Ok(());
        }
        let indent = "  ".repeat(depth + 1);
        let level_reserve = PER_LEVEL_RESERVE + 2 * indent.len();
        self.push(&open.to_string());
        self.reserved += level_reserve;
        let total = entries.len();
        let mut shown = 0usize;
        for (index, (quoted_key, range)) in entries.into_iter().enumerate() {
            let head = if quoted_key.is_empty() {
                String::new()
            } else {
                format!("{quoted_key}: ")
            };
            // A member needs its line start and some room for its value; a container child
            // needs room for its own first member too, else it would print as a bare marker.
            let is_container = matches!(self.scanner.at(range.0), Some(b'{' | b'['));
            let value_room = if is_container {
                PER_LEVEL_RESERVE + 2 * indent.len() + 24
            } else {
                8
            };
            if indent.len() + char_len(&head) + value_room > self.room() {
                break;
            }
            self.push(if index == 0 { "\n" } else { ",\n" });
            self.push(&indent);
            self.push(&head);
            let path_len = path.len();
            path.push('/');
            if quoted_key.is_empty() {
                path.push_str(&index.to_string());
            } else {
                let key: String = serde_json::from_str(&quoted_key).unwrap_or_default();
                path.push_str(&escape_token(&key));
            }
            self.value(range, depth + 1, path)?;
            path.truncate(path_len);
            shown += 1;
        }
        self.reserved -= level_reserve;
        if shown < total {
            self.push(if shown == 0 { "\n" } else { ",\n" });
            self.push(&indent);
            self.push(&format!(
                "... {} more {unit} cut ({type_name} of {total} {unit})",
                total - shown
            ));
            self.cut(path, type_name, total, shown);
        }
        self.push("\n");
        self.push(&"  ".repeat(depth));
        self.push(&close.to_string());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str, pointer: &str, max_chars: i64) -> Result<PointerRead> {
        read_pointer(
            text,
            &PointerRequest {
                json_pointer: pointer.into(),
                max_chars: Some(max_chars),
            },
        )
    }

    #[test]
    fn resolves_rfc6901_pointers_and_pretty_prints() {
        let text = r#" {"a/b": {"m~n": [10, {"x": 1.50, "big": 123456789012345678901234567890}]}, "s": "\u00e9"} "#;
        let found = read(text, "/a~1b/m~0n/1", 20_000).expect("resolves");
        assert_eq!(
            found.content,
            "{\n  \"x\": 1.50,\n  \"big\": 123456789012345678901234567890\n}"
        );
        assert_eq!(
            (found.type_name, found.size, found.truncated),
            ("object", 2, false)
        );
        assert_eq!(found.pointer, "/a~1b/m~0n/1");
        assert_eq!(
            read(text, "/s", 20_000).expect("resolves").content,
            "\"\\u00e9\""
        );
        assert_eq!(read(text, "/s", 20_000).expect("resolves").size, 1);
        assert_eq!(read("[]", "", 20_000).expect("root").content, "[]");
    }

    #[test]
    fn python_semantics_duplicates_and_non_finite_numbers() {
        let text = r#"{"k": 1, "j": NaN, "k": [Infinity, -Infinity]}"#;
        let root = read(text, "", 20_000).expect("valid for Python");
        assert_eq!(
            root.content,
            "{\n  \"k\": [\n    Infinity,\n    -Infinity\n  ],\n  \"j\": NaN\n}"
        );
        assert!(read("{\"a\": \"x\ny\"}", "", 20_000).is_err());
        assert!(read("{\"a\": 1,}", "", 20_000).is_err());
    }

    #[test]
    fn accepts_what_the_json_synopsis_accepts() {
        // The same scanning primitives: Python's int digit limit (the pointer scanner of its own
        // took a 4301-digit integer the JSON kind and Python refuse), escapes, control chars.
        let documents = [
            format!("[{}]", "7".repeat(4300)),
            format!("[{}]", "7".repeat(4301)),
            format!("[{}.5]", "7".repeat(5000)),
            format!("[-{}e5]", "7".repeat(5000)),
            "[\"\\u12\"]".to_string(),
            "[\"\\q\"]".to_string(),
            "[\"a\tb\"]".to_string(),
            "[\"open]".to_string(),
            "[\"\\ud800\", 1e5, -0.0, NaN]".to_string(),
        ];
        for document in documents {
            let kind_accepts = crate::kinds::json::synopsis(&document).is_some();
            let pointer_accepts = read(&document, "", 200_000).is_ok();
            assert_eq!(
                pointer_accepts,
                kind_accepts,
                "{}",
                crate::python::take_chars(&document, 40)
            );
        }
        let error = read(&format!("[{}]", "7".repeat(4301)), "", 200_000).expect_err("refused");
        assert!(
            error.message.contains("more than 4300 digits"),
            "{}",
            error.message
        );
    }

    #[test]
    fn unresolved_pointers_name_the_nearest_path() {
        let text = r#"{"items": [1, 2, 3]}"#;
        let error = read(text, "/items/7", 20_000).expect_err("no item 7");
        assert!(
            error
                .message
                .contains("\"/items\" is an array of 3 items without index \"7\""),
            "{}",
            error.message
        );
        let error = read(text, "/nope/x", 20_000).expect_err("no key");
        assert!(
            error
                .message
                .contains("the root is an object with 1 keys without key \"nope\""),
            "{}",
            error.message
        );
        assert!(read(text, "/items/01", 20_000).is_err());
        assert!(read(text, "items", 20_000).is_err());
        assert!(read(text, "/~2", 20_000).is_err());
        assert!(read("not json", "", 20_000).is_err());
    }

    #[test]
    fn big_subtrees_are_cut_within_max_chars_with_type_and_size() {
        let items: Vec<String> = (0..5_000)
            .map(|i| format!(r#"{{"id": {i}, "name": "item {i}"}}"#))
            .collect();
        let text = format!(
            r#"{{"items": [{}], "long": "{}"}}"#,
            items.join(", "),
            "x".repeat(50_000)
        );
        for max_chars in [200, 1_000, 20_000] {
            let found = read(&text, "", max_chars).expect("valid");
            assert!(
                char_len(&found.content) <= max_chars as usize,
                "{max_chars}: {}",
                char_len(&found.content)
            );
            assert!(found.truncated && found.total_cuts >= 1);
        }
        let found = read(&text, "/items", 2_000).expect("valid");
        assert!(
            found
                .content
                .contains("more items cut (array of 5000 items)"),
            "{}",
            found.content
        );
        let outer = found
            .cuts
            .iter()
            .find(|cut| cut.pointer == "/items")
            .expect("the array is cut");
        assert_eq!((outer.type_name, outer.size), ("array", 5_000));
        assert!(outer.shown > 0 && outer.shown < 5_000);
        let long = read(&text, "/long", 1_000).expect("valid");
        assert!(long
            .content
            .contains("[cut: string of 50002 chars as written]"));
        assert_eq!(
            (long.cuts[0].type_name, long.cuts[0].size),
            ("string", 50_000)
        );
    }

    #[test]
    fn deep_nesting_is_scanned_without_recursion() {
        let depth = 900;
        let text = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        let found = read(&text, "/0/0", 1_000).expect("valid");
        assert!(found.truncated && char_len(&found.content) <= 1_000);
        assert!(read(
            &format!("{}1{}", "[".repeat(2_000), "]".repeat(2_000)),
            "",
            1_000
        )
        .is_err());
    }
}
