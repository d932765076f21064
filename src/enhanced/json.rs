//! JSON and JSON Lines, read whole by the reference's decoder (`kinds::json::load_value`):
//! record fields, value counts and identities (`document.rs`).

use super::document::describe;
use super::value::Value;
use super::Input;
use crate::kinds::{json::load_value, Synopsis};
use crate::python::{char_len, py_splitlines, py_strip};

/// The enhanced synopsis of what the reference reads as JSON.
pub fn synopsis(input: &Input<'_>) -> Option<Synopsis> {
    if input.reference_kind != "json" {
        return None;
    }
    let (value, rest) = load_value(input.output)?;
    if rest.is_empty() {
        return Some(describe(&value, "JSON", "json", "JSON output"));
    }
    if let Some(lines) = json_lines(input.output) {
        let count = lines.len();
        return Some(describe(&Value::List(lines, count), "JSON Lines:", "json", "JSON Lines output"));
    }
    let mut synopsis = describe(&value, "JSON", "json", "JSON output");
    synopsis.notable_items.push(format!(
        "trailing_chars_after_first_json_value: {}",
        char_len(rest)
    ));
    Some(synopsis)
}

/// The values of a JSON Lines output: every non-blank line one whole JSON value.
fn json_lines(output: &str) -> Option<Vec<Value<'_>>> {
    let mut values = Vec::new();
    for line in py_splitlines(output) {
        if py_strip(line).is_empty() {
            continue;
        }
        let (value, rest) = load_value(line)?;
        if !rest.is_empty() {
            return None;
        }
        values.push(value);
    }
    (values.len() >= 2).then_some(values)
}
