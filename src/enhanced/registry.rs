//! The one list of enhanced analyzers (`ANALYZERS`), from the most specific kind to the most
//! general, and the `Analyzer` implementations of the analyzers whose module reads an output
//! in one pass (detection and description together): their claim is the cheap gate on what
//! the reference saw, and their synopsis proves the kind on the whole output or gives `None`.

use super::analyzer::{Analyzer, Claim, Confidence, Family};
use super::{
    build_output, code, dep_tree, diff, git_log, html, json, log, markdown, markup, metrics,
    pipe_table, search_hits, table, text_table, xml, yaml, Input,
};
use crate::kinds::Synopsis;

/// Every analyzer, tried in this order. HTML first (XHTML parses as XML); XML the reference
/// parsed before the line-oriented kinds; `git log` and tree listings open with shapes no other
/// kind has; a diff's headers before code (a diff of source files is not source); metrics
/// before Markdown (`# HELP` is no heading); search hits before build output (`file:line:`
/// hits are not diagnostics); build output before logs (a CI log with timestamps is a build's
/// output); column-aligned command output only where the reference saw plain text; the
/// structured kinds; reStructuredText and AsciiDoc, then Markdown (a guide with code samples is
/// no source file); code.
pub const ANALYZERS: &[&dyn Analyzer] = &[
    &Html,
    &Xml,
    &GitLog,
    &Tree,
    &diff::Diff,
    &metrics::Metrics,
    &search_hits::SearchHits,
    &BuildOutput,
    &Log,
    &pipe_table::PipeTable,
    &TextTable,
    &Json,
    &Yaml,
    &Table,
    &markup::ProseMarkup,
    &markdown::Markdown,
    &Code,
];

/// The analyzers' names, in the order they are tried.
pub fn names() -> impl Iterator<Item = &'static str> {
    ANALYZERS.iter().map(|analyzer| analyzer.name())
}

/// Whether an output may be line-oriented text (a log, build output): not a document the
/// reference parsed as JSON or XML.
fn line_oriented(input: &Input<'_>) -> bool {
    !matches!(input.reference_kind, "json" | "xml")
}

/// Whether the reference called the output plain `text` (no structure it recognised).
fn plain_text(input: &Input<'_>) -> bool {
    input.reference_kind == "text"
}

/// The claim of an analyzer whose family the MIME type declares, else the evidence it names.
fn declared_or(input: &Input<'_>, family: Family, evidence: &'static str) -> Claim {
    if super::analyzer::declared_family(input.mime) == Some(family) {
        Claim {
            confidence: Confidence::Declared,
            evidence: "MIME type",
        }
    } else {
        Claim {
            confidence: Confidence::Evidence,
            evidence,
        }
    }
}

struct Html;
impl Analyzer for Html {
    fn name(&self) -> &'static str {
        "html"
    }
    fn family(&self) -> Family {
        Family::Html
    }
    fn claim(&self, input: &Input<'_>) -> Option<Claim> {
        Some(declared_or(
            input,
            Family::Html,
            "a doctype or <html> start",
        ))
    }
    fn synopsis(&self, input: &Input<'_>, _: &Claim) -> Option<Synopsis> {
        html::synopsis(input.output)
    }
}

struct Xml;
impl Analyzer for Xml {
    fn name(&self) -> &'static str {
        "xml"
    }
    fn family(&self) -> Family {
        Family::Xml
    }
    fn claim(&self, input: &Input<'_>) -> Option<Claim> {
        Some(declared_or(input, Family::Xml, "parsed as XML"))
    }
    fn synopsis(&self, input: &Input<'_>, _: &Claim) -> Option<Synopsis> {
        xml::detect(input)
    }
}

struct GitLog;
impl Analyzer for GitLog {
    fn name(&self) -> &'static str {
        "git_log"
    }
    fn family(&self) -> Family {
        Family::Text
    }
    fn claim(&self, input: &Input<'_>) -> Option<Claim> {
        plain_text(input).then_some(())?;
        Claim::evidence("commit <sha> and Author: lines")
    }
    fn synopsis(&self, input: &Input<'_>, _: &Claim) -> Option<Synopsis> {
        git_log::synopsis(input.output)
    }
}

struct Tree;
impl Analyzer for Tree {
    fn name(&self) -> &'static str {
        "tree"
    }
    fn family(&self) -> Family {
        Family::Text
    }
    fn claim(&self, input: &Input<'_>) -> Option<Claim> {
        plain_text(input).then_some(())?;
        Claim::evidence("tree connectors on most lines")
    }
    fn synopsis(&self, input: &Input<'_>, _: &Claim) -> Option<Synopsis> {
        dep_tree::synopsis(input.output)
    }
}

struct BuildOutput;
impl Analyzer for BuildOutput {
    fn name(&self) -> &'static str {
        "build_output"
    }
    fn family(&self) -> Family {
        Family::Text
    }
    fn claim(&self, input: &Input<'_>) -> Option<Claim> {
        line_oriented(input).then_some(())?;
        Claim::evidence("a runner's summary line, failing tests or most lines diagnostics")
    }
    fn synopsis(&self, input: &Input<'_>, _: &Claim) -> Option<Synopsis> {
        build_output::synopsis(input.output)
    }
}

struct Log;
impl Analyzer for Log {
    fn name(&self) -> &'static str {
        "log"
    }
    fn family(&self) -> Family {
        Family::Text
    }
    fn claim(&self, input: &Input<'_>) -> Option<Claim> {
        line_oriented(input).then_some(())?;
        Claim::evidence("a log line grammar on most lines")
    }
    fn synopsis(&self, input: &Input<'_>, _: &Claim) -> Option<Synopsis> {
        log::synopsis(input.output)
    }
}

struct TextTable;
impl Analyzer for TextTable {
    fn name(&self) -> &'static str {
        "text_table"
    }
    fn family(&self) -> Family {
        Family::Text
    }
    fn claim(&self, input: &Input<'_>) -> Option<Claim> {
        plain_text(input).then_some(())?;
        Claim::evidence("a header whose columns most rows fit")
    }
    fn synopsis(&self, input: &Input<'_>, _: &Claim) -> Option<Synopsis> {
        text_table::synopsis(input.output)
    }
}

struct Json;
impl Analyzer for Json {
    fn name(&self) -> &'static str {
        "json"
    }
    fn family(&self) -> Family {
        Family::Json
    }
    fn claim(&self, input: &Input<'_>) -> Option<Claim> {
        (input.reference_kind == "json").then_some(())?;
        Some(declared_or(input, Family::Json, "parsed as JSON"))
    }
    fn synopsis(&self, input: &Input<'_>, _: &Claim) -> Option<Synopsis> {
        json::synopsis(input)
    }
}

struct Yaml;
impl Analyzer for Yaml {
    fn name(&self) -> &'static str {
        "yaml"
    }
    fn family(&self) -> Family {
        Family::Yaml
    }
    fn claim(&self, input: &Input<'_>) -> Option<Claim> {
        Some(declared_or(
            input,
            Family::Yaml,
            "loaded as YAML collections",
        ))
    }
    fn synopsis(&self, input: &Input<'_>, _: &Claim) -> Option<Synopsis> {
        yaml::synopsis(input)
    }
}

struct Table;
impl Analyzer for Table {
    fn name(&self) -> &'static str {
        "table"
    }
    fn family(&self) -> Family {
        Family::Table
    }
    fn claim(&self, input: &Input<'_>) -> Option<Claim> {
        matches!(input.reference_kind, "csv" | "tsv").then_some(())?;
        Some(declared_or(input, Family::Table, "rows of one width"))
    }
    fn synopsis(&self, input: &Input<'_>, _: &Claim) -> Option<Synopsis> {
        table::synopsis(input)
    }
}

struct Code;
impl Analyzer for Code {
    fn name(&self) -> &'static str {
        "code"
    }
    fn family(&self) -> Family {
        Family::Code
    }
    fn claim(&self, input: &Input<'_>) -> Option<Claim> {
        // A language's own MIME type proves code the reference read as text (C, C#, shell).
        let declared = super::analyzer::declared_family(input.mime) == Some(Family::Code);
        (input.reference_kind == "code" || (declared && input.reference_kind == "text"))
            .then_some(())?;
        Some(declared_or(input, Family::Code, "code lines"))
    }
    fn synopsis(&self, input: &Input<'_>, _: &Claim) -> Option<Synopsis> {
        code::synopsis(input)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_analyzer_is_registered_once_under_its_own_name() {
        let mut names: Vec<&str> = names().collect();
        let listed = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), listed, "{names:?}");
    }
}
