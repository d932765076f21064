//! The enhanced mode's `dep_tree` analyzer on arbitrary text: `None` or a `tree` synopsis whose
//! lines stay bounded whatever the input, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::enhanced_kinds::dep_tree;

mod common;

fuzz_target!(|data: &[u8]| {
    common::check_analyzer(dep_tree::synopsis(&common::text(data)), "tree");
});
