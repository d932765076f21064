use super::forms::{reference_form, REFERENCE_FORM_PREFIX};
use super::*;

const TITLE: &str = "[OpenViking tool result externalized]";

fn stub_text(n: usize) -> String {
    format!(
        "{TITLE}\ntool_name: t\nkind: json\noriginal_chars: 9000\npreview_chars: 2000\n\
         ref: viking://user/default/sessions/s/tool-results/tr_{n}\nreason: context_budget\n\nSynopsis:\nx"
    )
}

fn inline(tokens: u64, tool: &str) -> ContextResult {
    ContextResult {
        tokens,
        tool_name: tool.to_string(),
        pinned: false,
        head: "{\"rows\": [1, 2, 3]}".to_string(),
    }
}

fn stubbed(tokens: u64, n: usize) -> ContextResult {
    ContextResult {
        tokens,
        tool_name: "t".to_string(),
        pinned: false,
        head: stub_text(n),
    }
}

fn policy(trigger: u64, target: u64) -> ContextPolicy {
    ContextPolicy {
        trigger,
        target,
        keep_recent: 2,
        clear_at_least: 0,
        exclude_tools: Vec::new(),
        stub_tokens: 1_000,
        reference_tokens: 100,
    }
}

fn input(policy: ContextPolicy, results: Vec<ContextResult>, other_tokens: u64) -> ContextInput {
    let total = results.iter().map(|r| r.tokens).sum::<u64>() + other_tokens;
    ContextInput {
        policy,
        total_tokens: total,
        results,
        stub_header: TITLE.to_string(),
        resume: false,
    }
}

fn cleared(plan: &ContextPlan) -> Vec<(usize, Replacement)> {
    plan.clear.iter().map(|c| (c.index, c.to)).collect()
}

#[test]
fn under_the_trigger_nothing_changes() {
    let results = vec![inline(40_000, "t"), inline(40_000, "t"), inline(10, "t")];
    let plan = plan(&input(policy(100_000, 50_000), results, 1_000)).unwrap();
    assert!(plan.clear.is_empty());
    assert_eq!(plan.expected_tokens, 81_010);
}

#[test]
fn clears_oldest_first_until_under_the_target_and_keeps_the_recent() {
    let results = vec![
        inline(30_000, "t"),
        inline(30_000, "t"),
        inline(30_000, "t"),
        inline(30_000, "t"),
        inline(30_000, "t"),
    ];
    // 150k: over 100k; the target 70k needs 80k freed: three stubs free 29k each.
    let plan = plan(&input(policy(100_000, 70_000), results, 0)).unwrap();
    assert_eq!(
        cleared(&plan),
        vec![
            (0, Replacement::Stub),
            (1, Replacement::Stub),
            (2, Replacement::Stub)
        ]
    );
    assert_eq!(plan.expected_tokens, 150_000 - 3 * 29_000);
    assert!(plan.expected_tokens <= 70_000);
}

#[test]
fn the_last_keep_recent_pinned_and_excluded_results_are_never_cleared() {
    let mut pinned = inline(50_000, "t");
    pinned.pinned = true;
    let results = vec![
        pinned,
        inline(50_000, "memory"),
        inline(50_000, "t"),
        inline(50_000, "t"),
        inline(50_000, "t"),
    ];
    let mut p = policy(10_000, 5_000);
    p.exclude_tools = vec!["memory".to_string()];
    let plan = plan(&input(p, results, 0)).unwrap();
    // Everything else is protected: only index 2 can go, and it goes as far as it can.
    assert_eq!(cleared(&plan), vec![(2, Replacement::Reference)]);
}

#[test]
fn stubs_shrink_to_reference_forms_and_reference_forms_stay() {
    let reference = reference_form(&stub_text(9), TITLE, &ToolNames::default()).unwrap();
    let results = vec![
        ContextResult {
            tokens: 60,
            tool_name: "t".to_string(),
            pinned: false,
            head: reference,
        },
        stubbed(1_000, 1),
        inline(20_000, "t"),
        inline(10, "t"),
        inline(10, "t"),
    ];
    let plan = plan(&input(policy(20_000, 15_000), results, 0)).unwrap();
    // 21,080 tokens: 6,080 to free. The stub (900 freed), then the inline result (19,000).
    assert_eq!(
        cleared(&plan),
        vec![(1, Replacement::Reference), (2, Replacement::Stub)]
    );
}

#[test]
fn a_small_inline_result_goes_straight_to_its_reference_form_and_a_tiny_one_stays() {
    let results = vec![
        inline(50, "t"),
        inline(1_500, "t"),
        inline(90_000, "t"),
        inline(1, "t"),
        inline(1, "t"),
    ];
    let plan = plan(&input(policy(50_000, 1_000), results, 0)).unwrap();
    assert_eq!(
        cleared(&plan),
        vec![(1, Replacement::Reference), (2, Replacement::Reference)]
    );
}

#[test]
fn clear_at_least_batches_the_clearing() {
    let results: Vec<ContextResult> = (0..10).map(|_| inline(10_000, "t")).collect();
    // 100k, 1k over the trigger: without a batch one stub is enough.
    let one = plan(&input(policy(99_000, 99_000), results.clone(), 0)).unwrap();
    assert_eq!(one.clear.len(), 1);
    let mut batched = policy(99_000, 99_000);
    batched.clear_at_least = 40_000;
    let plan = plan(&input(batched, results, 0)).unwrap();
    // 9,000 freed per stub: five stubs free 45k >= 40k.
    assert_eq!(plan.clear.len(), 5);
    assert!(plan.clear.iter().all(|c| c.to == Replacement::Stub));
}

#[test]
fn a_resumed_run_clears_down_to_the_target_under_the_trigger() {
    let results = vec![
        stubbed(3_000, 1),
        inline(10_000, "t"),
        inline(5, "t"),
        inline(5, "t"),
    ];
    let mut fresh = input(policy(20_000, 5_000), results, 0);
    assert!(plan(&fresh).unwrap().clear.is_empty());
    fresh.resume = true;
    let plan = plan(&fresh).unwrap();
    assert_eq!(
        cleared(&plan),
        vec![(0, Replacement::Reference), (1, Replacement::Stub)]
    );
}

#[test]
fn a_target_over_the_trigger_is_refused() {
    let error = plan(&input(policy(10, 20), vec![], 100)).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidArgument);
    assert!(error.message.contains("target"));
}

#[test]
fn planning_its_own_result_again_changes_nothing() {
    // Apply a plan with the estimates exact, then plan again: a fixpoint.
    let mut results: Vec<ContextResult> = (0..8).map(|i| inline(5_000 + i * 100, "t")).collect();
    results.push(inline(10, "t"));
    results.push(inline(10, "t"));
    let first_input = input(policy(30_000, 20_000), results.clone(), 500);
    let first = plan(&first_input).unwrap();
    assert!(!first.clear.is_empty());
    for clearing in &first.clear {
        let result = &mut results[clearing.index];
        match clearing.to {
            Replacement::Stub => *result = stubbed(1_000, clearing.index),
            Replacement::Reference => {
                result.head =
                    reference_form(&stub_text(clearing.index), TITLE, &ToolNames::default())
                        .unwrap();
                result.tokens = 100;
            }
        }
    }
    let second_input = input(policy(30_000, 20_000), results, 500);
    assert_eq!(second_input.total_tokens, first.expected_tokens);
    assert!(plan(&second_input).unwrap().clear.is_empty());
}

#[test]
fn the_replacement_is_the_stub_only_when_it_is_smaller() {
    let tools = ToolNames::default();
    let stub = stub_text(3);
    let reference = "viking://user/default/sessions/s/tool-results/tr_3";
    let kept = replacement(Replacement::Stub, &stub, 900, 20_000, TITLE, &tools).unwrap();
    assert_eq!(kept.text, stub);
    assert_eq!(kept.reference, reference);
    let line = replacement(Replacement::Stub, &stub, 900, 800, TITLE, &tools).unwrap();
    assert!(line.text.starts_with(REFERENCE_FORM_PREFIX));
    assert_eq!(line.reference, reference);
    let asked = replacement(Replacement::Reference, &stub, 900, 20_000, TITLE, &tools).unwrap();
    assert_eq!(asked, line);
    assert_eq!(
        replacement(Replacement::Stub, "raw", 1, 20_000, TITLE, &tools),
        None
    );
    assert!(Replacement::parse("stub").is_ok());
    assert_eq!(
        Replacement::parse("drop").unwrap_err().code,
        ErrorCode::InvalidArgument
    );
}

#[test]
fn the_full_history_fitted_again_clears_the_same_results_until_a_batch_has_grown() {
    let mut results: Vec<ContextResult> = (0..20).map(|_| inline(10_000, "t")).collect();
    let mut p = policy(150_000, 120_000);
    p.clear_at_least = 30_000;
    p.keep_recent = 3;
    let first = plan(&input(p.clone(), results.clone(), 0)).unwrap();
    // 200k: 80k to free, rounded up to 90k: ten stubs of 9k each.
    assert_eq!(first.clear.len(), 10);
    // Each step adds a small result: the same ten, until the growth passes a batch.
    for step in 1..=10 {
        results.push(inline(2_000, "t"));
        let again = plan(&input(p.clone(), results.clone(), 0)).unwrap();
        let grown = step * 2_000;
        if grown <= 10_000 {
            assert_eq!(again.clear, first.clear, "step {step}");
        } else {
            assert!(again.clear.len() > first.clear.len(), "step {step}");
            assert_eq!(
                again.clear[..10],
                first.clear[..],
                "the earlier batch stays as it was"
            );
        }
    }
}

#[test]
fn a_forced_part_goes_out_whatever_its_size_and_its_stub_shrinks_to_a_reference_form() {
    use crate::turn::{plan_turn, ToolPart, TurnConfig, TurnInput, REASON_CONTEXT};
    let part = |keep_inline| ToolPart {
        tool_id: "call_1".to_string(),
        tool_name: "http_get".to_string(),
        output: "{\"rows\": [1, 2, 3]}".to_string(),
        force_externalize: true,
        keep_inline,
        ..ToolPart::default()
    };
    let input = |parts| TurnInput {
        session_id: "s".to_string(),
        session_uri: None,
        message_id: "m".to_string(),
        config: TurnConfig::default(),
        parts,
        created_at: "2026-01-01T00:00:00Z".to_string(),
        user_id: None,
        peer_id: None,
    };
    let plan = plan_turn(input(vec![part(false)])).unwrap();
    assert_eq!(plan.writes.len(), 1);
    assert_eq!(plan.writes[0].reason, REASON_CONTEXT);
    let stub = &plan.writes[0].stub;
    assert!(stub.contains("reason: context_budget"));
    let config = TurnConfig::default();
    let replaced = replacement(
        Replacement::Reference,
        stub,
        300,
        400,
        &config.stub_header,
        &config.tool_names,
    )
    .unwrap();
    assert_eq!(replaced.reference, plan.writes[0].reference);
    assert!(replaced.text.contains(&plan.writes[0].reference));
    // keepInline wins.
    assert!(plan_turn(input(vec![part(true)]))
        .unwrap()
        .writes
        .is_empty());
}
