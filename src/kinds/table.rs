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
//! Any reader error means "not a table". The first pass only counts: records tile the input (each
//! ends at a line end), so it keeps just the byte ranges of the first two non-blank rows, the
//! number of non-blank rows, and checks rows 2..10 on the fly. A second pass re-reads those two
//! ranges to build the column names and the sample. Memory stays at the size of the answer, and
//! both passes are linear.

use std::fmt::Write as _;
use std::ops::Range;

use super::Synopsis;
use crate::python::swar::{
    continuation_bytes, count_flagged, zero_bytes_up_to_first, LOW_BITS, WORD_BYTES,
};
use crate::python::{is_py_space, one_line, py_strip};

/// CPython's default `csv.field_size_limit()`.
const FIELD_SIZE_LIMIT: usize = 131_072;
/// Rows 2..=10 of the non-blank rows must have the first row's cell count; later rows are free.
const LAST_CHECKED_ROW: usize = 10;
/// `first row sample` is clipped to this many chars.
const SAMPLE_CHARS: i64 = 180;

/// The excel dialect's quote char.
const QUOTE: char = '"';

/// Whether `byte` continues a UTF-8 sequence (so it does not start a char).
fn is_utf8_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// `csv.reader` over `io.StringIO(output)` with `delimiter`, reduced to the table synopsis.
/// Only `,` (kind `csv`) and tab (kind `tsv`) are table delimiters; any other gives `None`.
/// Columns the `columns:` line names; the rest are counted (`, ... N more columns`), the way long
/// JSON lists are sampled. Past the widest table of the parity corpus (24 columns), so the
/// reference's stubs are unchanged wherever the corpus shows them; a table 200,000 columns wide
/// no longer makes a stub (and a synopsis) of every name. The enhanced column statistics read no
/// more columns than this either.
pub const MAX_LISTED_COLUMNS: usize = 64;

pub fn synopsis(output: &str, delimiter: char) -> Option<Synopsis> {
    let (kind, title, label) = match delimiter {
        ',' => ("csv", "CSV table output", "CSV"),
        '\t' => ("tsv", "TSV table output", "TSV"),
        _ => return None,
    };
    let table = scan_table(output, delimiter).ok()?;
    let (header_range, first_data_range) = match (table.header, table.first_data_row) {
        (Some(header), Some(row)) => (header, row),
        _ => return None,
    };
    let columns = read_record(output.get(header_range)?, delimiter, ColumnNames::default()).ok()?;
    let sample = read_record(
        output.get(first_data_range)?,
        delimiter,
        JoinedCells {
            delimiter,
            joined: String::new(),
            count: 0,
            ends: None,
        },
    )
    .ok()?;
    let data_rows = table.non_blank_rows.saturating_sub(1);
    let mut synopsis = Synopsis::new(kind, title);
    synopsis.summary.push(format!(
        "{label} table with rows: {data_rows} and columns: {}.",
        columns.count
    ));
    let unlisted = columns.count.saturating_sub(MAX_LISTED_COLUMNS);
    let more = if unlisted > 0 {
        format!(", ... {unlisted} more columns")
    } else {
        String::new()
    };
    synopsis
        .structure
        .push(format!("columns: {}{more}", columns.names));
    synopsis.structure.push(format!("rows: {data_rows}"));
    synopsis.structure.push(format!(
        "first row sample: {}",
        one_line(&sample.joined, SAMPLE_CHARS)
    ));
    Some(synopsis)
}

/// Why reading stops early: a `csv.Error` in the reference, or a rule that already rules the
/// table out (the result is `None` either way, so there is no need to read on).
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
    /// Not an error: the caller of `visit_first_rows` has all the rows it wants.
    Enough,
}

/// What the counting pass keeps.
#[derive(Debug, Default)]
struct ScannedTable {
    /// Byte range of the first non-blank row.
    header: Option<Range<usize>>,
    /// Byte range of the second non-blank row.
    first_data_row: Option<Range<usize>>,
    /// Rows left after dropping those whose cells are all ws (`[]` included).
    non_blank_rows: usize,
}

/// Receives each cell the reader saves.
trait CellSink {
    /// Whether the cell text is needed at all (the counting pass needs none, so it stores none).
    const NEEDS_TEXT: bool;
    fn cell(&mut self, text: &str);
}

/// The counting pass: no cell text.
struct CountOnly;

impl CellSink for CountOnly {
    const NEEDS_TEXT: bool = false;
    fn cell(&mut self, _text: &str) {}
}

/// The header row as `columns: ...` lists it: stripped, an empty name becoming `column_{i}`.
#[derive(Default)]
struct ColumnNames {
    names: String,
    count: usize,
}

impl CellSink for ColumnNames {
    const NEEDS_TEXT: bool = true;
    fn cell(&mut self, text: &str) {
        self.count += 1;
        if self.count > MAX_LISTED_COLUMNS {
            return;
        }
        if self.count > 1 {
            self.names.push_str(", ");
        }
        match py_strip(text) {
            "" => {
                // Writing to a String cannot fail.
                let _ = write!(self.names, "column_{}", self.count);
            }
            name => self.names.push_str(name),
        }
    }
}

/// A row's cells joined by the delimiter, as the sample line shows them; with `ends`, where each
/// cell ends in `joined` too (so `visit_rows` reads cells with this same reader instance: a
/// second sink type would be a second copy of the CSV reader in the wasm).
struct JoinedCells {
    delimiter: char,
    joined: String,
    count: usize,
    ends: Option<Vec<usize>>,
}

impl CellSink for JoinedCells {
    const NEEDS_TEXT: bool = true;
    fn cell(&mut self, text: &str) {
        self.count += 1;
        if self.count > 1 {
            self.joined.push(self.delimiter);
        }
        self.joined.push_str(text);
        if let Some(ends) = &mut self.ends {
            ends.push(self.joined.len());
        }
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

/// A record the reader yielded, as far as the row rules care.
#[derive(Debug, Clone, Copy)]
struct RecordEnd {
    cells: usize,
    /// Whether some cell strips to non-empty (else the row is dropped).
    has_content: bool,
}

/// CPython's `_csv.c` reader for the excel dialect.
struct CsvReader<S: CellSink> {
    delimiter: char,
    state: ReaderState,
    /// Chars in the field being read, for the field size limit.
    field_chars: usize,
    /// The field being read (only when the sink needs text).
    field_text: String,
    /// Cells saved so far in the record being read.
    record_cells: usize,
    /// Whether any char of the record so far is not ws (a cell that strips to non-empty).
    record_has_content: bool,
    /// When set, a non-blank record with more cells than this is ruled out as soon as it gets
    /// there (a row among 2..10 longer than the header), instead of at its end.
    max_cells: Option<usize>,
    sink: S,
}

impl<S: CellSink> CsvReader<S> {
    fn new(delimiter: char, sink: S) -> Self {
        CsvReader {
            delimiter,
            state: ReaderState::StartRecord,
            field_chars: 0,
            field_text: String::new(),
            record_cells: 0,
            record_has_content: false,
            max_cells: None,
            sink,
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
        if S::NEEDS_TEXT {
            self.field_text.push(c);
        }
        Ok(())
    }

    /// `add_char` for each of the `chars` chars of `run` (which holds no char that ends or splits the field):
    /// the limit fails when the field would pass 131072 chars, as char by char it would.
    #[inline(always)]
    fn add_run(&mut self, run: &str, chars: usize) -> Result<(), NotATable> {
        if chars > FIELD_SIZE_LIMIT.saturating_sub(self.field_chars) {
            return Err(NotATable::FieldTooLarge);
        }
        self.field_chars += chars;
        if !self.record_has_content && run.chars().any(|c| !is_py_space(c)) {
            self.record_has_content = true;
        }
        if S::NEEDS_TEXT {
            self.field_text.push_str(run);
        }
        Ok(())
    }

    /// `parse_save_field`.
    fn save_field(&mut self) -> Result<(), NotATable> {
        self.record_cells += 1;
        self.field_chars = 0;
        self.sink.cell(&self.field_text);
        self.field_text.clear();
        match self.max_cells {
            Some(max) if self.record_has_content && self.record_cells > max => {
                Err(NotATable::RaggedRow)
            }
            _ => Ok(()),
        }
    }

    /// The record just yielded; the next one starts empty.
    fn take_record(&mut self) -> RecordEnd {
        let record = RecordEnd {
            cells: self.record_cells,
            has_content: self.record_has_content,
        };
        self.record_cells = 0;
        self.record_has_content = false;
        record
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
                    self.save_field()?;
                    self.state = after_line_end;
                }
                Char(QUOTE) => self.state = InQuotedField,
                Char(c) if c == self.delimiter => self.save_field()?,
                Char(c) => {
                    self.add_char(c)?;
                    self.state = InField;
                }
                EndOfLine => {}
            },
            InField => match input {
                _ if is_line_end => {
                    self.save_field()?;
                    self.state = after_line_end;
                }
                Char(c) if c == self.delimiter => {
                    self.save_field()?;
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
                    self.save_field()?;
                    self.state = StartField;
                }
                _ if is_line_end => {
                    self.save_field()?;
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
    fn end_line(&mut self) -> Result<Option<RecordEnd>, NotATable> {
        self.step(ReaderInput::EndOfLine)?;
        if self.state == ReaderState::StartRecord {
            return Ok(Some(self.take_record()));
        }
        Ok(None)
    }

    /// End of input: an open quoted field (even empty) is saved and its record yielded, as
    /// `Reader_iternext` does in non-strict mode.
    fn finish(&mut self) -> Result<Option<RecordEnd>, NotATable> {
        if self.state == ReaderState::InQuotedField || self.field_chars != 0 {
            self.save_field()?;
            self.state = ReaderState::StartRecord;
            return Ok(Some(self.take_record()));
        }
        Ok(None)
    }
}

/// Feeds `text` to the reader the way `io.StringIO` iterates (lines split after each `\n`, no
/// empty last line), calling `on_record` with each yielded record and the byte offset where it
/// ends (records tile the text, so the next one starts there).
///
/// Inside a field, runs of chars that cannot change the reader's state go in one step: only the
/// delimiter and `\r`/`\n` end an unquoted field, only `"` can end a quoted one. A `\n` inside
/// quotes ends a line, but the line end is a no-op there (the field goes on), so skipping it
/// changes nothing. Every other char goes through `step` one at a time.
fn read_records<S: CellSink>(
    text: &str,
    reader: &mut CsvReader<S>,
    mut on_record: impl FnMut(&mut CsvReader<S>, RecordEnd, usize) -> Result<(), NotATable>,
) -> Result<(), NotATable> {
    let bytes = text.as_bytes();
    // The delimiter's first UTF-8 byte: a non-ASCII delimiter only stops runs at chars that
    // start like it, and `step` then decides.
    let mut encoded = [0u8; 4];
    let delimiter_lead = reader
        .delimiter
        .encode_utf8(&mut encoded)
        .as_bytes()
        .first()
        .copied()
        .unwrap_or(b',');
    let ends_unquoted = RunStops::new([delimiter_lead, b'\n', b'\r']);
    let ends_quoted = RunStops::new([QUOTE as u8; 3]);
    let is_unquoted_end = |b: u8| b == delimiter_lead || b == b'\n' || b == b'\r';
    // Only an ASCII delimiter is a whole char in one byte.
    let delimiter_byte = reader.delimiter.is_ascii().then_some(delimiter_lead);
    let mut at = 0usize;
    while let Some(&byte) = bytes.get(at) {
        use ReaderState::*;
        let run = match reader.state {
            // An ordinary char (not a quote opening the field) starts or goes on with an
            // unquoted field: `step` would add it and move to `InField`.
            StartRecord | StartField | InField
                if !is_unquoted_end(byte) && (byte != QUOTE as u8 || reader.state == InField) =>
            {
                scan_run(bytes, at, ends_unquoted)
            }
            InQuotedField if byte != QUOTE as u8 => scan_run(bytes, at, ends_quoted),
            // Outside quotes and after a line break, the delimiter saves the field.
            StartRecord | StartField | InField | QuoteInQuotedField
                if Some(byte) == delimiter_byte =>
            {
                reader.save_field()?;
                reader.state = StartField;
                at += 1;
                continue;
            }
            _ => Run { end: at, chars: 0 },
        };
        if run.end > at {
            // Runs end at an ASCII byte or at the end of the text: always a char boundary.
            reader.add_run(text.get(at..run.end).unwrap_or_default(), run.chars)?;
            at = run.end;
            if reader.state == InQuotedField {
                continue;
            }
            reader.state = InField;
            // The bulk of a table: unquoted fields, each a run then the delimiter. While the
            // next field starts with an ordinary char, go on here rather than back through
            // the dispatch above (which would do the same).
            while bytes.get(at).copied() == delimiter_byte && delimiter_byte.is_some() {
                reader.save_field()?;
                reader.state = StartField;
                at += 1;
                match bytes.get(at) {
                    Some(&next) if !is_unquoted_end(next) && next != QUOTE as u8 => {
                        let run = scan_run(bytes, at, ends_unquoted);
                        reader.add_run(text.get(at..run.end).unwrap_or_default(), run.chars)?;
                        reader.state = InField;
                        at = run.end;
                    }
                    _ => break,
                }
            }
            continue;
        }
        let Some(c) = text.get(at..).and_then(|rest| rest.chars().next()) else {
            break;
        };
        reader.step(ReaderInput::Char(c))?;
        at += c.len_utf8();
        if c == '\n' {
            if let Some(record) = reader.end_line()? {
                on_record(reader, record, at)?;
            }
        }
    }
    // A last line without `\n` still ends.
    if !text.is_empty() && !text.ends_with('\n') {
        if let Some(record) = reader.end_line()? {
            on_record(reader, record, text.len())?;
        }
    }
    if let Some(record) = reader.finish()? {
        on_record(reader, record, text.len())?;
    }
    Ok(())
}

/// A run of field chars: where it ends and how many chars it holds.
struct Run {
    end: usize,
    chars: usize,
}

/// The bytes that end a run, for the word-at-a-time scan: up to three (repeat one to use
/// fewer), each also repeated in every byte of a word.
#[derive(Clone, Copy)]
struct RunStops {
    bytes: [u8; 3],
    words: [u64; 3],
}

impl RunStops {
    fn new(bytes: [u8; 3]) -> Self {
        RunStops {
            bytes,
            words: bytes.map(|byte| LOW_BITS * u64::from(byte)),
        }
    }

    #[inline(always)]
    fn contains(&self, byte: u8) -> bool {
        let [a, b, c] = self.bytes;
        byte == a || byte == b || byte == c
    }

    /// The high bit of each byte of `word` that is a stop. Exact up to the lowest stop; a byte
    /// above a stop may be flagged too, which is harmless as only the lowest one is used.
    #[inline(always)]
    fn in_word(&self, word: u64) -> u64 {
        let [a, b, c] = self.words;
        zero_bytes_up_to_first(word ^ a)
            | zero_bytes_up_to_first(word ^ b)
            | zero_bytes_up_to_first(word ^ c)
    }
}

/// The run from `from` up to the first of the `stops` bytes (or the end of `bytes`), read a
/// word of 8 bytes at a time: fields are most of a table, and this is its hot loop.
#[inline(always)]
fn scan_run(bytes: &[u8], from: usize, stops: RunStops) -> Run {
    let rest = bytes.get(from..).unwrap_or_default();
    let mut words = rest.chunks_exact(WORD_BYTES);
    let mut scanned = 0usize;
    let mut continuations = 0usize;
    for chunk in &mut words {
        let word = u64::from_le_bytes(<[u8; WORD_BYTES]>::try_from(chunk).unwrap_or_default());
        let continuation_bits = continuation_bytes(word);
        let stop_bits = stops.in_word(word);
        if stop_bits != 0 {
            let offset = (stop_bits.trailing_zeros() / 8) as usize;
            let before_stop = (1u64 << (offset * 8)) - 1;
            continuations += count_flagged(continuation_bits & before_stop);
            scanned += offset;
            return Run {
                end: from + scanned,
                chars: scanned - continuations,
            };
        }
        continuations += count_flagged(continuation_bits);
        scanned += WORD_BYTES;
    }
    for &byte in words.remainder() {
        if stops.contains(byte) {
            break;
        }
        continuations += usize::from(is_utf8_continuation(byte));
        scanned += 1;
    }
    Run {
        end: from + scanned,
        chars: scanned - continuations,
    }
}

/// The counting pass over the whole output.
fn scan_table(output: &str, delimiter: char) -> Result<ScannedTable, NotATable> {
    let mut reader = CsvReader::new(delimiter, CountOnly);
    let mut table = ScannedTable::default();
    let mut header_cells = 0usize;
    let mut record_start = 0usize;
    read_records(output, &mut reader, |reader, record, record_end| {
        let range = record_start..record_end;
        record_start = record_end;
        if !record.has_content {
            return Ok(());
        }
        table.non_blank_rows += 1;
        let row_number = table.non_blank_rows;
        match row_number {
            1 => {
                if record.cells < 2 {
                    return Err(NotATable::TooFewColumns);
                }
                header_cells = record.cells;
                table.header = Some(range);
            }
            2 => table.first_data_row = Some(range),
            _ => {}
        }
        if (2..=LAST_CHECKED_ROW).contains(&row_number) && record.cells != header_cells {
            return Err(NotATable::RaggedRow);
        }
        // The next non-blank row is checked while it is read when it is one of rows 2..10.
        let next_is_checked = (2..=LAST_CHECKED_ROW).contains(&(row_number + 1));
        reader.max_cells = next_is_checked.then_some(header_cells);
        Ok(())
    })?;
    Ok(table)
}

/// The delimiter the synopsis reads `output` with when it is a table: tab first, then comma
/// (SPEC 2 steps 5-6), or `None` when it is neither a TSV nor a CSV table.
pub fn table_delimiter(output: &str) -> Option<char> {
    ['\t', ','].into_iter().find(|&delimiter| {
        output.contains(delimiter)
            && matches!(
                scan_table(output, delimiter),
                Ok(ScannedTable {
                    first_data_row: Some(_),
                    ..
                })
            )
    })
}

/// Calls `on_row` with the byte range of each non-blank record of `output`, read with the same
/// Python `csv` rules as the synopsis (a record's range ends after its line break). `Err` is
/// the reader's error, as Python words it.
pub fn visit_non_blank_rows(
    output: &str,
    delimiter: char,
    mut on_row: impl FnMut(Range<usize>),
) -> Result<(), String> {
    visit_first_rows(output, delimiter, &mut |range| {
        on_row(range);
        true
    })
}

/// `visit_non_blank_rows` until `on_row` returns `false` (the rest is not read). One `dyn`
/// callback: each closure type would instantiate the whole CSV reader again.
fn visit_first_rows(
    output: &str,
    delimiter: char,
    on_row: &mut dyn FnMut(Range<usize>) -> bool,
) -> Result<(), String> {
    let mut reader = CsvReader::new(delimiter, CountOnly);
    let mut record_start = 0usize;
    let read = read_records(output, &mut reader, |_, record, record_end| {
        if record.has_content && !on_row(record_start..record_end) {
            return Err(NotATable::Enough);
        }
        record_start = record_end;
        Ok(())
    });
    match read {
        Ok(()) | Err(NotATable::Enough) => Ok(()),
        Err(NotATable::FieldTooLarge) => Err(format!(
            "field larger than field limit ({FIELD_SIZE_LIMIT})"
        )),
        Err(NotATable::NewlineInUnquotedField) => {
            Err("new-line character seen in unquoted field".to_string())
        }
        Err(error @ (NotATable::TooFewColumns | NotATable::RaggedRow)) => Err(format!("{error:?}")),
    }
}

/// The data-row count the table synopsis states (its `rows: N` line), read back from a
/// synopsis this module made: the enhanced synopsis reuses it rather than count every row again.
#[cfg(feature = "enhanced")]
pub(crate) fn stated_data_rows(synopsis: &Synopsis) -> Option<usize> {
    synopsis
        .structure
        .iter()
        .find_map(|line| line.strip_prefix("rows: ")?.parse().ok())
}

/// The column count the table synopsis states (its summary's `columns: N.`).
#[cfg(any(test, feature = "enhanced"))]
pub(crate) fn stated_columns(synopsis: &Synopsis) -> Option<usize> {
    let summary = synopsis.summary.first()?;
    let at = summary.rfind("columns: ")? + "columns: ".len();
    summary.get(at..)?.strip_suffix('.')?.parse().ok()
}

/// Calls `on_row` with the cells of the first `max_rows` non-blank records of `output` (the
/// synopsis's reading rules), for the enhanced synopses' column statistics, and reads no further;
/// returns how many it read.
#[cfg(feature = "enhanced")]
pub(crate) fn visit_rows(
    output: &str,
    delimiter: char,
    max_rows: usize,
    mut on_row: impl FnMut(&[&str]),
) -> Result<usize, String> {
    let mut failed = false;
    let mut seen = 0usize;
    // Through a `dyn` callback, the instance `retrieval::table_rows` uses: each closure type
    // would instantiate the whole CSV reader again (~17 KB of wasm).
    let on_range: &mut dyn FnMut(Range<usize>) -> bool = &mut |range: Range<usize>| {
        if seen == max_rows {
            return false;
        }
        seen += 1;
        let sink = JoinedCells {
            delimiter,
            joined: String::new(),
            count: 0,
            ends: Some(Vec::new()),
        };
        let Some(Ok(row)) = output
            .get(range)
            .map(|text| read_record(text, delimiter, sink))
        else {
            failed = true;
            return false;
        };
        let mut start = 0;
        let mut cells: Vec<&str> = Vec::with_capacity(row.count);
        for &end in row.ends.as_deref().unwrap_or_default() {
            cells.push(row.joined.get(start..end).unwrap_or(""));
            start = end + delimiter.len_utf8();
        }
        on_row(&cells);
        true
    };
    visit_first_rows(output, delimiter, on_range)?;
    if failed {
        return Err("unreadable record".to_string());
    }
    Ok(seen)
}

/// Re-reads one record (a range the counting pass found) and hands its cells to `sink`.
fn read_record<S: CellSink>(record_text: &str, delimiter: char, sink: S) -> Result<S, NotATable> {
    let mut reader = CsvReader::new(delimiter, sink);
    read_records(record_text, &mut reader, |_, _, _| Ok(()))?;
    Ok(reader.sink)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cell, for checking the reader alone.
    #[derive(Default)]
    struct AllCells(Vec<String>);

    impl CellSink for AllCells {
        const NEEDS_TEXT: bool = true;
        fn cell(&mut self, text: &str) {
            self.0.push(text.to_string());
        }
    }

    /// The non-blank row count and the cells of the first two non-blank rows.
    fn rows(output: &str, delimiter: char) -> Result<(usize, Vec<String>, Vec<String>), NotATable> {
        let table = scan_table(output, delimiter)?;
        let cells = |range: Option<Range<usize>>| -> Result<Vec<String>, NotATable> {
            match range {
                Some(range) => Ok(read_record(&output[range], delimiter, AllCells::default())?.0),
                None => Ok(Vec::new()),
            }
        };
        Ok((
            table.non_blank_rows,
            cells(table.header)?,
            cells(table.first_data_row)?,
        ))
    }

    /// What a reader run yields: each record's cells (text) and end offset, then the error if any.
    type Trace = (Vec<(Vec<String>, bool, usize)>, Option<NotATable>);

    /// The reader fed one char at a time, as `_csv.c` sees them: the oracle for the run-skipping
    /// driver.
    fn trace_char_by_char(text: &str, delimiter: char) -> Trace {
        let mut reader = CsvReader::new(delimiter, AllCells::default());
        let mut records = Vec::new();
        let mut take = |reader: &mut CsvReader<AllCells>, record: RecordEnd, end: usize| {
            let cells = std::mem::take(&mut reader.sink.0);
            assert_eq!(cells.len(), record.cells);
            records.push((cells, record.has_content, end));
        };
        let result = (|| {
            for (at, c) in text.char_indices() {
                reader.step(ReaderInput::Char(c))?;
                if c == '\n' {
                    if let Some(record) = reader.end_line()? {
                        take(&mut reader, record, at + 1);
                    }
                }
            }
            if !text.is_empty() && !text.ends_with('\n') {
                if let Some(record) = reader.end_line()? {
                    take(&mut reader, record, text.len());
                }
            }
            if let Some(record) = reader.finish()? {
                take(&mut reader, record, text.len());
            }
            Ok(())
        })();
        (records, result.err())
    }

    fn trace_runs(text: &str, delimiter: char) -> Trace {
        let mut reader = CsvReader::new(delimiter, AllCells::default());
        let mut records = Vec::new();
        let result = read_records(text, &mut reader, |reader, record, end| {
            let cells = std::mem::take(&mut reader.sink.0);
            assert_eq!(cells.len(), record.cells);
            records.push((cells, record.has_content, end));
            Ok(())
        });
        (records, result.err())
    }

    #[test]
    fn skipping_runs_reads_exactly_as_char_by_char() {
        let pieces = [
            "a",
            "bc",
            "\"",
            "\"\"",
            ",",
            "\t",
            ";",
            "\n",
            "\r",
            "\r\n",
            " ",
            "\u{3000}",
            "\u{85}",
            "é",
            "日本",
            "\u{1F600}",
            "\x0b",
            "",
            "-",
            "#",
            "\x0e",
            "long unquoted text",
            "\"long quoted, text\"",
        ];
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |bound: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        };
        for _ in 0..20_000 {
            let mut text = String::new();
            let pieces_count = if next(4) == 0 { next(120) } else { next(24) };
            for _ in 0..pieces_count {
                text.push_str(pieces[next(pieces.len())]);
            }
            for delimiter in [',', '\t', ';', '日'] {
                assert_eq!(
                    trace_runs(&text, delimiter),
                    trace_char_by_char(&text, delimiter),
                    "{text:?} {delimiter:?}"
                );
            }
        }
        // The field size limit, reached by runs, by single chars and across both.
        let limit_cases = [
            format!("a,b\n1,{}\n", "é".repeat(FIELD_SIZE_LIMIT)),
            format!("a,b\n1,{}é\n", "x".repeat(FIELD_SIZE_LIMIT)),
            format!("a,\"{}\"\"\"\n", "y".repeat(FIELD_SIZE_LIMIT - 1)),
            format!("a,\"{}\"\"\"\n", "y".repeat(FIELD_SIZE_LIMIT - 2)),
            format!("a,\"{}\"z\n", "y".repeat(FIELD_SIZE_LIMIT)),
        ];
        for text in &limit_cases {
            assert_eq!(trace_runs(text, ','), trace_char_by_char(text, ','));
        }
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
    fn nul_is_an_ordinary_char_as_in_python_3_11() {
        let (_, header, _) = rows("\0a,b\n1,2\n", ',').unwrap();
        assert_eq!(header, strings(&["\0a", "b"]));
    }

    #[test]
    fn a_long_blank_row_is_not_checked_but_a_long_data_row_is() {
        // The early cell-count check only applies to rows that have content.
        let syn = synopsis("a,b\n,, ,\t,\n1,2\n", ',').unwrap();
        assert_eq!(syn.structure[1], "rows: 1");
        assert_eq!(
            rows("a,b\n1,2,3,4\n", ',').unwrap_err(),
            NotATable::RaggedRow
        );
        assert_eq!(
            rows(",,,,x\n1,2\n,,,,\n", ',').unwrap_err(),
            NotATable::RaggedRow
        );
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
    fn a_wide_table_names_its_first_columns_and_counts_the_rest() {
        let width = MAX_LISTED_COLUMNS + 1_000;
        let header: Vec<String> = (0..width).map(|i| format!("c{i}")).collect();
        let row: Vec<String> = (0..width).map(|i| i.to_string()).collect();
        let csv = format!("{}\n{}\n", header.join(","), row.join(","));
        let syn = synopsis(&csv, ',').expect("a table");
        assert_eq!(
            syn.summary[0],
            format!("CSV table with rows: 1 and columns: {width}.")
        );
        let listed = &syn.structure[0];
        assert!(
            listed.ends_with(&format!(
                ", c{}, ... 1000 more columns",
                MAX_LISTED_COLUMNS - 1
            )),
            "{}",
            &listed[listed.len() - 80..]
        );
        assert!(!listed.contains(&format!("c{MAX_LISTED_COLUMNS},")));
        assert_eq!(stated_columns(&syn), Some(width));
        // At the cap, every column is named as the reference names it.
        let header: Vec<String> = (0..MAX_LISTED_COLUMNS).map(|i| format!("c{i}")).collect();
        let csv = format!("{}\n{}\n", header.join(","), header.join(","));
        let syn = synopsis(&csv, ',').expect("a table");
        assert_eq!(syn.structure[0], format!("columns: {}", header.join(", ")));
    }

    #[test]
    fn huge_row_of_empty_cells_stays_linear() {
        let output = format!("{}\n", ",".repeat(2_000_000));
        assert!(synopsis(&output, ',').is_none());
    }
}
