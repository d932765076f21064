//! The kept nodes of a decoded document and the synopsis the reference reads from them: key
//! lists, shapes, array lengths and the first scalars of a depth-first walk.

use super::*;

pub(super) type NodeId = usize;

pub(super) struct ObjectNode<'a> {
    /// Number of distinct keys.
    pub(super) len: usize,
    /// The first 10 distinct keys, in first-seen order.
    pub(super) first_keys: Vec<JsonText<'a>>,
    /// The kept values, always a prefix of the distinct keys in order (dict order).
    pub(super) children: Vec<(JsonText<'a>, NodeId)>,
}

/// A decoded value the synopsis may read. Containers only hold what the synopsis needs.
pub(super) enum Node<'a> {
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
    pub(super) fn type_name(&self) -> &'static str {
        match self {
            Node::Object(_) => "object",
            Node::Array { .. } => "array",
            Node::Str(_) => "string",
            Node::Int(_) | Node::Float(_) => "number",
            Node::Bool(_) => "boolean",
            Node::Null => "null",
        }
    }

    pub(super) fn is_container(&self) -> bool {
        matches!(self, Node::Object(_) | Node::Array { .. })
    }

    /// `clip(py_repr(v), 80)` of a scalar.
    pub(super) fn clipped_repr(&self) -> String {
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

pub(super) fn join_keys(keys: &[JsonText<'_>]) -> String {
    keys.iter()
        .map(JsonText::display)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The kept nodes of a decoded document.
pub(super) struct Tree<'a> {
    pub(super) nodes: Vec<Node<'a>>,
    pub(super) root: NodeId,
}

impl<'a> Tree<'a> {
    /// The tree as a `Value`, built from the leaves up (nodes are numbered in document order,
    /// children after their parent), so no recursion follows the input's nesting.
    #[cfg(feature = "enhanced")]
    pub(super) fn into_value(self) -> Value<'a> {
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
    pub(super) fn node(&self, id: NodeId) -> &Node<'_> {
        self.nodes.get(id).unwrap_or(&Node::Null)
    }

    pub(super) fn synopsis(&self, trailing: usize) -> Synopsis {
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
    pub(super) fn shape(&self, id: NodeId, depth: usize) -> String {
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
    pub(super) fn scalar_examples(&self) -> Vec<String> {
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
