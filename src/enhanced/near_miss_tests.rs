//! Outputs that look like one kind and are another (documents that quote build output, search
//! hits over source, a diff of code, metrics whose comments start with `#`), and outputs whose
//! MIME type names their format: every analyzer must leave what it cannot prove, and a declared
//! format must win over what the content resembles. Samples are written here from the formats'
//! documentation.

use super::generate;
use crate::test_support::synopsis_text as text;

fn enhanced(output: &str, mime: &str) -> crate::kinds::Synopsis {
    generate(output, mime, 2_000)
}

/// A Markdown guide whose Go samples show the vet/compiler output they print.
fn go_guide() -> String {
    let mut doc = String::from("---\ntitle: Writing Go\ntags: [go, tutorial]\n---\n\n# Writing Go\n\nThis guide walks through [the tour](https://go.dev/tour) and common mistakes.\n\n");
    for section in 0..17 {
        doc.push_str(&format!(
            "## Mistake {section}\n\nRun `go vet` on the program:\n\n```go\npackage main\n\nimport \"fmt\"\n\nfunc main() {{\n\tfmt.Println(\"%d\", {section})\n}}\n```\n\nIt prints:\n\n```\nhello.go:6:13: fmt.Println call has possible Printf formatting directive %d\n```\n\nSee [vet docs](https://pkg.go.dev/cmd/vet) for more.\n\n"
        ));
    }
    doc
}

#[test]
fn a_markdown_guide_quoting_go_diagnostics_is_markdown_not_build_output() {
    for mime in ["text/markdown", "text/plain", ""] {
        let synopsis = enhanced(&go_guide(), mime);
        let shown = text(&synopsis);
        assert_eq!(synopsis.kind, "markdown", "{mime}: {shown}");
        assert!(!shown.contains("Errors:"), "{mime}: {shown}");
        assert!(shown.contains("Mistake 16"), "{mime}: {shown}");
    }
    let shown = text(&enhanced(&go_guide(), "text/markdown"));
    assert!(shown.contains("Writing Go"), "the title: {shown}");
    assert!(shown.contains("go 17"), "code block languages: {shown}");
}

#[test]
fn declared_markdown_is_markdown_whatever_it_resembles() {
    // Mostly code blocks, few headings: the reference may take it for code.
    let mut doc = String::from("# API\n\n");
    for i in 0..40 {
        doc.push_str(&format!(
            "```python\nimport os\ndef handler_{i}(event):\n    return os.environ['X']\n```\n\n"
        ));
    }
    let synopsis = enhanced(&doc, "text/markdown");
    assert_eq!(synopsis.kind, "markdown", "{}", text(&synopsis));
    assert!(text(&synopsis).contains("python 40"), "{}", text(&synopsis));
}

fn exposition() -> String {
    let mut page = String::new();
    for (name, kind) in [
        ("http_requests_total", "counter"),
        ("process_resident_memory_bytes", "gauge"),
        ("http_request_duration_seconds", "histogram"),
        ("go_goroutines", "gauge"),
    ] {
        page.push_str(&format!(
            "# HELP {name} Help text of {name}.\n# TYPE {name} {kind}\n"
        ));
        for code in ["200", "404", "500"] {
            match kind {
                "histogram" => {
                    for le in ["0.1", "0.5", "+Inf"] {
                        page.push_str(&format!(
                            "{name}_bucket{{code=\"{code}\",le=\"{le}\"}} 12\n"
                        ));
                    }
                    page.push_str(&format!("{name}_sum{{code=\"{code}\"}} 3.5\n"));
                    page.push_str(&format!("{name}_count{{code=\"{code}\"}} 12\n"));
                }
                _ => page.push_str(&format!(
                    "{name}{{method=\"get\",code=\"{code}\"}} 1027 1395066363000\n"
                )),
            }
        }
    }
    page
}

#[test]
fn prometheus_metrics_are_metrics_not_a_markdown_outline() {
    for mime in ["text/plain; version=0.0.4", "text/plain", ""] {
        let synopsis = enhanced(&exposition(), mime);
        let shown = text(&synopsis);
        assert_eq!(synopsis.kind, "metrics", "{mime}: {shown}");
        assert!(!shown.contains("Outline"), "{shown}");
        assert!(shown.contains("4 metric families"), "{shown}");
        assert!(
            shown.contains("http_request_duration_seconds (histogram"),
            "{shown}"
        );
    }
    // A Markdown document with `# HELP` in its prose is not metrics.
    let doc = "# HELP\n\nAsk in the forum.\n\n# TYPE\n\nTyped text.\n\n## More\n\nx\n";
    assert_ne!(enhanced(doc, "").kind, "metrics");
}

#[test]
fn search_hits_are_not_build_errors() {
    let mut vimgrep = String::new();
    let mut grep_n = String::new();
    for i in 0..600 {
        vimgrep.push_str(&format!(
            "internal/store/file_{}.go:{}:{}:\treturn fmt.Errorf(\"load %s: %w\", name, err)\n",
            i % 40,
            i + 10,
            9
        ));
        grep_n.push_str(&format!(
            "src/handlers/user_{}.py:{}:    raise ValueError(\"bad id\")\n",
            i % 30,
            i + 3
        ));
    }
    for output in [&vimgrep, &grep_n] {
        let synopsis = enhanced(output, "text/plain");
        let shown = text(&synopsis);
        assert!(!shown.contains("Errors:"), "{shown}");
        assert_eq!(synopsis.kind, "search_hits", "{shown}");
        assert!(shown.contains("600 hits"), "{shown}");
    }
    assert!(text(&enhanced(&vimgrep, "")).contains("in 40 files"));
}

#[test]
fn a_passing_go_test_with_t_log_lines_has_no_errors() {
    let mut out = String::new();
    for i in 0..400 {
        out.push_str(&format!(
            "=== RUN   TestCase{i}\n    cases_test.go:{}: computing case {i}\n--- PASS: TestCase{i} (0.00s)\n",
            20 + i
        ));
    }
    out.push_str("PASS\nok  \texample.com/calc\t0.412s\n");
    let synopsis = enhanced(&out, "text/plain");
    let shown = text(&synopsis);
    assert_eq!(synopsis.kind, "build_output", "{shown}");
    assert!(!shown.contains("Errors:"), "{shown}");
    // A failing test's messages are its errors.
    let failing = out.replace(
        "--- PASS: TestCase7 (0.00s)",
        "    cases_test.go:99: got 1, want 2\n--- FAIL: TestCase7 (0.00s)",
    );
    let failing = failing.replace(
        "PASS\nok  \texample.com/calc\t0.412s\n",
        "FAIL\nFAIL\texample.com/calc\t0.412s\n",
    );
    let shown = text(&enhanced(&failing, "text/plain"));
    assert!(shown.contains("TestCase7"), "{shown}");
    assert!(shown.contains("got 1, want 2"), "{shown}");
}

#[test]
fn go_build_errors_are_errors() {
    let out = "# example.com/calc\n./calc.go:12:2: undefined: sum\n./calc.go:19:9: cannot use x (variable of type int) as string value in return statement\n./main.go:5:2: \"os\" imported and not used\n";
    let shown = text(&enhanced(out, "text/plain"));
    assert!(shown.contains("Errors: 3"), "{shown}");
}

fn go_diff() -> String {
    let mut diff = String::new();
    for file in ["server.go", "store.go", "store_test.go"] {
        diff.push_str(&format!(
            "diff --git a/internal/{file} b/internal/{file}\nindex 3b18e51..a9c7d2f 100644\n--- a/internal/{file}\n+++ b/internal/{file}\n@@ -1,7 +1,8 @@\n package internal\n \n import (\n+\t\"context\"\n \t\"fmt\"\n )\n \n-func Load(name string) error {{\n+func Load(ctx context.Context, name string) error {{\n \treturn fmt.Errorf(\"x\")\n }}\n"
        ));
    }
    diff
}

#[test]
fn a_diff_of_go_files_is_a_diff_not_go_source() {
    for mime in ["text/plain", "text/x-diff", ""] {
        let synopsis = enhanced(&go_diff(), mime);
        let shown = text(&synopsis);
        assert_eq!(synopsis.kind, "diff", "{mime}: {shown}");
        assert!(!shown.contains("Go source"), "{shown}");
        assert!(shown.contains("3 files"), "{shown}");
        assert!(shown.contains("+6 -3"), "{shown}");
        assert!(shown.contains("internal/store_test.go"), "{shown}");
    }
}

#[test]
fn csv_rows_inside_a_log_are_not_continuation_lines() {
    let mut out = String::new();
    for i in 0..30 {
        out.push_str(&format!(
            "2024-05-02T10:{:02}:00Z INFO export batch {i} written\n",
            i % 60
        ));
    }
    out.push_str("2024-05-02T10:31:00Z WARN export dumped rows:\n");
    for i in 0..401 {
        out.push_str(&format!("{i},acme-{i},2024-05-01,{}.50,paid\n", i * 3));
    }
    let shown = text(&enhanced(&out, "text/plain"));
    assert!(!shown.contains("401 continuation"), "{shown}");
}

#[test]
fn counts_over_a_sample_say_so() {
    let records: Vec<String> = (0..2_500)
        .map(|i| {
            let level = if i % 350 == 0 { "error" } else { "info" };
            format!(
                "{{\"ts\": {i}, \"level\": \"{level}\", \"msg\": \"m{}\"}}",
                i % 7
            )
        })
        .collect();
    let shown = text(&enhanced(
        &format!("[{}]", records.join(",")),
        "application/json",
    ));
    // 8 errors in all, 6 in the first 2,000: a count says which.
    let line = shown
        .lines()
        .find(|line| line.contains("level:"))
        .unwrap_or_else(|| panic!("{shown}"));
    assert!(
        line.contains("error 8") || line.contains("in the first 2000"),
        "{line}"
    );
}

#[test]
fn a_declared_format_wins_over_what_the_content_resembles() {
    // CSV rows whose text looks like log lines.
    let mut csv = String::from("time,level,message\n");
    for i in 0..50 {
        csv.push_str(&format!(
            "2024-05-02T10:00:{:02}Z,ERROR,failed {i}\n",
            i % 60
        ));
    }
    assert_eq!(enhanced(&csv, "text/csv").kind, "csv");
    // JSON Lines whose messages quote compiler diagnostics.
    let lines: String = (0..30)
        .map(|i| format!("{{\"msg\": \"main.go:{i}:2: undefined: x\", \"n\": {i}}}\n"))
        .collect();
    assert_eq!(enhanced(&lines, "application/x-ndjson").kind, "json");
}

#[test]
fn prose_no_analyzer_proves_keeps_the_reference_synopsis_and_says_so() {
    let prose =
        "The committee met on Tuesday to discuss the budget. Several members raised concerns.\n"
            .repeat(40);
    let reference = crate::synopsis::generate(&prose, "text/plain", 2_000);
    let synopsis = enhanced(&prose, "text/plain");
    assert_eq!(synopsis.kind, reference.kind);
    assert_eq!(
        synopsis.summary[..reference.summary.len()],
        reference.summary[..]
    );
    assert_eq!(
        synopsis.summary.last().map(String::as_str),
        Some(super::NOT_PROVEN)
    );
}

#[test]
fn a_declared_yaml_list_of_records_is_read_in_part_with_its_exact_count() {
    let list: String = (0..5_000)
        .map(|i| {
            let state = if i == 4_321 { "failed" } else { "ok" };
            format!("- id: {i}\n  name: alpha beta\n  state: {state}\n")
        })
        .collect();
    let sampled = super::yaml_sample::load_sampled(&list).expect("a root sequence is sampled");
    assert!(sampled.document().is_some());
    let synopsis = enhanced(&list, "application/yaml");
    let shown = text(&synopsis);
    assert_eq!(synopsis.kind, "yaml", "{shown}");
    assert!(shown.contains("5000 records"), "{shown}");
    assert!(shown.contains("in the first 2000"), "{shown}");
}
