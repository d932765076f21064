//! Structured reads of CSV / TSV outputs: `read(ref, { rows: { start, count } })` gives the
//! header row plus data rows `start .. start+count` (1-based; row 1 is the first row after the
//! header), each exactly as written: quoted fields, doubled quotes and line breaks inside quotes
//! stay intact. Rows are the records Python's `csv` module reads, blank ones dropped, so the
//! numbering agrees with the synopsis's `rows: N`.

use serde::Serialize;

use super::json_pointer::checked_max_chars;
use crate::error::{Error, Result};
use crate::json_fields;
use crate::kinds::table::{table_delimiter, visit_non_blank_rows};
use crate::python::{byte_offset, char_len};

pub const DEFAULT_ROW_COUNT: i64 = 50;
/// Chars kept free for the cut marker.
const CUT_MARKER_RESERVE: usize = 160;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RowRange {
    pub start: Option<i64>,
    pub count: Option<i64>,
}

json_fields::defaulted_struct!(RowRange, deny_unknown_fields, {
    start: "start",
    count: "count",
});

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RowsRequest {
    pub rows: RowRange,
    pub max_chars: Option<i64>,
}

json_fields::defaulted_struct!(RowsRequest, deny_unknown_fields, {
    rows: "rows",
    max_chars: "maxChars",
});

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RowsRead {
    /// The header row and the rows shown, one record per line of its own.
    pub content: String,
    /// `","` or `"\t"`.
    pub delimiter: String,
    pub start_row: usize,
    /// The last row shown; `start_row - 1` when none is.
    pub end_row: usize,
    /// Data rows in the table (the header not counted).
    pub total_rows: usize,
    pub has_more: bool,
    /// Whether the last row shown was cut to fit `max_chars`.
    pub cut: bool,
}

struct Checked {
    start: usize,
    count: usize,
    max_chars: usize,
}

fn check(request: &RowsRequest) -> Result<Checked> {
    let start = request.rows.start.unwrap_or(1);
    let count = request.rows.count.unwrap_or(DEFAULT_ROW_COUNT);
    if start < 1 || count < 1 {
        return Err(Error::invalid(format!(
            "rows.start and rows.count must be >= 1 (got {start}, {count})"
        )));
    }
    Ok(Checked {
        start: usize::try_from(start).unwrap_or(usize::MAX),
        count: usize::try_from(count).unwrap_or(usize::MAX),
        max_chars: checked_max_chars(request.max_chars)?,
    })
}

/// Checks a request without any text.
pub fn check_request(request: &RowsRequest) -> Result<()> {
    check(request).map(|_| ())
}

/// A record without the line break that ends it.
fn record_text(text: &str) -> &str {
    let text = text.strip_suffix('\n').unwrap_or(text);
    text.strip_suffix('\r').unwrap_or(text)
}

/// `visit_non_blank_rows` through one `dyn` callback: each closure type would instantiate the
/// whole CSV reader again (~17 KB of wasm for a second one).
fn visit_rows(
    text: &str,
    delimiter: char,
    on_row: &mut dyn FnMut(std::ops::Range<usize>),
) -> std::result::Result<(), String> {
    visit_non_blank_rows(text, delimiter, on_row)
}

/// For each hit (byte offsets of match starts, sorted), the data row holding it, as
/// `rows.start` takes it (1 is the first row after the header); `None` for a hit in the header
/// (every rows read shows it) or between rows, and for every hit when the text is not a table.
pub fn hit_rows(text: &str, hit_starts: &[usize]) -> Vec<Option<usize>> {
    let mut rows = vec![None; hit_starts.len()];
    let Some(delimiter) = table_delimiter(text) else {
        return rows;
    };
    let mut next = 0usize;
    let mut non_blank = 0usize;
    let _ = visit_rows(text, delimiter, &mut |range| {
        while next < hit_starts.len() && hit_starts[next] < range.start {
            next += 1;
        }
        while next < hit_starts.len() && range.contains(&hit_starts[next]) {
            if non_blank > 0 {
                rows[next] = Some(non_blank);
            }
            next += 1;
        }
        non_blank += 1;
    });
    rows
}

/// Where a table's header record and some of its data rows are: byte ranges, each without the
/// line break that ends it.
pub struct RowRanges {
    pub delimiter: char,
    pub header: std::ops::Range<usize>,
    pub rows: Vec<std::ops::Range<usize>>,
    /// Data rows in the table (the header not counted).
    pub total_rows: usize,
}

/// The header and data rows `start ..= last` (1-based) of the CSV/TSV output `text`.
pub fn row_ranges(text: &str, start: usize, last: usize) -> Result<RowRanges> {
    let delimiter = table_delimiter(text).ok_or_else(|| {
        Error::invalid("the output is not a CSV or TSV table (rows reads need one)")
    })?;
    // Only the header and the wanted rows are kept, whatever the table's size.
    let mut header = None;
    let mut wanted = Vec::new();
    let mut non_blank = 0usize;
    visit_rows(text, delimiter, &mut |range| {
        if non_blank == 0 {
            header = Some(range);
        } else if (start..=last).contains(&non_blank) {
            wanted.push(range);
        }
        non_blank += 1;
    })
    .map_err(|error| Error::invalid(format!("the table cannot be read: {error}")))?;
    let record = |range: std::ops::Range<usize>| {
        let len = text.get(range.clone()).map_or(0, |t| record_text(t).len());
        range.start..range.start + len
    };
    Ok(RowRanges {
        delimiter,
        header: record(header.unwrap_or(0..0)),
        rows: wanted.into_iter().map(record).collect(),
        total_rows: non_blank.saturating_sub(1),
    })
}

pub fn read_rows(text: &str, request: &RowsRequest) -> Result<RowsRead> {
    let request = check(request)?;
    let last_wanted = request.start.saturating_add(request.count - 1);
    let RowRanges {
        delimiter,
        header,
        rows: wanted,
        total_rows,
    } = row_ranges(text, request.start, last_wanted)?;
    let header = text.get(header).unwrap_or("");
    let budget = request.max_chars.saturating_sub(CUT_MARKER_RESERVE);
    let mut content = String::new();
    let mut used = 0usize;
    let mut cut = false;
    let mut shown = 0usize;
    for (index, range) in std::iter::once(None)
        .chain(wanted.into_iter().map(Some))
        .enumerate()
    {
        let row = match range {
            None => header,
            Some(range) => text.get(range).unwrap_or(""),
        };
        let needed = usize::from(index > 0) + char_len(row);
        if used + needed > budget {
            // Rows that do not fit wait for the next read; a first one that cannot fit is cut.
            if shown > 0 {
                break;
            }
            let room = budget.saturating_sub(used + 1);
            if index > 0 {
                content.push('\n');
            }
            content.push_str(&row[..byte_offset(row, room)]);
            let row_label = if index == 0 {
                "the header".to_string()
            } else {
                format!("row {}", request.start)
            };
            content.push_str(&format!(
                "\n[... {row_label} cut: {} of {} chars shown; read it with a line window or offset/limit]",
                char_len(&row[..byte_offset(row, room)]),
                char_len(row)
            ));
            shown += usize::from(index > 0);
            cut = true;
            break;
        }
        if index > 0 {
            content.push('\n');
            shown += 1;
        }
        content.push_str(row);
        used += needed;
    }
    let end_row = request.start + shown - 1;
    Ok(RowsRead {
        content,
        delimiter: delimiter.to_string(),
        start_row: request.start,
        end_row,
        total_rows,
        has_more: cut || end_row < total_rows,
        cut,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(text: &str, start: i64, count: i64, max_chars: i64) -> Result<RowsRead> {
        let request = RowsRequest {
            rows: RowRange {
                start: Some(start),
                count: Some(count),
            },
            max_chars: Some(max_chars),
        };
        read_rows(text, &request)
    }

    #[test]
    fn header_plus_rows_with_quoted_fields_intact() {
        let text = "id,note\r\n1,\"a, \"\"quoted\"\"\nline\"\r\n\r\n2,plain\r\n3,last\r\n";
        let read = rows(text, 1, 2, 20_000).expect("a table");
        assert_eq!(
            read.content,
            "id,note\n1,\"a, \"\"quoted\"\"\nline\"\n2,plain"
        );
        assert_eq!(
            (read.start_row, read.end_row, read.total_rows, read.has_more),
            (1, 2, 3, true)
        );
        let last = rows(text, 3, 10, 20_000).expect("a table");
        assert_eq!(
            (last.content.as_str(), last.has_more),
            ("id,note\n3,last", false)
        );
        let past = rows(text, 9, 1, 20_000).expect("a table");
        assert_eq!((past.content.as_str(), past.end_row), ("id,note", 8));
    }

    #[test]
    fn tsv_is_read_with_tabs() {
        let read = rows("a\tb\n1\t2,3\n", 1, 1, 20_000).expect("a table");
        assert_eq!(
            (read.delimiter.as_str(), read.content.as_str()),
            ("\t", "a\tb\n1\t2,3")
        );
    }

    #[test]
    fn rows_stay_within_max_chars() {
        let text = format!("a,b\n1,{}\n2,x\n", "y".repeat(1_000));
        let read = rows(&text, 1, 2, 300).expect("a table");
        assert!(
            read.cut && read.has_more && char_len(&read.content) <= 300,
            "{}",
            read.content
        );
        assert!(read.content.contains("row 1 cut"));
        let second = rows(&text, 2, 5, 300).expect("a table");
        assert_eq!((second.content.as_str(), second.cut), ("a,b\n2,x", false));
    }

    #[test]
    fn not_a_table_or_bad_range_is_invalid() {
        assert!(rows("just text", 1, 1, 20_000).is_err());
        assert!(rows("a,b\n1,2\n", 0, 1, 20_000).is_err());
        assert!(rows("a,b\n1,2\n", 1, 0, 20_000).is_err());
    }
}
