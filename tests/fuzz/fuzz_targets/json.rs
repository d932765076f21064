//! The json parser path on arbitrary text: `None` or a json synopsis, never a panic. On text it
//! accepts, the enhanced synopses' sampled load (samples of 1 to 4 items, so small inputs step
//! over items) holds what the whole load holds: same lengths and keys, the first items and the
//! last.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::json;

mod common;

fuzz_target!(|data: &[u8]| {
    let output = common::text(data);
    if let Some(synopsis) = json::synopsis(&output) {
        assert_eq!(synopsis.kind, "json");
        let sample = usize::from(data.first().copied().unwrap_or(0) % 4) + 1;
        if let Err(difference) = json::sampled_load_agrees(&output, sample) {
            panic!("sample of {sample}: {difference}");
        }
    }
});
