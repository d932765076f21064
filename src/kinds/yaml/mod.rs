//! YAML kind (SPEC 3.3): load ONE document with PyYAML `yaml.safe_load` semantics and summarise it.
//!
//! Parity with PyYAML matters more than YAML-spec correctness: the reference accepts exactly what
//! PyYAML's pure-Python `SafeLoader` accepts, so the reader check, scanner, parser and composer
//! (one submodule per stage) are a port of PyYAML's (MIT licence, Copyright (c) 2017-2021 Ingy döt Net, Copyright (c) 2006-2016
//! Kirill Simonov), including its YAML 1.1 implicit resolvers and its `SafeConstructor` rules.
//! Only what the synopsis needs is kept: no marks, no error messages (any error means "not YAML").
//!
//! Safety: aliases are node ids into an arena (never copies), so an alias bomb costs nothing; merged
//! key lists are de-duplicated by Python key equality as they are built, so merge bombs stay bounded
//! by the number of distinct keys; nothing recurses with the input's nesting except merge flattening,
//! whose depth is capped (PyYAML itself dies with `RecursionError` well before that).

mod bigint;
mod composer;
mod constructor;
mod parser;
mod reader;
mod resolver;
mod scanner;
mod simple;

use bigint::*;
use composer::*;
use constructor::*;
use parser::*;
use reader::*;
use resolver::*;
use scanner::*;

use super::Synopsis;
use crate::python::{py_bytes_repr, py_repr_float, py_strip, utf8_len, INT_MAX_STR_DIGITS};
#[cfg(feature = "enhanced")]
use crate::value::Value;
// The composer's anchors and enhanced mode's key sets: maps only looked up.
use crate::fx_hasher::FxHasher;
use std::borrow::Cow;
use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasherDefault;

/// How many keys the summary and structure show (SPEC 3.3).
const MAX_LISTED_KEYS: usize = 30;

/// PyYAML's composer recurses twice per nested collection, so under CPython's default recursion
/// limit of 1000 it raises `RecursionError` at about 490 nested collections (measured with PyYAML
/// 6.0.3 on CPython 3.11: 490 block levels load, 491 do not; flow sequences reach 494). The exact
/// threshold also depends on the caller's own stack depth, so this is the measured block value.
const MAX_NESTING_DEPTH: usize = 490;

/// Merge flattening recurses per nested `<<`; Python would hit its recursion limit near here.
const MAX_FLATTEN_DEPTH: usize = 900;

/// Any reason the document does not load (PyYAML would raise).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rejected;

type Res<T> = Result<T, Rejected>;

/// Loads one YAML document from `output` like `yaml.safe_load` and summarises a top-level mapping
/// or sequence; `None` when PyYAML would raise or the document is anything else.
pub fn synopsis(output: &str) -> Option<Synopsis> {
    let document = load(output).ok()?;
    let mut synopsis = Synopsis::new("yaml", "YAML output");
    match document {
        TopLevel::Mapping(entries) => {
            synopsis.summary.push("YAML object.".to_string());
            let listed = &entries[..entries.len().min(MAX_LISTED_KEYS)];
            let mut names = Vec::with_capacity(listed.len());
            for (key, _) in listed {
                names.push(key.py_str().ok()?);
            }
            synopsis
                .summary
                .push(format!("top-level keys: {}", names.join(", ")));
            for (name, (_, type_name)) in names.iter().zip(listed) {
                synopsis.structure.push(format!("{name}: {type_name}"));
            }
        }
        TopLevel::Sequence(length) => {
            synopsis.summary.push("YAML array.".to_string());
            synopsis.summary.push(format!("array length: {length}"));
        }
    }
    Some(synopsis)
}

/// What the summary needs from a loaded document.
#[derive(Debug, PartialEq)]
enum TopLevel {
    /// Python dict entries in insertion order: the key as first spelled, and the last value's type name.
    Mapping(Vec<(PyScalar, &'static str)>),
    /// A Python list of this length.
    Sequence(usize),
}

/// `yaml.safe_load(text)` reduced to what the synopsis needs.
fn load(text: &str) -> Res<TopLevel> {
    // The fast path checks printability itself as it reads each line.
    if let Some(top_level) = simple::load(text) {
        return Ok(top_level);
    }
    check_printable(text)?;
    load_with_port(text)
}

/// The full PyYAML port: scanner, parser, composer and constructor.
fn load_with_port(text: &str) -> Res<TopLevel> {
    let mut composer = Composer::new(text);
    let Some(root) = composer.compose_single_document()? else {
        return Err(Rejected); // empty stream: None is not a mapping or a sequence
    };
    let mut constructor = Constructor {
        nodes: composer.nodes,
        merged_lists: HashMap::new(),
        merged_pairs: std::cell::Cell::new(0),
    };
    constructor.construct_document(root)?;
    constructor.top_level(root)
}

/// The pairs merge flattening de-duplicated while loading `text` with the port (the merge work).
#[cfg(test)]
fn merge_work(text: &str) -> usize {
    let mut composer = Composer::new(text);
    let root = composer
        .compose_single_document()
        .ok()
        .flatten()
        .expect("a document");
    let mut constructor = Constructor {
        nodes: composer.nodes,
        merged_lists: HashMap::new(),
        merged_pairs: std::cell::Cell::new(0),
    };
    constructor.construct_document(root).expect("loads");
    constructor.merged_pairs.get()
}

/// Containers nested deeper than this are not kept by `load_documents` (nor followed through
/// aliases, so an alias cycle ends there).
#[cfg(feature = "enhanced")]
const VALUE_DEPTH: usize = 8;

/// Mappings of at most this many pairs find a repeated key among the entries kept (a compare per
/// entry costs less than hashing every key into a map of its own).
#[cfg(feature = "enhanced")]
const FEW_KEYS: usize = 16;

/// Every document of `text` (PyYAML's `compose_all` with the safe resolvers) as values, for the
/// enhanced synopses: scalars typed by their resolved tag, mapping keys as written (merge keys
/// and complex keys left out), containers below `VALUE_DEPTH` without their items. `None` when
/// PyYAML would fail to compose the stream.
#[cfg(feature = "enhanced")]
pub(crate) fn load_documents(text: &str) -> Option<Vec<Value<'_>>> {
    load_documents_cut_from(text, text.len()).map(|(documents, _)| documents)
}

/// `load_documents` of `text` cut out of a document of `whole_bytes` (enhanced mode reads big
/// documents in part): the value budget is the one the whole document's nodes would give,
/// estimated from the nodes composed here per byte, so aliases expand as far as they would in it.
/// Also whether the budget ran out (some containers were left without their items).
#[cfg(feature = "enhanced")]
pub(crate) fn load_documents_cut_from(
    text: &str,
    whole_bytes: usize,
) -> Option<(Vec<Value<'_>>, bool)> {
    check_printable(text).ok()?;
    let mut composer = Composer::new(text);
    let roots = composer.compose_all_documents().ok()?;
    let nodes = composer.nodes;
    let whole_nodes =
        nodes.len() as u128 * whole_bytes.max(text.len()) as u128 / text.len().max(1) as u128;
    // Aliases share nodes: the values built are bounded by the nodes composed, so an alias bomb
    // cannot make them explode (what is over the budget is left out, lengths stay).
    let mut budget = usize::try_from(whole_nodes)
        .unwrap_or(usize::MAX)
        .saturating_mul(2)
        .saturating_add(1024);
    let documents = roots
        .into_iter()
        .map(|root| node_value(&nodes, root, 0, &mut budget))
        .collect();
    Some((documents, budget == 0))
}

#[cfg(feature = "enhanced")]
fn node_value<'a>(
    nodes: &[composer::Node<'a>],
    id: usize,
    depth: usize,
    budget: &mut usize,
) -> Value<'a> {
    let Some(node) = nodes.get(id) else {
        return Value::Null;
    };
    *budget = budget.saturating_sub(1);
    let expand = depth < VALUE_DEPTH && *budget > 0;
    match &node.body {
        Body::Scalar(text) => match node.tag {
            Tag::Null => Value::Null,
            Tag::Bool => Value::Bool(matches!(
                text.to_ascii_lowercase().as_str(),
                "yes" | "true" | "on"
            )),
            Tag::Int | Tag::Float => Value::Number(text.clone()),
            _ => Value::Text(text.clone()),
        },
        Body::Sequence(items) => Value::List(
            if expand {
                items
                    .iter()
                    .map(|&item| node_value(nodes, item, depth + 1, budget))
                    .collect()
            } else {
                Vec::new()
            },
            items.len(),
        ),
        Body::Mapping(pairs) => {
            let mut entries: Vec<(Cow<'a, str>, Value<'a>)> = Vec::new();
            // A key seen before is left out (the first is kept). Most mappings are records of a
            // few keys: those are searched among the entries kept, without a map of their own.
            let mut seen: Option<HashMap<&str, (), BuildHasherDefault<FxHasher>>> =
                (pairs.len() > FEW_KEYS).then(HashMap::default);
            if expand {
                for &(key, value) in pairs {
                    let Some(composer::Node {
                        tag,
                        body: Body::Scalar(key),
                    }) = nodes.get(key)
                    else {
                        continue;
                    };
                    if *tag == Tag::Merge {
                        continue;
                    }
                    let seen_before = match &mut seen {
                        Some(seen) => seen.insert(key.as_ref(), ()).is_some(),
                        None => entries.iter().any(|(kept, _)| kept == key),
                    };
                    if seen_before {
                        continue;
                    }
                    entries.push((key.clone(), node_value(nodes, value, depth + 1, budget)));
                }
            }
            Value::Map(entries, pairs.len())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every document of up to four of `pieces` (one line each) that the fast path answers gets
    /// the port's answer; returns how many it answered.
    fn fast_path_answers_as_the_port(pieces: &[&str]) -> usize {
        let lines: Vec<String> = pieces.iter().map(|piece| format!("{piece}\n")).collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let mut answered = 0;
        for document in crate::test_support::joined_pieces(&lines) {
            if let Some(fast) = simple::load(&document) {
                answered += 1;
                assert_eq!(Ok(fast), load_with_port(&document), "{document:?}");
            }
        }
        answered
    }

    fn keys(text: &str) -> Option<Vec<String>> {
        synopsis(text).map(|s| s.structure)
    }

    /// The keys `load_documents` keeps of a mapping, by the rule it implements written with a
    /// set: the first of each scalar key, merge keys left out, in order.
    #[cfg(feature = "enhanced")]
    fn kept_keys_by_set(text: &str) -> Vec<String> {
        let mut composer = Composer::new(text);
        let root = composer
            .compose_single_document()
            .ok()
            .flatten()
            .expect("a document");
        let Body::Mapping(pairs) = &composer.nodes[root].body else {
            panic!("a mapping")
        };
        let mut seen = std::collections::HashSet::new();
        let mut kept = Vec::new();
        for &(key, _) in pairs {
            let node = &composer.nodes[key];
            if let Body::Scalar(text) = &node.body {
                if node.tag != Tag::Merge && seen.insert(text.to_string()) {
                    kept.push(text.to_string());
                }
            }
        }
        kept
    }

    #[cfg(all(feature = "enhanced", not(target_arch = "wasm32")))]
    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 500, ..Default::default() })]
        /// Mappings of few and of many keys (either side of `FEW_KEYS`), keys repeated.
        #[test]
        fn values_keep_the_first_of_each_key_as_a_set_does(
            keys in proptest::collection::vec("[a-e]{1,2}|<<|'<<'|=", 0..40)
        ) {
            let mut text = String::from("base: &b {z: 0}\n");
            for (i, key) in keys.iter().enumerate() {
                let value = if key == "<<" { "*b".to_string() } else { i.to_string() };
                text.push_str(&format!("{key}: {value}\n"));
            }
            let documents = load_documents(&text).expect("loads");
            let Some(Value::Map(entries, _)) = documents.first() else { panic!("a mapping") };
            let kept: Vec<String> = entries.iter().map(|(key, _)| key.to_string()).collect();
            let expected = kept_keys_by_set(&text);
            proptest::prop_assert_eq!(kept, expected);
        }
    }

    fn summary(text: &str) -> Option<Vec<String>> {
        synopsis(text).map(|s| s.summary)
    }

    #[test]
    fn mapping_and_sequence() {
        let result =
            synopsis("a: 1\nb: [1, 2]\nc: {x: y}\nd:\ne: yes\nf: 2024-01-02\ng: 'x'\n").unwrap();
        assert_eq!(
            result.summary,
            vec!["YAML object.", "top-level keys: a, b, c, d, e, f, g"]
        );
        assert_eq!(
            result.structure,
            vec![
                "a: number",
                "b: array",
                "c: object",
                "d: null",
                "e: boolean",
                "f: string",
                "g: string"
            ]
        );
        assert_eq!(
            summary("- 1\n- 2\n- 3\n").unwrap(),
            vec!["YAML array.", "array length: 3"]
        );
        assert_eq!(synopsis("- 1\n").unwrap().structure, Vec::<String>::new());
    }

    #[test]
    fn non_collections_are_not_yaml() {
        for text in [
            "",
            "# only a comment\n",
            "just text",
            "42",
            "~",
            "---\n",
            "!!set {a, b}",
            "!!str {=: x}",
        ] {
            assert_eq!(synopsis(text), None, "{text:?}");
        }
    }

    #[test]
    fn yaml_11_key_spellings_and_python_equality() {
        assert_eq!(
            summary("yes: 1\nNo: 2\nON: 3\n").unwrap()[1],
            "top-level keys: True, False"
        );
        // True == 1 == 1.0: one key, first spelling, last value.
        assert_eq!(
            keys("on: a\n1: 2\n1.0: [x]\n").unwrap(),
            vec!["True: array"]
        );
        assert_eq!(keys("1: a\ntrue: 2\n").unwrap(), vec!["1: number"]);
        assert_eq!(
            keys("~: 1\nnull: 2\n'null': 3\n").unwrap(),
            vec!["None: number", "null: number"]
        );
        assert_eq!(
            keys("0x1F: a\n0b11: b\n017: c\n1_000: d\n1:20: e\n").unwrap()[..5].to_vec(),
            vec![
                "31: string",
                "3: string",
                "15: string",
                "1000: string",
                "80: string"
            ]
        );
        assert_eq!(
            keys("1.5: a\n100.0: b\n1e3: c\n.inf: d\n-.inf: e\n1.0e+16: f\n").unwrap(),
            vec![
                "1.5: string",
                "100.0: string",
                "1e3: string",
                "inf: string",
                "-inf: string",
                "1e+16: string"
            ]
        );
    }

    #[test]
    fn nan_keys_follow_python_identity() {
        // SafeConstructor returns one shared NaN object for `.nan`, so the dict keeps one key.
        assert_eq!(keys(".nan: 1\n.NaN: 2\n").unwrap(), vec!["nan: number"]);
        // float('nan') makes a new object per node: two keys.
        assert_eq!(
            keys("!!float nan: 1\n!!float nan: x\n").unwrap(),
            vec!["nan: number", "nan: string"]
        );
    }

    #[test]
    fn quoted_scalars_are_strings() {
        assert_eq!(
            keys("'yes': 1\n\"1\": 2\nx: '12'\n").unwrap(),
            vec!["yes: number", "1: number", "x: string"]
        );
        // A lone `!` tag makes even a quoted scalar go through the resolvers (PyYAML quirk).
        assert_eq!(keys("! '12': x\n").unwrap(), vec!["12: string"]);
    }

    #[test]
    fn timestamps() {
        assert_eq!(
            keys("2024-01-02: a\n2001-12-14t21:59:43.10-05:00: b\n2001-12-15 2:59:43.1Z: c\n2002-12-14: d\n").unwrap(),
            vec!["2024-01-02: string", "2001-12-14 21:59:43.100000-05:00: string", "2002-12-14: string"]
        );
        assert_eq!(synopsis("a: 2024-13-01\n"), None);
        assert_eq!(synopsis("a: 2023-02-29\n"), None);
    }

    #[test]
    fn merge_keys() {
        let text = "base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  y: 3\n";
        assert_eq!(keys(text).unwrap(), vec!["base: object", "other: object"]);
        assert_eq!(
            keys("<<: {a: 1, b: [1]}\nc: 2\nb: 3\n").unwrap(),
            vec!["a: number", "b: number", "c: number"]
        );
        assert_eq!(
            keys("<<: [{a: 1}, {a: [x], b: 2}]\n").unwrap(),
            vec!["a: number", "b: number"]
        );
        assert_eq!(synopsis("a: <<\n"), None);
        // An overridden value is still constructed, so its error still counts.
        assert_eq!(synopsis("<<: {x: 1}\na: !!int bad\na: 2\n"), None);
        assert_eq!(synopsis("<<: [{a: !!int bad}, {a: 1}]\n"), None);
        assert_eq!(synopsis("<<: 1\n"), None);
        assert_eq!(synopsis("a: =\n"), None);
        assert_eq!(keys("=: 1\n").unwrap(), vec!["=: number"]);
    }

    #[test]
    fn merging_a_list_of_aliases_into_many_mappings_costs_what_the_data_costs() {
        // `<<: *list` in every item, the list holding N aliases of one mapping: the list is merged
        // once (N sources), then each item merges its distinct keys, not N sources again.
        let (aliases, items) = (2_000, 3_000);
        let mut text = String::from("base: &b {x: 1, y: 2}\nlist: &l [");
        text.push_str(&vec!["*b"; aliases].join(", "));
        text.push_str("]\nitems:\n");
        for i in 0..items {
            text.push_str(&format!("- <<: *l\n  id: {i}\n"));
        }
        let work = merge_work(&text);
        assert!(
            work <= 2 * aliases + 4 * items,
            "{work} pairs merged for {} bytes",
            text.len()
        );
        assert_eq!(
            keys(&text),
            Some(vec![
                "base: object".to_string(),
                "list: array".to_string(),
                "items: array".to_string()
            ])
        );
        // The merged items are what PyYAML makes: x and y from the list, their own id.
        let small = "b: &b {x: 1, y: 2}\nc: &c {x: 3, z: 4}\nl: &l [*b, *c]\nitems:\n- <<: *l\n  id: 1\n- <<: *l\n  y: 9\n";
        assert!(keys(small).is_some());
        // The list once (4 pairs), then each item: the list's 3 distinct keys and its own one.
        assert_eq!(merge_work(small), 4 + 4 + 4);
    }

    #[test]
    fn merge_bomb_stays_small() {
        let mut text = String::from("a0: &a0 {k0: 1, k1: 2}\n");
        for level in 1..60 {
            let previous = format!("*a{}", level - 1);
            text.push_str(&format!(
                "a{level}: &a{level} {{<<: [{previous}, {previous}, {previous}]}}\n"
            ));
        }
        assert_eq!(synopsis(&text).unwrap().structure.len(), 30);
    }

    #[test]
    fn alias_bomb_is_not_expanded() {
        let mut text = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for level in 1..40 {
            let previous = format!("*a{}", level - 1);
            let items = [previous.as_str(); 10].join(", ");
            text.push_str(&format!("a{level}: &a{level} [{items}]\n"));
        }
        assert_eq!(synopsis(&text).unwrap().summary[0], "YAML object.");
    }

    #[test]
    fn errors_reject() {
        for text in [
            "a: 1\n---\nb: 2\n",  // two documents
            "[1]: x\n",           // unhashable key
            "{a: 1}: x\n",        // unhashable key
            "a: !foo x\n",        // unknown tag
            "a: b\tc\n",          // tab cannot start a token
            "a:\n\tb: 1\n",       // tab indentation
            "a: *nope\n",         // undefined alias
            "a: &x 1\nb: &x 2\n", // duplicate anchor
            "a: 0b_\n",           // int('', 2)
            "a: !!int x\n",       // bad int
            "a: \"\\q\"\n",       // unknown escape
            "a: 1\n b: 2\n",      // mapping values are not allowed here
            "a: [1, 2\n",         // unclosed flow
            "key: value\u{7}\n",  // non-printable
        ] {
            assert_eq!(synopsis(text), None, "{text:?}");
        }
        assert!(synopsis("a: 1\n...\n").is_some());
    }

    #[test]
    fn deep_nesting_matches_python_recursion_limit() {
        let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert!(synopsis(&nested(MAX_NESTING_DEPTH)).is_some());
        assert_eq!(synopsis(&nested(MAX_NESTING_DEPTH + 1)), None);
        assert_eq!(synopsis(&nested(10_000)), None);
        let block: String = (0..10_000)
            .map(|level| format!("{}a:\n", " ".repeat(level)))
            .collect();
        assert_eq!(synopsis(&block), None);
    }

    #[test]
    fn float_keys_print_with_pythons_repr() {
        // An exact tie between two shortest digit strings: Python keeps the even one (a copy
        // of the float repr without that rule gave `934877530335423.3`).
        assert_eq!(
            keys("934877530335423.25: c\n934877530335423.75: d\n1.2345e-5: e\n100.0: f\n"),
            Some(vec![
                "934877530335423.2: string".to_string(),
                "934877530335423.8: string".to_string(),
                "1.2345e-05: string".to_string(),
                "100.0: string".to_string(),
            ])
        );
    }

    #[test]
    fn big_integers() {
        assert_eq!(
            keys("123456789012345678901234567890: a\n").unwrap(),
            vec!["123456789012345678901234567890: string"]
        );
        assert_eq!(
            keys("0xFFFFFFFFFFFFFFFFFFFF: a\n").unwrap(),
            vec!["1208925819614629174706175: string"]
        );
        assert_eq!(
            keys("-0x10: a\n1e20: b\n100000000000000000000: c\n").unwrap(),
            vec![
                "-16: string",
                "1e20: string",
                "100000000000000000000: string"
            ]
        );
        assert_eq!(
            keys("100000000000000000000.0: a\n100000000000000000000: c\n").unwrap(),
            vec!["1e+20: string"]
        );
    }

    #[test]
    fn omap_and_binary() {
        assert_eq!(
            summary("!!omap [a: 1, b: 2]").unwrap(),
            vec!["YAML array.", "array length: 2"]
        );
        assert_eq!(synopsis("!!omap [a: 1, {b: 2, c: 3}]"), None);
        assert_eq!(keys("!!binary aGk=: x\n").unwrap(), vec!["b'hi': string"]);
        assert_eq!(synopsis("a: !!binary aGk\n"), None);
    }

    #[test]
    fn simple_path_agrees_with_the_port() {
        let pieces = [
            "a: 1",
            "b:",
            "  - x",
            "- y",
            "  c: yes",
            "    d: 2024-01-02",
            "# c",
            "",
            "- - z",
            "-",
            "  -",
            "e: f # g",
            "---",
            "k:  v  ",
            " x: 1",
            "a: 0x1F",
            "  b: 2023-02-29",
            "- k: v",
            "  k2: ~",
            "q: 'it''s: #'",
            "- \"x\"",
        ];
        let answered = fast_path_answers_as_the_port(&pieces);
        assert!(answered > 5_000, "{answered}");
        // The benchmark's shape is answered by the simple path.
        let bench = "---\nitem_0:\n  name: café über\n  count: 12\n  enabled: true\n  tags:\n    - alpha\n    - 日本語\n";
        assert!(simple::load(bench).is_some());
        // Its own printable check agrees with the reader's.
        let printable = |c: char| {
            matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}'
                | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
        };
        let probes = (0..0x300)
            .chain(0x2000..0x2100)
            .chain(0xD700..0xE100)
            .chain(0xFEF0..0x10010);
        // Short lines, and long ones whose bytes the line scan reads 8 at a time.
        let texts = |ch: char| {
            [
                format!("a: b{ch}c\n"),
                format!("a: bbbbbbb{ch}ccccccccccccccc # x\n"),
            ]
        };
        for (ch, text) in probes
            .filter_map(char::from_u32)
            .flat_map(|ch| texts(ch).map(|text| (ch, text)))
        {
            let answered = simple::load(&text).is_some();
            let special = matches!(
                ch,
                '\t' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{FEFF}' | '\n' | '#' | ':'
            );
            if !special {
                assert_eq!(answered, printable(ch), "{ch:?}");
            } else if !printable(ch) {
                assert!(!answered, "{ch:?}");
            }
        }
        // What it leaves to the port.
        for text in [
            "a: 'q' x\n",
            "a: b\r\n",
            "a:\tb\n",
            "1: x\n",
            "a: <<\n",
            "a: [1,\n  2]\n",
            "a: b # c\n  d\n",
            "a: b\n\n  c\n",
            "a: b\n  c: d\n",
            "a: b\n  - c\n",
            "a: &x b\n  c\n",
            "a: 2023-02-29\n  x\n",
            "a: [b: c]\n",
            "a: {b: }\n",
            "a: [x?y]\n",
            "a: [&x 1]\n",
            "a: !!str x\n",
            "a: &x\n  b: *x\n",
            "a: *x\nb: &x 1\n",
            "a: &x 1\nb: &x 2\n",
            "a: &x {b: 1}\n<<: *x\n",
            "a: &x\n  <<: {b: 1}\nc:\n  <<: *x\n",
            "a: |2\n  x\n",
            "a: |\n     \n  x\n",
            "a: \"\\q\"\n",
            "a: 'x\n---\n'\n",
            "a: 'x\n",
            "a: 'x\n  y' z\n",
            "a: \"x\n \\q\"\n",
            "a: 'x'# c\n",
            "a: [x] #c\n  - y\n",
            "a: [x, #c\n  y]\n",
        ] {
            assert_eq!(simple::load(text), None, "{text:?}");
        }
    }

    /// The fast path's rules for flow collections, quoted scalars, anchors, aliases, merges and
    /// block scalars against the port, on every document of up to four of these lines.
    #[test]
    fn simple_path_agrees_with_the_port_on_manifest_shapes() {
        let anchors_and_blocks = [
            "a: &x 1",
            "b: *x",
            "c: &m",
            "  k: v",
            "  <<: *m",
            "<<: *m",
            "- <<: *m",
            "- &s",
            "- *s",
            "  - *x",
            "d: &m {k: 1, j: [2]}",
            "e: |",
            "  text: # x",
            "f: >-",
            "   ",
            "    deeper",
            "- y",
            "# c",
            "k: *m",
            "- |+",
            "- 1",
            "   2001-12-14",
            "  21:59:43 # c",
            "e: 'multi",
            "  line' # c",
            "q: \"esc\\",
            "  \\x41 end\" ",
        ];
        let flows_and_quotes = [
            "d: [x, 'y', \"z\\n\", {p: q}]",
            "- {n: m, v: \"p\"}",
            "g: {a: 1, a: [2], b: yes, }",
            "h: ['it''s', \"\\x41\\u00e9\\U0001F600\", 2024-01-02]",
            "i: [a: b]",
            "j: [2023-02-29, 0b_]",
            "k: {[a]: b}",
            "l: \"\\q\\xZZ\"",
            "  - x",
            "- y",
            "n: [a, [b, {c: d}], ]",
            "o: {a: , b}",
            "p: [a b, -1, .5, ~, 0x1F, 1:20, http://x, -.inf, a:b]",
            "q: {\"k\": v, 'k2' : w}",
            "r: [a, b",
            "s: ['a #b', \"\\\"\"]",
            "- [1, 2] # c",
            "t:",
            "  u: {}",
            "- [,]",
            "v: {=: x}",
            "    more words",
            "s: [\"a #b\", 'c'] # d",
            "- 'a #b' # c",
            "  y'",
        ];
        for pieces in [&anchors_and_blocks[..], &flows_and_quotes[..]] {
            let answered = fast_path_answers_as_the_port(pieces);
            assert!(answered > 2_000, "{answered}");
        }
        // The benchmark's manifests are answered by the fast path.
        let manifest = "apiVersion: v1\nkind: List\nmetadata:\n  name: \"bench\"\n\
            defaults: &defaults\n  imagePullPolicy: IfNotPresent\nitems:\n\
            - apiVersion: apps/v1\n  metadata:\n    labels: {app: svc-0, tier: \"backend\"}\n\
            \x20   annotations:\n      description: |\n        two words\n        owned by team 0\n\
            \x20 spec:\n    containers:\n    - name: main\n      <<: *defaults\n\
            \x20     args: [\"--port\", \"8273\", \"--log-level\", 'info']\n\
            \x20     env:\n      - {name: MODE, value: \"production\"}\n      - name: D\n\
            \x20       value: 'two words'\n";
        let fast = simple::load(manifest);
        assert!(fast.is_some(), "{manifest}");
        assert_eq!(fast, load_with_port(manifest).ok());
        // Plain scalars folded over lines, as kubectl writes long descriptions: the folded value
        // decides the type (`1 2` is a str, `1` alone an int).
        let folded =
            "a: 1\n  2\nspec:\n  description: APIVersion defines the versioned schema\n    \
            of an object. Servers should convert\n  version: v1\n";
        let fast = simple::load(folded);
        assert_eq!(
            fast,
            Some(TopLevel::Mapping(vec![
                (PyScalar::Str("a".to_string()), "string"),
                (PyScalar::Str("spec".to_string()), "object"),
            ]))
        );
        assert_eq!(fast, load_with_port(folded).ok());
    }

    /// Manifest text with random edits (an indicator, quote, space or break inserted, a byte
    /// deleted, a line indented or outdented): wherever the fast path answers, the port agrees.
    #[test]
    fn simple_path_agrees_with_the_port_on_edited_manifests() {
        let manifest = "apiVersion: v1\nkind: List\nmetadata:\n  name: \"bench-manifests\"\n\
            defaults: &defaults\n  imagePullPolicy: IfNotPresent\nitems:\n\
            - apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: \"svc-0\"\n\
            \x20   labels: {app: svc-0, tier: \"backend\"}\n    annotations:\n      description: |\n\
            \x20       november romeo\n        owned by team 0\n  spec:\n    replicas: 3\n\
            \x20   template:\n      spec:\n        containers:\n        - name: main\n\
            \x20         <<: *defaults\n          image: \"registry.example.com/svc-0:1.0.0\"\n\
            \x20         args: [\"--port\", \"8273\", \"--log-level\", 'info']\n\
            \x20         ports:\n          - containerPort: 8273\n            protocol: TCP\n\
            \x20         env:\n          - {name: MODE, value: \"production\"}\n\
            \x20         - name: DESCRIPTION\n            value: 'november romeo'\n\
            \x20           more: words\n              folded on\n";
        let insertions = [
            ":",
            ": ",
            "#",
            " #",
            "'",
            "\"",
            "[",
            "]",
            "{",
            "}",
            ",",
            "&a",
            "*defaults",
            "|",
            ">",
            "- ",
            " ",
            "  ",
            "\n",
            "\n  ",
            "?",
            "!",
            "\\",
            "\\x4",
            "<<: *defaults\n",
            "=",
            "1",
        ];
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |bound: usize| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) as usize) % bound
        };
        let (mut answered, mut loaded) = (0, 0);
        for _ in 0..20_000 {
            let mut text = manifest.to_string();
            for _ in 0..1 + next(3) {
                let mut at = next(text.len() + 1);
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                match next(4) {
                    0 | 1 => text.insert_str(at, insertions[next(insertions.len())]),
                    2 if at < text.len() => {
                        text.remove(at);
                    }
                    _ => {
                        let line_start = text[..at].rfind('\n').map_or(0, |n| n + 1);
                        if text[line_start..].starts_with("  ") && next(2) == 0 {
                            text.replace_range(line_start..line_start + 2, "");
                        } else {
                            text.insert_str(line_start, "  ");
                        }
                    }
                }
            }
            let port = load_with_port(&text);
            loaded += usize::from(port.is_ok());
            if let Some(fast) = simple::load(&text) {
                answered += 1;
                assert_eq!(Ok(fast), port, "{text:?}");
            }
        }
        // About 5,000 of the 20,000 are answered, of about 5,800 that load.
        assert!(
            answered > 3_000 && loaded >= answered,
            "{answered} answered, {loaded} loaded"
        );
    }

    #[test]
    fn printable_check_agrees_with_the_char_rule() {
        let printable = |c: char| {
            matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}'
                | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
        };
        let pieces = [
            "a", "\t", "\n", "\r", "\u{7}", "\u{7F}", "\u{85}", "\u{9F}", "é", "\u{FFFE}", "😀",
            "\0",
        ];
        let long = "x".repeat(40);
        for joined in crate::test_support::joined_pieces(&pieces) {
            for text in [
                joined.clone(),
                format!("{long}{joined}"),
                format!("{joined}{long}"),
                format!("{}{joined}", &long[..31]),
            ] {
                assert_eq!(
                    check_printable(&text).is_ok(),
                    text.chars().all(printable),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn scalar_resolvers_agree_with_pyyamls_patterns() {
        let pattern = |body: &str| regex::Regex::new(&format!("^(?:{body})$")).unwrap();
        type Matcher = fn(&str) -> bool;
        let checks: [(regex::Regex, Matcher); 4] = [
            (
                pattern(
                    "yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF",
                ),
                is_yaml_bool,
            ),
            (pattern("~|null|Null|NULL|"), is_yaml_null),
            (
                pattern(
                    r"[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+",
                ),
                is_yaml_int,
            ),
            (
                pattern(
                    r"[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)",
                ),
                is_yaml_float,
            ),
        ];
        let pieces = [
            "0", "1", "7", "9", "_", ".", ":", "5", "60", "e", "E", "+", "-", "b", "x", "f", "inf",
            "NaN", "ON", "No", "~", "null", "",
        ];
        for candidate in crate::test_support::joined_pieces(&pieces) {
            for (reference, matcher) in &checks {
                assert_eq!(
                    matcher(&candidate),
                    reference.is_match(&candidate),
                    "{candidate:?} against {reference}"
                );
            }
        }
    }

    /// The hand-written timestamp matcher against PyYAML's two patterns (resolver.py's, which
    /// decides the tag, and constructor.py's, whose groups build the value).
    #[test]
    fn timestamp_matcher_agrees_with_pyyamls_patterns() {
        let pattern = |body: &str| regex::Regex::new(&format!("^(?:{body})$")).unwrap();
        let resolver = pattern(
            r"[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?",
        );
        let parts = pattern(
            r"(?P<year>[0-9][0-9][0-9][0-9])-(?P<month>[0-9][0-9]?)-(?P<day>[0-9][0-9]?)(?:(?:[Tt]|[ \t]+)(?P<hour>[0-9][0-9]?):(?P<minute>[0-9][0-9]):(?P<second>[0-9][0-9])(?:\.(?P<fraction>[0-9]*))?(?:[ \t]*(?P<tz>Z|(?P<tz_sign>[-+])(?P<tz_hour>[0-9][0-9]?)(?::(?P<tz_minute>[0-9][0-9]))?))?)?",
        );
        // Valid timestamps of every shape, and every one- and two-char edit of them.
        let seeds = [
            "2001-12-14",
            "2001-1-4",
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14 21:59:43.10 -5",
            "2001-1-1 1:02:03Z",
            "2001-12-14\t21:59:43 +05:30",
            "2001-12-14T21:59:43.",
            "2001-12-14  1:59:43\tZ",
        ];
        let alphabet = [
            '0', '1', '9', '-', ':', 'T', 't', ' ', '\t', '.', 'Z', '+', 'x', '\n',
        ];
        let edits = |text: &str| -> Vec<String> {
            let chars: Vec<char> = text.chars().collect();
            let mut out = vec![text.to_string()];
            for at in 0..=chars.len() {
                let (head, tail) = chars.split_at(at);
                let join = |middle: &[char], tail: &[char]| {
                    head.iter().chain(middle).chain(tail).collect::<String>()
                };
                if !tail.is_empty() {
                    out.push(join(&[], &tail[1..]));
                }
                for &c in &alphabet {
                    out.push(join(&[c], tail));
                    if !tail.is_empty() {
                        out.push(join(&[c], &tail[1..]));
                    }
                }
            }
            out
        };
        let candidates: Vec<String> = seeds
            .iter()
            .flat_map(|seed| edits(seed))
            .flat_map(|once| {
                edits(&once)
                    .into_iter()
                    .step_by(7)
                    .chain(std::iter::once(once))
            })
            .collect();
        let mut checked = 0;
        for candidate in candidates {
            assert_eq!(
                is_yaml_timestamp(&candidate),
                resolver.is_match(&candidate),
                "{candidate:?}"
            );
            let ours = timestamp_parts(&candidate);
            let reference = parts.captures(&candidate);
            assert_eq!(ours.is_some(), reference.is_some(), "{candidate:?}");
            if let (Some(ours), Some(reference)) = (ours, reference) {
                let group = |name: &str| reference.name(name).map(|m| m.as_str());
                let time = ours.time.as_ref();
                let tz = time.and_then(|t| t.tz);
                let sign = tz
                    .and_then(|(sign, _, _)| sign)
                    .map(|b| if b == b'-' { "-" } else { "+" });
                assert_eq!(
                    [
                        Some(ours.year),
                        Some(ours.month),
                        Some(ours.day),
                        time.map(|t| t.hour),
                        time.map(|t| t.minute),
                        time.map(|t| t.second),
                        time.and_then(|t| t.fraction),
                        sign,
                        tz.filter(|t| t.0.is_some()).map(|t| t.1),
                        tz.and_then(|t| t.2)
                    ],
                    [
                        group("year"),
                        group("month"),
                        group("day"),
                        group("hour"),
                        group("minute"),
                        group("second"),
                        group("fraction"),
                        group("tz_sign"),
                        group("tz_hour"),
                        group("tz_minute")
                    ],
                    "{candidate:?}"
                );
                assert_eq!(tz.is_some(), group("tz").is_some(), "{candidate:?}");
                checked += 1;
            }
        }
        assert!(checked > 100, "{checked} timestamps compared");
        for fixed in [
            "2001-12-14t21:59:43.10-05:00",
            "2001-12-14 21:59:43.10 -5",
            "2002-12-14",
            "2001-1-1 1:02:03Z",
            "2001-12-14\t21:59:43 +05:30",
        ] {
            assert!(is_yaml_timestamp(fixed), "{fixed}");
        }
    }
}
