//! The per-session catalog: what `list`, `usage`, retention and `searchAll` need to know of each
//! stored result, so that none of them loads an output (or a record) it does not act on.
//!
//! Stored beside the results in pages (the layout, and which pages each call reads, in
//! [`pages`]; the JS layer does the I/O, `js/catalog.js`). A session written before pages (a
//! snapshot `catalog.json`, a log `catalog-log/<seq>`, a `catalog-head`; the names in [`pages`])
//! is read as it is once and written in pages (`js/catalog-legacy.js`).
//!
//! The catalog is a cache of the records: it is checked against them (results with a record and
//! no entry are added, entries without a record dropped) when it is missing or unreadable, when a
//! lock left by a process that died is taken over, on `verify` of a ref it lacks, on
//! `rebuildCatalog()`, and in a store whose values expire. A catalog that reads is trusted
//! otherwise, also by a new `ToolStub`, whose first call then costs what it reads.
//!
//! The core defines an entry ([`CatalogEntry::from_record`]), as it defines `index.json`, and
//! decides the pages: a window of entries, a change split into pages, retention's plan over the
//! oldest pages (`retention::RetentionOrder`). The host reads and writes the texts.

pub mod page_cache;
pub mod pages;
pub mod recent;

use serde_json::{Map, Value};

use crate::python::one_line;

/// The folder of a session's catalog, beside its results folder.
pub const CATALOG_DIR: &str = "tool-stub";
/// The layout before pages (read once, then written in pages): its snapshot, in `CATALOG_DIR`.
pub const SNAPSHOT_FILE: &str = "catalog.json";
/// The layout before pages: the folder of the log records after the snapshot, in `CATALOG_DIR`.
pub const LOG_DIR: &str = "catalog-log";
/// The layout before pages: the catalog's generation, in `CATALOG_DIR`.
pub const HEAD_FILE: &str = "catalog-head";
/// The session's lock, in `CATALOG_DIR`.
pub const LOCK_FILE: &str = "lock";
/// A snapshot's `format` (the layout before pages).
pub const CATALOG_FORMAT: &str = "tool-stub-catalog";
/// A snapshot's `version`.
pub const CATALOG_VERSION: i64 = 1;
/// The head's `format`.
pub const HEAD_FORMAT: &str = "tool-stub-catalog-head";

/// Chars of the one-line summary a lean list entry carries.
const SUMMARY_CHARS: i64 = 160;

/// One stored result as the catalog knows it.
#[derive(Debug, Clone, PartialEq)]
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
    pub original_tokens: Option<u64>,
    /// Set when `original_tokens` is an estimate: the chars of the output's head counted.
    pub original_tokens_estimated_from_chars: Option<u64>,
    /// UTF-8 bytes of the output, its index and its record.
    pub stored_bytes: u64,
    pub sha256: String,
    pub reference: String,
    pub summary: String,
}

fn text(object: &Map<String, Value>, key: &str) -> String {
    object
        .get(key)
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string()
}

fn count(object: &Map<String, Value>, key: &str) -> u64 {
    object.get(key).and_then(Value::as_u64).unwrap_or(0)
}

impl CatalogEntry {
    /// The entry as JSON (written by hand, not derived: the main module's size), `originalTokens`
    /// only when known.
    pub fn to_json(&self) -> Value {
        let text = |value: &String| Value::from(value.as_str());
        let mut fields = vec![
            ("toolResultId", text(&self.tool_result_id)),
            ("toolName", text(&self.tool_name)),
            ("messageId", text(&self.message_id)),
            ("createdAt", text(&self.created_at)),
            (
                "createdAtMs",
                self.created_at_ms.map_or(Value::Null, Value::from),
            ),
            ("kind", text(&self.kind)),
            ("originalChars", Value::from(self.original_chars)),
        ];
        if let Some(tokens) = self.original_tokens {
            fields.push(("originalTokens", Value::from(tokens)));
        }
        if let Some(chars) = self.original_tokens_estimated_from_chars {
            fields.push(("originalTokensEstimatedFromChars", Value::from(chars)));
        }
        fields.extend([
            ("storedBytes", Value::from(self.stored_bytes)),
            ("sha256", text(&self.sha256)),
            ("ref", text(&self.reference)),
            ("summary", text(&self.summary)),
        ]);
        pages::object(fields)
    }

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
            original_tokens_estimated_from_chars: record
                .get("original_tokens_estimated_from_chars")
                .and_then(Value::as_u64),
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
        let json = serde_json::to_string(&full.to_json()).expect("serializes");
        assert!(json.starts_with(r#"{"toolResultId":"tr_a","toolName":"bash","messageId":"m""#));
        assert!(json.contains(r#""createdAtMs":null"#) && json.contains(r#""ref":"u/tr_a""#));
        assert!(!json.contains("originalTokens"));
        let counted =
            CatalogEntry::from_record("tr_c", r#"{"original_tokens": 4}"#, 3).expect("record");
        let json = serde_json::to_string(&counted.to_json()).expect("serializes");
        assert!(
            json.contains(r#""originalChars":0,"originalTokens":4,"storedBytes":3,"#),
            "{json}"
        );
    }
}
