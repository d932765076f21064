//! Prolog tokens (prologTok) and the DTD grammar (xmlrole.c).

use super::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PTok {
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
pub(super) fn prolog_tok(s: &str, pos: usize) -> Res<(PTok, usize)> {
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
pub(super) fn scan_literal(s: &str, pos: usize, open: Bt) -> Res<(PTok, usize)> {
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
pub(super) fn scan_decl(s: &str, pos: usize) -> Res<(PTok, usize)> {
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
pub(super) fn scan_percent(s: &str, pos: usize) -> Res<(PTok, usize)> {
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
pub(super) fn scan_pound_name(s: &str, pos: usize) -> Res<(PTok, usize)> {
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
pub(super) fn is_public_id(literal_body: &str) -> bool {
    literal_body
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b" -'()+,/=?\r\n;!*%#:.$@_".contains(&b))
}
