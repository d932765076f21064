//! Coordinates that chain a search hit into the next read, beyond its `offset` (an offset read)
//! and `line`/`column` (a line read): for a CSV/TSV result the data row holding the hit (`row`,
//! usable as `rows.start`), for a JSON result the pointer of the innermost value holding it
//! (`jsonPointer`). The host asks for them with the result's kind and the hits it lists.

use super::json_pointer::hit_pointers;
use super::table_rows::hit_rows;

/// The kinds whose hits get a data row (`row`).
pub const ROW_KINDS: [&str; 2] = ["csv", "tsv"];
/// The kinds whose hits get the pointer of the value holding them (`jsonPointer`).
pub const POINTER_KINDS: [&str; 1] = ["json"];

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HitCoordinates {
    pub row: Option<usize>,
    pub json_pointer: Option<String>,
}

/// Byte ranges of hits given as code-point `(offset, length)`, sorted by offset.
fn byte_ranges(text: &str, hits: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut ranges = Vec::with_capacity(hits.len());
    let (mut chars, mut byte) = (0usize, 0usize);
    let mut byte_of = |target: usize| {
        for c in text[byte..].chars() {
            if chars >= target {
                break;
            }
            chars += 1;
            byte += c.len_utf8();
        }
        byte
    };
    for &(offset, length) in hits {
        let start = byte_of(offset);
        ranges.push((start, byte_of(offset + length)));
    }
    ranges
}

/// One entry per hit (code-point `(offset, length)`, sorted by offset): what the result's `kind`
/// adds. Other kinds get empty entries.
pub fn hit_coordinates(text: &str, kind: &str, hits: &[(usize, usize)]) -> Vec<HitCoordinates> {
    let mut coordinates = vec![HitCoordinates::default(); hits.len()];
    match kind {
        kind if ROW_KINDS.contains(&kind) => {
            let starts: Vec<usize> = byte_ranges(text, hits).iter().map(|r| r.0).collect();
            for (entry, row) in coordinates.iter_mut().zip(hit_rows(text, &starts)) {
                entry.row = row;
            }
        }
        kind if POINTER_KINDS.contains(&kind) => {
            let ranges = byte_ranges(text, hits);
            for (entry, pointer) in coordinates.iter_mut().zip(hit_pointers(text, &ranges)) {
                entry.json_pointer = pointer;
            }
        }
        _ => {}
    }
    coordinates
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_data_rows_as_rows_start_takes_them() {
        let text = "id,city\n1,Lyon\n\n2,\"Le\nMans\"\n3,Nîmes\n";
        let hits = [(0, 2), (10, 4), (20, 4), (30, 5)];
        let rows: Vec<_> = hit_coordinates(text, "csv", &hits)
            .into_iter()
            .map(|c| c.row)
            .collect();
        // The header has no data row; the blank line does not count; a quoted line break stays
        // inside its row.
        assert_eq!(rows, [None, Some(1), Some(2), Some(3)]);
        assert!(hit_coordinates("not a table", "csv", &[(0, 3)])[0]
            .row
            .is_none());
    }

    #[test]
    fn json_pointers_name_the_innermost_value_holding_the_hit() {
        let text = r#" {"items": [{"id": 1, "name": "Zoë Lyon"}, {"id": 2, "a/b": "Nîmes"}], "n": 2} trailing"#;
        let at = |needle: &str| {
            text.find(needle)
                .map(|b| text[..b].chars().count())
                .unwrap()
        };
        let hits = [
            (at("Lyon"), 4),
            (at("\"id\": 2"), 7),
            (at("Nîmes"), 5),
            (at("\"n\""), 3),
            (at("trailing"), 8),
        ];
        let pointers: Vec<_> = hit_coordinates(text, "json", &hits)
            .into_iter()
            .map(|c| c.json_pointer)
            .collect();
        assert_eq!(
            pointers,
            [
                Some("/items/0/name".to_string()),
                Some("/items/1".to_string()),
                Some("/items/1/a~1b".to_string()),
                Some(String::new()),
                None
            ]
        );
    }

    #[test]
    fn deep_nesting_is_bounded_work() {
        let depth = 900;
        let payload = "x".repeat(1 << 20);
        let text = format!("{}\"{payload}\"{}", "[".repeat(depth), "]".repeat(depth));
        let pointers = hit_coordinates(&text, "json", &[(depth + 1, 1)]);
        // An enclosing array, found with ~8x the text's length of scanning, not 900x.
        let pointer = pointers[0]
            .json_pointer
            .clone()
            .expect("inside the document");
        assert!(
            pointer.starts_with("/0") && pointer.len() < 2 * depth,
            "{pointer}"
        );
        let shallow = hit_coordinates("[[[\"x\"]]]", "json", &[(4, 1)]);
        assert_eq!(shallow[0].json_pointer.as_deref(), Some("/0/0/0"));
    }
}
