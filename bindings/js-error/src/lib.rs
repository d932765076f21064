//! What the wasm modules share: the core's error as they throw it, a JavaScript `Error` (with a
//! stack) whose `code` is the error's code, which js/runtime.js turns into a `ToolStubError`; and
//! how their exports read JSON arguments and numbers and write JSON answers. One crate, so every
//! module throws and answers alike.

use serde::{de::DeserializeOwned, Serialize};
use tool_stub::{Error, ErrorCode};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// JavaScript's `Error`.
    #[wasm_bindgen(js_name = Error)]
    type JsError;
    #[wasm_bindgen(constructor, js_class = "Error")]
    fn new(message: &str) -> JsError;
    #[wasm_bindgen(method, setter = code)]
    fn set_code(this: &JsError, code: &str);
}

/// An export's answer: a value, or the core's error thrown as a JavaScript `Error`.
pub type BindingResult<T> = Result<T, JsValue>;

/// `error` as a thrown JavaScript `Error` with a `code`.
pub fn thrown(error: Error) -> JsValue {
    let thrown = JsError::new(&error.message);
    thrown.set_code(error.code.as_str());
    thrown.into()
}

/// `serde_json::to_string`, not `Value`'s `Display`: that one brings a second (and pretty)
/// JSON writer into the wasm. Writing a `Value` cannot fail (its keys are strings).
pub fn json_text(value: &serde_json::Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Parses through `serde_json::Value`: one JSON parser for every argument type, instead of one
/// inlined into each type's derived deserializer (that cost ~8 KB of the shipped wasm).
pub fn parse<T: DeserializeOwned>(what: &str, json: &str) -> BindingResult<T> {
    let invalid = |e: serde_json::Error| thrown(Error::invalid(format!("invalid {what}: {e}")));
    let value: serde_json::Value = serde_json::from_str(json).map_err(invalid)?;
    serde_json::from_value(value).map_err(invalid)
}

/// An answer as JSON text.
pub fn emit(value: &impl Serialize) -> BindingResult<String> {
    serde_json::to_string(value).map_err(|e| thrown(Error::new(ErrorCode::Internal, e.to_string())))
}

/// A JavaScript number that must be an exact integer (`what` names it in the error).
pub fn int(what: &str, value: f64) -> BindingResult<i64> {
    if value.is_finite() && value.fract() == 0.0 && value.abs() <= 9_007_199_254_740_991.0 {
        Ok(value as i64)
    } else {
        Err(thrown(Error::invalid(format!(
            "{what} must be an integer (got {value})"
        ))))
    }
}

/// Bytes of this instance's memory. Wasm memory only grows: the host starts a fresh instance
/// when one call made it large and nothing is kept in it (see js/runtime.js).
pub fn memory_bytes() -> f64 {
    #[cfg(target_arch = "wasm32")]
    let pages = core::arch::wasm32::memory_size(0);
    #[cfg(not(target_arch = "wasm32"))]
    let pages = 0;
    (pages as f64) * 65_536.0
}
