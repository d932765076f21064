//! The CSV and TSV parser paths on arbitrary text.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::table;

mod common;

fuzz_target!(|data: &[u8]| {
    let output = common::text(data);
    for (delimiter, kind) in [(',', "csv"), ('\t', "tsv")] {
        if let Some(synopsis) = table::synopsis(&output, delimiter) {
            assert_eq!(synopsis.kind, kind);
        }
    }
});
