use super::*;

#[test]
fn plain_runs_end_at_the_first_quote_backslash_or_control_char() {
    let pieces = [
        "a",
        "é",
        "日",
        "\"",
        "\\",
        "\u{1f}",
        "\u{0}",
        " ",
        "\u{7f}",
        "abcdefghij",
    ];
    let mut seed = 5u64;
    for case in 0..4000 {
        let mut text = String::new();
        for _ in 0..case % 30 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // Mostly plain pieces, so runs longer than 8 bytes occur.
            let piece = (seed >> 60) as usize % 16;
            text.push_str(pieces[if piece < 10 { piece } else { 9 }]);
        }
        let decoder = Decoder::new(&text, Mode::Fast);
        for start in 0..=text.len() {
            let expected = text.as_bytes()[start..]
                .iter()
                .position(|&b| ENDS_STRING_RUN[usize::from(b)])
                .map_or(text.len(), |at| start + at);
            assert_eq!(
                decoder.plain_run_end(start),
                expected,
                "{text:?} from {start}"
            );
        }
    }
}

fn lines(output: &str) -> Option<(Vec<String>, Vec<String>, Vec<String>)> {
    synopsis(output).map(|s| (s.summary, s.structure, s.notable_items))
}

fn notable(output: &str) -> Vec<String> {
    synopsis(output)
        .map(|s| s.notable_items)
        .unwrap_or_default()
}

#[test]
fn clipped_repr_stops_early_but_clips_like_python() {
    let long = "x".repeat(1000);
    let text = JsonText::Text(Cow::Borrowed(&long));
    assert_eq!(text.clipped_repr(), format!("'{}...", "x".repeat(76)));
    let exact = "y".repeat(78);
    assert_eq!(
        JsonText::Text(Cow::Borrowed(&exact)).clipped_repr(),
        format!("'{exact}'")
    );
    // The quote choice depends on the whole string, even past the clip.
    let late_quotes = format!("'{}\"", "z".repeat(200));
    let repr = JsonText::Text(Cow::Borrowed(&late_quotes)).clipped_repr();
    assert!(repr.starts_with("'\\'zz"), "{repr}");
}

#[test]
fn objects_arrays_and_scalars() {
    let (summary, structure, items) =
        lines(r#"{"users":[{"id":1,"name":"Ada"},{"id":2}],"meta":{"count":2},"e":{}}"#)
            .unwrap_or_default();
    assert_eq!(summary, ["JSON object.", "top-level keys: users, meta, e"]);
    assert_eq!(
        structure,
        [
            "shape: object(keys=3: users, meta, e)",
            "users: array length: 2",
            "meta: object keys: count",
            "e: object keys: "
        ]
    );
    assert_eq!(
        items,
        ["users[0].id: 1", "users[0].name: 'Ada'", "meta.count: 2"]
    );
    let (summary, structure, items) = lines("[[1,[2]],{},[],\"s\"]").unwrap_or_default();
    assert_eq!(summary, ["JSON array.", "array length: 4"]);
    assert_eq!(
        structure,
        ["shape: array(len=4, sample=[array(len=2, sample=[..., ...]), object(keys=0), array(len=0)])",
         "first item type: array"]
    );
    assert_eq!(items, ["[0][0]: 1"]);
    let (summary, structure, items) = lines("  \"x\"  ").unwrap_or_default();
    assert_eq!(summary, ["JSON string."]);
    assert!(structure.is_empty());
    assert_eq!(items, [": 'x'"]);
    assert_eq!(
        lines("[]").map(|l| l.1),
        Some(vec!["shape: array(len=0)".to_string()])
    );
}

#[test]
fn walk_skips_empty_containers_and_goes_deep() {
    assert_eq!(
        notable(r#"{"a":[],"b":{},"c":[[],1],"d":{"e":{"f":[[[true]]]}},"g":null,"h":2,"i":3}"#),
        ["d.e.f[0][0][0]: True", "g: None", "h: 2", "i: 3"]
    );
    // An empty key at the top leaves the path empty, so the next key has no dot.
    assert_eq!(notable(r#"{"":{"b":1}}"#), ["b: 1"]);
}

#[test]
fn duplicate_keys_keep_first_position_and_last_value() {
    assert_eq!(
        notable(r#"{"a":1,"b":2,"c":3,"d":4,"e":5,"a":{"x":"new"}}"#),
        ["a.x: 'new'", "b: 2", "c: 3", "d: 4", "e: 5"]
    );
    let (summary, structure, _) = lines(r#"{"a":1,"\u0061":[1,2]}"#).unwrap_or_default();
    assert_eq!(summary, ["JSON object.", "top-level keys: a"]);
    assert_eq!(
        structure,
        ["shape: object(keys=1: a)", "a: array length: 2"]
    );
    // Shape samples count distinct keys.
    let (_, structure, _) = lines(r#"[{}, {"k":1,"k":2,"j":3}]"#).unwrap_or_default();
    assert_eq!(
        structure[0],
        "shape: array(len=2, sample=[object(keys=0), object(keys=2: k, j)])"
    );
}

#[test]
fn python_number_rules() {
    assert_eq!(notable("[NaN, 1]"), ["[0]: nan"]);
    assert_eq!(notable("-Infinity"), [": -inf"]);
    assert_eq!(notable("[1e400]"), ["[0]: inf"]);
    assert_eq!(notable("[-0, -0.0, 1E2]"), ["[0]: 0"]);
    assert_eq!(notable("[1E2]"), ["[0]: 100.0"]);
    assert_eq!(
        notable("123456789012345678901234567890"),
        [": 123456789012345678901234567890"]
    );
    // `01` at the top is 0 followed by one trailing char; inside an array it is an error.
    assert_eq!(
        notable("01"),
        [": 0", "trailing_chars_after_first_json_value: 1"]
    );
    assert!(synopsis("[01]").is_none());
    assert_eq!(
        notable("1.e5"),
        [": 1", "trailing_chars_after_first_json_value: 3"]
    );
    assert_eq!(
        notable("2e+"),
        [": 2", "trailing_chars_after_first_json_value: 2"]
    );
    assert!(synopsis("[-]").is_none() && synopsis("-").is_none() && synopsis("[.5]").is_none());
    // Python refuses int() of more than 4300 digits; floats have no such limit.
    assert!(synopsis(&format!("[{}]", "9".repeat(4301))).is_none());
    assert!(synopsis(&format!("[{}]", "9".repeat(4300))).is_some());
    assert_eq!(notable(&format!("[{}.0]", "9".repeat(5000))), ["[0]: inf"]);
    let long_int = notable(&format!("[{}]", "1".repeat(100)));
    assert_eq!(long_int, [format!("[0]: {}...", "1".repeat(77))]);
}

#[test]
fn python_string_rules() {
    assert!(synopsis("[\"a\tb\"]").is_none(), "raw control char");
    assert!(
        synopsis("[\"a\x7fb\"]").is_some(),
        "DEL is not a control char for json"
    );
    assert!(synopsis(r#"["\x41"]"#).is_none() && synopsis(r#"["\u12G4"]"#).is_none());
    assert!(synopsis(r#"["abc"#).is_none());
    assert_eq!(notable(r#"["\ud83d\ude00\u00e9\/"]"#), ["[0]: '😀é/'"]);
    assert_eq!(notable(r#"["\ud800x\udc00"]"#), ["[0]: '\\ud800x\\udc00'"]);
    assert_eq!(notable(r#"["\udc00\ud800"]"#), ["[0]: '\\udc00\\ud800'"]);
    assert_eq!(notable(r#"["\ud800\u0041"]"#), ["[0]: '\\ud800A'"]);
    assert_eq!(notable(r#"{"\ud800":1}"#), ["\u{fffd}: 1"]);
    // Distinct lone surrogates are distinct keys.
    let (summary, _, _) = lines(r#"{"\ud800":1,"\ud801":2}"#).unwrap_or_default();
    assert_eq!(summary[1], "top-level keys: \u{fffd}, \u{fffd}");
}

#[test]
fn python_structure_rules() {
    assert!(synopsis("[1,]").is_none() && synopsis(r#"{"a":1,}"#).is_none());
    assert!(synopsis("{'a':1}").is_none() && synopsis("{a:1}").is_none());
    assert!(
        synopsis("[1\u{a0}]").is_none(),
        "only JSON whitespace between tokens"
    );
    assert!(synopsis("[1,\x0c2]").is_none());
    assert!(synopsis(" \t[ 1 ,\r\n 2 ] ").is_some());
    assert!(synopsis("nul").is_none() && synopsis("").is_none() && synopsis("[").is_none());
    assert_eq!(
        notable("truex"),
        [": True", "trailing_chars_after_first_json_value: 1"]
    );
    // Trailing counts chars of the stripped rest, not bytes.
    assert_eq!(
        notable("{\"a\": 1} \u{a0}漢字 "),
        ["a: 1", "trailing_chars_after_first_json_value: 2"]
    );
}

#[test]
fn deep_nesting_fails_like_python_without_overflowing() {
    let nested = |depth: usize, open: &str, inner: &str, close: &str| {
        format!("{}{inner}{}", open.repeat(depth), close.repeat(depth))
    };
    let items = notable(&nested(MAX_NESTING, "[", "1", "]"));
    assert!(
        items.len() == 1 && items[0].len() == MAX_NESTING * 3 + 3,
        "{items:?}"
    );
    assert!(
        synopsis(&nested(MAX_NESTING, "[", "[]", "]")).is_none(),
        "empty ones count"
    );
    let items = notable(&nested(MAX_NESTING, "{\"a\":", "null", "}"));
    assert!(items.len() == 1 && items[0].ends_with("a.a: None"));
    for depth in [MAX_NESTING + 1, 10_000, 1_000_000] {
        assert!(synopsis(&nested(depth, "[", "1", "]")).is_none());
        assert!(synopsis(&nested(depth, "{\"a\":", "1", "}")).is_none());
        assert!(synopsis(&"[".repeat(depth)).is_none());
    }
}

#[test]
fn fast_mode_keeps_what_the_walk_needs() {
    // Scalars beyond the 5th are not kept, yet the structure of later keys is complete.
    let doc = r#"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":{"x":1,"y":[1,2]},"g":[[],[]]}"#;
    let (_, structure, items) = lines(doc).unwrap_or_default();
    assert_eq!(structure[6], "f: object keys: x, y");
    assert_eq!(structure[7], "g: array length: 2");
    assert_eq!(items, ["a: 1", "b: 2", "c: 3", "d: 4", "e: 5"]);
    // A duplicate after the walk completed still replaces the first value.
    assert_eq!(
        notable(r#"{"a":1,"b":2,"c":3,"d":4,"e":5,"a":[]}"#),
        ["b: 2", "c: 3", "d: 4", "e: 5"]
    );
}

/// A random JSON document: containers of up to 9 items (uniform or mixed), keys from a
/// small pool (so some repeat, some spelled with escapes), strings holding brackets and
/// escaped quotes, nesting past `FULL_KEEP_DEPTH`, JSON whitespace between tokens.
fn random_document(seed: &mut u64, depth: usize) -> String {
    fn next(seed: &mut u64, n: u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (*seed >> 33) % n
    }
    const SCALARS: [&str; 9] = [
        r#""a[b{c""#,
        r#""q\"]}""#,
        "-12.5e3",
        "7",
        "true",
        "null",
        r#""\u00e9\\""#,
        "\"\"",
        "NaN",
    ];
    let space = [" ", "", "\n", "\t ", ""][next(seed, 5) as usize];
    if depth > 8 || next(seed, 4) == 0 {
        return SCALARS[next(seed, 9) as usize].to_string();
    }
    let count = next(seed, 10);
    // Items of one kind (scalars of one spelling, or containers) or mixed.
    let uniform = next(seed, 2) == 0;
    let kind = next(seed, 2);
    let spelling = next(seed, 9) as usize;
    let item = |seed: &mut u64| -> String {
        let kind = if uniform { kind } else { next(seed, 2) };
        match kind {
            0 if uniform => SCALARS[spelling].to_string(),
            0 => SCALARS[next(seed, 9) as usize].to_string(),
            _ => random_document(seed, depth + 1),
        }
    };
    let mut parts = Vec::new();
    if next(seed, 2) == 0 {
        for _ in 0..count {
            parts.push(item(seed));
        }
        format!(
            "[{space}{}{space}]",
            parts.join(&format!("{space},{space}"))
        )
    } else {
        let keys = ["a", "b", "\\u0061", "c", "d", "e", "f\\\"", "g"];
        for _ in 0..count {
            let key = keys[next(seed, 8) as usize];
            let value = item(seed);
            parts.push(format!("\"{key}\"{space}:{space}{value}"));
        }
        format!("{{{space}{}{space}}}", parts.join(","))
    }
}

#[cfg(feature = "enhanced")]
#[test]
fn a_sampled_load_holds_the_first_items_and_the_last_of_the_whole() {
    let mut seed = 11u64;
    let mut sampled = 0;
    for _ in 0..4_000 {
        let document = random_document(&mut seed, 0);
        if synopsis(&document).is_none() {
            continue;
        }
        for sample in 1..=4 {
            if let Err(error) = sampled_load_agrees(&document, sample) {
                panic!("sample {sample} of {document}: {error}");
            }
            let held =
                load_value(&document, sample).map(|(value, _)| value.sampled_somewhere(sample));
            sampled += usize::from(held == Some(true));
        }
    }
    assert!(sampled > 1_000, "{sampled} samples");
}

#[test]
fn stepping_over_a_value_ends_where_decoding_it_does() {
    let ends = |document: &str| {
        let decoded = Decoder::new(document, Mode::Validate)
            .run()
            .ok()
            .map(|decoded| decoded.end);
        (skip_value(document.as_bytes(), 0), decoded)
    };
    let mut seed = 5u64;
    let mut checked = 0;
    for _ in 0..3_000 {
        let document = random_document(&mut seed, 0);
        let (skipped, decoded) = ends(&document);
        if decoded.is_some() {
            assert_eq!(skipped, decoded, "{document}");
            checked += 1;
        }
    }
    assert!(checked > 2_000, "{checked}");
    // Escapes, brackets and quotes at every offset from the 8-byte words, and across them.
    for pad in 0..17 {
        for inner in [
            r#"\\"#,
            r#"\""#,
            r#"\\\""#,
            r#"]}\"{["#,
            r#"\u005c"#,
            "Y_y\u{7f}",
        ] {
            let document = format!(
                r#"{{"{}{inner}":["{inner}{}",[{{}}]],"k":"{inner}"}}"#,
                "x".repeat(pad),
                "y".repeat(pad)
            );
            let (skipped, decoded) = ends(&document);
            assert!(decoded.is_some() && skipped == decoded, "{document}");
            let (skipped, decoded) = ends(&format!("{document} "));
            assert_eq!(skipped, decoded, "{document}");
        }
    }
}

#[cfg(feature = "enhanced")]
#[test]
fn a_sample_counts_distinct_keys_and_keeps_the_last_value_of_each() {
    // Python: {"a": 9, "b": 2, "c": 6, "d": 5}: `a` keeps its place with its last
    // value, `d` is the last key (with its last value), `c` is left out of the sample.
    let document = r#"{"a":1,"b":2,"c":3,"\u0061":9,"d":4,"c":6,"d":5,"b":2}"#;
    let (value, _) = load_value(document, 2).unwrap_or((Value::Null, ""));
    assert_eq!(
        value,
        Value::Map(
            vec![
                ("a".into(), Value::Number("9".into())),
                ("b".into(), Value::Number("2".into())),
                ("d".into(), Value::Number("5".into())),
            ],
            4
        )
    );
    // The last new key is the last entry even when an older one repeats after it.
    let (value, _) =
        load_value(r#"{"a":1,"b":2,"c":3,"d":4,"c":5}"#, 1).unwrap_or((Value::Null, ""));
    assert_eq!(
        value,
        Value::Map(
            vec![
                ("a".into(), Value::Number("1".into())),
                ("d".into(), Value::Number("4".into()))
            ],
            4
        )
    );
    // Counted against serde_json (whose maps keep the first key's place too) on keys that
    // repeat past the sample in every spelling.
    let mut seed = 3u64;
    for _ in 0..200 {
        let mut entries = Vec::new();
        for _ in 0..3_000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let key = (seed >> 33) % 2_500;
            let spelled = if seed % 3 == 0 {
                format!("\\u006b{key}")
            } else {
                format!("k{key}")
            };
            entries.push(format!("\"{spelled}\":{{\"v\":{}}}", seed % 7));
        }
        let document = format!("{{{}}}", entries.join(","));
        let expected: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&document).unwrap_or_default();
        let Some((Value::Map(held, len), _)) = load_value(&document, 2_000) else {
            panic!("not a map: {document}");
        };
        assert_eq!(len, expected.len());
        let (last_key, last_value) = expected
            .iter()
            .next_back()
            .map(|(k, v)| (k.clone(), v.to_string()))
            .unwrap_or_default();
        let (held_key, held_value) = held
            .last()
            .map(|(k, v)| {
                (
                    k.to_string(),
                    format!(
                        "{{\"v\":{}}}",
                        v.get("v").and_then(Value::scalar_text).unwrap_or_default()
                    ),
                )
            })
            .unwrap_or_default();
        assert_eq!((held_key, held_value), (last_key, last_value));
        assert_eq!(sampled_load_agrees(&document, 2_000), Ok(()));
    }
}

#[cfg(feature = "enhanced")]
#[test]
fn a_sample_needs_items_of_one_type_and_keeps_depth_limits() {
    // An item past the sample unlike the sampled ones: the list is held whole.
    let (value, _) =
        load_value(r#"[{"a":1},{"a":2},{"a":3},5,{"a":4}]"#, 2).unwrap_or((Value::Null, ""));
    assert!(
        matches!(&value, Value::List(items, 5) if items.len() == 5),
        "{value:?}"
    );
    // A sample of mixed items is not taken either.
    let (value, _) = load_value(r#"[1,"x",2,3,4,5]"#, 2).unwrap_or((Value::Null, ""));
    assert!(
        matches!(&value, Value::List(items, 6) if items.len() == 6),
        "{value:?}"
    );
    // Containers past the keep depth hold their length only, sampled or not.
    let deep = format!(
        "[{}1{}, {}2{}, {}3{}]",
        "[".repeat(7),
        "]".repeat(7),
        "[".repeat(7),
        "]".repeat(7),
        "[".repeat(7),
        "]".repeat(7)
    );
    assert_eq!(sampled_load_agrees(&deep, 1), Ok(()));
    let (value, _) = load_value(&deep, 1).unwrap_or((Value::Null, ""));
    let mut level = &value;
    for _ in 0..FULL_KEEP_DEPTH {
        match level {
            Value::List(items, len) if !items.is_empty() => {
                assert!(*len == 3 || *len == 1);
                level = &items[0];
            }
            other => panic!("{other:?}"),
        }
    }
    assert!(
        matches!(level, Value::List(items, 1) if items.is_empty()),
        "{level:?}"
    );
    // Unvalidated text past a sample (the reference validated it) stays bounded: deep
    // nesting steps over with a counter, an unclosed container is no value.
    let hostile = format!(
        "[[1],[2],{}{},[3]]",
        "[".repeat(1_000_000),
        "]".repeat(1_000_000)
    );
    let loaded = load_value(&hostile, 1).map(|(value, _)| value);
    assert!(
        matches!(&loaded, Some(Value::List(items, 4)) if items.len() == 2),
        "{loaded:?}"
    );
    assert!(load_value(&format!("[1,2,{}", "[".repeat(100_000)), 1).is_none());
    assert!(load_value(r#"[1,2,"abc"#, 1).is_none());
}
