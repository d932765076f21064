//! JSON synopsis (SPEC section 2 step 3 and section 3.1).
//!
//! The reference decodes the first JSON value of the stripped output with Python's
//! `json.JSONDecoder().raw_decode` and then looks at a small part of the result: the top-level
//! type, key lists (first 10 + count) down to depth 2, array lengths, the shapes of the first
//! 3 items, and the first 5 scalars of a depth-first walk. Building the whole value would make a
//! 10 MB output cost far more than the synopsis needs, so this module has its own single-pass,
//! iterative (explicit stack, so 10,000-level nesting cannot overflow) decoder that validates
//! everything with Python's rules but only materialises the nodes the synopsis can read (the
//! "kept" nodes, see [`Decoder::next_value_context`]).
//!
//! Python semantics reproduced here (the C scanner of CPython 3.11):
//! - whitespace between tokens is only space, `\t`, `\n`, `\r`;
//! - `NaN`, `Infinity`, `-Infinity` are accepted; raw control chars (< 0x20) inside strings are
//!   rejected; escapes are `\" \\ \/ \b \f \n \r \t \uXXXX`, surrogate pairs combine and lone
//!   surrogates stay (they print as `'\ud800'` through `repr`);
//! - numbers follow `-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?` (a dangling `.` or exponent is left
//!   for the caller, so `1.` at the top decodes `1` with one trailing char); integers keep their
//!   exact digits, but more than 4300 digits is a `ValueError` in Python (int max str digits), so
//!   such a document fails to decode; floats round like `float()`, `1e400` is `inf`;
//! - duplicate keys keep the first key's position with the last value.
//!
//! Nesting: CPython's scanner counts every open `[`/`{` against the recursion limit (1000, shared
//! with the caller's Python frames), so a document nested deeper than about 990 levels raises
//! `RecursionError`. The reference either treats that as a failed decode (then failing here
//! matches it) or crashes (then no such case can exist), so this decoder fails beyond
//! [`MAX_NESTING`] open containers. That also bounds the memory a hostile input can make the
//! decoder use. The decoder is iterative all the same (no Rust recursion).
//!
//! Lone surrogates cannot live in a Rust `String`: a decoded string holding one is kept as code
//! points ([`JsonText::WithSurrogates`]); `repr` escapes them like Python, and where the reference
//! would print the raw string (keys in key lists and paths) they become U+FFFD.
//!
//! The stages, one file each: `scan` (Python's scanning primitives, shared with pointer reads),
//! `text` (decoded strings), `decoder` (the pass over the document and what it keeps, by mode),
//! `tree` (the kept nodes and the synopsis read from them), `sample_check` (the differential
//! check of a sampled load).

mod decoder;
#[cfg(feature = "enhanced")]
mod sample_check;
mod scan;
mod text;
mod tree;

#[cfg(test)]
mod tests;

use decoder::*;
use scan::*;
use text::*;
use tree::*;

#[cfg(feature = "enhanced")]
pub(crate) use decoder::{load_value, spans_one_value, type_bit};
#[cfg(feature = "enhanced")]
pub use sample_check::sampled_load_agrees;
pub(crate) use scan::{hex4, number_end, plain_run_end, string_end, NumberError, StringError};

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::Synopsis;
use crate::fx_hasher::FxHasher;
use crate::python::{
    char_len, clip, py_repr_float, py_strip, repr_code_points, swar, INT_MAX_STR_DIGITS,
    JSON_MAX_NESTING as MAX_NESTING,
};
#[cfg(feature = "enhanced")]
use crate::value::Value;

/// Key lists (top-level keys, child keys, shapes) show at most this many keys.
const KEY_LIST_LIMIT: usize = 10;
/// `shape` samples this many array items.
const SHAPE_SAMPLE_ITEMS: usize = 3;
/// `shape(v, d)` prints `...` from this depth on.
const SHAPE_MAX_DEPTH: usize = 2;
/// Number of scalar examples in notable_items.
const SCALAR_EXAMPLES: usize = 5;
/// Scalar examples are `clip(repr(v), 80)`.
const SCALAR_REPR_WIDTH: usize = 80;

/// The JSON synopsis of `output`, or `None` when the stripped output does not start with a JSON
/// value that Python's `json.JSONDecoder().raw_decode` accepts.
pub fn synopsis(output: &str) -> Option<Synopsis> {
    let text = py_strip(output);
    let decoded = match Decoder::new(text, Mode::Fast).run() {
        Ok(decoded) => decoded,
        // A duplicate key in an object the synopsis reads: redo the decode keeping every node
        // the walk could reach, so the dict semantics (first position, last value) are exact.
        Err(Stop::NeedsExact) => Decoder::new(text, Mode::Exact).run().ok()?,
        // (`Mixed` is `Mode::Sampled`'s only.)
        Err(Stop::Invalid | Stop::Mixed) => return None,
    };
    let rest = text.get(decoded.end..).unwrap_or("");
    let trailing = char_len(py_strip(rest));
    Some(decoded.tree.synopsis(trailing))
}
