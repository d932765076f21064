//! The "enhanced" synopsis mode (issue 21): beyond the reference, what a model needs from a stub
//! to choose its next call (record fields and value counts, column types, YAML documents, the
//! language of code, a markdown outline, and the kinds the reference calls `text`). Deterministic
//! and decided here, like the reference; the reference mode (`synopsis::generate`) is untouched.
//!
//! Detection runs `DETECTORS` in order, the first that answers wins; an output none of them takes
//! gets the reference's synopsis. Outputs that are empty or binary-like, and JSON/XML that their
//! MIME type names but that fails to parse, keep the reference's `unknown` synopsis (with its
//! head/tail sample, the only sample a stub has in either mode).

pub mod log;

use serde::{Deserialize, Deserializer, Serialize};

use crate::kinds::Synopsis;
use crate::synopsis;

/// Which synopsis rules make a stub (`config.synopsisMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SynopsisMode {
    /// The reference's rules, byte for byte (the default).
    #[default]
    Reference,
    /// The rules of this module; stubs stay within `ENHANCED_STUB_RATIO` of the reference's.
    Enhanced,
}

impl SynopsisMode {
    /// The mode named `name` (`"reference"` or `"enhanced"`), `""` being the default.
    pub fn parse(name: &str) -> crate::error::Result<Self> {
        match name {
            "" | "reference" => Ok(SynopsisMode::Reference),
            "enhanced" => Ok(SynopsisMode::Enhanced),
            other => Err(crate::error::Error::invalid(format!(
                "synopsisMode must be \"reference\" or \"enhanced\", got {other:?}"
            ))),
        }
    }
}

/// What a detector looks at: the output, its MIME type (lower-cased) and the kind the reference
/// detects for it.
pub struct Input<'a> {
    pub output: &'a str,
    pub mime: &'a str,
    pub reference_kind: &'a str,
}

/// Read through `parse`, so a bad value's message names the option wherever it was given.
impl<'de> Deserialize<'de> for SynopsisMode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        SynopsisMode::parse(&name).map_err(|error| serde::de::Error::custom(error.message))
    }
}

/// A detector: the synopsis of the output when it is of the detector's kind, else `None`.
pub type Detector = fn(&Input<'_>) -> Option<Synopsis>;

/// The detectors, in the order they are tried; the first that answers wins. An analyzer that
/// only needs the output (`pub fn synopsis(output: &str) -> Option<Synopsis>`, the shape of the
/// reference's structured kinds) enters as `("name", |input| name::synopsis(input.output))`.
const DETECTORS: &[(&str, Detector)] = &[
    // Analyzers of outputs the reference calls `text` (or mistakes for XML, a table or code) go
    // here, before the structured kinds. The log analyzer does not read a document that parsed as
    // JSON or XML.
    ("log", |input| line_oriented(input).then(|| log::synopsis(input.output))?),
];

/// Whether an output may be line-oriented text (a log, build output): not a document the
/// reference parsed as JSON or XML.
fn line_oriented(input: &Input<'_>) -> bool {
    !matches!(input.reference_kind, "json" | "xml")
}

/// The enhanced synopsis of `output` (what `synopsisMode: "enhanced"` stubs show, before the
/// stub's length bound).
pub fn generate(output: &str, mime_type: &str, preview_chars: i64) -> Synopsis {
    let reference = synopsis::generate(output, mime_type, preview_chars);
    generate_from(output, mime_type, reference)
}

/// `generate` given the reference's synopsis of the same output (its fallback, and the source of
/// the sample).
pub fn generate_from(output: &str, mime_type: &str, reference: Synopsis) -> Synopsis {
    let mime = mime_type.to_ascii_lowercase();
    // Unknown outputs (empty, binary-like, unparsable JSON/XML the MIME type names) stay as
    // the reference has them.
    if reference.kind == "unknown" {
        return reference;
    }
    let input = Input {
        output,
        mime: &mime,
        reference_kind: &reference.kind,
    };
    for (_, detect) in DETECTORS {
        if let Some(mut found) = detect(&input) {
            found.sample = String::new();
            return found;
        }
    }
    reference
}
