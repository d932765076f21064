//! Native side of the native-vs-wasm determinism check (tests/js/determinism.test.js): generates
//! outputs of every kind from a fixed seed, runs the core natively on them, and prints inputs and
//! answers as one JSON document. The JS test runs the same inputs through the wasm build and
//! requires the same bytes. Run: `cargo run --profile test --example determinism [count]`.

use serde_json::{json, Value};
use tool_stub::{finish_turn, plan_turn, ToolPart, TurnConfig, TurnInput, WriteOutcome};
use tool_stub::{make_preview, PreviewRequest, SynopsisMode};

/// xorshift64*: a fixed, dependency-free sequence (the inputs only need to be varied and stable).
struct Sequence(u64);

impl Sequence {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const WORDS: [&str; 12] = [
    "alpha",
    "beta",
    "γάμμα",
    "δ",
    "日本",
    "😀",
    "naïve",
    "x",
    "",
    "tab\there",
    "quote\"d",
    "a,b",
];

fn generated_output(seq: &mut Sequence) -> (String, &'static str) {
    let rows = 1 + seq.below(400);
    let word = |seq: &mut Sequence| seq.pick(&WORDS).to_string();
    match seq.below(11) {
        0 => {
            let items: Vec<Value> = (0..rows)
                .map(|i| json!({"id": i, "name": word(seq), "score": (seq.next() % 1000) as f64 / 7.0, "tags": [word(seq)]}))
                .collect();
            (Value::Array(items).to_string(), "application/json")
        }
        1 | 2 => {
            let delimiter = if seq.below(2) == 0 { "," } else { "\t" };
            let mut text = ["id", "name", "value"].join(delimiter);
            for i in 0..rows {
                text.push_str(&format!(
                    "\n{i}{delimiter}{}{delimiter}{}",
                    word(seq).replace([',', '\t', '"'], " "),
                    seq.next() % 100
                ));
            }
            (text, "text/plain")
        }
        3 => {
            let mut text = String::from("---\nitems:\n");
            for i in 0..rows {
                text.push_str(&format!(
                    "  - id: {i}\n    name: \"{}\"\n",
                    word(seq).replace('"', "'")
                ));
            }
            (text, "application/yaml")
        }
        4 => {
            let body: String = (0..rows)
                .map(|i| format!("<item n=\"{i}\">{}</item>", word(seq).replace('"', "")))
                .collect();
            (
                format!("<?xml version=\"1.0\"?>\n<root>{body}</root>"),
                "application/xml",
            )
        }
        5 => (
            (0..rows)
                .map(|i| format!("def f{i}(x):\n    return x * {i}\n\n"))
                .collect(),
            "text/x-python",
        ),
        6 => {
            let text: Vec<String> = (0..rows * 5).map(|_| word(seq)).collect();
            (text.join(" "), "text/plain")
        }
        7 => (
            (0..rows * 3)
                .map(|i| {
                    char::from_u32((seq.next() % 0x30) as u32)
                        .map_or('?', |c| c)
                        .to_string()
                        + &i.to_string()
                })
                .collect(),
            "application/octet-stream",
        ),
        8 => {
            // Lines of code and log of any length (0..40 bytes: breaks at every offset of a
            // 16-byte block), joined by every break `str.splitlines()` knows, among chars that
            // share a lead byte with them (U+00A0, U+00A9 lead with C2; U+2014, U+2027 with E2).
            const BREAKS: [&str; 11] = [
                "\n", "\r\n", "\r", "\u{0b}", "\u{0c}", "\u{1c}", "\u{1d}", "\u{1e}", "\u{85}",
                "\u{2028}", "\u{2029}",
            ];
            const PIECES: [&str; 10] = [
                "def f(x):",
                "    return x",
                "ERROR boom",
                "\u{a0}",
                "©",
                "—",
                "\u{2027}",
                "\t",
                "x",
                "2024-01-01T00:00:00Z",
            ];
            let mut text = String::new();
            for _ in 0..rows {
                let line_start = text.len();
                let length = seq.below(40);
                while text.len() - line_start < length {
                    text.push_str(seq.pick(&PIECES));
                }
                // (Mostly `\n`, as in real outputs.)
                let kinds = 1 + seq.below(BREAKS.len());
                text.push_str(seq.pick(&BREAKS[..kinds]));
            }
            (text, seq.pick(&["", "text/plain", "text/x-python"]))
        }
        9 => {
            // XML whose texts, attribute values and tags end at every offset of a 16-byte block
            // (the enhanced XML analyzer scans 16 bytes a step with wasm SIMD), with quoted `>`,
            // both quotes, `=` in values, problem attributes and children, records of one shape
            // and the odd one out.
            const PIECES: [&str; 9] = ["x", "é", "a &amp; b", " ", "日本", "=", "'", "\"", ">"];
            const ATTRIBUTES: [&str; 6] = ["id", "k", "status", "state", "outcome ", "result"];
            let fill = |seq: &mut Sequence, without: char| {
                let length = seq.below(40);
                let mut text = String::new();
                while text.len() < length {
                    text.push_str(seq.pick(&PIECES));
                }
                text.replace(without, "")
            };
            let mut body = String::new();
            for _ in 0..rows {
                let record = if seq.below(15) == 0 { "case" } else { "rec" };
                body.push_str(&format!("\n <{record}"));
                for attribute in ATTRIBUTES {
                    if seq.below(3) != 0 {
                        continue;
                    }
                    let quote = if seq.below(2) == 0 { '"' } else { '\'' };
                    let value = if seq.below(6) == 0 {
                        "failed".to_string()
                    } else {
                        fill(seq, quote)
                    };
                    body.push_str(&format!(" {attribute}={quote}{value}{quote}"));
                }
                body.push('>');
                body.push_str(&format!(
                    "<name>{}</name>",
                    fill(seq, '<').replace(['>', '"', '\''], "")
                ));
                match seq.below(8) {
                    0 => body.push_str(&format!("<failure message=\"{}\"/>", fill(seq, '"'))),
                    1 => body.push_str(&format!("<error>{}</error>", fill(seq, '<'))),
                    2 => body.push_str("<v/>"),
                    _ => body.push_str(&format!("<count>{}</count>", seq.below(1000))),
                }
                body.push_str(&format!("</{record}>"));
            }
            (
                format!("<?xml version=\"1.0\"?>\n<run>{body}</run>"),
                "application/xml",
            )
        }
        _ => {
            let text: String = (0..rows * 4)
                .map(|_| char::from_u32((seq.next() % 0x2FFFF) as u32).unwrap_or('\u{FFFD}'))
                .collect();
            (
                text,
                seq.pick(&["", "text/plain", "application/json", "text/csv"]),
            )
        }
    }
}

fn main() {
    let count: usize = std::env::args()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(150);
    let mut seq = Sequence(0x9E37_79B9_7F4A_7C15);
    let mut previews = Vec::new();
    for _ in 0..count {
        let (output, mime_type) = generated_output(&mut seq);
        let preview_chars = [0, 1, 200, 2000, 100_000][seq.below(5)];
        // Every output in both synopsis modes.
        for (mode, name) in [
            (SynopsisMode::Reference, "reference"),
            (SynopsisMode::Enhanced, "enhanced"),
        ] {
            let (synopsis, stub) = make_preview(
                &output,
                &PreviewRequest {
                    mime_type,
                    preview_chars,
                    mode,
                    ..Default::default()
                },
            );
            previews.push(json!({
                "output": output, "mimeType": mime_type, "previewChars": preview_chars,
                "synopsisMode": name, "expected": {"synopsis": synopsis, "stub": stub},
            }));
        }
    }
    let mut turns = Vec::new();
    for t in 0..count / 5 {
        let parts: Vec<ToolPart> = (0..1 + seq.below(6))
            .map(|p| {
                let (output, mime_type) = generated_output(&mut seq);
                ToolPart {
                    tool_id: format!("call {t}/{p}"),
                    tool_name: "bash".into(),
                    output,
                    mime_type: mime_type.into(),
                    ..Default::default()
                }
            })
            .collect();
        let config = TurnConfig {
            threshold_chars: [50, 2000, 20_000][seq.below(3)],
            assistant_turn_inline_budget_chars: [100, 5000, 100_000][seq.below(3)],
            synopsis_mode: [SynopsisMode::Reference, SynopsisMode::Enhanced][seq.below(2)],
            ..Default::default()
        };
        let input = TurnInput {
            created_at: "2024-01-01T00:00:00Z".into(),
            ..TurnInput::new(&format!("session-{t}"), &format!("m{t}"), config, parts)
        };
        let input_json = json!({
            "sessionId": input.session_id, "messageId": input.message_id, "config": input.config,
            "parts": input.parts, "createdAt": input.created_at,
        });
        // The plan's writes, and the parts the turn finishes with when every write is stored.
        let expected = match plan_turn(input) {
            Ok(plan) => {
                let writes = serde_json::to_value(&plan.writes).unwrap_or(Value::Null);
                let rewritten_parts = plan.rewritten_parts.clone();
                let stored = WriteOutcome::Stored {
                    metadata_json: String::new(),
                };
                match finish_turn(plan.clone(), vec![stored; plan.writes.len()]) {
                    Ok(parts) => json!({
                        "writes": writes, "rewrittenParts": rewritten_parts, "parts": parts,
                    }),
                    Err(error) => json!({"error": error.to_string()}),
                }
            }
            Err(error) => json!({"error": error.to_string()}),
        };
        turns.push(json!({"input": input_json, "expected": expected}));
    }
    println!("{}", json!({"previews": previews, "turns": turns}));
}
