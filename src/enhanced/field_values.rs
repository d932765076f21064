//! How a record field's values read in a stub, shared by the analyzers of documents (JSON, YAML,
//! XML) and of tables: a value shown as one clipped line, and a field ranked by how telling its
//! name is (states and categories first).

use crate::python::{clip, one_line};

/// Last segments of field names whose values are states or categories: shown first.
pub(super) const STATE_FIELDS: [&str; 16] = [
    "state",
    "status",
    "phase",
    "level",
    "severity",
    "kind",
    "type",
    "reason",
    "event",
    "result",
    "outcome",
    "conclusion",
    "method",
    "code",
    "category",
    "currency",
];

/// A scalar for a stub line: one line, clipped.
pub(super) fn shown(text: &str, width: i64) -> String {
    // Most values are already one line of single-spaced printable ASCII words: clipped as they
    // are, without splitting and joining them again (what `one_line` would give them).
    let bytes = text.as_bytes();
    let single_spaced = bytes.first() != Some(&b' ')
        && bytes.last() != Some(&b' ')
        && bytes.iter().all(|b| (b' '..=b'~').contains(b))
        && !text.contains("  ");
    if single_spaced {
        return clip(text, width);
    }
    one_line(text, width)
}

fn last_segment(path: &str) -> &str {
    let tail = path.rsplit('.').next().unwrap_or(path);
    tail.trim_end_matches("[]")
}

/// How telling a field's values are: its name's place in `STATE_FIELDS` (a `_suffix` match
/// after every exact one), or after all of them.
pub(super) fn state_rank(path: &str) -> usize {
    let tail = last_segment(path).to_ascii_lowercase();
    let exact = STATE_FIELDS.iter().position(|name| tail == *name);
    // `_name` at the end, compared in place (this runs per field of every sampled record).
    let suffix = || {
        STATE_FIELDS
            .iter()
            .position(|name| {
                tail.len() > name.len()
                    && tail.ends_with(name)
                    && tail.as_bytes()[tail.len() - name.len() - 1] == b'_'
            })
            .map(|at| STATE_FIELDS.len() + at)
    };
    exact.or_else(suffix).unwrap_or(2 * STATE_FIELDS.len())
}
