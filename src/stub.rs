//! The stub text the model sees in place of an externalized output (SPEC 4).

use serde::Serialize;

use crate::enhanced_source;
use crate::json_fields;
use crate::python::{char_len, take_chars};
use crate::synopsis::{self, Synopsis};
use crate::synopsis_mode::SynopsisMode;

/// The most chars a stub made from an output holds (`maxStubChars`): its synopsis's lists and
/// long names are clipped, with explicit markers, to fit. Ten times the longest stub of the
/// reference corpus (2,467 chars), so reference answers are unchanged; a stub the size of one
/// read window (`maxResultChars`).
pub const DEFAULT_MAX_STUB_CHARS: usize = 20_000;

/// Below this many chars a stub may be longer than its output: the header and Explore lines
/// alone take ~700 chars, and the reference's stubs of tiny outputs (its corpus has 21-char outputs
/// with 850-char stubs) must stay as they are. Above every stub of the reference corpus.
pub(crate) const STUB_FLOOR_CHARS: usize = 4_000;

/// The most chars the stub of an output of `original_chars` may hold: `max_stub_chars`, and never
/// more than the output itself once that is over `STUB_FLOOR_CHARS`.
pub(crate) fn stub_limit(original_chars: usize, max_stub_chars: usize) -> usize {
    max_stub_chars.min(original_chars.max(STUB_FLOOR_CHARS))
}

/// The retrieval tools the Explore lines name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolNames {
    pub read: String,
    pub search: String,
    pub list: String,
    /// Session-wide search: a tool beyond the reference, so the stubs never name it.
    pub search_all: String,
}

json_fields::defaulted_struct!(ToolNames, {
    read: "read",
    search: "search",
    list: "list",
    search_all: "searchAll",
});

impl Default for ToolNames {
    fn default() -> Self {
        ToolNames {
            read: "openviking_tool_result_read".to_string(),
            search: "openviking_tool_result_search".to_string(),
            list: "openviking_tool_result_list".to_string(),
            search_all: "openviking_tool_result_search_all".to_string(),
        }
    }
}

/// The first line of a stub unless `stubHeader` names another (the reference's own line).
pub(crate) const REFERENCE_STUB_HEADER: &str = "[OpenViking tool result externalized]";

/// The header fields of a stub. Empty strings count as "not set".
#[derive(Debug, Clone, Default)]
pub struct StubHeader<'a> {
    /// The first line (config `stubHeader`); empty is `REFERENCE_STUB_HEADER`.
    pub title: &'a str,
    pub reference: &'a str,
    pub tool_name: &'a str,
    pub sha256: &'a str,
    pub reason: &'a str,
    pub original_chars: usize,
    /// The output's tokens, when its turn counted in tokens (a line after `original_chars`).
    pub original_tokens: Option<crate::budget_unit::ReportedTokens>,
    pub preview_chars: i64,
    pub tools: Option<&'a ToolNames>,
}

/// The synopsis sections of a stub, in order, with their titles.
fn sections(synopsis: &Synopsis) -> [(&'static str, &Vec<String>); 3] {
    [
        ("Synopsis:", &synopsis.summary),
        ("Structure:", &synopsis.structure),
        ("Notable items:", &synopsis.notable_items),
    ]
}

/// Chars one section adds to a rendered stub: a blank line, its title, and `- item` lines.
fn section_chars(title: &str, items: &[String]) -> usize {
    if items.is_empty() {
        return 0;
    }
    2 + title.len() + items.iter().map(|item| 3 + char_len(item)).sum::<usize>()
}

/// Chars the sections of `synopsis` add to a rendered stub.
pub(crate) fn sections_chars(synopsis: &Synopsis) -> usize {
    sections(synopsis)
        .iter()
        .map(|(title, items)| section_chars(title, items))
        .sum()
}

/// An item clipped to at most `room` chars, saying how many chars it lost.
fn clipped_item(item: &str, room: usize) -> String {
    let total = char_len(item);
    // The marker's length depends on the count it names: reserve for the largest.
    let marker_reserve = "... ( more chars)".len() + decimal_digits(total);
    let kept = room.saturating_sub(marker_reserve);
    let head = take_chars(item, kept);
    format!("{head}... ({} more chars)", total - char_len(head))
}

/// Clips `items` to add at most `room` chars as a section: the items that fit are kept, one
/// that does not is cut with a `... (N more chars)` marker when enough of it fits to be worth
/// it, and the rest are replaced by one `... N more` item.
fn bound_items(title: &str, items: &mut Vec<String>, room: usize) {
    if section_chars(title, items) <= room {
        return;
    }
    // Room for the final `- ... N more` line, sized for the largest count.
    let more_marker = 3 + "...  more".len() + decimal_digits(items.len());
    let mut used = 2 + title.len();
    let mut kept = 0;
    for item in items.iter() {
        let cost = 3 + char_len(item);
        if used + cost + more_marker > room {
            break;
        }
        used += cost;
        kept += 1;
    }
    let mut bounded: Vec<String> = items.drain(..kept).collect();
    const WORTH_CLIPPING: usize = 40;
    let left = room.saturating_sub(used + more_marker + 3);
    if left >= WORTH_CLIPPING {
        if let Some(first_dropped) = items.first() {
            bounded.push(clipped_item(first_dropped, left));
            items.remove(0);
        }
    }
    if !items.is_empty() {
        bounded.push(format!("... {} more", items.len()));
    }
    *items = bounded;
}

/// Chars a section reduced to its `... N more` marker adds (0 for an empty one).
fn marker_section_chars(title: &str, items: &[String]) -> usize {
    if items.is_empty() {
        return 0;
    }
    2 + title.len() + 3 + "...  more".len() + decimal_digits(items.len())
}

/// How many decimal digits `n` prints with.
fn decimal_digits(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |log| log as usize + 1)
}

/// Clips the synopsis's lists so its sections add at most `room` chars to a stub (when `room`
/// holds at least their markers). The room goes to the sections in order, each later non-empty
/// section keeping enough for the marker that says what it held.
pub(crate) fn bound_synopsis(synopsis: &mut Synopsis, room: usize) {
    if sections_chars(synopsis) <= room {
        return;
    }
    let mut markers: Vec<usize> = sections(synopsis)
        .iter()
        .map(|(title, items)| marker_section_chars(title, items))
        .collect();
    let titles = sections(synopsis).map(|(title, _)| title);
    let mut left = room;
    for (index, items) in [
        &mut synopsis.summary,
        &mut synopsis.structure,
        &mut synopsis.notable_items,
    ]
    .into_iter()
    .enumerate()
    {
        markers[index] = 0;
        let reserved: usize = markers.iter().sum();
        bound_items(titles[index], items, left.saturating_sub(reserved));
        left = left.saturating_sub(section_chars(titles[index], items));
    }
}

fn push_section(lines: &mut Vec<String>, title: &str, items: &[String]) {
    if items.is_empty() {
        return;
    }
    lines.push(String::new());
    lines.push(title.to_string());
    lines.extend(items.iter().map(|item| format!("- {item}")));
}

pub fn render_stub(synopsis: &Synopsis, header: &StubHeader<'_>) -> String {
    let tool_name = if header.tool_name.is_empty() {
        "tool"
    } else {
        header.tool_name
    };
    let title = if header.title.is_empty() {
        REFERENCE_STUB_HEADER
    } else {
        header.title
    };
    let mut lines = vec![
        title.to_string(),
        format!("tool_name: {tool_name}"),
        format!("kind: {}", synopsis.kind),
        format!("original_chars: {}", header.original_chars),
    ];
    if let Some(tokens) = header.original_tokens {
        lines.push(format!("original_tokens: {}", tokens.stub_value()));
    }
    lines.push(format!("preview_chars: {}", header.preview_chars.max(0)));
    if !header.reference.is_empty() {
        lines.push(format!("ref: {}", header.reference));
    }
    if !header.sha256.is_empty() {
        lines.push(format!(
            "sha256: {}",
            header.sha256.get(..16).unwrap_or(header.sha256)
        ));
    }
    if !header.reason.is_empty() {
        lines.push(format!("reason: {}", header.reason));
    }
    push_section(&mut lines, "Synopsis:", &synopsis.summary);
    push_section(&mut lines, "Structure:", &synopsis.structure);
    push_section(&mut lines, "Notable items:", &synopsis.notable_items);
    if !synopsis.sample.is_empty() {
        lines.push(String::new());
        lines.push("Sample:".to_string());
        lines.push(synopsis.sample.clone());
    }
    if !header.reference.is_empty() {
        let default_tools = ToolNames::default();
        let tools = header.tools.unwrap_or(&default_tools);
        let reference = header.reference;
        lines.push(String::new());
        lines.push("Explore:".to_string());
        lines.push(format!(
            "- Use {} with ref={reference} to find relevant raw snippets.",
            tools.search
        ));
        lines.push(format!(
            "- Use {} with ref={reference} and offset/limit to inspect raw output.",
            tools.read
        ));
        lines.push(format!(
            "- Use {} to discover other externalized outputs in this session.",
            tools.list
        ));
    }
    lines.join("\n")
}

/// `render_stub` held to `max_chars`: when the stub would be longer, the synopsis's lists are
/// clipped (`bound_synopsis`) into the room the rest of the stub leaves. The synopsis is updated,
/// so a record stores what the stub shows.
pub(crate) fn render_bounded_stub(
    synopsis: &mut Synopsis,
    header: &StubHeader<'_>,
    max_chars: usize,
) -> String {
    let stub = render_stub(synopsis, header);
    let chars = char_len(&stub);
    if chars <= max_chars {
        return stub;
    }
    let fixed = chars - sections_chars(synopsis);
    bound_synopsis(synopsis, max_chars.saturating_sub(fixed));
    render_stub(synopsis, header)
}

/// An enhanced stub is at most this many times the length of the reference's stub of the same
/// output (numerator, denominator): what it adds must earn its place in the model's context.
pub const ENHANCED_STUB_RATIO: (usize, usize) = (6, 5);

/// The synopsis of `output` in `mode`. In enhanced mode its stub with `header` is held to
/// `ENHANCED_STUB_RATIO` of the reference's stub with the same header: lines are dropped or cut
/// by priority (`priority_bound`) when they would make it longer. Both stubs are measured without
/// their sample, which is the reference's in both modes, so the bound holds whatever preview
/// chars the stub is finally rendered with.
pub fn synopsis_in_mode(
    output: &str,
    mime_type: &str,
    preview_chars: i64,
    mode: SynopsisMode,
    header: &StubHeader<'_>,
) -> Synopsis {
    let reference = synopsis::generate(output, mime_type, preview_chars);
    if mode == SynopsisMode::Reference {
        return reference;
    }
    let limit = enhanced_stub_limit(&reference, header);
    let mut enhanced = enhanced_source::enhanced_synopsis(output, mime_type, reference);
    hold_to_limit(&mut enhanced, header, limit);
    enhanced
}

/// Chars of the stub of `synopsis` with `header`, without its sample.
fn bare_stub_chars(synopsis: &Synopsis, header: &StubHeader<'_>) -> usize {
    let bare = Synopsis {
        sample: String::new(),
        ..synopsis.clone()
    };
    char_len(&render_stub(&bare, header))
}

/// The most chars (without the sample) an enhanced stub may have, given the reference's synopsis.
fn enhanced_stub_limit(reference: &Synopsis, header: &StubHeader<'_>) -> usize {
    let (times, per) = ENHANCED_STUB_RATIO;
    bare_stub_chars(reference, header) * times / per
}

/// Drops and cuts lines of `synopsis`, by their priorities, so its stub with `header` (without
/// the sample) fits `limit` (`priority_bound`); the priorities are cleared either way.
fn hold_to_limit(synopsis: &mut Synopsis, header: &StubHeader<'_>, limit: usize) {
    let chars = bare_stub_chars(synopsis, header);
    let fixed = chars - sections_chars(synopsis);
    crate::priority_bound::bound_by_priority(synopsis, limit.saturating_sub(fixed));
}

/// `preview_chars = min(len(output), max(p, 0))`, the value a stub header and a record carry.
pub(crate) fn effective_preview_chars(original_chars: usize, preview_chars: i64) -> i64 {
    preview_chars
        .max(0)
        .min(i64::try_from(original_chars).unwrap_or(i64::MAX))
}

/// Everything `make_preview` needs besides the output.
#[derive(Debug, Clone, Default)]
pub struct PreviewRequest<'a> {
    /// The stub's first line; empty is `REFERENCE_STUB_HEADER`.
    pub title: &'a str,
    pub mime_type: &'a str,
    pub preview_chars: i64,
    pub tool_name: &'a str,
    pub reference: &'a str,
    pub sha256: &'a str,
    pub reason: &'a str,
    /// Overrides `len(output)` in the header (a source-read window, say).
    pub original_chars: Option<usize>,
    pub tools: Option<&'a ToolNames>,
    /// The most chars of the stub (`DEFAULT_MAX_STUB_CHARS` when `None`).
    pub max_stub_chars: Option<usize>,
    /// The synopsis rules (`config.synopsisMode`).
    pub mode: SynopsisMode,
    /// Whether credential-looking values are masked (`config.redactSecrets`, see `redact`).
    pub redact_secrets: bool,
}

/// The synopsis of `output` and its rendered stub.
pub fn make_preview(output: &str, request: &PreviewRequest<'_>) -> (Synopsis, String) {
    let original_chars = char_len(output);
    let preview_chars = effective_preview_chars(original_chars, request.preview_chars);
    let mime_type = if request.mime_type.is_empty() {
        "text/plain"
    } else {
        request.mime_type
    };
    let header = StubHeader {
        title: request.title,
        reference: request.reference,
        tool_name: request.tool_name,
        sha256: request.sha256,
        reason: request.reason,
        original_chars: request.original_chars.unwrap_or(original_chars),
        original_tokens: None,
        preview_chars,
        tools: request.tools,
    };
    let mut synopsis = synopsis_in_mode(output, mime_type, preview_chars, request.mode, &header);
    if request.redact_secrets {
        crate::redact::redact_synopsis(&mut synopsis);
    }
    let stub = render_bounded_stub(
        &mut synopsis,
        &header,
        stub_limit(
            original_chars,
            request.max_stub_chars.unwrap_or(DEFAULT_MAX_STUB_CHARS),
        ),
    );
    (synopsis, stub)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_only_names_what_is_set() {
        let (_, stub) = make_preview(
            "hello world",
            &PreviewRequest {
                preview_chars: 50,
                ..Default::default()
            },
        );
        assert!(stub.starts_with("[OpenViking tool result externalized]\ntool_name: tool\nkind: text\noriginal_chars: 11\npreview_chars: 11\n\nSynopsis:\n- Text"));
        assert!(!stub.contains("ref:") && !stub.contains("Explore:") && !stub.ends_with('\n'));
    }

    #[test]
    fn explore_lines_name_the_configured_tools() {
        let tools = ToolNames {
            read: "r".into(),
            search: "s".into(),
            list: "l".into(),
            ..ToolNames::default()
        };
        let request = PreviewRequest {
            reference: "viking://x",
            sha256: "0123456789abcdef0123",
            tools: Some(&tools),
            ..Default::default()
        };
        let (_, stub) = make_preview("x", &request);
        assert!(stub.contains("\nsha256: 0123456789abcdef\n"));
        assert!(stub.ends_with("- Use s with ref=viking://x to find relevant raw snippets.\n- Use r with ref=viking://x and offset/limit to inspect raw output.\n- Use l to discover other externalized outputs in this session."));
    }

    fn preview(output: &str, max_stub_chars: Option<usize>) -> (Synopsis, String) {
        make_preview(
            output,
            &PreviewRequest {
                preview_chars: 2_000,
                reference: "viking://user/default/sessions/s/tool-results/tr_x",
                sha256: "0123456789abcdef0123",
                reason: "single_threshold",
                max_stub_chars,
                ..Default::default()
            },
        )
    }

    /// Outputs whose stubs were once several times their size.
    fn amplifying_outputs() -> Vec<(&'static str, String)> {
        let long_key = "k".repeat(1_000_000);
        let namespace = format!("urn:{}", "n".repeat(1_000_000));
        let columns: Vec<String> = (0..1_000_000).map(|i| format!("c{i}")).collect();
        vec![
            (
                "json key",
                format!("{{\"{long_key}\": {{\"{long_key}\": 1}}}}"),
            ),
            (
                "xml namespace",
                format!("<r xmlns=\"{namespace}\"><a/><b/></r>"),
            ),
            (
                "csv columns",
                format!("{}\n{}\n", columns.join(","), columns.join(",")),
            ),
        ]
    }

    #[test]
    fn stubs_of_amplifying_outputs_are_bounded_with_markers() {
        for (name, output) in amplifying_outputs() {
            let output_chars = char_len(&output);
            let (synopsis, stub) = preview(&output, None);
            let stub_chars = char_len(&stub);
            assert!(stub_chars <= DEFAULT_MAX_STUB_CHARS, "{name}: {stub_chars}");
            assert!(stub_chars <= output_chars, "{name}");
            assert!(stub.contains(" more"), "{name}: no marker");
            assert!(
                stub.ends_with("other externalized outputs in this session."),
                "{name}"
            );
            // The synopsis returned (and stored in the record) is the clipped one.
            assert!(sections_chars(&synopsis) < DEFAULT_MAX_STUB_CHARS, "{name}");
            let (_, small) = preview(&output, Some(5_000));
            assert!(char_len(&small) <= 5_000, "{name}: {}", char_len(&small));
        }
    }

    #[test]
    fn bounding_keeps_what_fits_and_says_what_it_cut() {
        let mut synopsis = Synopsis::new("json", "JSON output");
        synopsis.summary = vec!["JSON object.".into(), format!("keys: {}", "x".repeat(500))];
        synopsis.structure = (0..100).map(|i| format!("key{i}: string")).collect();
        synopsis.notable_items = vec!["$.a = 1".into()];
        let before = sections_chars(&synopsis);
        for room in [0, 80, 200, 400, 1_000, before] {
            let mut bounded = synopsis.clone();
            bound_synopsis(&mut bounded, room);
            let markers: usize = sections(&synopsis)
                .iter()
                .map(|(title, items)| marker_section_chars(title, items))
                .sum();
            assert!(sections_chars(&bounded) <= room.max(markers), "room {room}");
            if room >= 200 {
                assert_eq!(bounded.summary[0], "JSON object.", "room {room}");
            }
            assert!(
                !bounded.notable_items.is_empty(),
                "room {room}: a marker at least"
            );
        }
        let mut bounded = synopsis.clone();
        bound_synopsis(&mut bounded, 400);
        assert!(
            bounded.summary[1].ends_with(" more chars)"),
            "{:?}",
            bounded.summary
        );
        assert!(bounded
            .structure
            .last()
            .is_some_and(|item| item.starts_with("... ") && item.ends_with(" more")));
        let mut untouched = synopsis.clone();
        bound_synopsis(&mut untouched, before);
        assert_eq!(untouched, synopsis);
    }

    #[test]
    fn enhanced_synopses_are_clipped_to_the_reference_stub_ratio() {
        let header = StubHeader {
            reference: "viking://user/default/sessions/s/tool-results/tr_x",
            reason: "single_threshold",
            original_chars: 50_000,
            ..Default::default()
        };
        let reference = synopsis::generate("alpha beta\ngamma", "text/plain", 2_000);
        let limit = enhanced_stub_limit(&reference, &header);
        assert_eq!(limit, bare_stub_chars(&reference, &header) * 6 / 5);
        let mut long = Synopsis::new("log", "Log output");
        long.summary = (0..200).map(|i| format!("level count line {i}")).collect();
        long.structure = (0..50).map(|i| format!("field{i}: text")).collect();
        hold_to_limit(&mut long, &header, limit);
        assert!(bare_stub_chars(&long, &header) <= limit);
        assert!(long
            .summary
            .last()
            .is_some_and(|item| item.ends_with(" more")));
        // A synopsis that fits is left as it is.
        let mut short = Synopsis::new("log", "Log output");
        short.summary = vec!["2 lines".into()];
        let before = short.clone();
        hold_to_limit(&mut short, &header, limit);
        assert_eq!(short, before);
    }

    #[test]
    fn enhanced_stubs_stay_within_the_ratio_of_the_reference() {
        let outputs = [
            (
                "[{\"id\": 1, \"state\": \"open\"}, {\"id\": 2, \"state\": \"closed\"}]"
                    .to_string(),
                "application/json",
            ),
            ("a,b\n1,2\n3,4\n".to_string(), "text/csv"),
            (
                "items:\n- kind: Pod\n  metadata:\n    name: x\n".to_string(),
                "application/yaml",
            ),
            (
                "# Title\n\nSome text.\n## Part\nmore".to_string(),
                "text/markdown",
            ),
            (
                "import os\ndef main():\n    pass\n".to_string(),
                "text/x-python",
            ),
            (
                "2024-01-01 ERROR boom\n2024-01-01 INFO ok\n".repeat(500),
                "text/plain",
            ),
            ("\u{1}\u{2}".repeat(100), "application/octet-stream"),
        ];
        for (output, mime_type) in outputs {
            for preview_chars in [0, 100, 2_000] {
                let request = |mode| PreviewRequest {
                    mime_type,
                    preview_chars,
                    reference: "viking://user/default/sessions/s/tool-results/tr_x",
                    sha256: "0123456789abcdef0123",
                    reason: "single_threshold",
                    mode,
                    ..Default::default()
                };
                let (_, reference) = make_preview(&output, &request(SynopsisMode::Reference));
                let (_, enhanced) = make_preview(&output, &request(SynopsisMode::Enhanced));
                assert!(
                    char_len(&enhanced) * 5 <= char_len(&reference) * 6,
                    "{mime_type}: {} > 1.2 x {}\n{enhanced}",
                    char_len(&enhanced),
                    char_len(&reference)
                );
                // The header and the Explore lines are the reference's.
                let explore = |stub: &str| stub.split("\nExplore:\n").nth(1).map(str::to_string);
                assert_eq!(explore(&enhanced), explore(&reference));
                assert!(enhanced
                    .starts_with("[OpenViking tool result externalized]\ntool_name: tool\nkind: "));
            }
        }
    }

    #[test]
    fn small_outputs_keep_the_references_stub() {
        // The reference's stub of a tiny output is longer than the output: below the floor it
        // stays so, whatever the bound.
        let output = "{\"a\": 1}";
        let (synopsis, stub) = preview(output, None);
        assert!(char_len(&stub) > char_len(output));
        assert_eq!(synopsis, synopsis::generate(output, "text/plain", 8));
        assert!(!stub.contains(" more"), "{stub}");
    }
}
