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

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::pyutil::{char_len, clip, py_strip, swar};
use crate::synopsis::Synopsis;

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
/// Python 3.11's default `sys.get_int_max_str_digits()`: `int()` of a longer digit string raises
/// `ValueError`, which makes `json` fail on such an integer literal.
const PY_INT_MAX_STR_DIGITS: usize = 4300;
/// Deepest nesting that decodes: CPython 3.11 fails from 1000 minus the caller's frame depth
/// (997 from a bare script, about 945 under 50 frames); 990 stands for a typical caller.
const MAX_NESTING: usize = 990;

/// The JSON synopsis of `output`, or `None` when the stripped output does not start with a JSON
/// value that Python's `json.JSONDecoder().raw_decode` accepts.
pub fn synopsis(output: &str) -> Option<Synopsis> {
    let text = py_strip(output);
    let decoded = match Decoder::new(text, Mode::Fast).run() {
        Ok(decoded) => decoded,
        // A duplicate key in an object the synopsis reads: redo the decode keeping every node
        // the walk could reach, so the dict semantics (first position, last value) are exact.
        Err(Stop::NeedsExact) => Decoder::new(text, Mode::Exact).run().ok()?,
        Err(Stop::Invalid) => return None,
    };
    let rest = text.get(decoded.end..).unwrap_or("");
    let trailing = char_len(py_strip(rest));
    Some(decoded.tree.synopsis(trailing))
}

/// Python's `repr()` of a `str`.
pub fn py_repr_str(s: &str) -> String {
    repr_code_points(s.chars().map(u32::from), usize::MAX)
}

/// Python's `repr()` of a `float`: shortest round-trip digits, exponent form when the decimal
/// exponent is below -4 or at least 16 (`1e-07`, `1e+16`), `.0` on integral values, `inf`, `nan`.
pub fn py_repr_float(value: f64) -> String {
    if value.is_nan() {
        return "nan".to_string();
    }
    if value.is_infinite() {
        return if value > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    // Rust's `{:e}` gives the shortest digits that round-trip (like Python's repr), as
    // `[-]d[.ddd]e<exp>`; only the layout differs.
    let scientific = format!("{value:e}");
    let (mantissa, exponent) = scientific
        .split_once('e')
        .unwrap_or((scientific.as_str(), "0"));
    let exponent: i64 = exponent.parse().unwrap_or(0);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let (digits, exponent) = round_ties_to_even(value, digits, exponent);
    let mut out = String::with_capacity(digits.len() + 8);
    if negative {
        out.push('-');
    }
    // Position of the decimal point relative to the digit string, as in CPython's
    // `format_float_short` (repr uses exponent form when decpt <= -4 or decpt > 16).
    let decimal_point = exponent + 1;
    if decimal_point <= -4 || decimal_point > 16 {
        let mut chars = digits.chars();
        if let Some(first) = chars.next() {
            out.push(first);
        }
        let fraction = chars.as_str();
        if !fraction.is_empty() {
            out.push('.');
            out.push_str(fraction);
        }
        out.push('e');
        out.push(if exponent < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", exponent.unsigned_abs()));
    } else if decimal_point <= 0 {
        out.push_str("0.");
        out.push_str(&"0".repeat(decimal_point.unsigned_abs() as usize));
        out.push_str(&digits);
    } else {
        let point = decimal_point.unsigned_abs() as usize;
        if point >= digits.len() {
            out.push_str(&digits);
            out.push_str(&"0".repeat(point - digits.len()));
            out.push_str(".0");
        } else {
            let (whole, fraction) = digits.split_at(point);
            out.push_str(whole);
            out.push('.');
            out.push_str(fraction);
        }
    }
    out
}

/// Rust's shortest digits break an exact tie between two equally short, equally close digit
/// strings upward; Python's (David Gay's dtoa) picks the one ending in an even digit
/// (934877530335423.25 is `934877530335423.2` in Python). Re-decides ties from the exact
/// decimal expansion of `value`.
fn round_ties_to_even(value: f64, digits: String, exponent: i64) -> (String, i64) {
    let count = digits.len();
    // Cheap filter: a tie needs digit count+1 of the expansion to be a 5.
    let next_digits = format!("{:.*e}", count, value.abs());
    if !next_digits
        .split_once('e')
        .is_some_and(|(m, _)| m.ends_with('5'))
    {
        return (digits, exponent);
    }
    // An f64 has at most 767 significant decimal digits, so this expansion is exact.
    let expansion = format!("{:.800e}", value.abs());
    let Some((exact_mantissa, exact_exponent)) = expansion.split_once('e') else {
        return (digits, exponent);
    };
    if exact_exponent.parse::<i64>().ok() != Some(exponent) {
        return (digits, exponent);
    }
    let exact: Vec<u8> = exact_mantissa.bytes().filter(u8::is_ascii_digit).collect();
    let (Some(kept), Some(&b'5'), Some(rest)) =
        (exact.get(..count), exact.get(count), exact.get(count + 1..))
    else {
        return (digits, exponent);
    };
    if rest.iter().any(|&d| d != b'0') {
        return (digits, exponent);
    }
    // The two candidates are `kept` and `kept` + 1 in the last place; take the even one.
    let mut chosen = kept.to_vec();
    let mut chosen_exponent = exponent;
    if chosen.last().is_some_and(|d| (d - b'0') % 2 == 1) {
        let mut at = chosen.len();
        loop {
            if at == 0 {
                chosen.insert(0, b'1');
                chosen_exponent += 1;
                break;
            }
            at -= 1;
            match chosen.get_mut(at) {
                Some(digit) if *digit == b'9' => *digit = b'0',
                Some(digit) => {
                    *digit += 1;
                    break;
                }
                None => break,
            }
        }
    }
    while chosen.len() > 1 && chosen.last() == Some(&b'0') {
        chosen.pop();
    }
    let chosen = String::from_utf8(chosen).unwrap_or_default();
    // Only a candidate that reads back as the same float is valid.
    let (first, fraction) = chosen.split_at(1.min(chosen.len()));
    let round_trips = format!("{first}.{fraction}0e{chosen_exponent}")
        .parse::<f64>()
        .is_ok_and(|back| back == value.abs());
    if round_trips {
        (chosen, chosen_exponent)
    } else {
        (digits, exponent)
    }
}

/// Python's `repr` of a str given as code points (lone surrogates allowed), stopping once more
/// than `max_chars` chars are produced (enough for a later `clip`, without escaping megabytes).
fn repr_code_points<I>(code_points: I, max_chars: usize) -> String
where
    I: Iterator<Item = u32> + Clone,
{
    let has_single = code_points.clone().any(|c| c == u32::from('\''));
    let has_double = code_points.clone().any(|c| c == u32::from('"'));
    let quote = if has_single && !has_double { '"' } else { '\'' };
    let mut out = String::new();
    let mut produced = 1usize;
    out.push(quote);
    for code in code_points {
        if produced > max_chars {
            return out;
        }
        let before = out.len();
        push_repr_char(&mut out, code, quote);
        // Everything pushed is ASCII except a printable char kept as is (one char).
        produced += if out.is_char_boundary(before) && out[before..].is_ascii() {
            out.len() - before
        } else {
            1
        };
    }
    out.push(quote);
    out
}

/// One code point of a str repr, as CPython's `unicode_repr` writes it.
fn push_repr_char(out: &mut String, code: u32, quote: char) {
    let as_char = char::from_u32(code);
    match as_char {
        Some(c) if c == quote || c == '\\' => {
            out.push('\\');
            out.push(c);
        }
        Some('\t') => out.push_str("\\t"),
        Some('\n') => out.push_str("\\n"),
        Some('\r') => out.push_str("\\r"),
        Some(c) if code < 0x20 || code == 0x7f => out.push_str(&format!("\\x{:02x}", u32::from(c))),
        Some(c) if code < 0x7f => out.push(c),
        Some(c) if is_printable_non_ascii(code) => out.push(c),
        _ if code <= 0xff => out.push_str(&format!("\\x{code:02x}")),
        _ if code <= 0xffff => out.push_str(&format!("\\u{code:04x}")),
        _ => out.push_str(&format!("\\U{code:08x}")),
    }
}

/// Python's `str.isprintable()` for a code point >= 0x80.
fn is_printable_non_ascii(code: u32) -> bool {
    let index = PRINTABLE_NON_ASCII.partition_point(|&(_, last)| last < code);
    PRINTABLE_NON_ASCII
        .get(index)
        .is_some_and(|&(first, _)| first <= code)
}

/// A decoded JSON string.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum JsonText<'a> {
    /// Borrowed from the input when the string has no escapes.
    Text(Cow<'a, str>),
    /// Code points, only when the string holds a lone surrogate (no Rust `char` for it).
    WithSurrogates(Vec<u32>),
}

impl JsonText<'_> {
    /// The string as the reference prints it raw (key lists, paths); lone surrogates are
    /// replaced by U+FFFD since a Rust string cannot hold them.
    fn display(&self) -> Cow<'_, str> {
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
    fn clipped_repr(&self) -> String {
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
enum TextBuilder {
    Narrow(String),
    Wide(Vec<u32>),
}

impl TextBuilder {
    fn push_str(&mut self, run: &str) {
        match self {
            TextBuilder::Narrow(text) => text.push_str(run),
            TextBuilder::Wide(codes) => codes.extend(run.chars().map(u32::from)),
        }
    }

    fn push_code_point(&mut self, code: u32) {
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

    fn finish<'a>(self) -> JsonText<'a> {
        match self {
            TextBuilder::Narrow(text) => JsonText::Text(Cow::Owned(text)),
            TextBuilder::Wide(codes) => JsonText::WithSurrogates(codes),
        }
    }
}

type NodeId = usize;

struct ObjectNode<'a> {
    /// Number of distinct keys.
    len: usize,
    /// The first 10 distinct keys, in first-seen order.
    first_keys: Vec<JsonText<'a>>,
    /// The kept values, always a prefix of the distinct keys in order (dict order).
    children: Vec<(JsonText<'a>, NodeId)>,
}

/// A decoded value the synopsis may read. Containers only hold what the synopsis needs.
enum Node<'a> {
    /// Boxed so that the many small nodes of a deep document stay small.
    Object(Box<ObjectNode<'a>>),
    Array {
        len: usize,
        /// The kept items, always a prefix of the array.
        items: Vec<NodeId>,
    },
    Str(JsonText<'a>),
    /// The literal digits (JSON integers have no leading zeros, so they are Python's repr except `-0`).
    Int(&'a str),
    Float(f64),
    Bool(bool),
    Null,
}

impl Node<'_> {
    fn type_name(&self) -> &'static str {
        match self {
            Node::Object(_) => "object",
            Node::Array { .. } => "array",
            Node::Str(_) => "string",
            Node::Int(_) | Node::Float(_) => "number",
            Node::Bool(_) => "boolean",
            Node::Null => "null",
        }
    }

    fn is_container(&self) -> bool {
        matches!(self, Node::Object(_) | Node::Array { .. })
    }

    /// `clip(py_repr(v), 80)` of a scalar.
    fn clipped_repr(&self) -> String {
        let repr = match self {
            Node::Str(text) => return text.clipped_repr(),
            Node::Int(digits) if *digits == "-0" => "0".to_string(),
            Node::Int(digits) => (*digits).to_string(),
            Node::Float(value) => py_repr_float(*value),
            Node::Bool(true) => "True".to_string(),
            Node::Bool(false) => "False".to_string(),
            Node::Null => "None".to_string(),
            Node::Object(_) | Node::Array { .. } => String::new(),
        };
        clip(&repr, SCALAR_REPR_WIDTH as i64)
    }
}

fn join_keys(keys: &[JsonText<'_>]) -> String {
    keys.iter()
        .map(JsonText::display)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The kept nodes of a decoded document.
struct Tree<'a> {
    nodes: Vec<Node<'a>>,
    root: NodeId,
}

impl Tree<'_> {
    fn node(&self, id: NodeId) -> &Node<'_> {
        self.nodes.get(id).unwrap_or(&Node::Null)
    }

    fn synopsis(&self, trailing: usize) -> Synopsis {
        let mut synopsis = Synopsis::new("json", "JSON output");
        let root = self.node(self.root);
        synopsis.summary.push(format!("JSON {}.", root.type_name()));
        match root {
            Node::Object(object) => {
                synopsis
                    .summary
                    .push(format!("top-level keys: {}", join_keys(&object.first_keys)));
                synopsis
                    .structure
                    .push(format!("shape: {}", self.shape(self.root, 0)));
                for (key, child) in object.children.iter().take(KEY_LIST_LIMIT) {
                    let key = key.display();
                    synopsis.structure.push(match self.node(*child) {
                        Node::Array { len, .. } => format!("{key}: array length: {len}"),
                        Node::Object(child) => {
                            format!("{key}: object keys: {}", join_keys(&child.first_keys))
                        }
                        scalar => format!("{key}: {}", scalar.type_name()),
                    });
                }
            }
            Node::Array { len, items } => {
                synopsis.summary.push(format!("array length: {len}"));
                synopsis
                    .structure
                    .push(format!("shape: {}", self.shape(self.root, 0)));
                if let Some(first) = items.first() {
                    synopsis.structure.push(format!(
                        "first item type: {}",
                        self.node(*first).type_name()
                    ));
                }
            }
            _ => {}
        }
        synopsis.notable_items = self.scalar_examples();
        if trailing > 0 {
            synopsis
                .notable_items
                .push(format!("trailing_chars_after_first_json_value: {trailing}"));
        }
        synopsis
    }

    /// `shape(v, d)`. Recursion is bounded by `SHAPE_MAX_DEPTH`.
    fn shape(&self, id: NodeId, depth: usize) -> String {
        if depth >= SHAPE_MAX_DEPTH {
            return "...".to_string();
        }
        match self.node(id) {
            Node::Array { len: 0, .. } => "array(len=0)".to_string(),
            Node::Array { len, items } => {
                let samples: Vec<String> = (0..(*len).min(SHAPE_SAMPLE_ITEMS))
                    .map(|index| match items.get(index) {
                        Some(item) => self.shape(*item, depth + 1),
                        // Items below the shape depth are not kept: they print `...` anyway.
                        None => "...".to_string(),
                    })
                    .collect();
                format!("array(len={len}, sample=[{}])", samples.join(", "))
            }
            Node::Object(object) if object.len == 0 => "object(keys=0)".to_string(),
            Node::Object(object) => {
                format!(
                    "object(keys={}: {})",
                    object.len,
                    join_keys(&object.first_keys)
                )
            }
            scalar => scalar.type_name().to_string(),
        }
    }

    /// The first 5 scalars, depth first in dict order: an object visits every value (path
    /// `parent.key`, or `key` when the parent path is empty), an array only its first item
    /// (`parent[0]`); empty containers give nothing. Iterative, so any depth is fine.
    fn scalar_examples(&self) -> Vec<String> {
        enum Step<'t> {
            Key(&'t JsonText<'t>),
            FirstItem,
        }
        let mut examples = Vec::new();
        // Open containers with the index of their next child, and the path step into each.
        let mut open: Vec<(NodeId, usize)> = Vec::new();
        let mut steps: Vec<Step<'_>> = Vec::new();
        let emit = |steps: &[Step<'_>], node: &Node<'_>, examples: &mut Vec<String>| {
            let mut path = String::new();
            for step in steps {
                match step {
                    Step::Key(key) => {
                        if !path.is_empty() {
                            path.push('.');
                        }
                        path.push_str(&key.display());
                    }
                    Step::FirstItem => path.push_str("[0]"),
                }
            }
            examples.push(format!("{path}: {}", node.clipped_repr()));
        };
        let root = self.node(self.root);
        if root.is_container() {
            open.push((self.root, 0));
        } else {
            emit(&steps, root, &mut examples);
        }
        while examples.len() < SCALAR_EXAMPLES {
            let Some((id, next)) = open.last_mut() else {
                break;
            };
            let child = match self.node(*id) {
                Node::Object(object) => object
                    .children
                    .get(*next)
                    .map(|(key, child)| (Step::Key(key), *child)),
                Node::Array { items, .. } if *next == 0 => {
                    items.first().map(|item| (Step::FirstItem, *item))
                }
                _ => None,
            };
            *next += 1;
            let Some((step, child)) = child else {
                open.pop();
                // Every open container but the root entered through one step.
                if !open.is_empty() {
                    steps.pop();
                }
                continue;
            };
            steps.push(step);
            let child_node = self.node(child);
            if child_node.is_container() {
                open.push((child, 0));
            } else {
                emit(&steps, child_node, &mut examples);
                steps.pop();
            }
        }
        examples
    }
}

/// How much of the document to keep.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Assume no duplicate keys where they matter: stop keeping walk nodes once 5 scalars are
    /// kept (in document order they are the walk's first 5). A duplicate key in a walked object
    /// aborts with [`Stop::NeedsExact`].
    Fast,
    /// Keep every node the walk could reach and apply dict semantics to duplicate keys.
    Exact,
}

enum Stop {
    /// Python's decoder would raise.
    Invalid,
    /// A duplicate key where the fast mode cannot be exact.
    NeedsExact,
}

struct Decoded<'a> {
    tree: Tree<'a>,
    /// Byte offset just past the first value.
    end: usize,
}

/// A container being decoded.
struct OpenContainer<'a> {
    is_object: bool,
    /// The node when the container is kept.
    node: Option<NodeId>,
    /// Whether the scalar walk goes through this container.
    walked: bool,
    is_root: bool,
    /// Items so far (arrays).
    count: usize,
    /// Key bookkeeping, for kept objects only (boxed: most open containers are not kept).
    keys: Option<Box<KeyIndex<'a>>>,
}

/// The keys of a kept object being decoded.
#[derive(Default)]
struct KeyIndex<'a> {
    /// Distinct keys and their dict position.
    positions: HashMap<JsonText<'a>, usize, BuildHasherDefault<FxHasher>>,
    /// Key and dict position of the value being decoded.
    pending: Option<(JsonText<'a>, usize)>,
}

/// The multiply-rotate hash of rustc (FxHash) plus a final mix: keys are hashed for every kept object, and
/// SipHash's flooding resistance buys nothing for a one-shot decode.
#[derive(Default)]
struct FxHasher {
    hash: u64,
}

impl FxHasher {
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
        for &byte in chunks.remainder() {
            self.add(u64::from(byte));
        }
    }

    fn write_u8(&mut self, value: u8) {
        self.add(u64::from(value));
    }

    fn write_u32(&mut self, value: u32) {
        self.add(u64::from(value));
    }

    fn write_usize(&mut self, value: usize) {
        self.add(value as u64);
    }

    fn finish(&self) -> u64 {
        // The multiply only carries low bits upward and hashbrown indexes buckets by the low
        // bits: without this final avalanche (MurmurHash3's fmix64), keys differing only in
        // their last bytes ("key1", "key2") collide.
        let mut hash = self.hash;
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
        hash ^= hash >> 33;
        hash = hash.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        hash ^ (hash >> 33)
    }
}

/// Byte classes inside a string: `"`, `\` and control chars end a plain run.
const ENDS_STRING_RUN: [bool; 256] = {
    let mut table = [false; 256];
    let mut byte = 0;
    while byte < 0x20 {
        table[byte] = true;
        byte += 1;
    }
    table[b'"' as usize] = true;
    table[b'\\' as usize] = true;
    table
};

struct Decoder<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    mode: Mode,
    /// Scalars kept on the walk so far (fast mode stops keeping walk nodes at 5).
    walked_scalars: usize,
    nodes: Vec<Node<'a>>,
    stack: Vec<OpenContainer<'a>>,
}

impl<'a> Decoder<'a> {
    fn new(text: &'a str, mode: Mode) -> Self {
        Decoder {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            mode,
            walked_scalars: 0,
            nodes: Vec::new(),
            stack: Vec::new(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// JSON whitespace only (Python's `json` WS): space, `\t`, `\n`, `\r`.
    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn add_node(&mut self, node: Node<'a>) -> NodeId {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    fn walk_open(&self) -> bool {
        self.mode == Mode::Exact || self.walked_scalars < SCALAR_EXAMPLES
    }

    /// Whether the next value is kept and whether the walk goes through it. Kept: the root; the
    /// first 3 items of a top-level array (shape samples); the values of the first 10 top-level
    /// keys (structure lines); values on the walk (object values, first array items) while the
    /// walk may still need them. A kept node's parent is always kept.
    fn next_value_context(&self) -> (bool, bool) {
        let Some(parent) = self.stack.last() else {
            return (true, true);
        };
        let (walked, shown_by_parent) = if parent.is_object {
            let position = parent
                .keys
                .as_ref()
                .and_then(|keys| keys.pending.as_ref())
                .map_or(usize::MAX, |(_, at)| *at);
            (parent.walked, parent.is_root && position < KEY_LIST_LIMIT)
        } else {
            (
                parent.walked && parent.count == 0,
                parent.is_root && parent.count < SHAPE_SAMPLE_ITEMS,
            )
        };
        let kept = parent.node.is_some() && (shown_by_parent || (walked && self.walk_open()));
        (kept, walked)
    }

    fn run(mut self) -> Result<Decoded<'a>, Stop> {
        loop {
            let (kept, walked) = self.next_value_context();
            let next = self.peek().ok_or(Stop::Invalid)?;
            if matches!(next, b'{' | b'[') && self.stack.len() >= MAX_NESTING {
                return Err(Stop::Invalid);
            }
            let mut finished = match next {
                b'{' => {
                    self.pos += 1;
                    self.skip_whitespace();
                    let node = kept.then(|| {
                        self.add_node(Node::Object(Box::new(ObjectNode {
                            len: 0,
                            first_keys: Vec::new(),
                            children: Vec::new(),
                        })))
                    });
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                        node
                    } else {
                        self.stack.push(OpenContainer {
                            is_object: true,
                            node,
                            walked,
                            is_root: self.stack.is_empty(),
                            count: 0,
                            keys: node.map(|_| Box::default()),
                        });
                        self.read_key()?;
                        continue;
                    }
                }
                b'[' => {
                    self.pos += 1;
                    self.skip_whitespace();
                    let node = kept.then(|| {
                        self.add_node(Node::Array {
                            len: 0,
                            items: Vec::new(),
                        })
                    });
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        node
                    } else {
                        self.stack.push(OpenContainer {
                            is_object: false,
                            node,
                            walked,
                            is_root: self.stack.is_empty(),
                            count: 0,
                            keys: None,
                        });
                        continue;
                    }
                }
                _ => {
                    let scalar = self.read_scalar(kept)?;
                    if kept && walked {
                        self.walked_scalars += 1;
                    }
                    scalar.map(|node| self.add_node(node))
                }
            };
            // A value is complete: hand it to its container, then close containers as long as
            // their closing bracket follows.
            loop {
                if self.stack.is_empty() {
                    let tree = Tree {
                        nodes: self.nodes,
                        root: 0,
                    };
                    return Ok(Decoded {
                        tree,
                        end: self.pos,
                    });
                }
                self.attach(finished)?;
                self.skip_whitespace();
                let is_object = self.stack.last().is_some_and(|open| open.is_object);
                match (is_object, self.peek()) {
                    (_, Some(b',')) => {
                        self.pos += 1;
                        self.skip_whitespace();
                        if is_object {
                            self.read_key()?;
                        }
                        break;
                    }
                    (true, Some(b'}')) | (false, Some(b']')) => {
                        self.pos += 1;
                        finished = self.close()?;
                    }
                    _ => return Err(Stop::Invalid),
                }
            }
        }
    }

    /// Gives a complete value to the innermost open container.
    fn attach(&mut self, child: Option<NodeId>) -> Result<(), Stop> {
        let open = self.stack.last_mut().ok_or(Stop::Invalid)?;
        open.count += 1;
        let key = open.keys.as_mut().and_then(|keys| keys.pending.take());
        let (Some(parent), Some(child)) = (open.node, child) else {
            return Ok(());
        };
        match (self.nodes.get_mut(parent), key) {
            (Some(Node::Array { items, .. }), _) => items.push(child),
            (Some(Node::Object(object)), Some((key, position))) => {
                let children = &mut object.children;
                if let Some(slot) = children.get_mut(position) {
                    // A repeated key: the first position keeps its key and takes the new value.
                    slot.1 = child;
                } else if position == children.len() {
                    children.push((key, child));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Pops the innermost container, recording its final length; returns its node.
    fn close(&mut self) -> Result<Option<NodeId>, Stop> {
        let open = self.stack.pop().ok_or(Stop::Invalid)?;
        if let Some(id) = open.node {
            match self.nodes.get_mut(id) {
                Some(Node::Object(object)) => {
                    object.len = open.keys.map_or(0, |keys| keys.positions.len());
                }
                Some(Node::Array { len, .. }) => *len = open.count,
                _ => {}
            }
        }
        Ok(open.node)
    }

    /// Reads `"key"`, whitespace, `:`, whitespace for the innermost (object) container.
    fn read_key(&mut self) -> Result<(), Stop> {
        if self.peek() != Some(b'"') {
            return Err(Stop::Invalid);
        }
        let kept = self.stack.last().is_some_and(|open| open.keys.is_some());
        if kept {
            let key = self.read_string()?;
            let mode = self.mode;
            let open = self.stack.last_mut().ok_or(Stop::Invalid)?;
            let Some(keys) = open.keys.as_mut() else {
                return Err(Stop::Invalid);
            };
            let next_position = keys.positions.len();
            let position = *keys.positions.entry(key.clone()).or_insert(next_position);
            if position != next_position && mode == Mode::Fast && open.walked {
                return Err(Stop::NeedsExact);
            }
            if position == next_position && position < KEY_LIST_LIMIT {
                if let Some(Node::Object(object)) = open.node.and_then(|id| self.nodes.get_mut(id))
                {
                    object.first_keys.push(key.clone());
                }
            }
            keys.pending = Some((key, position));
        } else {
            self.skip_string()?;
        }
        self.skip_whitespace();
        if self.peek() != Some(b':') {
            return Err(Stop::Invalid);
        }
        self.pos += 1;
        self.skip_whitespace();
        Ok(())
    }

    /// Reads a string, number or literal; returns its node when `kept`.
    fn read_scalar(&mut self, kept: bool) -> Result<Option<Node<'a>>, Stop> {
        let bytes = self.bytes;
        let rest = bytes.get(self.pos..).unwrap_or_default();
        let literal: Option<(&[u8], Node<'a>)> = match rest.first() {
            Some(b'"') => {
                return if kept {
                    Ok(Some(Node::Str(self.read_string()?)))
                } else {
                    self.skip_string().map(|()| None)
                };
            }
            Some(b'n') => Some((b"null", Node::Null)),
            Some(b't') => Some((b"true", Node::Bool(true))),
            Some(b'f') => Some((b"false", Node::Bool(false))),
            Some(b'N') => Some((b"NaN", Node::Float(f64::NAN))),
            Some(b'I') => Some((b"Infinity", Node::Float(f64::INFINITY))),
            Some(b'-') if rest.starts_with(b"-Infinity") => {
                Some((b"-Infinity", Node::Float(f64::NEG_INFINITY)))
            }
            _ => None,
        };
        if let Some((spelling, node)) = literal {
            if !rest.starts_with(spelling) {
                return Err(Stop::Invalid);
            }
            self.pos += spelling.len();
            return Ok(kept.then_some(node));
        }
        let start = self.pos;
        let is_float = self.scan_number()?;
        if !kept {
            return Ok(None);
        }
        let literal = self.text.get(start..self.pos).ok_or(Stop::Invalid)?;
        Ok(Some(if is_float {
            // Rust's parse rounds correctly like Python's float() and overflows to inf.
            Node::Float(literal.parse().map_err(|_| Stop::Invalid)?)
        } else {
            Node::Int(literal)
        }))
    }

    /// Advances over a number as CPython's `_match_number_unicode` does; returns whether it is
    /// a float (has a fraction or an exponent).
    fn scan_number(&mut self) -> Result<bool, Stop> {
        let digit_at = |at: usize| self.bytes.get(at).is_some_and(u8::is_ascii_digit);
        let mut at = self.pos;
        if self.bytes.get(at) == Some(&b'-') {
            at += 1;
        }
        let int_start = at;
        match self.bytes.get(at) {
            Some(b'0') => at += 1,
            Some(b'1'..=b'9') => {
                while digit_at(at) {
                    at += 1;
                }
            }
            _ => return Err(Stop::Invalid),
        }
        let int_digits = at - int_start;
        let mut is_float = false;
        if self.bytes.get(at) == Some(&b'.') && digit_at(at + 1) {
            is_float = true;
            at += 1;
            while digit_at(at) {
                at += 1;
            }
        }
        if matches!(self.bytes.get(at), Some(b'e' | b'E')) {
            let mut exponent = at + 1;
            if matches!(self.bytes.get(exponent), Some(b'+' | b'-')) {
                exponent += 1;
            }
            let digits_start = exponent;
            while digit_at(exponent) {
                exponent += 1;
            }
            // Without exponent digits the `e` is not part of the number (backtrack).
            if exponent > digits_start {
                is_float = true;
                at = exponent;
            }
        }
        if !is_float && int_digits > PY_INT_MAX_STR_DIGITS {
            return Err(Stop::Invalid);
        }
        self.pos = at;
        Ok(is_float)
    }

    /// Index just past the plain run (no `"`, `\`, control char) starting at `at`: 8 bytes at a
    /// time, then byte by byte (every string of the document goes through here).
    fn plain_run_end(&self, mut at: usize) -> usize {
        while let Some(word) = self.bytes.get(at..at + 8) {
            let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
            let ends = swar::bytes_equal(word, b'"')
                | swar::bytes_equal(word, b'\\')
                | swar::bytes_below(word, 0x20);
            if ends != 0 {
                return at + (ends.trailing_zeros() / 8) as usize;
            }
            at += 8;
        }
        while let Some(&byte) = self.bytes.get(at) {
            if ENDS_STRING_RUN[usize::from(byte)] {
                break;
            }
            at += 1;
        }
        at
    }

    /// Four hex digits at `at`, as Python's scanner reads them.
    fn hex4(&self, at: usize) -> Result<u32, Stop> {
        let digits = self.bytes.get(at..at + 4).ok_or(Stop::Invalid)?;
        digits.iter().try_fold(0u32, |value, &byte| {
            let digit = char::from(byte).to_digit(16).ok_or(Stop::Invalid)?;
            Ok(value * 16 + digit)
        })
    }

    /// Validates a string at `self.pos` (an opening quote) without decoding it.
    fn skip_string(&mut self) -> Result<(), Stop> {
        let mut at = self.pos + 1;
        loop {
            at = self.plain_run_end(at);
            match self.bytes.get(at) {
                Some(b'"') => {
                    self.pos = at + 1;
                    return Ok(());
                }
                Some(b'\\') => match self.bytes.get(at + 1) {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => at += 2,
                    Some(b'u') => {
                        self.hex4(at + 2)?;
                        at += 6;
                    }
                    _ => return Err(Stop::Invalid),
                },
                // A raw control char or the end of the input.
                _ => return Err(Stop::Invalid),
            }
        }
    }

    /// Decodes a string at `self.pos` (an opening quote).
    fn read_string(&mut self) -> Result<JsonText<'a>, Stop> {
        let start = self.pos + 1;
        let mut at = self.plain_run_end(start);
        if self.bytes.get(at) == Some(&b'"') {
            let text = self.text.get(start..at).ok_or(Stop::Invalid)?;
            self.pos = at + 1;
            return Ok(JsonText::Text(Cow::Borrowed(text)));
        }
        let mut builder = TextBuilder::Narrow(String::new());
        builder.push_str(self.text.get(start..at).ok_or(Stop::Invalid)?);
        loop {
            match self.bytes.get(at) {
                Some(b'"') => {
                    self.pos = at + 1;
                    return Ok(builder.finish());
                }
                Some(b'\\') => {
                    let simple = match self.bytes.get(at + 1) {
                        Some(b'"') => Some('"'),
                        Some(b'\\') => Some('\\'),
                        Some(b'/') => Some('/'),
                        Some(b'b') => Some('\u{8}'),
                        Some(b'f') => Some('\u{c}'),
                        Some(b'n') => Some('\n'),
                        Some(b'r') => Some('\r'),
                        Some(b't') => Some('\t'),
                        Some(b'u') => None,
                        _ => return Err(Stop::Invalid),
                    };
                    if let Some(c) = simple {
                        builder.push_code_point(u32::from(c));
                        at += 2;
                    } else {
                        let mut code = self.hex4(at + 2)?;
                        at += 6;
                        // A high surrogate escape directly followed by a low surrogate escape
                        // is one code point; anything else leaves it lone.
                        if (0xd800..=0xdbff).contains(&code)
                            && self.bytes.get(at..at + 2) == Some(b"\\u".as_slice())
                        {
                            if let Ok(low @ 0xdc00..=0xdfff) = self.hex4(at + 2) {
                                code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
                                at += 6;
                            }
                        }
                        builder.push_code_point(code);
                    }
                }
                _ => return Err(Stop::Invalid),
            }
            let run_end = self.plain_run_end(at);
            builder.push_str(self.text.get(at..run_end).ok_or(Stop::Invalid)?);
            at = run_end;
        }
    }
}

/// Ranges of non-ASCII code points for which Python 3.11's `str.isprintable()` is true (Unicode
/// 14.0; generated with `unicodedata`): every other non-ASCII code point is escaped by `repr`.
const PRINTABLE_NON_ASCII: [(u32, u32); 699] = [
    (0xA1, 0xAC),
    (0xAE, 0x377),
    (0x37A, 0x37F),
    (0x384, 0x38A),
    (0x38C, 0x38C),
    (0x38E, 0x3A1),
    (0x3A3, 0x52F),
    (0x531, 0x556),
    (0x559, 0x58A),
    (0x58D, 0x58F),
    (0x591, 0x5C7),
    (0x5D0, 0x5EA),
    (0x5EF, 0x5F4),
    (0x606, 0x61B),
    (0x61D, 0x6DC),
    (0x6DE, 0x70D),
    (0x710, 0x74A),
    (0x74D, 0x7B1),
    (0x7C0, 0x7FA),
    (0x7FD, 0x82D),
    (0x830, 0x83E),
    (0x840, 0x85B),
    (0x85E, 0x85E),
    (0x860, 0x86A),
    (0x870, 0x88E),
    (0x898, 0x8E1),
    (0x8E3, 0x983),
    (0x985, 0x98C),
    (0x98F, 0x990),
    (0x993, 0x9A8),
    (0x9AA, 0x9B0),
    (0x9B2, 0x9B2),
    (0x9B6, 0x9B9),
    (0x9BC, 0x9C4),
    (0x9C7, 0x9C8),
    (0x9CB, 0x9CE),
    (0x9D7, 0x9D7),
    (0x9DC, 0x9DD),
    (0x9DF, 0x9E3),
    (0x9E6, 0x9FE),
    (0xA01, 0xA03),
    (0xA05, 0xA0A),
    (0xA0F, 0xA10),
    (0xA13, 0xA28),
    (0xA2A, 0xA30),
    (0xA32, 0xA33),
    (0xA35, 0xA36),
    (0xA38, 0xA39),
    (0xA3C, 0xA3C),
    (0xA3E, 0xA42),
    (0xA47, 0xA48),
    (0xA4B, 0xA4D),
    (0xA51, 0xA51),
    (0xA59, 0xA5C),
    (0xA5E, 0xA5E),
    (0xA66, 0xA76),
    (0xA81, 0xA83),
    (0xA85, 0xA8D),
    (0xA8F, 0xA91),
    (0xA93, 0xAA8),
    (0xAAA, 0xAB0),
    (0xAB2, 0xAB3),
    (0xAB5, 0xAB9),
    (0xABC, 0xAC5),
    (0xAC7, 0xAC9),
    (0xACB, 0xACD),
    (0xAD0, 0xAD0),
    (0xAE0, 0xAE3),
    (0xAE6, 0xAF1),
    (0xAF9, 0xAFF),
    (0xB01, 0xB03),
    (0xB05, 0xB0C),
    (0xB0F, 0xB10),
    (0xB13, 0xB28),
    (0xB2A, 0xB30),
    (0xB32, 0xB33),
    (0xB35, 0xB39),
    (0xB3C, 0xB44),
    (0xB47, 0xB48),
    (0xB4B, 0xB4D),
    (0xB55, 0xB57),
    (0xB5C, 0xB5D),
    (0xB5F, 0xB63),
    (0xB66, 0xB77),
    (0xB82, 0xB83),
    (0xB85, 0xB8A),
    (0xB8E, 0xB90),
    (0xB92, 0xB95),
    (0xB99, 0xB9A),
    (0xB9C, 0xB9C),
    (0xB9E, 0xB9F),
    (0xBA3, 0xBA4),
    (0xBA8, 0xBAA),
    (0xBAE, 0xBB9),
    (0xBBE, 0xBC2),
    (0xBC6, 0xBC8),
    (0xBCA, 0xBCD),
    (0xBD0, 0xBD0),
    (0xBD7, 0xBD7),
    (0xBE6, 0xBFA),
    (0xC00, 0xC0C),
    (0xC0E, 0xC10),
    (0xC12, 0xC28),
    (0xC2A, 0xC39),
    (0xC3C, 0xC44),
    (0xC46, 0xC48),
    (0xC4A, 0xC4D),
    (0xC55, 0xC56),
    (0xC58, 0xC5A),
    (0xC5D, 0xC5D),
    (0xC60, 0xC63),
    (0xC66, 0xC6F),
    (0xC77, 0xC8C),
    (0xC8E, 0xC90),
    (0xC92, 0xCA8),
    (0xCAA, 0xCB3),
    (0xCB5, 0xCB9),
    (0xCBC, 0xCC4),
    (0xCC6, 0xCC8),
    (0xCCA, 0xCCD),
    (0xCD5, 0xCD6),
    (0xCDD, 0xCDE),
    (0xCE0, 0xCE3),
    (0xCE6, 0xCEF),
    (0xCF1, 0xCF2),
    (0xD00, 0xD0C),
    (0xD0E, 0xD10),
    (0xD12, 0xD44),
    (0xD46, 0xD48),
    (0xD4A, 0xD4F),
    (0xD54, 0xD63),
    (0xD66, 0xD7F),
    (0xD81, 0xD83),
    (0xD85, 0xD96),
    (0xD9A, 0xDB1),
    (0xDB3, 0xDBB),
    (0xDBD, 0xDBD),
    (0xDC0, 0xDC6),
    (0xDCA, 0xDCA),
    (0xDCF, 0xDD4),
    (0xDD6, 0xDD6),
    (0xDD8, 0xDDF),
    (0xDE6, 0xDEF),
    (0xDF2, 0xDF4),
    (0xE01, 0xE3A),
    (0xE3F, 0xE5B),
    (0xE81, 0xE82),
    (0xE84, 0xE84),
    (0xE86, 0xE8A),
    (0xE8C, 0xEA3),
    (0xEA5, 0xEA5),
    (0xEA7, 0xEBD),
    (0xEC0, 0xEC4),
    (0xEC6, 0xEC6),
    (0xEC8, 0xECD),
    (0xED0, 0xED9),
    (0xEDC, 0xEDF),
    (0xF00, 0xF47),
    (0xF49, 0xF6C),
    (0xF71, 0xF97),
    (0xF99, 0xFBC),
    (0xFBE, 0xFCC),
    (0xFCE, 0xFDA),
    (0x1000, 0x10C5),
    (0x10C7, 0x10C7),
    (0x10CD, 0x10CD),
    (0x10D0, 0x1248),
    (0x124A, 0x124D),
    (0x1250, 0x1256),
    (0x1258, 0x1258),
    (0x125A, 0x125D),
    (0x1260, 0x1288),
    (0x128A, 0x128D),
    (0x1290, 0x12B0),
    (0x12B2, 0x12B5),
    (0x12B8, 0x12BE),
    (0x12C0, 0x12C0),
    (0x12C2, 0x12C5),
    (0x12C8, 0x12D6),
    (0x12D8, 0x1310),
    (0x1312, 0x1315),
    (0x1318, 0x135A),
    (0x135D, 0x137C),
    (0x1380, 0x1399),
    (0x13A0, 0x13F5),
    (0x13F8, 0x13FD),
    (0x1400, 0x167F),
    (0x1681, 0x169C),
    (0x16A0, 0x16F8),
    (0x1700, 0x1715),
    (0x171F, 0x1736),
    (0x1740, 0x1753),
    (0x1760, 0x176C),
    (0x176E, 0x1770),
    (0x1772, 0x1773),
    (0x1780, 0x17DD),
    (0x17E0, 0x17E9),
    (0x17F0, 0x17F9),
    (0x1800, 0x180D),
    (0x180F, 0x1819),
    (0x1820, 0x1878),
    (0x1880, 0x18AA),
    (0x18B0, 0x18F5),
    (0x1900, 0x191E),
    (0x1920, 0x192B),
    (0x1930, 0x193B),
    (0x1940, 0x1940),
    (0x1944, 0x196D),
    (0x1970, 0x1974),
    (0x1980, 0x19AB),
    (0x19B0, 0x19C9),
    (0x19D0, 0x19DA),
    (0x19DE, 0x1A1B),
    (0x1A1E, 0x1A5E),
    (0x1A60, 0x1A7C),
    (0x1A7F, 0x1A89),
    (0x1A90, 0x1A99),
    (0x1AA0, 0x1AAD),
    (0x1AB0, 0x1ACE),
    (0x1B00, 0x1B4C),
    (0x1B50, 0x1B7E),
    (0x1B80, 0x1BF3),
    (0x1BFC, 0x1C37),
    (0x1C3B, 0x1C49),
    (0x1C4D, 0x1C88),
    (0x1C90, 0x1CBA),
    (0x1CBD, 0x1CC7),
    (0x1CD0, 0x1CFA),
    (0x1D00, 0x1F15),
    (0x1F18, 0x1F1D),
    (0x1F20, 0x1F45),
    (0x1F48, 0x1F4D),
    (0x1F50, 0x1F57),
    (0x1F59, 0x1F59),
    (0x1F5B, 0x1F5B),
    (0x1F5D, 0x1F5D),
    (0x1F5F, 0x1F7D),
    (0x1F80, 0x1FB4),
    (0x1FB6, 0x1FC4),
    (0x1FC6, 0x1FD3),
    (0x1FD6, 0x1FDB),
    (0x1FDD, 0x1FEF),
    (0x1FF2, 0x1FF4),
    (0x1FF6, 0x1FFE),
    (0x2010, 0x2027),
    (0x2030, 0x205E),
    (0x2070, 0x2071),
    (0x2074, 0x208E),
    (0x2090, 0x209C),
    (0x20A0, 0x20C0),
    (0x20D0, 0x20F0),
    (0x2100, 0x218B),
    (0x2190, 0x2426),
    (0x2440, 0x244A),
    (0x2460, 0x2B73),
    (0x2B76, 0x2B95),
    (0x2B97, 0x2CF3),
    (0x2CF9, 0x2D25),
    (0x2D27, 0x2D27),
    (0x2D2D, 0x2D2D),
    (0x2D30, 0x2D67),
    (0x2D6F, 0x2D70),
    (0x2D7F, 0x2D96),
    (0x2DA0, 0x2DA6),
    (0x2DA8, 0x2DAE),
    (0x2DB0, 0x2DB6),
    (0x2DB8, 0x2DBE),
    (0x2DC0, 0x2DC6),
    (0x2DC8, 0x2DCE),
    (0x2DD0, 0x2DD6),
    (0x2DD8, 0x2DDE),
    (0x2DE0, 0x2E5D),
    (0x2E80, 0x2E99),
    (0x2E9B, 0x2EF3),
    (0x2F00, 0x2FD5),
    (0x2FF0, 0x2FFB),
    (0x3001, 0x303F),
    (0x3041, 0x3096),
    (0x3099, 0x30FF),
    (0x3105, 0x312F),
    (0x3131, 0x318E),
    (0x3190, 0x31E3),
    (0x31F0, 0x321E),
    (0x3220, 0xA48C),
    (0xA490, 0xA4C6),
    (0xA4D0, 0xA62B),
    (0xA640, 0xA6F7),
    (0xA700, 0xA7CA),
    (0xA7D0, 0xA7D1),
    (0xA7D3, 0xA7D3),
    (0xA7D5, 0xA7D9),
    (0xA7F2, 0xA82C),
    (0xA830, 0xA839),
    (0xA840, 0xA877),
    (0xA880, 0xA8C5),
    (0xA8CE, 0xA8D9),
    (0xA8E0, 0xA953),
    (0xA95F, 0xA97C),
    (0xA980, 0xA9CD),
    (0xA9CF, 0xA9D9),
    (0xA9DE, 0xA9FE),
    (0xAA00, 0xAA36),
    (0xAA40, 0xAA4D),
    (0xAA50, 0xAA59),
    (0xAA5C, 0xAAC2),
    (0xAADB, 0xAAF6),
    (0xAB01, 0xAB06),
    (0xAB09, 0xAB0E),
    (0xAB11, 0xAB16),
    (0xAB20, 0xAB26),
    (0xAB28, 0xAB2E),
    (0xAB30, 0xAB6B),
    (0xAB70, 0xABED),
    (0xABF0, 0xABF9),
    (0xAC00, 0xD7A3),
    (0xD7B0, 0xD7C6),
    (0xD7CB, 0xD7FB),
    (0xF900, 0xFA6D),
    (0xFA70, 0xFAD9),
    (0xFB00, 0xFB06),
    (0xFB13, 0xFB17),
    (0xFB1D, 0xFB36),
    (0xFB38, 0xFB3C),
    (0xFB3E, 0xFB3E),
    (0xFB40, 0xFB41),
    (0xFB43, 0xFB44),
    (0xFB46, 0xFBC2),
    (0xFBD3, 0xFD8F),
    (0xFD92, 0xFDC7),
    (0xFDCF, 0xFDCF),
    (0xFDF0, 0xFE19),
    (0xFE20, 0xFE52),
    (0xFE54, 0xFE66),
    (0xFE68, 0xFE6B),
    (0xFE70, 0xFE74),
    (0xFE76, 0xFEFC),
    (0xFF01, 0xFFBE),
    (0xFFC2, 0xFFC7),
    (0xFFCA, 0xFFCF),
    (0xFFD2, 0xFFD7),
    (0xFFDA, 0xFFDC),
    (0xFFE0, 0xFFE6),
    (0xFFE8, 0xFFEE),
    (0xFFFC, 0xFFFD),
    (0x10000, 0x1000B),
    (0x1000D, 0x10026),
    (0x10028, 0x1003A),
    (0x1003C, 0x1003D),
    (0x1003F, 0x1004D),
    (0x10050, 0x1005D),
    (0x10080, 0x100FA),
    (0x10100, 0x10102),
    (0x10107, 0x10133),
    (0x10137, 0x1018E),
    (0x10190, 0x1019C),
    (0x101A0, 0x101A0),
    (0x101D0, 0x101FD),
    (0x10280, 0x1029C),
    (0x102A0, 0x102D0),
    (0x102E0, 0x102FB),
    (0x10300, 0x10323),
    (0x1032D, 0x1034A),
    (0x10350, 0x1037A),
    (0x10380, 0x1039D),
    (0x1039F, 0x103C3),
    (0x103C8, 0x103D5),
    (0x10400, 0x1049D),
    (0x104A0, 0x104A9),
    (0x104B0, 0x104D3),
    (0x104D8, 0x104FB),
    (0x10500, 0x10527),
    (0x10530, 0x10563),
    (0x1056F, 0x1057A),
    (0x1057C, 0x1058A),
    (0x1058C, 0x10592),
    (0x10594, 0x10595),
    (0x10597, 0x105A1),
    (0x105A3, 0x105B1),
    (0x105B3, 0x105B9),
    (0x105BB, 0x105BC),
    (0x10600, 0x10736),
    (0x10740, 0x10755),
    (0x10760, 0x10767),
    (0x10780, 0x10785),
    (0x10787, 0x107B0),
    (0x107B2, 0x107BA),
    (0x10800, 0x10805),
    (0x10808, 0x10808),
    (0x1080A, 0x10835),
    (0x10837, 0x10838),
    (0x1083C, 0x1083C),
    (0x1083F, 0x10855),
    (0x10857, 0x1089E),
    (0x108A7, 0x108AF),
    (0x108E0, 0x108F2),
    (0x108F4, 0x108F5),
    (0x108FB, 0x1091B),
    (0x1091F, 0x10939),
    (0x1093F, 0x1093F),
    (0x10980, 0x109B7),
    (0x109BC, 0x109CF),
    (0x109D2, 0x10A03),
    (0x10A05, 0x10A06),
    (0x10A0C, 0x10A13),
    (0x10A15, 0x10A17),
    (0x10A19, 0x10A35),
    (0x10A38, 0x10A3A),
    (0x10A3F, 0x10A48),
    (0x10A50, 0x10A58),
    (0x10A60, 0x10A9F),
    (0x10AC0, 0x10AE6),
    (0x10AEB, 0x10AF6),
    (0x10B00, 0x10B35),
    (0x10B39, 0x10B55),
    (0x10B58, 0x10B72),
    (0x10B78, 0x10B91),
    (0x10B99, 0x10B9C),
    (0x10BA9, 0x10BAF),
    (0x10C00, 0x10C48),
    (0x10C80, 0x10CB2),
    (0x10CC0, 0x10CF2),
    (0x10CFA, 0x10D27),
    (0x10D30, 0x10D39),
    (0x10E60, 0x10E7E),
    (0x10E80, 0x10EA9),
    (0x10EAB, 0x10EAD),
    (0x10EB0, 0x10EB1),
    (0x10F00, 0x10F27),
    (0x10F30, 0x10F59),
    (0x10F70, 0x10F89),
    (0x10FB0, 0x10FCB),
    (0x10FE0, 0x10FF6),
    (0x11000, 0x1104D),
    (0x11052, 0x11075),
    (0x1107F, 0x110BC),
    (0x110BE, 0x110C2),
    (0x110D0, 0x110E8),
    (0x110F0, 0x110F9),
    (0x11100, 0x11134),
    (0x11136, 0x11147),
    (0x11150, 0x11176),
    (0x11180, 0x111DF),
    (0x111E1, 0x111F4),
    (0x11200, 0x11211),
    (0x11213, 0x1123E),
    (0x11280, 0x11286),
    (0x11288, 0x11288),
    (0x1128A, 0x1128D),
    (0x1128F, 0x1129D),
    (0x1129F, 0x112A9),
    (0x112B0, 0x112EA),
    (0x112F0, 0x112F9),
    (0x11300, 0x11303),
    (0x11305, 0x1130C),
    (0x1130F, 0x11310),
    (0x11313, 0x11328),
    (0x1132A, 0x11330),
    (0x11332, 0x11333),
    (0x11335, 0x11339),
    (0x1133B, 0x11344),
    (0x11347, 0x11348),
    (0x1134B, 0x1134D),
    (0x11350, 0x11350),
    (0x11357, 0x11357),
    (0x1135D, 0x11363),
    (0x11366, 0x1136C),
    (0x11370, 0x11374),
    (0x11400, 0x1145B),
    (0x1145D, 0x11461),
    (0x11480, 0x114C7),
    (0x114D0, 0x114D9),
    (0x11580, 0x115B5),
    (0x115B8, 0x115DD),
    (0x11600, 0x11644),
    (0x11650, 0x11659),
    (0x11660, 0x1166C),
    (0x11680, 0x116B9),
    (0x116C0, 0x116C9),
    (0x11700, 0x1171A),
    (0x1171D, 0x1172B),
    (0x11730, 0x11746),
    (0x11800, 0x1183B),
    (0x118A0, 0x118F2),
    (0x118FF, 0x11906),
    (0x11909, 0x11909),
    (0x1190C, 0x11913),
    (0x11915, 0x11916),
    (0x11918, 0x11935),
    (0x11937, 0x11938),
    (0x1193B, 0x11946),
    (0x11950, 0x11959),
    (0x119A0, 0x119A7),
    (0x119AA, 0x119D7),
    (0x119DA, 0x119E4),
    (0x11A00, 0x11A47),
    (0x11A50, 0x11AA2),
    (0x11AB0, 0x11AF8),
    (0x11C00, 0x11C08),
    (0x11C0A, 0x11C36),
    (0x11C38, 0x11C45),
    (0x11C50, 0x11C6C),
    (0x11C70, 0x11C8F),
    (0x11C92, 0x11CA7),
    (0x11CA9, 0x11CB6),
    (0x11D00, 0x11D06),
    (0x11D08, 0x11D09),
    (0x11D0B, 0x11D36),
    (0x11D3A, 0x11D3A),
    (0x11D3C, 0x11D3D),
    (0x11D3F, 0x11D47),
    (0x11D50, 0x11D59),
    (0x11D60, 0x11D65),
    (0x11D67, 0x11D68),
    (0x11D6A, 0x11D8E),
    (0x11D90, 0x11D91),
    (0x11D93, 0x11D98),
    (0x11DA0, 0x11DA9),
    (0x11EE0, 0x11EF8),
    (0x11FB0, 0x11FB0),
    (0x11FC0, 0x11FF1),
    (0x11FFF, 0x12399),
    (0x12400, 0x1246E),
    (0x12470, 0x12474),
    (0x12480, 0x12543),
    (0x12F90, 0x12FF2),
    (0x13000, 0x1342E),
    (0x14400, 0x14646),
    (0x16800, 0x16A38),
    (0x16A40, 0x16A5E),
    (0x16A60, 0x16A69),
    (0x16A6E, 0x16ABE),
    (0x16AC0, 0x16AC9),
    (0x16AD0, 0x16AED),
    (0x16AF0, 0x16AF5),
    (0x16B00, 0x16B45),
    (0x16B50, 0x16B59),
    (0x16B5B, 0x16B61),
    (0x16B63, 0x16B77),
    (0x16B7D, 0x16B8F),
    (0x16E40, 0x16E9A),
    (0x16F00, 0x16F4A),
    (0x16F4F, 0x16F87),
    (0x16F8F, 0x16F9F),
    (0x16FE0, 0x16FE4),
    (0x16FF0, 0x16FF1),
    (0x17000, 0x187F7),
    (0x18800, 0x18CD5),
    (0x18D00, 0x18D08),
    (0x1AFF0, 0x1AFF3),
    (0x1AFF5, 0x1AFFB),
    (0x1AFFD, 0x1AFFE),
    (0x1B000, 0x1B122),
    (0x1B150, 0x1B152),
    (0x1B164, 0x1B167),
    (0x1B170, 0x1B2FB),
    (0x1BC00, 0x1BC6A),
    (0x1BC70, 0x1BC7C),
    (0x1BC80, 0x1BC88),
    (0x1BC90, 0x1BC99),
    (0x1BC9C, 0x1BC9F),
    (0x1CF00, 0x1CF2D),
    (0x1CF30, 0x1CF46),
    (0x1CF50, 0x1CFC3),
    (0x1D000, 0x1D0F5),
    (0x1D100, 0x1D126),
    (0x1D129, 0x1D172),
    (0x1D17B, 0x1D1EA),
    (0x1D200, 0x1D245),
    (0x1D2E0, 0x1D2F3),
    (0x1D300, 0x1D356),
    (0x1D360, 0x1D378),
    (0x1D400, 0x1D454),
    (0x1D456, 0x1D49C),
    (0x1D49E, 0x1D49F),
    (0x1D4A2, 0x1D4A2),
    (0x1D4A5, 0x1D4A6),
    (0x1D4A9, 0x1D4AC),
    (0x1D4AE, 0x1D4B9),
    (0x1D4BB, 0x1D4BB),
    (0x1D4BD, 0x1D4C3),
    (0x1D4C5, 0x1D505),
    (0x1D507, 0x1D50A),
    (0x1D50D, 0x1D514),
    (0x1D516, 0x1D51C),
    (0x1D51E, 0x1D539),
    (0x1D53B, 0x1D53E),
    (0x1D540, 0x1D544),
    (0x1D546, 0x1D546),
    (0x1D54A, 0x1D550),
    (0x1D552, 0x1D6A5),
    (0x1D6A8, 0x1D7CB),
    (0x1D7CE, 0x1DA8B),
    (0x1DA9B, 0x1DA9F),
    (0x1DAA1, 0x1DAAF),
    (0x1DF00, 0x1DF1E),
    (0x1E000, 0x1E006),
    (0x1E008, 0x1E018),
    (0x1E01B, 0x1E021),
    (0x1E023, 0x1E024),
    (0x1E026, 0x1E02A),
    (0x1E100, 0x1E12C),
    (0x1E130, 0x1E13D),
    (0x1E140, 0x1E149),
    (0x1E14E, 0x1E14F),
    (0x1E290, 0x1E2AE),
    (0x1E2C0, 0x1E2F9),
    (0x1E2FF, 0x1E2FF),
    (0x1E7E0, 0x1E7E6),
    (0x1E7E8, 0x1E7EB),
    (0x1E7ED, 0x1E7EE),
    (0x1E7F0, 0x1E7FE),
    (0x1E800, 0x1E8C4),
    (0x1E8C7, 0x1E8D6),
    (0x1E900, 0x1E94B),
    (0x1E950, 0x1E959),
    (0x1E95E, 0x1E95F),
    (0x1EC71, 0x1ECB4),
    (0x1ED01, 0x1ED3D),
    (0x1EE00, 0x1EE03),
    (0x1EE05, 0x1EE1F),
    (0x1EE21, 0x1EE22),
    (0x1EE24, 0x1EE24),
    (0x1EE27, 0x1EE27),
    (0x1EE29, 0x1EE32),
    (0x1EE34, 0x1EE37),
    (0x1EE39, 0x1EE39),
    (0x1EE3B, 0x1EE3B),
    (0x1EE42, 0x1EE42),
    (0x1EE47, 0x1EE47),
    (0x1EE49, 0x1EE49),
    (0x1EE4B, 0x1EE4B),
    (0x1EE4D, 0x1EE4F),
    (0x1EE51, 0x1EE52),
    (0x1EE54, 0x1EE54),
    (0x1EE57, 0x1EE57),
    (0x1EE59, 0x1EE59),
    (0x1EE5B, 0x1EE5B),
    (0x1EE5D, 0x1EE5D),
    (0x1EE5F, 0x1EE5F),
    (0x1EE61, 0x1EE62),
    (0x1EE64, 0x1EE64),
    (0x1EE67, 0x1EE6A),
    (0x1EE6C, 0x1EE72),
    (0x1EE74, 0x1EE77),
    (0x1EE79, 0x1EE7C),
    (0x1EE7E, 0x1EE7E),
    (0x1EE80, 0x1EE89),
    (0x1EE8B, 0x1EE9B),
    (0x1EEA1, 0x1EEA3),
    (0x1EEA5, 0x1EEA9),
    (0x1EEAB, 0x1EEBB),
    (0x1EEF0, 0x1EEF1),
    (0x1F000, 0x1F02B),
    (0x1F030, 0x1F093),
    (0x1F0A0, 0x1F0AE),
    (0x1F0B1, 0x1F0BF),
    (0x1F0C1, 0x1F0CF),
    (0x1F0D1, 0x1F0F5),
    (0x1F100, 0x1F1AD),
    (0x1F1E6, 0x1F202),
    (0x1F210, 0x1F23B),
    (0x1F240, 0x1F248),
    (0x1F250, 0x1F251),
    (0x1F260, 0x1F265),
    (0x1F300, 0x1F6D7),
    (0x1F6DD, 0x1F6EC),
    (0x1F6F0, 0x1F6FC),
    (0x1F700, 0x1F773),
    (0x1F780, 0x1F7D8),
    (0x1F7E0, 0x1F7EB),
    (0x1F7F0, 0x1F7F0),
    (0x1F800, 0x1F80B),
    (0x1F810, 0x1F847),
    (0x1F850, 0x1F859),
    (0x1F860, 0x1F887),
    (0x1F890, 0x1F8AD),
    (0x1F8B0, 0x1F8B1),
    (0x1F900, 0x1FA53),
    (0x1FA60, 0x1FA6D),
    (0x1FA70, 0x1FA74),
    (0x1FA78, 0x1FA7C),
    (0x1FA80, 0x1FA86),
    (0x1FA90, 0x1FAAC),
    (0x1FAB0, 0x1FABA),
    (0x1FAC0, 0x1FAC5),
    (0x1FAD0, 0x1FAD9),
    (0x1FAE0, 0x1FAE7),
    (0x1FAF0, 0x1FAF6),
    (0x1FB00, 0x1FB92),
    (0x1FB94, 0x1FBCA),
    (0x1FBF0, 0x1FBF9),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B738),
    (0x2B740, 0x2B81D),
    (0x2B820, 0x2CEA1),
    (0x2CEB0, 0x2EBE0),
    (0x2F800, 0x2FA1D),
    (0x30000, 0x3134A),
    (0xE0100, 0xE01EF),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_runs_end_at_the_first_quote_backslash_or_control_char() {
        let pieces = [
            "a",
            "é",
            "日",
            "\"",
            "\\",
            "\u{1f}",
            "\u{0}",
            " ",
            "\u{7f}",
            "abcdefghij",
        ];
        let mut seed = 5u64;
        for case in 0..4000 {
            let mut text = String::new();
            for _ in 0..case % 30 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                // Mostly plain pieces, so runs longer than 8 bytes occur.
                let piece = (seed >> 60) as usize % 16;
                text.push_str(pieces[if piece < 10 { piece } else { 9 }]);
            }
            let decoder = Decoder::new(&text, Mode::Fast);
            for start in 0..=text.len() {
                let expected = text.as_bytes()[start..]
                    .iter()
                    .position(|&b| ENDS_STRING_RUN[usize::from(b)])
                    .map_or(text.len(), |at| start + at);
                assert_eq!(
                    decoder.plain_run_end(start),
                    expected,
                    "{text:?} from {start}"
                );
            }
        }
    }

    fn lines(output: &str) -> Option<(Vec<String>, Vec<String>, Vec<String>)> {
        synopsis(output).map(|s| (s.summary, s.structure, s.notable_items))
    }

    fn notable(output: &str) -> Vec<String> {
        synopsis(output)
            .map(|s| s.notable_items)
            .unwrap_or_default()
    }

    /// `(f64 bits, repr)` pairs printed by CPython 3.11 (random bit patterns, random magnitudes,
    /// and exact ties between two shortest digit strings).
    const PYTHON_FLOAT_REPRS: &[(u64, &str)] = &[
        (0x2e84496e7857dd86, "1.3053460867029954e-84"),
        (0x940eee3cba6f875c, "-4.593900756363754e-212"),
        (0x33406bc44dc2a627, "7.983430509249571e-62"),
        (0xb938451ee325faa6, "-4.674232466673235e-33"),
        (0xc1d8fac168fb90d7, "-1676346787.9307153"),
        (0xc2354e2bb7740a63, "-91505801076.04057"),
        (0x887e840043e58844, "-9.242004904000638e-268"),
        (0xa2da95a83ec33dd6, "-8.72031439815143e-141"),
        (0xbc38d756d0055979, "-1.3466424375819714e-18"),
        (0x5aab0a377f90ade7, "5.857245089853537e+128"),
        (0x86ff0de26a769806, "-5.6058932322064184e-275"),
        (0x9d9b532aba4e6c36, "-4.633834494019838e-166"),
        (0x37d72e4af6978770, "1.064411574118151e-39"),
        (0x8b3890644f3d4e7b, "-1.3087699255072154e-254"),
        (0x548a84a5b43d4318, "1.8125578230860703e+99"),
        (0x131db61884f42b4b, "1.346681689596359e-216"),
        (0xc63d5f77bb3a6a06, "-2.327162535179311e+30"),
        (0xddfa7fa4ffe9ec11, "-5.1701251164991826e+144"),
        (0xb070e38434d57084, "-2.333663540648899e-75"),
        (0xba49c19fc0a9c8be, "-6.501815279748911e-28"),
        (0xecb736d877f1caf0, "-5.001628063009517e+215"),
        (0xd4dd79d3b5834f4c, "-6.447115449024754e+100"),
        (0xa70b967adf354788, "-1.3354542394704874e-120"),
        (0x88177abd25fbab1b, "-1.1110965234027424e-269"),
        (0xde11ee00366dadc0, "-1.3992996522070256e+145"),
        (0xfaaced226972f683, "-8.401153636443164e+282"),
        (0xc54be01c0ef8e010, "-6.7398649618900644e+25"),
        (0xa0f09780597538cb, "-5.06868998984818e-150"),
        (0x7744001a6aa45fe0, "3.224518911819663e+266"),
        (0xb9ae5c8f1fca7da2, "-7.484702137230195e-31"),
        (0x2393446abe564059, "2.588700476085742e-137"),
        (0x53bdf64dc34797c4, "2.499949553685165e+95"),
        (0x54b1070f63eb18aa, "9.310895901665851e+99"),
        (0xcb2d34ea58655852, "-1.3987230868249824e+54"),
        (0x5352d63f337e6853, "2.4557725950682515e+93"),
        (0x6a1510446d433715, "1.031878447048137e+203"),
        (0x915405c051032369, "-3.3808103698413506e-225"),
        (0xe7b0dfa436cc71a5, "-3.007218575433834e+191"),
        (0x682f860ede282d59, "7.191242335674431e+193"),
        (0x345986d33aa67f52, "1.6266526608241936e-56"),
        (0xbda435a7e81e254a, "-9.190259017063845e-12"),
        (0x3e01ffb5bea43e05, "5.238359722408772e-10"),
        (0x3edcda74eba93b6d, "6.8791738905966755e-06"),
        (0x42295ea3b557d9ce, "54480984747.9254"),
        (0x401859bae90d33ac, "6.087627068930413"),
        (0x3ef7d77d595cce43, "2.2737270760587893e-05"),
        (0x4299903e2d3268ec, "7026827283610.23"),
        (0x3dced3b3db1ad7ff, "5.6073919282261045e-11"),
        (0x3f84475b11bcae27, "0.00990172527197959"),
        (0xbf7dcf7178cce2b1, "-0.00727791142417604"),
        (0xc2a838f3c8d176f6, "-13316443629755.48"),
        (0xbfb25c4791860c9b, "-0.07172057440588946"),
        (0x3ef9ee0fcddbd134, "2.47287069816287e-05"),
        (0x4413158db7aef540, "8.801030920226524e+19"),
        (0xbc9432d77a4b0944, "-7.007797269172689e-17"),
        (0x44d37d58a032239e, "3.681487693725485e+23"),
        (0x3f12efbd0f337de8, "7.223693301083129e-05"),
        (0x4268b5e1f3492e11, "849045592649.4396"),
        (0x3be606d4645aefb9, "3.73146445534376e-20"),
        (0x3d03dde2f9f98768, "8.822606927686507e-15"),
        (0x4274de65ddc49c00, "1434089020489.75"),
        (0x42e7502b3589ea68, "205064718012243.25"),
        (0x42d9187364807fd0, "110371223503359.25"),
        (0x43586f9f6682537a, "2.7512519405424104e+16"),
        (0x437df3da0e129131, "1.3489427502603138e+17"),
        (0x4349a4db891189ba, "1.44362744443749e+16"),
        (0x42ffd8d19c1ad854, "560257441049989.25"),
        (0x42dc6f7232401490, "125059931373650.25"),
        (0x437724c1ad9a4e1f, "1.0422941958726501e+17"),
        (0x4323cb2a25907846, "2785703218396195.0"),
        (0x4284042452c62a00, "2751002728645.25"),
        (0x43b58f6edb810f56, "1.5535822855082696e+18"),
        (0x43654840976b3ca4, "4.792333413134467e+16"),
        (0x4290f686aac7b200, "4662751834604.5"),
        (0x42a5c11ebcaaab00, "11959594276181.5"),
        (0x4313ee800079bc4f, "1402564522176275.8"),
        (0x4271f2ea7c9ed400, "1233438362093.25"),
        (0x43b6b9bd8ebbf5d8, "1.6375483602623427e+18"),
        (0x42d6156940537e70, "97124863790585.75"),
        (0x42ca09bc8a8aa860, "57258240447824.75"),
    ];
    /// `(str, repr)` pairs printed by CPython 3.11 (Unicode 14.0).
    const PYTHON_STR_REPRS: &[(&str, &str)] = &[
        ("", "''"),
        ("\u{10}\u{d706}", "'\\x10\u{d706}'"),
        ("", "''"),
        ("\u{ed}\\\u{4b043}\"", "'\u{ed}\\\\\\U0004b043\"'"),
        (
            "\u{1ec5d}\u{1c6d}\u{1cc8}\u{c4}",
            "'\\U0001ec5d\u{1c6d}\\u1cc8\u{c4}'",
        ),
        ("\u{cd}\u{b}\u{1c95}", "'\u{cd}\\x0b\u{1c95}'"),
        (
            "\"\"\u{1cc7}\u{f9a}\u{eecff}",
            "'\"\"\u{1cc7}\u{f9a}\\U000eecff'",
        ),
        ("\u{1d}O", "'\\x1dO'"),
        (
            "\u{1017e9}\u{b4cb0}\u{23b3}\u{62ea2}\u{20ee8}\u{d5027}",
            "'\\U001017e9\\U000b4cb0\u{23b3}\\U00062ea2\u{20ee8}\\U000d5027'",
        ),
        ("\u{10d3}\u{207b}\u{2aac}", "'\u{10d3}\u{207b}\u{2aac}'"),
        ("\u{cc}\u{29f6}\u{98}_", "'\u{cc}\u{29f6}\\x98_'"),
        ("\u{fff91}'", "\"\\U000fff91'\""),
        (
            "\u{7f}'\u{a7}\u{836f1}\u{836f1}",
            "\"\\x7f'\u{a7}\\U000836f1\\U000836f1\"",
        ),
        (
            "\u{e5}\u{aaf6e}\u{25ae}\u{10d2e5}\u{802}'",
            "\"\u{e5}\\U000aaf6e\u{25ae}\\U0010d2e5\u{802}'\"",
        ),
        ("\u{2c39}", "'\u{2c39}'"),
        ("'", "\"'\""),
        ("\u{f1633}\u{dc}", "'\\U000f1633\u{dc}'"),
        ("\u{2116}", "'\u{2116}'"),
        ("\u{2b5ea}K\u{bc}\u{fd}\\", "'\u{2b5ea}K\u{bc}\u{fd}\\\\'"),
        (
            "\u{1a}\u{b16}p\u{6e40f}\u{88e7e}\u{1074da}",
            "'\\x1a\u{b16}p\\U0006e40f\\U00088e7e\\U001074da'",
        ),
        (
            "\u{ff}\u{1659}\u{23c7}\u{5687b}",
            "'\u{ff}\u{1659}\u{23c7}\\U0005687b'",
        ),
        ("\u{f18}\u{dc}2\u{f6a55}=", "'\u{f18}\u{dc}2\\U000f6a55='"),
        ("\u{de}\u{43898}", "'\u{de}\\U00043898'"),
        ("\u{15b8}\u{432d5}", "'\u{15b8}\\U000432d5'"),
        (
            "'\u{de}\u{4475b}\u{4b043}\u{8}\u{a3b23}",
            "\"'\u{de}\\U0004475b\\U0004b043\\x08\\U000a3b23\"",
        ),
        ("V", "'V'"),
        (
            "\u{f6}\u{1b64}\u{1d1a}\u{d5027}",
            "'\u{f6}\u{1b64}\u{1d1a}\\U000d5027'",
        ),
        ("\u{23b3}\"\u{b1}", "'\u{23b3}\"\u{b1}'"),
        (
            "\u{112d}\u{3377}7\u{e4564}\u{104738}",
            "'\u{112d}\u{3377}7\\U000e4564\\U00104738'",
        ),
        ("", "''"),
        ("\u{d3b73}\u{2227}\u{2840}", "'\\U000d3b73\u{2227}\u{2840}'"),
        ("\u{1eea}@R", "'\u{1eea}@R'"),
        ("\u{b54}", "'\\u0b54'"),
        (
            "\u{7e972}\u{8f50a}\u{6ec1a}\u{4b7eb}\u{b43}\u{108202}",
            "'\\U0007e972\\U0008f50a\\U0006ec1a\\U0004b7eb\u{b43}\\U00108202'",
        ),
        ("\u{7e972}", "'\\U0007e972'"),
        (
            "\u{e36b6}\u{cca03}\u{d9104}e\u{6084d}",
            "'\\U000e36b6\\U000cca03\\U000d9104e\\U0006084d'",
        ),
        (
            "\u{7d366}\u{c0f}\u{2402}\u{ea}",
            "'\\U0007d366\u{c0f}\u{2402}\u{ea}'",
        ),
        ("", "''"),
        ("\u{7468b}\u{ba}\u{84ab3}", "'\\U0007468b\u{ba}\\U00084ab3'"),
        ("\u{12b0}\u{8d}>", "'\u{12b0}\\x8d>'"),
        ("\\\u{ba}\"", "'\\\\\u{ba}\"'"),
        (
            "\\\u{25f9e}\u{db9}\u{94617}'Q",
            "\"\\\\\u{25f9e}\u{db9}\\U00094617'Q\"",
        ),
        ("\u{f2}", "'\u{f2}'"),
        (
            "\u{905b4}\u{12f}\u{8a}\u{1c95}\u{4cbb4}",
            "'\\U000905b4\u{12f}\\x8a\u{1c95}\\U0004cbb4'",
        ),
        ("", "''"),
        ("\u{2454}\u{2fd}\u{f18}", "'\\u2454\u{2fd}\u{f18}'"),
        ("\u{48070}4", "'\\U000480704'"),
        ("", "''"),
        ("*\u{95f}", "'*\u{95f}'"),
        (
            "7\"\u{c1}\u{95a}\u{c1}\u{bd422}",
            "'7\"\u{c1}\u{95a}\u{c1}\\U000bd422'",
        ),
        ("\u{2570}", "'\u{2570}'"),
        ("\u{b9}\u{1fdb1}\"", "'\u{b9}\\U0001fdb1\"'"),
        ("\\\u{e}\u{bc19d}'", "\"\\\\\\x0e\\U000bc19d'\""),
        ("", "''"),
        ("", "''"),
        ("", "''"),
        ("", "''"),
        ("\u{2f341}4\u{1017e9}", "'\\U0002f3414\\U001017e9'"),
        (
            "\\\u{1127}\u{73ab8}\u{20c5}",
            "'\\\\\u{1127}\\U00073ab8\\u20c5'",
        ),
        (
            "\u{820}\u{8a1d1}\u{48070}<\u{108202}\u{12d7}",
            "'\u{820}\\U0008a1d1\\U00048070<\\U00108202\\u12d7'",
        ),
    ];

    #[test]
    fn reprs_match_recorded_python_output() {
        for (bits, expected) in PYTHON_FLOAT_REPRS {
            assert_eq!(py_repr_float(f64::from_bits(*bits)), *expected, "{bits:#x}");
        }
        for (text, expected) in PYTHON_STR_REPRS {
            assert_eq!(py_repr_str(text), *expected, "{text:?}");
        }
    }

    #[test]
    fn float_repr_matches_python() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1.0, "1.0"),
            (0.1, "0.1"),
            (1e-7, "1e-07"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (1.5e300, "1.5e+300"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (123456789012345678.0, "1.2345678901234568e+17"),
            (1234567890123456.7, "1234567890123456.8"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (-2.5e-5, "-2.5e-05"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
            (8.444750807826456e-05, "8.444750807826456e-05"),
            (934_877_530_335_423.0 + 0.25, "934877530335423.2"),
            (934_877_530_335_423.0 + 0.75, "934877530335423.8"),
            (0.5, "0.5"),
            (2.5, "2.5"),
        ];
        for (value, expected) in cases {
            assert_eq!(py_repr_float(*value), *expected, "{value:e}");
        }
    }

    #[test]
    fn str_repr_matches_python() {
        let cases: &[(&str, &str)] = &[
            ("", "''"),
            ("abc", "'abc'"),
            ("it's", "\"it's\""),
            ("say \"hi\"", "'say \"hi\"'"),
            ("both ' and \"", "'both \\' and \"'"),
            ("a\\b", "'a\\\\b'"),
            ("\t\n\r\x0b\x7f\x00", "'\\t\\n\\r\\x0b\\x7f\\x00'"),
            (
                "\u{a0}\u{ad}\u{2028}\u{200b}\u{feff}",
                "'\\xa0\\xad\\u2028\\u200b\\ufeff'",
            ),
            (
                "\u{e000}\u{378}\u{10ffff}\u{e0001}",
                "'\\ue000\\u0378\\U0010ffff\\U000e0001'",
            ),
            ("é漢字😀\u{3000}x", "'é漢字😀\\u3000x'"),
            ("\u{85}\u{80}\u{9f}", "'\\x85\\x80\\x9f'"),
        ];
        for (text, expected) in cases {
            assert_eq!(py_repr_str(text), *expected, "{text:?}");
        }
    }

    #[test]
    fn clipped_repr_stops_early_but_clips_like_python() {
        let long = "x".repeat(1000);
        let text = JsonText::Text(Cow::Borrowed(&long));
        assert_eq!(text.clipped_repr(), format!("'{}...", "x".repeat(76)));
        let exact = "y".repeat(78);
        assert_eq!(
            JsonText::Text(Cow::Borrowed(&exact)).clipped_repr(),
            format!("'{exact}'")
        );
        // The quote choice depends on the whole string, even past the clip.
        let late_quotes = format!("'{}\"", "z".repeat(200));
        let repr = JsonText::Text(Cow::Borrowed(&late_quotes)).clipped_repr();
        assert!(repr.starts_with("'\\'zz"), "{repr}");
    }

    #[test]
    fn objects_arrays_and_scalars() {
        let (summary, structure, items) =
            lines(r#"{"users":[{"id":1,"name":"Ada"},{"id":2}],"meta":{"count":2},"e":{}}"#)
                .unwrap_or_default();
        assert_eq!(summary, ["JSON object.", "top-level keys: users, meta, e"]);
        assert_eq!(
            structure,
            [
                "shape: object(keys=3: users, meta, e)",
                "users: array length: 2",
                "meta: object keys: count",
                "e: object keys: "
            ]
        );
        assert_eq!(
            items,
            ["users[0].id: 1", "users[0].name: 'Ada'", "meta.count: 2"]
        );
        let (summary, structure, items) = lines("[[1,[2]],{},[],\"s\"]").unwrap_or_default();
        assert_eq!(summary, ["JSON array.", "array length: 4"]);
        assert_eq!(
            structure,
            ["shape: array(len=4, sample=[array(len=2, sample=[..., ...]), object(keys=0), array(len=0)])",
             "first item type: array"]
        );
        assert_eq!(items, ["[0][0]: 1"]);
        let (summary, structure, items) = lines("  \"x\"  ").unwrap_or_default();
        assert_eq!(summary, ["JSON string."]);
        assert!(structure.is_empty());
        assert_eq!(items, [": 'x'"]);
        assert_eq!(
            lines("[]").map(|l| l.1),
            Some(vec!["shape: array(len=0)".to_string()])
        );
    }

    #[test]
    fn walk_skips_empty_containers_and_goes_deep() {
        assert_eq!(
            notable(
                r#"{"a":[],"b":{},"c":[[],1],"d":{"e":{"f":[[[true]]]}},"g":null,"h":2,"i":3}"#
            ),
            ["d.e.f[0][0][0]: True", "g: None", "h: 2", "i: 3"]
        );
        // An empty key at the top leaves the path empty, so the next key has no dot.
        assert_eq!(notable(r#"{"":{"b":1}}"#), ["b: 1"]);
    }

    #[test]
    fn duplicate_keys_keep_first_position_and_last_value() {
        assert_eq!(
            notable(r#"{"a":1,"b":2,"c":3,"d":4,"e":5,"a":{"x":"new"}}"#),
            ["a.x: 'new'", "b: 2", "c: 3", "d: 4", "e: 5"]
        );
        let (summary, structure, _) = lines(r#"{"a":1,"\u0061":[1,2]}"#).unwrap_or_default();
        assert_eq!(summary, ["JSON object.", "top-level keys: a"]);
        assert_eq!(
            structure,
            ["shape: object(keys=1: a)", "a: array length: 2"]
        );
        // Shape samples count distinct keys.
        let (_, structure, _) = lines(r#"[{}, {"k":1,"k":2,"j":3}]"#).unwrap_or_default();
        assert_eq!(
            structure[0],
            "shape: array(len=2, sample=[object(keys=0), object(keys=2: k, j)])"
        );
    }

    #[test]
    fn python_number_rules() {
        assert_eq!(notable("[NaN, 1]"), ["[0]: nan"]);
        assert_eq!(notable("-Infinity"), [": -inf"]);
        assert_eq!(notable("[1e400]"), ["[0]: inf"]);
        assert_eq!(notable("[-0, -0.0, 1E2]"), ["[0]: 0"]);
        assert_eq!(notable("[1E2]"), ["[0]: 100.0"]);
        assert_eq!(
            notable("123456789012345678901234567890"),
            [": 123456789012345678901234567890"]
        );
        // `01` at the top is 0 followed by one trailing char; inside an array it is an error.
        assert_eq!(
            notable("01"),
            [": 0", "trailing_chars_after_first_json_value: 1"]
        );
        assert!(synopsis("[01]").is_none());
        assert_eq!(
            notable("1.e5"),
            [": 1", "trailing_chars_after_first_json_value: 3"]
        );
        assert_eq!(
            notable("2e+"),
            [": 2", "trailing_chars_after_first_json_value: 2"]
        );
        assert!(synopsis("[-]").is_none() && synopsis("-").is_none() && synopsis("[.5]").is_none());
        // Python refuses int() of more than 4300 digits; floats have no such limit.
        assert!(synopsis(&format!("[{}]", "9".repeat(4301))).is_none());
        assert!(synopsis(&format!("[{}]", "9".repeat(4300))).is_some());
        assert_eq!(notable(&format!("[{}.0]", "9".repeat(5000))), ["[0]: inf"]);
        let long_int = notable(&format!("[{}]", "1".repeat(100)));
        assert_eq!(long_int, [format!("[0]: {}...", "1".repeat(77))]);
    }

    #[test]
    fn python_string_rules() {
        assert!(synopsis("[\"a\tb\"]").is_none(), "raw control char");
        assert!(
            synopsis("[\"a\x7fb\"]").is_some(),
            "DEL is not a control char for json"
        );
        assert!(synopsis(r#"["\x41"]"#).is_none() && synopsis(r#"["\u12G4"]"#).is_none());
        assert!(synopsis(r#"["abc"#).is_none());
        assert_eq!(notable(r#"["\ud83d\ude00\u00e9\/"]"#), ["[0]: '😀é/'"]);
        assert_eq!(notable(r#"["\ud800x\udc00"]"#), ["[0]: '\\ud800x\\udc00'"]);
        assert_eq!(notable(r#"["\udc00\ud800"]"#), ["[0]: '\\udc00\\ud800'"]);
        assert_eq!(notable(r#"["\ud800\u0041"]"#), ["[0]: '\\ud800A'"]);
        assert_eq!(notable(r#"{"\ud800":1}"#), ["\u{fffd}: 1"]);
        // Distinct lone surrogates are distinct keys.
        let (summary, _, _) = lines(r#"{"\ud800":1,"\ud801":2}"#).unwrap_or_default();
        assert_eq!(summary[1], "top-level keys: \u{fffd}, \u{fffd}");
    }

    #[test]
    fn python_structure_rules() {
        assert!(synopsis("[1,]").is_none() && synopsis(r#"{"a":1,}"#).is_none());
        assert!(synopsis("{'a':1}").is_none() && synopsis("{a:1}").is_none());
        assert!(
            synopsis("[1\u{a0}]").is_none(),
            "only JSON whitespace between tokens"
        );
        assert!(synopsis("[1,\x0c2]").is_none());
        assert!(synopsis(" \t[ 1 ,\r\n 2 ] ").is_some());
        assert!(synopsis("nul").is_none() && synopsis("").is_none() && synopsis("[").is_none());
        assert_eq!(
            notable("truex"),
            [": True", "trailing_chars_after_first_json_value: 1"]
        );
        // Trailing counts chars of the stripped rest, not bytes.
        assert_eq!(
            notable("{\"a\": 1} \u{a0}漢字 "),
            ["a: 1", "trailing_chars_after_first_json_value: 2"]
        );
    }

    #[test]
    fn deep_nesting_fails_like_python_without_overflowing() {
        let nested = |depth: usize, open: &str, inner: &str, close: &str| {
            format!("{}{inner}{}", open.repeat(depth), close.repeat(depth))
        };
        let items = notable(&nested(MAX_NESTING, "[", "1", "]"));
        assert!(
            items.len() == 1 && items[0].len() == MAX_NESTING * 3 + 3,
            "{items:?}"
        );
        assert!(
            synopsis(&nested(MAX_NESTING, "[", "[]", "]")).is_none(),
            "empty ones count"
        );
        let items = notable(&nested(MAX_NESTING, "{\"a\":", "null", "}"));
        assert!(items.len() == 1 && items[0].ends_with("a.a: None"));
        for depth in [MAX_NESTING + 1, 10_000, 1_000_000] {
            assert!(synopsis(&nested(depth, "[", "1", "]")).is_none());
            assert!(synopsis(&nested(depth, "{\"a\":", "1", "}")).is_none());
            assert!(synopsis(&"[".repeat(depth)).is_none());
        }
    }

    #[test]
    fn fast_mode_keeps_what_the_walk_needs() {
        // Scalars beyond the 5th are not kept, yet the structure of later keys is complete.
        let doc = r#"{"a":1,"b":2,"c":3,"d":4,"e":5,"f":{"x":1,"y":[1,2]},"g":[[],[]]}"#;
        let (_, structure, items) = lines(doc).unwrap_or_default();
        assert_eq!(structure[6], "f: object keys: x, y");
        assert_eq!(structure[7], "g: array length: 2");
        assert_eq!(items, ["a: 1", "b: 2", "c: 3", "d: 4", "e: 5"]);
        // A duplicate after the walk completed still replaces the first value.
        assert_eq!(
            notable(r#"{"a":1,"b":2,"c":3,"d":4,"e":5,"a":[]}"#),
            ["b: 2", "c: 3", "d: 4", "e: 5"]
        );
    }
}
