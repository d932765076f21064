//! JSON and JSON Lines, read by the reference's decoder (`kinds::json::load_value`), large
//! containers as samples (their first `SAMPLED_RECORDS` items and their last, with their exact
//! length): record fields, value counts and identities (`document.rs`).

use super::document::{describe, SAMPLED_RECORDS};
use super::Input;
use crate::kinds::json::{load_value, spans_one_value, type_bit};
use crate::kinds::Synopsis;
use crate::python::{char_len, py_splitlines, py_strip};
use crate::value::Value;

/// The enhanced synopsis of what the reference reads as JSON.
pub fn synopsis(input: &Input<'_>) -> Option<Synopsis> {
    if input.reference_kind != "json" {
        return None;
    }
    let (value, rest) = load_value(input.output, SAMPLED_RECORDS)?;
    if rest.is_empty() {
        return Some(describe(&value, "JSON", "json", "JSON output"));
    }
    if let Some(lines) = json_lines(input.output, SAMPLED_RECORDS) {
        let mut synopsis = describe(&lines, "JSON Lines:", "json", "JSON Lines output");
        if lines.sampled() {
            synopsis.summary.push(format!(
                "Lines past the first {SAMPLED_RECORDS} checked for one value each, not parsed."
            ));
        }
        return Some(synopsis);
    }
    let mut synopsis = describe(&value, "JSON", "json", "JSON output");
    synopsis.notable_items.push(format!(
        "trailing_chars_after_first_json_value: {}",
        char_len(rest)
    ));
    Some(synopsis)
}

/// The values of a JSON Lines output (every non-blank line one whole JSON value, at least two)
/// as a list: past the first `sample` lines, each is only checked to span one value by its shape
/// (`spans_one_value`: decoding them all cost several times the reference's read of the first),
/// and the last decoded, so the list is a sample when its lines are all of one type (as
/// `load_value` samples). Lines of several types are all decoded.
#[inline(never)]
fn json_lines(output: &str, sample: usize) -> Option<Value<'_>> {
    let lines = || {
        py_splitlines(output)
            .map(py_strip)
            .filter(|line| !line.is_empty())
    };
    let mut values = Vec::new();
    let mut count = 0;
    let mut types = 0u8;
    let mut last = None;
    for line in lines() {
        types |= line.bytes().next().map_or(0, type_bit);
        if count < sample {
            values.push(line_value(line, sample)?);
        } else if spans_one_value(line) {
            last = Some(line);
        } else {
            return None;
        }
        count += 1;
    }
    if count < 2 {
        return None;
    }
    // Lines of several types are all held: a sample would not tell how many are records.
    let rest: Vec<&str> = if types.count_ones() > 1 {
        lines().skip(sample).collect()
    } else {
        last.into_iter().collect()
    };
    for line in rest {
        values.push(line_value(line, sample)?);
    }
    Some(Value::List(values, count))
}

/// The value of a JSON Lines line, when the line is one whole JSON value.
fn line_value(line: &str, sample: usize) -> Option<Value<'_>> {
    let (value, rest) = load_value(line, sample)?;
    rest.is_empty().then_some(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::synopsis_text;

    fn enhanced(output: &str) -> Option<Synopsis> {
        let reference = crate::synopsis::generate(output, "", 2_000);
        synopsis(&Input {
            output,
            mime: "",
            reference_kind: &reference.kind,
            reference: &reference,
        })
    }

    fn record(i: usize) -> String {
        format!(
            r#"{{"id":{i},"name":"n{}","state":"{}","note":{}}}"#,
            i % 900,
            ["open", "closed", "merged"][i % 3],
            if i % 7 == 0 {
                "null".to_string()
            } else {
                format!("\"t{i}\"")
            }
        )
    }

    /// The synopsis of `output` from the document loaded whole (no sampling).
    fn whole(output: &str, lines: bool) -> Synopsis {
        if lines {
            let value = json_lines(output, usize::MAX).expect("JSON Lines");
            describe(&value, "JSON Lines:", "json", "JSON Lines output")
        } else {
            let (value, _) = load_value(output, usize::MAX).expect("JSON");
            describe(&value, "JSON", "json", "JSON output")
        }
    }

    #[test]
    fn a_large_document_or_json_lines_output_reads_as_the_whole_one() {
        for count in [3, 2_000, 2_001, 2_002, 7_500] {
            let records: Vec<String> = (0..count).map(record).collect();
            let array = format!("[{}]", records.join(",\n"));
            let lines = records.join("\n");
            for (output, is_lines) in [(&array, false), (&lines, true)] {
                let mut sampled = enhanced(output).expect("JSON");
                let expected = whole(output, is_lines);
                // Past a sample, JSON Lines say their lines were checked, not parsed.
                if is_lines && count > SAMPLED_RECORDS + 1 {
                    let note = sampled.summary.pop().expect("the note");
                    assert!(note.starts_with("Lines past the first 2000"), "{note}");
                }
                assert_eq!(
                    (&sampled.summary, &sampled.structure),
                    (&expected.summary, &expected.structure),
                    "{count}"
                );
                let shown = synopsis_text(&sampled);
                assert!(shown.contains(&format!("{count} records")), "{shown}");
                if count > 3 {
                    assert!(
                        shown.contains(&format!(
                            "last: name=n{}, id={}",
                            (count - 1) % 900,
                            count - 1
                        )),
                        "{shown}"
                    );
                }
            }
        }
    }

    #[test]
    fn json_lines_past_the_sample_are_validated_and_counted() {
        let mut records: Vec<String> = (0..2_500).map(record).collect();
        let lines = records.join("\n");
        let value = json_lines(&lines, SAMPLED_RECORDS).expect("JSON Lines");
        assert!(value.sampled() && matches!(&value, Value::List(_, 2_500)));
        let shown = synopsis_text(&enhanced(&lines).expect("JSON"));
        assert!(
            shown.contains("Lines past the first 2000 checked for one value each, not parsed."),
            "{shown}"
        );
        // A line past the sample that is no one value: not JSON Lines (the reference read the
        // first line only). One bad inside a balanced value passes: it is not parsed.
        records[2_300] = r#"{"id": tru}"#.to_string();
        assert!(json_lines(&records.join("\n"), SAMPLED_RECORDS).is_some());
        records[2_300] = r#"{"id": 1, "note": "cut"#.to_string();
        let bad = records.join("\n");
        assert!(json_lines(&bad, SAMPLED_RECORDS).is_none());
        let shown = synopsis_text(&enhanced(&bad).expect("JSON"));
        assert!(
            shown.contains("trailing_chars_after_first_json_value")
                && !shown.contains("JSON Lines"),
            "{shown}"
        );
        // Two values on a line past the sample are not one line's value either.
        records[2_300] = r#"{"id": 1} {"id": 2}"#.to_string();
        assert!(json_lines(&records.join("\n"), SAMPLED_RECORDS).is_none());
        // A line of another type past the sample: the lines are held whole.
        records[2_300] = "17".to_string();
        let mixed = records.join("\n");
        let value = json_lines(&mixed, SAMPLED_RECORDS).expect("JSON Lines");
        assert!(
            !value.sampled() && matches!(&value, Value::List(items, 2_500) if items.len() == 2_500)
        );
        let shown = synopsis_text(&enhanced(&mixed).expect("JSON"));
        assert!(
            shown.contains("JSON Lines: array of 2500 items.") && shown.contains("2499 records"),
            "{shown}"
        );
    }
}
