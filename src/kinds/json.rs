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

use super::Synopsis;
use crate::enhanced::value::Value;
use crate::python::{
    char_len, clip, py_repr_float, py_strip, repr_code_points, swar, INT_MAX_STR_DIGITS,
    JSON_MAX_NESTING as MAX_NESTING,
};

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

impl<'a> Tree<'a> {
    /// The tree as a `Value`, built from the leaves up (nodes are numbered in document order,
    /// children after their parent), so no recursion follows the input's nesting.
    fn into_value(self) -> Value<'a> {
        let mut built: Vec<Option<Value<'a>>> = Vec::with_capacity(self.nodes.len());
        built.resize_with(self.nodes.len(), || None);
        for (id, node) in self.nodes.into_iter().enumerate().rev() {
            let mut take = |child: NodeId| built.get_mut(child).and_then(Option::take);
            let value = match node {
                Node::Object(object) => Value::Map(
                    object
                        .children
                        .into_iter()
                        .filter_map(|(key, child)| {
                            let key = match key {
                                JsonText::Text(text) => text,
                                other => Cow::Owned(other.display().into_owned()),
                            };
                            Some((key, take(child)?))
                        })
                        .collect(),
                    object.len,
                ),
                Node::Array { len, items } => {
                    Value::List(items.into_iter().filter_map(&mut take).collect(), len)
                }
                Node::Str(JsonText::Text(text)) => Value::Text(text),
                Node::Str(other) => Value::Text(Cow::Owned(other.display().into_owned())),
                Node::Int(digits) => Value::Number(Cow::Borrowed(digits)),
                Node::Float(value) => Value::Number(Cow::Owned(py_repr_float(value))),
                Node::Bool(flag) => Value::Bool(flag),
                Node::Null => Value::Null,
            };
            built[id] = Some(value);
        }
        built
            .get_mut(self.root)
            .and_then(Option::take)
            .unwrap_or(Value::Null)
    }
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
    /// Keep every node down to `FULL_KEEP_DEPTH` (enhanced synopses read whole records), but of
    /// a container of more than `sample + 1` items only its first `sample` items and its last
    /// (a sample, see `enhanced::value`). What is not kept is stepped over without validation
    /// (`skip_value`): the enhanced synopses only load what the reference's decode accepted.
    Sampled,
    /// Keep nothing: whether the text starts with a JSON value, and where it ends.
    Validate,
}

/// Whether this build samples in `Mode::Sampled` (the enhanced synopses'): without it (the main
/// wasm module, which never loads values) the sampling branches are dead code, left out, and
/// `Mode::Sampled` keeps every item.
const SAMPLING: bool = cfg!(feature = "enhanced");

/// Containers nested deeper than this are not kept in `Mode::Sampled` (their length still is).
const FULL_KEEP_DEPTH: usize = 5;

/// The first JSON value of the stripped `output` as a value (containers below `FULL_KEEP_DEPTH`
/// levels hold their length but no items; containers of more than `sample + 1` items all of one
/// type hold a sample: their first `sample` items and their last), with the stripped text after
/// it. `None` where `synopsis` says it is not JSON. For the enhanced synopses, which call it on
/// outputs the reference decoded (`synopsis`): past the kept items it steps over the text
/// without validating it again.
pub(crate) fn load_value(output: &str, sample: usize) -> Option<(Value<'_>, &str)> {
    let text = py_strip(output);
    let sampled = Decoder::new(text, Mode::Sampled).with_sample(sample).run();
    let decoded = match sampled {
        Ok(decoded) => decoded,
        // An item past a sample unlike the sampled ones: the sample would not tell the truth of
        // the whole (how many records a list holds), so the document is loaded whole.
        Err(Stop::Mixed) => Decoder::new(text, Mode::Sampled).run().ok()?,
        Err(_) => return None,
    };
    let rest = py_strip(text.get(decoded.end..).unwrap_or(""));
    Some((decoded.tree.into_value(), rest))
}

/// Whether the stripped `output` is one JSON value that Python's decoder accepts, with nothing
/// but whitespace after it (a JSON Lines line), without building it.
#[inline(never)]
pub(crate) fn holds_one_value(output: &str) -> bool {
    let text = py_strip(output);
    Decoder::new(text, Mode::Validate)
        .run()
        .is_ok_and(|decoded| py_strip(text.get(decoded.end..).unwrap_or("")).is_empty())
}

/// The type of the JSON value whose first byte is `first`, as one bit: items of one type
/// (`Value::type_name`) share it.
pub(crate) fn type_bit(first: u8) -> u8 {
    match first {
        b'{' => 1,
        b'[' => 2,
        b'"' => 4,
        b't' | b'f' => 8,
        b'n' => 16,
        _ => 32,
    }
}

enum Stop {
    /// Python's decoder would raise.
    Invalid,
    /// A duplicate key where the fast mode cannot be exact.
    NeedsExact,
    /// `Mode::Sampled`: an item past a container's sample is of another type than the sample's.
    Mixed,
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
    /// `Mode::Sampled` bookkeeping.
    sampling: Sampling<'a>,
}

/// How a kept container of `Mode::Sampled` holds its items.
#[derive(Default)]
struct Sampling<'a> {
    /// The types (`type_bit`) of the items kept.
    types: u8,
    /// Keep every item: the sample's items are of several types.
    whole: bool,
    /// Items past the sample have come (they are stepped over).
    past: bool,
    /// The item last stepped over past the sample that may be the container's last: where it
    /// starts and, in an object, its key and dict position (the latest new key's last value).
    last_skipped: Option<(usize, Option<(JsonText<'a>, usize)>)>,
    /// Decoding that last item after the container's end was found: where the end is.
    resume_at: Option<usize>,
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
/// SipHash's flooding resistance buys nothing for a one-shot decode (nor for the enhanced code
/// analyzer's lookup of every definition, which uses it too).
#[derive(Default)]
pub(crate) struct FxHasher {
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
    /// `Mode::Sampled`: items kept of a container before the sample's last item.
    sample: usize,
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
            sample: usize::MAX,
            walked_scalars: 0,
            nodes: Vec::new(),
            stack: Vec::new(),
        }
    }

    /// `Mode::Sampled` with samples of `sample` items (at least 1).
    fn with_sample(mut self, sample: usize) -> Self {
        // (Called only where `SAMPLING` holds.)
        self.sample = sample.max(1);
        self
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
        self.mode != Mode::Fast || self.walked_scalars < SCALAR_EXAMPLES
    }

    /// Whether the next value is kept and whether the walk goes through it. Kept: the root; the
    /// first 3 items of a top-level array (shape samples); the values of the first 10 top-level
    /// keys (structure lines); values on the walk (object values, first array items) while the
    /// walk may still need them. A kept node's parent is always kept.
    fn next_value_context(&self) -> (bool, bool) {
        let Some(parent) = self.stack.last() else {
            return (self.mode != Mode::Validate, true);
        };
        if self.mode == Mode::Sampled {
            return (
                parent.node.is_some() && self.stack.len() <= FULL_KEEP_DEPTH,
                false,
            );
        }
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
            let sampled = SAMPLING && self.mode == Mode::Sampled;
            let kept = kept && !(sampled && self.past_sample(next)?);
            if sampled && !kept {
                // Nothing of it is kept: step over it.
                self.pos = skip_value(self.bytes, self.pos).ok_or(Stop::Invalid)?;
            }
            let mut finished = match next {
                _ if sampled && !kept => None,
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
                            sampling: Sampling::default(),
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
                            sampling: Sampling::default(),
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
                if SAMPLING {
                    if let Some(end) = self
                        .stack
                        .last_mut()
                        .and_then(|open| open.sampling.resume_at.take())
                    {
                        self.pos = end;
                    }
                }
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
                        if SAMPLING && self.rewind_to_last_item() {
                            break;
                        }
                        self.pos += 1;
                        finished = self.close()?;
                    }
                    _ => return Err(Stop::Invalid),
                }
            }
        }
    }

    /// `Mode::Sampled`, before a kept container's item (first byte `next`): whether it is
    /// past the container's sample, to be stepped over (remembered when it may be the last).
    #[inline(never)]
    fn past_sample(&mut self, next: u8) -> Result<bool, Stop> {
        let sample = self.sample;
        let Some(open) = self.stack.last_mut() else {
            return Ok(false);
        };
        let pending = open.keys.as_ref().and_then(|keys| {
            keys.pending
                .as_ref()
                .map(|(key, at)| (key, *at, keys.positions.len()))
        });
        // An object's item is its value; its index, its key's dict position (a repeated key
        // keeps its first one, so the kept entries take the values that come later).
        let index = pending.map_or(open.count, |(_, at, _)| at);
        let sampling = &mut open.sampling;
        let bit = type_bit(next);
        if sampling.whole || sampling.resume_at.is_some() || (index < sample && !sampling.past) {
            sampling.types |= bit;
            return Ok(false);
        }
        if !sampling.past {
            // The first item past the sample: a sample of mixed items tells nothing of the
            // items it would leave out, so they are all kept.
            if sampling.types.count_ones() > 1 {
                sampling.whole = true;
                return Ok(false);
            }
            sampling.past = true;
        }
        // From here on every item (a repeated kept key's new value too) is of the sample's type.
        if sampling.types != bit {
            return Err(Stop::Mixed);
        }
        if index < sample {
            return Ok(false);
        }
        match pending {
            // The latest new key (first seen or seen again): its value may be the last entry's.
            Some((key, at, distinct)) if at + 1 == distinct => {
                sampling.last_skipped = Some((self.pos, Some((key.clone(), at))));
            }
            Some(_) => {}
            None => sampling.last_skipped = Some((self.pos, None)),
        }
        Ok(true)
    }

    /// `Mode::Sampled`, at the end of a container that stepped over its last item: goes back
    /// to decode that item (then `resume_at` returns to the end). Whether it did.
    #[inline(never)]
    fn rewind_to_last_item(&mut self) -> bool {
        let end = self.pos;
        let Some(open) = self.stack.last_mut() else {
            return false;
        };
        let Some((start, key)) = open.sampling.last_skipped.take() else {
            return false;
        };
        open.sampling.resume_at = Some(end);
        match (open.keys.as_mut(), key) {
            (Some(keys), Some(key)) => keys.pending = Some(key),
            // Counted once already.
            _ => open.count -= 1,
        }
        self.pos = start;
        true
    }

    /// Gives a complete value to the innermost open container.
    fn attach(&mut self, child: Option<NodeId>) -> Result<(), Stop> {
        let open = self.stack.last_mut().ok_or(Stop::Invalid)?;
        open.count += 1;
        let key = open.keys.as_mut().and_then(|keys| keys.pending.take());
        // A sample's last entry follows the kept ones, whatever its dict position.
        let last_of_sample = SAMPLING && open.sampling.resume_at.is_some();
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
                } else if position == children.len() || last_of_sample {
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
        let (end, is_float) = number_end(self.bytes, self.pos).map_err(|_| Stop::Invalid)?;
        self.pos = end;
        Ok(is_float)
    }

    fn plain_run_end(&self, at: usize) -> usize {
        plain_run_end(self.bytes, at)
    }

    fn hex4(&self, at: usize) -> Result<u32, Stop> {
        hex4(self.bytes, at).ok_or(Stop::Invalid)
    }

    /// Validates a string at `self.pos` (an opening quote) without decoding it.
    fn skip_string(&mut self) -> Result<(), Stop> {
        self.pos = string_end(self.bytes, self.pos).map_err(|_| Stop::Invalid)?;
        Ok(())
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

// ---------------------------------------------------------------------------------------------
// Python `json` scanning primitives, shared with pointer reads (`retrieval::json_pointer`), so both
// accept exactly the same documents.

/// Why a number does not scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberError {
    /// No number starts here.
    NotANumber,
    /// An integer literal over `INT_MAX_STR_DIGITS` digits (`ValueError` in Python).
    TooManyDigits,
}

/// The number `-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?` at `start`: where it ends and whether it is
/// a float. A dangling `.` or exponent is not part of it (Python leaves it for the caller).
#[inline(always)]
pub(crate) fn number_end(bytes: &[u8], start: usize) -> Result<(usize, bool), NumberError> {
    let digit_at = |at: usize| bytes.get(at).is_some_and(u8::is_ascii_digit);
    let mut at = start;
    if bytes.get(at) == Some(&b'-') {
        at += 1;
    }
    let int_start = at;
    match bytes.get(at) {
        Some(b'0') => at += 1,
        Some(b'1'..=b'9') => {
            while digit_at(at) {
                at += 1;
            }
        }
        _ => return Err(NumberError::NotANumber),
    }
    let int_digits = at - int_start;
    let mut is_float = false;
    if bytes.get(at) == Some(&b'.') && digit_at(at + 1) {
        is_float = true;
        at += 1;
        while digit_at(at) {
            at += 1;
        }
    }
    if matches!(bytes.get(at), Some(b'e' | b'E')) {
        let mut exponent = at + 1;
        if matches!(bytes.get(exponent), Some(b'+' | b'-')) {
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
    if !is_float && int_digits > INT_MAX_STR_DIGITS {
        return Err(NumberError::TooManyDigits);
    }
    Ok((at, is_float))
}

/// Index just past the plain run (no `"`, `\`, control char) starting at `at`: 8 bytes at a
/// time, then byte by byte (every string of the document goes through here).
#[inline(always)]
pub(crate) fn plain_run_end(bytes: &[u8], mut at: usize) -> usize {
    while let Some(word) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
        let ends = swar::bytes_equal(word, b'"')
            | swar::bytes_equal(word, b'\\')
            | swar::bytes_below(word, 0x20);
        if ends != 0 {
            return at + (ends.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    while let Some(&byte) = bytes.get(at) {
        if ENDS_STRING_RUN[usize::from(byte)] {
            break;
        }
        at += 1;
    }
    at
}

/// Four hex digits at `at`, as Python's scanner reads them.
#[inline]
pub(crate) fn hex4(bytes: &[u8], at: usize) -> Option<u32> {
    let digits = bytes.get(at..at + 4)?;
    digits.iter().try_fold(0u32, |value, &byte| {
        Some(value * 16 + char::from(byte).to_digit(16)?)
    })
}

/// Why a string does not scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StringError {
    Unterminated,
    BadUnicodeEscape,
    BadEscape,
    ControlChar,
}

/// Where the string opening at `start` (a `"`) ends, just past its closing quote, validated with
/// Python's rules without decoding it; or why not, and at which byte.
#[inline(always)]
pub(crate) fn string_end(bytes: &[u8], start: usize) -> Result<usize, (usize, StringError)> {
    let mut at = start + 1;
    loop {
        at = plain_run_end(bytes, at);
        match bytes.get(at) {
            Some(b'"') => return Ok(at + 1),
            Some(b'\\') => match bytes.get(at + 1) {
                Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => at += 2,
                Some(b'u') => {
                    if hex4(bytes, at + 2).is_none() {
                        return Err((at, StringError::BadUnicodeEscape));
                    }
                    at += 6;
                }
                _ => return Err((at, StringError::BadEscape)),
            },
            Some(_) => return Err((at, StringError::ControlChar)),
            None => return Err((start, StringError::Unterminated)),
        }
    }
}

/// Whether `load_value(output, sample)` holds what the whole document holds: the same lengths,
/// keys and scalars, each container whole or (when its items are all of one type) its first
/// `sample` items and its last. `Err` says where they differ. For the differential tests and
/// the `json` fuzz target, on outputs `synopsis` accepts.
#[doc(hidden)]
pub fn sampled_load_agrees(output: &str, sample: usize) -> Result<(), String> {
    fn agree(
        held: &Value<'_>,
        whole: &Value<'_>,
        sample: usize,
        path: &mut String,
    ) -> Result<(), String> {
        fn items<'v, T>(
            held: &'v [T],
            whole: &'v [T],
            sample: usize,
        ) -> Result<Vec<(&'v T, &'v T)>, String> {
            if held.len() == whole.len() {
                return Ok(held.iter().zip(whole).collect());
            }
            if held.len() != sample + 1 || whole.len() <= sample + 1 {
                return Err(format!("{} items held of {}", held.len(), whole.len()));
            }
            let mut pairs: Vec<(&T, &T)> = held.iter().zip(whole).take(sample).collect();
            pairs.extend(held.last().zip(whole.last()));
            Ok(pairs)
        }
        fn one_type(mut types: impl Iterator<Item = &'static str>) -> bool {
            let first = types.next();
            types.all(|t| Some(t) == first)
        }
        let length = path.len();
        match (held, whole) {
            (Value::List(held_items, held_len), Value::List(whole_items, whole_len)) => {
                if held_len != whole_len {
                    return Err(format!("{path}: length {held_len}, whole {whole_len}"));
                }
                let pairs =
                    items(held_items, whole_items, sample).map_err(|e| format!("{path}: {e}"))?;
                if pairs.len() < whole_items.len()
                    && !one_type(whole_items.iter().map(Value::type_name))
                {
                    return Err(format!("{path}: a sample of mixed items"));
                }
                for (index, (held, whole)) in pairs.into_iter().enumerate() {
                    path.push_str(&format!("[{index}]"));
                    agree(held, whole, sample, path)?;
                    path.truncate(length);
                }
            }
            (Value::Map(held_entries, held_len), Value::Map(whole_entries, whole_len)) => {
                if held_len != whole_len {
                    return Err(format!("{path}: {held_len} keys, whole {whole_len}"));
                }
                let pairs = items(held_entries, whole_entries, sample)
                    .map_err(|e| format!("{path}: {e}"))?;
                if pairs.len() < whole_entries.len()
                    && !one_type(whole_entries.iter().map(|(_, v)| v.type_name()))
                {
                    return Err(format!("{path}: a sample of mixed values"));
                }
                for ((held_key, held), (whole_key, whole)) in pairs {
                    if held_key != whole_key {
                        return Err(format!("{path}: key {held_key:?}, whole {whole_key:?}"));
                    }
                    path.push_str(&format!(".{held_key}"));
                    agree(held, whole, sample, path)?;
                    path.truncate(length);
                }
            }
            (held, whole) if held == whole => {}
            (held, whole) => return Err(format!("{path}: {held:?}, whole {whole:?}")),
        }
        Ok(())
    }
    let whole = load_value(output, usize::MAX).map(|(value, rest)| (value, rest.len()));
    let held = load_value(output, sample).map(|(value, rest)| (value, rest.len()));
    match (held, whole) {
        (Some((held, held_rest)), Some((whole, whole_rest))) => {
            if held_rest != whole_rest {
                return Err(format!(
                    "{held_rest} bytes after the value, whole {whole_rest}"
                ));
            }
            agree(&held, &whole, sample.max(1), &mut String::new())
        }
        (None, None) => Ok(()),
        (held, _) => Err(format!(
            "loaded: {}, whole: {}",
            held.is_some(),
            held.is_none()
        )),
    }
}

/// Where the JSON value starting at `start` ends, found without validating it (`Mode::Sampled`
/// steps over what the reference's decode has validated already): strings to their closing
/// quote, containers to their closing bracket (string-aware, counting depth, so no stack),
/// anything else to the next delimiter. `None` when the text ends first.
// (Out of line: the decoder's loop stays the size it has in the main module.)
#[inline(never)]
fn skip_value(bytes: &[u8], start: usize) -> Option<usize> {
    match bytes.get(start)? {
        b'"' => skip_string(bytes, start),
        b'{' | b'[' => skip_container(bytes, start),
        _ => {
            let end = start
                + bytes[start..]
                    .iter()
                    .position(|b| matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r'))
                    .unwrap_or(bytes.len() - start);
            (end > start).then_some(end)
        }
    }
}

/// Just past the closing quote of the string opening at `start`, unvalidated.
#[inline(always)]
fn skip_string(bytes: &[u8], start: usize) -> Option<usize> {
    let mut at = start + 1;
    loop {
        while let Some(word) = bytes.get(at..at + 8) {
            let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
            let ends = swar::bytes_equal(word, b'"') | swar::bytes_equal(word, b'\\');
            if ends != 0 {
                at += (ends.trailing_zeros() / 8) as usize;
                break;
            }
            at += 8;
        }
        match bytes.get(at)? {
            b'"' => return Some(at + 1),
            b'\\' => at += 2,
            _ => at += 1,
        }
    }
}

/// Just past the bracket closing the container opening at `start`, unvalidated: 8 bytes at a
/// time, strings found by the parity of the quotes before each byte (a word holding a
/// backslash, or following one, goes byte by byte), depth counted over the brackets outside
/// strings, so nesting costs no memory.
fn skip_container(bytes: &[u8], start: usize) -> Option<usize> {
    // Outside strings, valid JSON holds no byte that `& 0xD9` makes 0x59 but the four brackets
    // (`Y`, `y`, `_` and DEL, which do too, occur only inside strings); each is checked anyway.
    const BRACKET_MASK: u64 = 0xD9D9_D9D9_D9D9_D9D9;
    let mut scan = ContainerScan {
        depth: 0,
        in_string: false,
        escaped: false,
    };
    let mut at = start;
    while let Some(word) = bytes.get(at..at + 8) {
        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
        // (A byte flagged above a backslash needlessly sends the word byte by byte: rare, and
        // cheaper than an exact test on every word.)
        if scan.escaped
            || swar::zero_bytes_up_to_first(word ^ (swar::LOW_BITS * u64::from(b'\\'))) != 0
        {
            if let Some(end) = scan.bytes(bytes, at, at + 8) {
                return Some(end);
            }
            at += 8;
            continue;
        }
        // Bytes inside a string (an opening quote counts as inside, a closing one not).
        let quotes = swar::bytes_equal(word, b'"');
        let mut inside = quotes ^ (quotes << 8);
        inside ^= inside << 16;
        inside ^= inside << 32;
        if scan.in_string {
            inside = !inside & swar::HIGH_BITS;
        }
        scan.in_string = inside >> 63 != 0;
        // (Bytes flagged above a bracket are checked one by one below, like the other bytes
        // that mask to 0x59.)
        let mut brackets =
            swar::zero_bytes_up_to_first((word & BRACKET_MASK) ^ 0x5959_5959_5959_5959) & !inside;
        while brackets != 0 {
            let here = at + (brackets.trailing_zeros() / 8) as usize;
            brackets &= brackets - 1;
            match bytes.get(here)? {
                b'{' | b'[' => scan.depth += 1,
                b'}' | b']' => {
                    scan.depth = scan.depth.checked_sub(1)?;
                    if scan.depth == 0 {
                        return Some(here + 1);
                    }
                }
                _ => {}
            }
        }
        at += 8;
    }
    scan.bytes(bytes, at, bytes.len())
}

/// Where `skip_container` is between bytes.
struct ContainerScan {
    depth: usize,
    in_string: bool,
    /// The last byte was a backslash inside a string.
    escaped: bool,
}

impl ContainerScan {
    /// Scans `bytes[from..to]` one by one: just past the container's closing bracket if it is
    /// there.
    #[inline(never)]
    fn bytes(&mut self, bytes: &[u8], from: usize, to: usize) -> Option<usize> {
        for (at, &byte) in bytes.get(from..to)?.iter().enumerate() {
            if self.in_string {
                if self.escaped {
                    self.escaped = false;
                } else if byte == b'\\' {
                    self.escaped = true;
                } else if byte == b'"' {
                    self.in_string = false;
                }
                continue;
            }
            match byte {
                b'"' => self.in_string = true,
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        return Some(from + at + 1);
                    }
                }
                _ => {}
            }
        }
        None
    }
}

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

    /// A random JSON document: containers of up to 9 items (uniform or mixed), keys from a
    /// small pool (so some repeat, some spelled with escapes), strings holding brackets and
    /// escaped quotes, nesting past `FULL_KEEP_DEPTH`, JSON whitespace between tokens.
    fn random_document(seed: &mut u64, depth: usize) -> String {
        fn next(seed: &mut u64, n: u64) -> u64 {
            *seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (*seed >> 33) % n
        }
        const SCALARS: [&str; 9] = [
            r#""a[b{c""#,
            r#""q\"]}""#,
            "-12.5e3",
            "7",
            "true",
            "null",
            r#""\u00e9\\""#,
            "\"\"",
            "NaN",
        ];
        let space = [" ", "", "\n", "\t ", ""][next(seed, 5) as usize];
        if depth > 8 || next(seed, 4) == 0 {
            return SCALARS[next(seed, 9) as usize].to_string();
        }
        let count = next(seed, 10);
        // Items of one kind (scalars of one spelling, or containers) or mixed.
        let uniform = next(seed, 2) == 0;
        let kind = next(seed, 2);
        let spelling = next(seed, 9) as usize;
        let item = |seed: &mut u64| -> String {
            let kind = if uniform { kind } else { next(seed, 2) };
            match kind {
                0 if uniform => SCALARS[spelling].to_string(),
                0 => SCALARS[next(seed, 9) as usize].to_string(),
                _ => random_document(seed, depth + 1),
            }
        };
        let mut parts = Vec::new();
        if next(seed, 2) == 0 {
            for _ in 0..count {
                parts.push(item(seed));
            }
            format!(
                "[{space}{}{space}]",
                parts.join(&format!("{space},{space}"))
            )
        } else {
            let keys = ["a", "b", "\\u0061", "c", "d", "e", "f\\\"", "g"];
            for _ in 0..count {
                let key = keys[next(seed, 8) as usize];
                let value = item(seed);
                parts.push(format!("\"{key}\"{space}:{space}{value}"));
            }
            format!("{{{space}{}{space}}}", parts.join(","))
        }
    }

    #[test]
    fn a_sampled_load_holds_the_first_items_and_the_last_of_the_whole() {
        let mut seed = 11u64;
        let mut sampled = 0;
        for _ in 0..4_000 {
            let document = random_document(&mut seed, 0);
            if synopsis(&document).is_none() {
                continue;
            }
            for sample in 1..=4 {
                if let Err(error) = sampled_load_agrees(&document, sample) {
                    panic!("sample {sample} of {document}: {error}");
                }
                let held =
                    load_value(&document, sample).map(|(value, _)| value.sampled_somewhere(sample));
                sampled += usize::from(held == Some(true));
            }
        }
        assert!(sampled > 1_000, "{sampled} samples");
    }

    #[test]
    fn stepping_over_a_value_ends_where_decoding_it_does() {
        let ends = |document: &str| {
            let decoded = Decoder::new(document, Mode::Validate)
                .run()
                .ok()
                .map(|decoded| decoded.end);
            (skip_value(document.as_bytes(), 0), decoded)
        };
        let mut seed = 5u64;
        let mut checked = 0;
        for _ in 0..3_000 {
            let document = random_document(&mut seed, 0);
            let (skipped, decoded) = ends(&document);
            if decoded.is_some() {
                assert_eq!(skipped, decoded, "{document}");
                checked += 1;
            }
        }
        assert!(checked > 2_000, "{checked}");
        // Escapes, brackets and quotes at every offset from the 8-byte words, and across them.
        for pad in 0..17 {
            for inner in [
                r#"\\"#,
                r#"\""#,
                r#"\\\""#,
                r#"]}\"{["#,
                r#"\u005c"#,
                "Y_y\u{7f}",
            ] {
                let document = format!(
                    r#"{{"{}{inner}":["{inner}{}",[{{}}]],"k":"{inner}"}}"#,
                    "x".repeat(pad),
                    "y".repeat(pad)
                );
                let (skipped, decoded) = ends(&document);
                assert!(decoded.is_some() && skipped == decoded, "{document}");
                let (skipped, decoded) = ends(&format!("{document} "));
                assert_eq!(skipped, decoded, "{document}");
            }
        }
    }

    #[test]
    fn a_sample_counts_distinct_keys_and_keeps_the_last_value_of_each() {
        // Python: {"a": 9, "b": 2, "c": 6, "d": 5}: `a` keeps its place with its last
        // value, `d` is the last key (with its last value), `c` is left out of the sample.
        let document = r#"{"a":1,"b":2,"c":3,"\u0061":9,"d":4,"c":6,"d":5,"b":2}"#;
        let (value, _) = load_value(document, 2).unwrap_or((Value::Null, ""));
        assert_eq!(
            value,
            Value::Map(
                vec![
                    ("a".into(), Value::Number("9".into())),
                    ("b".into(), Value::Number("2".into())),
                    ("d".into(), Value::Number("5".into())),
                ],
                4
            )
        );
        // The last new key is the last entry even when an older one repeats after it.
        let (value, _) =
            load_value(r#"{"a":1,"b":2,"c":3,"d":4,"c":5}"#, 1).unwrap_or((Value::Null, ""));
        assert_eq!(
            value,
            Value::Map(
                vec![
                    ("a".into(), Value::Number("1".into())),
                    ("d".into(), Value::Number("4".into()))
                ],
                4
            )
        );
        // Counted against serde_json (whose maps keep the first key's place too) on keys that
        // repeat past the sample in every spelling.
        let mut seed = 3u64;
        for _ in 0..200 {
            let mut entries = Vec::new();
            for _ in 0..3_000 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let key = (seed >> 33) % 2_500;
                let spelled = if seed % 3 == 0 {
                    format!("\\u006b{key}")
                } else {
                    format!("k{key}")
                };
                entries.push(format!("\"{spelled}\":{{\"v\":{}}}", seed % 7));
            }
            let document = format!("{{{}}}", entries.join(","));
            let expected: serde_json::Map<String, serde_json::Value> =
                serde_json::from_str(&document).unwrap_or_default();
            let Some((Value::Map(held, len), _)) = load_value(&document, 2_000) else {
                panic!("not a map: {document}");
            };
            assert_eq!(len, expected.len());
            let (last_key, last_value) = expected
                .iter()
                .next_back()
                .map(|(k, v)| (k.clone(), v.to_string()))
                .unwrap_or_default();
            let (held_key, held_value) = held
                .last()
                .map(|(k, v)| {
                    (
                        k.to_string(),
                        format!(
                            "{{\"v\":{}}}",
                            v.get("v").and_then(Value::scalar_text).unwrap_or_default()
                        ),
                    )
                })
                .unwrap_or_default();
            assert_eq!((held_key, held_value), (last_key, last_value));
            assert_eq!(sampled_load_agrees(&document, 2_000), Ok(()));
        }
    }

    #[test]
    fn a_sample_needs_items_of_one_type_and_keeps_depth_limits() {
        // An item past the sample unlike the sampled ones: the list is held whole.
        let (value, _) =
            load_value(r#"[{"a":1},{"a":2},{"a":3},5,{"a":4}]"#, 2).unwrap_or((Value::Null, ""));
        assert!(
            matches!(&value, Value::List(items, 5) if items.len() == 5),
            "{value:?}"
        );
        // A sample of mixed items is not taken either.
        let (value, _) = load_value(r#"[1,"x",2,3,4,5]"#, 2).unwrap_or((Value::Null, ""));
        assert!(
            matches!(&value, Value::List(items, 6) if items.len() == 6),
            "{value:?}"
        );
        // Containers past the keep depth hold their length only, sampled or not.
        let deep = format!(
            "[{}1{}, {}2{}, {}3{}]",
            "[".repeat(7),
            "]".repeat(7),
            "[".repeat(7),
            "]".repeat(7),
            "[".repeat(7),
            "]".repeat(7)
        );
        assert_eq!(sampled_load_agrees(&deep, 1), Ok(()));
        let (value, _) = load_value(&deep, 1).unwrap_or((Value::Null, ""));
        let mut level = &value;
        for _ in 0..FULL_KEEP_DEPTH {
            match level {
                Value::List(items, len) if !items.is_empty() => {
                    assert!(*len == 3 || *len == 1);
                    level = &items[0];
                }
                other => panic!("{other:?}"),
            }
        }
        assert!(
            matches!(level, Value::List(items, 1) if items.is_empty()),
            "{level:?}"
        );
        // Unvalidated text past a sample (the reference validated it) stays bounded: deep
        // nesting steps over with a counter, an unclosed container is no value.
        let hostile = format!(
            "[[1],[2],{}{},[3]]",
            "[".repeat(1_000_000),
            "]".repeat(1_000_000)
        );
        let loaded = load_value(&hostile, 1).map(|(value, _)| value);
        assert!(
            matches!(&loaded, Some(Value::List(items, 4)) if items.len() == 2),
            "{loaded:?}"
        );
        assert!(load_value(&format!("[1,2,{}", "[".repeat(100_000)), 1).is_none());
        assert!(load_value(r#"[1,2,"abc"#, 1).is_none());
    }
}
