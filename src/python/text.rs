//! Python's `str` methods the reference relies on: `str.isspace()`, `str.strip()`,
//! `str.splitlines()`, `str.split()`, and the small text helpers of the spec (section 1).

use std::cmp::Ordering;

use super::swar;

/// Python's `str.isspace()` for one char (also what `\s` matches in a Python `re` str pattern).
pub const fn is_py_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0b}' | '\u{0c}' | '\r' | '\u{1c}'..='\u{1f}' | ' ' | '\u{85}' | '\u{a0}'
            | '\u{1680}' | '\u{2000}'..='\u{200a}' | '\u{2028}' | '\u{2029}' | '\u{202f}'
            | '\u{205f}' | '\u{3000}'
    )
}

/// The character class `\s` of Python's `re` on str patterns, for the differential tests' regexes.
#[cfg(test)]
pub const PY_SPACE_CLASS: &str = r"\t\n\x0B\x0C\r\x1C-\x1F \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}";

/// Whether `c` starts a line break for `str.splitlines()` (the oracle of the byte-level split).
#[cfg(test)]
pub fn is_py_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r'
            | '\u{0b}'
            | '\u{0c}'
            | '\u{1c}'
            | '\u{1d}'
            | '\u{1e}'
            | '\u{85}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

/// Python's `str.strip()` with no argument.
pub fn py_strip(s: &str) -> &str {
    match s.as_bytes() {
        // Most lines begin and end with a visible ASCII char: nothing to decode or strip.
        [first, .., last] if is_ascii_non_space(*first) && is_ascii_non_space(*last) => s,
        _ => s.trim_matches(is_py_space),
    }
}

/// Python's `str.lstrip()` with no argument.
pub fn py_lstrip(s: &str) -> &str {
    match s.as_bytes() {
        [first, ..] if is_ascii_non_space(*first) => s,
        _ => s.trim_start_matches(is_py_space),
    }
}

/// Whether a byte is a whole ASCII char that is not Python whitespace.
const fn is_ascii_non_space(byte: u8) -> bool {
    byte.is_ascii() && !is_py_space(byte as char)
}

/// Python's `str.splitlines()` (without `keepends`): a final break does not start an empty line.
pub(crate) fn py_splitlines(s: &str) -> PySplitLines<'_> {
    PySplitLines { rest: s }
}

pub(crate) struct PySplitLines<'a> {
    rest: &'a str,
}

impl<'a> Iterator for PySplitLines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.rest.is_empty() {
            return None;
        }
        let (line, after) = match find_line_break(self.rest) {
            None => (self.rest, ""),
            Some((at, width)) => (&self.rest[..at], &self.rest[at + width..]),
        };
        self.rest = after;
        Some(line)
    }
}

/// Bytes that can start a `str.splitlines()` break in UTF-8: the ASCII breaks, and the lead bytes
/// of U+0085 (`C2 85`) and U+2028/U+2029 (`E2 80 A8`/`E2 80 A9`).
const LINE_BREAK_LEAD: [bool; 256] = {
    let mut table = [false; 256];
    let leads: [u8; 9] = [b'\n', b'\r', 0x0b, 0x0c, 0x1c, 0x1d, 0x1e, 0xc2, 0xe2];
    let mut i = 0;
    while i < leads.len() {
        table[leads[i] as usize] = true;
        i += 1;
    }
    table
};

/// The byte offset and byte width of the first line break of `s` (`\r\n` is one break).
/// Scans bytes, not chars: it runs over every line of every text-like output.
fn find_line_break(s: &str) -> Option<(usize, usize)> {
    let bytes = s.as_bytes();
    let mut from = 0;
    while let Some(at) = next_line_break_lead(bytes, from) {
        let width = match bytes.get(at..).unwrap_or_default() {
            [b'\r', b'\n', ..] => 2,
            [0xc2, 0x85, ..] => 2,
            [0xe2, 0x80, 0xa8 | 0xa9, ..] => 3,
            [0xc2 | 0xe2, ..] => 0,
            _ => 1,
        };
        if width > 0 {
            return Some((at, width));
        }
        from = at + 1;
    }
    None
}

/// The first byte at or after `from` that may lead a line break: 8 bytes at a time while none
/// is below 0x1F, 0xC2 or 0xE2 (a superset of the leads, then checked one by one).
fn next_line_break_lead(bytes: &[u8], mut from: usize) -> Option<usize> {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    match next_line_break_lead_simd(bytes, from) {
        Ok(at) => return Some(at),
        Err(rest) => from = rest,
    }
    while let Some(word) = bytes.get(from..from + 8) {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
        let mut maybe = swar::bytes_below(word, 0x1F)
            | swar::bytes_equal(word, 0xC2)
            | swar::bytes_equal(word, 0xE2);
        while maybe != 0 {
            let at = from + (maybe.trailing_zeros() / 8) as usize;
            if LINE_BREAK_LEAD[usize::from(bytes[at])] {
                return Some(at);
            }
            maybe &= maybe - 1;
        }
        from += 8;
    }
    let offset = bytes
        .get(from..)?
        .iter()
        .position(|&b| LINE_BREAK_LEAD[usize::from(b)])?;
    Some(from + offset)
}

/// `next_line_break_lead` 16 bytes at a time with wasm SIMD, in the modules built with simd128
/// (the enhanced and grep modules; the main module is built for size, without it): the first
/// lead byte, or where fewer than 16 bytes are left to look at.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn next_line_break_lead_simd(bytes: &[u8], mut from: usize) -> Result<usize, usize> {
    use core::arch::wasm32::{u8x16_bitmask, u8x16_eq, u8x16_lt, u8x16_splat, v128_or};
    while let Some(chunk) = swar::vector_at(bytes, from) {
        let maybe = v128_or(
            u8x16_lt(chunk, u8x16_splat(0x1F)),
            v128_or(
                u8x16_eq(chunk, u8x16_splat(0xC2)),
                u8x16_eq(chunk, u8x16_splat(0xE2)),
            ),
        );
        let mut candidates = u8x16_bitmask(maybe);
        while candidates != 0 {
            let at = from + candidates.trailing_zeros() as usize;
            if LINE_BREAK_LEAD[usize::from(bytes[at])] {
                return Ok(at);
            }
            candidates &= candidates - 1;
        }
        from += 16;
    }
    Err(from)
}

/// Number of lines `str.splitlines()` gives.
#[cfg(test)]
pub fn py_line_count(s: &str) -> usize {
    py_splitlines(s).count()
}

/// Python's `str.split()` with no argument: the ws-separated words.
pub fn py_words(s: &str) -> impl Iterator<Item = &str> {
    s.split(is_py_space).filter(|w| !w.is_empty())
}

/// How `py_word_count` treats a UTF-8 byte: part of a word, an ASCII space, or the lead byte of a
/// char that may be a non-ASCII space (`C2`, `E1`, `E2`, `E3`: U+0085, U+00A0, U+1680,
/// U+2000-U+3000), which is decoded. Continuation bytes count as word bytes: they only follow the
/// lead of a word char (a space char's are skipped with it).
const WORD_BYTE: u8 = 0;
const SPACE_BYTE: u8 = 1;
const MAYBE_SPACE_LEAD: u8 = 2;
const WORD_BYTE_CLASS: [u8; 256] = {
    let mut table = [WORD_BYTE; 256];
    let mut b = 0;
    while b < 0x80 {
        if is_py_space(b as u8 as char) {
            table[b] = SPACE_BYTE;
        }
        b += 1;
    }
    table[0xc2] = MAYBE_SPACE_LEAD;
    table[0xe1] = MAYBE_SPACE_LEAD;
    table[0xe2] = MAYBE_SPACE_LEAD;
    table[0xe3] = MAYBE_SPACE_LEAD;
    table
};

/// `len(s.split())`, by bytes: it runs over every text output, so it reads 8 bytes at a time
/// where they hold no space but ' ' and '\n' and no lead byte of a possible non-ASCII space, and
/// goes byte by byte through the others.
pub fn py_word_count(s: &str) -> usize {
    let bytes = s.as_bytes();
    let mut count = 0;
    let mut in_word = false;
    let mut at = 0;
    while at < bytes.len() {
        let word = bytes
            .get(at..at + 8)
            .and_then(|chunk| chunk.try_into().ok())
            .map(u64::from_le_bytes);
        let mut byte_path_end = bytes.len();
        if let Some(word) = word {
            let spaces = swar::bytes_equal(word, b' ') | swar::bytes_equal(word, b'\n');
            let other_ascii_space_or_control = swar::bytes_below(word, 0x21) & !spaces;
            // C2, E1, E2, E3 (and E0, which only costs a detour through the byte path).
            let maybe_space_lead = swar::bytes_equal(word, 0xC2)
                | swar::bytes_below(word ^ (swar::LOW_BITS * 0xE0), 4);
            if other_ascii_space_or_control | maybe_space_lead == 0 {
                // A word starts at each non-space byte after a space (or after no word).
                let space_before = (spaces << 8) | if in_word { 0 } else { 0x80 };
                count += (!spaces & space_before & swar::HIGH_BITS).count_ones() as usize;
                in_word = spaces >> 63 == 0;
                at += 8;
                continue;
            }
            byte_path_end = at + 8;
        }
        while at < byte_path_end {
            let class = WORD_BYTE_CLASS[usize::from(bytes[at])];
            let space = if class == MAYBE_SPACE_LEAD {
                let c = s
                    .get(at..)
                    .and_then(|rest| rest.chars().next())
                    .unwrap_or('\0');
                at += c.len_utf8();
                is_py_space(c)
            } else {
                at += 1;
                class == SPACE_BYTE
            };
            count += usize::from(!space && !in_word);
            in_word = !space;
        }
    }
    count
}

/// Length in Unicode code points.
pub fn char_len(s: &str) -> usize {
    s.chars().count()
}

/// Byte offset of char index `n` (or `s.len()` when `n` is past the end).
pub(crate) fn byte_offset(s: &str, n: usize) -> usize {
    s.char_indices().nth(n).map_or(s.len(), |(at, _)| at)
}

/// The first `n` chars of `s`.
pub(crate) fn take_chars(s: &str, n: usize) -> &str {
    &s[..byte_offset(s, n)]
}

/// The last `n` chars of `s`.
pub(crate) fn last_chars(s: &str, n: usize) -> &str {
    if n == 0 {
        return "";
    }
    let start = s.char_indices().rev().nth(n - 1).map_or(0, |(at, _)| at);
    &s[start..]
}

/// `clip(s, n)`: "" for n <= 0, `s` when it fits, else the first n-3 chars and "...".
pub(crate) fn clip(s: &str, n: i64) -> String {
    if n <= 0 {
        return String::new();
    }
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    if char_len(s) <= n {
        return s.to_string();
    }
    let mut out = take_chars(s, n.saturating_sub(3)).to_string();
    out.push_str("...");
    out
}

/// `one_line(s, n)`: every run of ws becomes one space, strip, then clip to n.
pub(crate) fn one_line(s: &str, n: i64) -> String {
    let joined = py_words(s).collect::<Vec<_>>().join(" ");
    clip(&joined, n)
}

/// `head_tail(s, n)`: the fallback sample of the first and last n/2 chars.
pub(crate) fn head_tail(s: &str, n: i64) -> String {
    if n <= 0 {
        return String::new();
    }
    head_tail_of(s, char_len(s), n)
}

/// `head_tail(s, n)` of an `s` whose length in chars, `total`, is known: no pass over all of it.
pub(crate) fn head_tail_of(s: &str, total: usize, n: i64) -> String {
    if n <= 0 {
        return String::new();
    }
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    if total <= n {
        return s.to_string();
    }
    let half = (n / 2).max(1);
    format!(
        "--- BEGIN SAMPLE HEAD ---\n{}\n--- END SAMPLE HEAD ---\n\n--- BEGIN SAMPLE TAIL ---\n{}\n--- END SAMPLE TAIL ---",
        take_chars(s, half),
        last_chars(s, half)
    )
}

/// A stable sort, as Python's `sorted()` and `list.sort()` are. Every caller shares one
/// instantiation of the standard sort (on indices): each `sort_by` of its own costs ~6 KB of the
/// shipped wasm, and these sorts are cold (a few thousand items at most).
pub(crate) fn stable_sort_by<T>(items: &mut Vec<T>, compare: impl Fn(&T, &T) -> Ordering) {
    let mut order: Vec<usize> = (0..items.len()).collect();
    sort_indices(&mut order, &|a, b| match (items.get(a), items.get(b)) {
        (Some(a), Some(b)) => compare(a, b),
        _ => Ordering::Equal,
    });
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(
        order
            .iter()
            .filter_map(|&index| slots.get_mut(index).and_then(Option::take)),
    );
}

fn sort_indices(order: &mut [usize], compare: &dyn Fn(usize, usize) -> Ordering) {
    order.sort_by(|&a, &b| compare(a, b));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitlines_matches_python() {
        let lines: Vec<_> = py_splitlines("a\r\nb\rc\x0bd\u{2028}e\n").collect();
        assert_eq!(lines, ["a", "b", "c", "d", "e"]);
        assert_eq!(py_line_count(""), 0);
        assert_eq!(py_line_count("\n"), 1);
        assert_eq!(py_line_count("a\n\nb"), 3);
    }

    /// `str.splitlines()` by chars: the definition the byte scan must equal.
    fn char_splitlines(text: &str) -> Vec<&str> {
        let mut lines = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            match rest.char_indices().find(|&(_, c)| is_py_line_break(c)) {
                None => {
                    lines.push(rest);
                    rest = "";
                }
                Some((at, c)) => {
                    lines.push(&rest[..at]);
                    let after = at + c.len_utf8();
                    let crlf = c == '\r' && rest[after..].starts_with('\n');
                    rest = &rest[after + usize::from(crlf)..];
                }
            }
        }
        lines
    }

    #[test]
    fn word_count_and_lines_by_words_of_bytes_agree_with_split() {
        let pieces = [
            "word", " ", "\n", "\t", "\r\n", "x", "é", "日本", "\u{a0}", "\u{85}", "\u{3000}",
            "\u{2028}", "\u{200b}", "\u{e0}", "\u{1c}", "\0", "\u{1680}", "🙂", "  ", "abcdefgh",
            "\r", "\u{b}", "\u{1e}", "\u{1f}", "\u{2029}", "\u{2027}",
        ];
        let mut seed = 11u64;
        for case in 0..3000 {
            let mut text = String::new();
            for _ in 0..case % 40 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                // Mostly plain words and spaces, so runs of 8 plain bytes occur.
                let piece = if (seed >> 60) < 10 {
                    pieces[(seed >> 40) as usize % 2]
                } else {
                    pieces[(seed >> 33) as usize % pieces.len()]
                };
                text.push_str(piece);
            }
            assert_eq!(py_word_count(&text), py_words(&text).count(), "{text:?}");
            assert_eq!(
                py_splitlines(&text).collect::<Vec<_>>(),
                char_splitlines(&text),
                "{text:?}"
            );
        }
    }

    /// Every pairing of break, space and word pieces: the byte scans agree with the char-level
    /// definitions they replace.
    #[test]
    fn byte_scans_agree_with_char_definitions() {
        let pieces = [
            "a", "é", "\r", "\n", "\u{85}", "\u{a0}", "\u{2028}", "\u{2029}", "\u{2027}",
            "\u{3000}", "\u{1680}", "\u{200a}", "\u{200b}", "\u{e2}", "\u{1c}", "\u{1f}", " ",
            "日",
        ];
        let mut texts = vec![String::new()];
        for a in pieces {
            for b in pieces {
                for c in pieces {
                    texts.push(format!("{a}{b}{c}"));
                    texts.push(format!("{a}x{b}{c}y"));
                }
            }
        }
        for text in &texts {
            assert_eq!(
                py_splitlines(text).collect::<Vec<_>>(),
                char_splitlines(text),
                "{text:?}"
            );
            assert_eq!(py_word_count(text), py_words(text).count(), "{text:?}");
            assert_eq!(py_strip(text), text.trim_matches(is_py_space), "{text:?}");
            assert_eq!(
                py_lstrip(text),
                text.trim_start_matches(is_py_space),
                "{text:?}"
            );
            let chars: Vec<char> = text.chars().collect();
            for n in 0..5 {
                let tail: String = chars[chars.len().saturating_sub(n)..].iter().collect();
                assert_eq!(last_chars(text, n), tail, "{text:?} {n}");
            }
        }
    }

    #[test]
    fn isspace_includes_separators_and_excludes_zero_width() {
        assert!(is_py_space('\u{1c}') && is_py_space('\u{85}') && is_py_space('\u{3000}'));
        assert!(!is_py_space('\u{200b}') && !is_py_space('\u{feff}'));
        assert_eq!(py_strip("\u{a0} x \u{2029}"), "x");
    }

    #[test]
    fn clip_and_one_line() {
        assert_eq!(clip("abcdef", 0), "");
        assert_eq!(clip("abcdef", 6), "abcdef");
        assert_eq!(clip("abcdef", 5), "ab...");
        assert_eq!(clip("abcdef", 2), "...");
        assert_eq!(one_line("  a \n\t b  ", 10), "a b");
    }

    #[test]
    fn head_tail_halves() {
        assert_eq!(head_tail("abc", 5), "abc");
        let s = head_tail("abcdefgh", 4);
        assert!(s.contains("HEAD ---\nab\n") && s.contains("TAIL ---\ngh\n"));
        assert!(head_tail("abcdef", 1).contains("HEAD ---\na\n"));
    }
}

/// Char length of `head_tail(s, n)` for an `s` of `total` chars, without building it.
pub(crate) fn head_tail_len(total: usize, n: i64) -> usize {
    if n <= 0 {
        return 0;
    }
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    if total <= n {
        return total;
    }
    const MARKERS: usize = "--- BEGIN SAMPLE HEAD ---\n\n--- END SAMPLE HEAD ---\n\n--- BEGIN SAMPLE TAIL ---\n\n--- END SAMPLE TAIL ---".len();
    MARKERS + 2 * (n / 2).max(1)
}

#[cfg(test)]
mod head_tail_len_tests {
    use super::*;

    #[test]
    fn head_tail_len_matches_head_tail() {
        let s = "héllo wörld, a sample of some length";
        for n in -1..45 {
            assert_eq!(
                head_tail_len(char_len(s), n),
                char_len(&head_tail(s, n)),
                "n={n}"
            );
        }
    }
}
