//! The position index of a stored output (`index.json`, saved by the JS layer beside
//! `output.txt`): checkpoints every [`CHECKPOINT_STEP`] code points that let a read fetch only
//! the span around its window and a search place a match without counting from the start.
//!
//! It describes the exact string the store keeps. The core sees that string with each lone
//! surrogate as U+FFFD, which has the same measures (one code point, one UTF-16 unit, three
//! bytes, as in the WTF-8 a file store writes), so the index computed here is the exact one;
//! only well-formedness is the caller's to say.

use serde::Serialize;

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

pub fn output_index(text: &str, well_formed: bool) -> OutputIndex {
    let bytes = text.as_bytes();
    let mut checkpoints = Vec::with_capacity(bytes.len() / CHECKPOINT_STEP + 1);
    let (mut chars, mut utf16, mut newlines, mut column) = (0usize, 0usize, 0usize, 0usize);
    for (at, &byte) in bytes.iter().enumerate() {
        if byte & 0xC0 == 0x80 {
            continue; // inside a character
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
        // A 4-byte character is outside the BMP: a surrogate pair in UTF-16.
        utf16 += if byte >= 0xF0 { 2 } else { 1 };
    }
    if checkpoints.is_empty() {
        checkpoints.push([0; 4]);
    }
    OutputIndex { version: INDEX_VERSION, step: CHECKPOINT_STEP, chars, utf16, bytes: bytes.len(), well_formed, checkpoints }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_code_points_units_bytes_and_lines() {
        let index = output_index("aé\n日😀x", true);
        assert_eq!((index.chars, index.utf16, index.bytes), (6, 7, 12));
        assert_eq!(index.checkpoints, vec![[0, 0, 0, 0]]);
        assert_eq!(output_index("", false).checkpoints, vec![[0, 0, 0, 0]]);
    }

    #[test]
    fn checkpoints_fall_every_step_code_points() {
        let text = format!("{}\n{}", "😀".repeat(CHECKPOINT_STEP), "a".repeat(CHECKPOINT_STEP + 5));
        let index = output_index(&text, true);
        assert_eq!(index.chars, 2 * CHECKPOINT_STEP + 6);
        assert_eq!(
            index.checkpoints,
            vec![
                [0, 0, 0, 0],
                [2 * CHECKPOINT_STEP, 4 * CHECKPOINT_STEP, 0, CHECKPOINT_STEP],
                [2 * CHECKPOINT_STEP + CHECKPOINT_STEP, 4 * CHECKPOINT_STEP + CHECKPOINT_STEP, 1, CHECKPOINT_STEP - 1],
            ]
        );
    }
}
