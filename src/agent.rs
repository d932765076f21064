//! The retrieval tools as an agent sees them: their JSON Schema definitions in the shapes the main
//! SDKs take, validation of a model's call against them (with errors a model can act on), and the
//! bound that keeps every read-back result small enough for the context it is protecting.

use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::error::{Error, Result};
use crate::retrieval::{DEFAULT_CONTEXT_CHARS, DEFAULT_LIST_LIMIT, DEFAULT_READ_LIMIT, DEFAULT_SEARCH_LIMIT};
use crate::stub::ToolNames;

/// Default cap, in chars, on what one retrieval call returns to the model.
pub const DEFAULT_MAX_RESULT_CHARS: i64 = 20_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Read,
    Search,
    List,
}

impl Tool {
    const ALL: [Tool; 3] = [Tool::Read, Tool::Search, Tool::List];

    fn name(self, names: &ToolNames) -> &str {
        match self {
            Tool::Read => &names.read,
            Tool::Search => &names.search,
            Tool::List => &names.list,
        }
    }

    fn description(self) -> &'static str {
        match self {
            Tool::Read => "Read part of an externalized tool output by its ref. Offsets and limits count Unicode code points; page with offset/limit (has_more tells whether more follows).",
            Tool::Search => "Find literal, case-sensitive matches in an externalized tool output by its ref; returns each match's code-point offset and a snippet around it.",
            Tool::List => "List the tool outputs externalized in this session, with their refs, tool names, kinds and sizes.",
        }
    }

    /// The JSON Schema of the tool's arguments.
    fn parameters(self) -> Value {
        let reference = json!({"type": "string", "minLength": 1, "description": "The ref from the stub (or the bare tool_result_id)."});
        match self {
            Tool::Read => json!({
                "type": "object",
                "properties": {
                    "ref": reference,
                    "offset": {"type": "integer", "minimum": 0, "default": 0, "description": "First code point to return."},
                    "limit": {"type": "integer", "minimum": -1, "default": DEFAULT_READ_LIMIT, "description": "Code points to return; -1 for the rest (results are capped)."}
                },
                "required": ["ref"],
                "additionalProperties": false
            }),
            Tool::Search => json!({
                "type": "object",
                "properties": {
                    "ref": reference,
                    "query": {"type": "string", "minLength": 1, "description": "Literal text to find (case-sensitive)."},
                    "limit": {"type": "integer", "minimum": 1, "default": DEFAULT_SEARCH_LIMIT, "description": "Most matches to return."},
                    "context_chars": {"type": "integer", "minimum": 0, "default": DEFAULT_CONTEXT_CHARS, "description": "Code points of context on each side of a match."}
                },
                "required": ["ref", "query"],
                "additionalProperties": false
            }),
            Tool::List => json!({
                "type": "object",
                "properties": {
                    "tool_name": {"type": "string", "description": "Only outputs of this tool."},
                    "limit": {"type": "integer", "minimum": 1, "default": DEFAULT_LIST_LIMIT, "description": "Most results to list."}
                },
                "additionalProperties": false
            }),
        }
    }
}

/// The shapes of tool definitions the main SDKs take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefinitionFormat {
    /// `{type: "function", function: {name, description, parameters}}` (OpenAI function tools).
    OpenAi,
    /// `{name, description, input_schema}` (Anthropic tools).
    Anthropic,
    /// `{name, description, parameters}`: plain JSON Schema.
    JsonSchema,
}

impl DefinitionFormat {
    pub fn parse(format: &str) -> Result<Self> {
        match format {
            "openai" => Ok(DefinitionFormat::OpenAi),
            "anthropic" => Ok(DefinitionFormat::Anthropic),
            "json-schema" => Ok(DefinitionFormat::JsonSchema),
            other => Err(Error::invalid(format!(
                "unknown tool definition format {other:?}; use \"openai\", \"anthropic\" or \"json-schema\""
            ))),
        }
    }
}

pub fn tool_definitions(names: &ToolNames, format: DefinitionFormat) -> Vec<Value> {
    Tool::ALL
        .iter()
        .map(|&tool| {
            let (name, description, parameters) = (tool.name(names), tool.description(), tool.parameters());
            match format {
                DefinitionFormat::OpenAi => json!({
                    "type": "function",
                    "function": {"name": name, "description": description, "parameters": parameters}
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

/// A model's call, checked against its tool's schema and with every default filled in.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "tool", rename_all = "camelCase")]
pub enum ToolCall {
    #[serde(rename_all = "camelCase")]
    Read { reference: String, offset: i64, limit: i64 },
    #[serde(rename_all = "camelCase")]
    Search { reference: String, query: String, limit: i64, context_chars: i64 },
    #[serde(rename_all = "camelCase")]
    List { tool_name: Option<String>, limit: i64 },
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
    CallError { code: "INVALID_ARGUMENT", message, allowed }
}

/// Reads the arguments of `tool` from `args`, or says what is wrong with them.
struct Arguments<'a> {
    tool: Tool,
    names: &'a ToolNames,
    object: &'a Map<String, Value>,
}

impl Arguments<'_> {
    fn error(&self, message: String) -> CallError {
        refuse(Some(self.tool), self.names, format!("{}: {message}", self.tool.name(self.names)))
    }

    fn string(&self, key: &str, required: bool) -> std::result::Result<Option<String>, CallError> {
        match self.object.get(key) {
            None | Some(Value::Null) if !required => Ok(None),
            None | Some(Value::Null) => Err(self.error(format!("missing required argument \"{key}\""))),
            Some(Value::String(text)) if required && text.is_empty() => {
                Err(self.error(format!("argument \"{key}\" must not be empty")))
            }
            Some(Value::String(text)) => Ok(Some(text.clone())),
            Some(other) => Err(self.error(format!("argument \"{key}\" must be a string, got {}", json_type(other)))),
        }
    }

    fn integer(&self, key: &str, default: i64, minimum: i64) -> std::result::Result<i64, CallError> {
        let value = match self.object.get(key) {
            None | Some(Value::Null) => return Ok(default),
            Some(value) => value,
        };
        let Some(number) = value.as_i64().or_else(|| value.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 9e15).map(|f| f as i64)) else {
            return Err(self.error(format!("argument \"{key}\" must be an integer, got {}", json_type(value))));
        };
        if number < minimum {
            return Err(self.error(format!("argument \"{key}\" must be >= {minimum}, got {number}")));
        }
        Ok(number)
    }

    fn reject_unknown(&self) -> std::result::Result<(), CallError> {
        let schema = self.tool.parameters();
        let known = schema["properties"].as_object().cloned().unwrap_or_default();
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
pub fn validate_call(
    names: &ToolNames,
    name: &str,
    args: &Value,
    max_result_chars: i64,
) -> std::result::Result<ToolCall, CallError> {
    let Some(tool) = Tool::ALL.iter().copied().find(|tool| tool.name(names) == name) else {
        return Err(refuse(None, names, format!("unknown tool \"{name}\"")));
    };
    let empty = Map::new();
    let object = match args {
        Value::Object(object) => object,
        Value::Null => &empty,
        other => {
            return Err(refuse(Some(tool), names, format!("arguments must be a JSON object, got {}", json_type(other))))
        }
    };
    let arguments = Arguments { tool, names, object };
    arguments.reject_unknown()?;
    let cap = max_result_chars.max(1);
    Ok(match tool {
        Tool::Read => {
            let limit = arguments.integer("limit", DEFAULT_READ_LIMIT, -1)?;
            ToolCall::Read {
                reference: arguments.string("ref", true)?.unwrap_or_default(),
                offset: arguments.integer("offset", 0, 0)?,
                limit: if limit == -1 { cap } else { limit.min(cap) },
            }
        }
        Tool::Search => ToolCall::Search {
            reference: arguments.string("ref", true)?.unwrap_or_default(),
            query: arguments.string("query", true)?.unwrap_or_default(),
            limit: arguments.integer("limit", DEFAULT_SEARCH_LIMIT, 1)?,
            context_chars: arguments.integer("context_chars", DEFAULT_CONTEXT_CHARS, 0)?,
        },
        Tool::List => ToolCall::List {
            tool_name: arguments.string("tool_name", false)?,
            limit: arguments.integer("limit", DEFAULT_LIST_LIMIT, 1)?,
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
        let size = item.to_string().chars().count();
        if used + size > budget {
            break;
        }
        used += size;
        kept.push(item);
    }
    let left_out = total - kept.len();
    (kept, left_out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn definitions_in_three_shapes_with_configured_names() {
        let names = ToolNames { read: "r".into(), ..ToolNames::default() };
        let openai = tool_definitions(&names, DefinitionFormat::OpenAi);
        assert_eq!(openai[0]["function"]["name"], "r");
        assert_eq!(openai[1]["function"]["name"], "openviking_tool_result_search");
        let anthropic = tool_definitions(&names, DefinitionFormat::Anthropic);
        assert_eq!(anthropic[2]["input_schema"]["type"], "object");
        assert!(DefinitionFormat::parse("gemini").is_err());
    }

    #[test]
    fn calls_are_checked_and_defaulted() {
        let names = ToolNames::default();
        let call = validate_call(&names, "openviking_tool_result_read", &json!({"ref": "x", "limit": -1}), 500);
        assert_eq!(call, Ok(ToolCall::Read { reference: "x".into(), offset: 0, limit: 500 }));
        let search = validate_call(&names, "openviking_tool_result_search", &json!({"ref": "x", "query": "q"}), 500);
        assert!(matches!(search, Ok(ToolCall::Search { limit: 20, context_chars: 300, .. })));
        for (name, args, says) in [
            ("nope", json!({}), "unknown tool"),
            ("openviking_tool_result_read", json!({}), "missing required argument \"ref\""),
            ("openviking_tool_result_read", json!({"ref": 3}), "must be a string, got number"),
            ("openviking_tool_result_read", json!({"ref": "x", "offset": "1"}), "must be an integer, got string"),
            ("openviking_tool_result_read", json!({"ref": "x", "offset": -4}), "must be >= 0"),
            ("openviking_tool_result_search", json!({"ref": "x", "query": "q", "regex": true}), "unknown argument \"regex\""),
            ("openviking_tool_result_list", json!([1]), "must be a JSON object"),
        ] {
            let error = validate_call(&names, name, &args, 500).expect_err("refused");
            assert!(error.message.contains(says), "{} lacks {says}", error.message);
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
