//! Text helpers the line-oriented analyzers share (logs, build output, dependency trees, git
//! logs, text tables, HTML, counters): substring and byte search, trims, line splitting, the
//! probes of a long output, a bounded one-line prefix. One home, so no analyzer imports another
//! for them, and each helper is one copy in the wasm (most are `#[inline(never)]` for that).

use crate::python::{one_line, swar};

/// Bytes from most to less common in text, code and logs: a needle is looked for by its byte
/// that comes last here (or is absent: rarer still), which fewer places of a haystack hold.
const COMMON_BYTES: &[u8] = b" etaoinsrhldcumfpgwyb,.vk0123456789_-=()/:\"'ETAOINSRHLDCUMFPGWYBVK";

/// Each byte's rank in `COMMON_BYTES` (the absent ones after all of them).
const BYTE_RARITY: [u8; 256] = {
    let mut rarity = [u8::MAX; 256];
    let mut i = 0;
    while i < COMMON_BYTES.len() {
        rarity[COMMON_BYTES[i] as usize] = i as u8;
        i += 1;
    }
    rarity
};

/// Where `needle` first occurs in `haystack`. Every substring search here goes through this one
/// call: each inlined `str::find(&str)` would carry its own copy of the searcher's setup. The
/// needles are short literals and most haystacks short lines, which a scan for the needle's
/// rarest byte (`BYTE_RARITY`: `x` of `exit`) and a compare at each find reads faster than
/// `str::find`, whose Two-Way setup (per call) was most of the time of the probes that reject an
/// output as a log or build output. The finds come left to right, so the first match is the
/// leftmost. At worst the haystack's length times the needle's (a few bytes): linear.
#[inline(never)]
pub(crate) fn find_str(haystack: &str, needle: &str) -> Option<usize> {
    let (haystack, needle) = (haystack.as_bytes(), needle.as_bytes());
    if needle.is_empty() {
        return Some(0);
    }
    let last_start = haystack.len().checked_sub(needle.len())?;
    // The rarest byte, the first of equally rare ones.
    let mut key = 0;
    for (i, &byte) in needle.iter().enumerate() {
        if BYTE_RARITY[usize::from(byte)] > BYTE_RARITY[usize::from(needle[key])] {
            key = i;
        }
    }
    // Where the needle would start, for each find of its key byte.
    let mut start = 0;
    while start <= last_start {
        start += find_byte(&haystack[start + key..=last_start + key], needle[key])?;
        // Byte by byte: the needles are a few bytes, shorter than a call to `memcmp` costs.
        if haystack[start..start + needle.len()]
            .iter()
            .zip(needle)
            .all(|(a, b)| a == b)
        {
            return Some(start);
        }
        start += 1;
    }
    None
}

pub(crate) fn contains_str(haystack: &str, needle: &str) -> bool {
    find_str(haystack, needle).is_some()
}

/// `haystack` split around the first `needle`.
pub(crate) fn split_str<'a>(haystack: &'a str, needle: &str) -> Option<(&'a str, &'a str)> {
    let at = find_str(haystack, needle)?;
    Some((&haystack[..at], &haystack[at + needle.len()..]))
}

/// `s` without the ASCII bytes of `set` at its start (if `start`) and its end (if `end`): one
/// function for every trim here, where each `trim_matches` pattern would be its own wasm code.
#[inline(never)]
pub(crate) fn trim_set<'a>(s: &'a str, set: &[u8], start: bool, end: bool) -> &'a str {
    let bytes = s.as_bytes();
    // The sets are a few bytes: compared in turn (`<[u8]>::contains` calls memchr per byte).
    let in_set = |byte: u8| {
        for &member in set {
            if member == byte {
                return true;
            }
        }
        false
    };
    let (mut from, mut to) = (0, bytes.len());
    while start && from < to && in_set(bytes[from]) {
        from += 1;
    }
    while end && to > from && in_set(bytes[to - 1]) {
        to -= 1;
    }
    &s[from..to]
}

/// What follows the last `byte` (ASCII) of `s`, or all of `s`.
#[inline(never)]
pub(crate) fn after_last(s: &str, byte: u8) -> &str {
    let bytes = s.as_bytes();
    let mut at = bytes.len();
    while at > 0 && bytes[at - 1] != byte {
        at -= 1;
    }
    &s[at..]
}

pub(crate) fn floor_char_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Bytes at each end of a long output that decide whether it may be of a line-oriented kind.
pub(crate) const PROBE_BYTES: usize = 64 * 1024;

/// The first and the last `PROBE_BYTES` of `output`, cut at line breaks (whole lines only).
pub(crate) fn probes(output: &str) -> [&str; 2] {
    // A line longer than the window is probed by its part inside it.
    let head_cut = floor_char_boundary(output, PROBE_BYTES);
    let head_end = output.as_bytes()[..head_cut]
        .iter()
        .rposition(|&b| b == b'\n')
        .unwrap_or(head_cut);
    let tail_cut = floor_char_boundary(output, output.len() - PROBE_BYTES);
    let tail_start = output.as_bytes()[tail_cut..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(tail_cut, |at| tail_cut + at + 1);
    [&output[..head_end], &output[tail_start..]]
}

/// The lines of `text`, as `text.split('\n')` gives them (an empty text is one empty line, a
/// final `\n` ends with an empty one), found 8 bytes at a time (`swar::bytes_equal`). `split`'s searcher
/// pays a call and its setup per line, most of the cost of probing an output of short lines.
pub(crate) struct Lines<'a> {
    text: &'a str,
    /// Where the next line starts.
    start: usize,
    /// Where the word of `newlines` starts.
    word: usize,
    /// The newlines of the word at `word` not yet passed (`swar::bytes_equal`'s bits).
    newlines: u64,
    done: bool,
}

pub(crate) fn lines(text: &str) -> Lines<'_> {
    Lines {
        text,
        start: 0,
        word: 0,
        newlines: word_mask(text.as_bytes(), 0, b'\n'),
        done: false,
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if self.done {
            return None;
        }
        while self.newlines == 0 {
            self.word += 8;
            if self.word >= self.text.len() {
                // The rest is the last line.
                self.done = true;
                return Some(&self.text[self.start..]);
            }
            self.newlines = word_mask(self.text.as_bytes(), self.word, b'\n');
        }
        let newline = self.word + (self.newlines.trailing_zeros() / 8) as usize;
        self.newlines &= self.newlines - 1;
        let line = &self.text[self.start..newline];
        self.start = newline + 1;
        Some(line)
    }
}

/// `swar::bytes_equal` of the (up to) 8 bytes of `bytes` at `at`; past the end, none.
#[inline(always)]
fn word_mask(bytes: &[u8], at: usize, byte: u8) -> u64 {
    if let Some(word) = bytes.get(at..at + 8) {
        let word: [u8; 8] = word.try_into().unwrap_or_default();
        return swar::bytes_equal(u64::from_le_bytes(word), byte);
    }
    // The last few bytes, one by one.
    let mut mask = 0;
    for (i, &b) in bytes.get(at..).unwrap_or(&[]).iter().enumerate() {
        mask |= u64::from(b == byte) << (8 * i + 7);
    }
    mask
}

/// Where `byte` first occurs in `bytes` (`swar::find_byte`, out of line: the analyzers call it
/// from many places).
#[inline(never)]
pub(crate) fn find_byte(bytes: &[u8], byte: u8) -> Option<usize> {
    swar::find_byte(bytes, 0, byte)
}

/// At most `n` chars of `text` on one line, reading only a bounded prefix of it: a 10 MB line
/// costs what a short one does.
#[inline(never)]
pub(crate) fn bounded_one_line(text: &str, n: i64) -> String {
    let prefix = &text[..floor_char_boundary(text, usize::try_from(n).unwrap_or(0) * 8 + 64)];
    one_line(prefix, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_str_finds_what_str_find_finds() {
        for (haystack, needle) in [
            ("", ""),
            ("", "a"),
            ("a", ""),
            ("abc", "abc"),
            ("ab", "abc"),
            ("aaab", "aab"),
            ("x::y::z", "::"),
            ("tests completed, 2 failed", "failed"),
            ("café über", "über"),
            ("ééé", "é"),
            ("no match here", "zz"),
            ("ends with needle", "needle"),
        ] {
            assert_eq!(
                find_str(haystack, needle),
                haystack.find(needle),
                "{haystack:?} {needle:?}"
            );
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::super::{find_byte, find_str, lines};
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

            /// Every length around the word size, the byte anywhere (or nowhere), bytes that
            /// differ from it by one bit (no borrow may cross bytes).
            #[test]
            fn find_byte_finds_what_position_finds(
                bytes in proptest::collection::vec(prop::sample::select(vec![b'x', b'y', b'z', 0x78 ^ 0x80, 0, 0xff, b'\n', 0x0b]), 0..40),
                byte in prop::sample::select(vec![b'x', b'\n', 0, 0xff]),
            ) {
                prop_assert_eq!(find_byte(&bytes, byte), bytes.iter().position(|&b| b == byte));
            }

            /// Texts of every length around the block size, newlines anywhere (runs, at block
            /// edges, at either end), non-ASCII chars.
            #[test]
            fn lines_are_what_split_gives(text in r"(\n|\n\n|a|é|\r|xxxxxxxxxxxxxxx|日本語){0,40}") {
                let split: Vec<&str> = text.split('\n').collect();
                prop_assert_eq!(lines(&text).collect::<Vec<_>>(), split);
            }

            /// Over a small alphabet (many partial matches), with non-ASCII chars.
            #[test]
            fn find_str_agrees_with_str_find(haystack in "[abxe é:]{0,40}", needle in "[abxe é:]{0,4}") {
                prop_assert_eq!(find_str(&haystack, &needle), haystack.find(needle.as_str()));
            }
        }
    }
}
