//! Python `json` scanning primitives (numbers, strings, escapes), shared with pointer reads
//! (`retrieval::json_pointer`), so both accept exactly the same documents; and the skipping of a
//! value without keeping it (what a sampled load steps over).

use super::*;

/// Why a number does not scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberError {
    /// No number starts here.
    NotANumber,
    /// An integer literal over `INT_MAX_STR_DIGITS` digits (`ValueError` in Python).
    TooManyDigits,
}

/// The number `-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?` at `start`: where it ends and whether it is
/// a float. A dangling `.` or exponent is not part of it (Python leaves it for the caller).
#[inline(always)]
pub(crate) fn number_end(bytes: &[u8], start: usize) -> Result<(usize, bool), NumberError> {
    let digit_at = |at: usize| bytes.get(at).is_some_and(u8::is_ascii_digit);
    let mut at = start;
    if bytes.get(at) == Some(&b'-') {
        at += 1;
    }
    let int_start = at;
    match bytes.get(at) {
        Some(b'0') => at += 1,
        Some(b'1'..=b'9') => {
            while digit_at(at) {
                at += 1;
            }
        }
        _ => return Err(NumberError::NotANumber),
    }
    let int_digits = at - int_start;
    let mut is_float = false;
    if bytes.get(at) == Some(&b'.') && digit_at(at + 1) {
        is_float = true;
        at += 1;
        while digit_at(at) {
            at += 1;
        }
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        let mut exponent = at + 1;
        if matches!(bytes.get(exponent), Some(b'+' | b'-')) {
            exponent += 1;
        }
        let digits_start = exponent;
        while digit_at(exponent) {
            exponent += 1;
        }
        // Without exponent digits the `e` is not part of the number (backtrack).
        if exponent > digits_start {
            is_float = true;
            at = exponent;
        }
    }
    if !is_float && int_digits > INT_MAX_STR_DIGITS {
        return Err(NumberError::TooManyDigits);
    }
    Ok((at, is_float))
}

/// Index just past the plain run (no `"`, `\`, control char) starting at `at`: 8 bytes at a
/// time, then byte by byte (every string of the document goes through here).
#[inline(always)]
pub(crate) fn plain_run_end(bytes: &[u8], mut at: usize) -> usize {
    while let Some(word) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
        let ends = swar::bytes_equal(word, b'"')
            | swar::bytes_equal(word, b'\\')
            | swar::bytes_below(word, 0x20);
        if ends != 0 {
            return at + (ends.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while let Some(&byte) = bytes.get(at) {
        if ENDS_STRING_RUN[usize::from(byte)] {
            break;
        }
        at += 1;
    }
    at
}

/// Four hex digits at `at`, as Python's scanner reads them.
#[inline]
pub(crate) fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
    let digits = bytes.get(at..at + 4)?;
    digits.iter().try_fold(0u32, |value, &byte| {
        Some(value * 16 + char::from(byte).to_digit(16)?)
    })
}

/// Why a string does not scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StringError {
    Unterminated,
    BadUnicodeEscape,
    BadEscape,
    ControlChar,
}

/// Where the string opening at `start` (a `"`) ends, just past its closing quote, validated with
/// Python's rules without decoding it; or why not, and at which byte.
#[inline(always)]
pub(crate) fn string_end(bytes: &[u8], start: usize) -> Result<usize, (usize, StringError)> {
    let mut at = start + 1;
    loop {
        at = plain_run_end(bytes, at);
        match bytes.get(at) {
            Some(b'"') => return Ok(at + 1),
            Some(b'\\') => match bytes.get(at + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => at += 2,
                Some(b'u') => {
                    if hex4(bytes, at + 2).is_none() {
                        return Err((at, StringError::BadUnicodeEscape));
                    }
                    at += 6;
                }
                _ => return Err((at, StringError::BadEscape)),
            },
            Some(_) => return Err((at, StringError::ControlChar)),
            None => return Err((start, StringError::Unterminated)),
        }
    }
}

/// Where the JSON value starting at `start` ends, found without validating it (`Mode::Sampled`
/// steps over what the reference's decode has validated already): strings to their closing
/// quote, containers to their closing bracket (string-aware, counting depth, so no stack),
/// anything else to the next delimiter. `None` when the text ends first.
// (Out of line: the decoder's loop stays the size it has in the main module.)
#[inline(never)]
pub(super) fn skip_value(bytes: &[u8], start: usize) -> Option<usize> {
    match bytes.get(start)? {
        b'"' => skip_string(bytes, start),
        b'{' | b'[' => skip_container(bytes, start),
        _ => {
            let end = start
                + bytes[start..]
                    .iter()
                    .position(|b| matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r'))
                    .unwrap_or(bytes.len() - start);
            (end > start).then_some(end)
        }
    }
}

/// Just past the closing quote of the string opening at `start`, unvalidated.
#[inline(always)]
pub(super) fn skip_string(bytes: &[u8], start: usize) -> Option<usize> {
    let mut at = start + 1;
    loop {
        while let Some(word) = bytes.get(at..at + 8) {
            let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
            let ends = swar::bytes_equal(word, b'"') | swar::bytes_equal(word, b'\\');
            if ends != 0 {
                at += (ends.trailing_zeros() / 8) as usize;
                break;
            }
            at += 8;
        }
        match bytes.get(at)? {
            b'"' => return Some(at + 1),
            b'\\' => at += 2,
            _ => at += 1,
        }
    }
}

/// Just past the bracket closing the container opening at `start`, unvalidated: 8 bytes at a
/// time, strings found by the parity of the quotes before each byte (a word holding a
/// backslash, or following one, goes byte by byte), depth counted over the brackets outside
/// strings, so nesting costs no memory.
pub(super) fn skip_container(bytes: &[u8], start: usize) -> Option<usize> {
    // Outside strings, valid JSON holds no byte that `& 0xD9` makes 0x59 but the four brackets
    // (`Y`, `y`, `_` and DEL, which do too, occur only inside strings); each is checked anyway.
    const BRACKET_MASK: u64 = 0xD9D9_D9D9_D9D9_D9D9;
    let mut scan = ContainerScan {
        depth: 0,
        in_string: false,
        escaped: false,
    };
    let mut at = start;
    while let Some(word) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
        // (A byte flagged above a backslash needlessly sends the word byte by byte: rare, and
        // cheaper than an exact test on every word.)
        if scan.escaped
            || swar::zero_bytes_up_to_first(word ^ (swar::LOW_BITS * u64::from(b'\\'))) != 0
        {
            if let Some(end) = scan.bytes(bytes, at, at + 8) {
                return Some(end);
            }
            at += 8;
            continue;
        }
        // Bytes inside a string (an opening quote counts as inside, a closing one not).
        let quotes = swar::bytes_equal(word, b'"');
        let mut inside = quotes ^ (quotes << 8);
        inside ^= inside << 16;
        inside ^= inside << 32;
        if scan.in_string {
            inside = !inside & swar::HIGH_BITS;
        }
        scan.in_string = inside >> 63 != 0;
        // (Bytes flagged above a bracket are checked one by one below, like the other bytes
        // that mask to 0x59.)
        let mut brackets =
            swar::zero_bytes_up_to_first((word & BRACKET_MASK) ^ 0x5959_5959_5959_5959) & !inside;
        while brackets != 0 {
            let here = at + (brackets.trailing_zeros() / 8) as usize;
            brackets &= brackets - 1;
            match bytes.get(here)? {
                b'{' | b'[' => scan.depth += 1,
                b'}' | b']' => {
                    scan.depth = scan.depth.checked_sub(1)?;
                    if scan.depth == 0 {
                        return Some(here + 1);
                    }
                }
                _ => {}
            }
        }
        at += 8;
    }
    scan.bytes(bytes, at, bytes.len())
}

/// Where `skip_container` is between bytes.
pub(super) struct ContainerScan {
    pub(super) depth: usize,
    pub(super) in_string: bool,
    /// The last byte was a backslash inside a string.
    pub(super) escaped: bool,
}

impl ContainerScan {
    /// Scans `bytes[from..to]` one by one: just past the container's closing bracket if it is
    /// there.
    #[inline(never)]
    pub(super) fn bytes(&mut self, bytes: &[u8], from: usize, to: usize) -> Option<usize> {
        for (at, &byte) in bytes.get(from..to)?.iter().enumerate() {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if byte == b'\\' {
                    self.escaped = true;
                } else if byte == b'"' {
                    self.in_string = false;
                }
                continue;
            }
            match byte {
                b'"' => self.in_string = true,
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        return Some(from + at + 1);
                    }
                }
                _ => {}
            }
        }
        None
    }
}
