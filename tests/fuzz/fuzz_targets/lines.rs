//! Line windows (`read(ref, { line, lines, column, numbered, maxChars })`) with adversarial
//! arguments: the window stays within `maxChars`, shows exactly the output's text between its
//! offsets, and its continuation starts where it says.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::lines::{read_lines, LineWindowRequest};

mod common;

fuzz_target!(|data: &[u8]| {
    let mut args = common::Args::new(data, 14);
    let request = LineWindowRequest {
        line: args.int_option(),
        lines: args.int_option(),
        column: args.int_option(),
        max_chars: args.int_option(),
        numbered: args.flag(),
    };
    let output = common::text(args.rest);
    let Ok(window) = read_lines(&output, &request) else {
        return;
    };
    let chars: Vec<char> = output.chars().collect();
    let max_chars = usize::try_from(request.max_chars.unwrap_or(20_000)).unwrap_or(usize::MAX);
    assert!(
        window.content.chars().count() <= max_chars,
        "window passes maxChars"
    );
    assert_eq!(window.total_chars, chars.len());
    assert!(window.start_offset <= window.end_offset && window.end_offset <= chars.len());
    let lines = usize::try_from(request.lines.unwrap_or(200)).unwrap_or(usize::MAX);
    assert!(window.end_line + 1 >= window.start_line);
    assert!(
        window.end_line + 1 - window.start_line <= lines,
        "more lines than asked for"
    );
    let empty = window.end_line + 1 == window.start_line;
    assert!(
        empty || window.end_line <= window.total_lines,
        "a line past the last"
    );
    let shown = common::char_slice(
        &chars,
        window.start_offset,
        window.end_offset - window.start_offset,
    );
    let body = if window.cut {
        let marker = window
            .content
            .rfind("\n[... line ")
            .expect("a cut window has its marker");
        &window.content[..marker]
    } else {
        &window.content[..]
    };
    if request.numbered {
        let mut number = window.start_line;
        let unnumbered: Vec<String> = body
            .split('\n')
            .filter(|_| window.end_line >= window.start_line)
            .map(|line| {
                let prefix = format!("{number:>6}\t");
                assert!(
                    line.starts_with(&prefix),
                    "line {number} without its number"
                );
                number += 1;
                line[prefix.len()..].to_string()
            })
            .collect();
        assert_eq!(unnumbered.join("\n"), shown);
    } else {
        assert_eq!(
            body, shown,
            "window content is not the output between its offsets"
        );
    }
    assert_eq!(window.has_more, window.next.is_some());
    if let Some(next) = &window.next {
        assert!(next.offset <= chars.len());
        assert!(next.offset == window.end_offset || next.offset == window.end_offset + 1);
        let follow = read_lines(
            &output,
            &LineWindowRequest {
                line: Some(next.line as i64),
                column: Some(next.column as i64),
                lines: Some(1),
                max_chars: request.max_chars,
                numbered: false,
            },
        )
        .expect("the continuation is a valid request");
        assert_eq!(
            follow.start_offset, next.offset,
            "the continuation starts elsewhere"
        );
    } else if window.end_line >= window.start_line {
        let rest = common::char_slice(&chars, window.end_offset, usize::MAX);
        assert!(
            rest.is_empty() || rest == "\n",
            "no continuation although text is left"
        );
    }
});
