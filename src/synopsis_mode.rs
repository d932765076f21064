//! Which synopsis rules make a stub (`config.synopsisMode`): the reference's or enhanced mode's.
//! A neutral module: the reference layer (stubs, turns) carries the option, the enhanced layer
//! answers it, and neither imports the other for it.

use serde::{Deserialize, Deserializer, Serialize};

/// Which synopsis rules make a stub (`config.synopsisMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SynopsisMode {
    /// The reference's rules, byte for byte (the default).
    #[default]
    Reference,
    /// Enhanced mode's rules (`src/enhanced/`); stubs stay within `ENHANCED_STUB_RATIO` of the reference's.
    Enhanced,
}

impl SynopsisMode {
    /// Every mode (the generated TypeScript contract lists their names).
    pub const ALL: [SynopsisMode; 2] = [SynopsisMode::Reference, SynopsisMode::Enhanced];

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

/// Read through `parse`, so a bad value's message names the option wherever it was given.
impl<'de> Deserialize<'de> for SynopsisMode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        SynopsisMode::parse(&name).map_err(|error| serde::de::Error::custom(error.message))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mode_names_parse_and_bad_ones_are_refused() {
        assert_eq!(SynopsisMode::parse("").ok(), Some(SynopsisMode::Reference));
        assert_eq!(
            SynopsisMode::parse("enhanced").ok(),
            Some(SynopsisMode::Enhanced)
        );
        let refused = SynopsisMode::parse("Enhanced").expect_err("case matters");
        assert!(refused.message.contains("synopsisMode"));
    }
}
