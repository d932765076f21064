//! The enhanced mode's `xml` analyzer on arbitrary text: `None` or an `xml` synopsis whose
//! lines stay bounded whatever the input (unclosed tags, deep nesting, CDATA, comments,
//! entities, DOCTYPE), never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::enhanced_kinds::xml;

mod common;

fuzz_target!(|data: &[u8]| {
    common::check_analyzer(xml::synopsis(&common::text(data)), "xml");
});
