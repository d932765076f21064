//! The retrieval tools as an agent sees them: their JSON Schema definitions in the shapes the main
//! SDKs take, validation of a model's call against them (with errors a model can act on), and the
//! bound that keeps every read-back result small enough for the context it is protecting.

use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::error::{Error, Result};
use crate::retrieval::{
    DEFAULT_CONTEXT_CHARS, DEFAULT_LIST_LIMIT, DEFAULT_READ_LIMIT, DEFAULT_SEARCH_LIMIT,
};
use crate::stub::ToolNames;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Read,
    Search,
    List,
    SearchAll,
}

impl Tool {
    const ALL: [Tool; 4] = [Tool::Read, Tool::Search, Tool::List, Tool::SearchAll];

    fn name(self, names: &ToolNames) -> &str {
        match self {
            Tool::Read => &names.read,
            Tool::Search => &names.search,
            Tool::List => &names.list,
            Tool::SearchAll => &names.search_all,
        }
    }

    fn description(self) -> &'static str {
        match self {
            Tool::Read => "Read part of an externalized tool output by its ref: by offset/limit (Unicode code points; has_more tells whether more follows), or by lines (line, lines), or a JSON subtree (json_pointer, e.g. /items/3), or CSV/TSV rows (row_start, row_count). Use one mode per call.",
            Tool::Search => "Find matches in an externalized tool output by its ref: literal and case-sensitive by default, or a regex, case-insensitive, whole words; returns each match's offset, line, column and a snippet.",
            Tool::List => "List the tool outputs externalized in this session, with their refs, tool names, kinds and sizes.",
            Tool::SearchAll => "Search every externalized tool output of this session at once; results are ranked by match count, then newest first, and carry their refs.",
        }
    }

    /// The JSON Schema of the tool's arguments.
    fn parameters(self) -> Value {
        // JSON text rather than `json!`: the macro expands to ~36 KB of wasm for these four.
        const REF: &str = r#"{"type": "string", "minLength": 1, "description": "The ref from the stub (or the bare tool_result_id)."}"#;
        const READ: &str = r#"{"type": "object", "properties": {
            "ref": $REF,
            "offset": {"type": "integer", "minimum": 0, "default": 0, "description": "First code point to return."},
            "limit": {"type": "integer", "minimum": -1, "default": $READ_LIMIT, "description": "Code points to return; -1 for the rest (results are capped)."},
            "line": {"type": "integer", "minimum": 1, "description": "Line mode: the first line to return (1-based)."},
            "lines": {"type": "integer", "minimum": 1, "description": "Line mode: how many lines."},
            "column": {"type": "integer", "minimum": 1, "description": "Line mode: the first column (1-based, in code points) of the first line, e.g. a search match's column or where a cut line continues."},
            "json_pointer": {"type": "string", "description": "JSON mode: an RFC 6901 pointer such as /items/3 ('' is the whole document)."},
            "row_start": {"type": "integer", "minimum": 1, "description": "Table mode: the first data row (1-based); the header always comes too."},
            "row_count": {"type": "integer", "minimum": 1, "description": "Table mode: how many data rows."}
        }, "required": ["ref"], "additionalProperties": false}"#;
        const SEARCH: &str = r#"{"type": "object", "properties": {
            "ref": $REF,
            "query": {"type": "string", "minLength": 1, "description": "Text to find (literal unless regex is true)."},
            "limit": {"type": "integer", "minimum": 1, "default": $SEARCH_LIMIT, "description": "Most matches to return."},
            "context_chars": {"type": "integer", "minimum": 0, "default": $CONTEXT_CHARS, "description": "Code points of context on each side of a match."},
            "context_lines": {"type": "integer", "minimum": 0, "description": "Whole lines of context instead of context_chars."},
            "regex": {"type": "boolean", "default": false, "description": "The query is a regular expression (linear-time engine; ^ and $ match at lines)."},
            "ignore_case": {"type": "boolean", "default": false, "description": "Match regardless of case."},
            "whole_word": {"type": "boolean", "default": false, "description": "Only matches that are whole words."}
        }, "required": ["ref", "query"], "additionalProperties": false}"#;
        const SEARCH_ALL: &str = r#"{"type": "object", "properties": {
            "query": {"type": "string", "minLength": 1, "description": "Text to find in every output of the session."},
            "regex": {"type": "boolean", "default": false, "description": "The query is a regular expression."},
            "ignore_case": {"type": "boolean", "default": false, "description": "Match regardless of case."},
            "whole_word": {"type": "boolean", "default": false, "description": "Only matches that are whole words."},
            "tool_name": {"type": "string", "description": "Only outputs of this tool."},
            "limit": {"type": "integer", "minimum": 1, "default": 10, "description": "Most results (outputs) to return."},
            "per_result": {"type": "integer", "minimum": 1, "default": 3, "description": "Most matches shown per output."},
            "order": {"type": "string", "enum": ["relevance", "newest"], "default": "relevance", "description": "relevance: most matches first (searches every output); newest: newest outputs first, stopping once limit outputs matched (cheaper in a long session)."}
        }, "required": ["query"], "additionalProperties": false}"#;
        const LIST: &str = r#"{"type": "object", "properties": {
            "tool_name": {"type": "string", "description": "Only outputs of this tool."},
            "limit": {"type": "integer", "minimum": 1, "default": $LIST_LIMIT, "description": "Most results to list."},
            "offset": {"type": "integer", "minimum": 0, "default": 0, "description": "Results to skip (paging; total_results says how many there are)."},
            "order": {"type": "string", "enum": ["id", "newest"], "default": "id", "description": "By id, or newest first."},
            "full": {"type": "boolean", "default": false, "description": "Whole stored records instead of one line per output (ref, tool_name, kind, chars, created_at, summary)."}
        }, "additionalProperties": false}"#;
        let text = match self {
            Tool::Read => READ,
            Tool::Search => SEARCH,
            Tool::SearchAll => SEARCH_ALL,
            Tool::List => LIST,
        };
        let text = text
            .replace("$REF", REF)
            .replace("$READ_LIMIT", &DEFAULT_READ_LIMIT.to_string())
            .replace("$SEARCH_LIMIT", &DEFAULT_SEARCH_LIMIT.to_string())
            .replace("$CONTEXT_CHARS", &DEFAULT_CONTEXT_CHARS.to_string())
            .replace("$LIST_LIMIT", &DEFAULT_LIST_LIMIT.to_string());
        // Constant text, checked to parse by the tests; `Null` is unreachable.
        serde_json::from_str(&text).unwrap_or(Value::Null)
    }
}

/// The shapes of tool definitions the main SDKs take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefinitionFormat {
    /// `{type: "function", function: {name, description, parameters, strict: true}}` (OpenAI chat
    /// completions function tools), with the parameters in OpenAI's strict subset.
    OpenAi,
    /// `{type: "function", name, description, parameters, strict: true}` (OpenAI Responses API
    /// function tools), parameters as for `OpenAi`.
    OpenAiResponses,
    /// `{name, description, input_schema}` (Anthropic tools).
    Anthropic,
    /// `{name, description, parameters}`: plain JSON Schema.
    JsonSchema,
}

impl DefinitionFormat {
    /// The formats' names, as `parse` takes them.
    pub const NAMES: [&'static str; 4] = ["openai", "openai-responses", "anthropic", "json-schema"];

    pub fn parse(format: &str) -> Result<Self> {
        match format {
            "openai" => Ok(DefinitionFormat::OpenAi),
            "openai-responses" => Ok(DefinitionFormat::OpenAiResponses),
            "anthropic" => Ok(DefinitionFormat::Anthropic),
            "json-schema" => Ok(DefinitionFormat::JsonSchema),
            other => Err(Error::invalid(format!(
                "unknown tool definition format {other:?}; use \"openai\", \"openai-responses\", \"anthropic\" or \"json-schema\""
            ))),
        }
    }
}

pub fn tool_definitions(names: &ToolNames, format: DefinitionFormat) -> Vec<Value> {
    Tool::ALL
        .iter()
        .map(|&tool| {
            let (name, description, parameters) =
                (tool.name(names), tool.description(), tool.parameters());
            match format {
                DefinitionFormat::OpenAi => json!({
                    "type": "function",
                    "function": {"name": name, "description": description,
                        "parameters": strict_schema(parameters), "strict": true}
                }),
                DefinitionFormat::OpenAiResponses => json!({
                    "type": "function", "name": name, "description": description,
                    "parameters": strict_schema(parameters), "strict": true
                }),
                DefinitionFormat::Anthropic => {
                    json!({"name": name, "description": description, "input_schema": parameters})
                }
                DefinitionFormat::JsonSchema => {
                    json!({"name": name, "description": description, "parameters": parameters})
                }
            }
        })
        .collect()
}

/// Rewrites a schema into OpenAI's strict structured-output subset: every object lists all its
/// properties in `required` and refuses others; an optional property becomes nullable (a strict
/// model sends `null` for it, which the call checks read as "not given"); `default` and
/// `minLength`, outside the subset, go (a default is kept in words in the description).
fn strict_schema(mut schema: Value) -> Value {
    let Some(object) = schema.as_object_mut() else {
        return schema;
    };
    object.remove("minLength");
    if let Some(default) = object.remove("default") {
        if let Some(Value::String(description)) = object.get_mut("description") {
            description.push_str(&format!(
                " Default {}.",
                serde_json::to_string(&default).unwrap_or_default()
            ));
        }
    }
    if let Some(items) = object.remove("items") {
        object.insert("items".into(), strict_schema(items));
    }
    if let Some(Value::Object(properties)) = object.remove("properties") {
        let required: Vec<Value> = object
            .get("required")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let mut strict_properties = Map::new();
        for (key, property) in properties {
            let mut property = strict_schema(property);
            if !required.contains(&Value::String(key.clone())) {
                nullable(&mut property);
            }
            strict_properties.insert(key, property);
        }
        let all: Vec<Value> = strict_properties
            .keys()
            .cloned()
            .map(Value::String)
            .collect();
        object.insert("properties".into(), Value::Object(strict_properties));
        object.insert("required".into(), Value::Array(all));
        object.insert("additionalProperties".into(), Value::Bool(false));
    }
    schema
}

/// Lets a property also be `null`: its `type` becomes `[type, "null"]`, and an `enum` lists null.
fn nullable(property: &mut Value) {
    if let Some(kind) = property.get("type").cloned() {
        let mut kinds = match kind {
            Value::Array(kinds) => kinds,
            other => vec![other],
        };
        if !kinds.contains(&json!("null")) {
            kinds.push(json!("null"));
        }
        property["type"] = Value::Array(kinds);
    }
    if let Some(Value::Array(values)) = property.get_mut("enum") {
        if !values.contains(&Value::Null) {
            values.push(Value::Null);
        }
    }
}

/// A model's call, checked against its tool's schema and with every default filled in.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "tool", rename_all = "camelCase")]
pub enum ToolCall {
    /// A reference read by offset/limit.
    #[serde(rename_all = "camelCase")]
    Read {
        reference: String,
        offset: i64,
        limit: i64,
    },
    #[serde(rename_all = "camelCase")]
    ReadLines {
        reference: String,
        line: i64,
        lines: Option<i64>,
        /// 1-based column of the first line to start at (a search hit's, a cut line's).
        column: Option<i64>,
        max_chars: i64,
    },
    #[serde(rename_all = "camelCase")]
    ReadJsonPointer {
        reference: String,
        json_pointer: String,
        max_chars: i64,
    },
    #[serde(rename_all = "camelCase")]
    ReadRows {
        reference: String,
        start: i64,
        count: Option<i64>,
        max_chars: i64,
    },
    #[serde(rename_all = "camelCase")]
    Search {
        reference: String,
        query: String,
        limit: i64,
        context_chars: i64,
        context_lines: Option<i64>,
        regex: bool,
        ignore_case: bool,
        whole_word: bool,
    },
    #[serde(rename_all = "camelCase")]
    SearchAll {
        query: String,
        regex: bool,
        ignore_case: bool,
        whole_word: bool,
        tool_name: Option<String>,
        limit: i64,
        per_result: i64,
        /// `"relevance"` or `"newest"`.
        order: String,
    },
    #[serde(rename_all = "camelCase")]
    List {
        tool_name: Option<String>,
        limit: i64,
        offset: i64,
        /// `"id"` or `"newest"`.
        order: String,
        full: bool,
    },
}

/// Why a call was refused, in words a model can act on: what was wrong and what is allowed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CallError {
    pub code: &'static str,
    pub message: String,
    pub allowed: Value,
}

fn refuse(tool: Option<Tool>, names: &ToolNames, message: String) -> CallError {
    let allowed = match tool {
        Some(tool) => json!({"tool": tool.name(names), "arguments": tool.parameters()}),
        None => json!({"tools": Tool::ALL.iter().map(|t| t.name(names)).collect::<Vec<_>>()}),
    };
    CallError {
        code: "INVALID_ARGUMENT",
        message,
        allowed,
    }
}

/// Reads the arguments of `tool` from `args`, or says what is wrong with them.
struct Arguments<'a> {
    tool: Tool,
    names: &'a ToolNames,
    object: &'a Map<String, Value>,
}

impl Arguments<'_> {
    fn error(&self, message: String) -> CallError {
        refuse(
            Some(self.tool),
            self.names,
            format!("{}: {message}", self.tool.name(self.names)),
        )
    }

    fn string(&self, key: &str, required: bool) -> std::result::Result<Option<String>, CallError> {
        match self.object.get(key) {
            None | Some(Value::Null) if !required => Ok(None),
            None | Some(Value::Null) => {
                Err(self.error(format!("missing required argument \"{key}\"")))
            }
            Some(Value::String(text)) if required && text.is_empty() => {
                Err(self.error(format!("argument \"{key}\" must not be empty")))
            }
            Some(Value::String(text)) => Ok(Some(text.clone())),
            Some(other) => Err(self.error(format!(
                "argument \"{key}\" must be a string, got {}",
                json_type(other)
            ))),
        }
    }

    /// One of `allowed` (the first when the argument is absent or null).
    fn choice(&self, key: &str, allowed: &[&str]) -> std::result::Result<String, CallError> {
        match self.string(key, false)? {
            None => Ok(allowed[0].to_string()),
            Some(value) if allowed.contains(&value.as_str()) => Ok(value),
            Some(other) => {
                let names: Vec<String> = allowed.iter().map(|name| format!("{name:?}")).collect();
                Err(self.error(format!(
                    "argument \"{key}\" must be {}, got {other:?}",
                    names.join(" or ")
                )))
            }
        }
    }

    fn integer(
        &self,
        key: &str,
        default: i64,
        minimum: i64,
    ) -> std::result::Result<i64, CallError> {
        let value = match self.object.get(key) {
            None | Some(Value::Null) => return Ok(default),
            Some(value) => value,
        };
        let Some(number) = value.as_i64().or_else(|| {
            value
                .as_f64()
                .filter(|f| f.fract() == 0.0 && f.abs() < 9e15)
                .map(|f| f as i64)
        }) else {
            return Err(self.error(format!(
                "argument \"{key}\" must be an integer, got {}",
                json_type(value)
            )));
        };
        if number < minimum {
            return Err(self.error(format!(
                "argument \"{key}\" must be >= {minimum}, got {number}"
            )));
        }
        Ok(number)
    }

    fn optional_integer(
        &self,
        key: &str,
        minimum: i64,
    ) -> std::result::Result<Option<i64>, CallError> {
        match self.object.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => self.integer(key, 0, minimum).map(Some),
        }
    }

    fn flag(&self, key: &str) -> std::result::Result<bool, CallError> {
        match self.object.get(key) {
            None | Some(Value::Null) => Ok(false),
            Some(Value::Bool(value)) => Ok(*value),
            Some(other) => Err(self.error(format!(
                "argument \"{key}\" must be a boolean, got {}",
                json_type(other)
            ))),
        }
    }

    fn has(&self, key: &str) -> bool {
        self.object.get(key).is_some_and(|value| !value.is_null())
    }

    /// A read in exactly one mode: by offset/limit, by lines, by JSON pointer, or by table rows.
    fn read(&self, cap: i64) -> std::result::Result<ToolCall, CallError> {
        let reference = self.string("ref", true)?.unwrap_or_default();
        let modes = [
            ("offset/limit", self.has("offset") || self.has("limit")),
            (
                "line/lines",
                self.has("line") || self.has("lines") || self.has("column"),
            ),
            ("json_pointer", self.has("json_pointer")),
            (
                "row_start/row_count",
                self.has("row_start") || self.has("row_count"),
            ),
        ];
        let chosen: Vec<&str> = modes
            .iter()
            .filter(|(_, used)| *used)
            .map(|(name, _)| *name)
            .collect();
        if chosen.len() > 1 {
            return Err(self.error(format!(
                "use one read mode per call, not {}",
                chosen.join(" and ")
            )));
        }
        Ok(match chosen.first().copied() {
            Some("line/lines") => ToolCall::ReadLines {
                reference,
                line: self.integer("line", 1, 1)?,
                lines: self.optional_integer("lines", 1)?,
                column: self.optional_integer("column", 1)?,
                max_chars: cap,
            },
            Some("json_pointer") => ToolCall::ReadJsonPointer {
                reference,
                json_pointer: self.string("json_pointer", false)?.unwrap_or_default(),
                max_chars: cap,
            },
            Some("row_start/row_count") => ToolCall::ReadRows {
                reference,
                start: self.integer("row_start", 1, 1)?,
                count: self.optional_integer("row_count", 1)?,
                max_chars: cap,
            },
            _ => {
                let limit = self.integer("limit", DEFAULT_READ_LIMIT, -1)?;
                ToolCall::Read {
                    reference,
                    offset: self.integer("offset", 0, 0)?,
                    limit: if limit == -1 { cap } else { limit.min(cap) },
                }
            }
        })
    }

    fn reject_unknown(&self) -> std::result::Result<(), CallError> {
        let schema = self.tool.parameters();
        let known = schema["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        match self.object.keys().find(|key| !known.contains_key(*key)) {
            Some(key) => Err(self.error(format!(
                "unknown argument \"{key}\"; allowed: {}",
                known.keys().cloned().collect::<Vec<_>>().join(", ")
            ))),
            None => Ok(()),
        }
    }
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Checks a model's call; `max_result_chars` caps what a read may return.
/// Fewer chars than any stored record takes as JSON (its keys alone are more).
const MIN_RECORD_CHARS: i64 = 100;

pub fn validate_call(
    names: &ToolNames,
    name: &str,
    args: &Value,
    max_result_chars: i64,
) -> std::result::Result<ToolCall, CallError> {
    let Some(tool) = Tool::ALL
        .iter()
        .copied()
        .find(|tool| tool.name(names) == name)
    else {
        return Err(refuse(None, names, format!("unknown tool \"{name}\"")));
    };
    let empty = Map::new();
    let object = match args {
        Value::Object(object) => object,
        Value::Null => &empty,
        other => {
            return Err(refuse(
                Some(tool),
                names,
                format!("arguments must be a JSON object, got {}", json_type(other)),
            ))
        }
    };
    let arguments = Arguments {
        tool,
        names,
        object,
    };
    arguments.reject_unknown()?;
    let cap = max_result_chars.max(1);
    Ok(match tool {
        Tool::Read => arguments.read(cap)?,
        Tool::Search => ToolCall::Search {
            reference: arguments.string("ref", true)?.unwrap_or_default(),
            query: arguments.string("query", true)?.unwrap_or_default(),
            limit: arguments.integer("limit", DEFAULT_SEARCH_LIMIT, 1)?,
            context_chars: arguments.integer("context_chars", DEFAULT_CONTEXT_CHARS, 0)?,
            context_lines: arguments.optional_integer("context_lines", 0)?,
            regex: arguments.flag("regex")?,
            ignore_case: arguments.flag("ignore_case")?,
            whole_word: arguments.flag("whole_word")?,
        },
        Tool::SearchAll => ToolCall::SearchAll {
            query: arguments.string("query", true)?.unwrap_or_default(),
            regex: arguments.flag("regex")?,
            ignore_case: arguments.flag("ignore_case")?,
            whole_word: arguments.flag("whole_word")?,
            tool_name: arguments.string("tool_name", false)?,
            limit: arguments.integer("limit", 10, 1)?,
            per_result: arguments.integer("per_result", 3, 1)?,
            order: arguments.choice("order", &["relevance", "newest"])?,
        },
        Tool::List => ToolCall::List {
            tool_name: arguments.string("tool_name", false)?,
            // No more records than could fit in the result: a huge limit must not make the host
            // gather a whole session's records only to cut them.
            limit: arguments
                .integer("limit", DEFAULT_LIST_LIMIT, 1)?
                .min((cap / MIN_RECORD_CHARS).max(1)),
            offset: arguments.integer("offset", 0, 0)?,
            order: arguments.choice("order", &["id", "newest"])?,
            full: arguments.flag("full")?,
        },
    })
}

/// Keeps the items of a result list while their JSON stays within `max_chars` in all; says how
/// many were left out so the model knows to narrow its call.
pub fn bound_items(items: Vec<Value>, max_chars: i64) -> (Vec<Value>, usize) {
    let budget = usize::try_from(max_chars.max(0)).unwrap_or(usize::MAX);
    let total = items.len();
    let mut used = 0usize;
    let mut kept = Vec::new();
    for item in items {
        // `to_string` rather than `Value`'s `Display`, whose second JSON writer costs wasm size.
        let size = serde_json::to_string(&item)
            .unwrap_or_default()
            .chars()
            .count();
        if used + size > budget {
            break;
        }
        used += size;
        kept.push(item);
    }
    let left_out = total - kept.len();
    (kept, left_out)
}

/// A tool call's error for the model (`{code, message, allowed?}`), held to `max_chars` as the
/// JSON of `{"error": ...}`, the way every other result is: a message that quotes a huge argument
/// is cut, with a note of how much was left out. The code and any `allowed` list stay whole.
pub fn bound_error(mut error: Map<String, Value>, max_chars: i64) -> Map<String, Value> {
    let budget = usize::try_from(max_chars.max(0)).unwrap_or(usize::MAX);
    let Some(Value::String(message)) = error.get("message").cloned() else {
        return error;
    };
    let chars_of = |error: &Map<String, Value>| {
        // `{"error":` and `}` around the object.
        serde_json::to_string(error)
            .unwrap_or_default()
            .chars()
            .count()
            + 10
    };
    if chars_of(&error) <= budget {
        return error;
    }
    let total = message.chars().count();
    let with_kept = |error: &mut Map<String, Value>, keep: usize| {
        let cut: String = message.chars().take(keep).collect();
        let text = format!("{cut}... ({} more chars not shown)", total - keep);
        error.insert("message".into(), Value::String(text));
        chars_of(error) <= budget
    };
    // The most chars of the message that fit (escapes make a char cost up to 6 in JSON).
    let (mut fits, mut over) = (0, total);
    while fits + 1 < over {
        let mid = fits + (over - fits) / 2;
        if with_kept(&mut error, mid) {
            fits = mid;
        } else {
            over = mid;
        }
    }
    with_kept(&mut error, fits);
    error
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_format_name_parses_to_its_own_format() {
        let formats: Vec<_> = DefinitionFormat::NAMES
            .iter()
            .map(|name| DefinitionFormat::parse(name).expect("a listed name parses"))
            .collect();
        for (i, format) in formats.iter().enumerate() {
            assert!(
                !formats[..i].contains(format),
                "{:?} is listed twice",
                format
            );
        }
        assert!(DefinitionFormat::parse("openai-chat").is_err());
    }

    #[test]
    fn an_error_quoting_a_huge_argument_is_held_to_the_result_cap() {
        let long = "\"/".repeat(100_001);
        let error = json!({"code": "INVALID_ARGUMENT", "message": format!("no value at {long}"), "allowed": ["a"]});
        let Value::Object(error) = error else {
            unreachable!()
        };
        for max in [20_000, 500, 120] {
            let bounded = bound_error(error.clone(), max);
            let chars = serde_json::to_string(&json!({ "error": bounded }))
                .unwrap()
                .chars()
                .count();
            assert!(chars <= max as usize, "{chars} chars over {max}");
            assert_eq!(bounded["code"], "INVALID_ARGUMENT");
            assert_eq!(bounded["allowed"], json!(["a"]));
            let message = bounded["message"].as_str().unwrap();
            assert!(message.starts_with("no value at \"/"), "{message:.40}");
            assert!(message.ends_with("more chars not shown)"), "{message}");
        }
        let short = json!({"code": "NOT_FOUND", "message": "no such ref"});
        let Value::Object(short) = short else {
            unreachable!()
        };
        assert_eq!(bound_error(short.clone(), 20_000), short);
    }

    #[test]
    fn a_huge_list_limit_is_cut_to_what_the_result_can_hold() {
        let names = ToolNames::default();
        let list = |limit: i64, max: i64| {
            validate_call(
                &names,
                "openviking_tool_result_list",
                &json!({ "limit": limit }),
                max,
            )
        };
        let limit_of = |call| match call {
            Ok(ToolCall::List { limit, .. }) => limit,
            other => panic!("{other:?}"),
        };
        assert_eq!(limit_of(list(1_000_000_000_000_000, 20_000)), 200);
        assert_eq!(limit_of(list(7, 20_000)), 7);
        assert_eq!(limit_of(list(1_000, 10)), 1);
    }

    #[test]
    fn orders_default_to_the_first_choice_and_refuse_others_by_name() {
        let names = ToolNames::default();
        let order_of = |tool: &str, args: Value| match validate_call(&names, tool, &args, 20_000) {
            Ok(ToolCall::SearchAll { order, .. } | ToolCall::List { order, .. }) => Ok(order),
            Ok(other) => panic!("{other:?}"),
            Err(error) => Err(error.message),
        };
        let search_all = "openviking_tool_result_search_all";
        let list = "openviking_tool_result_list";
        assert_eq!(
            order_of(search_all, json!({ "query": "q" })).unwrap(),
            "relevance"
        );
        assert_eq!(
            order_of(search_all, json!({ "query": "q", "order": null })).unwrap(),
            "relevance"
        );
        assert_eq!(
            order_of(search_all, json!({ "query": "q", "order": "newest" })).unwrap(),
            "newest"
        );
        assert_eq!(order_of(list, json!({})).unwrap(), "id");
        let refused = order_of(search_all, json!({ "query": "q", "order": "id" })).unwrap_err();
        assert!(
            refused.contains(r#"argument "order" must be "relevance" or "newest", got "id""#),
            "{refused}"
        );
        let refused = order_of(list, json!({ "order": 3 })).unwrap_err();
        assert!(refused.contains("must be a string, got"), "{refused}");
        let enum_of = |tool: Tool| tool.parameters()["properties"]["order"]["enum"].clone();
        assert_eq!(enum_of(Tool::SearchAll), json!(["relevance", "newest"]));
        assert_eq!(enum_of(Tool::List), json!(["id", "newest"]));
    }

    #[test]
    fn every_schema_text_parses_to_an_object_with_its_defaults() {
        for tool in Tool::ALL {
            let schema = tool.parameters();
            assert_eq!(schema["type"], "object", "{tool:?}");
            assert_eq!(schema["additionalProperties"], false, "{tool:?}");
        }
        assert_eq!(
            Tool::Read.parameters()["properties"]["limit"]["default"],
            DEFAULT_READ_LIMIT
        );
        assert_eq!(
            Tool::Search.parameters()["properties"]["context_chars"]["default"],
            DEFAULT_CONTEXT_CHARS
        );
        assert_eq!(
            Tool::List.parameters()["properties"]["limit"]["default"],
            DEFAULT_LIST_LIMIT
        );
    }

    #[test]
    fn definitions_in_three_shapes_with_configured_names() {
        let names = ToolNames {
            read: "r".into(),
            ..ToolNames::default()
        };
        let openai = tool_definitions(&names, DefinitionFormat::OpenAi);
        assert_eq!(openai[0]["function"]["name"], "r");
        assert_eq!(
            openai[1]["function"]["name"],
            "openviking_tool_result_search"
        );
        let anthropic = tool_definitions(&names, DefinitionFormat::Anthropic);
        assert_eq!(anthropic[2]["input_schema"]["type"], "object");
        assert!(DefinitionFormat::parse("gemini").is_err());
        assert!(DefinitionFormat::parse("openai-responses").is_ok());
    }

    /// The keywords OpenAI's strict structured outputs support.
    const STRICT_KEYWORDS: [&str; 18] = [
        "type",
        "properties",
        "required",
        "additionalProperties",
        "description",
        "enum",
        "const",
        "anyOf",
        "items",
        "$ref",
        "$defs",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "pattern",
        "format",
    ];

    /// Every violation of OpenAI's strict rules in `schema` (at `path`), walking every subschema.
    fn strict_violations(schema: &Value, path: &str, out: &mut Vec<String>) {
        let Some(object) = schema.as_object() else {
            return out.push(format!("{path}: not an object"));
        };
        for key in object.keys() {
            if !STRICT_KEYWORDS.contains(&key.as_str()) {
                out.push(format!(
                    "{path}: keyword {key} is outside the strict subset"
                ));
            }
        }
        let kinds: Vec<&Value> = match &object.get("type") {
            Some(Value::Array(kinds)) => kinds.iter().collect(),
            Some(kind) => vec![kind],
            None => vec![],
        };
        if let (Some(Value::Array(values)), true) =
            (object.get("enum"), kinds.contains(&&json!("null")))
        {
            if !values.contains(&Value::Null) {
                out.push(format!("{path}: nullable enum without null"));
            }
        }
        if kinds.contains(&&json!("object")) {
            let properties = object.get("properties").and_then(Value::as_object);
            let required = object.get("required").and_then(Value::as_array);
            match (properties, required) {
                (Some(properties), Some(required)) => {
                    for (key, property) in properties {
                        if !required.contains(&json!(key)) {
                            out.push(format!("{path}.{key}: not in required"));
                        }
                        strict_violations(property, &format!("{path}.{key}"), out);
                    }
                }
                _ => out.push(format!("{path}: an object without properties and required")),
            }
            if object.get("additionalProperties") != Some(&Value::Bool(false)) {
                out.push(format!("{path}: additionalProperties is not false"));
            }
        }
        if let Some(items) = object.get("items") {
            strict_violations(items, &format!("{path}[]"), out);
        }
    }

    #[test]
    fn openai_schemas_follow_the_strict_rules_and_keep_optional_arguments_optional() {
        let names = ToolNames::default();
        let chat = tool_definitions(&names, DefinitionFormat::OpenAi);
        let responses = tool_definitions(&names, DefinitionFormat::OpenAiResponses);
        for (tool, (chat, responses)) in Tool::ALL.iter().zip(chat.iter().zip(&responses)) {
            assert_eq!(chat["type"], "function");
            assert_eq!(chat["function"]["strict"], true);
            assert_eq!(chat["function"]["name"], tool.name(&names));
            assert_eq!(responses["type"], "function");
            assert_eq!(responses["strict"], true);
            assert_eq!(responses["name"], tool.name(&names));
            assert_eq!(responses["parameters"], chat["function"]["parameters"]);
            let strict = &chat["function"]["parameters"];
            assert_eq!(strict["type"], "object", "{tool:?}: the root is an object");
            let mut violations = Vec::new();
            strict_violations(strict, &format!("{tool:?}"), &mut violations);
            assert_eq!(violations, Vec::<String>::new());
            // The relaxed schema's optional arguments are exactly the nullable ones.
            let relaxed = tool.parameters();
            let required = relaxed["required"].as_array().cloned().unwrap_or_default();
            for (key, property) in relaxed["properties"].as_object().unwrap() {
                let kinds = strict["properties"][key]["type"].clone();
                let nullable = kinds.as_array().is_some_and(|k| k.contains(&json!("null")));
                assert_eq!(
                    nullable,
                    !required.contains(&json!(key)),
                    "{tool:?}.{key}: {kinds}"
                );
                assert_eq!(
                    strict["properties"][key]["type"]
                        .as_array()
                        .map_or(&kinds, |k| &k[0]),
                    &property["type"]
                );
            }
        }
    }

    #[test]
    fn a_strict_model_call_with_every_optional_argument_null_is_a_default_call() {
        let names = ToolNames::default();
        for (tool, definition) in Tool::ALL
            .iter()
            .zip(tool_definitions(&names, DefinitionFormat::OpenAi))
        {
            let schema = &definition["function"]["parameters"];
            let mut args = Map::new();
            for (key, property) in schema["properties"].as_object().unwrap() {
                let nullable = property["type"]
                    .as_array()
                    .is_some_and(|k| k.contains(&json!("null")));
                args.insert(key.clone(), if nullable { Value::Null } else { json!("x") });
            }
            let with_nulls = validate_call(&names, tool.name(&names), &Value::Object(args), 500);
            let required_only: Map<String, Value> = schema["properties"]
                .as_object()
                .unwrap()
                .iter()
                .filter(|(_, p)| p["type"].is_string())
                .map(|(key, _)| (key.clone(), json!("x")))
                .collect();
            let defaults = validate_call(
                &names,
                tool.name(&names),
                &Value::Object(required_only),
                500,
            );
            assert!(with_nulls.is_ok(), "{tool:?}: {with_nulls:?}");
            assert_eq!(with_nulls, defaults, "{tool:?}");
        }
    }

    #[test]
    fn calls_are_checked_and_defaulted() {
        let names = ToolNames::default();
        let call = validate_call(
            &names,
            "openviking_tool_result_read",
            &json!({"ref": "x", "limit": -1}),
            500,
        );
        assert_eq!(
            call,
            Ok(ToolCall::Read {
                reference: "x".into(),
                offset: 0,
                limit: 500
            })
        );
        let search = validate_call(
            &names,
            "openviking_tool_result_search",
            &json!({"ref": "x", "query": "q"}),
            500,
        );
        assert!(matches!(
            search,
            Ok(ToolCall::Search {
                limit: 20,
                context_chars: 300,
                regex: false,
                ..
            })
        ));
        let lines = validate_call(
            &names,
            "openviking_tool_result_read",
            &json!({"ref": "x", "line": 3}),
            500,
        );
        assert_eq!(
            lines,
            Ok(ToolCall::ReadLines {
                reference: "x".into(),
                line: 3,
                lines: None,
                column: None,
                max_chars: 500
            })
        );
        // A search hit's `line` and `column`, and a cut line's continue hint
        // ("continue with line=1 column=19841"), are arguments the read tool takes.
        let at_column = validate_call(
            &names,
            "openviking_tool_result_read",
            &json!({"ref": "x", "line": 1, "column": 19841}),
            500,
        );
        assert!(matches!(
            at_column,
            Ok(ToolCall::ReadLines {
                line: 1,
                column: Some(19841),
                ..
            })
        ));
        assert!(validate_call(
            &names,
            "openviking_tool_result_read",
            &json!({"ref": "x", "offset": 3, "column": 2}),
            500,
        )
        .is_err());
        for (name, args, says) in [
            ("nope", json!({}), "unknown tool"),
            (
                "openviking_tool_result_read",
                json!({}),
                "missing required argument \"ref\"",
            ),
            (
                "openviking_tool_result_read",
                json!({"ref": 3}),
                "must be a string, got number",
            ),
            (
                "openviking_tool_result_read",
                json!({"ref": "x", "offset": "1"}),
                "must be an integer, got string",
            ),
            (
                "openviking_tool_result_read",
                json!({"ref": "x", "offset": -4}),
                "must be >= 0",
            ),
            (
                "openviking_tool_result_search",
                json!({"ref": "x", "query": "q", "fuzzy": true}),
                "unknown argument \"fuzzy\"",
            ),
            (
                "openviking_tool_result_list",
                json!([1]),
                "must be a JSON object",
            ),
            (
                "openviking_tool_result_read",
                json!({"ref": "x", "line": 2, "json_pointer": "/a"}),
                "one read mode per call",
            ),
            (
                "openviking_tool_result_search",
                json!({"ref": "x", "query": "q", "regex": "yes"}),
                "must be a boolean",
            ),
            (
                "openviking_tool_result_search_all",
                json!({}),
                "missing required argument \"query\"",
            ),
        ] {
            let error = validate_call(&names, name, &args, 500).expect_err("refused");
            assert!(
                error.message.contains(says),
                "{} lacks {says}",
                error.message
            );
            assert!(!error.allowed.is_null());
        }
    }

    #[test]
    fn bounding_keeps_whole_items_within_budget() {
        let items = vec![json!("aaaa"), json!("bbbb"), json!("cccc")];
        let (kept, left_out) = bound_items(items, 13);
        assert_eq!((kept.len(), left_out), (2, 1));
    }
}
