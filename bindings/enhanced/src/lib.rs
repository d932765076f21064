//! The enhanced module: enhanced mode's analyzers (`src/enhanced/` of the core), compiled to a
//! third wasm module that the JS layer loads the first time an enhanced synopsis is needed
//! (js/enhanced-module.js). The main module, which every page loads, is built without them (they
//! are a fifth of its size) and asks this one through its host (`HostEnhanced` in bindings/main);
//! natively the core calls the analyzers itself. One export, one question: the enhanced synopsis
//! of an output given the reference's synopsis of it.

use tool_stub::{Error, ErrorCode, Synopsis};

#[cfg(target_arch = "wasm32")]
mod wasm;

/// The enhanced synopsis (JSON) of the output whose UTF-8 is `utf8`, given the reference's
/// synopsis of it (JSON, as the main module sends it).
pub fn enhanced_synopsis_json(
    utf8: &[u8],
    mime_type: &str,
    reference_json: &str,
) -> tool_stub::Result<String> {
    // simdutf8 (wasm SIMD in this module's build): std's check took ~2.3 ms of a 10 MB call,
    // this one ~1.3 ms.
    let output = simdutf8::compat::from_utf8(utf8).map_err(|e| {
        Error::new(
            ErrorCode::Internal,
            format!("the output sent to the enhanced module is not UTF-8: {e}"),
        )
    })?;
    let reference: Synopsis = serde_json::from_str(reference_json).map_err(|e| {
        Error::new(
            ErrorCode::Internal,
            format!("the reference synopsis sent to the enhanced module is unreadable: {e}"),
        )
    })?;
    let enhanced = tool_stub::enhanced_synopsis(output, mime_type, reference);
    serde_json::to_string(&enhanced).map_err(|e| Error::new(ErrorCode::Internal, e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_the_cores_enhanced_synopsis() {
        let output = "2024-01-01T00:00:00Z ERROR boom\n2024-01-01T00:00:01Z INFO ok\n".repeat(50);
        let reference = tool_stub::generate(&output, "text/plain", 2_000);
        let json = serde_json::to_string(&reference).expect("JSON");
        let answer =
            enhanced_synopsis_json(output.as_bytes(), "text/plain", &json).expect("answers");
        let expected = tool_stub::enhanced_synopsis(&output, "text/plain", reference);
        assert_eq!(answer, serde_json::to_string(&expected).expect("JSON"));
        assert!(answer.contains("\"kind\":\"log\""), "{answer}");
    }

    #[test]
    fn bad_input_is_an_internal_error_not_a_panic() {
        let error =
            enhanced_synopsis_json(&[0xff, 0xfe], "text/plain", "{}").expect_err("not UTF-8");
        assert_eq!(error.code, ErrorCode::Internal);
        let error = enhanced_synopsis_json(b"x", "text/plain", "{broken").expect_err("bad JSON");
        assert_eq!(error.code, ErrorCode::Internal);
    }
}
