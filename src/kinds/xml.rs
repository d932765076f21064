//! XML kind (SPEC 3.5): accept or reject the whole output exactly as Python's
//! `xml.etree.ElementTree.fromstring` does on a `str` (expat 2.5.0, namespace-aware, separator
//! `}`, parameter-entity parsing off, no external entity loading), then summarise the root.
//!
//! Acceptance decides the kind of every output that starts with `<`, so this is a small strict
//! parser that follows expat's tokenizer (`xmltok_impl.c`), prolog grammar (`xmlrole.c`) and the
//! checks of `xmlparse.c` (entities, attribute defaults, namespace bindings) rather than a
//! lenient tokenizer with patches. Every error expat would report makes the parse fail; which
//! error it is does not matter. No recursion: elements, entity expansions and attribute-value
//! expansions each use an explicit stack, so deep nesting cannot overflow the call stack.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::Synopsis;
use crate::python::{stable_sort_by, utf8_len};

/// Most child-tag lines listed in the structure.
const MAX_CHILD_TAGS: usize = 30;

/// Expat's billion-laughs protection (2.4+ defaults): once direct + expanded bytes reach
/// 8 MiB, the ratio (direct + expanded) / direct may not exceed 100.
const AMPLIFICATION_ACTIVATION_BYTES: u64 = 8 * 1024 * 1024;
const AMPLIFICATION_MAX_FACTOR: f64 = 100.0;

const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NAMESPACE: &str = "http://www.w3.org/2000/xmlns/";

/// The synopsis of an XML document, or None when expat (as ElementTree drives it) rejects it.
pub fn synopsis(output: &str) -> Option<Synopsis> {
    let summary = parse_document(output).ok()?;
    let mut syn = Synopsis::new("xml", "XML output");
    syn.summary
        .push(format!("XML document with root: {}.", summary.root_tag));
    syn.structure.push(format!("root: {}", summary.root_tag));
    syn.structure
        .push(format!("attributes: {}", summary.root_attributes));
    let mut children = summary.children;
    // Stable sort keeps first-seen order among equal counts (Python's Counter.most_common).
    stable_sort_by(&mut children, |a, b| b.1.cmp(&a.1));
    for (tag, count) in children.into_iter().take(MAX_CHILD_TAGS) {
        syn.structure.push(format!("{tag}: {count}"));
    }
    Some(syn)
}

/// What the synopsis needs from a well-formed document.
#[derive(Debug, Default, PartialEq)]
struct DocumentSummary {
    root_tag: String,
    root_attributes: usize,
    /// Direct element children of the root: tag and count, in first-seen order.
    children: Vec<(String, usize)>,
}

/// Any well-formedness or namespace error; expat's error code is not needed.
#[derive(Debug, PartialEq)]
struct XmlError;

type Res<T> = Result<T, XmlError>;

fn parse_document(text: &str) -> Res<DocumentSummary> {
    let mut parser = Parser::new(text);
    parser.run()?;
    parser.summary.ok_or(XmlError)
}

// ---------------------------------------------------------------------------------------------
// Character classes (expat's byte types, with UTF-8 sequences classified by code point)
// ---------------------------------------------------------------------------------------------

/// Expat's byte type of one character. Non-ASCII characters are split by name class, and
/// characters XML forbids (C0 controls other than tab/LF/CR, U+FFFE, U+FFFF) are `NonXml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bt {
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

const fn ascii_bt(byte: u8) -> Bt {
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
const ASCII_BYTE_TYPES: [Bt; 128] = {
    let mut table = [Bt::Other; 128];
    let mut byte = 0;
    while byte < 128 {
        table[byte] = ascii_bt(byte as u8);
        byte += 1;
    }
    table
};

/// Bytes that are ASCII name chars (letters, digits, `.`, `-`, `_`; not the colon).
const ASCII_NAME_BYTES: [bool; 256] = {
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
const PLAIN_CONTENT_BYTES: [bool; 256] = {
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
const PLAIN_ATTRIBUTE_BYTES: [bool; 256] = {
    let mut table = PLAIN_CONTENT_BYTES;
    table[b']' as usize] = true;
    table[b'"' as usize] = false;
    table[b'\'' as usize] = false;
    table
};

fn in_ranges(code: u32, ranges: &[(u32, u32)]) -> bool {
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

fn wide_bt(c: char) -> Bt {
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
fn char_at(s: &str, pos: usize) -> Option<(Bt, usize)> {
    let byte = *s.as_bytes().get(pos)?;
    if let Some(&bt) = ASCII_BYTE_TYPES.get(usize::from(byte)) {
        return Some((bt, 1));
    }
    wide_char_at(s, pos)
}

/// `char_at` for a non-ASCII char.
#[inline(never)]
fn wide_char_at(s: &str, pos: usize) -> Option<(Bt, usize)> {
    let c = s.get(pos..)?.chars().next()?;
    Some((wide_bt(c), c.len_utf8()))
}

fn is_nmstrt(bt: Bt) -> bool {
    matches!(bt, Bt::Nmstrt | Bt::Hex | Bt::WideNameStart)
}

fn is_name_char(bt: Bt) -> bool {
    is_nmstrt(bt) || matches!(bt, Bt::Digit | Bt::Name | Bt::Minus | Bt::WideNameChar)
}

fn is_space_bt(bt: Bt) -> bool {
    matches!(bt, Bt::S | Bt::Cr | Bt::Lf)
}

fn byte_at(s: &str, pos: usize) -> Option<u8> {
    s.as_bytes().get(pos).copied()
}

// ---------------------------------------------------------------------------------------------
// Shared scanners (xmltok_impl.c)
// ---------------------------------------------------------------------------------------------

/// A reference after `&`: `Entity(name range)` or `Char(code point)`.
enum Reference {
    Entity(usize, usize),
    Char(u32),
}

/// Scans a reference; `pos` is just after `&`. Returns it and the position after `;`.
fn scan_ref(s: &str, pos: usize) -> Res<(Reference, usize)> {
    let (bt, len) = char_at(s, pos).ok_or(XmlError)?;
    if bt == Bt::Num {
        return scan_char_ref(s, pos + 1);
    }
    if !is_nmstrt(bt) {
        return Err(XmlError);
    }
    let mut p = pos + len;
    loop {
        let (bt, len) = char_at(s, p).ok_or(XmlError)?;
        if bt == Bt::Semi {
            return Ok((Reference::Entity(pos, p), p + 1));
        }
        if !is_name_char(bt) {
            return Err(XmlError);
        }
        p += len;
    }
}

/// `&#...;` after the `#`: decimal, or hex after a lower-case `x` only (as expat).
fn scan_char_ref(s: &str, pos: usize) -> Res<(Reference, usize)> {
    let bytes = s.as_bytes();
    let (radix, mut p) = if bytes.get(pos) == Some(&b'x') {
        (16, pos + 1)
    } else {
        (10, pos)
    };
    let digits_start = p;
    while let Some(&b) = bytes.get(p) {
        let ok = if radix == 16 {
            b.is_ascii_hexdigit()
        } else {
            b.is_ascii_digit()
        };
        if !ok {
            break;
        }
        p += 1;
    }
    if p == digits_start || bytes.get(p) != Some(&b';') {
        return Err(XmlError);
    }
    // Expat stops accumulating once the value reaches 0x110000 and reports it as invalid.
    let mut value: u32 = 0;
    for &b in bytes.get(digits_start..p).unwrap_or_default() {
        let digit = (b as char).to_digit(radix).unwrap_or(0);
        value = value.saturating_mul(radix).saturating_add(digit);
        if value >= 0x110000 {
            return Err(XmlError);
        }
    }
    if !is_valid_char_ref(value) {
        return Err(XmlError);
    }
    Ok((Reference::Char(value), p + 1))
}

/// XmlCharRefNumber's checks: an XML Char, not a surrogate, not U+FFFE/U+FFFF.
fn is_valid_char_ref(value: u32) -> bool {
    match value {
        0x9 | 0xA | 0xD => true,
        0..=0x1F => false,
        0xD800..=0xDFFF | 0xFFFE | 0xFFFF => false,
        _ => value < 0x110000,
    }
}

/// Comment after `<!-`: `--` must be followed by `>`. Returns the position after `-->`.
fn scan_comment(s: &str, pos: usize) -> Res<usize> {
    if byte_at(s, pos) != Some(b'-') {
        return Err(XmlError);
    }
    let mut p = pos + 1;
    loop {
        let (bt, len) = char_at(s, p).ok_or(XmlError)?;
        match bt {
            Bt::NonXml => return Err(XmlError),
            Bt::Minus => {
                p += 1;
                if byte_at(s, p).ok_or(XmlError)? == b'-' {
                    p += 1;
                    if byte_at(s, p).ok_or(XmlError)? != b'>' {
                        return Err(XmlError);
                    }
                    return Ok(p + 1);
                }
            }
            _ => p += len,
        }
    }
}

/// Processing instruction after `<?`. Returns whether its target is `xml` (an XML
/// declaration token) and the position after `?>`. Targets spelling `xml` in other cases are
/// invalid.
fn scan_pi(s: &str, pos: usize) -> Res<(bool, usize)> {
    let (bt, len) = char_at(s, pos).ok_or(XmlError)?;
    if !is_nmstrt(bt) {
        return Err(XmlError);
    }
    let mut p = pos + len;
    loop {
        let (bt, len) = char_at(s, p).ok_or(XmlError)?;
        if is_name_char(bt) {
            p += len;
            continue;
        }
        let is_xml_decl = pi_target_kind(s.get(pos..p).ok_or(XmlError)?)?;
        match bt {
            Bt::S | Bt::Cr | Bt::Lf => {
                p += 1;
                loop {
                    let (bt, len) = char_at(s, p).ok_or(XmlError)?;
                    match bt {
                        Bt::NonXml => return Err(XmlError),
                        Bt::Quest => {
                            p += 1;
                            if byte_at(s, p).ok_or(XmlError)? == b'>' {
                                return Ok((is_xml_decl, p + 1));
                            }
                        }
                        _ => p += len,
                    }
                }
            }
            Bt::Quest => {
                if byte_at(s, p + 1) == Some(b'>') {
                    return Ok((is_xml_decl, p + 2));
                }
                return Err(XmlError);
            }
            _ => return Err(XmlError),
        }
    }
}

/// checkPiTarget: `xml` is the declaration, other casings of it are errors.
fn pi_target_kind(target: &str) -> Res<bool> {
    if target.len() == 3 && target.eq_ignore_ascii_case("xml") {
        if target == "xml" {
            return Ok(true);
        }
        return Err(XmlError);
    }
    Ok(false)
}

// ---------------------------------------------------------------------------------------------
// The XML declaration (xmltok.c doParseXmlDecl)
// ---------------------------------------------------------------------------------------------

fn is_decl_space(b: Option<u8>) -> bool {
    matches!(b, Some(b' ' | b'\t' | b'\r' | b'\n'))
}

/// One `name = "value"` of the declaration. `Ok(None)` at the end.
fn pseudo_attribute<'t>(decl: &'t str, pos: &mut usize) -> Res<Option<(&'t str, &'t str)>> {
    let bytes = decl.as_bytes();
    if *pos == bytes.len() {
        return Ok(None);
    }
    if !is_decl_space(bytes.get(*pos).copied()) {
        return Err(XmlError);
    }
    while is_decl_space(bytes.get(*pos).copied()) {
        *pos += 1;
    }
    if *pos == bytes.len() {
        return Ok(None);
    }
    let name_start = *pos;
    let name_end;
    loop {
        let b = *bytes.get(*pos).ok_or(XmlError)?;
        if b >= 0x80 {
            return Err(XmlError);
        }
        if b == b'=' {
            name_end = *pos;
            break;
        }
        if is_decl_space(Some(b)) {
            name_end = *pos;
            while is_decl_space(bytes.get(*pos).copied()) {
                *pos += 1;
            }
            if bytes.get(*pos) != Some(&b'=') {
                return Err(XmlError);
            }
            break;
        }
        *pos += 1;
    }
    if name_end == name_start {
        return Err(XmlError);
    }
    *pos += 1;
    while is_decl_space(bytes.get(*pos).copied()) {
        *pos += 1;
    }
    let open = *bytes.get(*pos).ok_or(XmlError)?;
    if open != b'"' && open != b'\'' {
        return Err(XmlError);
    }
    *pos += 1;
    let value_start = *pos;
    loop {
        let b = *bytes.get(*pos).ok_or(XmlError)?;
        if b == open {
            break;
        }
        if !(b.is_ascii_alphanumeric() || b == b'.' || b == b'-' || b == b'_') {
            return Err(XmlError);
        }
        *pos += 1;
    }
    let value = decl.get(value_start..*pos).ok_or(XmlError)?;
    *pos += 1;
    let name = decl.get(name_start..name_end).ok_or(XmlError)?;
    Ok(Some((name, value)))
}

/// Checks `<?xml ...?>` (whole token) and returns whether it says `standalone="yes"`.
/// The declared encoding is ignored: ElementTree feeds a str as UTF-8 with the encoding fixed.
fn parse_xml_decl(token: &str) -> Res<bool> {
    let inner = token
        .get(5..token.len().saturating_sub(2))
        .ok_or(XmlError)?;
    let mut pos = 0;
    let (name, _) = pseudo_attribute(inner, &mut pos)?.ok_or(XmlError)?;
    if name != "version" {
        return Err(XmlError);
    }
    let Some((mut name, mut value)) = pseudo_attribute(inner, &mut pos)? else {
        return Ok(false);
    };
    if name == "encoding" {
        if !value
            .as_bytes()
            .first()
            .is_some_and(|b| b.is_ascii_alphabetic())
        {
            return Err(XmlError);
        }
        match pseudo_attribute(inner, &mut pos)? {
            None => return Ok(false),
            Some(next) => (name, value) = next,
        }
    }
    if name != "standalone" {
        return Err(XmlError);
    }
    let standalone = match value {
        "yes" => true,
        "no" => false,
        _ => return Err(XmlError),
    };
    let bytes = inner.as_bytes();
    while is_decl_space(bytes.get(pos).copied()) {
        pos += 1;
    }
    if pos != bytes.len() {
        return Err(XmlError);
    }
    Ok(standalone)
}

// ---------------------------------------------------------------------------------------------
// Prolog tokens (prologTok) and the DTD grammar (xmlrole.c)
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PTok {
    S,
    XmlDecl,
    Pi,
    Comment,
    /// `<!NAME`; the range is the keyword.
    DeclOpen,
    InstanceStart,
    Literal,
    Name,
    PrefixedName,
    Nmtoken,
    /// `name?`, `name*`, `name+`.
    NameSuffixed,
    ParamEntityRef,
    Percent,
    PoundName,
    OpenParen,
    /// `)` followed by nothing (b')'), `*`, `?` or `+`.
    CloseParen(u8),
    OpenBracket,
    CloseBracket,
    CondSectOpen,
    CondSectClose,
    DeclClose,
    Comma,
    Or,
}

/// One prolog token starting at `pos`: kind and end. At the end of input expat would report
/// "no element found" in the prolog; in the epilog only whitespace may end the input, so every
/// unfinished token is an error here.
fn prolog_tok(s: &str, pos: usize) -> Res<(PTok, usize)> {
    let (bt, len) = char_at(s, pos).ok_or(XmlError)?;
    match bt {
        Bt::Quot | Bt::Apos => return scan_literal(s, pos + 1, bt),
        Bt::Lt => {
            let (next, _) = char_at(s, pos + 1).ok_or(XmlError)?;
            return match next {
                Bt::Excl => scan_decl(s, pos + 2),
                Bt::Quest => {
                    let (is_decl, end) = scan_pi(s, pos + 2)?;
                    Ok((if is_decl { PTok::XmlDecl } else { PTok::Pi }, end))
                }
                Bt::Nmstrt | Bt::Hex | Bt::WideNameStart | Bt::WideNameChar | Bt::WideOther => {
                    Ok((PTok::InstanceStart, pos))
                }
                _ => Err(XmlError),
            };
        }
        Bt::S | Bt::Cr | Bt::Lf => {
            let mut p = pos + 1;
            while matches!(byte_at(s, p), Some(b' ' | b'\t' | b'\r' | b'\n')) {
                p += 1;
            }
            return Ok((PTok::S, p));
        }
        Bt::Percnt => return scan_percent(s, pos + 1),
        Bt::Comma => return Ok((PTok::Comma, pos + 1)),
        Bt::Lsqb => return Ok((PTok::OpenBracket, pos + 1)),
        Bt::Rsqb => {
            let bytes = s.as_bytes();
            if bytes.get(pos + 1) == Some(&b']') && bytes.get(pos + 2) == Some(&b'>') {
                return Ok((PTok::CondSectClose, pos + 3));
            }
            if bytes.get(pos + 1).is_none() {
                return Err(XmlError);
            }
            return Ok((PTok::CloseBracket, pos + 1));
        }
        Bt::Lpar => return Ok((PTok::OpenParen, pos + 1)),
        Bt::Rpar => {
            let (next, _) = char_at(s, pos + 1).ok_or(XmlError)?;
            return match next {
                Bt::Ast => Ok((PTok::CloseParen(b'*'), pos + 2)),
                Bt::Quest => Ok((PTok::CloseParen(b'?'), pos + 2)),
                Bt::Plus => Ok((PTok::CloseParen(b'+'), pos + 2)),
                Bt::Cr | Bt::Lf | Bt::S | Bt::Gt | Bt::Comma | Bt::Verbar | Bt::Rpar => {
                    Ok((PTok::CloseParen(b')'), pos + 1))
                }
                _ => Err(XmlError),
            };
        }
        Bt::Verbar => return Ok((PTok::Or, pos + 1)),
        Bt::Gt => return Ok((PTok::DeclClose, pos + 1)),
        Bt::Num => return scan_pound_name(s, pos + 1),
        _ => {}
    }
    let mut tok = if is_nmstrt(bt) {
        PTok::Name
    } else if matches!(
        bt,
        Bt::Digit | Bt::Name | Bt::Minus | Bt::Colon | Bt::WideNameChar
    ) {
        PTok::Nmtoken
    } else {
        return Err(XmlError);
    };
    let mut p = pos + len;
    loop {
        let (bt, len) = char_at(s, p).ok_or(XmlError)?;
        if is_name_char(bt) {
            p += len;
            continue;
        }
        match bt {
            Bt::Gt
            | Bt::Rpar
            | Bt::Comma
            | Bt::Verbar
            | Bt::Lsqb
            | Bt::Percnt
            | Bt::S
            | Bt::Cr
            | Bt::Lf => return Ok((tok, p)),
            Bt::Colon => {
                p += 1;
                match tok {
                    PTok::Name => {
                        let (next, _) = char_at(s, p).ok_or(XmlError)?;
                        tok = if is_name_char(next) {
                            PTok::PrefixedName
                        } else {
                            PTok::Nmtoken
                        };
                    }
                    PTok::PrefixedName => tok = PTok::Nmtoken,
                    _ => {}
                }
            }
            Bt::Plus | Bt::Ast | Bt::Quest => {
                if tok == PTok::Nmtoken {
                    return Err(XmlError);
                }
                return Ok((PTok::NameSuffixed, p + 1));
            }
            _ => return Err(XmlError),
        }
    }
}

/// `"..."` or `'...'` in the prolog; what follows the closing quote must end a token.
fn scan_literal(s: &str, pos: usize, open: Bt) -> Res<(PTok, usize)> {
    let mut p = pos;
    loop {
        let (bt, len) = char_at(s, p).ok_or(XmlError)?;
        match bt {
            Bt::NonXml => return Err(XmlError),
            _ if bt == open => {
                p += 1;
                let (next, _) = char_at(s, p).ok_or(XmlError)?;
                return match next {
                    Bt::S | Bt::Cr | Bt::Lf | Bt::Gt | Bt::Percnt | Bt::Lsqb => {
                        Ok((PTok::Literal, p))
                    }
                    _ => Err(XmlError),
                };
            }
            _ => p += len,
        }
    }
}

/// `<!` followed by a keyword (`DOCTYPE`, `ENTITY`, ...), a comment, or `[`.
fn scan_decl(s: &str, pos: usize) -> Res<(PTok, usize)> {
    let (bt, _) = char_at(s, pos).ok_or(XmlError)?;
    match bt {
        Bt::Minus => return Ok((PTok::Comment, scan_comment(s, pos + 1)?)),
        Bt::Lsqb => return Ok((PTok::CondSectOpen, pos + 1)),
        Bt::Nmstrt | Bt::Hex => {}
        _ => return Err(XmlError),
    }
    let mut p = pos + 1;
    loop {
        let (bt, _) = char_at(s, p).ok_or(XmlError)?;
        match bt {
            Bt::Percnt => {
                // `<!ENTITY%` is only a token when a name follows the `%`.
                let (next, _) = char_at(s, p + 1).ok_or(XmlError)?;
                if matches!(next, Bt::S | Bt::Cr | Bt::Lf | Bt::Percnt) {
                    return Err(XmlError);
                }
                return Ok((PTok::DeclOpen, p));
            }
            Bt::S | Bt::Cr | Bt::Lf => return Ok((PTok::DeclOpen, p)),
            Bt::Nmstrt | Bt::Hex => p += 1,
            _ => return Err(XmlError),
        }
    }
}

/// `%name;` or a lone `%` (followed by space or `%`).
fn scan_percent(s: &str, pos: usize) -> Res<(PTok, usize)> {
    let (bt, len) = char_at(s, pos).ok_or(XmlError)?;
    if matches!(bt, Bt::S | Bt::Lf | Bt::Cr | Bt::Percnt) {
        return Ok((PTok::Percent, pos));
    }
    if !is_nmstrt(bt) {
        return Err(XmlError);
    }
    let mut p = pos + len;
    loop {
        let (bt, len) = char_at(s, p).ok_or(XmlError)?;
        if bt == Bt::Semi {
            return Ok((PTok::ParamEntityRef, p + 1));
        }
        if !is_name_char(bt) {
            return Err(XmlError);
        }
        p += len;
    }
}

/// `#NAME` (`#PCDATA`, `#IMPLIED`, ...).
fn scan_pound_name(s: &str, pos: usize) -> Res<(PTok, usize)> {
    let (bt, len) = char_at(s, pos).ok_or(XmlError)?;
    if !is_nmstrt(bt) {
        return Err(XmlError);
    }
    let mut p = pos + len;
    loop {
        let (bt, len) = char_at(s, p).ok_or(XmlError)?;
        if is_name_char(bt) {
            p += len;
            continue;
        }
        return match bt {
            Bt::Cr | Bt::Lf | Bt::S | Bt::Rpar | Bt::Gt | Bt::Percnt | Bt::Verbar => {
                Ok((PTok::PoundName, p))
            }
            _ => Err(XmlError),
        };
    }
}

/// isPublicId: the characters allowed in a public identifier literal (quotes excluded).
fn is_public_id(literal_body: &str) -> bool {
    literal_body
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b" -'()+,/=?\r\n;!*%#:.$@_".contains(&b))
}

// ---------------------------------------------------------------------------------------------
// DTD state
// ---------------------------------------------------------------------------------------------

enum EntityKind {
    /// Replacement text (character references already expanded, entity references kept).
    Internal(Rc<str>),
    /// SYSTEM/PUBLIC: never read; ElementTree reports a reference to it as undefined.
    External,
    /// Unparsed (NDATA): referencing it is an error.
    Unparsed,
}

/// One `<!ATTLIST>` attribute definition (first definition per element and name wins).
struct AttributeDefault {
    name: String,
    /// None for `#IMPLIED` / `#REQUIRED`.
    value: Option<String>,
    is_cdata: bool,
}

/// The prolog grammar states of xmlrole.c that this parser needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Prolog0,
    Prolog1,
    Prolog2,
    Doctype0,
    Doctype1,
    Doctype2,
    Doctype3,
    Doctype4,
    Doctype5,
    InternalSubset,
    Entity0,
    Entity1,
    Entity2,
    Entity3,
    Entity4,
    Entity5,
    Entity6,
    Entity7,
    Entity8,
    Entity9,
    Entity10,
    Notation0,
    Notation1,
    Notation2,
    Notation3,
    Notation4,
    Attlist0,
    Attlist1,
    Attlist2,
    Attlist3,
    Attlist4,
    Attlist5,
    Attlist6,
    Attlist7,
    Attlist8,
    Attlist9,
    Element0,
    Element1,
    Element2,
    Element3,
    Element4,
    Element5,
    Element6,
    Element7,
    DeclClose,
}

/// Where the text being tokenized comes from: the document or an entity's replacement text.
#[derive(Clone)]
enum Text<'a> {
    Document(&'a str),
    Entity(Rc<str>),
}

impl Text<'_> {
    fn as_str(&self) -> &str {
        match self {
            Text::Document(s) => s,
            Text::Entity(s) => s,
        }
    }
}

/// A content entity being expanded: its text, position, name, and the element depth at its
/// start (elements it opens must close inside it).
struct Frame<'a> {
    text: Text<'a>,
    pos: usize,
    entity: Option<String>,
    start_depth: usize,
}

/// An open element: where its raw qname starts in `Parser::open_names` (end tags must match it
/// byte for byte) and how many namespace bindings it pushed.
#[derive(Clone, Copy)]
struct OpenElement {
    name_start: usize,
    bindings: usize,
}

struct Parser<'a> {
    text: &'a str,
    standalone: bool,
    /// Set by a DOCTYPE external id or a parameter-entity reference: undefined entities in
    /// attribute values are then skipped instead of errors (unless standalone).
    has_param_entity_refs: bool,
    /// Cleared at a parameter-entity reference (not standalone): later declarations ignored.
    keep_processing: bool,
    entities: HashMap<String, EntityKind>,
    attribute_defaults: HashMap<String, Vec<AttributeDefault>>,
    /// Entities currently being expanded (recursion is an error).
    open_entities: HashSet<String>,
    /// In-scope namespace bindings: prefix ("" = default) to URI ("" = none).
    bindings: HashMap<String, String>,
    /// Undo log: prefix and its previous binding, popped when the element closes.
    binding_log: Vec<(String, Option<String>)>,
    elements: Vec<OpenElement>,
    /// The raw qnames of the open elements, one after the other: one buffer instead of a
    /// String per element.
    open_names: String,
    summary: Option<DocumentSummary>,
    child_index: HashMap<String, usize>,
    /// Index in `summary.children` of the last child tag counted: siblings usually repeat a tag.
    last_child: usize,
    /// Bytes produced by entity expansion, for the amplification limit.
    expanded_bytes: u64,
}

fn is_xmlns_name(name: &str) -> bool {
    match name.as_bytes().strip_prefix(b"xmlns") {
        Some(rest) => rest.is_empty() || rest.first() == Some(&b':'),
        None => false,
    }
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser {
            text,
            standalone: false,
            has_param_entity_refs: false,
            keep_processing: true,
            entities: HashMap::new(),
            attribute_defaults: HashMap::new(),
            open_entities: HashSet::new(),
            bindings: HashMap::new(),
            binding_log: Vec::new(),
            elements: Vec::new(),
            open_names: String::new(),
            summary: None,
            child_index: HashMap::new(),
            last_child: 0,
            expanded_bytes: 0,
        }
    }

    fn run(&mut self) -> Res<()> {
        let text = self.text;
        // A byte order mark (U+FEFF as the first char) is skipped.
        let mut pos = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
        pos = self.prolog(pos)?;
        pos = self.content(pos)?;
        self.epilog(pos)
    }

    /// Charges `bytes` of entity expansion; `direct` is how far the document has been read.
    fn account_expansion(&mut self, bytes: usize, direct: usize) -> Res<()> {
        self.expanded_bytes = self.expanded_bytes.saturating_add(bytes as u64);
        let direct = direct.max(1) as u64;
        let total = direct.saturating_add(self.expanded_bytes);
        if total >= AMPLIFICATION_ACTIVATION_BYTES
            && total as f64 / direct as f64 > AMPLIFICATION_MAX_FACTOR
        {
            return Err(XmlError);
        }
        Ok(())
    }

    // ---- prolog -----------------------------------------------------------------------------

    /// Runs the prolog up to the root's `<`; returns its position.
    fn prolog(&mut self, start: usize) -> Res<usize> {
        let s = self.text;
        let mut pos = start;
        let mut role = Role::Prolog0;
        // ATTLIST under construction: element, attribute name, whether CDATA.
        let mut attlist_element = String::new();
        let mut attlist_attribute = String::new();
        let mut attlist_cdata = true;
        // ENTITY under construction: name, whether a parameter entity.
        let mut entity_name = String::new();
        let mut entity_is_param = false;
        let mut element_depth = 0usize;
        // Per group depth: the connector seen (`,` or `|`); mixing them in a group is an error.
        let mut group_connectors: Vec<u8> = Vec::new();
        loop {
            let (tok, end) = prolog_tok(s, pos)?;
            let token = s.get(pos..end).ok_or(XmlError)?;
            if tok == PTok::S && role != Role::Prolog0 {
                pos = end;
                continue;
            }
            role = match (role, tok) {
                (Role::Prolog0, PTok::S) => Role::Prolog1,
                (Role::Prolog0, PTok::XmlDecl) => {
                    self.standalone = parse_xml_decl(token)?;
                    Role::Prolog1
                }
                (Role::Prolog0 | Role::Prolog1 | Role::Prolog2, PTok::Pi | PTok::Comment) => {
                    if role == Role::Prolog0 {
                        Role::Prolog1
                    } else {
                        role
                    }
                }
                (Role::Prolog0 | Role::Prolog1, PTok::DeclOpen) if token == "<!DOCTYPE" => {
                    Role::Doctype0
                }
                (Role::Prolog0 | Role::Prolog1 | Role::Prolog2, PTok::InstanceStart) => {
                    return Ok(pos);
                }
                (Role::Doctype0, PTok::Name | PTok::PrefixedName) => Role::Doctype1,
                (Role::Doctype1, PTok::OpenBracket) | (Role::Doctype4, PTok::OpenBracket) => {
                    Role::InternalSubset
                }
                (Role::Doctype1 | Role::Doctype4 | Role::Doctype5, PTok::DeclClose) => {
                    Role::Prolog2
                }
                (Role::Doctype1, PTok::Name) if token == "SYSTEM" => Role::Doctype3,
                (Role::Doctype1, PTok::Name) if token == "PUBLIC" => Role::Doctype2,
                (Role::Doctype2, PTok::Literal) => {
                    self.check_public_id(token)?;
                    Role::Doctype3
                }
                (Role::Doctype3, PTok::Literal) => {
                    // An external subset exists (never read).
                    self.has_param_entity_refs = true;
                    Role::Doctype4
                }
                (Role::InternalSubset, PTok::DeclOpen) => match token {
                    "<!ENTITY" => Role::Entity0,
                    "<!ATTLIST" => Role::Attlist0,
                    "<!ELEMENT" => Role::Element0,
                    "<!NOTATION" => Role::Notation0,
                    _ => return Err(XmlError),
                },
                (Role::InternalSubset, PTok::Pi | PTok::Comment) => Role::InternalSubset,
                (Role::InternalSubset, PTok::ParamEntityRef) => {
                    // Parameter entities are never expanded (ElementTree leaves parsing off).
                    self.has_param_entity_refs = true;
                    if !self.standalone {
                        self.keep_processing = false;
                    }
                    Role::InternalSubset
                }
                (Role::InternalSubset, PTok::CloseBracket) => Role::Doctype5,
                // <!ENTITY
                (Role::Entity0, PTok::Percent) => Role::Entity1,
                (Role::Entity0, PTok::Name) => {
                    entity_name = token.to_string();
                    entity_is_param = false;
                    Role::Entity2
                }
                (Role::Entity1, PTok::Name) => {
                    entity_name = token.to_string();
                    entity_is_param = true;
                    Role::Entity7
                }
                (Role::Entity2, PTok::Name) if token == "SYSTEM" => Role::Entity4,
                (Role::Entity2, PTok::Name) if token == "PUBLIC" => Role::Entity3,
                (Role::Entity2 | Role::Entity7, PTok::Literal) => {
                    if self.keep_processing {
                        let value = entity_value(token)?;
                        if !entity_is_param && !self.entities.contains_key(&entity_name) {
                            let kind = EntityKind::Internal(Rc::from(value));
                            self.entities.insert(entity_name.clone(), kind);
                        }
                    }
                    Role::Entity10
                }
                (Role::Entity3, PTok::Literal) => {
                    self.check_public_id(token)?;
                    Role::Entity4
                }
                (Role::Entity4, PTok::Literal) => {
                    if self.keep_processing && !self.entities.contains_key(&entity_name) {
                        self.entities
                            .insert(entity_name.clone(), EntityKind::External);
                    }
                    Role::Entity5
                }
                (Role::Entity5, PTok::DeclClose) => Role::InternalSubset,
                (Role::Entity5, PTok::Name) if token == "NDATA" => Role::Entity6,
                (Role::Entity6, PTok::Name) => {
                    if let Some(kind) = self.entities.get_mut(&entity_name) {
                        if matches!(kind, EntityKind::External) {
                            *kind = EntityKind::Unparsed;
                        }
                    }
                    Role::DeclClose
                }
                (Role::Entity7, PTok::Name) if token == "SYSTEM" => Role::Entity9,
                (Role::Entity7, PTok::Name) if token == "PUBLIC" => Role::Entity8,
                (Role::Entity8, PTok::Literal) => {
                    self.check_public_id(token)?;
                    Role::Entity9
                }
                (Role::Entity9, PTok::Literal) => Role::Entity10,
                (Role::Entity10 | Role::DeclClose, PTok::DeclClose) => Role::InternalSubset,
                // <!NOTATION
                (Role::Notation0, PTok::Name) => Role::Notation1,
                (Role::Notation1, PTok::Name) if token == "SYSTEM" => Role::Notation3,
                (Role::Notation1, PTok::Name) if token == "PUBLIC" => Role::Notation2,
                (Role::Notation2, PTok::Literal) => {
                    self.check_public_id(token)?;
                    Role::Notation4
                }
                (Role::Notation3 | Role::Notation4, PTok::Literal) => Role::DeclClose,
                (Role::Notation4, PTok::DeclClose) => Role::InternalSubset,
                // <!ATTLIST
                (Role::Attlist0, PTok::Name | PTok::PrefixedName) => {
                    attlist_element = token.to_string();
                    Role::Attlist1
                }
                (Role::Attlist1, PTok::DeclClose) => Role::InternalSubset,
                (Role::Attlist1, PTok::Name | PTok::PrefixedName) => {
                    attlist_attribute = token.to_string();
                    Role::Attlist2
                }
                (Role::Attlist2, PTok::Name) => match token {
                    "CDATA" => {
                        attlist_cdata = true;
                        Role::Attlist8
                    }
                    "ID" | "IDREF" | "IDREFS" | "ENTITY" | "ENTITIES" | "NMTOKEN" | "NMTOKENS" => {
                        attlist_cdata = false;
                        Role::Attlist8
                    }
                    "NOTATION" => {
                        attlist_cdata = false;
                        Role::Attlist5
                    }
                    _ => return Err(XmlError),
                },
                (Role::Attlist2, PTok::OpenParen) => {
                    attlist_cdata = false;
                    Role::Attlist3
                }
                (Role::Attlist3, PTok::Nmtoken | PTok::Name | PTok::PrefixedName) => Role::Attlist4,
                (Role::Attlist4, PTok::CloseParen(b')')) => Role::Attlist8,
                (Role::Attlist4, PTok::Or) => Role::Attlist3,
                (Role::Attlist5, PTok::OpenParen) => Role::Attlist6,
                (Role::Attlist6, PTok::Name) => Role::Attlist7,
                (Role::Attlist7, PTok::CloseParen(b')')) => Role::Attlist8,
                (Role::Attlist7, PTok::Or) => Role::Attlist6,
                (Role::Attlist8, PTok::PoundName) => match token {
                    "#IMPLIED" | "#REQUIRED" => {
                        self.define_attribute(
                            &attlist_element,
                            &attlist_attribute,
                            None,
                            attlist_cdata,
                        );
                        Role::Attlist1
                    }
                    "#FIXED" => Role::Attlist9,
                    _ => return Err(XmlError),
                },
                (Role::Attlist8 | Role::Attlist9, PTok::Literal) => {
                    if self.keep_processing {
                        let body = token
                            .get(1..token.len().saturating_sub(1))
                            .ok_or(XmlError)?;
                        let value =
                            self.attribute_value(Text::Document(body), attlist_cdata, end)?;
                        self.define_attribute(
                            &attlist_element,
                            &attlist_attribute,
                            Some(value),
                            attlist_cdata,
                        );
                    }
                    Role::Attlist1
                }
                // <!ELEMENT
                (Role::Element0, PTok::Name | PTok::PrefixedName) => Role::Element1,
                (Role::Element1, PTok::Name) if token == "EMPTY" || token == "ANY" => {
                    Role::DeclClose
                }
                (Role::Element1, PTok::OpenParen) => {
                    element_depth = 1;
                    group_connectors.clear();
                    group_connectors.resize(2, 0);
                    Role::Element2
                }
                (Role::Element2, PTok::PoundName) if token == "#PCDATA" => Role::Element3,
                (Role::Element2 | Role::Element6, PTok::OpenParen) => {
                    element_depth += 1;
                    group_connectors.resize(element_depth + 1, 0);
                    if let Some(connector) = group_connectors.get_mut(element_depth) {
                        *connector = 0;
                    }
                    Role::Element6
                }
                (
                    Role::Element2 | Role::Element6,
                    PTok::Name | PTok::PrefixedName | PTok::NameSuffixed,
                ) => Role::Element7,
                (Role::Element3, PTok::CloseParen(b')' | b'*')) => Role::DeclClose,
                (Role::Element3 | Role::Element5, PTok::Or) => Role::Element4,
                (Role::Element4, PTok::Name | PTok::PrefixedName) => Role::Element5,
                (Role::Element5, PTok::CloseParen(b'*')) => Role::DeclClose,
                (Role::Element7, PTok::CloseParen(_)) => {
                    element_depth = element_depth.saturating_sub(1);
                    if element_depth == 0 {
                        Role::DeclClose
                    } else {
                        Role::Element7
                    }
                }
                (Role::Element7, PTok::Comma | PTok::Or) => {
                    let connector = if tok == PTok::Comma { b',' } else { b'|' };
                    let slot = group_connectors.get_mut(element_depth).ok_or(XmlError)?;
                    if *slot != 0 && *slot != connector {
                        return Err(XmlError);
                    }
                    *slot = connector;
                    Role::Element6
                }
                _ => return Err(XmlError),
            };
            pos = end;
        }
    }

    fn check_public_id(&self, literal: &str) -> Res<()> {
        let body = literal
            .get(1..literal.len().saturating_sub(1))
            .ok_or(XmlError)?;
        if is_public_id(body) {
            Ok(())
        } else {
            Err(XmlError)
        }
    }

    /// defineAttribute: the first definition of an attribute for an element wins.
    fn define_attribute(&mut self, element: &str, name: &str, value: Option<String>, cdata: bool) {
        if !self.keep_processing {
            return;
        }
        let defaults = self
            .attribute_defaults
            .entry(element.to_string())
            .or_default();
        if defaults.iter().any(|d| d.name == name) {
            return;
        }
        defaults.push(AttributeDefault {
            name: name.to_string(),
            value,
            is_cdata: cdata,
        });
    }

    // ---- attribute values ------------------------------------------------------------------

    /// appendAttributeValue: expands references in an attribute value (without the quotes),
    /// normalising white space. `in_dtd` selects the rule for undefined entities in ATTLIST
    /// defaults; `direct` is the document position for the amplification check.
    fn attribute_value(&mut self, body: Text<'_>, cdata: bool, direct: usize) -> Res<String> {
        let mut out = String::new();
        // (text, resume position, entity opened for it)
        let mut stack: Vec<(Text<'_>, usize, Option<String>)> = vec![(body, 0, None)];
        let result = self.expand_attribute_value(&mut stack, &mut out, cdata, direct);
        // Close whatever entities an error left open.
        for (_, _, name) in stack {
            if let Some(name) = name {
                self.open_entities.remove(&name);
            }
        }
        result?;
        if !cdata && out.ends_with(' ') {
            out.pop();
        }
        Ok(out)
    }

    fn expand_attribute_value<'t>(
        &mut self,
        stack: &mut Vec<(Text<'t>, usize, Option<String>)>,
        out: &mut String,
        cdata: bool,
        direct: usize,
    ) -> Res<()> {
        // Undefined entities are errors unless an external subset or a parameter-entity
        // reference may have declared them (and the document is not standalone).
        let check_declared = !self.has_param_entity_refs || self.standalone;
        'frames: while let Some(top) = stack.last() {
            let source = top.0.clone();
            let s = source.as_str();
            let bytes = s.as_bytes();
            let mut p = top.1;
            loop {
                let Some(&b) = bytes.get(p) else {
                    if let Some((_, _, Some(name))) = stack.pop() {
                        self.open_entities.remove(&name);
                    }
                    continue 'frames;
                };
                match b {
                    // Only reachable inside entity text: the tokenizer rejects `<` in values.
                    b'<' => return Err(XmlError),
                    b'&' => {
                        let (reference, next) = scan_ref(s, p + 1)?;
                        p = next;
                        let name = match reference {
                            Reference::Char(code) => {
                                let c = char::from_u32(code).ok_or(XmlError)?;
                                if !cdata && c == ' ' && (out.is_empty() || out.ends_with(' ')) {
                                    continue;
                                }
                                out.push(c);
                                continue;
                            }
                            Reference::Entity(start, stop) => s.get(start..stop).ok_or(XmlError)?,
                        };
                        if let Some(c) = predefined_entity(name) {
                            out.push(c);
                            continue;
                        }
                        let replacement = match self.entities.get(name) {
                            None if check_declared => return Err(XmlError),
                            None => continue,
                            Some(EntityKind::Internal(text)) => text.clone(),
                            Some(_) => return Err(XmlError),
                        };
                        if self.open_entities.contains(name) {
                            return Err(XmlError);
                        }
                        self.account_expansion(replacement.len(), direct)?;
                        let name = name.to_string();
                        self.open_entities.insert(name.clone());
                        if let Some(top) = stack.last_mut() {
                            top.1 = p;
                        }
                        stack.push((Text::Entity(replacement), 0, Some(name)));
                        continue 'frames;
                    }
                    b'\t' | b'\n' | b'\r' | b' ' => {
                        // A CR LF pair is one line break.
                        if b == b'\r' && bytes.get(p + 1) == Some(&b'\n') {
                            p += 1;
                        }
                        p += 1;
                        if !cdata && (out.is_empty() || out.ends_with(' ')) {
                            continue;
                        }
                        out.push(' ');
                    }
                    _ => {
                        let len = utf8_len(b);
                        out.push_str(s.get(p..p + len).ok_or(XmlError)?);
                        p += len;
                    }
                }
            }
        }
        Ok(())
    }
}

fn predefined_entity(name: &str) -> Option<char> {
    match name {
        "lt" => Some('<'),
        "gt" => Some('>'),
        "amp" => Some('&'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        _ => None,
    }
}

/// storeEntityValue for a literal in the internal subset: character references are replaced,
/// entity references kept, and any `%` is an error (parameter-entity references are not
/// allowed in internal-subset entity values).
fn entity_value(literal: &str) -> Res<String> {
    let body = literal
        .get(1..literal.len().saturating_sub(1))
        .ok_or(XmlError)?;
    let mut out = String::with_capacity(body.len());
    let mut p = 0;
    let bytes = body.as_bytes();
    while let Some(&b) = bytes.get(p) {
        match b {
            b'%' => return Err(XmlError),
            b'&' => {
                let (reference, next) = scan_ref(body, p + 1)?;
                match reference {
                    Reference::Char(code) => out.push(char::from_u32(code).ok_or(XmlError)?),
                    Reference::Entity(..) => out.push_str(body.get(p..next).ok_or(XmlError)?),
                }
                p = next;
            }
            b'\r' => {
                // Line breaks are normalised to LF when stored.
                out.push('\n');
                p += if bytes.get(p + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
            }
            _ => {
                let len = utf8_len(b);
                out.push_str(body.get(p..p + len).ok_or(XmlError)?);
                p += len;
            }
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Content (doContent / storeAtts)
// ---------------------------------------------------------------------------------------------

/// A byte range of the text being parsed.
type Span = (usize, usize);
/// An attribute as tokenized: raw name and raw value (without quotes).
#[derive(Clone, Copy)]
struct RawAttribute {
    name: Span,
    value: Span,
    /// Whether the value holds a reference (`&`), which must then resolve.
    has_reference: bool,
    /// Whether the name has a prefix (a colon).
    prefixed: bool,
}

/// A start tag as tokenized: raw qname and raw attribute (name, value without quotes) ranges.
struct StartTag<'b> {
    name: Span,
    /// Whether the name has a prefix (a colon).
    prefixed: bool,
    /// In the caller's buffer, reused from tag to tag.
    attributes: &'b [RawAttribute],
    empty: bool,
    end: usize,
}

/// Scans a qname in a start tag or attribute: name chars with at most one colon, which must be
/// followed by a name-start char (expat's namespace-mode tokenizer). `pos` is past the first
/// char. Returns the end, the char type found there and whether the name has a colon.
#[inline(always)]
fn scan_qname_rest(s: &str, mut pos: usize) -> Res<(usize, Bt, bool)> {
    let mut had_colon = false;
    loop {
        // Names are mostly ASCII: their chars skip the general classification.
        pos = skip_ascii_name_chars(s.as_bytes(), pos);
        let (bt, len) = char_at(s, pos).ok_or(XmlError)?;
        if is_name_char(bt) {
            pos += len;
        } else if bt == Bt::Colon {
            if had_colon {
                return Err(XmlError);
            }
            had_colon = true;
            let (next, next_len) = char_at(s, pos + 1).ok_or(XmlError)?;
            if !is_nmstrt(next) {
                return Err(XmlError);
            }
            pos += 1 + next_len;
        } else {
            return Ok((pos, bt, had_colon));
        }
    }
}

/// Whether an ASCII byte is a name char (letters, digits, `.`, `-`, `_`; the colon is not).
fn is_ascii_name_byte(byte: u8) -> bool {
    ASCII_NAME_BYTES[usize::from(byte)]
}

/// The position after the ASCII name chars from `pos`.
fn skip_ascii_name_chars(bytes: &[u8], mut pos: usize) -> usize {
    while bytes.get(pos).is_some_and(|&byte| is_ascii_name_byte(byte)) {
        pos += 1;
    }
    pos
}

/// An attribute value after its opening quote `open`: returns the position of the closing
/// quote and whether the value holds a reference. `<` and chars XML forbids are errors; references must be well formed. Byte by byte:
/// UTF-8 continuation bytes are never special, and of the non-ASCII chars only U+FFFE and
/// U+FFFF (EF BF BE / EF BF BF) are forbidden.
fn scan_attribute_value(s: &str, mut pos: usize, open: u8) -> Res<(usize, bool)> {
    let bytes = s.as_bytes();
    let mut has_reference = false;
    loop {
        while bytes
            .get(pos)
            .is_some_and(|&byte| PLAIN_ATTRIBUTE_BYTES[usize::from(byte)])
        {
            pos += 1;
        }
        let byte = *bytes.get(pos).ok_or(XmlError)?;
        match byte {
            _ if byte == open => return Ok((pos, has_reference)),
            b'<' => return Err(XmlError),
            b'&' => {
                has_reference = true;
                pos = scan_ref(s, pos + 1)?.1;
            }
            b'\t' | b'\n' | b'\r' => pos += 1,
            0..=0x1F => return Err(XmlError),
            0xEF if bytes.get(pos + 1) == Some(&0xBF)
                && matches!(bytes.get(pos + 2), Some(0xBE | 0xBF)) =>
            {
                return Err(XmlError)
            }
            _ => pos += 1,
        }
    }
}

fn skip_spaces(s: &str, mut pos: usize) -> usize {
    while matches!(byte_at(s, pos), Some(b' ' | b'\t' | b'\r' | b'\n')) {
        pos += 1;
    }
    pos
}

/// scanLt + scanAtts for a start tag; `pos` is just after `<` at a name-start char.
fn scan_start_tag<'b>(
    s: &str,
    pos: usize,
    attributes: &'b mut Vec<RawAttribute>,
) -> Res<StartTag<'b>> {
    attributes.clear();
    let (_, first_len) = char_at(s, pos).ok_or(XmlError)?;
    let (name_end, mut bt, prefixed) = scan_qname_rest(s, pos + first_len)?;
    let mut p = name_end;
    loop {
        match bt {
            Bt::Gt => {
                return Ok(StartTag {
                    name: (pos, name_end),
                    prefixed,
                    attributes,
                    empty: false,
                    end: p + 1,
                })
            }
            Bt::Sol => {
                if byte_at(s, p + 1) != Some(b'>') {
                    return Err(XmlError);
                }
                return Ok(StartTag {
                    name: (pos, name_end),
                    prefixed,
                    attributes,
                    empty: true,
                    end: p + 2,
                });
            }
            Bt::S | Bt::Cr | Bt::Lf => {
                p = skip_spaces(s, p);
                let (next, len) = char_at(s, p).ok_or(XmlError)?;
                if matches!(next, Bt::Gt | Bt::Sol) {
                    bt = next;
                    continue;
                }
                if !is_nmstrt(next) {
                    return Err(XmlError);
                }
                let attr_start = p;
                let (attr_end, mut after, prefixed) = scan_qname_rest(s, p + len)?;
                p = attr_end;
                if is_space_bt(after) {
                    p = skip_spaces(s, p);
                    after = char_at(s, p).ok_or(XmlError)?.0;
                }
                if after != Bt::Equals {
                    return Err(XmlError);
                }
                p = skip_spaces(s, p + 1);
                let open = byte_at(s, p).ok_or(XmlError)?;
                if open != b'"' && open != b'\'' {
                    return Err(XmlError);
                }
                p += 1;
                let value_start = p;
                let (value_end, has_reference) = scan_attribute_value(s, p, open)?;
                p = value_end;
                attributes.push(RawAttribute {
                    name: (attr_start, attr_end),
                    value: (value_start, value_end),
                    has_reference,
                    prefixed,
                });
                p += 1;
                bt = char_at(s, p).ok_or(XmlError)?.0;
                // After a value only white space, `/` or `>` may follow.
                if !matches!(bt, Bt::S | Bt::Cr | Bt::Lf | Bt::Sol | Bt::Gt) {
                    return Err(XmlError);
                }
            }
            _ => return Err(XmlError),
        }
    }
}

/// `</name S? >` after `</`: the name is not checked as a qname (it must match the start tag).
fn scan_end_tag(s: &str, pos: usize) -> Res<((usize, usize), usize)> {
    let (bt, len) = char_at(s, pos).ok_or(XmlError)?;
    if !is_nmstrt(bt) {
        return Err(XmlError);
    }
    let mut p = pos + len;
    loop {
        p = skip_ascii_name_chars(s.as_bytes(), p);
        let (bt, len) = char_at(s, p).ok_or(XmlError)?;
        if is_name_char(bt) || bt == Bt::Colon {
            p += len;
            continue;
        }
        let name_end = p;
        p = skip_spaces(s, p);
        if byte_at(s, p) != Some(b'>') {
            return Err(XmlError);
        }
        return Ok(((pos, name_end), p + 1));
    }
}

/// `<![CDATA[ ... ]]>` after `<![`; returns the position after `]]>`.
fn scan_cdata(s: &str, pos: usize) -> Res<usize> {
    let rest = s.get(pos..).ok_or(XmlError)?;
    if !rest.starts_with("CDATA[") {
        return Err(XmlError);
    }
    let mut p = pos + 6;
    loop {
        let (bt, len) = char_at(s, p).ok_or(XmlError)?;
        match bt {
            Bt::NonXml => return Err(XmlError),
            Bt::Rsqb if s.get(p..).is_some_and(|r| r.starts_with("]]>")) => return Ok(p + 3),
            _ => p += len,
        }
    }
}

/// Start tags with at most this many attributes check names pairwise instead of hashing them.
const FEW_ATTRIBUTES: usize = 8;

/// The attribute names a start tag gives, checked to be distinct (a repeated name is an error).
/// A handful are compared pairwise; more go in a hash set, so many attributes stay linear.
struct SpecifiedNames<'t> {
    text: &'t str,
    attributes: &'t [RawAttribute],
    many: Option<HashSet<&'t str>>,
}

impl<'t> SpecifiedNames<'t> {
    fn new(text: &'t str, attributes: &'t [RawAttribute]) -> Res<Self> {
        let name = |attribute: &RawAttribute| {
            let (start, end) = attribute.name;
            text.get(start..end).ok_or(XmlError)
        };
        let mut many = None;
        if attributes.len() <= FEW_ATTRIBUTES {
            for (index, attribute) in attributes.iter().enumerate() {
                let this = name(attribute)?;
                for earlier in attributes.iter().take(index) {
                    if name(earlier)? == this {
                        return Err(XmlError);
                    }
                }
            }
        } else {
            let mut seen = HashSet::with_capacity(attributes.len());
            for attribute in attributes {
                if !seen.insert(name(attribute)?) {
                    return Err(XmlError);
                }
            }
            many = Some(seen);
        }
        Ok(SpecifiedNames {
            text,
            attributes,
            many,
        })
    }

    fn contains(&self, name: &str) -> bool {
        match &self.many {
            Some(seen) => seen.contains(name),
            None => self
                .attributes
                .iter()
                .any(|attribute| self.text.get(attribute.name.0..attribute.name.1) == Some(name)),
        }
    }
}

/// Splits a qname at its colon: (prefix, local). Tokenizing guarantees at most one colon.
fn split_qname(name: &str) -> (Option<&str>, &str) {
    // Names are short: a plain loop beats the general substring search.
    let colon = name.bytes().position(|byte| byte == b':');
    match colon.and_then(|at| Some(name.get(..at)?).zip(name.get(at + 1..))) {
        Some((prefix, local)) => (Some(prefix), local),
        None => (None, name),
    }
}

impl<'a> Parser<'a> {
    /// Parses from the root's `<` until the root closes; returns the position after it.
    fn content(&mut self, start: usize) -> Res<usize> {
        let mut frames: Vec<Frame<'a>> = vec![Frame {
            text: Text::Document(self.text),
            pos: start,
            entity: None,
            start_depth: 0,
        }];
        let mut attribute_buffer = Vec::new();
        loop {
            let frame_index = frames.len().saturating_sub(1);
            let Some(frame) = frames.last() else {
                return Err(XmlError);
            };
            let source = frame.text.clone();
            let start_depth = frame.start_depth;
            let s = source.as_str();
            let bytes = s.as_bytes();
            let mut p = frame.pos;
            // Document position for the amplification ratio.
            let direct = |frames: &Vec<Frame<'a>>, p: usize| {
                if frame_index == 0 {
                    p
                } else {
                    frames.first().map_or(p, |f| f.pos)
                }
            };
            loop {
                while bytes
                    .get(p)
                    .is_some_and(|&byte| PLAIN_CONTENT_BYTES[usize::from(byte)])
                {
                    p += 1;
                }
                let Some(&b) = bytes.get(p) else {
                    if frame_index == 0 {
                        // The document ended inside the root element.
                        return Err(XmlError);
                    }
                    // An entity must close exactly the elements it opened.
                    if self.elements.len() != start_depth {
                        return Err(XmlError);
                    }
                    if let Some(Frame {
                        entity: Some(name), ..
                    }) = frames.pop()
                    {
                        self.open_entities.remove(&name);
                    }
                    break;
                };
                match b {
                    b'<' => {
                        let (bt, _) = char_at(s, p + 1).ok_or(XmlError)?;
                        match bt {
                            Bt::Excl => match byte_at(s, p + 2) {
                                Some(b'-') => p = scan_comment(s, p + 3)?,
                                Some(b'[') => p = scan_cdata(s, p + 3)?,
                                _ => return Err(XmlError),
                            },
                            Bt::Quest => {
                                let (is_decl, end) = scan_pi(s, p + 2)?;
                                if is_decl {
                                    return Err(XmlError);
                                }
                                p = end;
                            }
                            Bt::Sol => {
                                if self.elements.len() <= start_depth {
                                    return Err(XmlError);
                                }
                                let Some(&open) = self.elements.last() else {
                                    return Err(XmlError);
                                };
                                let open_name =
                                    self.open_names.get(open.name_start..).ok_or(XmlError)?;
                                let name_start = p + 2;
                                let name_end = name_start + open_name.len();
                                // `</name>` spelled as its start tag, whose name was checked
                                // there, needs no scan.
                                let end = if bytes.get(name_start..name_end)
                                    == Some(open_name.as_bytes())
                                    && bytes.get(name_end) == Some(&b'>')
                                {
                                    name_end + 1
                                } else {
                                    let ((start, stop), end) = scan_end_tag(s, name_start)?;
                                    if s.get(start..stop) != Some(open_name) {
                                        return Err(XmlError);
                                    }
                                    end
                                };
                                self.elements.pop();
                                self.open_names.truncate(open.name_start);
                                self.pop_bindings(open.bindings);
                                p = end;
                                if self.elements.is_empty() {
                                    return Ok(p);
                                }
                            }
                            _ if is_nmstrt(bt) => {
                                let tag = scan_start_tag(s, p + 1, &mut attribute_buffer)?;
                                p = tag.end;
                                let at = direct(&frames, p);
                                self.start_element(s, &tag, at)?;
                                if tag.empty && self.elements.is_empty() {
                                    return Ok(p);
                                }
                            }
                            _ => return Err(XmlError),
                        }
                    }
                    b'&' => {
                        let (reference, end) = scan_ref(s, p + 1)?;
                        p = end;
                        let Reference::Entity(name_start, name_end) = reference else {
                            continue;
                        };
                        let name = s.get(name_start..name_end).ok_or(XmlError)?;
                        if predefined_entity(name).is_some() {
                            continue;
                        }
                        // Undefined, external and unparsed entities all fail: ElementTree
                        // reports expat's skipped references as undefined.
                        let Some(EntityKind::Internal(replacement)) = self.entities.get(name)
                        else {
                            return Err(XmlError);
                        };
                        let replacement = replacement.clone();
                        if self.open_entities.contains(name) {
                            return Err(XmlError);
                        }
                        let at = direct(&frames, p);
                        self.account_expansion(replacement.len(), at)?;
                        self.open_entities.insert(name.to_string());
                        let name = name.to_string();
                        if let Some(frame) = frames.last_mut() {
                            frame.pos = p;
                        }
                        frames.push(Frame {
                            text: Text::Entity(replacement),
                            pos: 0,
                            entity: Some(name),
                            start_depth: self.elements.len(),
                        });
                        break;
                    }
                    b']' => {
                        if bytes.get(p + 1) == Some(&b']') && bytes.get(p + 2) == Some(&b'>') {
                            return Err(XmlError);
                        }
                        p += 1;
                    }
                    b'\t' | b'\n' | b'\r' => p += 1,
                    0..=0x1F => return Err(XmlError),
                    0xEF => {
                        // U+FFFE and U+FFFF (EF BF BE / EF BF BF) are not XML characters.
                        if bytes.get(p + 1) == Some(&0xBF)
                            && matches!(bytes.get(p + 2), Some(0xBE | 0xBF))
                        {
                            return Err(XmlError);
                        }
                        p += 3;
                    }
                    _ => p += 1,
                }
            }
        }
    }

    /// Undoes the last `count` bindings; inlined for the usual element, which pushed none.
    #[inline(always)]
    fn pop_bindings(&mut self, count: usize) {
        if count > 0 {
            self.undo_bindings(count);
        }
    }

    fn undo_bindings(&mut self, count: usize) {
        for _ in 0..count {
            if let Some((prefix, previous)) = self.binding_log.pop() {
                match previous {
                    Some(uri) => self.bindings.insert(prefix, uri),
                    None => self.bindings.remove(&prefix),
                };
            }
        }
    }

    /// addBinding's checks, then binds `prefix` ("" = default namespace) to `uri`.
    fn add_binding(&mut self, prefix: &str, uri: &str) -> Res<()> {
        if uri.is_empty() && !prefix.is_empty() {
            return Err(XmlError);
        }
        if prefix == "xmlns" {
            return Err(XmlError);
        }
        let must_be_xml = prefix == "xml";
        let is_xml = uri == XML_NAMESPACE;
        // ElementTree's separator `}` is not a URI character, so URIs holding it are refused.
        if must_be_xml != is_xml || uri == XMLNS_NAMESPACE || uri.contains('}') {
            return Err(XmlError);
        }
        let previous = self.bindings.insert(prefix.to_string(), uri.to_string());
        self.binding_log.push((prefix.to_string(), previous));
        Ok(())
    }

    fn namespace_of(&self, prefix: &str) -> Option<&str> {
        if prefix == "xml" {
            return Some(XML_NAMESPACE);
        }
        self.bindings.get(prefix).map(String::as_str)
    }

    /// storeAtts: attribute values, defaults, namespace bindings, expanded names; records the
    /// root and its children for the summary. Runs for every start tag, so the usual case (no
    /// declared defaults, no namespaces, a few attributes) allocates nothing.
    fn start_element(&mut self, s: &str, tag: &StartTag, direct: usize) -> Res<()> {
        let raw_name = s.get(tag.name.0..tag.name.1).ok_or(XmlError)?;
        let attribute_name = |attribute: &RawAttribute| {
            let (start, end) = attribute.name;
            s.get(start..end).ok_or(XmlError)
        };
        let specified = SpecifiedNames::new(s, tag.attributes)?;
        // The usual tag: no declared defaults (so every attribute is CDATA) and no namespace
        // declarations, so no binding changes and nothing to collect.
        if self.attribute_defaults.is_empty()
            && !tag
                .attributes
                .iter()
                .any(|attribute| attribute_name(attribute).map_or(true, is_xmlns_name))
        {
            for attribute in tag.attributes.iter().filter(|a| a.has_reference) {
                let (value_start, value_end) = attribute.value;
                let raw_value = s.get(value_start..value_end).ok_or(XmlError)?;
                self.attribute_value(Text::Document(raw_value), true, direct)?;
            }
            let prefixed = tag.attributes.iter().filter(|a| a.prefixed);
            self.check_attribute_prefixes(prefixed.filter_map(|a| attribute_name(a).ok()))?;
            return self.record_element(raw_name, tag, tag.attributes.len(), 0);
        }
        // Declared defaults of this element: (name, value, is CDATA), cloned so attribute
        // values can be expanded (which needs `&mut self`) while they are consulted.
        let defaults: Vec<(String, Option<String>, bool)> = if self.attribute_defaults.is_empty() {
            Vec::new()
        } else {
            self.attribute_defaults
                .get(raw_name)
                .map(|list| {
                    list.iter()
                        .map(|d| (d.name.clone(), d.value.clone(), d.is_cdata))
                        .collect()
                })
                .unwrap_or_default()
        };
        // (raw name, value) of namespace declarations, specified first, then defaults.
        let mut declarations: Vec<(&str, String)> = Vec::new();
        let mut plain_count = 0usize;
        for attribute in tag.attributes {
            let name = attribute_name(attribute)?;
            let (value_start, value_end) = attribute.value;
            let cdata = defaults.iter().find(|d| d.0 == name).is_none_or(|d| d.2);
            let raw_value = s.get(value_start..value_end).ok_or(XmlError)?;
            if is_xmlns_name(name) {
                let value = self.attribute_value(Text::Document(raw_value), cdata, direct)?;
                declarations.push((name, value));
            } else {
                // The value is only needed for the references it may hold (they must resolve).
                if attribute.has_reference {
                    self.attribute_value(Text::Document(raw_value), cdata, direct)?;
                }
                plain_count += 1;
            }
        }
        // Defaults of attributes the tag does not give.
        let added_defaults = || {
            defaults.iter().filter_map(|(name, value, _)| {
                let value = value.as_ref()?;
                (!specified.contains(name)).then_some((name.as_str(), value))
            })
        };
        for (name, value) in added_defaults() {
            if is_xmlns_name(name) {
                declarations.push((name, value.clone()));
            } else {
                plain_count += 1;
            }
        }
        let mut pushed = 0;
        let mut result = Ok(());
        for (name, uri) in &declarations {
            let prefix = name.strip_prefix("xmlns:").unwrap_or("");
            result = self.add_binding(prefix, uri);
            if result.is_err() {
                break;
            }
            pushed += 1;
        }
        let plain_names = tag
            .attributes
            .iter()
            .filter_map(|attribute| attribute_name(attribute).ok())
            .chain(added_defaults().map(|(name, _)| name))
            .filter(|name| !is_xmlns_name(name));
        let recorded = result
            .and_then(|()| self.check_attribute_prefixes(plain_names))
            .and_then(|()| self.record_element(raw_name, tag, plain_count, pushed));
        if recorded.is_err() {
            self.pop_bindings(pushed);
        }
        recorded
    }

    /// A start tag whose attributes passed every check: its own prefix must be bound; the
    /// root or a child of it goes in the summary (only they need the ElementTree tag); the
    /// element opens (or, empty, closes at once, dropping the `bindings` it pushed).
    fn record_element(
        &mut self,
        raw_name: &str,
        tag: &StartTag<'_>,
        attributes: usize,
        bindings: usize,
    ) -> Res<()> {
        match self.elements.len() {
            0 => {
                let tag_name = self.element_tag(raw_name)?;
                self.summary = Some(DocumentSummary {
                    root_tag: tag_name.into_owned(),
                    root_attributes: attributes,
                    children: Vec::new(),
                });
            }
            1 => {
                let tag_name = self.element_tag(raw_name)?;
                self.count_child(&tag_name);
            }
            _ if tag.prefixed => {
                if let (Some(prefix), _) = split_qname(raw_name) {
                    self.namespace_of(prefix).ok_or(XmlError)?;
                }
            }
            _ => {}
        }
        if tag.empty {
            self.pop_bindings(bindings);
        } else {
            self.elements.push(OpenElement {
                name_start: self.open_names.len(),
                bindings,
            });
            self.open_names.push_str(raw_name);
        }
        Ok(())
    }

    /// One more direct child of the root with this tag.
    fn count_child(&mut self, tag_name: &str) {
        let Some(summary) = self.summary.as_mut() else {
            return;
        };
        let index = match summary.children.get(self.last_child) {
            Some((last, _)) if last == tag_name => Some(self.last_child),
            _ => self.child_index.get(tag_name).copied(),
        };
        match index.and_then(|i| Some(i).zip(summary.children.get_mut(i))) {
            Some((i, entry)) => {
                entry.1 += 1;
                self.last_child = i;
            }
            None => {
                self.last_child = summary.children.len();
                self.child_index
                    .insert(tag_name.to_string(), self.last_child);
                summary.children.push((tag_name.to_string(), 1));
            }
        }
    }

    /// Every prefixed attribute's prefix is bound, and no two attributes share an expanded name.
    fn check_attribute_prefixes<'n>(&self, names: impl Iterator<Item = &'n str>) -> Res<()> {
        // Created at the first prefixed name: most tags have none.
        let mut expanded: Option<HashSet<(&str, &str)>> = None;
        for name in names {
            if let (Some(prefix), local) = split_qname(name) {
                let uri = self.namespace_of(prefix).ok_or(XmlError)?;
                if !expanded.get_or_insert_default().insert((uri, local)) {
                    return Err(XmlError);
                }
            }
        }
        Ok(())
    }

    /// The element's ElementTree tag (`{uri}local` when namespaced), after checking its prefix
    /// is bound.
    fn element_tag<'n>(&self, raw_name: &'n str) -> Res<Cow<'n, str>> {
        let (prefix, local) = split_qname(raw_name);
        let uri = match prefix {
            Some(prefix) => self.namespace_of(prefix).ok_or(XmlError)?,
            None if self.bindings.is_empty() => "",
            None => self.namespace_of("").unwrap_or(""),
        };
        if uri.is_empty() {
            Ok(Cow::Borrowed(local))
        } else {
            Ok(Cow::Owned(format!("{{{uri}}}{local}")))
        }
    }

    /// After the root: only white space, comments and processing instructions.
    fn epilog(&mut self, start: usize) -> Res<()> {
        let s = self.text;
        let mut pos = start;
        while pos < s.len() {
            let (tok, end) = prolog_tok(s, pos)?;
            if !matches!(tok, PTok::S | PTok::Pi | PTok::Comment) {
                return Err(XmlError);
            }
            pos = end;
        }
        Ok(())
    }
}
// Generated by tools/nametab.py from pyexpat (expat 2.5.0): non-ASCII BMP ranges.
const NAME_START_RANGES: &[(u32, u32)] = &[
    (0x00C0, 0x00D6),
    (0x00D8, 0x00F6),
    (0x00F8, 0x0131),
    (0x0134, 0x013E),
    (0x0141, 0x0148),
    (0x014A, 0x017E),
    (0x0180, 0x01C3),
    (0x01CD, 0x01F0),
    (0x01F4, 0x01F5),
    (0x01FA, 0x0217),
    (0x0250, 0x02A8),
    (0x02BB, 0x02C1),
    (0x0386, 0x0386),
    (0x0388, 0x038A),
    (0x038C, 0x038C),
    (0x038E, 0x03A1),
    (0x03A3, 0x03CE),
    (0x03D0, 0x03D6),
    (0x03DA, 0x03DA),
    (0x03DC, 0x03DC),
    (0x03DE, 0x03DE),
    (0x03E0, 0x03E0),
    (0x03E2, 0x03F3),
    (0x0401, 0x040C),
    (0x040E, 0x044F),
    (0x0451, 0x045C),
    (0x045E, 0x0481),
    (0x0490, 0x04C4),
    (0x04C7, 0x04C8),
    (0x04CB, 0x04CC),
    (0x04D0, 0x04EB),
    (0x04EE, 0x04F5),
    (0x04F8, 0x04F9),
    (0x0531, 0x0556),
    (0x0559, 0x0559),
    (0x0561, 0x0586),
    (0x05D0, 0x05EA),
    (0x05F0, 0x05F2),
    (0x0621, 0x063A),
    (0x0641, 0x064A),
    (0x0671, 0x06B7),
    (0x06BA, 0x06BE),
    (0x06C0, 0x06CE),
    (0x06D0, 0x06D3),
    (0x06D5, 0x06D5),
    (0x06E5, 0x06E6),
    (0x0905, 0x0939),
    (0x093D, 0x093D),
    (0x0958, 0x0961),
    (0x0985, 0x098C),
    (0x098F, 0x0990),
    (0x0993, 0x09A8),
    (0x09AA, 0x09B0),
    (0x09B2, 0x09B2),
    (0x09B6, 0x09B9),
    (0x09DC, 0x09DD),
    (0x09DF, 0x09E1),
    (0x09F0, 0x09F1),
    (0x0A05, 0x0A0A),
    (0x0A0F, 0x0A10),
    (0x0A13, 0x0A28),
    (0x0A2A, 0x0A30),
    (0x0A32, 0x0A33),
    (0x0A35, 0x0A36),
    (0x0A38, 0x0A39),
    (0x0A59, 0x0A5C),
    (0x0A5E, 0x0A5E),
    (0x0A72, 0x0A74),
    (0x0A85, 0x0A8B),
    (0x0A8D, 0x0A8D),
    (0x0A8F, 0x0A91),
    (0x0A93, 0x0AA8),
    (0x0AAA, 0x0AB0),
    (0x0AB2, 0x0AB3),
    (0x0AB5, 0x0AB9),
    (0x0ABD, 0x0ABD),
    (0x0AE0, 0x0AE0),
    (0x0B05, 0x0B0C),
    (0x0B0F, 0x0B10),
    (0x0B13, 0x0B28),
    (0x0B2A, 0x0B30),
    (0x0B32, 0x0B33),
    (0x0B36, 0x0B39),
    (0x0B3D, 0x0B3D),
    (0x0B5C, 0x0B5D),
    (0x0B5F, 0x0B61),
    (0x0B85, 0x0B8A),
    (0x0B8E, 0x0B90),
    (0x0B92, 0x0B95),
    (0x0B99, 0x0B9A),
    (0x0B9C, 0x0B9C),
    (0x0B9E, 0x0B9F),
    (0x0BA3, 0x0BA4),
    (0x0BA8, 0x0BAA),
    (0x0BAE, 0x0BB5),
    (0x0BB7, 0x0BB9),
    (0x0C05, 0x0C0C),
    (0x0C0E, 0x0C10),
    (0x0C12, 0x0C28),
    (0x0C2A, 0x0C33),
    (0x0C35, 0x0C39),
    (0x0C60, 0x0C61),
    (0x0C85, 0x0C8C),
    (0x0C8E, 0x0C90),
    (0x0C92, 0x0CA8),
    (0x0CAA, 0x0CB3),
    (0x0CB5, 0x0CB9),
    (0x0CDE, 0x0CDE),
    (0x0CE0, 0x0CE1),
    (0x0D05, 0x0D0C),
    (0x0D0E, 0x0D10),
    (0x0D12, 0x0D28),
    (0x0D2A, 0x0D39),
    (0x0D60, 0x0D61),
    (0x0E01, 0x0E2E),
    (0x0E30, 0x0E30),
    (0x0E32, 0x0E33),
    (0x0E40, 0x0E45),
    (0x0E81, 0x0E82),
    (0x0E84, 0x0E84),
    (0x0E87, 0x0E88),
    (0x0E8A, 0x0E8A),
    (0x0E8D, 0x0E8D),
    (0x0E94, 0x0E97),
    (0x0E99, 0x0E9F),
    (0x0EA1, 0x0EA3),
    (0x0EA5, 0x0EA5),
    (0x0EA7, 0x0EA7),
    (0x0EAA, 0x0EAB),
    (0x0EAD, 0x0EAE),
    (0x0EB0, 0x0EB0),
    (0x0EB2, 0x0EB3),
    (0x0EBD, 0x0EBD),
    (0x0EC0, 0x0EC4),
    (0x0F40, 0x0F47),
    (0x0F49, 0x0F69),
    (0x10A0, 0x10C5),
    (0x10D0, 0x10F6),
    (0x1100, 0x1100),
    (0x1102, 0x1103),
    (0x1105, 0x1107),
    (0x1109, 0x1109),
    (0x110B, 0x110C),
    (0x110E, 0x1112),
    (0x113C, 0x113C),
    (0x113E, 0x113E),
    (0x1140, 0x1140),
    (0x114C, 0x114C),
    (0x114E, 0x114E),
    (0x1150, 0x1150),
    (0x1154, 0x1155),
    (0x1159, 0x1159),
    (0x115F, 0x1161),
    (0x1163, 0x1163),
    (0x1165, 0x1165),
    (0x1167, 0x1167),
    (0x1169, 0x1169),
    (0x116D, 0x116E),
    (0x1172, 0x1173),
    (0x1175, 0x1175),
    (0x119E, 0x119E),
    (0x11A8, 0x11A8),
    (0x11AB, 0x11AB),
    (0x11AE, 0x11AF),
    (0x11B7, 0x11B8),
    (0x11BA, 0x11BA),
    (0x11BC, 0x11C2),
    (0x11EB, 0x11EB),
    (0x11F0, 0x11F0),
    (0x11F9, 0x11F9),
    (0x1E00, 0x1E9B),
    (0x1EA0, 0x1EF9),
    (0x1F00, 0x1F15),
    (0x1F18, 0x1F1D),
    (0x1F20, 0x1F45),
    (0x1F48, 0x1F4D),
    (0x1F50, 0x1F57),
    (0x1F59, 0x1F59),
    (0x1F5B, 0x1F5B),
    (0x1F5D, 0x1F5D),
    (0x1F5F, 0x1F7D),
    (0x1F80, 0x1FB4),
    (0x1FB6, 0x1FBC),
    (0x1FBE, 0x1FBE),
    (0x1FC2, 0x1FC4),
    (0x1FC6, 0x1FCC),
    (0x1FD0, 0x1FD3),
    (0x1FD6, 0x1FDB),
    (0x1FE0, 0x1FEC),
    (0x1FF2, 0x1FF4),
    (0x1FF6, 0x1FFC),
    (0x2126, 0x2126),
    (0x212A, 0x212B),
    (0x212E, 0x212E),
    (0x2180, 0x2182),
    (0x3007, 0x3007),
    (0x3021, 0x3029),
    (0x3041, 0x3094),
    (0x30A1, 0x30FA),
    (0x3105, 0x312C),
    (0x4E00, 0x9FA5),
    (0xAC00, 0xD7A3),
];

const NAME_CHAR_RANGES: &[(u32, u32)] = &[
    (0x00B7, 0x00B7),
    (0x00C0, 0x00D6),
    (0x00D8, 0x00F6),
    (0x00F8, 0x0131),
    (0x0134, 0x013E),
    (0x0141, 0x0148),
    (0x014A, 0x017E),
    (0x0180, 0x01C3),
    (0x01CD, 0x01F0),
    (0x01F4, 0x01F5),
    (0x01FA, 0x0217),
    (0x0250, 0x02A8),
    (0x02BB, 0x02C1),
    (0x02D0, 0x02D1),
    (0x0300, 0x0345),
    (0x0360, 0x0361),
    (0x0386, 0x038A),
    (0x038C, 0x038C),
    (0x038E, 0x03A1),
    (0x03A3, 0x03CE),
    (0x03D0, 0x03D6),
    (0x03DA, 0x03DA),
    (0x03DC, 0x03DC),
    (0x03DE, 0x03DE),
    (0x03E0, 0x03E0),
    (0x03E2, 0x03F3),
    (0x0401, 0x040C),
    (0x040E, 0x044F),
    (0x0451, 0x045C),
    (0x045E, 0x0481),
    (0x0483, 0x0486),
    (0x0490, 0x04C4),
    (0x04C7, 0x04C8),
    (0x04CB, 0x04CC),
    (0x04D0, 0x04EB),
    (0x04EE, 0x04F5),
    (0x04F8, 0x04F9),
    (0x0531, 0x0556),
    (0x0559, 0x0559),
    (0x0561, 0x0586),
    (0x0591, 0x05A1),
    (0x05A3, 0x05B9),
    (0x05BB, 0x05BD),
    (0x05BF, 0x05BF),
    (0x05C1, 0x05C2),
    (0x05C4, 0x05C4),
    (0x05D0, 0x05EA),
    (0x05F0, 0x05F2),
    (0x0621, 0x063A),
    (0x0640, 0x0652),
    (0x0660, 0x0669),
    (0x0670, 0x06B7),
    (0x06BA, 0x06BE),
    (0x06C0, 0x06CE),
    (0x06D0, 0x06D3),
    (0x06D5, 0x06E8),
    (0x06EA, 0x06ED),
    (0x06F0, 0x06F9),
    (0x0901, 0x0903),
    (0x0905, 0x0939),
    (0x093C, 0x094D),
    (0x0951, 0x0954),
    (0x0958, 0x0963),
    (0x0966, 0x096F),
    (0x0981, 0x0983),
    (0x0985, 0x098C),
    (0x098F, 0x0990),
    (0x0993, 0x09A8),
    (0x09AA, 0x09B0),
    (0x09B2, 0x09B2),
    (0x09B6, 0x09B9),
    (0x09BC, 0x09BC),
    (0x09BE, 0x09C4),
    (0x09C7, 0x09C8),
    (0x09CB, 0x09CD),
    (0x09D7, 0x09D7),
    (0x09DC, 0x09DD),
    (0x09DF, 0x09E3),
    (0x09E6, 0x09F1),
    (0x0A02, 0x0A02),
    (0x0A05, 0x0A0A),
    (0x0A0F, 0x0A10),
    (0x0A13, 0x0A28),
    (0x0A2A, 0x0A30),
    (0x0A32, 0x0A33),
    (0x0A35, 0x0A36),
    (0x0A38, 0x0A39),
    (0x0A3C, 0x0A3C),
    (0x0A3E, 0x0A42),
    (0x0A47, 0x0A48),
    (0x0A4B, 0x0A4D),
    (0x0A59, 0x0A5C),
    (0x0A5E, 0x0A5E),
    (0x0A66, 0x0A74),
    (0x0A81, 0x0A83),
    (0x0A85, 0x0A8B),
    (0x0A8D, 0x0A8D),
    (0x0A8F, 0x0A91),
    (0x0A93, 0x0AA8),
    (0x0AAA, 0x0AB0),
    (0x0AB2, 0x0AB3),
    (0x0AB5, 0x0AB9),
    (0x0ABC, 0x0AC5),
    (0x0AC7, 0x0AC9),
    (0x0ACB, 0x0ACD),
    (0x0AE0, 0x0AE0),
    (0x0AE6, 0x0AEF),
    (0x0B01, 0x0B03),
    (0x0B05, 0x0B0C),
    (0x0B0F, 0x0B10),
    (0x0B13, 0x0B28),
    (0x0B2A, 0x0B30),
    (0x0B32, 0x0B33),
    (0x0B36, 0x0B39),
    (0x0B3C, 0x0B43),
    (0x0B47, 0x0B48),
    (0x0B4B, 0x0B4D),
    (0x0B56, 0x0B57),
    (0x0B5C, 0x0B5D),
    (0x0B5F, 0x0B61),
    (0x0B66, 0x0B6F),
    (0x0B82, 0x0B83),
    (0x0B85, 0x0B8A),
    (0x0B8E, 0x0B90),
    (0x0B92, 0x0B95),
    (0x0B99, 0x0B9A),
    (0x0B9C, 0x0B9C),
    (0x0B9E, 0x0B9F),
    (0x0BA3, 0x0BA4),
    (0x0BA8, 0x0BAA),
    (0x0BAE, 0x0BB5),
    (0x0BB7, 0x0BB9),
    (0x0BBE, 0x0BC2),
    (0x0BC6, 0x0BC8),
    (0x0BCA, 0x0BCD),
    (0x0BD7, 0x0BD7),
    (0x0BE7, 0x0BEF),
    (0x0C01, 0x0C03),
    (0x0C05, 0x0C0C),
    (0x0C0E, 0x0C10),
    (0x0C12, 0x0C28),
    (0x0C2A, 0x0C33),
    (0x0C35, 0x0C39),
    (0x0C3E, 0x0C44),
    (0x0C46, 0x0C48),
    (0x0C4A, 0x0C4D),
    (0x0C55, 0x0C56),
    (0x0C60, 0x0C61),
    (0x0C66, 0x0C6F),
    (0x0C82, 0x0C83),
    (0x0C85, 0x0C8C),
    (0x0C8E, 0x0C90),
    (0x0C92, 0x0CA8),
    (0x0CAA, 0x0CB3),
    (0x0CB5, 0x0CB9),
    (0x0CBE, 0x0CC4),
    (0x0CC6, 0x0CC8),
    (0x0CCA, 0x0CCD),
    (0x0CD5, 0x0CD6),
    (0x0CDE, 0x0CDE),
    (0x0CE0, 0x0CE1),
    (0x0CE6, 0x0CEF),
    (0x0D02, 0x0D03),
    (0x0D05, 0x0D0C),
    (0x0D0E, 0x0D10),
    (0x0D12, 0x0D28),
    (0x0D2A, 0x0D39),
    (0x0D3E, 0x0D43),
    (0x0D46, 0x0D48),
    (0x0D4A, 0x0D4D),
    (0x0D57, 0x0D57),
    (0x0D60, 0x0D61),
    (0x0D66, 0x0D6F),
    (0x0E01, 0x0E2E),
    (0x0E30, 0x0E3A),
    (0x0E40, 0x0E4E),
    (0x0E50, 0x0E59),
    (0x0E81, 0x0E82),
    (0x0E84, 0x0E84),
    (0x0E87, 0x0E88),
    (0x0E8A, 0x0E8A),
    (0x0E8D, 0x0E8D),
    (0x0E94, 0x0E97),
    (0x0E99, 0x0E9F),
    (0x0EA1, 0x0EA3),
    (0x0EA5, 0x0EA5),
    (0x0EA7, 0x0EA7),
    (0x0EAA, 0x0EAB),
    (0x0EAD, 0x0EAE),
    (0x0EB0, 0x0EB9),
    (0x0EBB, 0x0EBD),
    (0x0EC0, 0x0EC4),
    (0x0EC6, 0x0EC6),
    (0x0EC8, 0x0ECD),
    (0x0ED0, 0x0ED9),
    (0x0F18, 0x0F19),
    (0x0F20, 0x0F29),
    (0x0F35, 0x0F35),
    (0x0F37, 0x0F37),
    (0x0F39, 0x0F39),
    (0x0F3E, 0x0F47),
    (0x0F49, 0x0F69),
    (0x0F71, 0x0F84),
    (0x0F86, 0x0F8B),
    (0x0F90, 0x0F95),
    (0x0F97, 0x0F97),
    (0x0F99, 0x0FAD),
    (0x0FB1, 0x0FB7),
    (0x0FB9, 0x0FB9),
    (0x10A0, 0x10C5),
    (0x10D0, 0x10F6),
    (0x1100, 0x1100),
    (0x1102, 0x1103),
    (0x1105, 0x1107),
    (0x1109, 0x1109),
    (0x110B, 0x110C),
    (0x110E, 0x1112),
    (0x113C, 0x113C),
    (0x113E, 0x113E),
    (0x1140, 0x1140),
    (0x114C, 0x114C),
    (0x114E, 0x114E),
    (0x1150, 0x1150),
    (0x1154, 0x1155),
    (0x1159, 0x1159),
    (0x115F, 0x1161),
    (0x1163, 0x1163),
    (0x1165, 0x1165),
    (0x1167, 0x1167),
    (0x1169, 0x1169),
    (0x116D, 0x116E),
    (0x1172, 0x1173),
    (0x1175, 0x1175),
    (0x119E, 0x119E),
    (0x11A8, 0x11A8),
    (0x11AB, 0x11AB),
    (0x11AE, 0x11AF),
    (0x11B7, 0x11B8),
    (0x11BA, 0x11BA),
    (0x11BC, 0x11C2),
    (0x11EB, 0x11EB),
    (0x11F0, 0x11F0),
    (0x11F9, 0x11F9),
    (0x1E00, 0x1E9B),
    (0x1EA0, 0x1EF9),
    (0x1F00, 0x1F15),
    (0x1F18, 0x1F1D),
    (0x1F20, 0x1F45),
    (0x1F48, 0x1F4D),
    (0x1F50, 0x1F57),
    (0x1F59, 0x1F59),
    (0x1F5B, 0x1F5B),
    (0x1F5D, 0x1F5D),
    (0x1F5F, 0x1F7D),
    (0x1F80, 0x1FB4),
    (0x1FB6, 0x1FBC),
    (0x1FBE, 0x1FBE),
    (0x1FC2, 0x1FC4),
    (0x1FC6, 0x1FCC),
    (0x1FD0, 0x1FD3),
    (0x1FD6, 0x1FDB),
    (0x1FE0, 0x1FEC),
    (0x1FF2, 0x1FF4),
    (0x1FF6, 0x1FFC),
    (0x20D0, 0x20DC),
    (0x20E1, 0x20E1),
    (0x2126, 0x2126),
    (0x212A, 0x212B),
    (0x212E, 0x212E),
    (0x2180, 0x2182),
    (0x3005, 0x3005),
    (0x3007, 0x3007),
    (0x3021, 0x302F),
    (0x3031, 0x3035),
    (0x3041, 0x3094),
    (0x3099, 0x309A),
    (0x309D, 0x309E),
    (0x30A1, 0x30FA),
    (0x30FC, 0x30FE),
    (0x3105, 0x312C),
    (0x4E00, 0x9FA5),
    (0xAC00, 0xD7A3),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn structure(text: &str) -> Option<Vec<String>> {
        synopsis(text).map(|s| s.structure)
    }

    #[test]
    fn summarises_root_attributes_and_children() {
        let syn = synopsis("<root><item id='1'>A</item><item id='2'>B</item></root>");
        let syn = syn.expect("well-formed");
        assert_eq!(syn.kind, "xml");
        assert_eq!(syn.title, "XML output");
        assert_eq!(syn.summary, vec!["XML document with root: root."]);
        assert_eq!(
            syn.structure,
            vec!["root: root", "attributes: 0", "item: 2"]
        );
    }

    #[test]
    fn children_most_frequent_first_ties_in_first_seen_order_at_most_30() {
        let doc = "<r><b/><a/><a/><c/><b/><d/></r>";
        assert_eq!(
            structure(doc).expect("ok"),
            vec!["root: r", "attributes: 0", "b: 2", "a: 2", "c: 1", "d: 1"]
        );
        let many: String = (0..40).map(|i| format!("<c{i}/>")).collect();
        let lines = structure(&format!("<r>{many}</r>")).expect("ok");
        assert_eq!(lines.len(), 2 + MAX_CHILD_TAGS);
    }

    #[test]
    fn namespaces_print_as_clark_names_and_declarations_are_not_attributes() {
        let doc = r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="u" width="2" x:a="1"><x:g/><line/></svg>"#;
        assert_eq!(
            structure(doc).expect("ok"),
            vec![
                "root: {http://www.w3.org/2000/svg}svg",
                "attributes: 2",
                "{u}g: 1",
                "{http://www.w3.org/2000/svg}line: 1"
            ]
        );
        assert!(structure("<p:r/>").is_none(), "undeclared prefix");
        assert!(
            structure(r#"<r xmlns:p=""/>"#).is_none(),
            "prefix cannot be undeclared"
        );
        assert!(
            structure(r#"<r xmlns="a}b"/>"#).is_none(),
            "separator in URI"
        );
        assert!(structure(r#"<r xmlns:a="u" xmlns:b="u" a:x="1" b:x="2"/>"#).is_none());
        assert_eq!(
            structure(r#"<r xml:lang="en"/>"#).expect("xml prefix is predeclared")[1],
            "attributes: 1"
        );
    }

    #[test]
    fn rejects_what_expat_rejects() {
        for doc in [
            "",
            " <?xml version=\"1.0\"?><r/>",
            "<r><broken></r>",
            "<p>not xml <br> at all</p> words",
            "<r/><r/>",
            "<r/>junk",
            "<r a=1/>",
            "<r a=\"1\" a=\"2\"/>",
            "<r a=\"1\"b=\"2\"/>",
            "<r>a & b</r>",
            "<r>&nbsp;</r>",
            "<r>]]></r>",
            "<r>\u{1}</r>",
            "<r>\u{FFFE}</r>",
            "<r>&#0;</r>",
            "<r><!-- a -- b --></r>",
            "<?XML version=\"1.0\"?><r/>",
            "<?xml encoding=\"utf-8\"?><r/>",
            "<r><?xml version=\"1.0\"?></r>",
            "<a:b:c xmlns:a=\"u\"/>",
            "<r\u{10000}/>",
            "<!DOCTYPE r [<!ELEMENT r (a,b|c)>]><r/>",
        ] {
            assert!(structure(doc).is_none(), "should reject {doc:?}");
        }
    }

    #[test]
    fn accepts_what_expat_accepts() {
        for doc in [
            "<r/>\n",
            "\u{FEFF}<r/>",
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r>é</r>",
            "<?xml version=\"2.0\"?><r/>",
            "<!-- c --><?pi x?><r/><!-- d -->\r\n",
            "<r><![CDATA[ <x> & ]] ]]></r>",
            "<r>&#x10FFFF;&lt;\u{10FFFF}</r>",
            "<!DOCTYPE html><html/>",
            "<r\r\n a='1'\t/>",
        ] {
            assert!(structure(doc).is_some(), "should accept {doc:?}");
        }
    }

    #[test]
    fn internal_entities_expand_and_external_ones_fail() {
        let doc = "<!DOCTYPE r [<!ENTITY e \"<c/><c/>\">]><r>&e;</r>";
        assert_eq!(
            structure(doc).expect("ok"),
            vec!["root: r", "attributes: 0", "c: 2"]
        );
        assert!(structure("<!DOCTYPE r [<!ENTITY e SYSTEM \"x\">]><r>&e;</r>").is_none());
        assert!(structure("<!DOCTYPE r [<!ENTITY e \"<c>\">]><r>&e;</c></r>").is_none());
        assert!(structure("<!DOCTYPE r [<!ENTITY e \"&e;\">]><r>&e;</r>").is_none());
        // Character references are expanded when declared, so `&#38;` alone becomes a bare `&`.
        assert!(structure("<!DOCTYPE r [<!ENTITY e \"&#38;\">]><r>&e;</r>").is_none());
        // With an external subset, undefined entities in attribute values are skipped.
        assert!(structure("<!DOCTYPE r SYSTEM \"foo\"><r a=\"&x;\"/>").is_some());
        assert!(structure("<!DOCTYPE r SYSTEM \"foo\"><r>&x;</r>").is_none());
    }

    #[test]
    fn attlist_defaults_count_and_can_declare_namespaces() {
        let doc = "<!DOCTYPE r [<!ATTLIST r a CDATA \"x\" xmlns CDATA \"urn:u\">]><r><c/></r>";
        assert_eq!(
            structure(doc).expect("ok"),
            vec!["root: {urn:u}r", "attributes: 1", "{urn:u}c: 1"]
        );
        // After a parameter-entity reference, later declarations are ignored (not standalone).
        let ignored = "<!DOCTYPE r [<!ENTITY % pe \"x\"> %pe; <!ATTLIST r a CDATA \"v\">]><r/>";
        assert_eq!(structure(ignored).expect("ok")[1], "attributes: 0");
    }

    #[test]
    fn billion_laughs_is_rejected_quickly() {
        let mut dtd = String::from("<!DOCTYPE r [<!ENTITY l0 \"lollollollollol\">");
        for level in 1..10 {
            let refs = format!("&l{};", level - 1).repeat(10);
            dtd.push_str(&format!("<!ENTITY l{level} \"{refs}\">"));
        }
        dtd.push_str("]><r>&l9;</r>");
        assert!(structure(&dtd).is_none());
        let attribute_bomb = dtd.replace("<r>&l9;</r>", "<r a=\"&l9;\"/>");
        assert!(structure(&attribute_bomb).is_none());
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let depth = 100_000;
        let doc = format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth));
        assert_eq!(
            structure(&doc).expect("ok"),
            vec!["root: a", "attributes: 0", "a: 1"]
        );
        let unclosed = "<a>".repeat(depth);
        assert!(structure(&unclosed).is_none());
    }
}
