//! The single-pass, iterative decoder with Python's rules: what it keeps of a document by mode
//! (the synopsis's nodes, a value for enhanced mode, a sample, or nothing).

use super::*;

/// How much of the document to keep.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// Assume no duplicate keys where they matter: stop keeping walk nodes once 5 scalars are
    /// kept (in document order they are the walk's first 5). A duplicate key in a walked object
    /// aborts with [`Stop::NeedsExact`].
    Fast,
    /// Keep every node the walk could reach and apply dict semantics to duplicate keys.
    Exact,
    /// Keep every node down to `FULL_KEEP_DEPTH` (enhanced synopses read whole records), but of
    /// a container of more than `sample + 1` items only its first `sample` items and its last
    /// (a sample, see `crate::value`). What is not kept is stepped over without validation
    /// (`skip_value`): the enhanced synopses only load what the reference's decode accepted.
    Sampled,
    /// Keep nothing: whether the text starts with a JSON value, and where it ends (what the
    /// tests check `skip_value` against).
    #[cfg_attr(not(test), allow(dead_code))]
    Validate,
}

/// Whether this build samples in `Mode::Sampled` (the enhanced synopses'): without it (the main
/// wasm module, which never loads values) the sampling branches are dead code, left out, and
/// `Mode::Sampled` keeps every item.
pub(super) const SAMPLING: bool = cfg!(feature = "enhanced");

/// Containers nested deeper than this are not kept in `Mode::Sampled` (their length still is).
pub(super) const FULL_KEEP_DEPTH: usize = 5;

/// The first JSON value of the stripped `output` as a value (containers below `FULL_KEEP_DEPTH`
/// levels hold their length but no items; containers of more than `sample + 1` items all of one
/// type hold a sample: their first `sample` items and their last), with the stripped text after
/// it. `None` where `synopsis` says it is not JSON. For the enhanced synopses, which call it on
/// outputs the reference decoded (`synopsis`): past the kept items it steps over the text
/// without validating it again.
#[cfg(feature = "enhanced")]
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

/// Whether the stripped `line` is one JSON value by its shape: a string to its closing quote, a
/// container to its closing bracket, a scalar to its delimiter (`skip_value`, unvalidated, no
/// allocation), with nothing after it. What it lets through that Python would reject is inside
/// one balanced value (`{"id": tru}`): the JSON Lines check of the lines past a sample.
#[cfg(feature = "enhanced")]
pub(crate) fn spans_one_value(line: &str) -> bool {
    let text = py_strip(line);
    skip_value(text.as_bytes(), 0) == Some(text.len())
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

pub(super) enum Stop {
    /// Python's decoder would raise.
    Invalid,
    /// A duplicate key where the fast mode cannot be exact.
    NeedsExact,
    /// `Mode::Sampled`: an item past a container's sample is of another type than the sample's.
    Mixed,
}

pub(super) struct Decoded<'a> {
    pub(super) tree: Tree<'a>,
    /// Byte offset just past the first value.
    pub(super) end: usize,
}

/// A container being decoded.
pub(super) struct OpenContainer<'a> {
    pub(super) is_object: bool,
    /// The node when the container is kept.
    pub(super) node: Option<NodeId>,
    /// Whether the scalar walk goes through this container.
    pub(super) walked: bool,
    pub(super) is_root: bool,
    /// Items so far (arrays).
    pub(super) count: usize,
    /// Key bookkeeping, for kept objects only (boxed: most open containers are not kept).
    pub(super) keys: Option<Box<KeyIndex<'a>>>,
    /// `Mode::Sampled` bookkeeping.
    pub(super) sampling: Sampling<'a>,
}

/// How a kept container of `Mode::Sampled` holds its items.
#[derive(Default)]
pub(super) struct Sampling<'a> {
    /// The types (`type_bit`) of the items kept.
    pub(super) types: u8,
    /// Keep every item: the sample's items are of several types.
    pub(super) whole: bool,
    /// Items past the sample have come (they are stepped over).
    pub(super) past: bool,
    /// The item last stepped over past the sample that may be the container's last: where it
    /// starts and, in an object, its key and dict position (the latest new key's last value).
    pub(super) last_skipped: Option<(usize, Option<(JsonText<'a>, usize)>)>,
    /// Decoding that last item after the container's end was found: where the end is.
    pub(super) resume_at: Option<usize>,
}

/// The keys of a kept object being decoded.
#[derive(Default)]
pub(super) struct KeyIndex<'a> {
    /// Distinct keys and their dict position.
    pub(super) positions: HashMap<JsonText<'a>, usize, BuildHasherDefault<FxHasher>>,
    /// Key and dict position of the value being decoded.
    pub(super) pending: Option<(JsonText<'a>, usize)>,
}

/// Byte classes inside a string: `"`, `\` and control chars end a plain run.
pub(super) const ENDS_STRING_RUN: [bool; 256] = {
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

pub(super) struct Decoder<'a> {
    pub(super) text: &'a str,
    pub(super) bytes: &'a [u8],
    pub(super) pos: usize,
    pub(super) mode: Mode,
    /// `Mode::Sampled`: items kept of a container before the sample's last item.
    pub(super) sample: usize,
    /// Scalars kept on the walk so far (fast mode stops keeping walk nodes at 5).
    pub(super) walked_scalars: usize,
    pub(super) nodes: Vec<Node<'a>>,
    pub(super) stack: Vec<OpenContainer<'a>>,
}

impl<'a> Decoder<'a> {
    pub(super) fn new(text: &'a str, mode: Mode) -> Self {
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
    #[cfg(feature = "enhanced")]
    pub(super) fn with_sample(mut self, sample: usize) -> Self {
        // (Called only where `SAMPLING` holds.)
        self.sample = sample.max(1);
        self
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// JSON whitespace only (Python's `json` WS): space, `\t`, `\n`, `\r`.
    pub(super) fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    pub(super) fn add_node(&mut self, node: Node<'a>) -> NodeId {
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    pub(super) fn walk_open(&self) -> bool {
        self.mode != Mode::Fast || self.walked_scalars < SCALAR_EXAMPLES
    }

    /// Whether the next value is kept and whether the walk goes through it. Kept: the root; the
    /// first 3 items of a top-level array (shape samples); the values of the first 10 top-level
    /// keys (structure lines); values on the walk (object values, first array items) while the
    /// walk may still need them. A kept node's parent is always kept.
    pub(super) fn next_value_context(&self) -> (bool, bool) {
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

    pub(super) fn run(mut self) -> Result<Decoded<'a>, Stop> {
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
    pub(super) fn past_sample(&mut self, next: u8) -> Result<bool, Stop> {
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
    pub(super) fn rewind_to_last_item(&mut self) -> bool {
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
    pub(super) fn attach(&mut self, child: Option<NodeId>) -> Result<(), Stop> {
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
    pub(super) fn close(&mut self) -> Result<Option<NodeId>, Stop> {
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
    pub(super) fn read_key(&mut self) -> Result<(), Stop> {
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
    pub(super) fn read_scalar(&mut self, kept: bool) -> Result<Option<Node<'a>>, Stop> {
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
    pub(super) fn scan_number(&mut self) -> Result<bool, Stop> {
        let (end, is_float) = number_end(self.bytes, self.pos).map_err(|_| Stop::Invalid)?;
        self.pos = end;
        Ok(is_float)
    }

    pub(super) fn plain_run_end(&self, at: usize) -> usize {
        plain_run_end(self.bytes, at)
    }

    pub(super) fn hex4(&self, at: usize) -> Result<u32, Stop> {
        hex4(self.bytes, at).ok_or(Stop::Invalid)
    }

    /// Validates a string at `self.pos` (an opening quote) without decoding it.
    pub(super) fn skip_string(&mut self) -> Result<(), Stop> {
        self.pos = string_end(self.bytes, self.pos).map_err(|_| Stop::Invalid)?;
        Ok(())
    }

    /// Decodes a string at `self.pos` (an opening quote).
    pub(super) fn read_string(&mut self) -> Result<JsonText<'a>, Stop> {
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
