//! Resolver: PyYAML's YAML 1.1 implicit resolvers for plain scalars.

use super::*;

/// The groups of PyYAML's timestamp pattern (constructor.py's `timestamp_regexp`), matched by
/// hand over a whole candidate (a regex engine here was most of what regex-lite added to the
/// wasm): `YYYY-M?M-D?D` and optionally `(T|t|[ \t]+)h?h:mm:ss(\.f*)?([ \t]*(Z|[-+]h?h(:mm)?))?`.
/// Every run of digits is followed by a non-digit or the end, so matching greedily is what the
/// backtracking pattern does.
pub(super) struct TimestampParts<'a> {
    pub(super) year: &'a str,
    pub(super) month: &'a str,
    pub(super) day: &'a str,
    pub(super) time: Option<TimeParts<'a>>,
}

pub(super) struct TimeParts<'a> {
    pub(super) hour: &'a str,
    pub(super) minute: &'a str,
    pub(super) second: &'a str,
    pub(super) fraction: Option<&'a str>,
    /// `Z` or `[-+]h?h(:mm)?`: `(sign, hour, minute)`, the sign `None` for `Z`.
    pub(super) tz: Option<(Option<u8>, &'a str, Option<&'a str>)>,
}

/// `min..=max` ASCII digits at the start of `s` (as many as there are, up to `max`), and the rest.
fn digits(s: &str, min: usize, max: usize) -> Option<(&str, &str)> {
    let run = s.bytes().take(max).take_while(u8::is_ascii_digit).count();
    (run >= min).then(|| s.split_at(run))
}

fn byte(s: &str, expected: u8) -> Option<&str> {
    (s.as_bytes().first() == Some(&expected)).then(|| &s[1..])
}

fn skip_blanks(s: &str) -> &str {
    s.trim_start_matches([' ', '\t'])
}

/// The whole of `s` as a timestamp's parts, or `None`.
pub(super) fn timestamp_parts(s: &str) -> Option<TimestampParts<'_>> {
    let (year, rest) = digits(s, 4, 4)?;
    let (month, rest) = digits(byte(rest, b'-')?, 1, 2)?;
    let (day, rest) = digits(byte(rest, b'-')?, 1, 2)?;
    if rest.is_empty() {
        return Some(TimestampParts {
            year,
            month,
            day,
            time: None,
        });
    }
    let rest = match rest.as_bytes()[0] {
        b'T' | b't' => &rest[1..],
        b' ' | b'\t' => skip_blanks(rest),
        _ => return None,
    };
    let (hour, rest) = digits(rest, 1, 2)?;
    let (minute, rest) = digits(byte(rest, b':')?, 2, 2)?;
    let (second, mut rest) = digits(byte(rest, b':')?, 2, 2)?;
    let mut fraction = None;
    if let Some(after_dot) = byte(rest, b'.') {
        let run = after_dot.bytes().take_while(u8::is_ascii_digit).count();
        fraction = Some(&after_dot[..run]);
        rest = &after_dot[run..];
    }
    let mut tz = None;
    if !rest.is_empty() {
        let zone = skip_blanks(rest);
        match zone.as_bytes().first() {
            Some(b'Z') => {
                tz = Some((None, "", None));
                rest = &zone[1..];
            }
            Some(&sign @ (b'-' | b'+')) => {
                let (tz_hour, after) = digits(&zone[1..], 1, 2)?;
                let (tz_minute, after) = match byte(after, b':') {
                    Some(colon) => {
                        let (minute, after) = digits(colon, 2, 2)?;
                        (Some(minute), after)
                    }
                    None => (None, after),
                };
                tz = Some((Some(sign), tz_hour, tz_minute));
                rest = after;
            }
            _ => return None,
        }
    }
    rest.is_empty().then_some(TimestampParts {
        year,
        month,
        day,
        time: Some(TimeParts {
            hour,
            minute,
            second,
            fraction,
            tz,
        }),
    })
}

/// resolver.py's timestamp pattern: `YYYY-MM-DD`, or a date with one- or two-digit month and
/// day followed by a time.
pub(super) fn is_yaml_timestamp(s: &str) -> bool {
    timestamp_parts(s).is_some_and(|parts| {
        parts.time.is_some() || (parts.month.len() == 2 && parts.day.len() == 2)
    })
}

/// The text Python's `$` lets a pattern match: the whole string, or the string without one final `\n`.
pub(super) fn py_dollar_candidates(value: &str) -> impl Iterator<Item = &str> {
    std::iter::once(value).chain(value.strip_suffix('\n'))
}

// PyYAML's bool, null, int and float resolver patterns as hand-written matchers over the whole
// candidate (the regexes ran on every plain scalar); the differential test below checks them
// against the patterns themselves.

/// `yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF`
pub(super) fn is_yaml_bool(s: &str) -> bool {
    matches!(
        s,
        "yes"
            | "Yes"
            | "YES"
            | "no"
            | "No"
            | "NO"
            | "true"
            | "True"
            | "TRUE"
            | "false"
            | "False"
            | "FALSE"
            | "on"
            | "On"
            | "ON"
            | "off"
            | "Off"
            | "OFF"
    )
}

/// `~|null|Null|NULL|` (the empty string included).
pub(super) fn is_yaml_null(s: &str) -> bool {
    matches!(s, "~" | "null" | "Null" | "NULL" | "")
}

/// The rest of `s` after a leading run of chars in `class` (possibly empty).
pub(super) fn skip_run(s: &str, class: impl Fn(u8) -> bool) -> &str {
    let end = s.bytes().position(|b| !class(b)).unwrap_or(s.len());
    s.get(end..).unwrap_or("")
}

pub(super) fn is_digit_or_underscore(b: u8) -> bool {
    b.is_ascii_digit() || b == b'_'
}

/// `[1-9][0-9_]*` or `[0-9][0-9_]*` (per `first`) at the start of `s`: what follows, if it matched.
pub(super) fn digits_from(s: &str, first: impl Fn(u8) -> bool) -> Option<&str> {
    let rest = s.strip_prefix(|c: char| c.is_ascii() && first(c as u8))?;
    Some(skip_run(rest, is_digit_or_underscore))
}

/// `(?::[0-5]?[0-9])+` over all of `s`.
pub(super) fn is_sexagesimal_tail(s: &str) -> bool {
    s.strip_prefix(':').is_some_and(|groups| {
        groups.split(':').all(|group| match group.as_bytes() {
            [digit] => digit.is_ascii_digit(),
            [tens, digit] => (b'0'..=b'5').contains(tens) && digit.is_ascii_digit(),
            _ => false,
        })
    })
}

/// `0b[0-1_]+|0[0-7_]+|0|[1-9][0-9_]*|0x[0-9a-fA-F_]+|[1-9][0-9_]*(?::[0-5]?[0-9])+`, signed.
pub(super) fn is_yaml_int(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    let nonempty_run =
        |rest: &str, class: fn(u8) -> bool| !rest.is_empty() && skip_run(rest, class).is_empty();
    if let Some(rest) = s.strip_prefix("0b") {
        if nonempty_run(rest, |b| matches!(b, b'0' | b'1' | b'_')) {
            return true;
        }
    }
    if let Some(rest) = s.strip_prefix("0x") {
        if nonempty_run(rest, |b| b.is_ascii_hexdigit() || b == b'_') {
            return true;
        }
    }
    if let Some(rest) = s.strip_prefix('0') {
        return rest.is_empty() || nonempty_run(rest, |b| matches!(b, b'0'..=b'7' | b'_'));
    }
    match digits_from(s, |b| matches!(b, b'1'..=b'9')) {
        Some(rest) => rest.is_empty() || is_sexagesimal_tail(rest),
        None => false,
    }
}

/// `[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|
/// [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)`
pub(super) fn is_yaml_float(s: &str) -> bool {
    let optional_exponent = |rest: &str| {
        rest.is_empty()
            || rest
                .strip_prefix(['e', 'E'])
                .and_then(|r| r.strip_prefix(['-', '+']))
                .is_some_and(|digits| {
                    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
                })
    };
    if matches!(s, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    if let Some(fraction) = s
        .strip_prefix('.')
        .and_then(|r| digits_from(r, |b| b.is_ascii_digit()))
    {
        if optional_exponent(fraction) {
            return true;
        }
    }
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    if matches!(unsigned, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    let Some(after_int) = digits_from(unsigned, |b| b.is_ascii_digit()) else {
        return false;
    };
    if let Some(fraction) = after_int.strip_prefix('.') {
        return optional_exponent(skip_run(fraction, is_digit_or_underscore));
    }
    // Sexagesimal: the first `.` ends the `:` groups (the groups hold no `.`).
    match after_int.split_once('.') {
        Some((groups, fraction)) => {
            is_sexagesimal_tail(groups) && skip_run(fraction, is_digit_or_underscore).is_empty()
        }
        None => false,
    }
}

/// PyYAML's `resolve(ScalarNode, value, (True, _))`: resolvers are tried by first char, in
/// registration order (bool, float, int, merge, null, timestamp, value).
pub(super) fn resolve_plain_scalar(value: &str) -> Tag {
    let Some(first) = value.chars().next() else {
        return Tag::Null;
    };
    match first {
        'y' | 'Y' | 'n' | 'N' | 't' | 'T' | 'f' | 'F' | 'o' | 'O' => {
            if py_dollar_candidates(value).any(is_yaml_bool) {
                return Tag::Bool;
            }
            if (first == 'n' || first == 'N') && py_dollar_candidates(value).any(is_yaml_null) {
                return Tag::Null;
            }
        }
        '-' | '+' | '0'..='9' | '.' => {
            if py_dollar_candidates(value).any(is_yaml_float) {
                return Tag::Float;
            }
            if first != '.' && py_dollar_candidates(value).any(is_yaml_int) {
                return Tag::Int;
            }
            if first.is_ascii_digit() && py_dollar_candidates(value).any(is_yaml_timestamp) {
                return Tag::Timestamp;
            }
        }
        '<' if value == "<<" || value == "<<\n" => return Tag::Merge,
        '~' if py_dollar_candidates(value).any(is_yaml_null) => return Tag::Null,
        '=' if value == "=" || value == "=\n" => return Tag::Value,
        _ => {}
    }
    Tag::Str
}
