//! The reader's check (port of PyYAML's reader.py): which characters a stream may hold.

use super::*;

/// PyYAML's reader refuses these characters anywhere in a str stream ("special characters are not
/// allowed"); `\0` is among them.
pub(super) fn check_printable(text: &str) -> Res<()> {
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
pub(super) fn all_printable_ascii(block: &[u8]) -> bool {
    let bad = block.iter().fold(0u8, |bad, &byte| {
        let control = u8::from(byte < b' ')
            & u8::from(byte != b'\t')
            & u8::from(byte != b'\n')
            & u8::from(byte != b'\r');
        bad | control | u8::from(byte > b'~')
    });
    bad == 0
}
