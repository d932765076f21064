//! The stored metadata record of one externalized output (SPEC 5), its pretty-JSON file form,
//! and where a result lives.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Error, Result};
use crate::synopsis::Synopsis;

pub const OFFSET_UNIT: &str = "unicode_code_point";
pub const OUTPUT_FILE: &str = "output.txt";
pub const METADATA_FILE: &str = "metadata.json";
/// The position index beside the output (`retrieval::output_index`): derived data, written after
/// the output and before the record.
pub const INDEX_FILE: &str = "index.json";
pub const RESULTS_DIR: &str = "tool-results";

/// The reference's default session URI for a session id.
pub fn default_session_uri(session_id: &str) -> String {
    format!("viking://user/default/sessions/{session_id}")
}

/// The ref of a stored result: `{session_uri}/tool-results/{id}`.
pub fn result_ref(session_uri: &str, tool_result_id: &str) -> String {
    format!("{session_uri}/{RESULTS_DIR}/{tool_result_id}")
}

/// The store key of one file of a result: `[session, "tool-results", id, file]`. The stores map
/// keys to paths, so each segment is checked here too.
pub fn result_key(session_id: &str, tool_result_id: &str, file: &str) -> Vec<String> {
    vec![
        session_id.to_string(),
        RESULTS_DIR.to_string(),
        tool_result_id.to_string(),
        file.to_string(),
    ]
}

/// A session id names a directory of the store: it must be a single, harmless path segment, and
/// never a dot entry (`.`, `..`, `.git`, `.tool-stub`, a store's temp files): a store folder may
/// sit inside a repository or a home directory, where dot entries belong to others.
pub fn validate_session_id(session_id: &str) -> Result<()> {
    let bad = session_id.is_empty()
        || session_id.starts_with('.')
        || session_id.len() > 256
        || session_id
            .chars()
            .any(|c| matches!(c, '/' | '\\' | '\0') || c.is_control());
    if bad {
        return Err(Error::invalid(format!(
            "invalid session id {:?}: it must be 1-256 chars, not start with '.', and hold no '/', '\\' or control chars",
            crate::python::take_chars(session_id, 80)
        )));
    }
    Ok(())
}

/// metadata.json, keys in the reference order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResultRecord {
    pub tool_result_id: String,
    pub session_id: String,
    pub message_id: String,
    pub tool_id: String,
    pub tool_name: String,
    pub user_id: Option<String>,
    pub peer_id: Option<String>,
    pub created_at: String,
    pub original_chars: u64,
    /// The output's tokens, when its turn counted in tokens (absent otherwise, as in the
    /// reference's records).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original_tokens: Option<u64>,
    /// Present when `original_tokens` is an estimate: the chars of the output's head that were
    /// counted (the output was only proved over the threshold, not counted in full).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original_tokens_estimated_from_chars: Option<u64>,
    pub preview_chars: i64,
    pub sha256: String,
    pub mime_type: String,
    pub synopsis_kind: String,
    pub synopsis: Synopsis,
    pub storage_uri: String,
    pub output_uri: String,
    pub offset_unit: String,
}

/// Python's `json.dumps(record, indent=2, ensure_ascii=False)`: serde_json's pretty printer
/// writes the same bytes for the strings, integers and nulls a record holds.
pub fn to_pretty_json(value: &impl Serialize) -> Result<String> {
    serde_json::to_string_pretty(value)
        .map_err(|e| Error::new(crate::error::ErrorCode::Internal, e.to_string()))
}

/// A stored metadata file, if it is a readable record: `None` for anything tampered or truncated.
pub fn parse_stored(metadata_json: &str) -> Option<Value> {
    let value: Value = serde_json::from_str(metadata_json).ok()?;
    let object = value.as_object()?;
    let has_text = |key: &str| object.get(key).is_some_and(Value::is_string);
    (has_text("tool_result_id")
        && has_text("sha256")
        && object.get("synopsis").is_some_and(Value::is_object))
    .then_some(value)
}

/// Whether a stored metadata file already records this output (same SHA-256): then nothing is
/// written again (SPEC 5).
pub fn stored_matches(metadata_json: &str, sha256: &str) -> bool {
    parse_stored(metadata_json).is_some_and(|record| record["sha256"] == sha256)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pretty_json_keeps_order_and_non_ascii() {
        let record = ToolResultRecord {
            tool_result_id: "tr_x".into(),
            session_id: "s".into(),
            message_id: "m".into(),
            tool_id: "x".into(),
            tool_name: "t".into(),
            user_id: Some("default".into()),
            peer_id: None,
            created_at: "now".into(),
            original_chars: 3,
            original_tokens: None,
            original_tokens_estimated_from_chars: None,
            preview_chars: 3,
            sha256: "ab".into(),
            mime_type: "text/plain".into(),
            synopsis_kind: "text".into(),
            synopsis: Synopsis::new("text", "Text output"),
            storage_uri: "u".into(),
            output_uri: "u/output.txt".into(),
            offset_unit: OFFSET_UNIT.into(),
        };
        let json = to_pretty_json(&record).expect("serializes");
        assert!(json.starts_with("{\n  \"tool_result_id\": \"tr_x\",\n  \"session_id\": \"s\""));
        assert!(json.contains("\"peer_id\": null,\n  \"created_at\""));
        assert!(json.contains("\"structure\": [],"));
        assert!(stored_matches(&json, "ab") && !stored_matches(&json, "cd"));
        assert!(!stored_matches(&json[..json.len() - 2], "ab"));
    }

    #[test]
    fn session_ids_are_single_segments() {
        for good in ["s-1_é", "s0", "chat.42", "a..", "x.git"] {
            assert!(validate_session_id(good).is_ok(), "{good:?}");
        }
        for bad in [
            "",
            ".",
            "..",
            ".git",
            ".tool-stub",
            "a/b",
            "a\\b",
            "a\0",
            "\n",
        ] {
            assert!(validate_session_id(bad).is_err(), "{bad:?}");
        }
    }
}
