//! Limits and hostile inputs: big outputs of every kind, deep nesting, expansion
//! bombs, external entities, false length claims, the `max_output_bytes` limit, and the fuzz
//! findings as regression tests. Each must end in a synopsis or a clean fallback, never a panic,
//! a stack overflow, unbounded memory, or any file or network access.
//! Elapsed times are printed (`--nocapture`) for the limits table in docs/reliability.md; nothing here is timed.

use std::time::Instant;

use tool_stub::read;
use tool_stub::ErrorCode;
use tool_stub::{
    finish_turn, plan_turn, FailureMode, ToolPart, TurnConfig, TurnInput, TurnPlan, WriteOutcome,
    DEFAULT_MAX_OUTPUT_BYTES, REASON_TOO_LARGE,
};
use tool_stub::{generate, Synopsis};
use tool_stub::{make_preview, PreviewRequest};

const BIG: usize = 50 * 1024 * 1024;

/// Repeats `unit(i)` until the text is at least `BIG` bytes, between `head` and `tail`.
fn big(head: &str, unit: impl Fn(usize) -> String, separator: &str, tail: &str) -> String {
    let mut text = String::with_capacity(BIG + 4096);
    text.push_str(head);
    let mut i = 0;
    while text.len() < BIG {
        if i > 0 {
            text.push_str(separator);
        }
        text.push_str(&unit(i));
        i += 1;
    }
    text.push_str(tail);
    text
}

fn timed<T>(what: &str, work: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let result = work();
    println!("LIMITS {what}: {:.2?}", start.elapsed());
    result
}

fn synopsis_of(what: &str, output: &str, mime: &str) -> Synopsis {
    let synopsis = timed(what, || generate(output, mime, 2000));
    println!("LIMITS {what} -> {}: {}", synopsis.kind, synopsis.title);
    synopsis
}

fn part(output: String) -> ToolPart {
    ToolPart {
        tool_id: "call-1".into(),
        tool_name: "bash".into(),
        output,
        ..Default::default()
    }
}

fn turn(parts: Vec<ToolPart>, config: TurnConfig) -> TurnInput {
    TurnInput::new("s", "m", config, parts)
}

fn store_all(plan: &TurnPlan) -> Vec<WriteOutcome> {
    plan.writes
        .iter()
        .map(|w| WriteOutcome::Stored {
            metadata_json: w.metadata_json.clone(),
        })
        .collect()
}

/// A 50 MB output through the whole hot path: its synopsis, then a planned and finished turn.
fn completes(kind: &str, output: String, mime: &str) {
    assert!(output.len() >= BIG);
    let synopsis = synopsis_of(&format!("50 MB {kind} synopsis"), &output, mime);
    assert_eq!(synopsis.kind, kind, "{}", synopsis.title);
    let mut input = part(output);
    input.mime_type = mime.to_string();
    let finished = timed(&format!("50 MB {kind} turn"), || {
        let plan = plan_turn(turn(vec![input], TurnConfig::default())).expect("plans");
        assert_eq!(plan.writes.len(), 1);
        let outcomes = store_all(&plan);
        finish_turn(plan, outcomes).expect("finishes")
    });
    assert!(
        finished[0].truncated && finished[0].output.len() < 40_000,
        "{}",
        finished[0].output.len()
    );
    assert!(finished[0].output.contains(&format!("kind: {kind}\n")));
}

#[test]
fn fifty_megabytes_of_json() {
    let output = big(
        "[",
        |i| format!(r#"{{"id": {i}, "name": "item {i}", "tags": ["a", "b"], "score": 1.5}}"#),
        ", ",
        "]",
    );
    completes("json", output, "application/json");
}

#[test]
fn fifty_megabytes_of_csv() {
    completes(
        "csv",
        big(
            "id,name,score\n",
            |i| format!("{i},name {i},{}.5", i % 97),
            "\n",
            "\n",
        ),
        "text/csv",
    );
}

#[test]
fn fifty_megabytes_of_tsv() {
    completes(
        "tsv",
        big(
            "id\tname\tscore\n",
            |i| format!("{i}\tname {i}\t{}", i % 97),
            "\n",
            "\n",
        ),
        "text/plain",
    );
}

#[test]
fn fifty_megabytes_of_yaml() {
    let output = big(
        "---\nitems:\n",
        |i| format!("  - id: {i}\n    name: item {i}\n    tags: [a, b]"),
        "\n",
        "\n",
    );
    completes("yaml", output, "application/yaml");
}

#[test]
fn fifty_megabytes_of_xml() {
    let output = big(
        "<?xml version=\"1.0\"?>\n<catalog>",
        |i| {
            format!(
                "<item id=\"{i}\"><name>item {i}</name><score>{}</score></item>",
                i % 97
            )
        },
        "\n",
        "</catalog>",
    );
    completes("xml", output, "application/xml");
}

#[test]
fn fifty_megabytes_of_code() {
    let output = big(
        "import os\n\n",
        |i| format!("def handler_{i}(event):\n    return os.path.join('a', str({i}))\n"),
        "\n",
        "",
    );
    completes("code", output, "text/x-python");
}

#[test]
fn fifty_megabytes_of_text() {
    let output = big(
        "",
        |i| format!("Line {i} of the build log: all targets up to date."),
        "\n",
        "\n",
    );
    completes("text", output, "text/plain");
}

#[test]
fn fifty_megabytes_binary_like() {
    let output = big(
        "",
        |i| format!("\u{1}\u{2}\u{3}{}\u{0}", i % 251),
        "\u{7f}",
        "",
    );
    completes("unknown", output, "application/octet-stream");
}

// --- Deep nesting -------------------------------------------------------------------------

fn nested(depth: usize, open: &str, inner: &str, close: &str) -> String {
    format!("{}{inner}{}", open.repeat(depth), close.repeat(depth))
}

/// Too deep for the reference's parser: a clean fallback to another kind, not a crash.
fn falls_back(what: &str, output: &str, mime: &str, structured_kind: &str) {
    let synopsis = synopsis_of(what, output, mime);
    assert_ne!(synopsis.kind, structured_kind, "{what}");
    assert!(!synopsis.title.is_empty());
}

#[test]
fn ten_thousand_deep_json() {
    falls_back(
        "10,000-deep JSON arrays",
        &nested(10_000, "[", "1", "]"),
        "application/json",
        "json",
    );
    falls_back(
        "10,000-deep JSON objects",
        &nested(10_000, "{\"a\":", "1", "}"),
        "application/json",
        "json",
    );
    falls_back(
        "1,000,000-deep JSON, unclosed",
        &"[".repeat(1_000_000),
        "text/plain",
        "json",
    );
}

#[test]
fn ten_thousand_deep_yaml() {
    falls_back(
        "10,000-deep YAML flow sequences",
        &nested(10_000, "[", "1", "]"),
        "application/yaml",
        "yaml",
    );
    falls_back(
        "10,000-deep YAML flow mappings",
        &format!("---\n{}", nested(10_000, "{a: ", "1", "}")),
        "text/plain",
        "yaml",
    );
    let block: String = (0..10_000)
        .map(|depth| format!("{}k{depth}:\n", " ".repeat(depth)))
        .collect();
    falls_back(
        "10,000-deep YAML block mappings",
        &format!("---\n{block}"),
        "text/plain",
        "yaml",
    );
    let sequences: String = (0..10_000)
        .map(|depth| format!("{}-\n", " ".repeat(depth)))
        .collect();
    let synopsis = synopsis_of(
        "10,000-deep YAML block sequences",
        &format!("---\n{sequences}"),
        "text/plain",
    );
    assert!(!synopsis.title.is_empty());
}

#[test]
fn ten_thousand_deep_xml() {
    let output = nested(10_000, "<a>", "x", "</a>");
    let synopsis = synopsis_of("10,000-deep XML", &output, "application/xml");
    assert!(!synopsis.title.is_empty());
}

// --- Expansion bombs and external entities ----------------------------------------------

#[test]
fn yaml_alias_bomb() {
    let mut bomb =
        String::from("---\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for level in 1..10 {
        let refs = vec![format!("*a{}", level - 1); 10].join(", ");
        bomb.push_str(&format!("a{level}: &a{level} [{refs}]\n"));
    }
    let synopsis = synopsis_of(
        "YAML billion laughs (10^10 nodes)",
        &bomb,
        "application/yaml",
    );
    assert!(synopsis.sample.len() < 100_000 && !synopsis.title.is_empty());
    // Block style: each level refers to the one before twice, 2^40 nodes if expanded.
    let mut block = String::from("---\nl0: &l0\n  x: [1, 2, 3]\n");
    for level in 1..=40 {
        let previous = level - 1;
        block.push_str(&format!(
            "l{level}: &l{level}\n  - *l{previous}\n  - *l{previous}\n"
        ));
    }
    let synopsis = synopsis_of("YAML 2^40 alias doubling", &block, "text/plain");
    assert!(synopsis.sample.len() < 100_000);
}

fn billion_laughs() -> String {
    let mut doc =
        String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n");
    for level in 1..10 {
        let refs = format!(
            "&lol{};",
            if level == 1 {
                String::new()
            } else {
                (level - 1).to_string()
            }
        )
        .repeat(10);
        doc.push_str(&format!("<!ENTITY lol{level} \"{refs}\">\n"));
    }
    doc.push_str("]>\n<lolz>&lol9;</lolz>");
    doc
}

#[test]
fn xml_entity_expansion_bomb() {
    let synopsis = synopsis_of("XML billion laughs", &billion_laughs(), "application/xml");
    // The reference's expat refuses the amplification; whatever the answer, it is small.
    assert!(synopsis.sample.len() < 100_000 && !synopsis.title.is_empty());
    let quadratic = format!(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE q [<!ENTITY a \"{}\">]>\n<q>{}</q>",
        "x".repeat(50_000),
        "&a;".repeat(50_000)
    );
    let synopsis = synopsis_of(
        "XML quadratic blowup (2.5 GB if expanded)",
        &quadratic,
        "application/xml",
    );
    assert!(synopsis.sample.len() < 100_000);
}

#[test]
fn xml_external_entities_are_never_loaded() {
    let secret = std::env::temp_dir().join(format!("tool-stub-xxe-{}.txt", std::process::id()));
    std::fs::write(&secret, "XXE-SECRET-CONTENT").expect("temp file");
    let uri = format!("file://{}", secret.display());
    let documents = [
        format!("<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM \"{uri}\">]>\n<r>&x;</r>"),
        format!("<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY % p SYSTEM \"{uri}\"> %p;]>\n<r>a</r>"),
        format!("<?xml version=\"1.0\"?>\n<!DOCTYPE r SYSTEM \"{uri}\">\n<r>&undefined;</r>"),
        "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY x SYSTEM \"http://127.0.0.1:9/x\">]>\n<r>&x;</r>".to_string(),
        format!("<?xml version=\"1.0\"?>\n<?xml-stylesheet href=\"{uri}\"?>\n<r xmlns:xi=\"http://www.w3.org/2001/XInclude\"><xi:include href=\"{uri}\" parse=\"text\"/></r>"),
    ];
    for document in &documents {
        let synopsis = synopsis_of("XML external entity", document, "application/xml");
        let all = serde_json::to_string(&synopsis).expect("serializes");
        assert!(!all.contains("XXE-SECRET-CONTENT"), "{all}");
    }
    std::fs::remove_file(&secret).ok();
}

/// The core is pure: no module of it may reach the file system, the network, processes or the
/// environment (the parsers included: none of them is given a way to load anything).
#[test]
fn the_core_has_no_file_or_network_access() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![src];
    let mut checked = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src is readable") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("source is UTF-8");
            for forbidden in [
                "std::fs",
                "std::net",
                "std::process",
                "std::env",
                "File::open",
                "TcpStream",
                "include_str!",
            ] {
                assert!(
                    !text.contains(forbidden),
                    "{} uses {forbidden}",
                    path.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} source files found");
}

// --- False length claims ------------------------------------------------------------------

#[test]
fn false_length_claims_are_not_trusted() {
    // An earlier stub in the turn that claims an absurd original length.
    let mut claimed =
        part("[OpenViking tool result externalized]\noriginal_chars: 1073741824".into());
    claimed.truncated = true;
    claimed.output_ref = "viking://user/default/sessions/s/tool-results/tr_x".into();
    for claim in [1 << 30, u64::MAX] {
        claimed.original_chars = Some(claim);
        let parts = vec![
            claimed.clone(),
            claimed.clone(),
            part("word ".repeat(10_000)),
        ];
        let plan = plan_turn(turn(parts, TurnConfig::default())).expect("plans");
        assert_eq!(
            plan.parts[0].group_original_chars,
            Some(claim.saturating_mul(2).saturating_add(50_000))
        );
    }
    // Outputs whose text claims a length: a header, a CSV column, a JSON field.
    for output in [
        "HTTP/1.1 200 OK\r\nContent-Length: 1073741824\r\n\r\nshort body".to_string(),
        "length,data\n1073741824,x\n".to_string(),
        r#"{"length": 1073741824, "data": "x", "n": 1e999999999}"#.to_string(),
        format!(
            "<?xml version=\"1.0\" encoding=\"{}\"?><r/>",
            "x".repeat(1000)
        ),
        "--- !!binary |\n  R0lGODlhDAAMAIQAAP//9/X17unp5WZmZgAAAOfn515eXvPz7Y6OjuDg4J+fn5"
            .to_string(),
    ] {
        let (synopsis, stub) = make_preview(
            &output,
            &PreviewRequest {
                preview_chars: 1 << 30,
                ..Default::default()
            },
        );
        assert!(!synopsis.title.is_empty());
        assert!(
            stub.contains(&format!("original_chars: {}\n", output.chars().count())),
            "{stub}"
        );
    }
    // Read windows far past the end, or of absurd length.
    let window = read("abc", 1 << 30, 1 << 53).expect("valid");
    assert_eq!((window.content.as_str(), window.has_more), ("", false));
    assert_eq!(read("abc", 1, i64::MAX).expect("valid").content, "bc");
}

// --- max_output_bytes: TOO_LARGE ----------------------------------------------------------

fn oversized_turn(mode: FailureMode, limit: u64, output: String) -> (TurnInput, String) {
    let config = TurnConfig {
        failure_mode: mode,
        max_output_bytes: limit,
        preview_chars: 100,
        ..Default::default()
    };
    (
        turn(vec![part(output.clone()), part("small".into())], config),
        output,
    )
}

#[test]
fn oversized_output_under_each_failure_mode() {
    let output = "{\"a\": 1}".repeat(5_000);
    let limit = output.len() as u64 - 1;

    let (input, original) = oversized_turn(FailureMode::PreserveRaw, limit, output.clone());
    let plan = plan_turn(input).expect("plans");
    assert!(
        plan.writes.is_empty(),
        "an oversized output is never stored"
    );
    assert_eq!(plan.parts[0].output, original);
    assert!(
        plan.parts[0]
            .externalization_error
            .starts_with("TOO_LARGE: "),
        "{}",
        plan.parts[0].externalization_error
    );
    assert_eq!(
        finish_turn(plan, Vec::new()).expect("finishes")[0].output,
        original
    );

    let (input, original) = oversized_turn(FailureMode::PreviewOnly, limit, output.clone());
    let plan = plan_turn(input).expect("plans");
    assert!(plan.writes.is_empty());
    let stub = &plan.parts[0];
    assert!(
        stub.truncated
            && stub.output_ref.is_empty()
            && stub.externalized_reason == REASON_TOO_LARGE
    );
    assert!(
        stub.output.contains("kind: unknown\n") && !stub.output.contains("kind: json"),
        "never synopsized"
    );
    assert!(stub.output.contains("--- BEGIN SAMPLE HEAD ---") && stub.output.len() < 2_000);
    assert_eq!(stub.original_chars, Some(original.chars().count() as u64));
    assert!(stub.externalization_error.starts_with("TOO_LARGE: "));

    let (input, _) = oversized_turn(FailureMode::Reject, limit, output.clone());
    assert_eq!(
        plan_turn(input).map(|_| ()).map_err(|e| e.code),
        Err(ErrorCode::TooLarge)
    );

    // At the limit exactly is fine: externalized as usual.
    let (input, _) = oversized_turn(FailureMode::Reject, output.len() as u64, output);
    assert_eq!(plan_turn(input).expect("plans").writes.len(), 1);
}

#[test]
fn the_limit_is_utf8_bytes_and_configurable_by_either_name() {
    let config: TurnConfig = serde_json::from_str(r#"{"maxOutputBytes": 10}"#).expect("camelCase");
    assert_eq!(config.max_output_bytes, 10);
    let config: TurnConfig =
        serde_json::from_str(r#"{"max_output_bytes": 11}"#).expect("snake_case");
    assert_eq!(config.max_output_bytes, 11);
    assert!(serde_json::from_str::<TurnConfig>(r#"{"maxOutputBytes": -1}"#).is_err());
    assert_eq!(TurnConfig::default().max_output_bytes, 256 * 1024 * 1024);
    // Six chars, twelve bytes: over a limit of ten.
    let config = TurnConfig {
        max_output_bytes: 10,
        failure_mode: FailureMode::Reject,
        threshold_chars: 1,
        ..Default::default()
    };
    let result = plan_turn(turn(vec![part("日本語!!!".into())], config));
    assert_eq!(
        result.map(|_| ()).map_err(|e| e.code),
        Err(ErrorCode::TooLarge)
    );
}

#[test]
fn an_output_over_the_default_limit_is_refused_not_synopsized() {
    let output =
        "{\"k\": [".to_string() + &"1, ".repeat((DEFAULT_MAX_OUTPUT_BYTES as usize) / 3) + "1]}";
    assert!(output.len() as u64 > DEFAULT_MAX_OUTPUT_BYTES);
    for mode in [
        FailureMode::PreserveRaw,
        FailureMode::PreviewOnly,
        FailureMode::Reject,
    ] {
        let config = TurnConfig {
            failure_mode: mode,
            ..Default::default()
        };
        let input = turn(vec![part(output.clone())], config);
        let result = timed(&format!("256 MB + 4 bytes, {mode:?}"), || plan_turn(input));
        match mode {
            FailureMode::Reject => assert_eq!(
                result.map(|_| ()).map_err(|e| e.code),
                Err(ErrorCode::TooLarge)
            ),
            _ => {
                let plan = result.expect("plans");
                assert!(plan.writes.is_empty());
                assert!(plan.parts[0]
                    .externalization_error
                    .starts_with("TOO_LARGE: "));
            }
        }
    }
}

// --- Fuzz findings (regressions) ----------------------------------------------------------

/// fuzz `turn`: claimed `original_chars` of earlier stubs summed with overflow (a panic in debug
/// builds, a wrapped group size in release).
#[test]
fn fuzz_finding_claimed_lengths_do_not_overflow() {
    let mut earlier = part("stub".into());
    earlier.truncated = true;
    earlier.output_ref = "viking://x".into();
    earlier.original_chars = Some(u64::MAX);
    let plan = plan_turn(turn(
        vec![earlier.clone(), earlier, part("x".into())],
        TurnConfig::default(),
    ))
    .expect("plans");
    assert_eq!(plan.parts[2].group_original_chars, Some(u64::MAX));
}

/// YAML over the size cap is not loaded (its loader's memory grows to ~20x the input): it falls
/// through to code or text instead of risking wasm's 4 GiB.
#[test]
fn yaml_over_the_size_cap_is_not_loaded() {
    let entry = "- name: item\n  value: 1\n";
    let output = format!(
        "---\n{}",
        entry.repeat(tool_stub::MAX_YAML_BYTES / entry.len() + 1)
    );
    let synopsis = tool_stub::generate(&output, "text/plain", 2000);
    assert_eq!(synopsis.kind, "text");
    let small = format!("---\n{}", entry.repeat(100));
    assert_eq!(tool_stub::generate(&small, "text/plain", 2000).kind, "yaml");
}
