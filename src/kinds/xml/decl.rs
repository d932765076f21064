//! The XML declaration (xmltok.c doParseXmlDecl).

use super::*;

pub(super) fn is_decl_space(b: Option<u8>) -> bool {
    matches!(b, Some(b' ' | b'\t' | b'\r' | b'\n'))
}

/// One `name = "value"` of the declaration. `Ok(None)` at the end.
pub(super) fn pseudo_attribute<'t>(
    decl: &'t str,
    pos: &mut usize,
) -> Res<Option<(&'t str, &'t str)>> {
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
pub(super) fn parse_xml_decl(token: &str) -> Res<bool> {
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
