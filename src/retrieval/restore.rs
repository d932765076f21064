//! Restore: the inverse of externalization. `restore(parts)` puts each externalized part's
//! original output back from the store, and a read-back part (reason `source_read`) gets back
//! the window it had read (`offset`/`limit` of its input, the reference's `read`). Every restored
//! text is checked against the SHA-256 recorded for it, in the stored metadata and on the part:
//! a mismatch is `CORRUPT`, never silently different data.

use serde::Serialize;

use super::{read, DEFAULT_READ_LIMIT};
use crate::error::{Error, ErrorCode, Result};
use crate::ids::sha256_hex;
use crate::record::parse_stored;
use crate::turn::{ToolPart, REASON_SOURCE_READ};

/// A part to restore and the stored result it comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RestoreNeed {
    pub part_index: usize,
    #[serde(rename = "ref")]
    pub reference: String,
}

fn is_source_read(part: &ToolPart) -> bool {
    part.externalized_reason == REASON_SOURCE_READ && !part.source_ref.is_empty()
}

/// The ref a part's original output comes from, if it was externalized (or rewritten as a
/// read-back preview) with a ref.
fn source_of(part: &ToolPart) -> Option<&str> {
    if is_source_read(part) {
        Some(&part.source_ref)
    } else {
        (part.truncated && !part.output_ref.is_empty()).then_some(part.output_ref.as_str())
    }
}

/// Which parts need a stored output loaded; the others come back unchanged.
pub fn restore_plan(parts: &[ToolPart]) -> Vec<RestoreNeed> {
    parts
        .iter()
        .enumerate()
        .filter_map(|(part_index, part)| {
            source_of(part).map(|reference| RestoreNeed {
                part_index,
                reference: reference.to_string(),
            })
        })
        .collect()
}

/// A restored part, and the code-point window of the stored output it holds when it is a
/// read-back part (so that a host keeping text the core cannot hold can cut the same window).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Restored {
    pub part: ToolPart,
    pub window: Option<(i64, i64)>,
}

fn corrupt(message: String) -> Error {
    Error::new(ErrorCode::Corrupt, message)
}

/// Puts the original output back into `part` from `stored_output` (and its metadata file, when
/// there is one), verifying the SHA-256 of what comes back. `stored_sha256` is the host's digest
/// of the output as stored, when the text the core holds is not it (a stored output with lone
/// surrogates reaches the core with U+FFFD in their place; its identity is its WTF-8 bytes).
pub fn restore_part(
    mut part: ToolPart,
    stored_output: &str,
    metadata_json: Option<&str>,
    stored_sha256: Option<&str>,
) -> Result<Restored> {
    let Some(reference) = source_of(&part).map(str::to_string) else {
        return Ok(Restored { part, window: None });
    };
    let stored_sha = stored_sha256.map_or_else(|| sha256_hex(stored_output), str::to_string);
    if let Some(metadata_json) = metadata_json {
        let record = parse_stored(metadata_json)
            .ok_or_else(|| corrupt(format!("the metadata of {reference} is unreadable")))?;
        if record["sha256"] != stored_sha.as_str() {
            return Err(corrupt(format!(
                "the stored output of {reference} has SHA-256 {stored_sha}, its metadata records {}",
                record["sha256"].as_str().unwrap_or("")
            )));
        }
    }
    let (output, window) = if is_source_read(&part) {
        let offset = part
            .source_offset
            .as_ref()
            .and_then(serde_json::Value::as_i64)
            .unwrap_or(0);
        let limit = part
            .source_limit
            .as_ref()
            .and_then(serde_json::Value::as_i64)
            .unwrap_or(DEFAULT_READ_LIMIT);
        (
            read(stored_output, offset, limit)?.content,
            Some((offset, limit)),
        )
    } else {
        (stored_output.to_string(), None)
    };
    let restored_sha = if window.is_some() {
        sha256_hex(&output)
    } else {
        stored_sha
    };
    if !part.sha256.is_empty() && part.sha256 != restored_sha {
        let what = match window {
            Some((offset, limit)) => {
                format!("the window offset={offset} limit={limit} of {reference}")
            }
            None => format!("the stored output of {reference}"),
        };
        return Err(corrupt(format!(
            "{what} has SHA-256 {restored_sha}, the part records {}",
            part.sha256
        )));
    }
    part.output = output;
    part.truncated = false;
    Ok(Restored { part, window })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn externalized(output: &str) -> ToolPart {
        ToolPart {
            output: "stub".into(),
            output_ref: "s/tool-results/tr_x".into(),
            truncated: true,
            sha256: sha256_hex(output),
            ..Default::default()
        }
    }

    #[test]
    fn plans_only_parts_with_a_source() {
        let read_back = ToolPart {
            externalized_reason: REASON_SOURCE_READ.into(),
            source_ref: "s/tool-results/tr_y".into(),
            ..Default::default()
        };
        let parts = [ToolPart::default(), externalized("x"), read_back];
        let plan = restore_plan(&parts);
        let refs: Vec<_> = plan
            .iter()
            .map(|need| (need.part_index, need.reference.as_str()))
            .collect();
        assert_eq!(
            refs,
            [(1, "s/tool-results/tr_x"), (2, "s/tool-results/tr_y")]
        );
    }

    #[test]
    fn restores_and_verifies_the_sha256() {
        let original = "the original 😀 output";
        let restored = restore_part(externalized(original), original, None, None).expect("matches");
        assert_eq!(
            (restored.part.output.as_str(), restored.part.truncated),
            (original, false)
        );
        let error =
            restore_part(externalized(original), "tampered", None, None).expect_err("mismatch");
        assert_eq!(error.code, ErrorCode::Corrupt);
        let metadata = serde_json::json!({"tool_result_id": "tr_x", "sha256": sha256_hex("other"), "synopsis": {}});
        let error = restore_part(
            externalized(original),
            original,
            Some(&metadata.to_string()),
            None,
        )
        .expect_err("record");
        assert_eq!(error.code, ErrorCode::Corrupt);
        assert_eq!(
            restore_part(externalized(original), original, Some("{"), None)
                .expect_err("unreadable")
                .code,
            ErrorCode::Corrupt
        );
    }

    #[test]
    fn the_hosts_digest_of_the_stored_output_is_the_one_checked() {
        // A stored output with a lone surrogate reaches the core with U+FFFD in its place: the
        // host hashes what it stores, and that digest is the identity checked.
        let seen = "lone \u{FFFD} here";
        let stored_sha = "ab".repeat(32);
        let part = ToolPart {
            sha256: stored_sha.clone(),
            ..externalized(seen)
        };
        let metadata =
            serde_json::json!({"tool_result_id": "tr_x", "sha256": stored_sha, "synopsis": {}})
                .to_string();
        let restored = restore_part(part.clone(), seen, Some(&metadata), Some(&stored_sha));
        assert_eq!(restored.expect("matches").part.output, seen);
        let error = restore_part(part, seen, Some(&metadata), None).expect_err("the core's view");
        assert_eq!(error.code, ErrorCode::Corrupt);
    }

    #[test]
    fn read_back_parts_get_their_window() {
        let stored = "0123456789";
        let part = ToolPart {
            output: "preview".into(),
            externalized_reason: REASON_SOURCE_READ.into(),
            source_ref: "s/tool-results/tr_y".into(),
            source_offset: Some(2.into()),
            source_limit: Some(3.into()),
            sha256: sha256_hex("234"),
            ..Default::default()
        };
        let restored = restore_part(part.clone(), stored, None, None).expect("matches");
        assert_eq!(
            (restored.part.output.as_str(), restored.window),
            ("234", Some((2, 3)))
        );
        let error = restore_part(
            ToolPart {
                sha256: sha256_hex("235"),
                ..part
            },
            stored,
            None,
            None,
        )
        .expect_err("bad");
        assert_eq!(error.code, ErrorCode::Corrupt);
    }

    #[test]
    fn parts_without_a_source_come_back_unchanged() {
        let part = ToolPart {
            output: "inline".into(),
            ..Default::default()
        };
        assert_eq!(
            restore_part(part.clone(), "ignored", None, None)
                .expect("unchanged")
                .part,
            part
        );
    }
}
