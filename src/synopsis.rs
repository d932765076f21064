//! The typed synopsis of one tool output, and kind detection (SPEC sections 2 and 3).

use serde::{Deserialize, Serialize};

/// What the stub says about an output: `{kind, title, summary[], structure[], notable_items[], sample}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Synopsis {
    pub kind: String,
    pub title: String,
    pub summary: Vec<String>,
    pub structure: Vec<String>,
    pub notable_items: Vec<String>,
    pub sample: String,
}

impl Synopsis {
    /// A synopsis with kind and title set and everything else empty.
    pub fn new(kind: &str, title: &str) -> Self {
        Synopsis { kind: kind.to_string(), title: title.to_string(), ..Default::default() }
    }
}
