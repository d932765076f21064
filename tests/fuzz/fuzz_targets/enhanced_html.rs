//! The enhanced mode's `html` analyzer on arbitrary text: `None` or a `html` synopsis whose lists
//! stay bounded whatever the input, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::enhanced_kinds::html;

mod common;

/// More than any `html` synopsis can hold: every list and quoted line is capped.
const MAX_SECTION_CHARS: usize = 8_000;

fuzz_target!(|data: &[u8]| {
    let output = common::text(data);
    if let Some(synopsis) = html::synopsis(&output) {
        assert_eq!(synopsis.kind, "html");
        let chars: usize = [&synopsis.summary, &synopsis.structure, &synopsis.notable_items]
            .iter()
            .flat_map(|items| items.iter())
            .map(|item| item.chars().count())
            .sum();
        assert!(chars <= MAX_SECTION_CHARS, "{chars} chars");
    }
});
