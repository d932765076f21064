//! What every enhanced analyzer is (`Analyzer`), how a declared MIME type binds the choice
//! (`declared_family`), and how the one registry (`registry::ANALYZERS`) is walked.
//!
//! A kind is proven, never guessed. An explicit MIME type that names a format is authoritative:
//! only the analyzers of that format's family may claim the output, and when none of them can
//! describe it the stub is the reference's. Without such a MIME type (`text/plain`, none, an
//! octet stream) an analyzer claims an output only on positive evidence that is hard to meet by
//! accident (a grammar holding on most lines, a tool's own summary line, a parse). The tool's name
//! never decides a kind. The registry lists the analyzers from the most specific to the most
//! general: the first that claims and describes the output wins.

use super::Input;
use crate::kinds::Synopsis;

/// The format families a MIME type can name, and each analyzer serves one of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Markdown,
    Html,
    /// JSON, JSON Lines and the `+json` media types (GeoJSON, JSON Schema, problem details).
    Json,
    /// CSV and TSV.
    Table,
    /// XML and the `+xml` media types (RSS, Atom, SVG).
    Xml,
    Yaml,
    /// Source code named by its language's media type (`text/x-python`, `text/javascript`).
    Code,
    /// The Prometheus text exposition format and OpenMetrics.
    Metrics,
    /// Unified diffs and patches (`text/x-diff`, `text/x-patch`).
    Diff,
    /// Line-oriented text no MIME type names: logs, command output, build output.
    Text,
}

/// How an analyzer knows the output is of its kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Confidence {
    /// Its grammar holds on the output (on most lines, or as a whole parse).
    Evidence,
    /// The output's MIME type names the analyzer's format.
    Declared,
}

/// An analyzer's claim on an output: how sure it is, and what it saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    pub confidence: Confidence,
    /// What proves the kind (`"MIME type"`, `"# TYPE lines"`, `"unified diff headers"`).
    pub evidence: &'static str,
}

impl Claim {
    pub fn evidence(evidence: &'static str) -> Option<Claim> {
        Some(Claim {
            confidence: Confidence::Evidence,
            evidence,
        })
    }
}

/// One enhanced analyzer: it claims an output on evidence, then describes it.
pub trait Analyzer: Sync {
    /// The name it is registered and tested under.
    fn name(&self) -> &'static str;
    /// The family whose declared MIME type lets it claim an output.
    fn family(&self) -> Family;
    /// Whether the output is of its kind, on evidence hard to meet by accident. Cheap: run on
    /// outputs of every kind that reach it.
    fn claim(&self, input: &Input<'_>) -> Option<Claim>;
    /// The synopsis of a claimed output; `None` when a full read disproves the claim (the next
    /// analyzer is asked).
    fn synopsis(&self, input: &Input<'_>, claim: &Claim) -> Option<Synopsis>;
}

/// The family a MIME type (lower-cased, parameters allowed) names, if any. Generic types
/// (`text/plain`, `application/octet-stream`, none) name none: content decides for them.
pub fn declared_family(mime: &str) -> Option<Family> {
    let essence = mime.split(';').next().unwrap_or("").trim();
    // The exposition format's own content type is `text/plain; version=0.0.4`.
    if essence == "application/openmetrics-text"
        || (essence == "text/plain" && mime.contains("version=0.0.4"))
    {
        return Some(Family::Metrics);
    }
    let (top, sub) = essence.split_once('/')?;
    let suffix = sub.rsplit_once('+').map(|(_, suffix)| suffix);
    let family = match sub {
        "markdown" | "x-markdown" | "mdx" | "x-mdx" => Family::Markdown,
        "html" | "xhtml+xml" => Family::Html,
        "json" | "x-ndjson" | "ndjson" | "jsonl" | "x-jsonlines" | "jsonlines" | "json-seq" => {
            Family::Json
        }
        "csv" | "tab-separated-values" | "tsv" => Family::Table,
        "xml" => Family::Xml,
        "yaml" | "x-yaml" | "yml" => Family::Yaml,
        "x-diff" | "x-patch" | "diff" | "patch" => Family::Diff,
        _ if suffix == Some("json") => Family::Json,
        _ if suffix == Some("xml") => Family::Xml,
        _ if suffix == Some("yaml") => Family::Yaml,
        _ if is_code_subtype(top, sub) => Family::Code,
        _ => return None,
    };
    Some(family)
}

/// `text/x-python`, `text/x-go`, `text/javascript`, `application/typescript`, ...: a language
/// named by its media type.
fn is_code_subtype(top: &str, sub: &str) -> bool {
    const LANGUAGES: [&str; 26] = [
        "python",
        "go",
        "golang",
        "rust",
        "java",
        "kotlin",
        "csharp",
        "c",
        "c++",
        "csrc",
        "chdr",
        "c++src",
        "javascript",
        "ecmascript",
        "typescript",
        "ruby",
        "php",
        "swift",
        "sh",
        "shellscript",
        "scala",
        "jsx",
        "tsx",
        "script.python",
        "cpp",
        "httpd-php",
    ];
    let language = sub.strip_prefix("x-").unwrap_or(sub);
    matches!(top, "text" | "application") && LANGUAGES.contains(&language)
}

/// The first synopsis an analyzer of `analyzers` gives after claiming the output: among the
/// analyzers of the declared family when the MIME type names one, else among all of them.
pub fn analyze(analyzers: &[&dyn Analyzer], input: &Input<'_>) -> Option<Synopsis> {
    let declared = declared_family(input.mime);
    for analyzer in analyzers {
        if declared.is_some_and(|family| family != analyzer.family()) {
            continue;
        }
        let Some(claim) = analyzer.claim(input) else {
            continue;
        };
        if let Some(synopsis) = analyzer.synopsis(input, &claim) {
            return Some(synopsis);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mime_types_that_name_a_format_name_its_family() {
        for (mime, family) in [
            ("text/markdown", Some(Family::Markdown)),
            ("text/markdown; charset=utf-8", Some(Family::Markdown)),
            ("text/html", Some(Family::Html)),
            ("application/x-ndjson", Some(Family::Json)),
            ("application/geo+json", Some(Family::Json)),
            ("application/json", Some(Family::Json)),
            ("text/csv", Some(Family::Table)),
            ("text/tab-separated-values", Some(Family::Table)),
            ("application/xml", Some(Family::Xml)),
            ("application/rss+xml", Some(Family::Xml)),
            ("image/svg+xml", Some(Family::Xml)),
            ("application/yaml", Some(Family::Yaml)),
            ("text/x-python", Some(Family::Code)),
            ("text/x-go", Some(Family::Code)),
            (
                "application/openmetrics-text; version=1.0.0",
                Some(Family::Metrics),
            ),
            ("text/plain; version=0.0.4", Some(Family::Metrics)),
            ("text/x-diff", Some(Family::Diff)),
            ("text/plain", None),
            ("", None),
            ("application/octet-stream", None),
            ("text/x-unheard-of", None),
        ] {
            assert_eq!(declared_family(mime), family, "{mime}");
        }
    }
}
