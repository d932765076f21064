//! Refs as values. A ToolStub may read its own session's results and those of the sessions it was
//! granted; this module decides which session a ref names (or refuses it), which strings and
//! objects in a tool call's arguments are refs to put the stored content in place of, and which
//! part of a stored output each one asks for. The host loads the outputs and walks its own data.

use std::ops::Range;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode, Result};
use crate::ids::validate_id;
use crate::python::{byte_offset, char_len, take_chars};
use crate::record::{default_session_uri, validate_session_id, RESULTS_DIR};
use crate::retrieval::{check_read_args, json_pointer, lines, table_rows};

/// Chars a call's resolved refs may add up to unless the caller says otherwise.
pub const DEFAULT_MAX_RESOLVED_CHARS: usize = 1_000_000;

/// What a tool that accepts refs adds to its description, so the model knows it may pass one.
pub const REF_ARGUMENTS_NOTE: &str = "Any argument of this tool may be a ref of a stored tool result instead of its value: the ref itself as the whole string (\"viking://.../tool-results/<id>\"), or {\"ref\": \"<ref>\"} with at most one of \"offset\"/\"limit\" (code points), \"pointer\" (a JSON pointer), \"rows\" ({\"start\", \"count\"}: CSV/TSV data rows, the header included) or \"lines\" ({\"start\", \"count\"}). The tool receives that stored content (or that part of it); it does not pass through this conversation.";

/// A session whose results a ToolStub may read: its own, then the ones it was granted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadableSession {
    pub session_id: String,
    pub session_uri: String,
}

impl ReadableSession {
    fn results_prefix(&self) -> String {
        format!("{}/{RESULTS_DIR}/", self.session_uri)
    }
}

/// The sessions a ToolStub may read, from `[own, ...grants]`: its own session first, then each
/// grant (a session id, or `{sessionId, sessionUri?}` as `ToolStub.readGrant()` makes it),
/// checked, without repeats. What the host passes back to the other calls of this module.
pub fn readable_sessions(list: &Value) -> Result<Vec<ReadableSession>> {
    let Some((own, grants)) = list.as_array().and_then(|list| list.split_first()) else {
        return Err(Error::invalid(
            "readableSessions must be an array of session ids or read grants",
        ));
    };
    let mut sessions = vec![readable_session(own, "the own session")?];
    for (i, grant) in grants.iter().enumerate() {
        let session = readable_session(grant, &format!("readableSessions[{i}]"))?;
        if !sessions
            .iter()
            .any(|known| known.session_id == session.session_id)
        {
            sessions.push(session);
        }
    }
    Ok(sessions)
}

fn readable_session(grant: &Value, what: &str) -> Result<ReadableSession> {
    let bad = || {
        Error::invalid(format!(
            "{what} must be a session id or a read grant {{ sessionId, sessionUri? }}"
        ))
    };
    let (session_id, session_uri) = match grant {
        Value::String(id) => (id.clone(), None),
        Value::Object(fields) => {
            if fields
                .keys()
                .any(|key| key != "sessionId" && key != "sessionUri")
            {
                return Err(bad());
            }
            let id = fields
                .get("sessionId")
                .and_then(Value::as_str)
                .ok_or_else(bad)?;
            let uri = match fields.get("sessionUri") {
                None | Some(Value::Null) => None,
                Some(Value::String(uri)) if !uri.is_empty() => Some(uri.clone()),
                Some(_) => return Err(bad()),
            };
            (id.to_string(), uri)
        }
        _ => return Err(bad()),
    };
    validate_session_id(&session_id)?;
    let session_uri = session_uri.unwrap_or_else(|| default_session_uri(&session_id));
    Ok(ReadableSession {
        session_id,
        session_uri,
    })
}

/// The result a ref (or an id of the ToolStub's own session) names: `session` indexes the
/// readable sessions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RefTarget {
    pub session: usize,
    pub tool_result_id: String,
}

/// The id at the end of a string shaped as a ref of any session (`<scheme>://.../tool-results/<id>`).
fn ref_shaped_id(value: &str) -> Option<&str> {
    if !value.contains("://") {
        return None;
    }
    // An id holds no '/': split at the last one (a char search, not a reverse substring search).
    let (folder, id) = value.rsplit_once('/')?;
    folder.strip_suffix(RESULTS_DIR)?.strip_suffix('/')?;
    validate_id(id).ok().map(|()| id)
}

/// Which readable session's result `value` names: a ref of one of them, or an id (the ToolStub's
/// own session). A ref of any other session is FORBIDDEN; other URIs are not refs.
pub fn ref_target(value: &str, sessions: &[ReadableSession]) -> Result<RefTarget> {
    for (session, readable) in sessions.iter().enumerate() {
        if let Some(id) = value.strip_prefix(&readable.results_prefix()) {
            validate_id(id)?;
            return Ok(RefTarget {
                session,
                tool_result_id: id.to_string(),
            });
        }
    }
    let own = sessions
        .first()
        .map(ReadableSession::results_prefix)
        .unwrap_or_default();
    if ref_shaped_id(value).is_some() {
        return Err(Error::new(
            ErrorCode::Forbidden,
            format!(
                "ref {:?} is a result of a session this ToolStub may not read: its own ({own}...) and {} granted one(s) only",
                take_chars(value, 200),
                sessions.len().saturating_sub(1)
            ),
        ));
    }
    if value.contains("://") {
        return Err(Error::invalid(format!(
            "ref {:?} is not a result of this session ({own}...)",
            take_chars(value, 200)
        )));
    }
    validate_id(value)?;
    Ok(RefTarget {
        session: 0,
        tool_result_id: value.to_string(),
    })
}

/// Whether an argument string is meant as a ref: one of a readable session, or shaped as one.
fn names_a_result(value: &str, sessions: &[ReadableSession]) -> bool {
    sessions
        .iter()
        .any(|readable| value.starts_with(&readable.results_prefix()))
        || ref_shaped_id(value).is_some()
}

/// One step of a path into a tool call's arguments: an object key or an array index.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum PathStep {
    Key(String),
    Index(usize),
}

/// A ref found in the arguments: where it is, what it names, and the form that asks for it (the
/// ref string, or the `{"ref", ...}` object), which `resolve_spans` reads again.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlannedRef {
    pub path: Vec<PathStep>,
    pub session: usize,
    pub tool_result_id: String,
    pub form: Value,
}

fn path_text(path: &[PathStep]) -> String {
    let mut text = String::from("arguments");
    for step in path {
        match step {
            PathStep::Key(key) => {
                text.push('.');
                text.push_str(take_chars(key, 80));
            }
            PathStep::Index(index) => text.push_str(&format!("[{index}]")),
        }
    }
    text
}

/// The refs in a tool call's arguments: every string that is a whole ref, and every object
/// `{"ref": <ref>, ...}` (see `Selector`), in document order. A ref of a session that may not
/// be read, or a ref form that asks for something unknown, fails the whole call.
pub fn plan_refs(args: &Value, sessions: &[ReadableSession]) -> Result<Vec<PlannedRef>> {
    let mut planned = Vec::new();
    walk(args, sessions, &mut Vec::new(), &mut planned)?;
    Ok(planned)
}

fn walk(
    value: &Value,
    sessions: &[ReadableSession],
    path: &mut Vec<PathStep>,
    planned: &mut Vec<PlannedRef>,
) -> Result<()> {
    let at = |path: &[PathStep]| {
        let place = path_text(path);
        move |error: Error| Error::new(error.code, format!("{place}: {}", error.message))
    };
    match value {
        Value::String(text) if names_a_result(text, sessions) => {
            let target = ref_target(text, sessions).map_err(at(path))?;
            planned.push(PlannedRef {
                path: path.clone(),
                session: target.session,
                tool_result_id: target.tool_result_id,
                form: value.clone(),
            });
        }
        Value::Object(fields) => match fields.get("ref") {
            Some(Value::String(text)) if names_a_result(text, sessions) => {
                selector(fields).map_err(at(path))?;
                let target = ref_target(text, sessions).map_err(at(path))?;
                planned.push(PlannedRef {
                    path: path.clone(),
                    session: target.session,
                    tool_result_id: target.tool_result_id,
                    form: value.clone(),
                });
            }
            _ => {
                for (key, child) in fields {
                    path.push(PathStep::Key(key.clone()));
                    walk(child, sessions, path, planned)?;
                    path.pop();
                }
            }
        },
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                path.push(PathStep::Index(index));
                walk(child, sessions, path, planned)?;
                path.pop();
            }
        }
        _ => {}
    }
    Ok(())
}

/// The part of a stored output a ref form asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    Whole,
    /// Code points `offset .. offset+limit` (`-1`: to the end), as `read` counts them.
    Window {
        offset: i64,
        limit: i64,
    },
    /// The value at a JSON pointer, exactly as written.
    Pointer(String),
    /// The header and data rows `start ..` (1-based; `count` rows, or all the rest).
    Rows {
        start: i64,
        count: Option<i64>,
    },
    /// Lines `start ..` (1-based; `count` lines, or all the rest), line breaks included.
    Lines {
        start: i64,
        count: Option<i64>,
    },
}

const FORM_HELP: &str = "a ref form is {\"ref\": <ref>} with at most one of \"offset\"/\"limit\", \"pointer\", \"rows\" ({\"start\", \"count\"}) or \"lines\" ({\"start\", \"count\"})";

fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "non-integer number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn integer(fields: &Map<String, Value>, key: &str) -> Result<Option<i64>> {
    match fields.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(value) => value.as_i64().map(Some).ok_or_else(|| {
            // Not the value itself: a `Value`'s Display is a second JSON writer in the wasm.
            Error::invalid(format!(
                "{key} must be an integer (got a {}); {FORM_HELP}",
                type_name(value)
            ))
        }),
    }
}

/// `{"start", "count"}` of a rows or lines form: start >= 1 (default 1), count >= 1 (default: all).
fn span_of(value: &Value, what: &str) -> Result<(i64, Option<i64>)> {
    let Value::Object(span) = value else {
        return Err(Error::invalid(format!(
            "{what} must be an object {{\"start\", \"count\"}}; {FORM_HELP}"
        )));
    };
    if let Some(key) = span.keys().find(|key| *key != "start" && *key != "count") {
        return Err(Error::invalid(format!(
            "{what} takes start and count only (got \"{key}\")"
        )));
    }
    let start = integer(span, "start")?.unwrap_or(1);
    let count = integer(span, "count")?;
    if start < 1 || count.is_some_and(|count| count < 1) {
        return Err(Error::invalid(format!(
            "{what}.start and {what}.count must be >= 1"
        )));
    }
    Ok((start, count))
}

/// The selector of a ref form (its keys besides `ref`), checked.
pub fn selector(fields: &Map<String, Value>) -> Result<Selector> {
    let keys: Vec<&str> = fields
        .keys()
        .map(String::as_str)
        .filter(|key| *key != "ref")
        .collect();
    let only = |allowed: &[&str]| keys.iter().all(|key| allowed.contains(key));
    if keys.is_empty() {
        Ok(Selector::Whole)
    } else if only(&["offset", "limit"]) {
        let offset = integer(fields, "offset")?.unwrap_or(0);
        let limit = integer(fields, "limit")?.unwrap_or(-1);
        check_read_args(offset, limit)?;
        Ok(Selector::Window { offset, limit })
    } else if only(&["pointer"]) {
        let Some(Value::String(pointer)) = fields.get("pointer") else {
            return Err(Error::invalid(format!(
                "pointer must be a JSON pointer string; {FORM_HELP}"
            )));
        };
        json_pointer::check_request(&json_pointer::PointerRequest {
            json_pointer: pointer.clone(),
            max_chars: None,
        })?;
        Ok(Selector::Pointer(pointer.clone()))
    } else if only(&["rows"]) {
        let (start, count) = span_of(&fields["rows"], "rows")?;
        Ok(Selector::Rows { start, count })
    } else if only(&["lines"]) {
        let (start, count) = span_of(&fields["lines"], "lines")?;
        Ok(Selector::Lines { start, count })
    } else {
        Err(Error::invalid(format!(
            "{FORM_HELP} (got {})",
            keys.join(", ")
        )))
    }
}

/// Where a ref's content is in its stored output: `spans` holds UTF-16 offsets (start, end,
/// start, end, ...) into the output as the store keeps it, so the host cuts it exactly (a lone
/// surrogate, which reaches the core as U+FFFD, is one unit either way); the pieces are joined
/// with `separator`. `chars` is the content's length in code points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolvedSpans {
    pub spans: Vec<usize>,
    pub separator: &'static str,
    pub chars: usize,
}

fn past_the_end(what: &str, asked: i64, last: usize) -> Error {
    Error::invalid(format!(
        "{what} {asked} is past the end of the stored output ({last})"
    ))
}

/// The byte ranges of the part `selector` asks for, and their separator.
#[allow(
    clippy::single_range_in_vec_init,
    reason = "a list of byte ranges that may hold one range, not the range's items"
)]
fn byte_ranges(text: &str, selector: &Selector) -> Result<(Vec<Range<usize>>, &'static str)> {
    let to_usize = |value: i64| usize::try_from(value).unwrap_or(usize::MAX);
    Ok(match selector {
        Selector::Whole => (vec![0..text.len()], ""),
        Selector::Window { offset, limit } => {
            let total = char_len(text);
            if to_usize(*offset) > total {
                return Err(past_the_end("offset", *offset, total));
            }
            let start = byte_offset(text, to_usize(*offset));
            let end = if *limit == -1 {
                text.len()
            } else {
                start + byte_offset(&text[start..], to_usize(*limit))
            };
            (vec![start..end], "")
        }
        Selector::Pointer(pointer) => (vec![json_pointer::pointer_range(text, pointer)?.0], ""),
        Selector::Lines { start, count } => {
            let Some(first) = lines::line_start(text, to_usize(*start)) else {
                return Err(past_the_end("line", *start, lines::line_count(text)));
            };
            let end = count
                .and_then(|count| {
                    lines::line_start(text, to_usize(*start).saturating_add(to_usize(count)))
                })
                .unwrap_or(text.len());
            (vec![first..end], "")
        }
        Selector::Rows { start, count } => {
            let first = to_usize(*start);
            let last = count.map_or(usize::MAX, |count| {
                first.saturating_add(to_usize(count) - 1)
            });
            let table = table_rows::row_ranges(text, first, last)?;
            if first > table.total_rows {
                return Err(past_the_end("row", *start, table.total_rows));
            }
            let mut ranges = vec![table.header];
            ranges.extend(table.rows);
            (ranges, "\n")
        }
    })
}

/// UTF-16 offsets of sorted byte positions of `text`, in one pass.
fn utf16_offsets(text: &str, positions: &[usize]) -> Vec<usize> {
    let mut offsets = Vec::with_capacity(positions.len());
    let mut chars = text.char_indices().peekable();
    let mut units = 0usize;
    for &position in positions {
        while let Some(&(at, c)) = chars.peek() {
            if at >= position {
                break;
            }
            units += c.len_utf16();
            chars.next();
        }
        offsets.push(units);
    }
    offsets
}

/// The spans of stored output `text` that ref form `form` (a ref string or a `{"ref", ...}`
/// object) asks for, refused as TOO_LARGE past `max_chars`.
pub fn resolve_spans(text: &str, form: &Value, max_chars: usize) -> Result<ResolvedSpans> {
    let selector = match form {
        Value::Object(fields) => selector(fields)?,
        _ => Selector::Whole,
    };
    let (ranges, separator) = byte_ranges(text, &selector)?;
    let chars = ranges
        .iter()
        .map(|range| text.get(range.clone()).map_or(0, char_len))
        .sum::<usize>()
        + ranges.len().saturating_sub(1) * separator.chars().count();
    if chars > max_chars {
        return Err(Error::new(
            ErrorCode::TooLarge,
            format!(
                "the ref's content is {chars} chars, more than the {max_chars} this call may still resolve (maxResolvedChars): pass a part of it with offset/limit, lines, rows or pointer"
            ),
        ));
    }
    let mut positions = Vec::with_capacity(ranges.len() * 2);
    for range in &ranges {
        positions.push(range.start);
        positions.push(range.end);
    }
    Ok(ResolvedSpans {
        spans: utf16_offsets(text, &positions),
        separator,
        chars,
    })
}

/// The JSON Schema of a ref form, as tool definitions show it. Written as JSON text and parsed:
/// `json!` with values inside goes through `serde_json::to_value`, a second serializer in the wasm.
const REF_FORM_SCHEMA: &str = r#"{"type": "object",
    "description": "A stored tool result (or a part of it) in place of this value",
    "properties": {
        "ref": {"type": "string", "description": "The ref of a stored tool result"},
        "offset": {"type": "integer", "minimum": 0},
        "limit": {"type": "integer", "minimum": -1},
        "pointer": {"type": "string", "description": "A JSON pointer into a JSON result"},
        "rows": {"type": "object", "properties": {"start": {"type": "integer", "minimum": 1}, "count": {"type": "integer", "minimum": 1}}, "additionalProperties": false},
        "lines": {"type": "object", "properties": {"start": {"type": "integer", "minimum": 1}, "count": {"type": "integer", "minimum": 1}}, "additionalProperties": false}
    },
    "required": ["ref"], "additionalProperties": false}"#;

pub fn ref_form_schema() -> Value {
    serde_json::from_str(REF_FORM_SCHEMA).unwrap_or_default()
}

/// A tool's input schema that also takes a ref form for each of its top-level properties (a
/// ref as a whole string already fits a string property).
pub fn accept_refs(schema: Value) -> Value {
    let Value::Object(mut schema) = schema else {
        return schema;
    };
    if let Some(Value::Object(properties)) = schema.get_mut("properties") {
        for property in properties.values_mut() {
            let original = std::mem::take(property);
            let mut any_of = Map::new();
            any_of.insert(
                "anyOf".into(),
                Value::Array(vec![original, ref_form_schema()]),
            );
            *property = Value::Object(any_of);
        }
    }
    Value::Object(schema)
}

#[cfg(test)]
mod tests;
