//! tool-stub core: typed synopsis stubs for oversized tool outputs, identical to the reference
//! (OpenViking's tool-result stub). Pure Rust; the wasm binding lives in `wasm.rs`.

#![forbid(unsafe_code)]

pub mod agent;
pub mod error;
pub mod ids;
pub mod json_fields;
pub mod kinds;
pub mod python;
pub mod record;
pub mod retention;
pub mod retrieval;
pub mod stub;
pub mod synopsis;
#[cfg(test)]
mod test_support;
pub mod turn;
#[cfg(feature = "bindings")]
pub mod wasm;
