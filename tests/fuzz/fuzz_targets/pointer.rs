//! JSON pointer reads (`read(ref, { jsonPointer, maxChars })`) on arbitrary JSON-ish text and
//! pointers: the result stays within `maxChars`; an uncut result is the subtree serde_json finds
//! at the same pointer; the canonical pointer it reports reads the same subtree.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tool_stub::json_pointer::{read_pointer, PointerRequest};

mod common;

const TYPES: [&str; 6] = ["object", "array", "string", "number", "boolean", "null"];

fuzz_target!(|data: &[u8]| {
    let mut args = common::Args::new(data, 4);
    let max_chars = args.int_option();
    let from_tail = args.flag();
    // The pointer comes after a 0xFF byte, or is built from the output's own strings.
    let (output, pointer) = match args.rest.iter().position(|&b| b == 0xFF) {
        Some(split) => (
            common::text(&args.rest[..split]),
            common::text(&args.rest[split + 1..]),
        ),
        None => {
            let output = common::text(args.rest);
            let keys: Vec<&str> = output.split('"').skip(1).step_by(2).take(3).collect();
            let pointer = if from_tail {
                keys.iter()
                    .map(|k| format!("/{}", k.replace('~', "~0").replace('/', "~1")))
                    .collect()
            } else {
                "/0".to_string()
            };
            (output, pointer)
        }
    };
    let request = PointerRequest {
        json_pointer: pointer.clone(),
        max_chars,
    };
    let Ok(read) = read_pointer(&output, &request) else {
        return;
    };
    let limit = usize::try_from(max_chars.unwrap_or(20_000)).unwrap_or(usize::MAX);
    assert!(
        read.content.chars().count() <= limit,
        "pointer read passes maxChars"
    );
    assert!(
        TYPES.contains(&read.type_name),
        "unknown type {}",
        read.type_name
    );
    assert!(read.cuts.len() <= read.total_cuts && read.cuts.len() <= 20);
    assert_eq!(read.truncated, read.total_cuts > 0);
    let again = read_pointer(
        &output,
        &PointerRequest {
            json_pointer: read.pointer.clone(),
            max_chars,
        },
    )
    .expect("the reported pointer resolves");
    assert_eq!(again, read, "the reported pointer reads another subtree");
    if read.truncated {
        return;
    }
    // Where serde_json reads the same document, the uncut content is its subtree.
    let start = output.trim_start_matches([' ', '\t', '\n', '\r']);
    let Some(Ok(document)) = serde_json::Deserializer::from_str(start)
        .into_iter::<serde_json::Value>()
        .next()
    else {
        return;
    };
    if let Some(expected) = document.pointer(&pointer) {
        let printed: serde_json::Value =
            serde_json::from_str(&read.content).expect("uncut content is JSON");
        assert_eq!(&printed, expected, "uncut content is not the subtree");
    }
});
