//! CSV / TSV synopsis (SPEC 3.2).
//!
//! The reference reads the whole output with `csv.reader(io.StringIO(output), delimiter=d)`
//! (excel dialect, CPython 3.11). The `csv` crate differs from CPython in several corners (text
//! after a closing quote, lone `\r`, the field size limit), so this module carries its own copy of
//! CPython's `_csv.c` reader state machine, fed the way `io.StringIO` feeds it:
//! - `io.StringIO(s)` has `newline="\n"`, so its lines end only at `\n`; a lone `\r` (and `\v`,
//!   `\x1c`, `\u2028`, ...) stays inside the line. The reader sees each line's chars, then an
//!   end-of-line marker.
//! - `\r` and `\n` end an unquoted record; any further char on the same line after them is the
//!   error "new-line character seen in unquoted field" (so `a\rb` is not a table).
//! - A field reaching `csv.field_size_limit()` (131072 chars) raises on its next char.
//!
//! Any reader error means "not a table". Rows are scanned in one pass and only what the synopsis
//! needs is kept: the first two non-blank rows and the count of non-blank rows (rows 2..10 are
//! checked on the fly), so a 50 MB output costs little more than its own size.

use crate::pyutil::{is_py_space, one_line, py_strip};
use crate::synopsis::Synopsis;

/// CPython's default `csv.field_size_limit()`.
const FIELD_SIZE_LIMIT: usize = 131_072;
/// Rows 2..=10 of the non-blank rows must have the first row's cell count; later rows are free.
const LAST_CHECKED_ROW: usize = 10;
/// `first row sample` is clipped to this many chars.
const SAMPLE_CHARS: i64 = 180;

/// The excel dialect's quote char.
const QUOTE: char = '"';

/// `csv.reader` over `io.StringIO(output)` with `delimiter`, reduced to the table synopsis.
/// Only `,` (kind `csv`) and tab (kind `tsv`) are table delimiters; any other gives `None`.
pub fn synopsis(output: &str, delimiter: char) -> Option<Synopsis> {
    let (kind, title, label) = match delimiter {
        ',' => ("csv", "CSV table output", "CSV"),
        '\t' => ("tsv", "TSV table output", "TSV"),
        _ => return None,
    };
    let table = scan_table(output, delimiter).ok()?;
    let (header, first_data_row) = match (table.header, table.first_data_row) {
        (Some(header), Some(row)) => (header, row),
        _ => return None,
    };
    let columns: Vec<String> = header
        .cells(delimiter)
        .enumerate()
        .map(|(index, cell)| match py_strip(cell) {
            "" => format!("column_{}", index + 1),
            name => name.to_string(),
        })
        .collect();
    let data_rows = table.non_blank_rows.saturating_sub(1);
    let mut synopsis = Synopsis::new(kind, title);
    synopsis.summary.push(format!(
        "{label} table with rows: {data_rows} and columns: {}.",
        columns.len()
    ));
    synopsis
        .structure
        .push(format!("columns: {}", columns.join(", ")));
    synopsis.structure.push(format!("rows: {data_rows}"));
    // The stored text already is the cells joined by the delimiter.
    synopsis.structure.push(format!(
        "first row sample: {}",
        one_line(&first_data_row.joined, SAMPLE_CHARS)
    ));
    Some(synopsis)
}

/// Why a scan stops early: a `csv.Error` in the reference, or a rule that already rules the table
/// out (the result is `None` either way, so there is no need to read on).
#[derive(Debug, PartialEq, Eq)]
enum NotATable {
    /// `field larger than field limit (131072)`.
    FieldTooLarge,
    /// `new-line character seen in unquoted field`.
    NewlineInUnquotedField,
    /// The first non-blank row has fewer than 2 cells.
    TooFewColumns,
    /// One of rows 2..10 has another cell count than the first row.
    RaggedRow,
}

/// What one pass over the output keeps.
#[derive(Debug, Default)]
struct ScannedTable {
    header: Option<KeptRecord>,
    first_data_row: Option<KeptRecord>,
    /// Rows left after dropping those whose cells are all ws (`[]` included).
    non_blank_rows: usize,
}

/// A record kept whole, compactly: its cells joined by the delimiter (exactly the text the sample
/// needs) and each cell's UTF-8 length. A field holds at most 131072 chars, so a `u32` fits, and a
/// row of millions of empty cells costs 4 bytes a cell rather than a `String` each.
#[derive(Debug, Default)]
struct KeptRecord {
    joined: String,
    cell_byte_lens: Vec<u32>,
}

impl KeptRecord {
    fn cells(&self, delimiter: char) -> impl Iterator<Item = &str> + '_ {
        let step = delimiter.len_utf8();
        let mut start = 0usize;
        self.cell_byte_lens.iter().map(move |&len| {
            let end = start + len as usize;
            // Offsets come from the pushes that built `joined`, so `get` always succeeds; it is
            // used anyway so no input can make this panic.
            let cell = self.joined.get(start..end).unwrap_or("");
            start = end + step;
            cell
        })
    }
}

/// The states of CPython's `_csv.c` reader that the excel dialect can reach (no escape char).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ReaderState {
    StartRecord,
    StartField,
    InField,
    InQuotedField,
    QuoteInQuotedField,
    EatCrNl,
}

/// One step of input: a char of the current line, or the end of that line (`EOL` in `_csv.c`).
#[derive(Debug, Clone, Copy)]
enum ReaderInput {
    Char(char),
    EndOfLine,
}

/// CPython's reader plus the row bookkeeping of SPEC 3.2.
struct TableScanner {
    delimiter: char,
    state: ReaderState,
    /// Chars in the field being read, for the field size limit.
    field_chars: usize,
    /// Byte offset in `current.joined` where the field being read starts.
    field_start: usize,
    /// Cells saved so far in the record being read.
    record_cells: usize,
    /// Whether any char of the record so far is not ws (a cell that strips to non-empty).
    record_has_content: bool,
    /// Whether the record being read must be stored (it may become the first or second row).
    keep_current: bool,
    current: KeptRecord,
    header_cells: usize,
    table: ScannedTable,
}

impl TableScanner {
    fn new(delimiter: char) -> Self {
        TableScanner {
            delimiter,
            state: ReaderState::StartRecord,
            field_chars: 0,
            field_start: 0,
            record_cells: 0,
            record_has_content: false,
            keep_current: true,
            current: KeptRecord::default(),
            header_cells: 0,
            table: ScannedTable::default(),
        }
    }

    /// `parse_add_char`: the limit is checked before the char is added, so a field may hold
    /// exactly 131072 chars.
    fn add_char(&mut self, c: char) -> Result<(), NotATable> {
        if self.field_chars >= FIELD_SIZE_LIMIT {
            return Err(NotATable::FieldTooLarge);
        }
        self.field_chars += 1;
        if !is_py_space(c) {
            self.record_has_content = true;
        }
        if self.keep_current {
            self.current.joined.push(c);
        }
        Ok(())
    }

    /// `parse_save_field`.
    fn save_field(&mut self) {
        self.record_cells += 1;
        self.field_chars = 0;
        if self.keep_current {
            let len = self.current.joined.len() - self.field_start;
            // A field is at most 131072 chars of at most 4 bytes: always fits.
            self.current
                .cell_byte_lens
                .push(u32::try_from(len).unwrap_or(u32::MAX));
            // The delimiter after every cell; the one after the last cell is removed when the
            // record ends.
            self.current.joined.push(self.delimiter);
            self.field_start = self.current.joined.len();
        }
    }

    /// A record as `csv.reader` yields it: drop it when blank, else count it and check it.
    fn end_record(&mut self) -> Result<(), NotATable> {
        let cells = self.record_cells;
        let has_content = self.record_has_content;
        let mut record = std::mem::take(&mut self.current);
        if cells > 0 {
            record.joined.pop();
        }
        self.record_cells = 0;
        self.record_has_content = false;
        self.field_start = 0;
        if !has_content {
            return Ok(());
        }
        self.table.non_blank_rows += 1;
        let row_number = self.table.non_blank_rows;
        match row_number {
            1 => {
                if cells < 2 {
                    return Err(NotATable::TooFewColumns);
                }
                self.header_cells = cells;
                self.table.header = Some(record);
            }
            2 => self.table.first_data_row = Some(record),
            _ => {}
        }
        if (2..=LAST_CHECKED_ROW).contains(&row_number) && cells != self.header_cells {
            return Err(NotATable::RaggedRow);
        }
        self.keep_current = self.table.non_blank_rows < 2;
        Ok(())
    }

    /// `parse_process_char` of `_csv.c` for the excel dialect (quoting minimal, doublequote,
    /// no escape char, no skipinitialspace, not strict).
    fn step(&mut self, input: ReaderInput) -> Result<(), NotATable> {
        use ReaderInput::{Char, EndOfLine};
        use ReaderState::*;
        let is_line_end = matches!(input, Char('\n') | Char('\r') | EndOfLine);
        let after_line_end = if matches!(input, EndOfLine) {
            StartRecord
        } else {
            EatCrNl
        };
        if self.state == StartRecord {
            match input {
                // An empty line: the record `[]`.
                EndOfLine => return Ok(()),
                Char('\n') | Char('\r') => {
                    self.state = EatCrNl;
                    return Ok(());
                }
                // Any other char starts a field.
                Char(_) => self.state = StartField,
            }
        }
        match self.state {
            StartRecord => {}
            StartField => match input {
                _ if is_line_end => {
                    self.save_field();
                    self.state = after_line_end;
                }
                Char(QUOTE) => self.state = InQuotedField,
                Char(c) if c == self.delimiter => self.save_field(),
                Char(c) => {
                    self.add_char(c)?;
                    self.state = InField;
                }
                EndOfLine => {}
            },
            InField => match input {
                _ if is_line_end => {
                    self.save_field();
                    self.state = after_line_end;
                }
                Char(c) if c == self.delimiter => {
                    self.save_field();
                    self.state = StartField;
                }
                // A quote inside an unquoted field is an ordinary char.
                Char(c) => self.add_char(c)?,
                EndOfLine => {}
            },
            InQuotedField => match input {
                // The line break itself was already added as a char: the field goes on.
                EndOfLine => {}
                Char(QUOTE) => self.state = QuoteInQuotedField,
                Char(c) => self.add_char(c)?,
            },
            QuoteInQuotedField => match input {
                // `""` inside quotes is one `"`.
                Char(QUOTE) => {
                    self.add_char(QUOTE)?;
                    self.state = InQuotedField;
                }
                Char(c) if c == self.delimiter => {
                    self.save_field();
                    self.state = StartField;
                }
                _ if is_line_end => {
                    self.save_field();
                    self.state = after_line_end;
                }
                // Not strict: text after the closing quote is appended to the field.
                Char(c) => {
                    self.add_char(c)?;
                    self.state = InField;
                }
                EndOfLine => {}
            },
            EatCrNl => match input {
                Char('\n') | Char('\r') => {}
                EndOfLine => self.state = StartRecord,
                Char(_) => return Err(NotATable::NewlineInUnquotedField),
            },
        }
        Ok(())
    }

    /// `Reader_iternext` after a line: the record is complete when the state is back at the start
    /// of a record; otherwise a quoted field goes on in the next line.
    fn end_line(&mut self) -> Result<(), NotATable> {
        self.step(ReaderInput::EndOfLine)?;
        if self.state == ReaderState::StartRecord {
            self.end_record()?;
        }
        Ok(())
    }

    /// End of input: an open quoted field (even empty) is saved and its record yielded, as
    /// `Reader_iternext` does in non-strict mode.
    fn finish(mut self) -> Result<ScannedTable, NotATable> {
        if self.state == ReaderState::InQuotedField || self.field_chars != 0 {
            self.save_field();
            self.end_record()?;
        }
        Ok(self.table)
    }
}

/// One pass of the reader over `output`, split into lines the way `io.StringIO` iterates (at `\n`
/// only, keeping the `\n`; no empty last line).
fn scan_table(output: &str, delimiter: char) -> Result<ScannedTable, NotATable> {
    let mut scanner = TableScanner::new(delimiter);
    let mut line_open = false;
    for c in output.chars() {
        scanner.step(ReaderInput::Char(c))?;
        if c == '\n' {
            scanner.end_line()?;
            line_open = false;
        } else {
            line_open = true;
        }
    }
    if line_open {
        scanner.end_line()?;
    }
    scanner.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows `csv.reader` yields (before the blank filter), for checking the reader alone.
    fn rows(output: &str, delimiter: char) -> Result<(usize, Vec<String>, Vec<String>), NotATable> {
        let table = scan_table(output, delimiter)?;
        let cells = |record: Option<KeptRecord>| {
            record
                .map(|r| r.cells(delimiter).map(str::to_string).collect::<Vec<_>>())
                .unwrap_or_default()
        };
        Ok((
            table.non_blank_rows,
            cells(table.header),
            cells(table.first_data_row),
        ))
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn basic_csv_synopsis() {
        let syn = synopsis("name,age\nAlan,25\nBea,30\n", ',').unwrap();
        assert_eq!(syn.kind, "csv");
        assert_eq!(syn.title, "CSV table output");
        assert_eq!(
            syn.summary,
            strings(&["CSV table with rows: 2 and columns: 2."])
        );
        assert_eq!(
            syn.structure,
            strings(&["columns: name, age", "rows: 2", "first row sample: Alan,25"])
        );
        assert!(syn.notable_items.is_empty());
        assert_eq!(syn.sample, "");
    }

    #[test]
    fn tsv_sample_joins_with_tab_then_collapses_ws() {
        let syn = synopsis("a\tb\n1\t2\n", '\t').unwrap();
        assert_eq!(syn.kind, "tsv");
        assert_eq!(
            syn.summary,
            strings(&["TSV table with rows: 1 and columns: 2."])
        );
        assert_eq!(syn.structure[2], "first row sample: 1 2");
    }

    #[test]
    fn empty_header_cells_are_named_by_position() {
        let syn = synopsis(" ,b,\n1,2,3\n", ',').unwrap();
        assert_eq!(syn.structure[0], "columns: column_1, b, column_3");
    }

    #[test]
    fn lone_cr_followed_by_text_is_a_reader_error() {
        // io.StringIO keeps `\r` inside the line; `_csv.c` then refuses text after it.
        assert_eq!(
            rows("a,b\rc,d\n", ',').unwrap_err(),
            NotATable::NewlineInUnquotedField
        );
        assert_eq!(
            rows("\"a\"\rb", ',').unwrap_err(),
            NotATable::NewlineInUnquotedField
        );
        // `\r\n`, a final `\r` and `\r\r\n` are fine.
        assert!(synopsis("a,b\r\nc,d\r", ',').is_some());
        assert!(synopsis("a,b\r\r\nc,d\n", ',').is_some());
    }

    #[test]
    fn other_line_breaks_are_ordinary_chars() {
        let (count, header, second) = rows("a\u{2028}x,b\x0by\nc\x1c,d\u{85}\n", ',').unwrap();
        assert_eq!(count, 2);
        assert_eq!(header, strings(&["a\u{2028}x", "b\x0by"]));
        assert_eq!(second, strings(&["c\x1c", "d\u{85}"]));
    }

    #[test]
    fn quoted_fields_hold_delimiters_breaks_and_doubled_quotes() {
        let (_, header, second) = rows("\"a,b\",\"c\nd\"\n\"x\"\"y\",\"\"\n", ',').unwrap();
        assert_eq!(header, strings(&["a,b", "c\nd"]));
        assert_eq!(second, strings(&["x\"y", ""]));
    }

    #[test]
    fn text_after_closing_quote_is_appended_and_inner_quote_is_literal() {
        let (_, header, _) = rows("\"a\"x,b\"c\"d\n", ',').unwrap();
        assert_eq!(header, strings(&["ax", "b\"c\"d"]));
    }

    #[test]
    fn unterminated_quote_at_end_yields_the_field() {
        let (count, _, second) = rows("a,b\n1,\"2\n3", ',').unwrap();
        assert_eq!(count, 2);
        assert_eq!(second, strings(&["1", "2\n3"]));
        // An open quote with nothing after it still yields an (empty) field.
        let (_, _, second) = rows("a,b\n1,\"", ',').unwrap();
        assert_eq!(second, strings(&["1", ""]));
    }

    #[test]
    fn blank_rows_are_dropped_before_counting_and_checking() {
        let syn = synopsis("\n , \t\na,b\n\n\r\n,\nc,d\n", ',').unwrap();
        assert_eq!(syn.summary[0], "CSV table with rows: 1 and columns: 2.");
    }

    #[test]
    fn row_checks_stop_after_the_tenth_row() {
        let mut ok = String::from("a,b\n");
        for _ in 0..9 {
            ok.push_str("1,2\n");
        }
        let mut ragged_late = ok.clone();
        ragged_late.push_str("1,2,3\n");
        assert_eq!(
            synopsis(&ragged_late, ',').unwrap().structure[1],
            "rows: 10"
        );
        let mut ragged_tenth = String::from("a,b\n");
        for _ in 0..8 {
            ragged_tenth.push_str("1,2\n");
        }
        ragged_tenth.push_str("1\n");
        assert!(synopsis(&ragged_tenth, ',').is_none());
    }

    #[test]
    fn not_a_table_cases() {
        assert!(synopsis("", ',').is_none());
        assert!(synopsis("a,b\n", ',').is_none());
        assert!(synopsis("a\nb\n", ',').is_none());
        assert!(synopsis("a,b\n1,2", ';').is_none());
    }

    #[test]
    fn field_size_limit_is_131072_chars() {
        let at_limit = format!("a,b\n1,{}\n", "x".repeat(FIELD_SIZE_LIMIT));
        assert!(synopsis(&at_limit, ',').is_some());
        let over = format!("a,b\n1,{}\n", "x".repeat(FIELD_SIZE_LIMIT + 1));
        assert!(synopsis(&over, ',').is_none());
        // The limit also applies far after the rows that are kept, and inside quotes.
        let late = format!(
            "a,b\n1,2\n{}\"{}\"\n",
            "3,4\n".repeat(20),
            "y".repeat(FIELD_SIZE_LIMIT + 1)
        );
        assert_eq!(rows(&late, ',').unwrap_err(), NotATable::FieldTooLarge);
    }

    #[test]
    fn sample_is_clipped_to_180_chars() {
        let long = format!("a,b\n{},z\n", "w".repeat(300));
        let syn = synopsis(&long, ',').unwrap();
        let sample = syn.structure[2].trim_start_matches("first row sample: ");
        assert_eq!(sample.chars().count(), 180);
        assert!(sample.ends_with("..."));
    }

    #[test]
    fn huge_row_of_empty_cells_stays_linear() {
        let output = format!("{}\n", ",".repeat(2_000_000));
        assert!(synopsis(&output, ',').is_none());
    }
}
