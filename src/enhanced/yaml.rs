//! YAML read whole by the reference's PyYAML port (`kinds::yaml::load_documents`): when the MIME
//! type says YAML, when the reference detects it, and for what it misses: kubectl-style lists
//! (`items:` with `- ` entries at column 0) and streams of several documents (`---`), where
//! manifests are listed by kind and name.

use super::document::{describe, describe_records};
use super::yaml_sample::{load_sampled, Sampled};
use super::Input;
use crate::kinds::{yaml::load_documents, Synopsis};
use crate::python::{py_lstrip, py_splitlines, py_strip};
use crate::synopsis::MAX_YAML_BYTES;
use crate::value::Value;

/// Whether a text output is worth loading as YAML: a stream that starts with `---`, or one whose
/// first bare `key:` line is followed by a block sequence at column 0 (`kubectl -o yaml` lists).
fn looks_like_yaml(output: &str) -> bool {
    if py_lstrip(output).starts_with("---") {
        return true;
    }
    let mut lines = py_splitlines(output).filter(|line| !py_strip(line).is_empty());
    while let Some(line) = lines.next() {
        let key = line.trim_end();
        let bare_key = key.len() > 1
            && key.ends_with(':')
            && !key.starts_with([' ', '\t', '-', '#'])
            && !key[..key.len() - 1].contains([' ', ':']);
        if bare_key {
            return lines.next().is_some_and(|next| next.starts_with("- "));
        }
        // A line at column 0 that starts like a word and holds no `:` (`import os`, a CSV row,
        // prose) is no part of a top-level mapping: the output does not load as a YAML
        // mapping, and the rest of a long one need not be read (this runs on every output).
        if key.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') && !key.contains(':') {
            return false;
        }
    }
    false
}

pub fn synopsis(input: &Input<'_>) -> Option<Synopsis> {
    let declared = input.mime.contains("yaml") || input.mime.contains("yml");
    if !(declared || input.reference_kind == "yaml" || looks_like_yaml(input.output))
        || input.output.len() > MAX_YAML_BYTES
    {
        return None;
    }
    // A document the reference loaded whole may be read in part: its biggest collection's
    // first records, its last one and its count.
    // A big document its MIME type declares YAML is read in part too (composing 10 MB whole
    // costs ten times the reference's read): the scanner vouches for its column-0 lines, and an
    // error inside an entry left out of the sample goes unseen.
    if input.reference_kind == "yaml" || declared {
        if let Some(root) = load_sampled(input.output)
            .as_ref()
            .and_then(Sampled::document)
        {
            return Some(describe(&root, "YAML", "yaml", "YAML output"));
        }
    }
    let documents: Vec<Value<'_>> = load_documents(input.output)?
        .into_iter()
        .filter(|document| !matches!(document, Value::Null))
        .collect();
    // Prose after front matter or a lone scalar is not a YAML output worth describing.
    if documents.is_empty() || documents.iter().any(Value::is_scalar) {
        return None;
    }
    if documents.len() == 1 {
        return Some(describe(&documents[0], "YAML", "yaml", "YAML output"));
    }
    Some(describe_stream(&documents))
}

/// Several documents: their fields as records (manifests: `kind` counts, names, namespaces).
fn describe_stream(documents: &[Value<'_>]) -> Synopsis {
    let mut synopsis = Synopsis::new("yaml", "YAML output");
    synopsis
        .summary
        .push(format!("YAML stream of {} documents.", documents.len()));
    let records: Vec<&Value<'_>> = documents.iter().collect();
    describe_records("", &records, &mut synopsis);
    synopsis
}

#[cfg(test)]
mod looks_like_yaml_tests {
    use super::looks_like_yaml;

    #[test]
    fn a_column_0_line_without_a_colon_ends_the_search_for_a_list_key() {
        assert!(looks_like_yaml(
            "apiVersion: v1\n# pods\nitems:\n- kind: Pod\n"
        ));
        assert!(looks_like_yaml("---\nkind: Pod\n"));
        assert!(!looks_like_yaml("import os\nitems:\n- kind: Pod\n"));
        assert!(!looks_like_yaml("id,name\n1,a\nitems:\n- b\n"));
        assert!(!looks_like_yaml("package main\n\nfunc main() {\n}\n"));
    }
}
#[cfg(test)]
mod sampled_tests {
    use super::*;
    use crate::enhanced::document::SAMPLED_RECORDS;

    /// The enhanced synopsis of `text` (read in part), and the one of the whole document.
    fn read_in_part_and_whole(text: &str) -> (Synopsis, Synopsis) {
        assert!(load_sampled(text).is_some(), "read in part");
        let documents = load_documents(text).expect("loads");
        // (The lines' priorities are the stub bound's, set past the description.)
        let part = Synopsis {
            priorities: None,
            ..crate::enhanced::generate(text, "", 2_000)
        };
        (part, describe(&documents[0], "YAML", "yaml", "YAML output"))
    }

    #[test]
    fn a_big_document_read_in_part_has_the_synopsis_of_the_whole() {
        let records = SAMPLED_RECORDS + 500;
        let mut map = String::from("---\n");
        for record in 0..records {
            let state = ["open", "closed", "merged"][record % 3];
            map.push_str(&format!(
                "item_{record}:\n  name: \"n {record}\"\n  state: {state}\n  tags:\n    - a\n"
            ));
        }
        let mut list = String::from("apiVersion: v1\nitems:\n");
        for record in 0..records {
            let namespace = record % 4;
            list.push_str(&format!("- kind: Pod\n  metadata:\n    name: pod-{record}\n    namespace: ns{namespace}\n  status: {{phase: Running}}\n"));
        }
        list.push_str("kind: List\nmetadata:\n  resourceVersion: \"\"\n");
        for (text, shows) in [
            (map, format!("{records} keys")),
            (list, format!("last: metadata.name=pod-{}", records - 1)),
        ] {
            let (part, whole) = read_in_part_and_whole(&text);
            assert_eq!(part, whole);
            assert!(
                crate::test_support::synopsis_text(&part).contains(&shows),
                "{part:?}"
            );
        }
    }

    #[test]
    fn aliases_in_a_big_document_read_in_part_expand_as_far_as_in_the_whole() {
        // Each record's alias expands a 30-key mapping. The budget that bounds alias expansion
        // is the whole document's (2 visits per node): the joined text's own would run out a
        // fifth of the way into the sample, where the whole document's lasts past it.
        let fields: Vec<String> = (0..30).map(|field| format!("f{field}: v{field}")).collect();
        let mut list = format!("defaults: &defaults {{{}}}\nitems:\n", fields.join(", "));
        for record in 0..5 * SAMPLED_RECORDS {
            list.push_str(&format!("- name: r{record}\n  spec: *defaults\n"));
        }
        let expanded = |root: &Value<'_>, at: usize| match root.get("items") {
            Some(Value::List(items, _)) => items[at]
                .get("spec")
                .map(|spec| matches!(spec, Value::Map(entries, 30) if entries.len() == 30)),
            _ => None,
        };
        let part = load_sampled(&list).expect("read in part");
        let part = part.document().expect("a document");
        let whole = load_documents(&list)
            .expect("loads")
            .pop()
            .expect("a document");
        let last_sampled = SAMPLED_RECORDS - 1;
        assert_eq!(expanded(&whole, last_sampled), Some(true));
        assert_eq!(expanded(&part, last_sampled), Some(true));
    }
}
