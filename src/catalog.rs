//! The per-session catalog: what `list`, `usage`, retention and `searchAll` need to know of each
//! stored result, so that none of them loads an output (or a record) it does not act on.
//!
//! Stored beside the results (the JS layer does the I/O, `js/catalog.js`):
//! - `[session, "tool-stub", "catalog.json"]`: a snapshot,
//!   `{"format": "tool-stub-catalog", "version": 1, "seq": N, "entries": [entry...]}`;
//! - `[session, "tool-stub", "catalog-log", "<seq as 12 digits>"]`: one small record per change
//!   after the snapshot, `{"seq", "add": [entry...], "remove": [id...], "totals"}`, or `{"seq",
//!   "snapshot": true, "totals"}` (a new snapshot was written at that seq); `totals` is
//!   `{"results", "chars", "bytes"}`, the catalog's after the record (absent in records written
//!   before it existed), so a host that has not loaded the catalog answers `usage` from the last
//!   record alone;
//! - `[session, "tool-stub", "catalog-head"]`: the catalog's generation,
//!   `{"format": "tool-stub-catalog-head", "generation": "<random hex>"}`, written anew with every
//!   snapshot and when a catalog starts (a session removed and made again starts its seqs over);
//! - `[session, "tool-stub", "lock"]`: the session's lock (the store's `lock`).
//!
//! Why a snapshot and a log: a change writes one small record (no record that every writer
//! rewrites), and a reader knows its loaded catalog is current from two small reads, whatever the
//! session holds: the head is the one it loaded under, and there is no record after its seq
//! (every change writes the record after the latest; a snapshot, which removes records, writes a
//! new head). Otherwise it lists the log and applies what is new. The log is folded into a new
//! snapshot after 64 records, or entries/64 in a larger session (a snapshot costs what the
//! session holds), so a cold load reads one snapshot and a bounded share of records. Every change is written under
//! the session's lock, after the files it describes (the record stays the commit marker of a
//! result), so log records never contend. The catalog is a cache of the records: it is checked
//! against them (results with a record and no entry are added, entries without a record dropped)
//! when it is missing or unreadable, the first time a `ToolStub` uses it, when a lock left by a
//! process that died is taken over, on `verify` and on `rebuildCatalog()`.
//!
//! The core defines an entry ([`CatalogEntry::from_record`]), as it defines `index.json`, and
//! plans retention over them (`retention::RetentionOrder`, kept in the core and changed with the
//! catalog, so a prune sends nothing of the session across); the host keeps the loaded catalog
//! (a map of entries) and reads and writes the snapshot and log texts (the JSON above). Keeping
//! the catalog in the core as well cost ~2.7 KB of the shipped wasm gzipped, which the 250 KB
//! budget does not have; the host's uses of it are the reference's list order (ids), a tool-name
//! filter, paging and sums.

use serde::Serialize;
use serde_json::Value;

use crate::python::one_line;

/// The folder of a session's catalog, beside its results folder.
pub const CATALOG_DIR: &str = "tool-stub";
/// The catalog's snapshot, in `CATALOG_DIR`.
pub const SNAPSHOT_FILE: &str = "catalog.json";
/// The folder of the log records after the snapshot, in `CATALOG_DIR`.
pub const LOG_DIR: &str = "catalog-log";
/// The catalog's generation, in `CATALOG_DIR`.
pub const HEAD_FILE: &str = "catalog-head";
/// The session's lock, in `CATALOG_DIR`.
pub const LOCK_FILE: &str = "lock";
/// A snapshot's `format`.
pub const CATALOG_FORMAT: &str = "tool-stub-catalog";
/// A snapshot's `version`.
pub const CATALOG_VERSION: i64 = 1;
/// The head's `format`.
pub const HEAD_FORMAT: &str = "tool-stub-catalog-head";

/// Chars of the one-line summary a lean list entry carries.
const SUMMARY_CHARS: i64 = 160;

/// One stored result as the catalog knows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogEntry {
    pub tool_result_id: String,
    pub tool_name: String,
    pub message_id: String,
    pub created_at: String,
    /// `created_at` in ms since the epoch as the host reads it (JavaScript's `Date.parse`, as
    /// retention always read it), when it reads; the host sets it on entries it builds.
    pub created_at_ms: Option<f64>,
    pub kind: String,
    pub original_chars: u64,
    /// The output's tokens, when its turn counted in tokens (`list` reports them then).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub original_tokens: Option<u64>,
    /// UTF-8 bytes of the output, its index and its record.
    pub stored_bytes: u64,
    pub sha256: String,
    #[serde(rename = "ref")]
    pub reference: String,
    pub summary: String,
}

fn text(object: &serde_json::Map<String, Value>, key: &str) -> String {
    object
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

fn count(object: &serde_json::Map<String, Value>, key: &str) -> u64 {
    object.get(key).and_then(Value::as_u64).unwrap_or(0)
}

impl CatalogEntry {
    /// The entry of a stored record (its file's text) found under directory `dir_id`. Any JSON
    /// object is a record, as the reference lists it; fields it lacks are left empty. `None`
    /// when the text is not a JSON object.
    pub fn from_record(dir_id: &str, record_text: &str, stored_bytes: u64) -> Option<Self> {
        let value: Value = serde_json::from_str(record_text).ok()?;
        let record = value.as_object()?;
        let synopsis = record.get("synopsis").and_then(Value::as_object);
        let kind = match record.get("synopsis_kind").and_then(Value::as_str) {
            Some(kind) => kind.to_string(),
            None => synopsis.map(|s| text(s, "kind")).unwrap_or_default(),
        };
        let first_line = synopsis
            .and_then(|s| s.get("summary"))
            .and_then(Value::as_array)
            .and_then(|lines| lines.first())
            .and_then(Value::as_str)
            .map(|line| one_line(line, SUMMARY_CHARS))
            .or_else(|| synopsis.map(|s| text(s, "title")))
            .unwrap_or_default();
        let created_at = text(record, "created_at");
        Some(CatalogEntry {
            tool_result_id: dir_id.to_string(),
            tool_name: text(record, "tool_name"),
            message_id: text(record, "message_id"),
            created_at_ms: None,
            created_at,
            kind,
            original_chars: count(record, "original_chars"),
            original_tokens: record.get("original_tokens").and_then(Value::as_u64),
            stored_bytes,
            sha256: text(record, "sha256"),
            reference: text(record, "storage_uri"),
            summary: first_line,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(id: &str, tool: &str, at: &str) -> String {
        serde_json::json!({"tool_result_id": id, "tool_name": tool, "message_id": "m", "created_at": at,
            "original_chars": 10, "sha256": "ab", "synopsis_kind": "text", "storage_uri": format!("u/{id}"),
            "synopsis": {"kind": "text", "title": "Text output", "summary": ["Text exploration summary:\nmore"]}})
        .to_string()
    }

    #[test]
    fn any_json_object_is_a_record() {
        let entry =
            CatalogEntry::from_record("tr_x", r#"{"tool_result_id": "tr_x", "tool_name": "t"}"#, 5)
                .expect("an object counts");
        assert_eq!((entry.tool_name.as_str(), entry.kind.as_str()), ("t", ""));
        assert!(CatalogEntry::from_record("tr_x", "[1]", 5).is_none());
        assert!(CatalogEntry::from_record("tr_x", "{", 5).is_none());
    }

    #[test]
    fn an_entry_holds_what_session_calls_need() {
        let full =
            CatalogEntry::from_record("tr_a", &record("tr_a", "bash", "2024"), 7).expect("record");
        assert_eq!(full.summary, "Text exploration summary: more");
        assert_eq!(
            (
                full.reference.as_str(),
                full.kind.as_str(),
                full.stored_bytes,
                full.original_chars,
                full.created_at.as_str()
            ),
            ("u/tr_a", "text", 7, 10, "2024")
        );
        // The directory names the result, whatever the record says.
        let moved =
            CatalogEntry::from_record("tr_b", &record("tr_a", "bash", "2024"), 7).expect("record");
        assert_eq!(moved.tool_result_id, "tr_b");
        let json = serde_json::to_string(&full).expect("serializes");
        assert!(json.starts_with(r#"{"toolResultId":"tr_a","toolName":"bash","messageId":"m""#));
        assert!(json.contains(r#""createdAtMs":null"#) && json.contains(r#""ref":"u/tr_a""#));
    }
}
