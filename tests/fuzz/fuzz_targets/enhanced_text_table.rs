//! The enhanced mode's `text_table` analyzer on arbitrary text: `None` or a `text_table` synopsis whose
//! lines stay bounded whatever the input, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::enhanced_kinds::text_table;

mod common;

fuzz_target!(|data: &[u8]| {
    common::check_analyzer(text_table::synopsis(&common::text(data)), "text_table");
});
