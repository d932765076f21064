//! The one error type of the core. Its `code` is stable and is what JavaScript sees as
//! `ToolStubError.code`; the message says what to fix.

use std::fmt;

/// The codes of every error the package throws: the one list of them. The JavaScript list and the
/// TypeScript type are generated from it (`ERROR_CODES` and `ErrorCode` in js/generated/contract.js
/// and .d.ts; tests/generated_js.rs fails when they are stale and says how to write them again).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    InvalidArgument,
    NotFound,
    StoreFailed,
    Corrupt,
    TooLarge,
    Forbidden,
    /// Thrown by the JavaScript layer only.
    NotReady,
    Internal,
}

impl ErrorCode {
    pub const ALL: [ErrorCode; 8] = [
        ErrorCode::InvalidArgument,
        ErrorCode::NotFound,
        ErrorCode::StoreFailed,
        ErrorCode::Corrupt,
        ErrorCode::TooLarge,
        ErrorCode::Forbidden,
        ErrorCode::NotReady,
        ErrorCode::Internal,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidArgument => "INVALID_ARGUMENT",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::StoreFailed => "STORE_FAILED",
            ErrorCode::Corrupt => "CORRUPT",
            ErrorCode::TooLarge => "TOO_LARGE",
            ErrorCode::Forbidden => "FORBIDDEN",
            ErrorCode::NotReady => "NOT_READY",
            ErrorCode::Internal => "INTERNAL",
        }
    }

    /// What the code means (it documents the generated JavaScript list too).
    pub fn meaning(self) -> &'static str {
        match self {
            ErrorCode::InvalidArgument => "The caller passed something the API does not take.",
            ErrorCode::NotFound => "No stored result has that id.",
            ErrorCode::StoreFailed => {
                "The store failed, timed out or answered the wrong type (while externalizing: under failure mode `reject`)."
            }
            ErrorCode::Corrupt => "Stored data does not match its recorded SHA-256 or is unreadable.",
            ErrorCode::TooLarge => "An output is larger than the configured limit.",
            ErrorCode::Forbidden => {
                "A ref names a result of a session this ToolStub was not granted read access to."
            }
            ErrorCode::NotReady => "The wasm module is not instantiated yet.",
            ErrorCode::Internal => "A bug: an internal invariant did not hold.",
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

#[cfg(test)]
mod tests {
    use super::ErrorCode;

    #[test]
    fn all_lists_every_code_once() {
        let mut names: Vec<_> = ErrorCode::ALL.iter().map(|code| code.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ErrorCode::ALL.len());
    }
}
