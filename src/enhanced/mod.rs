//! The "enhanced" synopsis mode: beyond the reference, what a model needs from a stub
//! to choose its next call (record fields and value counts, column types, YAML documents, the
//! language of code, a markdown outline, and the kinds the reference calls `text`). Deterministic
//! and decided here, like the reference; the reference mode (`synopsis::generate`) is untouched.
//!
//! Detection walks the analyzers of `registry::ANALYZERS` (see `analyzer`): a MIME type that
//! names a format leaves only that format's analyzers, and the first that claims the output on
//! evidence and describes it wins; an output none of them takes gets the reference's synopsis
//! with the line `NOT_PROVEN`. Outputs that are empty or binary-like, and JSON/XML that their
//! MIME type names but that fails to parse, keep the reference's `unknown` synopsis (with its
//! head/tail sample, the only sample a stub has in either mode).

/// The kinds enhanced mode names beyond the reference's (`kinds::REFERENCE_KINDS`, which its
/// analyzers of JSON, YAML, tables, XML and code keep).
pub const ENHANCED_KINDS: [&str; 10] = [
    "html",
    "git_log",
    "tree",
    "diff",
    "metrics",
    "search_hits",
    "build_output",
    "log",
    "text_table",
    "markdown",
];

pub mod analyzer;
pub mod build_output;
pub mod dep_tree;
pub mod diff;
pub mod git_log;
pub mod html;
pub mod log;
mod log_grammar;
mod log_levels;
pub mod text_table;
pub mod xml;

use crate::kinds::Synopsis;
use crate::priority_bound::line_priority;

mod code;
mod counter;
mod document;
mod field_values;
mod json;
mod markdown;
mod markup;
pub mod metrics;
mod pipe_table;
mod records;
pub mod registry;
pub mod search_hits;
mod table;
mod text_helpers;
mod yaml;
pub mod yaml_sample;

/// What a detector looks at: the output, its MIME type (lower-cased) and the kind the reference
/// detects for it.
pub struct Input<'a> {
    pub output: &'a str,
    pub mime: &'a str,
    pub reference_kind: &'a str,
    /// The reference's synopsis of the output.
    pub reference: &'a Synopsis,
}

/// The line a stub's synopsis ends with when no analyzer proved a kind: the rest is the
/// reference's synopsis, and the kind is the reference's.
pub const NOT_PROVEN: &str = "Format not proven: reference synopsis.";

/// The enhanced synopsis of `output` (what `synopsisMode: "enhanced"` stubs show, before the
/// stub's length bound). Tests' shorthand: the core passes the reference's synopsis it already has.
#[cfg(test)]
pub fn generate(output: &str, mime_type: &str, preview_chars: i64) -> Synopsis {
    let reference = crate::synopsis::generate(output, mime_type, preview_chars);
    generate_from(output, mime_type, reference)
}

/// `generate` given the reference's synopsis of the same output (its fallback, and the source of
/// the sample).
pub fn generate_from(output: &str, mime_type: &str, reference: Synopsis) -> Synopsis {
    let mime = mime_type.to_ascii_lowercase();
    // Unknown outputs (empty, binary-like, unparsable JSON/XML the MIME type names) stay as
    // the reference has them.
    if reference.kind == "unknown" {
        return reference;
    }
    let input = Input {
        output,
        mime: &mime,
        reference_kind: &reference.kind,
        reference: &reference,
    };
    if let Some(mut found) = analyzer::analyze(registry::ANALYZERS, &input) {
        found.sample = String::new();
        let ranked = found.priorities.get_or_insert_with(Vec::new).len();
        let lines: Vec<u8> = found
            .lines()
            .enumerate()
            .skip(ranked)
            .map(|(at, line)| default_priority(at, line))
            .collect();
        found.priorities.get_or_insert_with(Vec::new).extend(lines);
        keep_reference_excerpts(&mut found, input.reference);
        return found;
    }
    let mut fallback = input.reference.clone();
    fallback.summary.push(NOT_PROVEN.to_string());
    fallback
}

/// Whether a synopsis item is one of the reference text synopsis's verbatim excerpts.
fn is_excerpt(item: &str) -> bool {
    item.starts_with("Opening excerpt:") || item.starts_with("Closing excerpt:")
}

/// The priority of a line an analyzer did not rank (`priority_bound`): the first line says what
/// the output is, a verbatim excerpt goes first when the stub is too long, the rest alike (kept
/// from the first).
fn default_priority(at: usize, line: &str) -> u8 {
    if at == 0 {
        line_priority::HEADLINE
    } else if is_excerpt(line) {
        line_priority::QUOTE
    } else {
        line_priority::KEY
    }
}

/// An analysis of what the reference read as text keeps the reference's excerpts after
/// everything it adds, ranked as quotes: the stub's length bound drops them before any line the
/// analysis ranked above them, wherever those stand. (Excerpts of markup or a parsed document
/// would be its syntax: an HTML page's synopsis has its main text instead, YAML's its records.)
fn keep_reference_excerpts(found: &mut Synopsis, reference: &Synopsis) {
    if reference.kind != "text" || matches!(found.kind.as_str(), "html" | "xml" | "yaml" | "json") {
        return;
    }
    let has_excerpts = [&found.summary, &found.structure, &found.notable_items]
        .iter()
        .any(|items| items.iter().any(|item| is_excerpt(item)));
    if has_excerpts {
        return;
    }
    let excerpts: Vec<&String> = reference
        .summary
        .iter()
        .filter(|item| is_excerpt(item))
        .collect();
    if let Some(priorities) = found.priorities.as_mut() {
        priorities.extend(excerpts.iter().map(|_| line_priority::QUOTE));
    }
    found.notable_items.extend(excerpts.into_iter().cloned());
}

#[cfg(test)]
mod near_miss_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_oriented_kinds_keep_the_reference_excerpts_last() {
        let log = "2024-01-01T00:00:00Z ERROR boom\n2024-01-01T00:00:01Z INFO ok\n".repeat(50);
        let synopsis = enhanced(&log, "text/plain");
        assert_eq!(synopsis.kind, "log");
        let last = synopsis.notable_items.last().expect("notable items");
        assert!(last.starts_with("Closing excerpt: "), "{last}");
        assert!(last.contains("INFO ok"), "{last}");
    }

    fn enhanced(output: &str, mime_type: &str) -> Synopsis {
        generate(output, mime_type, 2_000)
    }

    use crate::synopsis;
    use crate::test_support::synopsis_text as text;

    #[test]
    fn unknown_outputs_keep_the_reference_synopsis() {
        for (output, mime) in [
            ("", "text/plain"),
            ("{broken", "application/json"),
            ("a\0b", ""),
        ] {
            assert_eq!(
                enhanced(output, mime),
                synopsis::generate(output, mime, 2_000)
            );
        }
    }

    #[test]
    fn json_records_show_fields_values_and_identities() {
        let records: Vec<String> = (0..40)
            .map(|i| {
                let state = if i % 4 == 0 { "closed" } else { "open" };
                let extra = if i == 7 { ", \"pull_request\": {\"url\": \"u\"}" } else { "" };
                format!("{{\"html_url\": \"https://x/{i}\", \"id\": {i}, \"title\": \"issue {i}\", \"state\": \"{state}\"{extra}}}")
            })
            .collect();
        let synopsis = enhanced(&format!("[{}]", records.join(",")), "application/json");
        let shown = text(&synopsis);
        assert!(shown.contains("JSON array of 40 objects."), "{shown}");
        // Identifying fields ahead of URLs, a field only some records have with its presence.
        let fields = &synopsis.structure[0];
        assert!(
            fields.find("title:str") < fields.find("html_url:str"),
            "{fields}"
        );
        assert!(fields.contains("pull_request:obj (1/40)"), "{fields}");
        assert!(shown.contains("state: open 30, closed 10"), "{shown}");
        assert!(
            shown.contains("first: title=issue 0, id=0")
                && shown.contains("last: title=issue 39, id=39"),
            "{shown}"
        );
    }

    #[test]
    fn json_lines_are_records() {
        let lines: Vec<String> = (0..30)
            .map(|i| {
                format!(
                    "{{\"level\": \"{}\", \"n\": {i}}}",
                    if i == 3 { "error" } else { "info" }
                )
            })
            .collect();
        let shown = text(&enhanced(&lines.join("\n"), "application/x-ndjson"));
        assert!(
            shown.contains("JSON Lines: array of 30 objects."),
            "{shown}"
        );
        assert!(shown.contains("level: info 29, error 1"), "{shown}");
    }

    #[test]
    fn json_objects_show_scalars_and_container_sizes() {
        let shown = text(&enhanced(
            r#"{"has_more": true, "data": [{"id": "a"}, {"id": "b"}, {"id": "c"}], "flags": {"x": 1, "y": 2}}"#,
            "application/json",
        ));
        assert!(
            shown.contains("JSON object, 3 keys: has_more=true, data[3], flags{x=1, y=2}."),
            "{shown}"
        );
        assert!(shown.contains("data[]: 3 records"), "{shown}");
        // Settings shown in the outline are not described again.
        assert!(!shown.contains("flags: object"), "{shown}");
        assert!(shown.contains("data[]: last: id=c"), "{shown}");
        let shown = text(&enhanced(
            r#"{"data": [], "flags": {"x": 1, "y": 2, "z": 3}, "ci": {"group": "a very long concurrency group name"}}"#,
            "application/json",
        ));
        assert!(shown.contains("flags{3}, ci{1}."), "{shown}");
        assert!(
            shown.contains("flags: object with 3 keys: x=1, y=2, z=3"),
            "{shown}"
        );
    }

    #[test]
    fn yaml_is_read_when_the_mime_type_says_so_and_kubectl_lists_work() {
        let mut pods = String::from("apiVersion: v1\nitems:\n");
        for i in 0..12 {
            let phase = if i == 5 { "Pending" } else { "Running" };
            pods.push_str(&format!(
                "- kind: Pod\n  metadata:\n    name: pod-{i}\n  status:\n    phase: {phase}\n"
            ));
        }
        pods.push_str("kind: List\n");
        // The reference calls it text: `items:` is not followed by an indented line.
        assert_eq!(
            synopsis::generate(&pods, "application/yaml", 10).kind,
            "text"
        );
        let synopsis = enhanced(&pods, "application/yaml");
        let shown = text(&synopsis);
        assert_eq!(synopsis.kind, "yaml");
        assert!(
            shown.contains("YAML object, 3 keys: apiVersion=v1, items[12], kind=List."),
            "{shown}"
        );
        assert!(
            shown.contains("items[]: status.phase: Running 11, Pending 1"),
            "{shown}"
        );
        assert!(shown.contains("status.phase=Pending (pod-5)"), "{shown}");
        assert!(shown.contains("all: kind=Pod"), "{shown}");
        // Without a YAML MIME type the column-0 list is recognised too.
        assert_eq!(enhanced(&pods, "text/plain").kind, "yaml");
    }

    #[test]
    fn multi_document_yaml_lists_kinds_and_names() {
        let stream: String = ["Deployment", "Service", "CronJob"]
            .iter()
            .enumerate()
            .map(|(i, kind)| {
                format!("---\nkind: {kind}\nmetadata:\n  name: app-{i}\n  namespace: shop\n")
            })
            .collect();
        let shown = text(&enhanced(&stream, "text/plain"));
        assert!(shown.contains("YAML stream of 3 documents."), "{shown}");
        assert!(shown.contains("names (3): app-0, app-1, app-2"), "{shown}");
        // Front matter followed by prose is not a YAML output.
        assert_ne!(
            enhanced("---\ntitle: x\n---\nSome prose here.\n", "").kind,
            "yaml"
        );
    }

    #[test]
    fn table_columns_have_types_ranges_and_values() {
        let mut csv = String::from("id,day,amount,paid,status,note\n");
        for i in 0..20 {
            let status = if i % 5 == 0 { "refunded" } else { "ok" };
            let note = if i % 2 == 0 { "" } else { "n" };
            csv.push_str(&format!(
                "{i},2024-01-{:02},{}.5,true,{status},{note}\n",
                i + 1,
                i * 3
            ));
        }
        let synopsis = enhanced(&csv, "text/csv");
        let shown = text(&synopsis);
        assert_eq!(synopsis.kind, "csv");
        assert!(shown.contains("column types: id integer, day date, amount float, paid bool, status text, note text"), "{shown}");
        assert!(shown.contains("amount: 0.5..57.5"), "{shown}");
        assert!(shown.contains("day: 2024-01-01..2024-01-20"), "{shown}");
        assert!(
            shown.contains("status: 2 distinct: ok 16, refunded 4"),
            "{shown}"
        );
        assert!(
            shown.contains("note: 1 distinct: n 10, 10 empty"),
            "{shown}"
        );
    }

    #[test]
    fn code_names_its_language_and_definitions() {
        let go = "package httpapi\n\nimport (\n\t\"context\"\n\t\"github.com/go-chi/chi/v5\"\n)\n\ntype Store interface {\n\tGet()\n}\n\ntype Server struct {\n}\n\nfunc NewServer() *Server {\n\treturn nil\n}\n\nfunc (s *Server) handleGet(w int) {\n}\n";
        let shown = text(&enhanced(go, "text/plain"));
        assert!(
            shown.contains("Go source, 20 lines, package httpapi."),
            "{shown}"
        );
        assert!(
            shown.contains("defines (4): interface Store, NewServer(), handleGet(), struct Server"),
            "{shown}"
        );
        assert!(
            shown.contains("imports (2): go-chi/chi, +1 std (context)"),
            "{shown}"
        );
        let python = "import os\nfrom sqlalchemy import select\n\nclass Repo:\n    def get(self):\n        pass\n\n    def _hidden(self):\n        pass\n\ndef main():\n    pass\n\nif __name__ == \"__main__\":\n    main()\n";
        let shown = text(&enhanced(python, "text/x-python"));
        assert!(shown.contains("Python source"), "{shown}");
        assert!(
            shown.contains("defines (2): class Repo{get, _hidden}, main()"),
            "{shown}"
        );
        assert!(
            shown.contains("imports (2): sqlalchemy, +1 std") && shown.contains("__main__ guard"),
            "{shown}"
        );
    }

    #[test]
    fn markdown_gets_its_heading_outline() {
        let mut doc = String::from("# Tool\n\nIntro.\n\n```sh\n# not a heading\n```\n");
        for section in ["Install", "Usage", "FAQ"] {
            doc.push_str(&format!("## {section}\n\ntext\n\n### detail\n"));
        }
        let synopsis = enhanced(&doc, "text/markdown");
        assert_eq!(synopsis.kind, "markdown");
        assert!(
            text(&synopsis).contains("Outline (4 headings): # Tool, Install, Usage, FAQ."),
            "{}",
            text(&synopsis)
        );
    }
}
