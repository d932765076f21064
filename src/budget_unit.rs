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

#[cfg(test)]
mod tests {
    use super::*;

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
