//! CSV / TSV rows reads (`read(ref, { rows: { start, count }, maxChars })`) with adversarial
//! arguments: the read stays within `maxChars` and its row numbers agree with the table's, and
//! reading on from `end_row + 1` continues it.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::table_rows::{read_rows, RowRange, RowsRequest};

mod common;

fuzz_target!(|data: &[u8]| {
    let mut args = common::Args::new(data, 9);
    let request = RowsRequest {
        rows: RowRange {
            start: args.int_option(),
            count: args.int_option(),
        },
        max_chars: args.int_option(),
    };
    let output = common::text(args.rest);
    let Ok(read) = read_rows(&output, &request) else {
        return;
    };
    let max_chars = usize::try_from(request.max_chars.unwrap_or(20_000)).unwrap_or(usize::MAX);
    let count = usize::try_from(request.rows.count.unwrap_or(50)).unwrap_or(usize::MAX);
    assert!(
        read.content.chars().count() <= max_chars,
        "rows read passes maxChars"
    );
    assert!(read.delimiter == "," || read.delimiter == "\t");
    assert!(read.end_row + 1 >= read.start_row);
    assert!(
        read.end_row + 1 - read.start_row <= count,
        "more rows than asked for"
    );
    assert!(
        read.end_row <= read.total_rows || read.end_row + 1 == read.start_row,
        "a row past the last"
    );
    assert_eq!(read.has_more, read.cut || read.end_row < read.total_rows);
    if read.cut {
        assert!(
            read.content.contains(" cut: "),
            "a cut read without its marker"
        );
    }
    if read.has_more && !read.cut && read.end_row >= read.start_row {
        let next = read_rows(
            &output,
            &RowsRequest {
                rows: RowRange {
                    start: Some(read.end_row as i64 + 1),
                    count: Some(1),
                },
                max_chars: request.max_chars,
            },
        )
        .expect("reading on from the next row works");
        assert_eq!(next.total_rows, read.total_rows);
        assert!(next.end_row <= read.end_row + 1);
    }
});
