//! wasm-bindgen tests run in Node (`wasm-pack test --node`); natively this binary is empty.
#![cfg(target_arch = "wasm32")]

include!("wasm_shared.rs");
