//! Character classes: expat's byte types, with UTF-8 sequences classified by code point.

use super::*;

/// Expat's byte type of one character. Non-ASCII characters are split by name class, and
/// characters XML forbids (C0 controls other than tab/LF/CR, U+FFFE, U+FFFF) are `NonXml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Bt {
    NonXml,
    S,
    Lf,
    Cr,
    Excl,
    Quot,
    Num,
    Other,
    Percnt,
    Amp,
    Apos,
    Lpar,
    Rpar,
    Ast,
    Plus,
    Comma,
    Minus,
    /// `.`
    Name,
    Sol,
    Digit,
    Colon,
    Semi,
    Lt,
    Equals,
    Gt,
    Quest,
    Hex,
    Nmstrt,
    Lsqb,
    Rsqb,
    Verbar,
    /// Non-ASCII character allowed to start a name (expat's name tables; BMP only).
    WideNameStart,
    /// Non-ASCII character allowed inside a name but not first.
    WideNameChar,
    /// Any other valid non-ASCII character.
    WideOther,
}

pub(super) const fn ascii_bt(byte: u8) -> Bt {
    match byte {
        b'\t' | b' ' => Bt::S,
        b'\n' => Bt::Lf,
        b'\r' => Bt::Cr,
        0..=0x1f => Bt::NonXml,
        b'!' => Bt::Excl,
        b'"' => Bt::Quot,
        b'#' => Bt::Num,
        b'%' => Bt::Percnt,
        b'&' => Bt::Amp,
        b'\'' => Bt::Apos,
        b'(' => Bt::Lpar,
        b')' => Bt::Rpar,
        b'*' => Bt::Ast,
        b'+' => Bt::Plus,
        b',' => Bt::Comma,
        b'-' => Bt::Minus,
        b'.' => Bt::Name,
        b'/' => Bt::Sol,
        b'0'..=b'9' => Bt::Digit,
        b':' => Bt::Colon,
        b';' => Bt::Semi,
        b'<' => Bt::Lt,
        b'=' => Bt::Equals,
        b'>' => Bt::Gt,
        b'?' => Bt::Quest,
        b'A'..=b'F' | b'a'..=b'f' => Bt::Hex,
        b'G'..=b'Z' | b'g'..=b'z' | b'_' => Bt::Nmstrt,
        b'[' => Bt::Lsqb,
        b']' => Bt::Rsqb,
        b'|' => Bt::Verbar,
        _ => Bt::Other,
    }
}

/// `ascii_bt` of each ASCII byte: a lookup for the hot scanners.
pub(super) const ASCII_BYTE_TYPES: [Bt; 128] = {
    let mut table = [Bt::Other; 128];
    let mut byte = 0;
    while byte < 128 {
        table[byte] = ascii_bt(byte as u8);
        byte += 1;
    }
    table
};

/// Bytes that are ASCII name chars (letters, digits, `.`, `-`, `_`; not the colon).
pub(super) const ASCII_NAME_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 128 {
        let bt = ascii_bt(byte as u8);
        table[byte] = matches!(bt, Bt::Nmstrt | Bt::Hex | Bt::Digit | Bt::Name | Bt::Minus);
        byte += 1;
    }
    table
};

/// Bytes that character data passes over without a check: all but `<`, `&`, `]`, the C0
/// controls XML forbids, and 0xEF (which starts U+FFFE and U+FFFF). UTF-8 continuation bytes
/// are plain, so multi-byte chars pass a byte at a time.
pub(super) const PLAIN_CONTENT_BYTES: [bool; 256] = {
    let mut table = [true; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = matches!(byte as u8, b'\t' | b'\n' | b'\r');
        byte += 1;
    }
    table[b'<' as usize] = false;
    table[b'&' as usize] = false;
    table[b']' as usize] = false;
    table[0xEF] = false;
    table
};

/// Bytes an attribute value passes over without a check: as for character data, but `]` is
/// plain and both quotes are not (one of them closes the value).
pub(super) const PLAIN_ATTRIBUTE_BYTES: [bool; 256] = {
    let mut table = PLAIN_CONTENT_BYTES;
    table[b']' as usize] = true;
    table[b'"' as usize] = false;
    table[b'\'' as usize] = false;
    table
};

pub(super) fn in_ranges(code: u32, ranges: &[(u32, u32)]) -> bool {
    ranges
        .binary_search_by(|&(low, high)| {
            if high < code {
                std::cmp::Ordering::Less
            } else if low > code {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

pub(super) fn wide_bt(c: char) -> Bt {
    let code = c as u32;
    if code == 0xFFFE || code == 0xFFFF {
        Bt::NonXml
    } else if code > 0xFFFF {
        // Expat never treats 4-byte UTF-8 characters as name characters.
        Bt::WideOther
    } else if in_ranges(code, NAME_START_RANGES) {
        Bt::WideNameStart
    } else if in_ranges(code, NAME_CHAR_RANGES) {
        Bt::WideNameChar
    } else {
        Bt::WideOther
    }
}

/// Byte type and UTF-8 length of the character at `pos`; None at the end (or off a boundary).
/// Inlined for its ASCII case, which every tag and name goes through.
#[inline(always)]
pub(super) fn char_at(s: &str, pos: usize) -> Option<(Bt, usize)> {
    let byte = *s.as_bytes().get(pos)?;
    if let Some(&bt) = ASCII_BYTE_TYPES.get(usize::from(byte)) {
        return Some((bt, 1));
    }
    wide_char_at(s, pos)
}

/// `char_at` for a non-ASCII char.
#[inline(never)]
pub(super) fn wide_char_at(s: &str, pos: usize) -> Option<(Bt, usize)> {
    let c = s.get(pos..)?.chars().next()?;
    Some((wide_bt(c), c.len_utf8()))
}

pub(super) fn is_nmstrt(bt: Bt) -> bool {
    matches!(bt, Bt::Nmstrt | Bt::Hex | Bt::WideNameStart)
}

pub(super) fn is_name_char(bt: Bt) -> bool {
    is_nmstrt(bt) || matches!(bt, Bt::Digit | Bt::Name | Bt::Minus | Bt::WideNameChar)
}

pub(super) fn is_space_bt(bt: Bt) -> bool {
    matches!(bt, Bt::S | Bt::Cr | Bt::Lf)
}

pub(super) fn byte_at(s: &str, pos: usize) -> Option<u8> {
    s.as_bytes().get(pos).copied()
}
