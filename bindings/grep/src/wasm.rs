//! The grep module's wasm-bindgen binding: JSON in and out, errors thrown as the main module
//! throws them (a JavaScript `Error` with a `code`, bindings/js-error), so js/runtime.js converts
//! both alike.

use std::cell::RefCell;

use tool_stub::grep::GrepRequest;
use tool_stub::Error;
use tool_stub_js_error::thrown as to_js;
use wasm_bindgen::prelude::*;

use crate::Compiled;

fn request(request_json: &str) -> Result<GrepRequest, JsValue> {
    let invalid =
        |e: serde_json::Error| to_js(Error::invalid(format!("invalid search options: {e}")));
    let value: serde_json::Value = serde_json::from_str(request_json).map_err(invalid)?;
    serde_json::from_value(value).map_err(invalid)
}

thread_local! {
    /// The last request compiled, by its JSON: `searchAll` greps many outputs with one request.
    static LAST: RefCell<Option<(String, Compiled)>> = const { RefCell::new(None) };
    /// The text of the last `loadText`: an agent searches one output several times, and copying
    /// it in (UTF-16 to UTF-8) costs more than most searches.
    static TEXT: RefCell<String> = const { RefCell::new(String::new()) };
}

fn with_compiled<T>(request_json: &str, f: impl FnOnce(&Compiled) -> T) -> Result<T, JsValue> {
    LAST.with(|last| {
        let mut last = last.borrow_mut();
        if last.as_ref().is_none_or(|(json, _)| json != request_json) {
            let compiled = crate::compile(&request(request_json)?).map_err(to_js)?;
            *last = Some((request_json.to_string(), compiled));
        }
        Ok(f(&last.as_ref().expect("just compiled").1))
    })
}

/// Checks a search request and its pattern (before any I/O).
#[wasm_bindgen(js_name = checkGrep)]
pub fn check_grep(request_json: &str) -> Result<(), JsValue> {
    with_compiled(request_json, |_| ())
}

#[wasm_bindgen(js_name = grepContent)]
pub fn grep_content(content: &str, request_json: &str) -> Result<String, JsValue> {
    let result = with_compiled(request_json, |compiled| compiled.run(content))?;
    serde_json::to_string(&result).map_err(|e| to_js(Error::invalid(e.to_string())))
}

/// Keeps `content` for the next `grepLoaded` calls (replacing the text kept before).
#[wasm_bindgen(js_name = loadText)]
pub fn load_text(content: String) {
    TEXT.with(|text| *text.borrow_mut() = content);
}

/// Empties the kept text, reserving `capacity` bytes for the `appendText`/`appendTextUtf8` chunks
/// that follow: a large output crosses in pieces, so neither side holds the main thread (or a
/// worker's message queue) for the whole copy.
#[wasm_bindgen(js_name = clearText)]
pub fn clear_text(capacity: usize) {
    TEXT.with(|text| {
        let mut text = text.borrow_mut();
        *text = String::new();
        text.reserve(capacity);
    });
}

/// Appends a chunk to the kept text (a JS string: lone surrogates arrive as U+FFFD, as in
/// `loadText`).
#[wasm_bindgen(js_name = appendText)]
pub fn append_text(chunk: &str) {
    TEXT.with(|text| text.borrow_mut().push_str(chunk));
}

/// Appends a chunk of UTF-8 bytes (`TextEncoder` output, which a search worker receives as a
/// transferred buffer) to the kept text; bytes that are not UTF-8 are refused and leave it as it
/// was.
#[wasm_bindgen(js_name = appendTextUtf8)]
pub fn append_text_utf8(chunk: &[u8]) -> Result<(), JsValue> {
    let chunk = std::str::from_utf8(chunk).map_err(|e| {
        to_js(Error::invalid(format!(
            "a text chunk is not UTF-8 ({e}): split text only at code point boundaries"
        )))
    })?;
    append_text(chunk);
    Ok(())
}

/// `grepContent` over the text of the last `loadText`.
#[wasm_bindgen(js_name = grepLoaded)]
pub fn grep_loaded(request_json: &str) -> Result<String, JsValue> {
    let result =
        TEXT.with(|text| with_compiled(request_json, |compiled| compiled.run(&text.borrow())))?;
    serde_json::to_string(&result).map_err(|e| to_js(Error::invalid(e.to_string())))
}
