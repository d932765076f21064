//! The position index of a stored output (`index.json`, saved by the JS layer beside
//! `output.txt`): checkpoints every [`CHECKPOINT_STEP`] code points that let a read fetch only
//! the span around its window and a search place a match without counting from the start.
//!
//! It describes the exact string the store keeps. The core sees that string with each lone
//! surrogate as U+FFFD, which has the same measures (one code point, one UTF-16 unit, three
//! bytes, as in the WTF-8 a file store writes), so the index computed here is the exact one;
//! only well-formedness is the caller's to say.

use serde::Serialize;

use crate::python::swar::{bytes_equal, continuation_bytes, HIGH_BITS, LOW_BITS};

pub const INDEX_VERSION: u32 = 1;
/// Code points between two checkpoints: a ranged read fetches at most about two blocks extra.
pub const CHECKPOINT_STEP: usize = 65_536;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OutputIndex {
    pub version: u32,
    pub step: usize,
    /// Code points.
    pub chars: usize,
    /// UTF-16 code units.
    pub utf16: usize,
    /// UTF-8 (WTF-8) bytes.
    pub bytes: usize,
    pub well_formed: bool,
    /// Checkpoint `k` is code point `k * step`: `[UTF-16 offset, byte offset, "\n" before it,
    /// code points since the last "\n"]`. Always at least one (code point 0).
    pub checkpoints: Vec<[usize; 4]>,
}

/// The index of `text`. Built when every stored output is planned, so it counts 32 bytes at a
/// time (code points, astral code points, line feeds) and only walks bytes near checkpoints.
pub fn output_index(text: &str, well_formed: bool) -> OutputIndex {
    build_index(text, |_| well_formed)
}

/// The index of an output as the core received it, where each lone surrogate of the host's string
/// became U+FFFD: well-formed is vouched for only without U+FFFD (a genuine U+FFFD only sends
/// reads down the general path). The 0xEF bytes seen on the way spare most texts that search.
pub fn index_of_received_output(text: &str) -> OutputIndex {
    build_index(text, |saw_ef| !(saw_ef && text.contains('\u{FFFD}')))
}

/// `well_formed` gets whether the text has any 0xEF byte.
fn build_index(text: &str, well_formed: impl FnOnce(bool) -> bool) -> OutputIndex {
    let bytes = text.as_bytes();
    let mut saw_ef = false;
    let mut checkpoints = vec![[0; 4]];
    let mut at = 0;
    let (mut chars, mut utf16, mut newlines, mut column) = (0, 0, 0, 0);
    loop {
        let block_start = at;
        let rest = bytes.get(at..).unwrap_or_default();
        // Fewer bytes than a step left: this block is the last, and no checkpoint follows it to
        // record its line feeds (most outputs are one block and skip counting them).
        let block = if rest.len() < CHECKPOINT_STEP {
            advance::<false>(rest, CHECKPOINT_STEP)
        } else {
            advance::<true>(rest, CHECKPOINT_STEP)
        };
        at += block.bytes;
        chars += block.chars;
        utf16 += block.chars + block.astral;
        newlines += block.newlines;
        saw_ef |= block.saw_ef;
        // The code points after the block's last line feed, or the whole block's on top.
        let block_bytes = bytes.get(block_start..at).unwrap_or_default();
        let last_newline = (block.newlines > 0)
            .then(|| block_bytes.iter().rposition(|&b| b == b'\n'))
            .flatten();
        column = match last_newline {
            Some(last) => count_chars(block_bytes.get(last + 1..).unwrap_or_default()),
            None => column + block.chars,
        };
        if at >= bytes.len() {
            break;
        }
        checkpoints.push([utf16, at, newlines, column]);
    }
    OutputIndex {
        version: INDEX_VERSION,
        step: CHECKPOINT_STEP,
        chars,
        utf16,
        bytes: bytes.len(),
        well_formed: well_formed(saw_ef),
        checkpoints,
    }
}

/// What `advance` walked over.
#[derive(Debug, Default, PartialEq, Eq)]
struct Span {
    bytes: usize,
    chars: usize,
    /// Code points outside the BMP (two UTF-16 units each).
    astral: usize,
    newlines: usize,
    /// Whether any byte was 0xEF, the lead byte of U+FFFD (and of U+F000..U+FFFF).
    saw_ef: bool,
}

/// The high bit of each byte of `word` that leads a 4-byte sequence (`11110xxx`).
fn astral_leads(word: u64) -> u64 {
    word & (word << 1) & (word << 2) & (word << 3) & HIGH_BITS
}

/// The high bit of each byte of `word` that leads a sequence of 3 or 4 bytes (`111xxxxx`).
fn long_leads(word: u64) -> u64 {
    word & (word << 1) & (word << 2) & HIGH_BITS
}

/// The number of high bits set in four masks of byte high bits: the bytes of their sum count
/// up to 4 each, and one multiplication adds the bytes up.
fn count_high_bits(a: u64, b: u64, c: u64, d: u64) -> usize {
    let per_byte = (a >> 7) + (b >> 7) + (c >> 7) + (d >> 7);
    (per_byte.wrapping_mul(LOW_BITS) >> 56) as usize
}

/// Bytes read together: one test tells whether all 32 are ASCII.
const GROUP_BYTES: usize = 32;

/// Walks `bytes` from the start of a code point over `max_chars` code points (or to the end):
/// the span ends at the start of the next code point; its line feeds are counted if asked.
/// Hot (every output of a turn goes through it once), so it reads 32 bytes at a time as four
/// words and counts their high-bit masks with one multiplication; astral code points and 0xEF
/// bytes are looked for only where a 3- or 4-byte sequence starts. Written out word by word: the
/// wasm build (opt-level "s") does not unroll array maps, which made this 4x slower.
fn advance<const COUNT_LINES: bool>(bytes: &[u8], max_chars: usize) -> Span {
    let mut span = Span::default();
    let mut groups = bytes.chunks_exact(GROUP_BYTES);
    let word = |group: &[u8], at: usize| {
        u64::from_le_bytes(
            group
                .get(at..at + 8)
                .and_then(|b| b.try_into().ok())
                .unwrap_or_default(),
        )
    };
    // A group holds at most 32 code point starts, so whole groups are safe while 32 more fit.
    while max_chars - span.chars >= GROUP_BYTES {
        let Some(group) = groups.next() else { break };
        let (a, b, c, d) = (
            word(group, 0),
            word(group, 8),
            word(group, 16),
            word(group, 24),
        );
        if COUNT_LINES {
            let newline = |w| bytes_equal(w, b'\n');
            span.newlines += count_high_bits(newline(a), newline(b), newline(c), newline(d));
        }
        span.bytes += GROUP_BYTES;
        if (a | b | c | d) & HIGH_BITS == 0 {
            span.chars += GROUP_BYTES;
            continue;
        }
        let continuation = count_high_bits(
            continuation_bytes(a),
            continuation_bytes(b),
            continuation_bytes(c),
            continuation_bytes(d),
        );
        span.chars += GROUP_BYTES - continuation;
        if long_leads(a) | long_leads(b) | long_leads(c) | long_leads(d) != 0 {
            span.astral += count_high_bits(
                astral_leads(a),
                astral_leads(b),
                astral_leads(c),
                astral_leads(d),
            );
            // Whether any 0xEF was seen is all that is asked: once is enough.
            let ef = |w| bytes_equal(w, 0xEF);
            span.saw_ef = span.saw_ef || (ef(a) | ef(b) | ef(c) | ef(d)) != 0;
        }
    }
    for &byte in bytes.get(span.bytes..).unwrap_or_default() {
        if byte & 0xC0 != 0x80 {
            if span.chars == max_chars {
                break;
            }
            span.chars += 1;
            span.astral += usize::from(byte >= 0xF0);
            span.newlines += usize::from(COUNT_LINES && byte == b'\n');
            span.saw_ef |= byte == 0xEF;
        }
        span.bytes += 1;
    }
    span
}

fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&byte| byte & 0xC0 != 0x80).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte-at-a-time definition the fast index must equal.
    fn reference_index(text: &str, well_formed: bool) -> OutputIndex {
        let bytes = text.as_bytes();
        let mut checkpoints = Vec::new();
        let (mut chars, mut utf16, mut newlines, mut column) = (0usize, 0usize, 0usize, 0usize);
        for (at, &byte) in bytes.iter().enumerate() {
            if byte & 0xC0 == 0x80 {
                continue;
            }
            if chars % CHECKPOINT_STEP == 0 {
                checkpoints.push([utf16, at, newlines, column]);
            }
            chars += 1;
            if byte == b'\n' {
                newlines += 1;
                column = 0;
            } else {
                column += 1;
            }
            utf16 += if byte >= 0xF0 { 2 } else { 1 };
        }
        if checkpoints.is_empty() {
            checkpoints.push([0; 4]);
        }
        OutputIndex {
            version: INDEX_VERSION,
            step: CHECKPOINT_STEP,
            chars,
            utf16,
            bytes: bytes.len(),
            well_formed,
            checkpoints,
        }
    }

    #[test]
    fn fast_index_equals_the_byte_at_a_time_definition() {
        let pieces = [
            "a",
            "\n",
            "é",
            "日",
            "😀",
            "\r\n",
            "abcdefgh",
            "\u{10ffff}",
            "\u{fffd}",
        ];
        let mut seed = 7u64;
        for case in 0..60 {
            let mut text = String::new();
            // Lengths around one and two checkpoint steps, with and without long runs of one piece.
            let target = [
                0,
                1,
                7,
                8,
                9,
                CHECKPOINT_STEP - 1,
                CHECKPOINT_STEP,
                CHECKPOINT_STEP + 1,
                2 * CHECKPOINT_STEP + 3,
            ][case % 9];
            while text.chars().count() < target {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let piece = pieces[(seed >> 33) as usize % pieces.len()];
                let repeat = if case % 3 == 0 {
                    1
                } else {
                    1 + (seed >> 50) as usize % 3000
                };
                text.push_str(&piece.repeat(repeat));
            }
            assert_eq!(
                output_index(&text, true),
                reference_index(&text, true),
                "case {case}"
            );
        }
        for (text, vouched) in [
            ("a\u{FFFD}", false),
            ("\u{FFFD}", false),
            ("\u{F000}x", true),
            ("plain", true),
        ] {
            let long = format!("{}{text}", "y".repeat(20));
            for text in [text, long.as_str()] {
                assert_eq!(
                    index_of_received_output(text),
                    reference_index(text, vouched),
                    "{text:?}"
                );
            }
        }
        let single_line = "x".repeat(3 * CHECKPOINT_STEP + 17);
        assert_eq!(
            output_index(&single_line, false),
            reference_index(&single_line, false)
        );
    }

    #[test]
    fn measures_code_points_units_bytes_and_lines() {
        let index = output_index("aé\n日😀x", true);
        assert_eq!((index.chars, index.utf16, index.bytes), (6, 7, 12));
        assert_eq!(index.checkpoints, vec![[0, 0, 0, 0]]);
        assert_eq!(output_index("", false).checkpoints, vec![[0, 0, 0, 0]]);
    }

    #[test]
    fn checkpoints_fall_every_step_code_points() {
        let text = format!(
            "{}\n{}",
            "😀".repeat(CHECKPOINT_STEP),
            "a".repeat(CHECKPOINT_STEP + 5)
        );
        let index = output_index(&text, true);
        assert_eq!(index.chars, 2 * CHECKPOINT_STEP + 6);
        assert_eq!(
            index.checkpoints,
            vec![
                [0, 0, 0, 0],
                [2 * CHECKPOINT_STEP, 4 * CHECKPOINT_STEP, 0, CHECKPOINT_STEP],
                [
                    2 * CHECKPOINT_STEP + CHECKPOINT_STEP,
                    4 * CHECKPOINT_STEP + CHECKPOINT_STEP,
                    1,
                    CHECKPOINT_STEP - 1
                ],
            ]
        );
    }
}
