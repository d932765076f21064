//! The enhanced mode's `build_output` analyzer on arbitrary text: `None` or a `build_output` synopsis whose
//! lines stay bounded whatever the input, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::enhanced_kinds::build_output;

mod common;

fuzz_target!(|data: &[u8]| {
    common::check_analyzer(build_output::synopsis(&common::text(data)), "build_output");
});
