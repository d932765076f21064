//! One module per synopsis kind. Structured kinds return `None` when the output is not of their
//! kind, so detection goes on to the next one.

pub mod code;
pub mod json;
pub mod table;
pub mod text;
pub mod xml;
pub mod yaml;

use serde::Serialize;

use crate::json_fields;

/// Every kind the reference's detection names (a stub's `kind:` line, a record's `synopsis_kind`):
/// the modules above, and `unknown` for what none of them recognised.
#[cfg(feature = "enhanced")]
pub(crate) const REFERENCE_KINDS: [&str; 8] = [
    "json", "csv", "tsv", "yaml", "xml", "code", "text", "unknown",
];

/// What the stub says about an output: `{kind, title, summary[], structure[], notable_items[], sample}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct Synopsis {
    pub kind: String,
    pub title: String,
    pub summary: Vec<String>,
    pub structure: Vec<String>,
    pub notable_items: Vec<String>,
    pub sample: String,
    /// How much each line of `lines()` matters when a length bound must drop some: one rank per
    /// line, lower kept first (`line_priority`). Enhanced mode's analyzers set it; `None` ranks
    /// the lines alike, so a bound keeps them from the first. Only crosses from the analyzers to
    /// the bound: the bound clears it, so no stored or returned synopsis carries it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priorities: Option<Vec<u8>>,
}

json_fields::required_struct!(Synopsis, {
    kind: "kind",
    title: "title",
    summary: "summary",
    structure: "structure",
    notable_items: "notable_items",
    sample: "sample",
    priorities: "priorities",
});

impl Synopsis {
    /// A synopsis with kind and title set and everything else empty.
    pub fn new(kind: &str, title: &str) -> Self {
        Synopsis {
            kind: kind.to_string(),
            title: title.to_string(),
            ..Default::default()
        }
    }

    /// The summary, structure and notable-item lines, in the stub's order.
    pub fn lines(&self) -> impl Iterator<Item = &String> {
        self.summary
            .iter()
            .chain(&self.structure)
            .chain(&self.notable_items)
    }
}
