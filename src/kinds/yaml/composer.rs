//! Composer (port of PyYAML's composer.py): events to a node graph; an alias is the id of the
//! anchored node (never a copy).

use super::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tag {
    Str,
    Null,
    Bool,
    Int,
    Float,
    Timestamp,
    Binary,
    Merge,
    Value,
    Seq,
    Map,
    Set,
    Omap,
    Pairs,
    /// Any tag SafeConstructor has no constructor for: an error if the node is ever constructed.
    Unknown,
}

pub(super) fn tag_from_uri(uri: &str) -> Tag {
    match uri.strip_prefix("tag:yaml.org,2002:") {
        Some("str") => Tag::Str,
        Some("null") => Tag::Null,
        Some("bool") => Tag::Bool,
        Some("int") => Tag::Int,
        Some("float") => Tag::Float,
        Some("timestamp") => Tag::Timestamp,
        Some("binary") => Tag::Binary,
        Some("merge") => Tag::Merge,
        Some("value") => Tag::Value,
        Some("seq") => Tag::Seq,
        Some("map") => Tag::Map,
        Some("set") => Tag::Set,
        Some("omap") => Tag::Omap,
        Some("pairs") => Tag::Pairs,
        _ => Tag::Unknown,
    }
}

#[derive(Debug, Clone)]
pub(super) enum Body<'a> {
    Scalar(Cow<'a, str>),
    Sequence(Vec<usize>),
    Mapping(Vec<(usize, usize)>),
}

#[derive(Debug, Clone)]
pub(super) struct Node<'a> {
    pub(super) tag: Tag,
    pub(super) body: Body<'a>,
}

pub(super) struct Composer<'a> {
    pub(super) parser: Parser<'a>,
    pub(super) nodes: Vec<Node<'a>>,
    /// Every alias is looked up here (and every anchor checked for a duplicate): FxHash, not
    /// SipHash. Only looked up, never walked in its order.
    pub(super) anchors: HashMap<&'a str, usize, BuildHasherDefault<FxHasher>>,
}

/// A collection being composed, with the key waiting for its value when it is a mapping.
pub(super) struct OpenCollection {
    pub(super) node: usize,
    pub(super) pending_key: Option<usize>,
}

impl<'a> Composer<'a> {
    pub(super) fn new(text: &'a str) -> Self {
        Composer {
            parser: Parser::new(text),
            nodes: Vec::new(),
            anchors: HashMap::default(),
        }
    }

    /// PyYAML's `get_single_node`: `None` for an empty stream, an error for a second document.
    pub(super) fn compose_single_document(&mut self) -> Res<Option<usize>> {
        if self.parser.next_event()? != Event::StreamStart {
            return Err(Rejected);
        }
        let mut root = None;
        if *self.parser.peek_event()? != Event::StreamEnd {
            self.parser.next_event()?; // DocumentStart
            root = Some(self.compose_node()?);
            if self.parser.next_event()? != Event::DocumentEnd {
                return Err(Rejected);
            }
        }
        if self.parser.next_event()? != Event::StreamEnd {
            return Err(Rejected); // "expected a single document in the stream"
        }
        Ok(root)
    }

    /// PyYAML's `compose_all`: the root of every document in the stream (anchors are per
    /// document).
    #[cfg(feature = "enhanced")]
    pub(super) fn compose_all_documents(&mut self) -> Res<Vec<usize>> {
        if self.parser.next_event()? != Event::StreamStart {
            return Err(Rejected);
        }
        let mut roots = Vec::new();
        while *self.parser.peek_event()? != Event::StreamEnd {
            self.parser.next_event()?; // DocumentStart
            roots.push(self.compose_node()?);
            if self.parser.next_event()? != Event::DocumentEnd {
                return Err(Rejected);
            }
            self.anchors.clear();
        }
        Ok(roots)
    }

    pub(super) fn register_anchor(&mut self, anchor: Option<&'a str>, node: usize) -> Res<()> {
        if let Some(anchor) = anchor {
            if self.anchors.insert(anchor, node).is_some() {
                return Err(Rejected); // duplicate anchor
            }
        }
        Ok(())
    }

    pub(super) fn add_node(&mut self, tag: Tag, body: Body<'a>) -> usize {
        self.nodes.push(Node { tag, body });
        self.nodes.len() - 1
    }

    /// Composes one node tree with an explicit stack of open collections.
    pub(super) fn compose_node(&mut self) -> Res<usize> {
        let mut open: Vec<OpenCollection> = Vec::new();
        loop {
            let finished = match self.parser.next_event()? {
                Event::Alias(name) => Some(*self.anchors.get(name).ok_or(Rejected)?),
                Event::Scalar {
                    anchor,
                    tag,
                    resolve_implicitly,
                    value,
                } => {
                    // Python checks for a duplicate anchor before building the node.
                    if anchor
                        .as_ref()
                        .is_some_and(|name| self.anchors.contains_key(name))
                    {
                        return Err(Rejected);
                    }
                    let tag = match tag.as_deref() {
                        None | Some("!") if resolve_implicitly => resolve_plain_scalar(&value),
                        None | Some("!") => Tag::Str,
                        Some(uri) => tag_from_uri(uri),
                    };
                    let node = self.add_node(tag, Body::Scalar(value));
                    self.register_anchor(anchor, node)?;
                    Some(node)
                }
                Event::SequenceStart { anchor, tag } => {
                    let tag = match tag.as_deref() {
                        None | Some("!") => Tag::Seq,
                        Some(uri) => tag_from_uri(uri),
                    };
                    self.open_collection(&mut open, anchor, tag, Body::Sequence(Vec::new()))?;
                    None
                }
                Event::MappingStart { anchor, tag } => {
                    let tag = match tag.as_deref() {
                        None | Some("!") => Tag::Map,
                        Some(uri) => tag_from_uri(uri),
                    };
                    self.open_collection(&mut open, anchor, tag, Body::Mapping(Vec::new()))?;
                    None
                }
                Event::SequenceEnd | Event::MappingEnd => Some(open.pop().ok_or(Rejected)?.node),
                _ => return Err(Rejected),
            };
            let Some(node) = finished else { continue };
            let Some(parent) = open.last_mut() else {
                return Ok(node);
            };
            let parent_node = self.nodes.get_mut(parent.node).ok_or(Rejected)?;
            match &mut parent_node.body {
                Body::Sequence(items) => items.push(node),
                Body::Mapping(pairs) => match parent.pending_key.take() {
                    Some(key) => pairs.push((key, node)),
                    None => parent.pending_key = Some(node),
                },
                Body::Scalar(_) => return Err(Rejected),
            }
        }
    }

    pub(super) fn open_collection(
        &mut self,
        open: &mut Vec<OpenCollection>,
        anchor: Option<&'a str>,
        tag: Tag,
        body: Body<'a>,
    ) -> Res<()> {
        if anchor
            .as_ref()
            .is_some_and(|name| self.anchors.contains_key(name))
        {
            return Err(Rejected);
        }
        // PyYAML's recursive composer raises RecursionError past this depth.
        if open.len() >= MAX_NESTING_DEPTH {
            return Err(Rejected);
        }
        let node = self.add_node(tag, body);
        self.register_anchor(anchor, node)?;
        open.push(OpenCollection {
            node,
            pending_key: None,
        });
        Ok(())
    }
}
