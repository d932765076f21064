//! The context governor's policy: given a conversation's tool results (their sizes in tokens,
//! order, tool names, pins and current forms) and the budget, which results to clear, in which
//! order, and into what. The host walks the message shapes, counts tokens and stores outputs;
//! this decides.
//!
//! Clearing moves a result one step along inline → stub → one-line reference form, oldest first,
//! never touching the last `keep_recent` results, pinned results or excluded tools. It starts only
//! when the conversation passes `trigger` and then frees at least `clear_at_least` tokens (and
//! enough to get under `target`), so the prompt prefix changes in rare, large batches rather than
//! a little at every step.

pub(crate) mod forms;

use serde::Serialize;

use crate::error::{Error, ErrorCode, Result};
use crate::json_fields;
use crate::stub::ToolNames;
use forms::Form;

/// A stub's size in tokens before it is made: what clearing an inline result is expected to
/// leave. The host counts the real stub afterwards and plans again when it was larger.
pub(crate) const DEFAULT_STUB_TOKENS: u64 = 1_200;
/// A reference form's size in tokens (one line: ref, tool name, kind, sizes, tools).
pub(crate) const DEFAULT_REFERENCE_TOKENS: u64 = 100;

/// Read from JSON by hand (`json_fields::strict_struct!`, below): a derived reader is ~5 KB of
/// the main wasm module for each of the three input structs.
#[derive(Debug, Clone)]
pub struct ContextPolicy {
    /// Clearing starts when the conversation is over this many tokens.
    pub trigger: u64,
    /// And goes on until it is at or under this many (at most `trigger`).
    pub target: u64,
    /// The last this-many tool results are never cleared.
    pub keep_recent: usize,
    /// A clearing frees at least this many tokens when there is that much to clear: whole
    /// multiples of it, enough to get under the target.
    pub clear_at_least: u64,
    /// Results of these tools are never cleared.
    pub exclude_tools: Vec<String>,
    pub stub_tokens: u64,
    pub reference_tokens: u64,
}

/// The last this-many tool results are never cleared unless the policy says otherwise.
pub(crate) const DEFAULT_KEEP_RECENT: usize = 3;

json_fields::strict_struct!(ContextPolicy, {
    trigger: "trigger",
    target: "target",
    keep_recent: "keepRecent" = DEFAULT_KEEP_RECENT,
    clear_at_least: "clearAtLeast" = 0,
    exclude_tools: "excludeTools" = Vec::new(),
    stub_tokens: "stubTokens" = DEFAULT_STUB_TOKENS,
    reference_tokens: "referenceTokens" = DEFAULT_REFERENCE_TOKENS,
});

/// One tool result of the conversation, in conversation order.
#[derive(Debug, Clone)]
pub struct ContextResult {
    /// Its size as the conversation counts it.
    pub tokens: u64,
    pub tool_name: String,
    pub pinned: bool,
    /// The first chars of its text (`forms::HEAD_CHARS` are enough to tell its form).
    pub head: String,
}

#[derive(Debug, Clone)]
pub struct ContextInput {
    pub policy: ContextPolicy,
    /// The whole conversation's size in tokens (messages, calls and results).
    pub total_tokens: u64,
    pub results: Vec<ContextResult>,
    /// The session's stub header (the first line of its stubs).
    pub stub_header: String,
    /// A clearing of this run is under way (the conversation passed the trigger): plan down to
    /// the target whatever the trigger, with what the last round left.
    pub resume: bool,
}

json_fields::strict_struct!(ContextResult, {
    tokens: "tokens",
    tool_name: "toolName" = String::new(),
    pinned: "pinned" = false,
    head: "head",
});

json_fields::strict_struct!(ContextInput, {
    policy: "policy",
    total_tokens: "totalTokens",
    results: "results",
    stub_header: "stubHeader",
    resume: "resume" = false,
});

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Replacement {
    /// Store the output and put its stub in its place.
    Stub,
    /// Put the one-line reference form in its place (storing the output first if inline).
    Reference,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Clearing {
    /// The result's position in `results`.
    pub index: usize,
    pub to: Replacement,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextPlan {
    /// In conversation order; empty when nothing is to change.
    pub clear: Vec<Clearing>,
    /// The conversation's expected size after the clearing (by the stub and reference estimates).
    pub expected_tokens: u64,
}

impl ContextPolicy {
    pub fn check(&self) -> Result<()> {
        if self.target > self.trigger {
            return Err(Error::new(
                ErrorCode::InvalidArgument,
                format!(
                    "target ({}) must not be over trigger ({}): a conversation cleared to the target must not trigger again",
                    self.target, self.trigger
                ),
            ));
        }
        Ok(())
    }
}

/// What to clear. Deterministic: the same input gives the same plan.
pub fn plan(input: &ContextInput) -> Result<ContextPlan> {
    let policy = &input.policy;
    policy.check()?;
    let total = input.total_tokens;
    let unchanged = ContextPlan {
        clear: Vec::new(),
        expected_tokens: total,
    };
    let started = total > policy.trigger || (input.resume && total > policy.target);
    if !started {
        return Ok(unchanged);
    }
    let need = total - policy.target;
    // Clearing comes in whole batches of `clear_at_least`: a host that fits the full history
    // again at every step (and keeps none of the output) clears the same results until the
    // conversation has grown by a batch, so its prompt prefix changes once per batch. A resumed
    // run already made its batch: it only makes up for estimates that were short.
    let batch = policy.clear_at_least;
    let goal = if input.resume || batch == 0 {
        need
    } else {
        need.div_ceil(batch).saturating_mul(batch)
    };
    let protected_from = input.results.len().saturating_sub(policy.keep_recent);
    let eligible: Vec<(usize, &ContextResult, Form)> = input.results[..protected_from]
        .iter()
        .enumerate()
        .filter(|(_, result)| !result.pinned && !policy.exclude_tools.contains(&result.tool_name))
        .map(|(index, result)| {
            (
                index,
                result,
                forms::classify(&result.head, &input.stub_header),
            )
        })
        .filter(|(_, _, form)| *form != Form::Reference)
        .collect();
    let mut saved: u64 = 0;
    let mut chosen: Vec<Clearing> = Vec::new();
    // First pass, oldest first: each result one step along (inline to stub, stub to reference),
    // an inline result too small for its stub to save anything straight to the reference form.
    for (index, result, form) in &eligible {
        if saved >= goal {
            break;
        }
        let step = match form {
            Form::Inline if result.tokens > policy.stub_tokens.saturating_mul(2) => {
                Some((Replacement::Stub, result.tokens - policy.stub_tokens))
            }
            _ if result.tokens > policy.reference_tokens => Some((
                Replacement::Reference,
                result.tokens - policy.reference_tokens,
            )),
            _ => None,
        };
        if let Some((to, frees)) = step {
            saved += frees;
            chosen.push(Clearing { index: *index, to });
        }
    }
    // Still short: the stubs this plan makes shrink to reference forms too, oldest first.
    if saved < goal {
        let gain = policy.stub_tokens.saturating_sub(policy.reference_tokens);
        for clearing in chosen.iter_mut() {
            if saved >= goal {
                break;
            }
            if clearing.to == Replacement::Stub {
                clearing.to = Replacement::Reference;
                saved += gain;
            }
        }
    }
    Ok(ContextPlan {
        clear: chosen,
        expected_tokens: total.saturating_sub(saved),
    })
}

/// What a cleared result becomes: its new text and the ref where its output stays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Replaced {
    pub text: String,
    pub reference: String,
}

/// What a cleared result becomes, once its output is stored and its stub made: the stub when it
/// was to be one and is smaller than the output, else the stub's one-line reference form.
/// `None` when `stub` is not a stub of this session with a ref (nothing was stored).
pub fn replacement(
    to: Replacement,
    stub: &str,
    stub_tokens: u64,
    result_tokens: u64,
    stub_header: &str,
    tools: &ToolNames,
) -> Option<Replaced> {
    let Form::Stub { reference } = forms::classify(stub, stub_header) else {
        return None;
    };
    let text = if to == Replacement::Stub && stub_tokens < result_tokens {
        stub.to_string()
    } else {
        forms::reference_form(stub, stub_header, tools)?
    };
    Some(Replaced { text, reference })
}

impl Replacement {
    pub fn parse(name: &str) -> Result<Replacement> {
        match name {
            "stub" => Ok(Replacement::Stub),
            "reference" => Ok(Replacement::Reference),
            other => Err(Error::new(
                ErrorCode::InvalidArgument,
                format!("a clearing is to \"stub\" or \"reference\", not {other:?}"),
            )),
        }
    }
}

#[cfg(test)]
mod tests;
