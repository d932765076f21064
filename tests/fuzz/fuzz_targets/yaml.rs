//! The yaml parser path on arbitrary text: `None` or a yaml synopsis, never a panic. A document
//! the reference loads is also read in part as enhanced mode reads big ones (keeping 1 to 4 of
//! its biggest collection's first entries and its last), and that must be the whole document's
//! value sampled the same way.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::enhanced_kinds::yaml_sample;
use tool_stub::yaml;

mod common;

fuzz_target!(|data: &[u8]| {
    let output = common::text(data);
    if let Some(synopsis) = yaml::synopsis(&output) {
        assert_eq!(synopsis.kind, "yaml");
        let sample = 1 + usize::from(data.first().copied().unwrap_or(0) % 4);
        if let Some(Err(message)) = yaml_sample::read_in_part_as_whole(&output, sample) {
            panic!("{message}");
        }
    }
});
