//! CSV/TSV tables (read with the reference's `csv` rules, `kinds::table::visit_rows`): each
//! column's type (integer, float, date, datetime, bool, text), empty cells, numeric min/max, and
//! the values of low-cardinality columns with their counts.

use super::field_values::{shown, state_rank};
use super::Input;
use crate::kinds::table::{stated_columns, stated_data_rows, visit_rows, MAX_LISTED_COLUMNS};
use crate::kinds::Synopsis;
use crate::python::{py_strip, stable_sort_by};
use std::collections::HashMap;

/// Text columns with at most this many distinct values list them with counts.
const MAX_DISTINCT: usize = 12;
/// Distinct values tracked per column before it counts as "many".
const TRACKED: usize = 1_000;
/// Column statistics read this many data rows at most: a 10 MB table costs little more than the
/// reference's own pass, which counts every row.
const SAMPLED_ROWS: usize = 5_000;
/// Cells the column statistics read at most (the sampled rows of the listed columns): a wide
/// table reads fewer rows, so its cost stays near the reference's single pass.
const SAMPLED_CELLS: usize = SAMPLED_ROWS * MAX_LISTED_COLUMNS;
/// Columns whose name ranks below this (`state_rank`) come first, in that order.
const STATE_RANKED: usize = 32;
/// Values listed per low-cardinality column.
const SHOWN_VALUES: usize = 5;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum CellType {
    Integer,
    Float,
    Date,
    DateTime,
    Bool,
    Text,
}

impl CellType {
    fn name(self) -> &'static str {
        match self {
            CellType::Integer => "integer",
            CellType::Float => "float",
            CellType::Date => "date",
            CellType::DateTime => "datetime",
            CellType::Bool => "bool",
            CellType::Text => "text",
        }
    }

    /// The type of a column holding both: integers widen to floats, anything else to text.
    fn join(self, other: CellType) -> CellType {
        match (self, other) {
            (a, b) if a == b => a,
            (CellType::Integer, CellType::Float) | (CellType::Float, CellType::Integer) => {
                CellType::Float
            }
            (CellType::Date, CellType::DateTime) | (CellType::DateTime, CellType::Date) => {
                CellType::DateTime
            }
            _ => CellType::Text,
        }
    }
}

fn digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

fn is_integer(text: &str) -> bool {
    digits(text.strip_prefix(['-', '+']).unwrap_or(text))
}

fn is_float(text: &str) -> bool {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    let mantissa_ok = match mantissa.split_once('.') {
        Some((whole, fraction)) => {
            (whole.is_empty() || digits(whole))
                && (fraction.is_empty() || digits(fraction))
                && !(whole.is_empty() && fraction.is_empty())
        }
        None => digits(mantissa),
    };
    mantissa_ok && exponent.is_none_or(is_integer)
}

/// Whether a text is a number or a date (a measure, never what tells records apart).
pub(super) fn is_number_or_date(text: &str) -> bool {
    is_integer(text) || is_float(text) || date_type(text).is_some()
}

/// `YYYY-MM-DD` (or with `/`), then optionally `T` or a space and a time.
fn date_type(text: &str) -> Option<CellType> {
    let bytes = text.as_bytes();
    if bytes.len() < 10 {
        return None;
    }
    let date_ok = bytes[..4].iter().all(u8::is_ascii_digit)
        && matches!(bytes[4], b'-' | b'/')
        && bytes[5..7].iter().all(u8::is_ascii_digit)
        && bytes[7] == bytes[4]
        && bytes[8..10].iter().all(u8::is_ascii_digit);
    if !date_ok {
        return None;
    }
    match bytes.get(10) {
        None => Some(CellType::Date),
        Some(b'T' | b' ')
            if bytes.len() >= 16
                && bytes[11..13].iter().all(u8::is_ascii_digit)
                && bytes[13] == b':' =>
        {
            Some(CellType::DateTime)
        }
        _ => None,
    }
}

fn cell_type(text: &str) -> CellType {
    if is_integer(text) {
        CellType::Integer
    } else if is_float(text) {
        CellType::Float
    } else if let Some(date) = date_type(text) {
        date
    } else if ["true", "false", "yes", "no"]
        .iter()
        .any(|word| text.eq_ignore_ascii_case(word))
    {
        CellType::Bool
    } else {
        CellType::Text
    }
}

#[derive(Default)]
struct Column {
    kind: Option<CellType>,
    empty: usize,
    min: Option<(f64, String)>,
    max: Option<(f64, String)>,
    values: Vec<(String, usize)>,
    /// Where each value is in `values`.
    index: HashMap<String, usize>,
    many: bool,
}

impl Column {
    fn add(&mut self, cell: &str) {
        let text = py_strip(cell);
        if text.is_empty() {
            self.empty += 1;
            return;
        }
        let kind = cell_type(text);
        self.kind = Some(self.kind.map_or(kind, |k| k.join(kind)));
        if matches!(kind, CellType::Integer | CellType::Float) {
            if let Ok(number) = text.parse::<f64>() {
                if self.min.as_ref().is_none_or(|(m, _)| number < *m) {
                    self.min = Some((number, text.to_string()));
                }
                if self.max.as_ref().is_none_or(|(m, _)| number > *m) {
                    self.max = Some((number, text.to_string()));
                }
            }
        }
        if self.many {
            return;
        }
        if let Some(&slot) = self.index.get(text) {
            self.values[slot].1 += 1;
        } else if self.values.len() < TRACKED {
            self.index.insert(text.to_string(), self.values.len());
            self.values.push((text.to_string(), 1));
        } else {
            self.many = true;
            self.index = HashMap::new();
        }
    }

    fn type_name(&self) -> &'static str {
        self.kind.map_or("empty", CellType::name)
    }

    /// What the column holds beyond its type: range, empty cells, values (`None` when nothing).
    fn details(&self, rows: usize) -> Option<String> {
        let mut parts: Vec<String> = Vec::new();
        match self.kind {
            Some(CellType::Integer | CellType::Float) => {
                if let (Some((_, min)), Some((_, max))) = (&self.min, &self.max) {
                    parts.push(format!("{min}..{max}"));
                }
            }
            Some(CellType::Date | CellType::DateTime) if !self.many => {
                // ISO dates sort as text.
                let mut dates = self.values.iter().map(|(v, _)| v.as_str());
                if let Some(first) = dates.next() {
                    let (min, max) =
                        dates.fold((first, first), |(lo, hi), d| (lo.min(d), hi.max(d)));
                    parts.push(format!("{min}..{max}"));
                }
            }
            Some(_) if !self.many => {
                let filled = rows - self.empty;
                let distinct = self.values.len();
                if distinct <= MAX_DISTINCT && distinct < filled {
                    let mut values: Vec<&(String, usize)> = self.values.iter().collect();
                    stable_sort_by(&mut values, |a, b| b.1.cmp(&a.1));
                    let mut shown_values: Vec<String> = values
                        .iter()
                        .take(SHOWN_VALUES)
                        .map(|(v, n)| format!("{} {n}", shown(v, 30)))
                        .collect();
                    if distinct > SHOWN_VALUES {
                        shown_values.push(format!("... {} more", distinct - SHOWN_VALUES));
                    }
                    parts.push(format!("{distinct} distinct: {}", shown_values.join(", ")));
                } else if distinct < filled {
                    parts.push(format!("{distinct} distinct"));
                }
            }
            _ => {}
        }
        if self.empty > 0 && self.kind.is_some() {
            parts.push(format!("{} empty", self.empty));
        }
        (!parts.is_empty()).then(|| parts.join(", "))
    }
}

/// The enhanced synopsis of what the reference reads as a CSV or TSV table.
pub fn synopsis(input: &Input<'_>) -> Option<Synopsis> {
    let (delimiter, label) = match input.reference_kind {
        "csv" => (',', "CSV"),
        "tsv" => ('\t', "TSV"),
        _ => return None,
    };
    let mut names: Vec<String> = Vec::new();
    let mut columns: Vec<Column> = Vec::new();
    let mut rows = 0usize;
    // Every row was counted by the reference's synopsis: only the sampled ones are read here.
    let data_rows = stated_data_rows(input.reference)?;
    let width = stated_columns(input.reference)?;
    // Only the listed columns get statistics; rows are sampled by cells (every cell of a row is
    // read), so a wide table reads fewer of them.
    let sampled_rows = (SAMPLED_CELLS / width.max(1)).clamp(1, SAMPLED_ROWS);
    visit_rows(input.output, delimiter, sampled_rows + 1, |cells| {
        if names.is_empty() && rows == 0 && columns.is_empty() {
            names = cells
                .iter()
                .take(MAX_LISTED_COLUMNS)
                .enumerate()
                .map(|(i, name)| match py_strip(name) {
                    "" => format!("column_{}", i + 1),
                    name => name.to_string(),
                })
                .collect();
            columns.resize_with(names.len(), Column::default);
            return;
        }
        rows += 1;
        for (column, cell) in columns.iter_mut().zip(cells) {
            column.add(cell);
        }
    })
    .ok()?;
    let mut synopsis = Synopsis::new(input.reference_kind, &format!("{label} table output"));
    // The columns left undescribed are counted in the summary, which the stub's length bound
    // keeps: at the end of the (long) types line the bound cut them off.
    let unlisted = if width > names.len() {
        format!(
            " (the first {} described, ... {} more columns)",
            names.len(),
            width - names.len()
        )
    } else {
        String::new()
    };
    synopsis.summary.push(format!(
        "{label} table with rows: {data_rows} and columns: {width}{unlisted}."
    ));
    let types: Vec<String> = names
        .iter()
        .zip(&columns)
        .map(|(name, column)| format!("{name} {}", column.type_name()))
        .collect();
    let sampled = if rows < data_rows {
        format!(" (from the first {rows} rows)")
    } else {
        String::new()
    };
    synopsis
        .structure
        .push(format!("column types{sampled}: {}", types.join(", ")));
    // Details of state-like columns (status, type, ...) first, then in column order.
    let mut order: Vec<usize> = (0..names.len()).collect();
    let rank = |i: usize| state_rank(&names[i]).min(STATE_RANKED);
    stable_sort_by(&mut order, |&a, &b| rank(a).cmp(&rank(b)));
    for i in order {
        if let Some(details) = columns[i].details(rows) {
            synopsis.structure.push(format!("{}: {details}", names[i]));
        }
    }
    Some(synopsis)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_long_table_counts_every_row_and_says_which_rows_it_read() {
        // Past the sampled rows: a quoted cell over two lines (one record), blank lines, and
        // a status no sampled row has.
        let mut csv = String::from("id,status\n");
        for i in 0..12_000 {
            csv.push_str(&format!(
                "{i},{}\n",
                if i % 3 == 0 { "ok" } else { "failed" }
            ));
        }
        csv.push_str("12000,\"multi\nline\"\n\n\n12001,refunded\n");
        let shown =
            crate::test_support::synopsis_text(&crate::enhanced::generate(&csv, "text/csv", 2_000));
        assert!(
            shown.contains("CSV table with rows: 12002 and columns: 2."),
            "{shown}"
        );
        assert!(
            shown.contains("column types (from the first 5000 rows): id integer, status text"),
            "{shown}"
        );
        assert!(!shown.contains("refunded"), "{shown}");
    }

    #[test]
    fn a_wide_table_gets_statistics_for_its_listed_columns_only() {
        use crate::kinds::table::MAX_LISTED_COLUMNS;
        let width = 20_000;
        let header: Vec<String> = (0..width).map(|i| format!("c{i}")).collect();
        let mut csv = header.join(",") + "\n";
        for r in 0..20 {
            let row: Vec<String> = (0..width).map(|i| (i * r).to_string()).collect();
            csv.push_str(&(row.join(",") + "\n"));
        }
        let synopsis = crate::enhanced::generate(&csv, "text/csv", 2_000);
        let shown = crate::test_support::synopsis_text(&synopsis);
        assert!(
            synopsis.summary[0]
                == format!(
                    "CSV table with rows: 20 and columns: {width} (the first {MAX_LISTED_COLUMNS} described, ... {} more columns).",
                    width - MAX_LISTED_COLUMNS
                ),
            "{shown:.300}"
        );
        // Statistics lines for listed columns only, and the synopsis stays small.
        assert!(
            !shown.contains(&format!("c{MAX_LISTED_COLUMNS}: ")),
            "{shown:.300}"
        );
        assert!(shown.len() < 20_000, "{} chars", shown.len());
    }
}
