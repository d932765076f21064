//! Decoded JSON strings: text, or code points where a lone surrogate is kept.

use super::*;

/// A decoded JSON string.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum JsonText<'a> {
    /// Borrowed from the input when the string has no escapes.
    Text(Cow<'a, str>),
    /// Code points, only when the string holds a lone surrogate (no Rust `char` for it).
    WithSurrogates(Vec<u32>),
}

impl JsonText<'_> {
    /// The string as the reference prints it raw (key lists, paths); lone surrogates are
    /// replaced by U+FFFD since a Rust string cannot hold them.
    pub(super) fn display(&self) -> Cow<'_, str> {
        match self {
            JsonText::Text(text) => Cow::Borrowed(text.as_ref()),
            JsonText::WithSurrogates(codes) => Cow::Owned(
                codes
                    .iter()
                    .map(|&c| char::from_u32(c).unwrap_or('\u{fffd}'))
                    .collect(),
            ),
        }
    }

    /// `clip(repr(s), 80)`.
    pub(super) fn clipped_repr(&self) -> String {
        let repr = match self {
            JsonText::Text(text) => {
                repr_code_points(text.chars().map(u32::from), SCALAR_REPR_WIDTH)
            }
            JsonText::WithSurrogates(codes) => {
                repr_code_points(codes.iter().copied(), SCALAR_REPR_WIDTH)
            }
        };
        clip(&repr, SCALAR_REPR_WIDTH as i64)
    }
}

/// Builds the decoded text of a string with escapes.
pub(super) enum TextBuilder {
    Narrow(String),
    Wide(Vec<u32>),
}

impl TextBuilder {
    pub(super) fn push_str(&mut self, run: &str) {
        match self {
            TextBuilder::Narrow(text) => text.push_str(run),
            TextBuilder::Wide(codes) => codes.extend(run.chars().map(u32::from)),
        }
    }

    pub(super) fn push_code_point(&mut self, code: u32) {
        match (&mut *self, char::from_u32(code)) {
            (TextBuilder::Narrow(text), Some(c)) => text.push(c),
            (TextBuilder::Narrow(text), None) => {
                let mut codes: Vec<u32> = text.chars().map(u32::from).collect();
                codes.push(code);
                *self = TextBuilder::Wide(codes);
            }
            (TextBuilder::Wide(codes), _) => codes.push(code),
        }
    }

    pub(super) fn finish<'a>(self) -> JsonText<'a> {
        match self {
            TextBuilder::Narrow(text) => JsonText::Text(Cow::Owned(text)),
            TextBuilder::Wide(codes) => JsonText::WithSurrogates(codes),
        }
    }
}
