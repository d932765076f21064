//! XML kind (SPEC 3.5): accept or reject the whole output exactly as Python's
//! `xml.etree.ElementTree.fromstring` does on a `str` (expat 2.5.0, namespace-aware, separator
//! `}`, parameter-entity parsing off, no external entity loading), then summarise the root.
//!
//! Acceptance decides the kind of every output that starts with `<`, so this is a small strict
//! parser that follows expat's tokenizer (`xmltok_impl.c`), prolog grammar (`xmlrole.c`) and the
//! checks of `xmlparse.c` (entities, attribute defaults, namespace bindings) rather than a
//! lenient tokenizer with patches. Every error expat would report makes the parse fail; which
//! error it is does not matter. No recursion: elements, entity expansions and attribute-value
//! expansions each use an explicit stack, so deep nesting cannot overflow the call stack.

mod chars;
mod content;
mod decl;
mod dtd;
mod names;
mod prolog;
mod tokens;

use chars::*;
use decl::*;
use dtd::*;
use names::*;
use prolog::*;
use tokens::*;

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::Synopsis;
use crate::python::{stable_sort_by, utf8_len};

/// Most child-tag lines listed in the structure.
const MAX_CHILD_TAGS: usize = 30;

/// Expat's billion-laughs protection (2.4+ defaults): once direct + expanded bytes reach
/// 8 MiB, the ratio (direct + expanded) / direct may not exceed 100.
const AMPLIFICATION_ACTIVATION_BYTES: u64 = 8 * 1024 * 1024;
const AMPLIFICATION_MAX_FACTOR: f64 = 100.0;

const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";
const XMLNS_NAMESPACE: &str = "http://www.w3.org/2000/xmlns/";

/// The synopsis of an XML document, or None when expat (as ElementTree drives it) rejects it.
pub fn synopsis(output: &str) -> Option<Synopsis> {
    let summary = parse_document(output).ok()?;
    let mut syn = Synopsis::new("xml", "XML output");
    syn.summary
        .push(format!("XML document with root: {}.", summary.root_tag));
    syn.structure.push(format!("root: {}", summary.root_tag));
    syn.structure
        .push(format!("attributes: {}", summary.root_attributes));
    let mut children = summary.children;
    // Stable sort keeps first-seen order among equal counts (Python's Counter.most_common).
    stable_sort_by(&mut children, |a, b| b.1.cmp(&a.1));
    for (tag, count) in children.into_iter().take(MAX_CHILD_TAGS) {
        syn.structure.push(format!("{tag}: {count}"));
    }
    Some(syn)
}

/// What the synopsis needs from a well-formed document.
#[derive(Debug, Default, PartialEq)]
struct DocumentSummary {
    root_tag: String,
    root_attributes: usize,
    /// Direct element children of the root: tag and count, in first-seen order.
    children: Vec<(String, usize)>,
}

/// Any well-formedness or namespace error; expat's error code is not needed.
#[derive(Debug, PartialEq)]
struct XmlError;

type Res<T> = Result<T, XmlError>;

fn parse_document(text: &str) -> Res<DocumentSummary> {
    let mut parser = Parser::new(text);
    parser.run()?;
    parser.summary.ok_or(XmlError)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn structure(text: &str) -> Option<Vec<String>> {
        synopsis(text).map(|s| s.structure)
    }

    #[test]
    fn summarises_root_attributes_and_children() {
        let syn = synopsis("<root><item id='1'>A</item><item id='2'>B</item></root>");
        let syn = syn.expect("well-formed");
        assert_eq!(syn.kind, "xml");
        assert_eq!(syn.title, "XML output");
        assert_eq!(syn.summary, vec!["XML document with root: root."]);
        assert_eq!(
            syn.structure,
            vec!["root: root", "attributes: 0", "item: 2"]
        );
    }

    #[test]
    fn children_most_frequent_first_ties_in_first_seen_order_at_most_30() {
        let doc = "<r><b/><a/><a/><c/><b/><d/></r>";
        assert_eq!(
            structure(doc).expect("ok"),
            vec!["root: r", "attributes: 0", "b: 2", "a: 2", "c: 1", "d: 1"]
        );
        let many: String = (0..40).map(|i| format!("<c{i}/>")).collect();
        let lines = structure(&format!("<r>{many}</r>")).expect("ok");
        assert_eq!(lines.len(), 2 + MAX_CHILD_TAGS);
    }

    #[test]
    fn namespaces_print_as_clark_names_and_declarations_are_not_attributes() {
        let doc = r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="u" width="2" x:a="1"><x:g/><line/></svg>"#;
        assert_eq!(
            structure(doc).expect("ok"),
            vec![
                "root: {http://www.w3.org/2000/svg}svg",
                "attributes: 2",
                "{u}g: 1",
                "{http://www.w3.org/2000/svg}line: 1"
            ]
        );
        assert!(structure("<p:r/>").is_none(), "undeclared prefix");
        assert!(
            structure(r#"<r xmlns:p=""/>"#).is_none(),
            "prefix cannot be undeclared"
        );
        assert!(
            structure(r#"<r xmlns="a}b"/>"#).is_none(),
            "separator in URI"
        );
        assert!(structure(r#"<r xmlns:a="u" xmlns:b="u" a:x="1" b:x="2"/>"#).is_none());
        assert_eq!(
            structure(r#"<r xml:lang="en"/>"#).expect("xml prefix is predeclared")[1],
            "attributes: 1"
        );
    }

    #[test]
    fn rejects_what_expat_rejects() {
        for doc in [
            "",
            " <?xml version=\"1.0\"?><r/>",
            "<r><broken></r>",
            "<p>not xml <br> at all</p> words",
            "<r/><r/>",
            "<r/>junk",
            "<r a=1/>",
            "<r a=\"1\" a=\"2\"/>",
            "<r a=\"1\"b=\"2\"/>",
            "<r>a & b</r>",
            "<r>&nbsp;</r>",
            "<r>]]></r>",
            "<r>\u{1}</r>",
            "<r>\u{FFFE}</r>",
            "<r>&#0;</r>",
            "<r><!-- a -- b --></r>",
            "<?XML version=\"1.0\"?><r/>",
            "<?xml encoding=\"utf-8\"?><r/>",
            "<r><?xml version=\"1.0\"?></r>",
            "<a:b:c xmlns:a=\"u\"/>",
            "<r\u{10000}/>",
            "<!DOCTYPE r [<!ELEMENT r (a,b|c)>]><r/>",
        ] {
            assert!(structure(doc).is_none(), "should reject {doc:?}");
        }
    }

    #[test]
    fn accepts_what_expat_accepts() {
        for doc in [
            "<r/>\n",
            "\u{FEFF}<r/>",
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><r>é</r>",
            "<?xml version=\"2.0\"?><r/>",
            "<!-- c --><?pi x?><r/><!-- d -->\r\n",
            "<r><![CDATA[ <x> & ]] ]]></r>",
            "<r>&#x10FFFF;&lt;\u{10FFFF}</r>",
            "<!DOCTYPE html><html/>",
            "<r\r\n a='1'\t/>",
        ] {
            assert!(structure(doc).is_some(), "should accept {doc:?}");
        }
    }

    #[test]
    fn internal_entities_expand_and_external_ones_fail() {
        let doc = "<!DOCTYPE r [<!ENTITY e \"<c/><c/>\">]><r>&e;</r>";
        assert_eq!(
            structure(doc).expect("ok"),
            vec!["root: r", "attributes: 0", "c: 2"]
        );
        assert!(structure("<!DOCTYPE r [<!ENTITY e SYSTEM \"x\">]><r>&e;</r>").is_none());
        assert!(structure("<!DOCTYPE r [<!ENTITY e \"<c>\">]><r>&e;</c></r>").is_none());
        assert!(structure("<!DOCTYPE r [<!ENTITY e \"&e;\">]><r>&e;</r>").is_none());
        // Character references are expanded when declared, so `&#38;` alone becomes a bare `&`.
        assert!(structure("<!DOCTYPE r [<!ENTITY e \"&#38;\">]><r>&e;</r>").is_none());
        // With an external subset, undefined entities in attribute values are skipped.
        assert!(structure("<!DOCTYPE r SYSTEM \"foo\"><r a=\"&x;\"/>").is_some());
        assert!(structure("<!DOCTYPE r SYSTEM \"foo\"><r>&x;</r>").is_none());
    }

    #[test]
    fn attlist_defaults_count_and_can_declare_namespaces() {
        let doc = "<!DOCTYPE r [<!ATTLIST r a CDATA \"x\" xmlns CDATA \"urn:u\">]><r><c/></r>";
        assert_eq!(
            structure(doc).expect("ok"),
            vec!["root: {urn:u}r", "attributes: 1", "{urn:u}c: 1"]
        );
        // After a parameter-entity reference, later declarations are ignored (not standalone).
        let ignored = "<!DOCTYPE r [<!ENTITY % pe \"x\"> %pe; <!ATTLIST r a CDATA \"v\">]><r/>";
        assert_eq!(structure(ignored).expect("ok")[1], "attributes: 0");
    }

    #[test]
    fn billion_laughs_is_rejected_quickly() {
        let mut dtd = String::from("<!DOCTYPE r [<!ENTITY l0 \"lollollollollol\">");
        for level in 1..10 {
            let refs = format!("&l{};", level - 1).repeat(10);
            dtd.push_str(&format!("<!ENTITY l{level} \"{refs}\">"));
        }
        dtd.push_str("]><r>&l9;</r>");
        assert!(structure(&dtd).is_none());
        let attribute_bomb = dtd.replace("<r>&l9;</r>", "<r a=\"&l9;\"/>");
        assert!(structure(&attribute_bomb).is_none());
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let depth = 100_000;
        let doc = format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth));
        assert_eq!(
            structure(&doc).expect("ok"),
            vec!["root: a", "attributes: 0", "a: 1"]
        );
        let unclosed = "<a>".repeat(depth);
        assert!(structure(&unclosed).is_none());
    }
}
