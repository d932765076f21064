//! Resolver: PyYAML's YAML 1.1 implicit resolvers for plain scalars.

use super::*;

pub(super) struct Resolvers {
    pub(super) timestamp_re: Regex,
    pub(super) timestamp_parts_re: Regex,
}

pub(super) fn resolvers() -> &'static Resolvers {
    static RESOLVERS: OnceLock<Resolvers> = OnceLock::new();
    RESOLVERS.get_or_init(|| {
        // The patterns are PyYAML's (resolver.py / constructor.py) with the re.X whitespace removed.
        let compile = |pattern: &str| Regex::new(pattern).unwrap_or_else(|_| unreachable_regex());
        Resolvers {
            timestamp_re: compile(
                r"^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$",
            ),
            timestamp_parts_re: compile(
                r"^(?P<year>[0-9][0-9][0-9][0-9])-(?P<month>[0-9][0-9]?)-(?P<day>[0-9][0-9]?)(?:(?:[Tt]|[ \t]+)(?P<hour>[0-9][0-9]?):(?P<minute>[0-9][0-9]):(?P<second>[0-9][0-9])(?:\.(?P<fraction>[0-9]*))?(?:[ \t]*(?P<tz>Z|(?P<tz_sign>[-+])(?P<tz_hour>[0-9][0-9]?)(?::(?P<tz_minute>[0-9][0-9]))?))?)?$",
            ),
        }
    })
}

/// The patterns above are constants that compile; this only exists to avoid a panicking unwrap.
pub(super) fn unreachable_regex() -> Regex {
    Regex::new("$^").unwrap_or_else(|_| unreachable_regex())
}

/// The text Python's `$` lets a pattern match: the whole string, or the string without one final `\n`.
pub(super) fn py_dollar_candidates(value: &str) -> impl Iterator<Item = &str> {
    std::iter::once(value).chain(value.strip_suffix('\n'))
}

pub(super) fn py_match(regex: &Regex, value: &str) -> bool {
    py_dollar_candidates(value).any(|candidate| regex.is_match(candidate))
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
    let resolvers = resolvers();
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
            if first.is_ascii_digit() && py_match(&resolvers.timestamp_re, value) {
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
