//! `text_table` kind (enhanced mode): column-aligned command output (`docker ps`, `kubectl get`,
//! `ps aux`, `df -h`, `systemctl list-units`, `pip list`, `lsof`, ...): a header line of column
//! names, then rows whose fields sit under them. Two ways to cut a row, the one that finds more
//! columns wins:
//!
//! - by position: columns start where the header's names start (names joined by one space are one
//!   name, `CONTAINER ID`, unless every row is blank there); a field may hold spaces (`Up 2 days`);
//!   most rows must have a blank before every column start (tabwriter and `column -t` output);
//! - by whitespace: one token per column, the last column takes the rest of the line (`COMMAND`
//!   with its arguments); each token must lie under its column's name, between the neighbours'
//!   names (right-aligned numbers and the overflowing rows of `ps aux` and `df`).
//!
//! The synopsis: the row count and the columns; rows that need attention (unhealthy, restarting,
//! exited with a non-zero code, failed, zombie, not ready, a filesystem 90% full or more) by what
//! makes them so, named by the table's most identifying column; the top rows of CPU/memory/restart
//! columns; the values with counts of low-cardinality columns (`STATUS: Up 96, Exited 37`), a
//! `docker ps` status counted by its leading word and health (`Up (unhealthy)`).
//!
//! Linear: the layout is decided on the first `SAMPLE_ROWS` rows, then every row is cut once, and
//! each row is read only up to its last column's start.

use std::borrow::Cow;
use std::collections::HashMap;

use crate::kinds::Synopsis;

use super::counter::Counter;
use super::text_helpers::bounded_one_line;

/// The header may follow fewer non-blank preamble lines than this (`netstat`'s "Active Internet
/// ...", `top`'s summary block).
const HEADER_CANDIDATES: usize = 8;
const MAX_HEADER_BYTES: usize = 1_000;
const MAX_NAME_CHARS: usize = 32;
const MAX_COLUMNS: usize = 32;
const MIN_ROWS: usize = 3;
/// Rows the layout and the column types are decided on.
const SAMPLE_ROWS: usize = 400;
/// Share (in percent) of the sampled rows a layout must fit.
const FIT_PERCENT: usize = 90;
/// A one-space gap between header names is a column border when at most this share (percent) of
/// the rows have a character there.
const BORDER_OCCUPANCY_PERCENT: usize = 5;
/// Columns with at most this many distinct values (in the sample) get counts per value.
const MAX_COUNTED_VALUES: usize = 16;
/// Distinct values counted per column over all rows; further values count as "other".
const MAX_DISTINCT: usize = 64;
const SHOWN_VALUES: usize = 6;
const MAX_COUNT_LINES: usize = 5;
const MAX_HOT_COLUMNS: usize = 2;
const TOP_ROWS: usize = 3;
/// Rows named per reason: a filesystem's (short paths, the fullest first) and a status's.
const MAX_EXAMPLES: usize = 6;
const MAX_STATUS_EXAMPLES: usize = 4;
/// Signatures remembered to count rows alike (same numbers) to an example.
const MAX_SIGNATURES: usize = 4_096;
const NAME_CHARS: i64 = 48;
const VALUE_CHARS: i64 = 28;
/// A filesystem this full (percent) needs attention.
const FULL_PERCENT: f64 = 90.0;

/// A whitespace-separated token of a line: its char columns `[start, end)` and its byte offset.
#[derive(Clone, Copy, Debug)]
struct Token {
    start: usize,
    end: usize,
    from: usize,
    to: usize,
}

impl Token {
    fn text<'a>(&self, line: &'a str) -> &'a str {
        &line[self.from..self.to]
    }
}

/// The first `limit` tokens of `line` (a tab counts as one blank column).
fn tokenize(line: &str, limit: usize, tokens: &mut Vec<Token>) {
    tokens.clear();
    let mut current: Option<Token> = None;
    for (column, (at, c)) in line.char_indices().enumerate() {
        if c == ' ' || c == '\t' {
            if let Some(token) = current.take() {
                tokens.push(Token {
                    end: column,
                    to: at,
                    ..token
                });
                if tokens.len() == limit {
                    return;
                }
            }
        } else if current.is_none() {
            current = Some(Token {
                start: column,
                end: column,
                from: at,
                to: at,
            });
        }
    }
    if let Some(token) = current {
        let end = token.start + line[token.from..].chars().count();
        tokens.push(Token {
            end,
            to: line.len(),
            ..token
        });
    }
}

/// Whether `word` may name a column: short, a letter or `%`/`#` first, no prose punctuation; or
/// a lone symbol of a multi-word name (`CPU %`, `MEM USAGE / LIMIT` of `docker stats`).
fn column_name(word: &str) -> bool {
    let bytes = word.as_bytes();
    if matches!(word, "%" | "/" | "#") {
        return true;
    }
    let first_ok = bytes
        .first()
        .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'%' || b == b'#');
    first_ok
        && word.len() <= MAX_NAME_CHARS
        && bytes.iter().any(u8::is_ascii_alphabetic)
        && !word.ends_with(':')
        && bytes
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b"%/_-.()#:+?".contains(&b))
}

/// The header's names with their columns, or `None` when `line` does not read as a header: 2 to
/// `MAX_COLUMNS` names, the first and at least half of them capitalised (or `%...`).
fn header_tokens(line: &str) -> Option<Vec<(Token, &str)>> {
    header_names(line, false)
}

/// Whether `rule` is a rule of dash runs with a run starting under each of `header`'s names
/// (`sqlite3 -column`, `mysql -t`'s plain cousin): the names may then be lower-case.
fn dash_rule_under(header: &str, rule: &str) -> bool {
    let trimmed = rule.trim_end();
    if trimmed.is_empty() || !trimmed.bytes().all(|b| b == b'-' || b == b' ') {
        return false;
    }
    let (mut names, mut runs) = (Vec::new(), Vec::new());
    tokenize(header, MAX_COLUMNS + 1, &mut names);
    tokenize(trimmed, MAX_COLUMNS + 1, &mut runs);
    runs.len() >= 2
        && runs.len() == names.len()
        && names
            .iter()
            .zip(&runs)
            .all(|(name, run)| name.start == run.start && name.end <= run.end)
}

/// The header's names, `ruled` when a dash rule under them proves the line a header.
fn header_names(line: &str, ruled: bool) -> Option<Vec<(Token, &str)>> {
    if line.len() > MAX_HEADER_BYTES || line.contains('\t') {
        return None;
    }
    let mut tokens = Vec::new();
    tokenize(line, MAX_COLUMNS + 1, &mut tokens);
    if tokens.len() < 2 || tokens.len() > MAX_COLUMNS {
        return None;
    }
    let named: Vec<(Token, &str)> = tokens.iter().map(|t| (*t, t.text(line))).collect();
    let capitalised = |name: &str| name.starts_with(|c: char| c.is_ascii_uppercase() || c == '%');
    let ok = named.iter().all(|(_, name)| ruled || column_name(name))
        && (ruled || capitalised(named[0].1))
        && (ruled || named.iter().filter(|(_, name)| capitalised(name)).count() * 2 >= named.len());
    ok.then_some(named)
}

/// A line of dashes or equals signs under a header (`pip list`).
fn is_rule(line: &str) -> bool {
    let trimmed = line.trim();
    !trimmed.is_empty()
        && trimmed
            .bytes()
            .all(|b| matches!(b, b'-' | b'=' | b' ' | b'+'))
        && trimmed.bytes().any(|b| b == b'-' || b == b'=')
}

/// How rows are cut into fields.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Layout {
    /// Fields start at these char columns (the first at 0).
    Positions(Vec<usize>),
    /// One token per column, under the names' spans `[start, end)`; the last takes the rest.
    /// `loose`: a token may reach under its neighbours' names (rows shifted from the header).
    Tokens {
        spans: Vec<(usize, usize)>,
        loose: bool,
    },
    /// This many whitespace-separated words, the last taking the rest (a listing without a
    /// header: `ls -l`).
    Words(usize),
}

/// `cut` for a caller without a token buffer.
pub(crate) fn cut_line<'a>(line: &'a str, layout: &Layout, fields: &mut Vec<&'a str>) -> bool {
    cut(line, layout, &mut Vec::new(), fields)
}

/// The fields of `line` under `layout` into `fields` (one per column; missing ones empty), and
/// whether the line fits the layout.
fn cut<'a>(
    line: &'a str,
    layout: &Layout,
    tokens: &mut Vec<Token>,
    fields: &mut Vec<&'a str>,
) -> bool {
    fields.clear();
    match layout {
        Layout::Positions(starts) => {
            let mut cuts = Vec::with_capacity(starts.len() + 1);
            cuts.push(0);
            let mut fits = true;
            let mut previous_blank = true;
            for (column, (at, c)) in line.char_indices().enumerate() {
                if cuts.len() == starts.len() {
                    break;
                }
                if column == starts[cuts.len()] {
                    fits &= previous_blank;
                    cuts.push(at);
                }
                previous_blank = c == ' ' || c == '\t';
            }
            while cuts.len() < starts.len() {
                cuts.push(line.len());
            }
            cuts.push(line.len());
            for pair in cuts.windows(2) {
                fields.push(line[pair[0]..pair[1]].trim());
            }
            fits && !fields[0].is_empty()
        }
        Layout::Words(count) => {
            tokenize(line, *count, tokens);
            for (index, token) in tokens.iter().enumerate() {
                fields.push(if index + 1 == *count {
                    line[token.from..].trim()
                } else {
                    token.text(line)
                });
            }
            let fits = tokens.len() == *count;
            while fields.len() < *count {
                fields.push("");
            }
            fits
        }
        Layout::Tokens { spans, loose } => {
            tokenize(line, spans.len(), tokens);
            let mut fits = tokens.len() == spans.len();
            for (index, token) in tokens.iter().enumerate() {
                // Between the neighbouring names: right-aligned numbers reach left past their
                // own name, but never into the previous one. Loose: not past the neighbours.
                let before = index.checked_sub(1).map(|at| spans[at]);
                let zone_start = before.map_or(0, |span| if *loose { span.0 } else { span.1 });
                let zone_end =
                    spans
                        .get(index + 1)
                        .map_or(usize::MAX, |span| if *loose { span.1 } else { span.0 });
                fits &= token.start < zone_end && token.end > zone_start;
                if index + 1 == spans.len() {
                    fields.push(line[token.from..].trim());
                } else {
                    fields.push(token.text(line));
                }
            }
            while fields.len() < spans.len() {
                fields.push("");
            }
            fits
        }
    }
}

/// The positional layout: names joined by a single space form one column unless the sampled
/// rows are blank at that space; columns empty in every sampled row join the previous one
/// (`NOMINATED NODE`). With the column names.
fn positional_layout(header: &[(Token, &str)], rows: &[&str]) -> Option<(Layout, Vec<String>)> {
    let mut starts = vec![header[0].0.start];
    let mut names = vec![header[0].1.to_string()];
    for pair in header.windows(2) {
        let (before, (after, name)) = (pair[0].0, pair[1]);
        let border = after.start - before.end >= 2 || {
            let gap = before.end;
            let occupied = rows
                .iter()
                .filter(|row| row.chars().nth(gap).is_some_and(|c| c != ' ' && c != '\t'))
                .count();
            occupied * 100 <= rows.len() * BORDER_OCCUPANCY_PERCENT
        };
        if border {
            starts.push(after.start);
            names.push(name.to_string());
        } else if let Some(last) = names.last_mut() {
            last.push(' ');
            last.push_str(name);
        }
    }
    starts[0] = 0;
    // Columns no sampled row fills belong to the name before them.
    let layout = Layout::Positions(starts.clone());
    let mut filled = vec![false; starts.len()];
    let (mut tokens, mut fields) = (Vec::new(), Vec::new());
    for row in rows {
        cut(row, &layout, &mut tokens, &mut fields);
        for (index, field) in fields.iter().enumerate() {
            filled[index] |= !field.is_empty();
        }
    }
    let mut kept_starts = vec![0];
    let mut kept_names = vec![names[0].clone()];
    for index in 1..starts.len() {
        if filled[index] {
            kept_starts.push(starts[index]);
            kept_names.push(names[index].clone());
        } else if let Some(last) = kept_names.last_mut() {
            last.push(' ');
            last.push_str(&names[index]);
        }
    }
    (kept_starts.len() >= 2).then_some((Layout::Positions(kept_starts), kept_names))
}

/// The whitespace layout: one column per name, a lower-case word joining the name before it
/// (`Mounted on`).
fn token_layout(header: &[(Token, &str)], loose: bool) -> Option<(Layout, Vec<String>)> {
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for (token, name) in header {
        let continues = name.starts_with(|c: char| c.is_ascii_lowercase());
        match (continues, spans.last_mut(), names.last_mut()) {
            (true, Some(span), Some(last)) => {
                span.1 = token.end;
                last.push(' ');
                last.push_str(name);
            }
            _ => {
                spans.push((token.start, token.end));
                names.push(name.to_string());
            }
        }
    }
    (spans.len() >= 2).then_some((Layout::Tokens { spans, loose }, names))
}

/// Whether at least `FIT_PERCENT` of the sampled rows fit `layout`.
fn fits_rows(layout: &Layout, rows: &[&str]) -> bool {
    let (mut tokens, mut fields) = (Vec::new(), Vec::new());
    let fitting = rows
        .iter()
        .filter(|row| cut(row, layout, &mut tokens, &mut fields))
        .count();
    fitting * 100 >= rows.len() * FIT_PERCENT
}

/// Whether a column before the last holds numbers in most rows: the evidence a layout by tokens
/// needs (prose lines have words wherever the header has names).
fn has_numeric_column(layout: &Layout, rows: &[&str]) -> bool {
    let Layout::Tokens { spans, .. } = layout else {
        return true;
    };
    let (mut tokens, mut fields) = (Vec::new(), Vec::new());
    let mut numeric = vec![0usize; spans.len()];
    for row in rows {
        cut(row, layout, &mut tokens, &mut fields);
        for (index, field) in fields.iter().enumerate() {
            numeric[index] += usize::from(number(field).is_some());
        }
    }
    numeric[..spans.len() - 1]
        .iter()
        .any(|&count| count * 100 >= rows.len() * FIT_PERCENT)
}

/// The table's layout: the fitting one with more columns, the positional one on a tie; when
/// neither fits, tokens that may reach under their neighbours' names (`ps aux` rows whose
/// numbers overflow their columns and shift the rest).
fn layout(header: &[(Token, &str)], rows: &[&str]) -> Option<(Layout, Vec<String>)> {
    let positional = positional_layout(header, rows).filter(|(layout, _)| fits_rows(layout, rows));
    let tokens = token_layout(header, false)
        .filter(|(layout, _)| fits_rows(layout, rows) && has_numeric_column(layout, rows));
    match (positional, tokens) {
        (Some(p), Some(t)) => Some(if t.1.len() > p.1.len() { t } else { p }),
        (None, None) => token_layout(header, true)
            .filter(|(layout, _)| fits_rows(layout, rows) && has_numeric_column(layout, rows)),
        (p, t) => p.or(t),
    }
}

// ---- values ----------------------------------------------------------------------------------

/// A number as command output prints it: `12`, `0.0`, `-3`, `12%`, `1.5G`, `300M`, `4.0K`,
/// `2Gi`, `512MB`, with binary unit multipliers (so `1.5G` > `300M`).
fn number(field: &str) -> Option<f64> {
    // kubectl's `RESTARTS` reads `5 (2m ago)`: the count is the number.
    let field = match field.split_once(" (") {
        Some((count, _)) if field.ends_with(')') => count,
        _ => field,
    };
    let bytes = field.as_bytes();
    let sign = usize::from(matches!(bytes.first(), Some(b'-' | b'+')));
    let digits_end = sign
        + bytes[sign..]
            .iter()
            .take_while(|&&b| b.is_ascii_digit() || b == b'.')
            .count();
    let numeral = &field[sign..digits_end];
    if numeral.is_empty()
        || numeral.bytes().filter(|&b| b == b'.').count() > 1
        || !numeral.starts_with(|c: char| c.is_ascii_digit())
    {
        return None;
    }
    let value: f64 = field[..digits_end].parse().ok()?;
    let unit = &field[digits_end..];
    let power = match unit.as_bytes() {
        [] | [b'%'] | [b'B'] => 0,
        [prefix, rest @ ..] if rest.is_empty() || rest == b"i" || rest == b"B" || rest == b"iB" => {
            match prefix.to_ascii_uppercase() {
                b'K' => 1,
                b'M' => 2,
                b'G' => 3,
                b'T' => 4,
                b'P' => 5,
                b'E' => 6,
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(value * 1024f64.powi(power))
}

/// A status counted by its leading word and a parenthesised word after it: `Up 2 days (healthy)`
/// is `Up (healthy)`, `Exited (137) 2 hours ago` is `Exited`. `None` unless it opens with a word.
fn status_key(value: &str) -> Option<String> {
    let word_len = value.bytes().take_while(u8::is_ascii_alphabetic).count();
    if word_len == 0 || !matches!(value.as_bytes().get(word_len), None | Some(b' ' | b'(')) {
        return None;
    }
    let mut key = value[..word_len].to_string();
    let mut rest = &value[word_len..];
    while let Some(open) = rest.find('(') {
        let after = &rest[open + 1..];
        let Some(close) = after.find(')') else { break };
        let inside = &after[..close];
        if !inside.is_empty()
            && inside.len() <= 24
            && inside.bytes().all(|b| b.is_ascii_alphabetic() || b == b' ')
        {
            key.push_str(" (");
            key.push_str(inside);
            key.push(')');
            break;
        }
        rest = &after[close + 1..];
    }
    Some(key)
}

/// The exit code in `Exited (137) ...`.
fn exit_code(value: &str) -> Option<i64> {
    let rest = value.strip_prefix("Exited (")?;
    rest[..rest.find(')')?].trim().parse().ok()
}

/// Words in a status value that mark a row as needing attention, matched lower-cased; the
/// first that a value contains names the reason.
const TROUBLE_WORDS: [&str; 15] = [
    "unhealthy",
    "crashloopbackoff",
    "imagepullbackoff",
    "errimagepull",
    "oomkilled",
    "restarting",
    "evicted",
    "notready",
    "degraded",
    "defunct",
    "zombie",
    "failed",
    "failure",
    "error",
    "dead",
];

/// Per column: what the sample says it is.
#[derive(Default, Clone)]
struct ColumnKind {
    numeric: bool,
    /// Values carry `%` and the name says usage (`Use%`, `Capacity`): 90% or more is full.
    usage: bool,
    /// Counted per value (`Some(false)`) or per status key (`Some(true)`).
    counted: Option<bool>,
    /// A process-state column (`STAT`, `S`): `Z...` is a zombie.
    process_state: bool,
    distinct: usize,
}

/// `v1 n1, v2 n2, ...` most frequent first (ties in first-seen order), `SHOWN_VALUES` of them,
/// then how many rows hold the others.
fn top_values(counter: &Counter) -> String {
    let (mut parts, rest) = counter.top(SHOWN_VALUES, VALUE_CHARS);
    if rest > 0 {
        parts.push(format!("others {rest}"));
    }
    parts.join(", ")
}

/// Rows that need attention for one reason: how many, and the first (or, for values, the
/// highest) few, each with its rows alike.
#[derive(Default)]
struct Reason {
    label: String,
    count: usize,
    /// (row name, shown value, sort value, signature)
    examples: Vec<Example>,
}

struct Example {
    name: String,
    value: String,
    rank: f64,
    signature: Option<u64>,
}

impl Reason {
    /// Keeps the `MAX_EXAMPLES` highest `rank`s (first seen first on ties), one per signature.
    fn offer(&mut self, example: Example, limit: usize) {
        self.count += 1;
        if example.signature.is_some()
            && self
                .examples
                .iter()
                .any(|e| e.signature == example.signature)
        {
            return;
        }
        let at = self
            .examples
            .iter()
            .position(|e| e.rank < example.rank)
            .unwrap_or(self.examples.len());
        if at < limit {
            self.examples.insert(at, example);
            self.examples.truncate(limit);
        }
    }

    fn render(&self, alike: &HashMap<u64, usize>) -> String {
        let shown: Vec<String> = self
            .examples
            .iter()
            .map(|e| {
                let value = if e.value.is_empty() {
                    String::new()
                } else {
                    format!(" {}", e.value)
                };
                format!("{}{value}{}", e.name, alike_note(e, alike))
            })
            .collect();
        format!("{} {}: {}", self.label, self.count, shown.join(", "))
    }
}

/// ` (+N alike)`: the rows with the same numbers as an example's, beyond it.
fn alike_note(example: &Example, alike: &HashMap<u64, usize>) -> String {
    let more = example
        .signature
        .and_then(|s| alike.get(&s))
        .map_or(0, |n| n.saturating_sub(1));
    if more > 0 {
        format!(" (+{more} alike)")
    } else {
        String::new()
    }
}

fn fnv(hash: u64, text: &str) -> u64 {
    text.bytes().chain([0xFF]).fold(hash, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Whether a column name says CPU, memory, restarts or size: its top rows are shown.
fn hot_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    ["%", "cpu", "mem", "restart", "size"]
        .iter()
        .any(|word| lower.contains(word))
}

fn status_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [
        "status",
        "state",
        "stat",
        "phase",
        "health",
        "ready",
        "active",
        "sub",
        "result",
        "condition",
    ]
    .iter()
    .any(|word| lower.contains(word))
}

/// The table at the head of `output`: the header line index and the rows' lines.
pub(crate) struct Table<'a> {
    pub(crate) names: Vec<String>,
    pub(crate) layout: Layout,
    pub(crate) rows: Vec<&'a str>,
    /// An `ls -l` listing (columns named here, entries counted by type).
    pub(crate) listing: bool,
}

/// `ls -l`'s columns, with the date as `ls` prints it by default (`May  1 12:00`) or with
/// `--time-style=long-iso` (`2024-05-01 12:00`).
const LISTING_COLUMNS: [&str; 9] = [
    "Mode", "Links", "Owner", "Group", "Size", "Month", "Day", "Time", "Name",
];
const ISO_LISTING_COLUMNS: [&str; 8] = [
    "Mode", "Links", "Owner", "Group", "Size", "Date", "Time", "Name",
];
/// GNU `tar -tv`'s columns: `-rw-r--r-- user/group 1234 2024-01-02 03:04 path` (no link count,
/// owner and group joined by a `/`).
const TAR_COLUMNS: [&str; 6] = ["Mode", "Owner/Group", "Size", "Date", "Time", "Name"];

/// A file mode as `ls -l` prints it: `drwxr-xr-x`, `-rw-r--r--.`, `lrwxrwxrwx@`.
fn file_mode(word: &str) -> bool {
    let bytes = word.as_bytes();
    (10..=11).contains(&bytes.len())
        // `h`: a hard link in `tar -tv`.
        && b"-dlcbpsh".contains(&bytes[0])
        && bytes[1..10].iter().all(|b| b"rwxsStTl-".contains(b))
        && bytes.get(10).is_none_or(|b| b".+@".contains(b))
}

/// An `ls -l` listing: an optional `total N` line, then rows opening with a file mode, up to a
/// blank line.
fn find_listing(output: &str) -> Option<Table<'_>> {
    let mut lines = output
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .skip_while(|line| line.trim().is_empty())
        .peekable();
    if lines.peek().is_some_and(|line| line.starts_with("total ")) {
        lines.next();
    }
    let first_word = |line: &str| line.split(' ').next().unwrap_or("").to_string();
    if !lines
        .peek()
        .is_some_and(|line| file_mode(&first_word(line)))
    {
        return None;
    }
    let rows: Vec<&str> = lines
        .by_ref()
        .take_while(|line| !line.trim().is_empty())
        .collect();
    if rows.len() < MIN_ROWS
        || lines
            .filter(|line| !line.trim().is_empty())
            .take(rows.len() / 5 + 6)
            .count()
            > rows.len() / 5 + 5
    {
        return None;
    }
    let sample = &rows[..rows.len().min(SAMPLE_ROWS)];
    // The sixth word is a month (`May`) or an ISO date.
    let mut tokens = Vec::new();
    tokenize(sample[0], 6, &mut tokens);
    let iso = tokens
        .get(5)
        .is_some_and(|token| token.text(sample[0]).as_bytes().get(4) == Some(&b'-'));
    // tar's second word is `owner/group` (a link count in `ls -l`).
    let tar = tokens
        .get(1)
        .is_some_and(|token| token.text(sample[0]).contains('/'));
    let names: Vec<String> = if tar {
        TAR_COLUMNS.to_vec()
    } else if iso {
        ISO_LISTING_COLUMNS.to_vec()
    } else {
        LISTING_COLUMNS.to_vec()
    }
    .into_iter()
    .map(str::to_string)
    .collect();
    let layout = Layout::Words(names.len());
    let (mut tokens, mut fields) = (Vec::new(), Vec::new());
    let fitting = sample
        .iter()
        .filter(|row| cut(row, &layout, &mut tokens, &mut fields) && file_mode(fields[0]))
        .count();
    (fitting * 100 >= sample.len() * FIT_PERCENT).then_some(Table {
        names,
        layout,
        rows,
        listing: true,
    })
}

/// Finds the table: a header among the first non-blank lines, an optional rule, then rows up to
/// the first blank line; the lines after it must be few (a legend), not another document.
fn find_table(output: &str) -> Option<Table<'_>> {
    let mut lines = output
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .peekable();
    let mut skipped = 0;
    let mut preamble = 0;
    let header = loop {
        let line = lines.next()?;
        skipped += 1;
        if line.trim().is_empty() {
            if skipped > 2 * HEADER_CANDIDATES {
                return None;
            }
            continue;
        }
        if let Some(header) = header_tokens(line) {
            break header;
        }
        if lines.peek().is_some_and(|next| dash_rule_under(line, next)) {
            if let Some(header) = header_names(line, true) {
                break header;
            }
        }
        preamble += 1;
        if preamble >= HEADER_CANDIDATES {
            return None;
        }
    };
    let mut rows = Vec::new();
    let mut first = true;
    let mut decided = None;
    for line in lines.by_ref() {
        if first && is_rule(line) {
            first = false;
            continue;
        }
        first = false;
        if line.trim().is_empty() {
            break;
        }
        rows.push(line);
        // The layout is decided on the sample before the rest is read: text that is no table
        // costs its first rows only.
        if rows.len() == SAMPLE_ROWS {
            decided = Some(layout(&header, &rows)?);
        }
    }
    if rows.len() < MIN_ROWS {
        return None;
    }
    // What follows a blank line: a short legend (`systemctl`) at most.
    let after = lines
        .filter(|line| !line.trim().is_empty())
        .take(rows.len() / 5 + 6)
        .count();
    if after > rows.len() / 5 + 5 {
        return None;
    }
    let (layout, names) = match decided {
        Some(decided) => decided,
        None => layout(&header, &rows)?,
    };
    Some(Table {
        names,
        layout,
        rows,
        listing: false,
    })
}

/// Decides each column's kind on the sample.
fn column_kinds(table: &Table<'_>) -> (Vec<ColumnKind>, usize) {
    let columns = table.names.len();
    let sample = &table.rows[..table.rows.len().min(SAMPLE_ROWS)];
    let mut filled = vec![0usize; columns];
    let mut numeric = vec![0usize; columns];
    let mut percent = vec![0usize; columns];
    let mut raw: Vec<Counter> = (0..columns).map(|_| Counter::default()).collect();
    let mut keys: Vec<Counter> = (0..columns).map(|_| Counter::default()).collect();
    let mut keyed = vec![0usize; columns];
    let mut wordy = vec![0usize; columns];
    let mut detailed = vec![0usize; columns];
    let (mut tokens, mut fields) = (Vec::new(), Vec::new());
    for row in sample {
        cut(row, &table.layout, &mut tokens, &mut fields);
        for (index, field) in fields.iter().enumerate() {
            if field.is_empty() {
                continue;
            }
            filled[index] += 1;
            wordy[index] += usize::from(field.bytes().any(|b| b.is_ascii_alphabetic()));
            if number(field).is_some() {
                numeric[index] += 1;
                percent[index] += usize::from(field.ends_with('%'));
            }
            raw[index].add(field, SAMPLE_ROWS);
            if let Some(key) = status_key(field) {
                keyed[index] += 1;
                detailed[index] += usize::from(key != *field);
                keys[index].add(&key, MAX_COUNTED_VALUES + 1);
            }
        }
    }
    let mut kinds: Vec<ColumnKind> = (0..columns)
        .map(|index| ColumnKind {
            numeric: filled[index] > 0 && numeric[index] * 10 >= filled[index] * 8,
            distinct: raw[index].values.len(),
            ..ColumnKind::default()
        })
        .collect();
    // The identifying column: the text column (mostly words, not times like `1:12`) with the
    // most distinct values, a `NAME` first.
    let ident = (0..columns)
        .filter(|&index| !kinds[index].numeric && wordy[index] * 2 >= filled[index])
        .max_by_key(|&index| {
            let named = table.names[index].to_ascii_lowercase().contains("name");
            (kinds[index].distinct, named, usize::MAX - index)
        })
        .unwrap_or(0);
    for index in 0..columns {
        let name = table.names[index].to_ascii_lowercase();
        let kind = &mut kinds[index];
        kind.usage = kind.numeric
            && percent[index] * 2 >= filled[index]
            && (name.contains("use") || name.contains("capacity"));
        kind.process_state = matches!(name.as_str(), "stat" | "s" | "state");
        if kind.numeric || index == ident || filled[index] == 0 {
            continue;
        }
        // Statuses that vary in their details (`Up 2 days`, `Up 5 hours`) count by their key.
        if keyed[index] * 10 >= filled[index] * 9
            && detailed[index] * 2 >= filled[index]
            && keys[index].values.len() <= MAX_COUNTED_VALUES
            && keys[index].values.len() < kind.distinct
        {
            kind.counted = Some(true);
        } else if kind.distinct <= MAX_COUNTED_VALUES && kind.distinct < filled[index] {
            kind.counted = Some(false);
        }
    }
    (kinds, ident)
}

/// `ls -l` rows counted by the type their mode opens with: `files 30, directories 5, links 2`.
fn entry_types(rows: &[&str]) -> String {
    let kinds = [(b'-', "files"), (b'd', "directories"), (b'l', "links")];
    let mut counts = [0usize; 4];
    for row in rows {
        let at = kinds
            .iter()
            .position(|(letter, _)| row.as_bytes().first() == Some(letter));
        counts[at.unwrap_or(3)] += 1;
    }
    let mut parts: Vec<String> = kinds
        .iter()
        .zip(counts)
        .filter(|(_, count)| *count > 0)
        .map(|((_, name), count)| format!("{name} {count}"))
        .collect();
    if counts[3] > 0 {
        parts.push(format!("other {}", counts[3]));
    }
    parts.join(", ")
}

/// Why a row needs attention in a counted column's `value`, if it does.
fn trouble(value: &str, kind: &ColumnKind) -> Option<Cow<'static, str>> {
    if kind.process_state && value.starts_with('Z') && value.len() <= 5 {
        return Some(Cow::Borrowed("zombie"));
    }
    if let Some(code) = exit_code(value) {
        return (code != 0).then_some(Cow::Borrowed("exited non-zero"));
    }
    // `0/1` ready: fewer than all.
    if let Some((ready, all)) = value.split_once('/') {
        if let (Ok(ready), Ok(all)) = (ready.parse::<u32>(), all.parse::<u32>()) {
            return (ready < all).then_some(Cow::Borrowed("not ready"));
        }
    }
    let lower = value.to_ascii_lowercase();
    TROUBLE_WORDS
        .iter()
        .find(|word| lower.contains(**word))
        .map(|word| Cow::Borrowed(*word))
}

/// The synopsis of a column-aligned table, or `None` when `output` is not one.
pub fn synopsis(output: &str) -> Option<Synopsis> {
    describe(find_listing(output).or_else(|| find_table(output))?)
}

/// The synopsis of a table found (here, or by an analyzer that knows its columns).
pub(crate) fn describe(table: Table<'_>) -> Option<Synopsis> {
    let (kinds, ident) = column_kinds(&table);
    let columns = table.names.len();
    let hot: Vec<usize> = (0..columns)
        .filter(|&index| {
            kinds[index].numeric && !kinds[index].usage && hot_name(&table.names[index])
        })
        .take(MAX_HOT_COLUMNS)
        .collect();
    let numeric_columns: Vec<usize> = (0..columns).filter(|&index| kinds[index].numeric).collect();
    let mut counters: Vec<Counter> = (0..columns).map(|_| Counter::default()).collect();
    let mut reasons: Vec<Reason> = Vec::new();
    let mut tops: Vec<Reason> = hot
        .iter()
        .map(|&index| Reason {
            label: format!("Top {}", table.names[index]),
            ..Reason::default()
        })
        .collect();
    let mut alike: HashMap<u64, usize> = HashMap::new();
    let (mut tokens, mut fields) = (Vec::new(), Vec::new());
    let mut row_reasons: Vec<usize> = Vec::new();
    for row in &table.rows {
        cut(row, &table.layout, &mut tokens, &mut fields);
        row_reasons.clear();
        let name = || bounded_one_line(fields[ident], NAME_CHARS);
        // Rows with the same numbers are one thing seen many times (a disk's overlay mounts).
        let signature = (numeric_columns.len() >= 2).then(|| {
            numeric_columns
                .iter()
                .fold(0xcbf2_9ce4_8422_2325, |hash, &index| {
                    fnv(hash, fields[index])
                })
        });
        if let Some(signature) = signature {
            if alike.len() < MAX_SIGNATURES || alike.contains_key(&signature) {
                *alike.entry(signature).or_insert(0) += 1;
            }
        }
        for (index, kind) in kinds.iter().enumerate() {
            let field = fields[index];
            if field.is_empty() {
                continue;
            }
            let mut reason: Option<(Cow<'static, str>, String, f64)> = None;
            if kind.usage {
                if let Some(value) = number(field).filter(|&value| value >= FULL_PERCENT) {
                    let label = format!("{} >= {FULL_PERCENT}%", table.names[index]);
                    reason = Some((Cow::Owned(label), field.to_string(), value));
                }
            }
            if let Some(key) = kind.counted {
                let counted = if key {
                    status_key(field).map(Cow::Owned)
                } else {
                    Some(Cow::Borrowed(field))
                };
                counters[index].add(counted.as_deref().unwrap_or("(other)"), MAX_DISTINCT);
            }
            if kind.counted.is_some() || kind.process_state {
                if let Some(why) = trouble(field, kind) {
                    // `Exited (137) 2 hours ago` shows as `Exited (137)`: the state, not its age.
                    let state = field.find(')').map_or(field, |close| &field[..=close]);
                    reason = Some((why, bounded_one_line(state, VALUE_CHARS), 0.0));
                }
            }
            if let Some((label, value, rank)) = reason {
                let at = match reasons.iter().position(|r| r.label == label) {
                    Some(at) => at,
                    None => {
                        reasons.push(Reason {
                            label: label.into_owned(),
                            ..Reason::default()
                        });
                        reasons.len() - 1
                    }
                };
                // A row counts once per reason (`failed` in both `ACTIVE` and `SUB`).
                if row_reasons.contains(&at) {
                    continue;
                }
                row_reasons.push(at);
                // A status row is named with its status; a full one with its use.
                let value = if value == fields[ident] {
                    String::new()
                } else {
                    format!("({value})")
                };
                let value = if rank > 0.0 {
                    value.trim_matches(['(', ')']).to_string()
                } else {
                    value
                };
                let limit = if rank > 0.0 {
                    MAX_EXAMPLES
                } else {
                    MAX_STATUS_EXAMPLES
                };
                reasons[at].offer(
                    Example {
                        name: name(),
                        value,
                        rank,
                        signature,
                    },
                    limit,
                );
            }
        }
        for (top, &index) in tops.iter_mut().zip(&hot) {
            if let Some(value) = number(fields[index]) {
                top.offer(
                    Example {
                        name: name(),
                        value: fields[index].to_string(),
                        rank: value,
                        signature,
                    },
                    TOP_ROWS,
                );
            }
        }
    }
    let mut synopsis = Synopsis::new("text_table", "Column-aligned table");
    synopsis.summary.push(format!(
        "Table: {} rows, {} columns: {}.",
        table.rows.len(),
        columns,
        table.names.join(", ")
    ));
    if table.listing {
        synopsis.summary.push(format!(
            "{} entries by type: {}.",
            table.rows.len(),
            entry_types(&table.rows)
        ));
    }
    // The rarest reasons first: what sets a few rows apart is the news.
    reasons.sort_by_key(|reason| reason.count);
    for reason in &reasons {
        synopsis
            .summary
            .push(format!("Attention: {}", reason.render(&alike)));
    }
    for top in &tops {
        if top.examples.iter().any(|e| e.rank > 0.0) {
            let shown: Vec<String> = top
                .examples
                .iter()
                .map(|e| format!("{} {}{}", e.value, e.name, alike_note(e, &alike)))
                .collect();
            synopsis
                .structure
                .push(format!("{}: {}", top.label, shown.join("; ")));
        }
    }
    let mut counted: Vec<usize> = (0..columns)
        .filter(|&index| kinds[index].counted.is_some())
        .collect();
    // Status columns first, then the fewest distinct values (a value every row shares last).
    counted.sort_by_key(|&index| {
        let distinct = counters[index].values.len();
        (!status_name(&table.names[index]), distinct == 1, distinct)
    });
    for index in counted.into_iter().take(MAX_COUNT_LINES) {
        synopsis.structure.push(format!(
            "{}: {}",
            table.names[index],
            top_values(&counters[index])
        ));
    }
    Some(synopsis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::synopsis_text as text;

    fn shown(output: &str) -> String {
        text(&synopsis(output).expect("a table"))
    }

    #[test]
    fn numbers_with_units_and_percent() {
        assert_eq!(number("12%"), Some(12.0));
        assert_eq!(number("0.0"), Some(0.0));
        assert!(number("1.5G") > number("300M"));
        assert_eq!(number("2Ki"), Some(2048.0));
        for text in ["1:12", "0/1", "abc", "5d", "1.2.3", "-", ""] {
            assert_eq!(number(text), None, "{text}");
        }
    }

    #[test]
    fn container_listing_by_position_with_statuses_and_health() {
        let mut out = String::from("CONTAINER ID   IMAGE          COMMAND         CREATED        STATUS                       PORTS                  NAMES\n");
        let statuses = [
            "Up 5 minutes",
            "Up 2 hours (healthy)",
            "Exited (0) 1 hour ago",
            "Up 3 days (unhealthy)",
            "Exited (2) 4 days ago",
            "Restarting (1) 3 seconds ago",
            "Up 5 minutes",
        ];
        for (i, status) in statuses.iter().enumerate() {
            let ports = if i % 2 == 0 { "0.0.0.0:80->80/tcp" } else { "" };
            out.push_str(&format!(
                "{:<12}   {:<12}   {:<13}   {:<12}   {:<26}   {:<20}   web-{i}\n",
                format!("{i:x}0a1b2c3d4e5"),
                "nginx:1.25",
                "\"nginx -g …\"",
                "2 days ago",
                status,
                ports
            ));
        }
        let all = shown(&out);
        assert!(all.contains("Table: 7 rows, 7 columns: CONTAINER ID, IMAGE, COMMAND, CREATED, STATUS, PORTS, NAMES."), "{all}");
        assert!(
            all.contains("STATUS: Up 2, Exited 2, Up (healthy) 1, Up (unhealthy) 1, Restarting 1"),
            "{all}"
        );
        assert!(
            all.contains("Attention: unhealthy 1: web-3 (Up 3 days (unhealthy))"),
            "{all}"
        );
        assert!(
            all.contains("Attention: restarting 1: web-5 (Restarting (1))"),
            "{all}"
        );
        assert!(
            all.contains("Attention: exited non-zero 1: web-4 (Exited (2))"),
            "{all}"
        );
        assert!(
            !all.contains("web-2 (Exited (0)"),
            "exit 0 is no trouble: {all}"
        );
    }

    #[test]
    fn pods_with_readiness_restarts_and_wide_columns() {
        let mut out = String::from("NAME        READY   STATUS             RESTARTS      AGE   NOMINATED NODE   READINESS GATES\n");
        for (name, ready, status, restarts) in [
            ("api-1", "1/1", "Running", "0"),
            ("api-2", "0/1", "CrashLoopBackOff", "14 (2m ago)"),
            ("db-0", "1/1", "Running", "2 (5h ago)"),
            ("job-x", "0/1", "Completed", "0"),
            ("web-1", "1/1", "Running", "0"),
        ] {
            out.push_str(&format!(
                "{name:<12}{ready:<8}{status:<19}{restarts:<14}3d    <none>           <none>\n"
            ));
        }
        let all = shown(&out);
        assert!(all.contains("5 rows, 7 columns: NAME, READY, STATUS, RESTARTS, AGE, NOMINATED NODE, READINESS GATES."), "{all}");
        assert!(
            all.contains("STATUS: Running 3, CrashLoopBackOff 1, Completed 1"),
            "{all}"
        );
        assert!(
            all.contains("Attention: crashloopbackoff 1: api-2"),
            "{all}"
        );
        assert!(
            all.contains("Attention: not ready 2: api-2 (0/1), job-x (0/1)"),
            "{all}"
        );
        assert!(
            all.contains("Top RESTARTS: 14 (2m ago) api-2; 2 (5h ago) db-0"),
            "{all}"
        );
    }

    #[test]
    fn process_listing_with_overflowing_rows_and_zombies() {
        let mut out = String::from(
            "USER       PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n",
        );
        for i in 0..20 {
            out.push_str(&format!(
                "root     {:>5}  0.{i}  0.1  10000  2000 ?        S    May01   0:00 [worker/{i}]\n",
                i + 1
            ));
        }
        // Wide numbers push the rest of these rows to the right.
        out.push_str("svc      123456 250.5 12.0 99999999 8888888 ?    Rl   09:00 900:01 /opt/bin/crunch --all\n");
        out.push_str("cache    123457 3.0 55.5 77777777 6666666 ?    Sl   09:00  10:00 /usr/sbin/memcached -m 64000\n");
        out.push_str(
            "www-data 123458  0.0  0.0      0     0 ?        Z    10:41   0:00 [sh] <defunct>\n",
        );
        let all = shown(&out);
        assert!(all.contains("Table: 23 rows, 11 columns: USER, PID, %CPU, %MEM, VSZ, RSS, TTY, STAT, START, TIME, COMMAND."), "{all}");
        assert!(
            all.contains("Attention: zombie 1: [sh] <defunct> (Z)"),
            "{all}"
        );
        assert!(
            all.contains("Top %CPU: 250.5 /opt/bin/crunch --all; 3.0 /usr/sbin/memcached -m 64000"),
            "{all}"
        );
        assert!(
            all.contains("Top %MEM: 55.5 /usr/sbin/memcached -m 64000; 12.0 /opt/bin/crunch --all"),
            "{all}"
        );
        // Names that are no status words count as they are (`www-data`, not a key of `www`).
        assert!(
            all.contains("USER: root 20, svc 1, cache 1, www-data 1"),
            "{all}"
        );
    }

    #[test]
    fn filesystems_nearly_full_with_rows_alike_counted_once() {
        let mut out = String::from("Filesystem      Size  Used Avail Use% Mounted on\n/dev/sda1        20G   10G   10G  50% /\n");
        out.push_str("/dev/sdb1       1.0T  950G   50G  95% /data\n");
        for i in 0..5 {
            out.push_str(&format!(
                "overlay         1.0T  950G   50G  95% /var/lib/docker/overlay2/{i}/merged\n"
            ));
        }
        out.push_str("tmpfs           3.9G     0  3.9G   0% /dev/shm\n/dev/sdc1        10G  9.9G  100M  99% /logs\n");
        let all = shown(&out);
        assert!(
            all.contains(
                "Table: 9 rows, 6 columns: Filesystem, Size, Used, Avail, Use%, Mounted on."
            ),
            "{all}"
        );
        assert!(
            all.contains("Attention: Use% >= 90% 7: /logs 99%, /data 95% (+5 alike)"),
            "{all}"
        );
        assert!(all.contains("Filesystem: overlay 5"), "{all}");
    }

    #[test]
    fn rows_past_the_sample_are_counted_and_checked() {
        let mut out = String::from("NAME        STATUS     CPU%\n");
        for i in 0..1_000 {
            let status = if i == 900 { "Failed" } else { "Running" };
            out.push_str(&format!(
                "{:<12}{status:<11}{}%\n",
                format!("job-{i}"),
                i % 7
            ));
        }
        let all = shown(&out);
        assert!(
            all.contains("Table: 1000 rows, 3 columns: NAME, STATUS, CPU%."),
            "{all}"
        );
        assert!(
            all.contains("Attention: failed 1: job-900 (Failed)"),
            "{all}"
        );
        assert!(all.contains("STATUS: Running 999, Failed 1"), "{all}");
        assert!(
            all.contains("Top CPU%: 6% job-6; 6% job-13; 6% job-20"),
            "{all}"
        );
    }

    #[test]
    fn units_with_a_legend_packages_with_a_rule_and_sockets_after_a_preamble() {
        let units = "  UNIT                  LOAD   ACTIVE SUB     DESCRIPTION\n  cron.service          loaded active running Regular background program\n● nginx.service         loaded failed failed  A high performance web server\n  ssh.service           loaded active running OpenBSD Secure Shell server\n  systemd-udevd.service loaded active running Rule-based Manager\n\nLOAD   = Reflects whether the unit definition was properly loaded.\nACTIVE = The high-level unit activation state.\n\n4 loaded units listed.\n";
        let all = shown(units);
        assert!(
            all.contains("4 rows, 5 columns: UNIT, LOAD, ACTIVE, SUB, DESCRIPTION."),
            "{all}"
        );
        assert!(
            all.contains("Attention: failed 1: ● nginx.service (failed)"),
            "{all}"
        );
        assert!(all.contains("SUB: running 3, failed 1"), "{all}");
        assert!(all.contains("ACTIVE: active 3, failed 1"), "{all}");
        let packages = "Package            Version\n------------------ ---------\ncertifi            2024.2.2\nidna               3.6\nrequests           2.31.0\nurllib3            2.2.1\n";
        assert!(
            shown(packages).contains("Table: 4 rows, 2 columns: Package, Version."),
            "{}",
            shown(packages)
        );
        let sockets = "Active Internet connections (only servers)\nProto Recv-Q Send-Q Local Address           Foreign Address         State\ntcp        0      0 0.0.0.0:22              0.0.0.0:*               LISTEN\ntcp        0      0 127.0.0.1:5432          0.0.0.0:*               LISTEN\ntcp6       0      0 :::80                   :::*                    LISTEN\nudp        0      0 0.0.0.0:68              0.0.0.0:*\n";
        let all = shown(sockets);
        assert!(
            all.contains(
                "4 rows, 6 columns: Proto, Recv-Q, Send-Q, Local Address, Foreign Address, State."
            ),
            "{all}"
        );
    }

    #[test]
    fn container_stats_and_a_process_table_after_a_summary_block() {
        let mut stats = String::from("CONTAINER ID   NAME      CPU %     MEM USAGE / LIMIT     MEM %     NET I/O         PIDS\n");
        for (i, (cpu, mem, net)) in [
            ("0.15%", "1.20%", "1.45kB / 0B"),
            ("87.30%", "4.10%", "96.2MB / 1.1GB"),
            ("2.00%", "61.50%", "648B / 12kB"),
        ]
        .iter()
        .enumerate()
        {
            stats.push_str(&format!(
                "{:<12}   {:<7}   {cpu:<7}   {:<19}   {mem:<7}   {net:<13}   12\n",
                format!("{i}bc123def456"),
                format!("app-{i}"),
                "1.2GiB / 7.7GiB"
            ));
        }
        let all = shown(&stats);
        assert!(all.contains("3 rows, 7 columns: CONTAINER ID, NAME, CPU %, MEM USAGE / LIMIT, MEM %, NET I/O, PIDS."), "{all}");
        assert!(
            all.contains("Top CPU %: 87.30% app-1; 2.00% app-2; 0.15% app-0"),
            "{all}"
        );
        assert!(all.contains("Top MEM %: 61.50% app-2"), "{all}");
        let top = "top - 10:00:01 up 3 days,  2 users,  load average: 0.52, 0.58, 0.59\nTasks: 180 total,   1 running, 179 sleeping,   0 stopped,   1 zombie\n%Cpu(s):  3.1 us,  1.0 sy,  0.0 ni, 95.8 id\nMiB Mem :  15890.1 total,   1021.4 free\nMiB Swap:   2048.0 total,   2048.0 free\n\n    PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND\n   1201 mysql     20   0 2600000 400000  30000 S  42.0  2.5  10:01.00 mysqld\n      1 root      20   0  170000  12000   8000 S   0.0  0.1   0:03.10 systemd\n   4242 app       20   0       0      0      0 Z   0.0  0.0   0:00.00 worker\n    777 app       20   0  900000 300000  20000 R  12.5  1.9   1:00.00 node\n";
        let all = shown(top);
        assert!(all.contains("Table: 4 rows, 12 columns: PID, USER, PR, NI, VIRT, RES, SHR, S, %CPU, %MEM, TIME+, COMMAND."), "{all}");
        assert!(all.contains("Attention: zombie 1: worker (Z)"), "{all}");
        assert!(
            all.contains("Top %CPU: 42.0 mysqld; 12.5 node; 0.0 systemd"),
            "{all}"
        );
    }

    #[test]
    fn file_listings_without_a_header() {
        let listing = "total 2104\ndrwxr-xr-x  2 ann staff    4096 May  1 12:00 src\n-rw-r--r--  1 ann staff 2097152 May  2 09:30 data.bin\n-rw-r--r--. 1 ann staff     512 Apr 30  2023 notes.txt\nlrwxrwxrwx  1 ann staff      11 May  1 12:01 latest -> data.bin\ndrwxr-x---  5 bob staff    4096 May  3 08:00 build dir\n";
        let all = shown(listing);
        assert!(all.contains("Table: 5 rows, 9 columns: Mode, Links, Owner, Group, Size, Month, Day, Time, Name."), "{all}");
        assert!(
            all.contains("5 entries by type: files 2, directories 2, links 1."),
            "{all}"
        );
        assert!(
            all.contains("Top Size: 2097152 data.bin; 4096 src; 4096 build dir"),
            "{all}"
        );
        let iso = "-rw-r--r-- 1 ann staff 10 2024-05-01 12:00 a.txt\n-rw-r--r-- 1 ann staff 30 2024-05-02 12:00 b.txt\n-rw-r--r-- 1 ann staff 20 2024-05-03 12:00 c d.txt\n";
        let all = shown(iso);
        assert!(
            all.contains("8 columns: Mode, Links, Owner, Group, Size, Date, Time, Name."),
            "{all}"
        );
        assert!(
            all.contains("Top Size: 30 b.txt; 20 c d.txt; 10 a.txt"),
            "{all}"
        );
        assert!(synopsis("total 0\n").is_none());
        assert!(synopsis("drwxr-xr-x is a mode\nand then prose\nand more prose\n").is_none());
    }

    #[test]
    fn tar_listings_and_sqlite_columns() {
        let tar = "drwxr-xr-x ann/staff         0 2024-05-01 12:00 app/\n-rw-r--r-- ann/staff      1234 2024-05-01 12:00 app/main.go\n-rw-r--r-- ann/staff    987654 2024-05-02 09:30 app/data.bin\nlrwxrwxrwx ann/staff         0 2024-05-02 09:31 app/latest -> data.bin\nhrw-r--r-- ann/staff         0 2024-05-02 09:31 app/copy link to app/main.go\n";
        let all = shown(tar);
        assert!(
            all.contains("Table: 5 rows, 6 columns: Mode, Owner/Group, Size, Date, Time, Name."),
            "{all}"
        );
        assert!(all.contains("Top Size: 987654 app/data.bin"), "{all}");
        let sqlite = "id  sensor     reading  taken_at\n--  ---------  -------  -------------------\n1   boiler-1   71.5     2024-05-01 12:00:00\n2   boiler-2   68.25    2024-05-01 12:00:05\n3   chiller-1  7.0      2024-05-01 12:00:09\n4   boiler-1   72.0     2024-05-01 12:01:00\n";
        let all = shown(sqlite);
        assert!(
            all.contains("Table: 4 rows, 4 columns: id, sensor, reading, taken_at."),
            "{all}"
        );
        // Without the rule, lower-case words are prose, not a header.
        assert!(synopsis("id  sensor     reading\n1   boiler-1   71.5\n2   boiler-2   68.25\n3   chiller-1  7.0\n").is_none());
        // A rule whose runs do not sit under the words proves nothing.
        assert!(!dash_rule_under("the quick fox", "-----------"));
        assert!(!dash_rule_under("the quick fox", "--- --- ---"));
    }

    #[test]
    fn other_text_is_not_a_table() {
        for output in [
            "The Quick Brown Fox\nThe quick brown fox jumps over the lazy dog.\nIt was not amused by this at all.\nNeither was the cat sitting there.\n",
            "# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n| 5 | 6 |\n",
            "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(1)\n}\n",
            "name,age,city\nann,30,Oslo\nbob,41,Rome\ncid,22,Lima\n",
            "NAME   AGE\nann    30\nbob    41\n",
            "INFO Starting server on port 8080\nINFO Listening for requests now\nWARN Slow request took 950ms\nINFO Shutting down in a moment\n",
            "",
        ] {
            assert!(synopsis(output).is_none(), "{output:?}");
        }
        // A table followed by a long document is not a command's table.
        let mut long = String::from("NAME   STATUS\na      ok\nb      ok\nc      ok\n\n");
        long.push_str(&"Some paragraph of prose that follows.\n".repeat(40));
        assert!(synopsis(&long).is_none());
    }

    #[test]
    fn hostile_rows_stay_bounded() {
        let header = "NAME   STATUS   CPU%\n";
        let ragged = format!(
            "{header}{}",
            "a\nb   c   d   e   f   g\n\t\t\tx\nnäme   ünïcode   1%\n日本語   状態   99%\n"
                .repeat(200)
        );
        let _ = synopsis(&ragged);
        // A field wider than its column breaks the row's alignment: such rows do not make a table.
        let huge = format!(
            "{header}a      ok       1%\nb      ok       2%\n{}      ok       3%\n",
            "x".repeat(2_000_000)
        );
        assert!(synopsis(&huge).is_none());
        // In the last column it is a value like any, quoted briefly.
        let huge_last = format!(
            "NAME   STATUS   NOTE\na      ok       {}\nb      ok       x\nc      failed   {}\n",
            "y ".repeat(1_000_000),
            "z".repeat(1_000_000)
        );
        let lines: Vec<String> = synopsis(&huge_last)
            .expect("a table")
            .lines()
            .cloned()
            .collect();
        assert!(lines.iter().all(|line| line.len() < 400), "{lines:?}");
        let many_columns = format!("{}\n{}\n", "A ".repeat(5_000), "1 ".repeat(5_000)).repeat(5);
        assert!(synopsis(&many_columns).is_none());
        // Columns count chars, not bytes.
        let rows = format!("{:<7}{:<9}5%\n{:<7}{:<9}7%\n", "名前", "状態", "näme", "ok");
        let unicode = format!("{header}{}", rows.repeat(50));
        let all = shown(&unicode);
        assert!(all.contains("Table: 100 rows"), "{all}");
    }

    #[test]
    fn status_keys_keep_the_word_and_the_health() {
        assert_eq!(
            status_key("Up 2 days (healthy)").as_deref(),
            Some("Up (healthy)")
        );
        assert_eq!(
            status_key("Exited (137) 2 hours ago").as_deref(),
            Some("Exited")
        );
        assert_eq!(status_key("Running").as_deref(), Some("Running"));
        assert_eq!(status_key("3 (2m ago)"), None);
    }
}
