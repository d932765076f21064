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
        Err(Stop::Invalid) => return None,
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
        built.get_mut(self.root).and_then(Option::take).unwrap_or(Value::Null)
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
    /// Keep every node down to `FULL_KEEP_DEPTH` (enhanced synopses read whole records).
    Full,
}

/// Containers nested deeper than this are not kept in `Mode::Full` (their length still is).
const FULL_KEEP_DEPTH: usize = 5;

/// The first JSON value of the stripped `output` as a whole value (containers below
/// `FULL_KEEP_DEPTH` levels hold their length but no items), with the stripped text after it.
/// `None` where `synopsis` says it is not JSON. For the enhanced synopses.
pub(crate) fn load_value(output: &str) -> Option<(Value<'_>, &str)> {
    let text = py_strip(output);
    let decoded = Decoder::new(text, Mode::Full).run().ok()?;
    let rest = py_strip(text.get(decoded.end..).unwrap_or(""));
    Some((decoded.tree.into_value(), rest))
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
        self.mode != Mode::Fast || self.walked_scalars < SCALAR_EXAMPLES
    }

    /// Whether the next value is kept and whether the walk goes through it. Kept: the root; the
    /// first 3 items of a top-level array (shape samples); the values of the first 10 top-level
    /// keys (structure lines); values on the walk (object values, first array items) while the
    /// walk may still need them. A kept node's parent is always kept.
    fn next_value_context(&self) -> (bool, bool) {
        let Some(parent) = self.stack.last() else {
            return (true, true);
        };
        if self.mode == Mode::Full {
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
}
