//! The reference's read-back calls over one stored output (SPEC 6): `read` by code-point
//! offset/limit and literal `search`. Offsets count Unicode code points. The submodules go beyond
//! the reference (line windows, grep, session-wide search, structured reads, restore) and leave
//! these two untouched.

pub mod grep;
pub mod hit_coordinates;
pub mod json_pointer;
pub mod lines;
pub mod output_index;
pub mod restore;
pub mod search_all;
pub mod table_rows;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::python::byte_offset;
use crate::record::OFFSET_UNIT;

pub const DEFAULT_READ_LIMIT: i64 = 20_000;
pub const DEFAULT_SEARCH_LIMIT: i64 = 20;
pub const DEFAULT_CONTEXT_CHARS: i64 = 300;
pub const DEFAULT_LIST_LIMIT: i64 = 50;
/// Default cap, in chars, on what one retrieval call returns to the model (`maxResultChars`).
pub const DEFAULT_MAX_RESULT_CHARS: i64 = 20_000;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReadWindow {
    pub content: String,
    pub offset: i64,
    pub limit: i64,
    pub offset_unit: &'static str,
    pub total_chars: usize,
    pub has_more: bool,
}

pub fn check_read_args(offset: i64, limit: i64) -> Result<()> {
    if offset < 0 {
        return Err(Error::invalid(format!(
            "offset must be >= 0 (got {offset})"
        )));
    }
    if limit < -1 {
        return Err(Error::invalid(format!(
            "limit must be -1 (to the end) or >= 0 (got {limit})"
        )));
    }
    Ok(())
}

/// Chars `offset .. offset+limit` of `content` (`limit = -1`: to the end).
pub fn read(content: &str, offset: i64, limit: i64) -> Result<ReadWindow> {
    check_read_args(offset, limit)?;
    let start_char = usize::try_from(offset).unwrap_or(usize::MAX);
    let start = byte_offset(content, start_char);
    let rest = &content[start..];
    let (window, has_more) = if limit == -1 {
        (rest, false)
    } else {
        let end = byte_offset(rest, usize::try_from(limit).unwrap_or(usize::MAX));
        (&rest[..end], end < rest.len())
    };
    let total_chars = crate::python::char_len(content);
    Ok(ReadWindow {
        content: window.to_string(),
        offset,
        limit,
        offset_unit: OFFSET_UNIT,
        total_chars,
        has_more,
    })
}

#[cfg(test)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SearchMatch {
    pub offset: usize,
    pub offset_unit: &'static str,
    pub snippet: String,
}

pub fn check_search_args(query: &str, limit: i64) -> Result<()> {
    if query.is_empty() {
        return Err(Error::invalid("query must not be empty"));
    }
    if limit <= 0 {
        return Err(Error::invalid(format!("limit must be > 0 (got {limit})")));
    }
    Ok(())
}

/// Byte index `context` chars before `at` (or 0).
#[cfg(test)]
fn back_chars(content: &str, at: usize, context: usize) -> usize {
    content[..at]
        .char_indices()
        .rev()
        .take(context)
        .last()
        .map_or(at, |(i, _)| i)
}

/// Byte index `context` chars after `at` (or the end).
#[cfg(test)]
fn forward_chars(content: &str, at: usize, context: usize) -> usize {
    at + byte_offset(&content[at..], context)
}

/// Case-sensitive, non-overlapping literal matches, left to right, at most `limit`; each with
/// `context_chars` of context on both sides: the reference's search, written plainly, kept as the
/// oracle grep's defaults are tested against (grep is what serves searches).
#[cfg(test)]
pub fn search(
    content: &str,
    query: &str,
    limit: i64,
    context_chars: i64,
) -> Result<Vec<SearchMatch>> {
    check_search_args(query, limit)?;
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    let context = usize::try_from(context_chars.max(0)).unwrap_or(usize::MAX);
    let mut matches = Vec::new();
    // Char offset of `counted_to` (a byte index), advanced incrementally so the scan stays linear.
    let (mut counted_to, mut char_offset) = (0usize, 0usize);
    let mut from = 0usize;
    while matches.len() < limit {
        let Some(found) = content[from..].find(query).map(|i| from + i) else {
            break;
        };
        char_offset += crate::python::char_len(&content[counted_to..found]);
        counted_to = found;
        let end = found + query.len();
        let snippet_start = back_chars(content, found, context);
        let snippet_end = forward_chars(content, end, context);
        matches.push(SearchMatch {
            offset: char_offset,
            offset_unit: OFFSET_UNIT,
            snippet: content[snippet_start..snippet_end].to_string(),
        });
        from = end;
    }
    Ok(matches)
}

pub fn check_list_limit(limit: i64) -> Result<()> {
    if limit <= 0 {
        return Err(Error::invalid(format!("limit must be > 0 (got {limit})")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_windows_in_code_points() {
        let text = "a😀bcd";
        let window = read(text, 1, 2).expect("valid");
        assert_eq!(
            (window.content.as_str(), window.total_chars, window.has_more),
            ("😀b", 5, true)
        );
        let all = read(text, 2, -1).expect("valid");
        assert_eq!((all.content.as_str(), all.has_more), ("bcd", false));
        let past = read(text, 99, 5).expect("valid");
        assert_eq!(
            (past.content.as_str(), past.total_chars, past.has_more),
            ("", 5, false)
        );
        assert!(read(text, 3, 2).is_ok_and(|w| !w.has_more));
        assert!(read(text, -1, 1).is_err() && read(text, 0, -2).is_err());
    }

    #[test]
    fn search_is_literal_non_overlapping_with_context() {
        let found = search("aaaa😀aa", "aa", 10, 1).expect("valid");
        let offsets: Vec<_> = found.iter().map(|m| m.offset).collect();
        assert_eq!(offsets, [0, 2, 5]);
        assert_eq!(found[2].snippet, "😀aa");
        assert_eq!(found[0].snippet, "aaa");
        assert_eq!(search("abcabc", "c", 1, 0).expect("valid").len(), 1);
        assert!(search("x", "", 1, 0).is_err() && search("x", "x", 0, 0).is_err());
    }
}
