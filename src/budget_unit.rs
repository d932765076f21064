//! The unit a turn's size limits count in: chars (the reference's), or tokens. The core has no
//! tokenizer: the host counts each output's tokens and passes the count in with the part, or
//! leaves out a count that the output's size already decides (see `output_size`).

use serde::{Deserialize, Serialize};

/// What `thresholdTokens`/`thresholdChars` and the turn's inline budget count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum BudgetUnit {
    #[default]
    Chars,
    Tokens,
}

/// The named tokenizer the host counts with in token mode (unless given its own counter).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Tokenizer {
    #[default]
    O200k,
    Cl100k,
}

/// An output's size in `unit`: its chars; or its tokens as the host counted them, else its UTF-8
/// bytes. The bytes are an upper bound of the tokens (every token of a byte-level BPE covers at
/// least one byte), so a host may leave out a count only where the bound decides the same.
pub fn output_size(unit: BudgetUnit, chars: usize, bytes: usize, tokens: Option<u64>) -> usize {
    match (unit, tokens) {
        (BudgetUnit::Chars, _) => chars,
        (BudgetUnit::Tokens, Some(tokens)) => usize::try_from(tokens).unwrap_or(usize::MAX),
        (BudgetUnit::Tokens, None) => bytes,
    }
}

/// What a host that stopped counting an output past the threshold passes instead of its count
/// (part field `outputTokensSample`): the proof that it is over (`moreThan` tokens counted, at
/// least the threshold) and an exact count of its first `sampleChars` chars, from which the core
/// estimates the whole for the stub and record. Decisions use only `moreThan`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TokenSample {
    pub more_than: u64,
    pub sample_chars: u64,
    pub sample_tokens: u64,
}

impl TokenSample {
    /// The size a decision may use: more than `moreThan`, so `moreThan + 1` at least. Only
    /// accepted where that settles the answer (`moreThan` at least the threshold: it goes out).
    pub fn lower_bound(&self) -> u64 {
        self.more_than.saturating_add(1)
    }
}

/// The tokens a stub, record and list entry report: counted, or estimated from a sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ReportedTokens {
    Exact(u64),
    /// `tokens` extrapolated from the exact count of the first `sample_chars` chars.
    Estimated {
        tokens: u64,
        sample_chars: u64,
    },
}

impl ReportedTokens {
    /// An output of `chars` chars: the sample's tokens a char, times its chars, never under the
    /// count the host proved (a sample of the whole output is its exact count).
    pub fn estimate(sample: &TokenSample, chars: usize) -> ReportedTokens {
        let chars = chars as u64;
        if sample.sample_chars >= chars {
            return ReportedTokens::Exact(sample.sample_tokens.max(sample.lower_bound()));
        }
        let scaled = (u128::from(sample.sample_tokens) * u128::from(chars)
            + u128::from(sample.sample_chars) / 2)
            / u128::from(sample.sample_chars.max(1));
        let tokens = u64::try_from(scaled).unwrap_or(u64::MAX);
        ReportedTokens::Estimated {
            tokens: tokens.max(sample.lower_bound()),
            sample_chars: sample.sample_chars,
        }
    }

    pub fn tokens(&self) -> u64 {
        match *self {
            ReportedTokens::Exact(tokens) | ReportedTokens::Estimated { tokens, .. } => tokens,
        }
    }

    /// The chars of the sample an estimate comes from; `None` for a count.
    pub fn sample_chars(&self) -> Option<u64> {
        match *self {
            ReportedTokens::Exact(_) => None,
            ReportedTokens::Estimated { sample_chars, .. } => Some(sample_chars),
        }
    }

    /// The value of a stub's `original_tokens` line: the count, or `~N (estimated from the
    /// first S chars)`, so a reader never takes an estimate for a count.
    pub fn stub_value(&self) -> String {
        match *self {
            ReportedTokens::Exact(tokens) => tokens.to_string(),
            ReportedTokens::Estimated {
                tokens,
                sample_chars,
            } => format!("~{tokens} (estimated from the first {sample_chars} chars)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_estimate_scales_the_sample_and_never_falls_under_the_proof() {
        let sample = TokenSample {
            more_than: 5_000,
            sample_chars: 65_536,
            sample_tokens: 16_384,
        };
        let estimate = ReportedTokens::estimate(&sample, 10 * 65_536);
        assert_eq!(estimate.tokens(), 163_840);
        assert_eq!(estimate.sample_chars(), Some(65_536));
        assert_eq!(
            estimate.stub_value(),
            "~163840 (estimated from the first 65536 chars)"
        );
        let sparse = TokenSample {
            sample_tokens: 10,
            ..sample
        };
        assert_eq!(ReportedTokens::estimate(&sparse, 131_072).tokens(), 5_001);
        // A sample of the whole output is its count.
        let whole = ReportedTokens::estimate(&sample, 65_536);
        assert_eq!(whole, ReportedTokens::Exact(16_384));
        assert_eq!(whole.stub_value(), "16384");
    }

    #[test]
    fn tokens_use_the_count_else_the_byte_bound() {
        assert_eq!(output_size(BudgetUnit::Chars, 3, 9, Some(2)), 3);
        assert_eq!(output_size(BudgetUnit::Tokens, 3, 9, Some(2)), 2);
        assert_eq!(output_size(BudgetUnit::Tokens, 3, 9, None), 9);
    }

    #[test]
    fn names_are_lower_case() {
        let unit: BudgetUnit = serde_json::from_str("\"tokens\"").unwrap();
        assert_eq!(unit, BudgetUnit::Tokens);
        let refused = serde_json::from_str::<BudgetUnit>("\"words\"").unwrap_err();
        assert!(refused.to_string().contains("expected `chars` or `tokens`"));
        let tokenizer: Tokenizer = serde_json::from_str("\"cl100k\"").unwrap();
        assert_eq!(tokenizer, Tokenizer::Cl100k);
    }

    mod turns {
        use crate::turn::{plan_turn, ToolPart, TurnConfig, TurnInput};

        fn tokens_config(threshold: i64, budget: i64) -> TurnConfig {
            serde_json::from_value(serde_json::json!({
                "budgetUnit": "tokens",
                "thresholdTokens": threshold,
                "assistantTurnInlineBudgetTokens": budget,
            }))
            .expect("accepted")
        }

        fn part(id: &str, output: String, tokens: Option<u64>) -> ToolPart {
            ToolPart {
                tool_id: id.into(),
                tool_name: "fetch".into(),
                output,
                output_tokens: tokens,
                ..Default::default()
            }
        }

        fn plan(config: TurnConfig, parts: Vec<ToolPart>) -> crate::turn::TurnPlan {
            plan_turn(TurnInput::new("s", "m", config, parts)).expect("planned")
        }

        #[test]
        fn an_output_under_the_char_threshold_goes_out_over_the_token_one() {
            let output = "word ".repeat(2_000);
            let planned = plan(
                tokens_config(1_500, 100_000),
                vec![part("a", output.clone(), Some(2_000))],
            );
            assert_eq!(planned.writes.len(), 1);
            let write = &planned.writes[0];
            assert_eq!(write.reason, "single_threshold");
            assert!(
                write
                    .stub
                    .contains("\noriginal_chars: 10000\noriginal_tokens: 2000\npreview_chars: "),
                "{}",
                write.stub
            );
            assert!(write.metadata_json.contains("\"original_tokens\": 2000"));
            // The same output in chars stays inline (10,000 chars, threshold 20,000).
            assert!(
                plan(TurnConfig::default(), vec![part("a", output, Some(2_000))])
                    .writes
                    .is_empty()
            );
        }

        #[test]
        fn an_output_over_the_char_threshold_stays_under_the_token_one() {
            let output = "word ".repeat(6_000);
            assert!(plan(
                tokens_config(5_000, 25_000),
                vec![part("a", output.clone(), Some(4_000))]
            )
            .writes
            .is_empty());
            let chars = plan(TurnConfig::default(), vec![part("a", output, Some(4_000))]);
            assert_eq!(chars.writes.len(), 1);
            assert!(!chars.writes[0].stub.contains("original_tokens"));
            assert!(!chars.writes[0].metadata_json.contains("original_tokens"));
        }

        #[test]
        fn an_uncounted_output_is_measured_by_its_bytes() {
            // 3 bytes a char: 1,200 chars are 3,600 bytes, over a 3,000-token threshold.
            let output = "\u{4e2d}".repeat(1_200);
            assert_eq!(
                plan(
                    tokens_config(3_000, 100_000),
                    vec![part("a", output.clone(), None)]
                )
                .writes
                .len(),
                1
            );
            assert!(
                plan(tokens_config(3_600, 100_000), vec![part("a", output, None)])
                    .writes
                    .is_empty()
            );
        }

        fn sampled(id: &str, output: String, more_than: u64, sample_tokens: u64) -> ToolPart {
            ToolPart {
                output_tokens_sample: Some(super::super::TokenSample {
                    more_than,
                    sample_chars: 1_000,
                    sample_tokens,
                }),
                ..part(id, output, None)
            }
        }

        #[test]
        fn a_sampled_output_goes_out_with_an_estimate_that_says_so() {
            // 10,000 chars; its first 1,000 counted as 250 tokens: ~2,500 in all.
            let output = "word ".repeat(2_000);
            let planned = plan(
                tokens_config(1_500, 100_000),
                vec![sampled("a", output.clone(), 1_500, 250)],
            );
            assert_eq!(planned.writes.len(), 1);
            let write = &planned.writes[0];
            assert_eq!(write.reason, "single_threshold");
            assert!(
                write.stub.contains(
                    "\noriginal_tokens: ~2500 (estimated from the first 1000 chars)\npreview_chars: "
                ),
                "{}",
                write.stub
            );
            assert!(write.metadata_json.contains("\"original_tokens\": 2500,"));
            assert!(write
                .metadata_json
                .contains("\"original_tokens_estimated_from_chars\": 1000,"));
            // A counted output's record has no such field.
            let counted = plan(
                tokens_config(1_500, 100_000),
                vec![part("a", output, Some(2_000))],
            );
            assert!(!counted.writes[0].metadata_json.contains("estimated"));
        }

        #[test]
        fn a_sample_decides_as_the_count_would() {
            // Two outputs over the threshold among ones under it: the same writes, reasons and
            // previews whether the big ones were counted or only proved over it.
            let big = "word ".repeat(3_000);
            let small = "word ".repeat(1_900);
            let config = || -> TurnConfig {
                serde_json::from_value(serde_json::json!({
                    "budgetUnit": "tokens",
                    "thresholdTokens": 2_000,
                    "assistantTurnInlineBudgetTokens": 2_000,
                    "previewChars": 100,
                    "minPreviewChars": 50,
                }))
                .expect("accepted")
            };
            let counted = plan(
                config(),
                vec![
                    part("a", big.clone(), Some(3_000)),
                    part("b", small.clone(), Some(1_900)),
                    part("c", big.clone(), Some(3_000)),
                    part("d", small.clone(), Some(1_900)),
                ],
            );
            let sampled = plan(
                config(),
                vec![
                    sampled("a", big.clone(), 2_000, 7),
                    part("b", small.clone(), Some(1_900)),
                    sampled("c", big, 2_000, 7),
                    part("d", small, Some(1_900)),
                ],
            );
            let shape = |plan: &crate::turn::TurnPlan| -> Vec<(usize, String, i64)> {
                plan.writes
                    .iter()
                    .map(|w| (w.part_index, w.reason.clone(), w.preview_chars))
                    .collect()
            };
            assert_eq!(shape(&sampled), shape(&counted));
            assert!(
                shape(&counted).iter().any(|(_, r, _)| r == "turn_budget"),
                "{:?} {}",
                shape(&counted),
                counted.writes[0].stub
            );
            // A lopsided sample still reports more than the proof.
            assert!(sampled.writes[0]
                .stub
                .contains("original_tokens: ~2001 (estimated"));
        }

        #[test]
        fn a_sample_under_the_threshold_is_refused() {
            let error = plan_turn(TurnInput::new(
                "s",
                "m",
                tokens_config(5_000, 25_000),
                vec![sampled("a", "word ".repeat(6_000), 4_999, 10)],
            ))
            .unwrap_err();
            assert!(
                error
                    .to_string()
                    .contains("outputTokensSample.moreThan (4999)"),
                "{error}"
            );
        }

        #[test]
        fn a_stub_counts_as_its_bytes_toward_a_token_budget() {
            // Emoji are 4 UTF-8 bytes and 3 o200k tokens each: a stub that shows some has more
            // tokens than chars. Counted in bytes (at least its tokens), the stub of the output
            // that goes out leaves too little of the budget for a second output, which a count
            // of the stub in chars would have kept inline. Text (an excerpt in the synopsis) and
            // an unknown kind (a head/tail sample sized by the preview).
            let config = |budget: usize| -> TurnConfig {
                serde_json::from_value(serde_json::json!({
                    "budgetUnit": "tokens",
                    "thresholdTokens": 2_000,
                    "assistantTurnInlineBudgetTokens": budget,
                    "previewChars": 300,
                    "minPreviewChars": 300,
                }))
                .expect("accepted")
            };
            for emoji in ["\u{1f99c}", "\u{1}\u{1f99c}"] {
                let big = emoji.repeat(3_000);
                let alone = plan(config(1_000_000), vec![part("a", big.clone(), Some(9_000))]);
                let stub = &alone.writes[0].stub;
                let (chars, bytes) = (stub.chars().count(), stub.len());
                assert!(
                    bytes >= chars + 300,
                    "{chars} chars, {bytes} bytes:\n{stub}"
                );
                let small = "word ".repeat(1_900);
                let both = || {
                    vec![
                        part("a", big.clone(), Some(9_000)),
                        part("b", small.clone(), Some(1_900)),
                    ]
                };
                // The stub's chars and b's tokens are under this budget; its bytes are not.
                let budget = chars + 1_900 + 1;
                let planned = plan(config(budget), both());
                let reasons: Vec<(usize, &str)> = planned
                    .writes
                    .iter()
                    .map(|w| (w.part_index, w.reason.as_str()))
                    .collect();
                assert_eq!(
                    reasons,
                    [(0, "single_threshold"), (1, "turn_budget")],
                    "{emoji:?}"
                );
                // b's stub is smaller in bytes than b's tokens: the turn's bytes bound went down.
                let stubs: usize = planned.writes.iter().map(|w| w.stub.len()).sum();
                assert!(stubs < bytes + 1_900, "{stubs} bytes of stubs");
                // With room for the stub's bytes, b stays inline.
                let roomy = plan(config(bytes + 1_900 + 1), both());
                assert_eq!(roomy.writes.len(), 1, "{emoji:?}");
            }
        }

        #[test]
        fn the_turn_budget_counts_tokens() {
            let parts: Vec<ToolPart> = ["a", "b", "c"]
                .iter()
                .map(|id| part(id, "word ".repeat(4_000), Some(4_000)))
                .collect();
            let planned = plan(tokens_config(5_000, 9_000), parts.clone());
            assert!(!planned.writes.is_empty());
            assert!(planned.writes.iter().all(|w| w.reason == "turn_budget"));
            assert!(plan(tokens_config(5_000, 13_000), parts).writes.is_empty());
        }
    }
}
