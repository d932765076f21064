//! The enhanced mode's `html` analyzer on arbitrary text: `None` or a `html` synopsis whose
//! lines stay bounded whatever the input, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::enhanced_kinds::html;

mod common;

fuzz_target!(|data: &[u8]| {
    common::check_analyzer(html::synopsis(&common::text(data)), "html");
});
