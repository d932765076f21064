//! The enhanced mode's `build_output` analyzer on arbitrary text: `None` or a `build_output` synopsis whose lists
//! stay bounded whatever the input, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::enhanced_kinds::build_output;

mod common;

/// More than any `build_output` synopsis can hold: every list and quoted line is capped.
const MAX_SECTION_CHARS: usize = 8_000;

fuzz_target!(|data: &[u8]| {
    let output = common::text(data);
    if let Some(synopsis) = build_output::synopsis(&output) {
        assert_eq!(synopsis.kind, "build_output");
        let chars: usize = [&synopsis.summary, &synopsis.structure, &synopsis.notable_items]
            .iter()
            .flat_map(|items| items.iter())
            .map(|item| item.chars().count())
            .sum();
        assert!(chars <= MAX_SECTION_CHARS, "{chars} chars");
    }
});
