//! The enhanced mode's `log` analyzer on arbitrary text: `None` or a `log` synopsis whose
//! lines stay bounded whatever the input, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::enhanced_kinds::log;

mod common;

fuzz_target!(|data: &[u8]| {
    common::check_analyzer(log::synopsis(&common::text(data)), "log");
});
