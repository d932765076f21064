//! `metrics` kind: the Prometheus text exposition format and OpenMetrics. Lines are `# HELP name
//! text`, `# TYPE name type`, `# UNIT name unit`, `# EOF`, other `#` comments, and samples
//! `name{label="value",...} value [timestamp]`. Claimed on its MIME type, or when the first lines
//! hold a `# TYPE` line and every one of them is of that grammar. The synopsis names the metric
//! families with their types and series, and the labels with their values.

use std::collections::HashMap;

use super::analyzer::{Analyzer, Claim, Confidence, Family};
use super::document::joined_within;
use super::Input;
use crate::kinds::Synopsis;

/// Non-blank lines read to claim an output.
const CLAIM_LINES: usize = 64;
/// Chars of the families line.
const FAMILIES_WIDTH: usize = 700;
/// Labels listed, and values listed per label.
const SHOWN_LABELS: usize = 8;
const SHOWN_VALUES: usize = 6;
/// Distinct values tracked per label.
const MAX_VALUES: usize = 64;

const TYPES: [&str; 9] = [
    "counter",
    "gauge",
    "histogram",
    "summary",
    "untyped",
    "unknown",
    "info",
    "stateset",
    "gaugehistogram",
];

fn is_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_' || b == b':')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':')
}

/// One line of the format.
enum Line<'a> {
    Help,
    Type(&'a str, &'a str),
    Comment,
    /// A sample: its name, its labels' text (inside the braces), its value.
    Sample(&'a str, &'a str, &'a str),
}

fn read_line(line: &str) -> Option<Line<'_>> {
    if let Some(comment) = line.strip_prefix('#') {
        let mut words = comment.split_whitespace();
        return Some(match words.next() {
            Some("HELP") => {
                is_name(words.next()?).then_some(())?;
                Line::Help
            }
            Some("TYPE") => {
                let name = words.next()?;
                let kind = words.next()?;
                (is_name(name) && TYPES.contains(&kind)).then_some(())?;
                Line::Type(name, kind)
            }
            _ => Line::Comment,
        });
    }
    let name_end = line.find(['{', ' ', '\t']).unwrap_or(line.len());
    let name = &line[..name_end];
    if !is_name(name) {
        return None;
    }
    let mut rest = &line[name_end..];
    let mut labels = "";
    if rest.starts_with('{') {
        let close = rest.rfind('}')?;
        labels = &rest[1..close];
        rest = &rest[close + 1..];
    }
    let mut words = rest.split_whitespace();
    let value = words.next()?;
    let numeric = value.parse::<f64>().is_ok() || matches!(value, "NaN" | "+Inf" | "-Inf" | "Inf");
    if !numeric || words.clone().count() > 2 {
        return None;
    }
    Some(Line::Sample(name, labels, value))
}

/// `name="value"` pairs of a sample's labels (values with escaped quotes read whole).
fn labels(text: &str) -> Vec<(&str, &str)> {
    let mut pairs = Vec::new();
    let mut rest = text;
    while let Some(eq) = rest.find("=\"") {
        let name = rest[..eq].trim_matches([',', ' ']);
        let after = &rest[eq + 2..];
        let bytes = after.as_bytes();
        let mut end = 0;
        while end < bytes.len() && bytes[end] != b'"' {
            end += if bytes[end] == b'\\' { 2 } else { 1 };
        }
        let end = end.min(after.len());
        pairs.push((name, &after[..end]));
        rest = after.get(end + 1..).unwrap_or("");
    }
    pairs
}

pub struct Metrics;

impl Analyzer for Metrics {
    fn name(&self) -> &'static str {
        "metrics"
    }
    fn family(&self) -> Family {
        Family::Metrics
    }
    fn claim(&self, input: &Input<'_>) -> Option<Claim> {
        if super::analyzer::declared_family(input.mime) == Some(Family::Metrics) {
            return Some(Claim {
                confidence: Confidence::Declared,
                evidence: "MIME type",
            });
        }
        if input.reference_kind != "text" {
            return None;
        }
        let mut typed = false;
        let mut samples = 0;
        for line in super::text_helpers::lines(input.output)
            .filter(|line| !line.trim().is_empty())
            .take(CLAIM_LINES)
        {
            match read_line(line.trim_end_matches('\r'))? {
                Line::Type(..) => typed = true,
                Line::Sample(..) => samples += 1,
                Line::Help | Line::Comment => {}
            }
        }
        (typed && samples > 0).then_some(())?;
        Claim::evidence("# TYPE lines and samples")
    }
    fn synopsis(&self, input: &Input<'_>, _: &Claim) -> Option<Synopsis> {
        describe(input.output)
    }
}

#[derive(Default)]
struct MetricFamily<'a> {
    kind: &'a str,
    series: usize,
}

fn describe(output: &str) -> Option<Synopsis> {
    let mut families: Vec<(&str, MetricFamily<'_>)> = Vec::new();
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    let mut label_values: Vec<(&str, Vec<&str>, bool)> = Vec::new();
    let mut samples = 0usize;
    let mut other_lines = 0usize;
    let mut nan = 0usize;
    for line in super::text_helpers::lines(output) {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        match read_line(line) {
            Some(Line::Type(name, kind)) => {
                let index = *by_name.entry(name).or_insert_with(|| {
                    families.push((name, MetricFamily::default()));
                    families.len() - 1
                });
                families[index].1.kind = kind;
            }
            Some(Line::Sample(name, text, value)) => {
                samples += 1;
                nan += usize::from(value == "NaN");
                let family = ["_bucket", "_sum", "_count", "_total", "_created", "_info"]
                    .iter()
                    .find_map(|suffix| {
                        let base = name.strip_suffix(suffix)?;
                        by_name.contains_key(base).then_some(base)
                    })
                    .unwrap_or(name);
                let index = *by_name.entry(family).or_insert_with(|| {
                    families.push((family, MetricFamily::default()));
                    families.len() - 1
                });
                // A histogram's series are its `_count` lines (one per label set).
                let kind = families[index].1.kind;
                let counted = !matches!(kind, "histogram" | "summary" | "gaugehistogram")
                    || name.ends_with("_count");
                families[index].1.series += usize::from(counted);
                for (label, value) in labels(text) {
                    if label == "le" || label == "quantile" {
                        continue;
                    }
                    let slot = match label_values.iter().position(|(name, _, _)| *name == label) {
                        Some(slot) => slot,
                        None => {
                            label_values.push((label, Vec::new(), false));
                            label_values.len() - 1
                        }
                    };
                    let (_, values, many) = &mut label_values[slot];
                    if !values.contains(&value) {
                        if values.len() < MAX_VALUES {
                            values.push(value);
                        } else {
                            *many = true;
                        }
                    }
                }
            }
            Some(Line::Help | Line::Comment) => {}
            None => other_lines += 1,
        }
    }
    if families.is_empty() {
        return None;
    }
    let mut synopsis = Synopsis::new("metrics", "Prometheus metrics");
    let mut kinds: Vec<(&str, usize)> = Vec::new();
    for (_, family) in &families {
        let kind = if family.kind.is_empty() {
            "untyped"
        } else {
            family.kind
        };
        match kinds.iter_mut().find(|(name, _)| *name == kind) {
            Some((_, count)) => *count += 1,
            None => kinds.push((kind, 1)),
        }
    }
    let kinds: Vec<String> = kinds
        .iter()
        .map(|(kind, count)| format!("{kind} {count}"))
        .collect();
    synopsis.summary.push(format!(
        "Prometheus exposition: {} metric families ({}), {samples} samples.",
        families.len(),
        kinds.join(", ")
    ));
    let listed: Vec<String> = families
        .iter()
        .map(|(name, family)| {
            let kind = if family.kind.is_empty() {
                "untyped"
            } else {
                family.kind
            };
            format!("{name} ({kind}, {} series)", family.series)
        })
        .collect();
    synopsis.summary.push(format!(
        "Families: {}.",
        joined_within(&listed, FAMILIES_WIDTH)
    ));
    if !label_values.is_empty() {
        let shown: Vec<String> = label_values
            .iter()
            .take(SHOWN_LABELS)
            .map(|(name, values, many)| {
                let more = if *many { "+" } else { "" };
                let first: Vec<&str> = values.iter().take(SHOWN_VALUES).copied().collect();
                format!("{name} ({}{more}: {})", values.len(), first.join(", "))
            })
            .collect();
        synopsis
            .structure
            .push(format!("Labels: {}.", shown.join("; ")));
    }
    if nan > 0 {
        synopsis
            .notable_items
            .push(format!("Samples with value NaN: {nan}."));
    }
    if other_lines > 0 {
        synopsis.notable_items.push(format!(
            "Lines not of the exposition format: {other_lines}."
        ));
    }
    Some(synopsis)
}
