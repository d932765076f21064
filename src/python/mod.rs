//! Python semantics the reference relies on, in one place: `str` methods (`isspace`, `strip`,
//! `splitlines`, `split`, `isprintable`), `re`'s `\w`, `repr()` of `str`/`float`/`bytes`, and
//! CPython's limits. Every kind and retrieval call that must answer as Python does uses these,
//! never a copy of its own. Lengths are in Unicode code points ("chars"), as in Python.

mod printable;
mod repr;
pub(crate) mod swar;
mod text;
mod word;

pub(crate) use repr::{py_bytes_repr, py_repr_float, repr_code_points};
pub use text::*;
pub(crate) use word::is_py_word;

/// CPython 3.11's default `sys.get_int_max_str_digits()`: `int()` of a longer decimal string (and
/// `str()` of a longer int) raises `ValueError`, which makes `json` and PyYAML fail on it.
pub(crate) const INT_MAX_STR_DIGITS: usize = 4300;

/// Deepest JSON nesting that decodes: CPython 3.11's `json` scanner counts every open `[`/`{`
/// against the recursion limit (1000 minus the caller's frames: 997 from a bare script, about 945
/// under 50 frames); 990 stands for a typical caller. Shared by the JSON synopsis and pointer reads.
pub(crate) const JSON_MAX_NESTING: usize = 990;

/// The byte length of the UTF-8 char whose first byte is `lead` (1 for a continuation byte).
#[inline]
pub(crate) fn utf8_len(lead: u8) -> usize {
    match lead {
        0..=0xBF => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}
