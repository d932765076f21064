//! The options of one stub or preview, as the main module's `renderStub` and `makePreviewJson`
//! take them (camelCase JSON): one type for both, read with the core's one JSON reader.

use crate::json_fields;
use crate::stub::ToolNames;
use crate::synopsis_mode::SynopsisMode;

/// Every field is optional in the JSON; absent ones keep their defaults.
#[derive(Debug, Default)]
pub struct StubOptions {
    pub reference: String,
    pub tool_name: String,
    pub sha256: String,
    pub reason: String,
    pub original_chars: Option<usize>,
    pub preview_chars: Option<i64>,
    pub mime_type: String,
    pub tool_names: Option<ToolNames>,
    pub max_stub_chars: Option<usize>,
    pub stub_header: String,
    pub synopsis_mode: SynopsisMode,
    /// Whether secrets are masked (`redactSecrets`); unset follows the mode (see `redact::redacts`).
    pub redact_secrets: Option<bool>,
}

json_fields::defaulted_struct!(StubOptions, deny_unknown_fields, {
    reference: "ref",
    tool_name: "toolName",
    sha256: "sha256",
    reason: "reason",
    original_chars: "originalChars",
    preview_chars: "previewChars",
    mime_type: "mimeType",
    tool_names: "toolNames",
    max_stub_chars: "maxStubChars",
    stub_header: "stubHeader",
    synopsis_mode: "synopsisMode",
    redact_secrets: "redactSecrets",
});
