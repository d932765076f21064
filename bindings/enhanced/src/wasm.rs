//! The enhanced module's wasm-bindgen binding: errors thrown as the main module throws them (a
//! JavaScript `Error` with a `code`, bindings/js-error), so js/runtime.js converts them alike.

use wasm_bindgen::prelude::*;

/// See `enhanced_synopsis_json`. `utf8` arrives copied into this module's memory from a view of
/// the main module's.
#[wasm_bindgen(js_name = enhancedSynopsis)]
pub fn enhanced_synopsis(
    utf8: &[u8],
    mime_type: &str,
    reference_json: &str,
) -> Result<String, JsValue> {
    crate::enhanced_synopsis_json(utf8, mime_type, reference_json)
        .map_err(tool_stub_js_error::thrown)
}

/// Bytes of this instance's memory (the host starts a fresh instance when one call made it
/// large: wasm memory only grows).
#[wasm_bindgen(js_name = memoryBytes)]
pub fn memory_bytes() -> f64 {
    (core::arch::wasm32::memory_size(0) as f64) * 65_536.0
}
