//! The enhanced mode's `git_log` analyzer on arbitrary text: `None` or a `git_log` synopsis whose
//! lines stay bounded whatever the input, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::enhanced_kinds::git_log;

mod common;

fuzz_target!(|data: &[u8]| {
    common::check_analyzer(git_log::synopsis(&common::text(data)), "git_log");
});
