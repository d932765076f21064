//! The one error type of the core. Its `code` is stable and is what JavaScript sees as
//! `ToolStubError.code`; the message says what to fix.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// The caller passed something the API does not take.
    InvalidArgument,
    /// No stored result has that id.
    NotFound,
    /// The store failed while externalizing and the failure mode is `reject`.
    StoreFailed,
    /// Stored data does not match its recorded SHA-256 or is unreadable.
    Corrupt,
    /// An output is larger than the configured limit.
    TooLarge,
    /// A bug: an internal invariant did not hold.
    Internal,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidArgument => "INVALID_ARGUMENT",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::StoreFailed => "STORE_FAILED",
            ErrorCode::Corrupt => "CORRUPT",
            ErrorCode::TooLarge => "TOO_LARGE",
            ErrorCode::Internal => "INTERNAL",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub code: ErrorCode,
    pub message: String,
}

impl Error {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error {
            code,
            message: message.into(),
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Error::new(ErrorCode::InvalidArgument, message)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// JavaScript's `Error`: what the wasm modules throw is one, with a stack, and its `code`.
    #[wasm_bindgen(js_name = Error)]
    type JsError;
    #[wasm_bindgen(constructor, js_class = "Error")]
    fn new(message: &str) -> JsError;
    #[wasm_bindgen(method, setter = code)]
    fn set_code(this: &JsError, code: &str);
}

/// The error as both wasm modules throw it: a JavaScript `Error` whose `code` is the error's
/// code (js/core-call.js makes it a `ToolStubError`).
impl From<Error> for wasm_bindgen::JsValue {
    fn from(error: Error) -> Self {
        let thrown = JsError::new(&error.message);
        thrown.set_code(error.code.as_str());
        thrown.into()
    }
}
