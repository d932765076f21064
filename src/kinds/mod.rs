//! One module per synopsis kind. Structured kinds return `None` when the output is not of their
//! kind, so detection goes on to the next one.

pub mod code;
pub mod json;
pub mod table;
pub mod text;
pub mod xml;
pub mod yaml;
