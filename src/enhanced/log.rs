//! `log` kind (enhanced mode): line-oriented logs. Each line is read once, left to right, by
//! hand-written scanners (no regex engine in the main module): a leading timestamp (ISO 8601,
//! syslog `Dec  1 18:50:06`, epoch seconds or milliseconds, `HH:MM:SS`, klog `E1201 18:50:06`),
//! a level among the first tokens (`ERROR`, `[warn]`, `level=error`, `[E]`, ...), and HTTP
//! access-log lines (common/combined format). The synopsis
//! says what a model needs before reading: level counts, the first and last ERROR and WARN lines
//! with their 1-based line numbers, the time span, the grouped error messages, the exceptions of
//! stack traces (and their root causes), and the most repeated messages.

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::counter::Counter;
use super::log_grammar::{self, Grammar, GRAMMARS};
use super::log_levels::{level_word, CRITICAL, ERROR, FATAL, INFO, LEVELS, WARN};
use super::text_helpers::{
    after_last, bounded_one_line, find_byte, floor_char_boundary, lines, probes, trim_set,
    PROBE_BYTES,
};
use crate::fx_hasher::FxHasher;
use crate::kinds::Synopsis;
use crate::python::stable_sort_by;

/// The level names of an access log's lines: status classes.
const ACCESS_LABELS: [&str; 8] = ["", "", "5xx", "4xx", "", "2xx/3xx", "", ""];

/// One-letter levels (`[E]`, klog's `E1201`, logcat's ` E `), only where the form is unambiguous.
fn letter_level(letter: u8) -> Option<usize> {
    match letter {
        b'F' => Some(FATAL),
        b'E' => Some(ERROR),
        b'W' => Some(WARN),
        b'I' => Some(5),
        b'D' => Some(6),
        b'V' | b'T' => Some(7),
        _ => None,
    }
}

/// How many leading tokens of a line may hold its level (after the timestamp): a pid, a thread or
/// a logger name may come first, a word of the message must not count.
const LEVEL_TOKENS: usize = 4;
/// How many tokens a `level=` field may be looked for in (logfmt puts `time=` first).
const LOGFMT_TOKENS: usize = 8;
/// Chars of a quoted line or message in the synopsis.
const LINE_CHARS: i64 = 130;
const GROUP_CHARS: i64 = 100;
const MAX_ERROR_GROUPS: usize = 4;
const MAX_REPEATED: usize = 3;
const MAX_EXCEPTIONS: usize = 6;
const MAX_STATUS_CODES: usize = 10;
/// Distinct hosts and sources (programs, tags, files) counted; further ones count as others.
const MAX_SOURCES_KEPT: usize = 256;
/// Hosts and sources named in the synopsis.
const MAX_SOURCES_SHOWN: usize = 6;
/// Distinct messages remembered for grouping: beyond it, new messages are only counted (a log of
/// unique lines must not hold a copy of itself).
const MAX_GROUPS: usize = 20_000;
/// Entries whose messages are all grouped (for the most repeated messages); past them only
/// error entries are (`Scan::entry`).
const GROUPED_ENTRIES: usize = 20_000;
/// Bytes of a message that its grouping key reads.
const KEY_BYTES: usize = 160;

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

// ---- timestamps ---------------------------------------------------------------------------

fn digits(s: &[u8], at: usize, n: usize) -> bool {
    s.len() >= at + n && s[at..at + n].iter().all(u8::is_ascii_digit)
}

fn digit_run(s: &[u8], at: usize) -> usize {
    s.get(at..).map_or(0, |rest| {
        rest.iter().take_while(|b| b.is_ascii_digit()).count()
    })
}

fn is_month(s: &[u8], at: usize) -> bool {
    s.get(at..at + 3).is_some_and(|word| {
        MONTHS
            .iter()
            .any(|month| word.eq_ignore_ascii_case(month.as_bytes()))
    })
}

/// `H:MM:SS` or `HH:MM:SS`, with an optional `.fraction` / `,fraction`; its length.
fn time_len(s: &[u8], at: usize) -> Option<usize> {
    let hours = digit_run(s, at);
    if !(1..=2).contains(&hours) {
        return None;
    }
    let mut end = at + hours;
    for _ in 0..2 {
        if s.get(end) != Some(&b':') || !digits(s, end + 1, 2) {
            return None;
        }
        end += 3;
    }
    if matches!(s.get(end), Some(b'.' | b',')) && digits(s, end + 1, 1) {
        end += 1 + digit_run(s, end + 1);
    }
    Some(end - at)
}

/// A time zone after an ISO time: `Z`, `+02:00`, `-0500`; its length.
fn zone_len(s: &[u8], at: usize) -> usize {
    match s.get(at) {
        Some(b'Z') => 1,
        Some(b'+' | b'-') if digits(s, at + 1, 2) => {
            if s.get(at + 3) == Some(&b':') && digits(s, at + 4, 2) {
                6
            } else if digits(s, at + 3, 2) {
                5
            } else {
                3
            }
        }
        _ => 0,
    }
}

/// `2024-05-14`, `2024/05/14`, then optionally `T` or a space and a time and a zone.
fn iso_len(s: &[u8], at: usize) -> Option<usize> {
    let separator = *s.get(at + 4)?;
    if !digits(s, at, 4)
        || !matches!(separator, b'-' | b'/')
        || !digits(s, at + 5, 2)
        || s.get(at + 7) != Some(&separator)
        || !digits(s, at + 8, 2)
    {
        return None;
    }
    let mut end = at + 10;
    if matches!(s.get(end), Some(b'T' | b' ' | b'_')) {
        if let Some(time) = time_len(s, end + 1).filter(|_| digits(s, end + 1, 2)) {
            end += 1 + time;
            end += zone_len(s, end);
        }
    }
    Some(end - at)
}

/// Syslog's `Dec  1 18:50:06` (optionally with a year after the time).
fn syslog_len(s: &[u8], at: usize) -> Option<usize> {
    if !is_month(s, at) || s.get(at + 3) != Some(&b' ') {
        return None;
    }
    let mut day = at + 4;
    if s.get(day) == Some(&b' ') {
        day += 1;
    }
    let day_digits = digit_run(s, day);
    if !(1..=2).contains(&day_digits) || s.get(day + day_digits) != Some(&b' ') {
        return None;
    }
    let time_at = day + day_digits + 1;
    let mut end = time_at + time_len(s, time_at)?;
    if s.get(end) == Some(&b' ') && digits(s, end + 1, 4) && !digits(s, end + 5, 1) {
        end += 5;
    }
    Some(end - at)
}

/// logcat's `03-17 16:13:38.811` (month-day, then a time).
fn month_day_len(s: &[u8], at: usize) -> Option<usize> {
    if !digits(s, at, 2) || s.get(at + 2) != Some(&b'-') || !digits(s, at + 3, 2) {
        return None;
    }
    if s.get(at + 5) != Some(&b' ') || !digits(s, at + 6, 2) {
        return None;
    }
    Some(6 + time_len(s, at + 6)?)
}

/// A weekday before syslog's form (`Wed Oct 11 14:32:52.123456 2000`, Apache's error log, ctime).
fn weekday_len(s: &[u8], at: usize) -> Option<usize> {
    const DAYS: [&[u8]; 7] = [b"mon", b"tue", b"wed", b"thu", b"fri", b"sat", b"sun"];
    let word = s.get(at..at + 3)?;
    if !DAYS.iter().any(|day| word.eq_ignore_ascii_case(day)) || s.get(at + 3) != Some(&b' ') {
        return None;
    }
    Some(4 + syslog_len(s, at + 4)?)
}

/// Unix epoch seconds (10 digits) or milliseconds (13), optionally with a fraction.
fn epoch_len(s: &[u8], at: usize) -> Option<usize> {
    let run = digit_run(s, at);
    if !(run == 10 || run == 13) || !matches!(s.get(at), Some(b'1')) {
        return None;
    }
    let mut end = at + run;
    if s.get(end) == Some(&b'.') && digits(s, end + 1, 1) {
        end += 1 + digit_run(s, end + 1);
    }
    Some(end - at)
}

/// The access log's `14/May/2024:09:00:01 +0000`.
fn clf_len(s: &[u8], at: usize) -> Option<usize> {
    if !digits(s, at, 2)
        || s.get(at + 2) != Some(&b'/')
        || !is_month(s, at + 3)
        || s.get(at + 6) != Some(&b'/')
        || !digits(s, at + 7, 4)
        || s.get(at + 11) != Some(&b':')
    {
        return None;
    }
    let mut end = at + 12 + time_len(s, at + 12)?;
    if s.get(end) == Some(&b' ') && zone_len(s, end + 1) > 0 {
        end += 1 + zone_len(s, end + 1);
    }
    Some(end - at)
}

/// A timestamp at byte `at` of `s`, bracketed or not, and the bytes it spans (brackets included).
#[inline(never)]
fn timestamp_at(s: &[u8], at: usize) -> Option<(usize, usize)> {
    let bracket = matches!(s.get(at), Some(b'[' | b'('));
    let start = at + usize::from(bracket);
    // Only syslog's form opens with a letter (a month), the others with a digit: most lines of
    // text are given up at their first byte.
    let len = match s.get(start)? {
        b'0'..=b'9' => iso_len(s, start)
            .or_else(|| clf_len(s, start))
            .or_else(|| month_day_len(s, start))
            .or_else(|| epoch_len(s, start))
            .or_else(|| time_len(s, start))?,
        b'a'..=b'z' | b'A'..=b'Z' => syslog_len(s, start).or_else(|| weekday_len(s, start))?,
        _ => return None,
    };
    let mut end = start + len;
    // What follows must end the token: a CSV's `2024-05-14,web-1` is a table row, not a log line.
    if bracket {
        if !matches!(s.get(end), Some(b']' | b')')) {
            return None;
        }
        end += 1;
    }
    match s.get(end) {
        None | Some(b' ' | b'\t' | b'|' | b']' | b':') => Some((start, end)),
        _ => None,
    }
}

/// The text of a timestamp at the start of `line` and what follows it.
fn leading_timestamp(line: &str) -> Option<(&str, &str)> {
    let (start, end) = timestamp_at(line.as_bytes(), 0)?;
    let text = trim_set(&line[start..end], b"])", false, true);
    Some((text, &line[end..]))
}

/// `line` without a leading timestamp (the CI runners' per-line `2024-05-14T09:00:00.12Z `).
pub(crate) fn strip_timestamp(line: &str) -> &str {
    match leading_timestamp(line) {
        Some((_, rest)) => trim_set(rest, b" \t:|", true, false),
        None => line,
    }
}

// ---- levels -------------------------------------------------------------------------------

/// The level a token names: `ERROR`, `[error]`, `<warn>`, `ERROR:root:...`, `level=error`,
/// `"level":"error"`-less logfmt, `[E]`. `letters` allows a bare one-letter level.
/// Bytes a level token is trimmed of (`[ERROR]`, `<warn>`, `(info):`), as a table: every token
/// of every line's first words is trimmed, and a lookup per byte beats a scan of the set.
const LEVEL_PUNCTUATION: [bool; 256] = {
    let mut table = [false; 256];
    let set = b"[]<>():,|";
    let mut i = 0;
    while i < set.len() {
        table[set[i] as usize] = true;
        i += 1;
    }
    table
};

/// `token` without `LEVEL_PUNCTUATION` at either end.
#[inline]
fn trim_level_punctuation(token: &str) -> &str {
    let bytes = token.as_bytes();
    let (mut from, mut to) = (0, bytes.len());
    while from < to && LEVEL_PUNCTUATION[usize::from(bytes[from])] {
        from += 1;
    }
    while to > from && LEVEL_PUNCTUATION[usize::from(bytes[to - 1])] {
        to -= 1;
    }
    &token[from..to]
}

/// `may_hold_equals`: whether the token may hold a `=` (a `level=` field); most lines hold none
/// among their first words, and their tokens need not be searched for one.
#[inline(never)]
fn token_level(token: &str, letters: bool, may_hold_equals: bool) -> Option<usize> {
    let trimmed = trim_level_punctuation(token);
    if may_hold_equals {
        if let Some(value) = logfmt_level(trimmed) {
            return value;
        }
    }
    let bracketed = token.starts_with('[') && token.ends_with(']') && token.len() == 3;
    if trimmed.len() == 1 && (letters || bracketed) {
        return letter_level(trimmed.as_bytes()[0]);
    }
    // (Bytes: a non-ASCII char's first byte is where `char`s would stop too.)
    let word_end = trimmed
        .bytes()
        .position(|b| !b.is_ascii_alphabetic())
        .unwrap_or(trimmed.len());
    // `ERROR:root:msg` (Python's default format) names its level before a ':'; `error.go` does not.
    let (word, after) = trimmed.split_at(word_end);
    if !(after.is_empty() || after.starts_with(':')) {
        return None;
    }
    // Apache 2.4's `[module:level]`: the level after the module.
    if token.starts_with('[') && token.ends_with(']') && !after.is_empty() {
        if let Some(level) = level_word(after_last(trimmed, b':')) {
            return Some(level);
        }
    }
    level_word(word)
}

/// Syslog's `<PRI>` (RFC 3164 and 5424; 5424 adds a version, `<165>1 `): the severity it holds
/// (`PRI % 8`, emergency 0 to debug 7) as a level, and the rest of the line.
fn syslog_priority(line: &str) -> Option<(usize, &str)> {
    let rest = line.strip_prefix('<')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if !(1..=3).contains(&digits) || rest.as_bytes().get(digits) != Some(&b'>') {
        return None;
    }
    let priority: usize = rest[..digits].parse().ok()?;
    let after = &rest[digits + 1..];
    let after = after.strip_prefix("1 ").unwrap_or(after);
    const SEVERITY_LEVELS: [usize; 8] = [FATAL, FATAL, CRITICAL, ERROR, WARN, 4, INFO, 6];
    Some((SEVERITY_LEVELS[priority % 8], after))
}

/// `level=error`, `lvl=warn`, `severity="info"`: `Some(level)` for such a field, `None` otherwise.
fn logfmt_level(token: &str) -> Option<Option<usize>> {
    let equals = find_byte(token.as_bytes(), b'=')?;
    let (key, value) = (&token[..equals], &token[equals + 1..]);
    if !["level", "lvl", "severity", "loglevel"]
        .iter()
        .any(|name| key.eq_ignore_ascii_case(name))
    {
        return None;
    }
    Some(level_word(trim_set(value, b"\"'", true, true)))
}

/// klog's header: a level letter, `MMDD`, a space and a time (`E1201 18:50:06.123456`).
fn klog_level(line: &[u8]) -> Option<(usize, usize)> {
    let level = letter_level(*line.first()?)?;
    if !digits(line, 1, 4) || line.get(5) != Some(&b' ') {
        return None;
    }
    let time = time_len(line, 6)?;
    Some((level, 6 + time))
}

/// The level among the first tokens of `rest` (what follows a line's timestamp), and the message
/// after it.
fn level_and_message(rest: &str, after_timestamp: bool) -> (Option<usize>, &str) {
    let mut tokens = 0;
    let mut position = 0;
    let bytes = rest.as_bytes();
    // Where the line's first `=` is (`usize::MAX`: none), looked for once the first token names
    // no level: a token that ends before it holds none, and past the level tokens only a
    // `level=` field counts.
    let mut first_equals = None;
    while tokens < LOGFMT_TOKENS {
        while position < bytes.len() && matches!(bytes[position], b' ' | b'\t') {
            position += 1;
        }
        if position == bytes.len() {
            break;
        }
        let end = bytes[position..]
            .iter()
            .position(|&b| b == b' ' || b == b'\t')
            .map_or(rest.len(), |at| position + at);
        let token = &rest[position..end];
        let may_hold_equals = tokens == 0
            || end
                > *first_equals.get_or_insert_with(|| find_byte(bytes, b'=').unwrap_or(usize::MAX));
        if tokens >= LEVEL_TOKENS && first_equals == Some(usize::MAX) {
            break;
        }
        let level = if tokens < LEVEL_TOKENS {
            token_level(token, after_timestamp, may_hold_equals)
        } else if may_hold_equals {
            logfmt_level(token).flatten()
        } else {
            None
        };
        if let Some(level) = level {
            return (Some(level), rest[end..].trim_start());
        }
        // Without a timestamp the level must open the line (`ERROR: ...`, `[warn] ...`).
        if !after_timestamp && tokens == 0 && find_byte(token.as_bytes(), b'=').is_none() {
            return (None, rest);
        }
        tokens += 1;
        position = end;
    }
    (None, rest)
}

/// The message of a log entry: what follows its level, past a logger prefix that ends in ` : `
/// (Spring, Logback) or `]: ` when there is one near the start.
fn message_text(after_level: &str) -> &str {
    let head = &after_level.as_bytes()[..after_level.len().min(120)];
    let cut = logger_prefix_end(head);
    let message = match cut {
        Some(at) => &after_level[at..],
        None => after_level,
    };
    trim_set(message, b" -:|", true, false)
}

/// Where a logger prefix ending in ` : ` or `]: ` ends in `head` (the first such, after its
/// space). Found from the colons: most lines hold none or few, and every line is asked.
fn logger_prefix_end(head: &[u8]) -> Option<usize> {
    let mut from = 1;
    while from < head.len() {
        let colon = from + find_byte(&head[from..], b':')?;
        if matches!(head[colon - 1], b' ' | b']') && head.get(colon + 1) == Some(&b' ') {
            return Some(colon + 2);
        }
        from = colon + 1;
    }
    None
}

// ---- access logs --------------------------------------------------------------------------

/// An access-log line (`IP - user [14/May/2024:09:00:01 +0000] "GET /x HTTP/1.1" 200 123 ...`):
/// its timestamp, request (`GET /x`), status and whether referer/agent fields follow.
struct AccessLine<'a> {
    time: &'a str,
    /// The request and its status, `GET /x HTTP/1.1" 502`: what a quoted access line needs (not
    /// the client or its agent), a slice of the line (no copy per line).
    message: &'a str,
    status: u16,
    combined: bool,
}

fn access_line(line: &str) -> Option<AccessLine<'_>> {
    // The client, ident and user fields come first: the timestamp opens within a few dozen bytes.
    let open = find_byte(&line.as_bytes()[..line.len().min(80)], b'[')?;
    let bytes = line.as_bytes();
    let time_len = clf_len(bytes, open + 1)?;
    let time = &line[open + 1..open + 1 + time_len];
    let rest = line[open + 1 + time_len..].strip_prefix("] \"")?;
    let close = rest.find('"')?;
    let request_line = &rest[..close];
    let method_end = request_line.find(' ').unwrap_or(request_line.len());
    let method = &request_line[..method_end];
    if method.is_empty() || method.len() > 8 || !method.bytes().all(|b| b.is_ascii_uppercase()) {
        return None;
    }
    let after = rest[close + 1..].strip_prefix(' ')?.as_bytes();
    if !digits(after, 0, 3) || !matches!(after.get(3), Some(b' ') | None) {
        return None;
    }
    let status = u16::from(after[0] - b'0') * 100
        + u16::from(after[1] - b'0') * 10
        + u16::from(after[2] - b'0');
    let message_start = line.len() - rest.len();
    let message = &line[message_start..message_start + close + 5];
    let combined = rest[close + 1..]
        .bytes()
        .filter(|&b| b == b'"')
        .take(4)
        .count()
        == 4;
    Some(AccessLine {
        time,
        message,
        status,
        combined,
    })
}

// ---- exceptions ---------------------------------------------------------------------------

/// The exception class a stack-trace line names: `java.sql.SQLException: msg`,
/// `Caused by: x.YError: msg`, Python's `ValueError: msg` (at the line's start).
fn exception_name(line: &str) -> Option<&str> {
    let line = line.strip_prefix("Caused by: ").unwrap_or(line);
    let end = line
        .bytes()
        .position(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'$')))
        .unwrap_or(line.len());
    let name = &line[..end];
    if !matches!(line.as_bytes().get(end), None | Some(b':')) {
        return None;
    }
    let simple = after_last(name, b'.');
    (simple.starts_with(|c: char| c.is_ascii_uppercase())
        && ["Exception", "Error", "Throwable", "Panic"]
            .iter()
            .any(|suffix| simple.ends_with(suffix)))
    .then_some(name)
}

// ---- grouping -----------------------------------------------------------------------------

/// Writes a message's grouping key into `key`: every word holding a digit becomes `#`, so
/// `order ORD-47029 took 31 ms` and `order ORD-50000 took 9 ms` group; hex ids and UUIDs hold
/// digits too. Bytes, not chars: words break only at ASCII punctuation and spaces, so non-ASCII
/// letters stay inside words.
fn group_key(message: &str, key: &mut Vec<u8>) {
    let head = &message.as_bytes()[..floor_char_boundary(message, KEY_BYTES)];
    key.clear();
    let mut word_start = 0;
    let mut word_has_digit = false;
    let flush = |key: &mut Vec<u8>, word: &[u8], has_digit: bool| {
        if has_digit {
            key.push(b'#');
        } else {
            key.extend_from_slice(word);
        }
    };
    for (i, &b) in head.iter().enumerate() {
        if b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80 {
            word_has_digit |= b.is_ascii_digit();
            continue;
        }
        flush(key, &head[word_start..i], word_has_digit);
        key.push(b);
        word_start = i + 1;
        word_has_digit = false;
    }
    flush(key, &head[word_start..], word_has_digit);
}

struct Group {
    count: usize,
    /// Of `count`, the entries among the log's first `GROUPED_ENTRIES`.
    sampled: usize,
    first_line: usize,
    level: Option<usize>,
    text: String,
}

#[derive(Default)]
struct Groups {
    // Every entry's key is looked up: FxHash, not SipHash (the map type the code analyzer has).
    by_key: HashMap<String, usize, BuildHasherDefault<FxHasher>>,
    groups: Vec<Group>,
    /// The key being built, reused from line to line.
    key: Vec<u8>,
}

impl Groups {
    /// Counts an entry's message; `sampled` when the entry is among the first
    /// `GROUPED_ENTRIES`.
    fn add(&mut self, level: Option<usize>, message: &str, line: usize, sampled: bool) {
        group_key(message, &mut self.key);
        if let Some(level) = level {
            self.key.extend_from_slice(LEVELS[level].as_bytes());
        }
        self.add_key(level, message, line, sampled);
    }

    /// Counts a name as it is (an exception class: no numbers to fold).
    fn add_name(&mut self, name: &str, line: usize) {
        self.key.clear();
        self.key
            .extend_from_slice(&name.as_bytes()[..floor_char_boundary(name, KEY_BYTES)]);
        self.add_key(None, name, line, true);
    }

    fn add_key(&mut self, level: Option<usize>, message: &str, line: usize, sampled: bool) {
        // Words break only at ASCII bytes, so the key is whole chars.
        let key = std::str::from_utf8(&self.key).unwrap_or("");
        if let Some(&index) = self.by_key.get(key) {
            let group = &mut self.groups[index];
            group.count += 1;
            group.sampled += usize::from(sampled);
        } else if self.groups.len() < MAX_GROUPS {
            self.by_key.insert(key.to_string(), self.groups.len());
            self.groups.push(Group {
                count: 1,
                sampled: usize::from(sampled),
                first_line: line,
                level,
                text: bounded_one_line(message, GROUP_CHARS),
            });
        }
    }

    /// The groups that pass `keep`, most frequent first (ties: first seen first).
    fn ranked(&self, keep: fn(&Group) -> bool) -> Vec<&Group> {
        self.ranked_by(keep, |group| group.count)
    }

    /// The groups that pass `keep`, highest `count` first (ties: first seen first).
    fn ranked_by(&self, keep: fn(&Group) -> bool, count: fn(&Group) -> usize) -> Vec<&Group> {
        let mut ranked = Vec::new();
        for group in &self.groups {
            if keep(group) {
                ranked.push(group);
            }
        }
        stable_sort_by(&mut ranked, |a, b| count(b).cmp(&count(a)));
        ranked
    }

    /// `name count, name count, ...` of the `max` most frequent.
    fn counts(&self, max: usize) -> String {
        let mut line = String::new();
        for group in self.ranked(|_| true).into_iter().take(max) {
            if !line.is_empty() {
                line.push_str(", ");
            }
            line.push_str(&group.text);
            line.push(' ');
            line.push_str(&group.count.to_string());
        }
        line
    }
}

// ---- the scan -----------------------------------------------------------------------------

/// The shape a line was read as.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Access,
}

/// What one pass over the lines gathers.
#[derive(Default)]
struct Scan<'a> {
    lines: usize,
    non_blank: usize,
    /// Lines that start with a timestamp or a level, and access lines.
    entries: usize,
    /// Lines of a stack trace or an indented multi-line message.
    continuation: usize,
    /// Lines of neither an entry's nor a continuation's form.
    other: usize,
    with_level: usize,
    timestamped: usize,
    access_lines: usize,
    combined: usize,
    level_counts: [usize; 8],
    first: [Option<(usize, String)>; 8],
    last: [Option<(usize, Cow<'a, str>)>; 8],
    first_time: Option<&'a str>,
    last_time: Option<&'a str>,
    groups: Groups,
    exceptions: Groups,
    root_causes: Groups,
    /// The last exception of the stack trace being read: its root cause.
    trace_last: Option<(usize, &'a str)>,
    /// Requests per status code (100-599).
    statuses: Vec<usize>,
    /// Lines per format grammar (`log_grammar`), and the hosts and sources those lines name.
    grammars: [usize; GRAMMARS],
    hosts: Counter,
    sources: Counter,
    /// Entries without a level whose message holds a failure word, by source and opening words.
    failures: Groups,
    failure_lines: usize,
    first_failure: Option<(usize, String)>,
    /// journald's `-- Boot <id> --` / `-- Reboot --` lines: their line numbers.
    boots: Vec<usize>,
}

impl<'a> Scan<'a> {
    fn end_trace(&mut self) {
        if let Some((line, root)) = self.trace_last.take() {
            self.root_causes.add_name(root, line);
        }
    }

    fn see_time(&mut self, time: &'a str) {
        if self.first_time.is_none() {
            self.first_time = Some(time);
        }
        self.last_time = Some(time);
    }

    fn entry(&mut self, number: usize, level: Option<usize>, message: impl Into<Cow<'a, str>>) {
        let message: Cow<'a, str> = message.into();
        self.entries += 1;
        self.end_trace();
        if let Some(level) = level {
            self.with_level += 1;
            self.level_counts[level] += 1;
            if self.first[level].is_none() {
                self.first[level] = Some((number, bounded_one_line(&message, LINE_CHARS)));
            }
            // Quoted later (only the last one is): kept borrowed when the line holds it.
            self.last[level] = Some((number, message.clone()));
        }
        // Messages are grouped on every error entry (the error groups are exact) and on the
        // first `GROUPED_ENTRIES` of the others (the most repeated messages are counted there):
        // grouping is most of a line's cost, and a long log repeats its messages early.
        let sampled = self.entries <= GROUPED_ENTRIES;
        if sampled || level.is_some_and(|level| level <= ERROR) {
            self.groups.add(level, &message, number, sampled);
        }
    }

    /// An entry read by a format's grammar: its level is the grammar's, else the one among the
    /// first words (`fallback_level`).
    fn grammar_entry(
        &mut self,
        number: usize,
        entry: log_grammar::Entry<'a>,
        fallback_level: impl FnOnce() -> Option<usize>,
    ) {
        self.grammars[entry.grammar as usize] += 1;
        if let Some(host) = entry.host {
            self.hosts.add(host, MAX_SOURCES_KEPT);
        }
        if let Some(source) = entry.source {
            self.sources.add(source, MAX_SOURCES_KEPT);
        }
        let level = entry.level.or_else(fallback_level);
        let message = trim_set(entry.message, b" \t", true, true);
        if level.is_none() && log_grammar::failure_word(message) {
            self.failure_lines += 1;
            let key = log_grammar::failure_key(entry.source, message);
            if self.first_failure.is_none() {
                self.first_failure = Some((number, bounded_one_line(&key.1, LINE_CHARS)));
            }
            self.failures.add_name(&key.0, number);
        }
        self.entry(number, level, message);
    }

    fn line(&mut self, number: usize, line: &'a str) {
        self.lines += 1;
        if line.trim().is_empty() {
            return;
        }
        self.non_blank += 1;
        if let Some(access) = access_line(line) {
            self.access_lines += 1;
            self.combined += usize::from(access.combined);
            self.see_time(access.time);
            if self.statuses.is_empty() {
                self.statuses = vec![0; 600];
            }
            self.statuses[usize::from(access.status).min(599)] += 1;
            // Server errors count as errors, client errors as warnings (`LEVEL_LABELS`).
            let level = match access.status {
                500.. => ERROR,
                400..=499 => WARN,
                _ => INFO,
            };
            return self.entry(number, Some(level), access.message);
        }
        if let Some((level, rest)) = syslog_priority(line) {
            self.timestamped += 1;
            let after = match leading_timestamp(rest) {
                Some((time, after)) => {
                    self.see_time(time);
                    after
                }
                None => rest,
            };
            // RFC 5424 follows its `<PRI>` with a version, `1`.
            let rfc5424 =
                rest.len() + 2 < line.len() && line[..line.len() - rest.len()].ends_with(">1 ");
            let parsed = if rfc5424 {
                log_grammar::rfc5424(after)
            } else {
                log_grammar::rfc3164(after)
            };
            if let Some(entry) = parsed {
                return self.grammar_entry(number, entry, || Some(level));
            }
            return self.entry(number, Some(level), message_text(after.trim_start()));
        }
        if let Some((level, end)) = klog_level(line.as_bytes()) {
            self.timestamped += 1;
            self.see_time(&line[1..end]);
            if let Some(entry) = log_grammar::klog(&line[end..]) {
                return self.grammar_entry(number, entry, || Some(level));
            }
            let message = message_text(line[end..].trim_start());
            return self.entry(number, Some(level), message);
        }
        if let Some((time, rest)) = leading_timestamp(line) {
            self.timestamped += 1;
            self.see_time(time);
            if let Some(entry) = log_grammar::after_timestamp(rest) {
                return self.grammar_entry(number, entry, || level_and_message(rest, true).0);
            }
            let (level, after) = level_and_message(rest, true);
            return self.entry(number, level, message_text(after));
        }
        if let Some(entry) = log_grammar::logcat_brief(line) {
            return self.grammar_entry(number, entry, || None);
        }
        if log_grammar::boot_marker(line) {
            self.boots.push(number);
            self.continuation += 1;
            return;
        }
        if !line.starts_with([' ', '\t']) {
            if let (Some(level), after) = level_and_message(line, false) {
                return self.entry(number, Some(level), message_text(after));
            }
        }
        // A continuation line: a stack trace, a multi-line message (indented, or a trace's
        // own lines). Anything else is not of the log's grammar (rows of a table the log
        // dumped, prose), counted apart.
        let trimmed = line.trim_start();
        let exception = exception_name(trimmed);
        if line.starts_with([' ', '\t'])
            || [
                "Caused by",
                "Traceback",
                "at ",
                "...",
                "File \"",
                "goroutine ",
                "panic:",
            ]
            .iter()
            .any(|start| trimmed.starts_with(start))
            || exception.is_some()
        {
            self.continuation += 1;
        } else {
            self.other += 1;
        }
        if let Some(name) = exception {
            // The class without its package: the name a reader searches for, in fewer chars.
            let simple = after_last(name, b'.');
            self.exceptions.add_name(simple, number);
            self.trace_last = Some((number, simple));
        }
    }

    fn format(&self) -> Option<Format> {
        let majority = |n: usize| n >= 3 && n * 2 >= self.non_blank;
        // The log's grammar (entries and their continuations) holds on most lines.
        if self.other * 2 > self.non_blank {
            return None;
        }
        if majority(self.access_lines) {
            Some(Format::Access)
        } else if (self.with_level >= 3 && self.with_level * 5 >= self.non_blank)
            || (majority(self.timestamped) && self.with_level > 0)
            // Lines led by a timestamp on three quarters of the lines: a log without levels
            // (syslog, Go's `log` package).
            || (self.timestamped >= 5 && self.timestamped * 4 >= self.non_blank * 3)
        {
            Some(Format::Text)
        } else {
            None
        }
    }
}

fn scan_lines(output: &str) -> Scan<'_> {
    let mut scan = Scan::default();
    for (index, line) in lines(output).enumerate() {
        scan.line(index + 1, line.strip_suffix('\r').unwrap_or(line));
    }
    scan.end_trace();
    scan
}

/// `code count, ...` of the most frequent status codes, most frequent first (ties: lower code).
fn status_counts(statuses: &[usize]) -> String {
    let mut codes = Vec::new();
    for (code, &count) in statuses.iter().enumerate().skip(100) {
        if count > 0 {
            codes.push(code);
        }
    }
    stable_sort_by(&mut codes, |a, b| statuses[*b].cmp(&statuses[*a]));
    let mut line = String::new();
    for code in codes.into_iter().take(MAX_STATUS_CODES) {
        line.push_str(&format!("{code} {}, ", statuses[code]));
    }
    line.truncate(line.len().saturating_sub(2));
    line
}

/// The format whose grammar most entries follow (when most do), and the hosts and sources its
/// lines name: `Format: syslog (RFC 3164) / journald short, 480 of 500 entries.`,
/// `Programs: sshd 40, cron 12, others 3.`
fn grammar_lines(scan: &Scan<'_>, summary: &mut Vec<String>) {
    let Some(grammar) = Grammar::ALL
        .into_iter()
        .max_by_key(|&grammar| scan.grammars[grammar as usize])
    else {
        return;
    };
    let lines = scan.grammars[grammar as usize];
    if lines == 0 || lines * 2 < scan.entries {
        return;
    }
    summary.push(format!(
        "Format: {}, {lines} of {} entries.",
        grammar.name(),
        scan.entries
    ));
    if !scan.boots.is_empty() {
        let shown: Vec<String> = scan.boots.iter().take(5).map(usize::to_string).collect();
        summary.push(format!(
            "Boots: {} journal boot markers (-- Boot ... --), at line {}.",
            scan.boots.len(),
            shown.join(", ")
        ));
    }
    if let Some(first) = &scan.first_failure {
        summary.push(format!(
            "Lines without a level naming a failure (fail, error, denied, ...): {}; first: {}",
            scan.failure_lines,
            quoted_line(first)
        ));
        let groups = scan.failures.ranked(|_| true);
        let shown: Vec<String> = groups
            .iter()
            .take(MAX_ERROR_GROUPS)
            .map(|g| format!("{}x {} (first line {})", g.count, g.text, g.first_line))
            .collect();
        summary.push(format!(
            "By source and opening words: {}.",
            shown.join("; ")
        ));
    }
    for (label, counter) in [
        ("Hosts", &scan.hosts),
        (grammar.source_label(), &scan.sources),
    ] {
        if counter.values.is_empty() {
            continue;
        }
        let (mut parts, rest) = counter.top(MAX_SOURCES_SHOWN, 40);
        if rest > 0 {
            parts.push(format!("others {rest}"));
        }
        let distinct = if counter.other > 0 {
            format!("over {MAX_SOURCES_KEPT}")
        } else {
            counter.values.len().to_string()
        };
        summary.push(format!(
            "{label} ({distinct} distinct): {}.",
            parts.join(", ")
        ));
    }
}

#[inline(never)]
fn quoted_line((number, text): &(usize, String)) -> String {
    format!("line {number}: {text}")
}

/// The synopsis of a log, or `None` when `output` is not line-oriented log output: most lines
/// must be access-log lines, or at least a fifth of them must carry
/// a level (or most of them a timestamp, and some a level).
pub fn synopsis(output: &str) -> Option<Synopsis> {
    // Most outputs are not logs: a look at both ends decides that without reading the middle.
    if output.len() > 2 * PROBE_BYTES
        && probes(output)
            .iter()
            .all(|probe| scan_lines(probe).format().is_none())
    {
        return None;
    }
    let mut scan = scan_lines(output);
    // A final newline ends the last line; it does not start another (as `wc -l` counts).
    if output.ends_with('\n') {
        scan.lines -= 1;
    }
    let format = scan.format()?;
    let (kind_title, what) = match format {
        Format::Access if scan.combined * 2 >= scan.access_lines => {
            ("HTTP access log", "HTTP access log (combined format)")
        }
        Format::Access => ("HTTP access log", "HTTP access log (common log format)"),
        Format::Text => ("Log output", "Log"),
    };
    let mut synopsis = Synopsis::new("log", kind_title);
    let summary = &mut synopsis.summary;
    summary.push(match format {
        Format::Access => format!("{what}: {} requests in {} lines.", scan.access_lines, scan.lines),
        Format::Text if scan.other > 0 => format!(
            "{what}: {} lines, {} entries, {} continuation lines (stack traces, multi-line messages), {} other lines.",
            scan.lines, scan.entries, scan.continuation, scan.other
        ),
        Format::Text => format!(
            "{what}: {} lines, {} entries, {} continuation lines (stack traces, multi-line messages).",
            scan.lines, scan.entries, scan.continuation
        ),
    });
    if let (Some(first), Some(last)) = (scan.first_time, scan.last_time) {
        summary.push(format!(
            "Time span: {} .. {}.",
            bounded_one_line(first, 40),
            bounded_one_line(last, 40)
        ));
    }
    if format == Format::Text {
        grammar_lines(&scan, summary);
    }
    // An access log's levels are status classes.
    let labels = if format == Format::Access {
        ACCESS_LABELS
    } else {
        LEVELS
    };
    if format == Format::Access {
        summary.push(format!(
            "Status codes: {}; 5xx server errors: {}.",
            status_counts(&scan.statuses),
            scan.level_counts[ERROR]
        ));
    } else if scan.with_level == 0 {
        summary.push("Levels: none named on the lines.".to_string());
    } else {
        let mut line = "Levels:".to_string();
        for (level, &count) in scan.level_counts.iter().enumerate().take(LEVELS.len()) {
            if count > 0 {
                line.push_str(&format!(" {} {},", labels[level], count));
            }
        }
        line.pop();
        line.push('.');
        summary.push(line);
    }
    for level in [FATAL, CRITICAL, ERROR, WARN] {
        let Some(first) = &scan.first[level] else {
            continue;
        };
        summary.push(format!("First {}: {}", labels[level], quoted_line(first)));
        if let Some((number, text)) = &scan.last[level] {
            if *number != first.0 {
                let last = (*number, bounded_one_line(text, LINE_CHARS));
                summary.push(format!("Last {}: {}", labels[level], quoted_line(&last)));
            }
        }
    }
    let error_groups = scan
        .groups
        .ranked(|g| g.level.is_some_and(|level| level <= ERROR));
    if error_groups.len() > 1 {
        let label = if format == Format::Access {
            "5xx requests"
        } else {
            "Error messages"
        };
        synopsis.structure.push(format!(
            "{label} by count ({} distinct):",
            error_groups.len()
        ));
        for g in error_groups.iter().take(MAX_ERROR_GROUPS) {
            synopsis.structure.push(format!(
                "{}x, first line {}: {}",
                g.count, g.first_line, g.text
            ));
        }
    }
    if !scan.exceptions.groups.is_empty() {
        synopsis.structure.push(format!(
            "Root causes (last exception of each stack trace): {}; all exceptions: {}.",
            scan.root_causes.counts(MAX_EXCEPTIONS),
            scan.exceptions.counts(MAX_EXCEPTIONS)
        ));
    }
    let repeated = scan.groups.ranked_by(|g| g.sampled > 1, |g| g.sampled);
    if !repeated.is_empty() {
        synopsis.notable_items.push(if scan.entries > GROUPED_ENTRIES {
            format!("Most repeated messages in the first {GROUPED_ENTRIES} entries (numbers and ids vary):")
        } else {
            "Most repeated messages (numbers and ids vary):".to_string()
        });
        for g in repeated.iter().take(MAX_REPEATED) {
            let level = g.level.map_or("", |level| labels[level]);
            let space = if level.is_empty() { "" } else { " " };
            synopsis
                .notable_items
                .push(format!("{}x {level}{space}{}", g.sampled, g.text));
        }
    }
    Some(synopsis)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_support::synopsis_text as text;

    /// `timestamp_at` as first written, every form tried whatever the first byte: the oracle of
    /// its first-byte dispatch.
    fn timestamp_at_every_form(s: &[u8], at: usize) -> Option<(usize, usize)> {
        let bracket = matches!(s.get(at), Some(b'[' | b'('));
        let start = at + usize::from(bracket);
        let len = iso_len(s, start)
            .or_else(|| syslog_len(s, start))
            .or_else(|| weekday_len(s, start))
            .or_else(|| clf_len(s, start))
            .or_else(|| month_day_len(s, start))
            .or_else(|| epoch_len(s, start))
            .or_else(|| time_len(s, start))?;
        let mut end = start + len;
        if bracket {
            if !matches!(s.get(end), Some(b']' | b')')) {
                return None;
            }
            end += 1;
        }
        match s.get(end) {
            None | Some(b' ' | b'\t' | b'|' | b']' | b':') => Some((start, end)),
            _ => None,
        }
    }

    #[test]
    fn lines_split_at_every_newline_across_blocks() {
        let long = format!(
            "{}\n{}\n\n{}",
            "a".repeat(31),
            "b".repeat(32),
            "c".repeat(70)
        );
        for text in [
            "",
            "\n",
            "\n\n",
            "a",
            "a\n",
            "\na",
            "é\né\n",
            long.as_str(),
            &long[..64],
            &long[..65],
        ] {
            assert_eq!(
                lines(text).collect::<Vec<_>>(),
                text.split('\n').collect::<Vec<_>>(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn timestamps_are_read_as_every_form_reads_them() {
        for line in [
            "2024-05-14T09:00:00Z x",
            "Dec  1 18:50:06 h",
            "dec 1 1:00:00 x",
            "14/May/2024:09:00:01 +0000] x",
            "1717400000 x",
            "9:00:01 x",
            "[09:00:01] x",
            "(Dec  1 18:50:06) x",
            "[",
            "",
            "Decx",
            "é 1",
        ] {
            assert_eq!(
                timestamp_at(line.as_bytes(), 0),
                timestamp_at_every_form(line.as_bytes(), 0),
                "{line:?}"
            );
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::super::{logger_prefix_end, timestamp_at};
        use super::timestamp_at_every_form;
        use proptest::prelude::*;

        /// The rule `level_and_message` implements, with every token searched for a `level=`
        /// field.
        fn level_and_message_searching_every_token(
            rest: &str,
            after_timestamp: bool,
        ) -> (Option<usize>, &str) {
            use super::super::{logfmt_level, token_level, LEVEL_TOKENS, LOGFMT_TOKENS};
            let mut position = 0;
            let bytes = rest.as_bytes();
            for tokens in 0..LOGFMT_TOKENS {
                while position < bytes.len() && matches!(bytes[position], b' ' | b'\t') {
                    position += 1;
                }
                if position == bytes.len() {
                    break;
                }
                let end = bytes[position..]
                    .iter()
                    .position(|&b| b == b' ' || b == b'\t')
                    .map_or(rest.len(), |at| position + at);
                let token = &rest[position..end];
                let level = if tokens < LEVEL_TOKENS {
                    token_level(token, after_timestamp, true)
                } else {
                    logfmt_level(token).flatten()
                };
                if let Some(level) = level {
                    return (Some(level), rest[end..].trim_start());
                }
                if !after_timestamp && tokens == 0 && !token.contains('=') {
                    return (None, rest);
                }
                position = end;
            }
            (None, rest)
        }

        /// The rule `logger_prefix_end` implements, as a scan of every 3-byte window.
        fn logger_prefix_end_by_windows(head: &[u8]) -> Option<usize> {
            head.windows(3)
                .position(|w| w == b" : " || w == b"]: ")
                .map(|at| at + 3)
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

            #[test]
            fn level_and_message_agrees_with_searching_every_token(
                rest in "(ERROR|warn|level=error|lvl=info|x=1|\\[E\\]|INFO:|E|a=b=c|=| |\t|word|[a-z=]){0,16}",
                after_timestamp: bool,
            ) {
                prop_assert_eq!(
                    super::super::level_and_message(&rest, after_timestamp),
                    level_and_message_searching_every_token(&rest, after_timestamp)
                );
            }

            #[test]
            fn logger_prefix_end_agrees_with_the_window_scan(head in "[ :\\]a]{0,24}") {
                prop_assert_eq!(
                    logger_prefix_end(head.as_bytes()),
                    logger_prefix_end_by_windows(head.as_bytes())
                );
            }

            /// Each form of timestamp cut anywhere and followed by timestamps' pieces, read at
            /// any offset.
            #[test]
            fn timestamp_at_reads_what_every_form_reads(
                form in prop::sample::select(vec![
                    "2024-05-14T09:00:00.412+02:00", "[2024/05/14 09:00:00,4Z]", "dec  1 18:50:06 2024",
                    "(Dec 1 8:50:06)", "14/May/2024:09:00:01 +0000", "1717400000123.5", "09:00:01.5",
                ]),
                cut in 0usize..32,
                tail in r"(2024|0?9|1|Dec|x|é|[-/:.,T_Z+ |\])]){0,4}",
                at in 0usize..3,
            ) {
                let line = format!("{}{tail}", &form[..cut.min(form.len())]);
                prop_assert_eq!(timestamp_at(line.as_bytes(), at), timestamp_at_every_form(line.as_bytes(), at));
            }

        }
    }

    #[test]
    fn timestamps_of_common_forms() {
        for (line, time) in [
            (
                "2024-05-14T09:00:00.412+02:00  INFO x",
                "2024-05-14T09:00:00.412+02:00",
            ),
            ("2024-05-14 09:00:00,412 ERROR x", "2024-05-14 09:00:00,412"),
            ("[2024-05-14T09:00:00Z] warn", "2024-05-14T09:00:00Z"),
            ("Dec  1 18:50:06 host sshd[1]: x", "Dec  1 18:50:06"),
            ("1717400000.123 INFO x", "1717400000.123"),
            ("1717400000123 INFO x", "1717400000123"),
            ("09:00:01.5 DEBUG x", "09:00:01.5"),
        ] {
            assert_eq!(
                leading_timestamp(line).map(|(t, _)| t),
                Some(time),
                "{line}"
            );
        }
        for line in [
            "2024-05-14,web-1,ERROR",
            "12345 INFO",
            "Decimal 1 18:50:06",
            "99:9:99 x",
        ] {
            assert_eq!(leading_timestamp(line), None, "{line}");
        }
    }

    #[test]
    fn levels_in_their_common_forms() {
        for (rest, level) in [
            (" ERROR 4127 --- [main] a.B : boom", ERROR),
            (" [warn] disk", WARN),
            (" <info> ok", 5),
            (" level=error msg=x", ERROR),
            (" host=a lvl=debug msg=x", 6),
            (" [E] x", ERROR),
            (" 123 456 W Tag: x", WARN),
            (" ERROR:root:x", ERROR),
            (" CRITICAL x", CRITICAL),
            (" Fatal: x", FATAL),
        ] {
            assert_eq!(level_and_message(rest, true).0, Some(level), "{rest}");
        }
        // A level word deep in the message is not the line's level.
        assert_eq!(level_and_message(" user a b c d got error", true).0, None);
        assert_eq!(level_and_message("Errors were found", false).0, None);
        assert_eq!(level_and_message("[warn] disk", false).0, Some(WARN));
        assert_eq!(
            klog_level(b"E1201 18:50:06.123456 1 x.go:12] boom").map(|l| l.0),
            Some(ERROR)
        );
    }

    #[test]
    fn messages_skip_a_logger_prefix() {
        assert_eq!(
            message_text("4127 --- [main] c.a.Svc   : Failed x"),
            "Failed x"
        );
        assert_eq!(message_text("plain message"), "plain message");
    }

    fn app_log() -> String {
        let mut lines = vec!["banner line".to_string()];
        for i in 0..20 {
            lines.push(format!(
                "2024-05-14T09:00:{i:02}Z INFO 1 --- [main] a.Web : GET /orders/ORD-{} -> 200",
                1000 + i
            ));
        }
        lines.push("2024-05-14T09:01:00Z WARN 1 --- [main] a.Pool : pool at 90%".into());
        lines.push(
            "2024-05-14T09:01:01Z ERROR 1 --- [main] a.Svc : Failed order ORD-7: pool exhausted"
                .into(),
        );
        lines.push("org.x.TxException: could not open".into());
        lines.push("\tat org.x.A.b(A.java:1)".into());
        lines.push("Caused by: java.sql.SQLTransientConnectionException: timeout".into());
        lines.push(
            "2024-05-14T09:01:02Z ERROR 1 --- [main] a.Pay : Payment provider returned 503".into(),
        );
        lines.push("com.a.PaymentProviderException: Payment provider returned 503".into());
        lines.push(
            "2024-05-14T09:01:03Z ERROR 1 --- [main] a.Svc : Failed order ORD-8: pool exhausted"
                .into(),
        );
        lines.join("\n") + "\n"
    }

    #[test]
    fn counts_levels_and_quotes_first_and_last_lines() {
        let s = synopsis(&app_log()).expect("a log");
        assert_eq!(s.kind, "log");
        let all = text(&s);
        assert!(all.contains("Levels: ERROR 3, WARN 1, INFO 20."), "{all}");
        assert!(
            all.contains("First ERROR: line 23: Failed order ORD-7: pool exhausted"),
            "{all}"
        );
        assert!(
            all.contains("Last ERROR: line 29: Failed order ORD-8"),
            "{all}"
        );
        assert!(all.contains("First WARN: line 22: pool at 90%"), "{all}");
        assert!(
            all.contains("Time span: 2024-05-14T09:00:00Z .. 2024-05-14T09:01:03Z."),
            "{all}"
        );
        assert!(all.contains("Log: 29 lines, 24 entries"), "{all}");
    }

    #[test]
    fn past_the_grouped_entries_only_errors_are_grouped_and_the_repeats_say_so() {
        let mut log = String::new();
        for i in 0..30_000 {
            let time = format!("2024-05-01T12:{:02}:{:02}Z", (i / 60) % 60, i % 60);
            if i % 2_000 == 999 {
                log.push_str(&format!("{time} ERROR db timeout after {i} ms\n"));
            } else if i % 2_000 == 1_999 {
                log.push_str(&format!("{time} ERROR queue full, {i} jobs dropped\n"));
            } else if i < 10_000 {
                log.push_str(&format!("{time} INFO request {i} served\n"));
            } else {
                log.push_str(&format!("{time} INFO cache refreshed for {i}\n"));
            }
        }
        let all = text(&synopsis(&log).unwrap());
        // Every error is grouped, past the sample too; the repeats are counted in the sample.
        assert!(
            all.contains("15x, first line 1000: db timeout")
                && all.contains("15x, first line 2000: queue full"),
            "{all}"
        );
        assert!(
            all.contains("Most repeated messages in the first 20000 entries"),
            "{all}"
        );
        assert!(all.contains("9990x INFO cache refreshed"), "{all}");
        assert!(all.contains("9990x INFO request 0 served"), "{all}");
        assert!(all.contains("Levels: ERROR 30, INFO 29970."), "{all}");
    }

    #[test]
    fn groups_errors_and_repeats_with_numbers_normalised() {
        let s = synopsis(&app_log()).unwrap();
        let all = text(&s);
        assert!(
            all.contains("Error messages by count (2 distinct):"),
            "{all}"
        );
        assert!(
            all.contains("2x, first line 23: Failed order ORD-7: pool exhausted"),
            "{all}"
        );
        assert!(
            all.contains("1x, first line 27: Payment provider returned 503"),
            "{all}"
        );
        assert!(
            all.contains("20x INFO GET /orders/ORD-1000 -> 200"),
            "{all}"
        );
    }

    #[test]
    fn exceptions_and_their_root_causes() {
        let all = text(&synopsis(&app_log()).unwrap());
        assert!(all.contains("Root causes (last exception of each stack trace): SQLTransientConnectionException 1, PaymentProviderException 1; all exceptions: TxException 1, SQLTransientConnectionException 1, PaymentProviderException 1."), "{all}");
        assert_eq!(exception_name("ValueError: bad"), Some("ValueError"));
        assert_eq!(exception_name("Errors: 3"), None);
        assert_eq!(exception_name("java.lang.Error"), Some("java.lang.Error"));
    }

    #[test]
    fn access_logs_count_requests_and_server_errors() {
        let mut lines = Vec::new();
        for (i, status) in [200, 200, 502, 404, 200, 502, 500, 301].iter().enumerate() {
            lines.push(format!(
                "10.0.0.{i} - - [14/May/2024:09:00:0{i} +0000] \"GET /p/{i} HTTP/1.1\" {status} 12 \"-\" \"curl/8\""
            ));
        }
        let s = synopsis(&lines.join("\n")).expect("an access log");
        let all = text(&s);
        assert!(
            all.contains("HTTP access log (combined format): 8 requests in 8 lines."),
            "{all}"
        );
        assert!(
            all.contains("Status codes: 200 3, 502 2, 301 1, 404 1, 500 1; 5xx server errors: 3."),
            "{all}"
        );
        assert!(
            all.contains("First 4xx: line 4: GET /p/3 HTTP/1.1\" 404"),
            "{all}"
        );
        assert!(
            all.contains("First 5xx: line 3: GET /p/2 HTTP/1.1\" 502"),
            "{all}"
        );
        assert!(
            all.contains("Last 5xx: line 7: GET /p/6 HTTP/1.1\" 500"),
            "{all}"
        );
        assert!(
            all.contains("Time span: 14/May/2024:09:00:00 +0000 .. 14/May/2024:09:00:07 +0000."),
            "{all}"
        );
    }

    #[test]
    fn syslog_and_klog_lines() {
        let syslog = "Dec  1 18:50:06 host sshd[1]: error: auth failed\nDec  1 18:50:07 host cron[2]: info: ran\nDec  1 18:50:08 host cron[2]: info: ran\n";
        let all = text(&synopsis(syslog).expect("syslog"));
        assert!(
            all.contains("Time span: Dec  1 18:50:06 .. Dec  1 18:50:08.")
                || all.contains("Time span: Dec 1 18:50:06 .. Dec 1 18:50:08."),
            "{all}"
        );
        let klog = "I1201 18:50:06.1 1 a.go:1] start\nE1201 18:50:07.2 1 a.go:2] failed to sync\nI1201 18:50:08.3 1 a.go:3] ok\n";
        let all = text(&synopsis(klog).expect("klog"));
        assert!(all.contains("First ERROR: line 2:"), "{all}");
    }

    #[test]
    fn not_a_log() {
        for output in [
            "just some prose\nwith a few lines\nand no levels\n",
            "ts,host,level\n2024-05-14T09:00:00Z,a,ERROR\n2024-05-14T09:00:01Z,b,INFO\n2024-05-14T09:00:02Z,c,INFO\n",
            "def f():\n    ERROR = 1\n    WARN = 2\n    return ERROR\n",
            "",
        ] {
            assert!(synopsis(output).is_none(), "{output:?}");
        }
    }

    #[test]
    fn hostile_inputs_stay_linear() {
        let big =
            "[".repeat(1_000_000) + &"2024-".repeat(200_000) + &"{\"level\":\"".repeat(100_000);
        let _ = synopsis(&big);
        let long_lines = format!("{}\n", "ERROR x ".repeat(2_000)).repeat(500);
        assert!(synopsis(&long_lines).is_some());
        // Lines longer than the probe windows: the ends show no log lines, the rest is not read.
        let one_huge_line = format!("ERROR {}", "x ".repeat(1_000_000));
        assert!(synopsis(&one_huge_line).is_none());
    }
}
