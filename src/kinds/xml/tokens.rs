//! Scanners shared by the prolog and the content (xmltok_impl.c).

use super::*;

/// A reference after `&`: `Entity(name range)` or `Char(code point)`.
pub(super) enum Reference {
    Entity(usize, usize),
    Char(u32),
}

/// Scans a reference; `pos` is just after `&`. Returns it and the position after `;`.
pub(super) fn scan_ref(s: &str, pos: usize) -> Res<(Reference, usize)> {
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
pub(super) fn scan_char_ref(s: &str, pos: usize) -> Res<(Reference, usize)> {
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
pub(super) fn is_valid_char_ref(value: u32) -> bool {
    match value {
        0x9 | 0xA | 0xD => true,
        0..=0x1F => false,
        0xD800..=0xDFFF | 0xFFFE | 0xFFFF => false,
        _ => value < 0x110000,
    }
}

/// Comment after `<!-`: `--` must be followed by `>`. Returns the position after `-->`.
pub(super) fn scan_comment(s: &str, pos: usize) -> Res<usize> {
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
pub(super) fn scan_pi(s: &str, pos: usize) -> Res<(bool, usize)> {
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
pub(super) fn pi_target_kind(target: &str) -> Res<bool> {
    if target.len() == 3 && target.eq_ignore_ascii_case("xml") {
        if target == "xml" {
            return Ok(true);
        }
        return Err(XmlError);
    }
    Ok(false)
}
