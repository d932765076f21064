//! The core's error as the three wasm modules throw it: a JavaScript `Error` (with a stack) whose
//! `code` is the error's code, which js/runtime.js turns into a `ToolStubError`. One crate, so
//! the main, grep and enhanced modules throw alike.

use tool_stub::Error;
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

/// `error` as a thrown JavaScript `Error` with a `code`.
pub fn thrown(error: Error) -> JsValue {
    let thrown = JsError::new(&error.message);
    thrown.set_code(error.code.as_str());
    thrown.into()
}
