//! XML documents (POM files, RSS/Atom feeds, JUnit reports, SVG sprites, SOAP and config files):
//! the root with its identifying attributes, the document's own fields (leaves under the root or
//! under its single wrapper, such as an RSS `channel`), repeated elements as records (`channel/item:
//! 120 records` with their fields, first and last, shared values and ids, read by the same record
//! analysis as JSON), and records flagged by a problem child (`<failure>`, `<error>`) or attribute
//! (`outcome="Failed"`), named first.
//!
//! A tolerant streaming tag scanner, not a validating parser (the reference's port of expat has
//! already accepted or rejected the document): comments, processing instructions, DOCTYPE and
//! CDATA are stepped over in one forward scan, a stray end tag closes what it matches or nothing,
//! nesting past `MAX_DEPTH` is counted but not kept, and every list it keeps is capped. Two passes:
//! a survey of element paths and problem records, then the values of the chosen records.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write;

use super::document::{joined_within, record_identity, untyped_record_lines, SAMPLED_RECORDS};
use super::field_values::shown;
use super::Input;
use crate::kinds::Synopsis;
use crate::python::swar::{self, bytes_equal, WORD_BYTES};
use crate::python::{clip, stable_sort_by};
use crate::value::Value;

mod render;
mod survey;
mod tokens;
mod values;
use render::*;
use survey::*;
use tokens::*;
use values::*;

/// Open elements kept on the stack; deeper ones are counted only.
const MAX_DEPTH: usize = 64;
/// Distinct element paths surveyed; elements under a path past this are not analysed.
const MAX_PATHS: usize = 4_096;
/// Child paths a path looks up in its own list (the rest through a map).
const LISTED_CHILDREN: usize = 16;
/// Levels of a record (or document field) turned into values.
const MAX_VALUE_DEPTH: usize = 6;
/// Keys kept per element value, and items kept per repeated child.
const MAX_KEYS: usize = 48;
const MAX_ITEMS: usize = 64;
/// Bytes of text kept per element.
const MAX_TEXT: usize = 240;
/// Repeated element paths described as record lists.
const RECORD_LISTS: usize = 2;
/// A repeated path under another record list counts as its own list only with this many
/// elements per parent (test cases per suite), else it is a field of its parent's records.
const NESTED_LIST_MIN: usize = 5;
/// Problem records named, and chars of a problem message.
const MAX_FLAGGED: usize = 12;
const MESSAGE_WIDTH: i64 = 80;
/// Width of a value, and of one line of names or fields.
const VALUE_WIDTH: i64 = 60;
/// Width of a value naming the first or last record (a title is recognisable by its start).
const IDENTITY_WIDTH: i64 = 40;
const LINE_WIDTH: usize = 160;
/// Chars of one synopsis line, and of all of them.
const MAX_LINE_CHARS: usize = 600;
const MAX_SYNOPSIS_CHARS: usize = 6_000;
/// Root attributes shown.
const ROOT_ATTRIBUTES: usize = 8;
/// Child elements whose presence marks their parent as a problem record.
const PROBLEM_ELEMENTS: [&str; 5] = ["failure", "error", "fault", "exception", "failed"];
/// Attributes whose value may mark an element as a problem record, and those values.
const PROBLEM_ATTRIBUTES: [&str; 5] = ["status", "result", "outcome", "state", "conclusion"];
const PROBLEM_VALUES: [&str; 9] = [
    "fail", "failed", "failure", "error", "errored", "broken", "timeout", "crashed", "aborted",
];
/// Attributes or child leaves that name an element, most telling first.
const LABELS: [&str; 7] = ["name", "testname", "title", "id", "key", "ref", "label"];
/// Attributes that are markup plumbing, not identity (namespaces, schema hints, styling).
fn is_plumbing(attribute: &str) -> bool {
    attribute == "xmlns"
        || attribute.starts_with("xmlns:")
        || attribute.ends_with("schemaLocation")
        || matches!(attribute, "style" | "class")
}

/// A decimal fraction (`time="171.512"`) that is not a version: a measurement, not what
/// identifies or counts the document.
fn is_measurement(name: &str, value: &str) -> bool {
    let fraction = value.split_once('.').is_some_and(|(whole, part)| {
        !part.is_empty()
            && [whole, part]
                .iter()
                .all(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
    });
    fraction && !name.to_ascii_lowercase().contains("version")
}

/// The enhanced synopsis of an XML output: what the reference parsed as XML, or text that
/// declares itself XML (`<?xml`) or comes with an XML MIME type.
pub fn detect(input: &Input<'_>) -> Option<Synopsis> {
    let start = input
        .output
        .trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
    let declared = start.starts_with("<?xml") || input.mime.contains("xml");
    if input.reference_kind != "xml" && !(declared && start.starts_with('<')) {
        return None;
    }
    synopsis(input.output)
}

/// The synopsis of `output` read as XML, or `None` when it holds no element.
pub fn synopsis(output: &str) -> Option<Synopsis> {
    let survey = survey(output)?;
    let plan = Plan::new(&survey);
    let values = collect_values(output, &survey, &plan);
    Some(render(&survey, &plan, values))
}

// ---------------------------------------------------------------- what to describe

struct Plan {
    /// Record lists, the most elements first.
    records: Vec<usize>,
    /// The element whose children are the document's own fields: the root, or its single
    /// wrapper (an RSS `channel`, a SOAP `Body`).
    body: usize,
    /// The body's children that occur once (its fields), in document order.
    fields: Vec<usize>,
}

impl Plan {
    fn new(survey: &Survey<'_>) -> Plan {
        let paths = &survey.paths;
        let mut body = survey.root;
        for _ in 0..3 {
            let children: Vec<usize> = paths.children(body).collect();
            match children[..] {
                [only] if paths.list[only].count == 1 && paths.list[only].structured == 1 => {
                    body = only
                }
                _ => break,
            }
        }
        let fields = paths
            .children(body)
            .filter(|&child| paths.list[child].count == 1)
            .collect();
        let candidate: Vec<bool> = (0..paths.list.len())
            .map(|id| paths.is_repeated_record(id))
            .collect();
        let mut records: Vec<usize> = (0..paths.list.len())
            .filter(|&id| candidate[id])
            .filter(|&id| {
                let info = &paths.list[id];
                let mut ancestor = info.parent;
                while let Some(up) = ancestor {
                    if candidate[up] {
                        return info.count >= NESTED_LIST_MIN * info.parents;
                    }
                    ancestor = paths.list[up].parent;
                }
                true
            })
            .collect();
        // The most elements first; equal counts keep document order (a stable sort).
        stable_sort_by(&mut records, |a, b| {
            paths.list[*b].count.cmp(&paths.list[*a].count)
        });
        records.truncate(RECORD_LISTS);
        Plan {
            records,
            body,
            fields,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::synopsis_text;

    /// The survey as it was before `Surveyor`: events of `walk` read by a closure (the oracle of
    /// the differential test).
    fn walked_survey(text: &str) -> Option<Survey<'_>> {
        let mut paths = Paths::default();
        let mut root: Option<(Option<usize>, &str)> = None;
        let mut flagged: Vec<Flagged> = Vec::new();
        let mut flag_counts: Vec<(String, usize)> = Vec::new();
        // Per open element: its path, its attribute text, whether it is flagged already. The flag
        // whose message the next text gives, with the depth of that text.
        let mut open: Vec<(Option<usize>, &str, bool)> = Vec::new();
        let mut awaiting_message: Option<(usize, usize)> = None;
        walk(text, &mut paths, &mut |event, depth| {
            match event {
                Event::Open {
                    path,
                    name,
                    attributes: raw,
                    ..
                } => {
                    root.get_or_insert((path, raw));
                    let local_name = local(name);
                    let is_problem = PROBLEM_ELEMENTS
                        .iter()
                        .any(|p| local_name.eq_ignore_ascii_case(p));
                    if let Some((parent_path, parent_raw, flagged_already)) =
                        open.last_mut().filter(|_| is_problem)
                    {
                        if !*flagged_already {
                            *flagged_already = true;
                            let kind = local_name.to_ascii_lowercase();
                            count_kind(&mut flag_counts, &kind);
                            if flagged.len() < MAX_FLAGGED {
                                let message = ["message", "reason"]
                                    .iter()
                                    .find_map(|key| attribute(raw, key))
                                    .map(|m| first_line(&m))
                                    .unwrap_or_default();
                                if message.is_empty() {
                                    awaiting_message = Some((flagged.len(), depth + 1));
                                }
                                let label = label_attribute(parent_raw).unwrap_or_default();
                                flagged.push(Flagged {
                                    path: *parent_path,
                                    label,
                                    kind,
                                    message,
                                });
                            }
                        }
                    }
                    let problem = if raw.is_empty() {
                        None
                    } else {
                        problem_attribute(raw)
                    };
                    if let Some(kind) = &problem {
                        count_kind(&mut flag_counts, kind);
                        if flagged.len() < MAX_FLAGGED {
                            let label = label_attribute(raw).unwrap_or_default();
                            flagged.push(Flagged {
                                path,
                                label,
                                kind: kind.clone(),
                                message: String::new(),
                            });
                        }
                    }
                    open.push((path, raw, problem.is_some()));
                }
                Event::Text(piece, cdata) => {
                    if let Some((index, at_depth)) = awaiting_message {
                        if depth >= at_depth && !piece.trim().is_empty() {
                            let piece = if cdata {
                                Cow::Borrowed(piece)
                            } else {
                                decode(piece)
                            };
                            flagged[index].message = first_line(&piece);
                            awaiting_message = None;
                        }
                    }
                }
                Event::Close => {
                    open.pop();
                    if awaiting_message.is_some_and(|(_, at_depth)| depth < at_depth) {
                        awaiting_message = None;
                    }
                }
            }
            true
        });
        let (root, root_attributes) = root?;
        Some(Survey {
            paths,
            root: root?,
            root_attributes,
            flagged,
            flag_counts,
        })
    }

    fn text_of(output: &str) -> String {
        synopsis_text(&synopsis(output).expect("an XML synopsis"))
    }

    #[test]
    fn a_wrapped_list_of_entries_gives_the_title_the_count_the_fields_and_the_ends() {
        let mut feed = String::from("<?xml version=\"1.0\"?>\n<catalog format=\"3\"><shelf><label>Spring books</label><curator>ann</curator>");
        for i in 0..30 {
            let extra = if i % 2 == 0 {
                "<tag>a</tag><tag>b</tag>"
            } else {
                "<tag>c</tag>"
            };
            feed.push_str(&format!("<book lang=\"en\"><title>Book &amp; {i}</title><added>2024-01-{:02}</added>{extra}</book>", i % 28 + 1));
        }
        feed.push_str("</shelf></catalog>");
        let shown = text_of(&feed);
        assert!(shown.starts_with("XML catalog (format=3)"), "{shown}");
        assert!(
            shown.contains("shelf/book (30): title, lang, added, tag[]"),
            "{shown}"
        );
        assert!(
            shown.contains("first: title=Book & 0") && shown.contains("last: title=Book & 29"),
            "{shown}"
        );
        assert!(shown.contains("all: lang=en"), "{shown}");
        // The wrapper's leaves are the document's fields; a tag repeated in some records only is
        // one list field everywhere.
        assert!(
            shown.contains("shelf: label=Spring books, curator=ann"),
            "{shown}"
        );
        assert!(shown.contains("tag[]: a 15, b 15, c 15"), "{shown}");
    }

    #[test]
    fn records_with_a_problem_child_are_named_first_rarest_kind_first_with_their_messages() {
        let mut report = String::from("<results total=\"40\">");
        for suite in 0..2 {
            report.push_str(&format!("<suite name=\"s{suite}\">"));
            for case in 0..20 {
                let body = match (suite, case) {
                    (0, 3) => "<failure message=\"expected 1 got 2\">trace</failure>",
                    (1, 7) => "<failure>\n  boom happened\n  at x.rs:1</failure>",
                    (1, 9) => "<error type=\"Timeout\"><![CDATA[timed out after 5s]]></error>",
                    _ => "",
                };
                report.push_str(&format!(
                    "<case name=\"case {suite}-{case}\" t=\"0.1\">{body}</case>"
                ));
            }
            report.push_str("</suite>");
        }
        report.push_str("</results>");
        let synopsis = synopsis(&report).expect("an XML synopsis");
        assert_eq!(
            synopsis.structure[0],
            "suite/case error (1): case 1-9; failure (2): case 0-3, case 1-7"
        );
        let shown = synopsis_text(&synopsis);
        assert!(
            shown.contains("suite/case (40): name, failure[]")
                || shown.contains("suite/case (40): name"),
            "{shown}"
        );
        assert!(
            shown.contains("messages: case 0-3: expected 1 got 2; case 1-7: boom happened; case 1-9: timed out after 5s"),
            "{shown}"
        );
        // Per-suite case lists are long enough to be a list of their own, ahead of the suites.
        assert!(
            shown.find("suite/case (40)") < shown.find("suite (2)"),
            "{shown}"
        );
    }

    #[test]
    fn a_problem_attribute_flags_its_own_element() {
        let runs: String = (0..6)
            .map(|i| {
                let outcome = if i == 4 { "Failed" } else { "Passed" };
                format!("<Run testName=\"t{i}\" outcome=\"{outcome}\"/>")
            })
            .collect();
        let shown = text_of(&format!("<TestRun><Results>{runs}</Results></TestRun>"));
        assert!(
            shown.contains("Results/Run outcome=Failed (1): t4"),
            "{shown}"
        );
        assert!(shown.contains("outcome: Passed 5, Failed 1"), "{shown}");
    }

    #[test]
    fn repeated_elements_list_their_ids_and_shared_attributes_and_nested_short_lists_stay_fields() {
        let symbols: String = (0..12)
            .map(|i| format!("<symbol id=\"s-{i}\" box=\"0 0 8 8\"><path d=\"M{i}\"/><path d=\"L{i}\"/></symbol>"))
            .collect();
        let shown = text_of(&format!(
            "<sprite xmlns=\"urn:x\" style=\"a\"><name>set</name>{symbols}</sprite>"
        ));
        assert!(shown.starts_with("XML sprite: set."), "{shown}");
        assert!(shown.contains("symbol (12): id, path[], box"), "{shown}");
        assert!(shown.contains("ids: s-0, s-1, s-2"), "{shown}");
        assert!(shown.contains("all: box=0 0 8 8"), "{shown}");
        // Two paths per symbol are a field of the symbols, not a record list of their own.
        assert!(!shown.contains("symbol/path ("), "{shown}");
    }

    #[test]
    fn a_config_document_shows_its_leaves_and_its_containers_of_settings() {
        let deps: String = (0..5)
            .map(|i| format!("<dep><group>org.g{i}</group><artifact>lib-{i}</artifact></dep>"))
            .collect();
        let doc = format!(
            "<!DOCTYPE conf [<!ENTITY x \"y\">]><conf><!-- c --><artifactId>svc</artifactId><version>1.2.0</version>\
             <base><artifactId>base-parent</artifactId></base><settings><lang.level>17</lang.level></settings>\
             <deps>{deps}</deps><make/></conf>"
        );
        let shown = text_of(&doc);
        assert!(
            shown.contains("conf: artifactId=svc, version=1.2.0"),
            "{shown}"
        );
        assert!(
            shown.contains("base: artifactId=base-parent")
                && shown.contains("settings: lang.level=17"),
            "{shown}"
        );
        assert!(shown.contains("deps/dep (5): group, artifact"), "{shown}");
        // Records without a name, title or id are known by their first fields.
        assert!(
            shown.contains("first: group=org.g0, artifact=lib-0"),
            "{shown}"
        );
        assert!(
            shown.contains("conf children: artifactId, version, base, settings, deps, make"),
            "{shown}"
        );
    }

    #[test]
    fn tokens_step_over_markup_that_is_not_elements_and_decode_text() {
        let tokens: Vec<String> = Tokens { text: "<?pi x?><!-- <a> --><!DOCTYPE d [<!ELEMENT e (#PCDATA)>]><a k='v>'>x &lt;&#65;&#x42;&bogus; <![CDATA[<b>]]></a>< 3", at: 0 }
            .map(|token| match token {
                Token::Start(name, raw, empty) => format!("start {name}{raw} {empty}"),
                Token::End(name) => format!("end {name}"),
                Token::Text(raw) => format!("text {}", decode(raw)),
                Token::CData(raw) => format!("cdata {raw}"),
            })
            .collect();
        assert_eq!(
            tokens,
            [
                "start a k='v>' false",
                "text x <AB&bogus; ",
                "cdata <b>",
                "end a",
                "text <",
                "text  3"
            ]
        );
    }

    /// Everything a survey found, written out (paths with every count, the root, the flags).
    fn fingerprint(survey: Option<Survey<'_>>) -> String {
        let Some(survey) = survey else {
            return "none".to_string();
        };
        let mut out = String::new();
        for (id, info) in survey.paths.list.iter().enumerate() {
            let _ = writeln!(
                out,
                "{id} {:?} parent={:?} count={} parents={} last_parent={} last_offset={} structured={} children={:?}",
                info.name, info.parent, info.count, info.parents, info.last_parent, info.last_offset, info.structured, info.children
            );
        }
        let _ = writeln!(
            out,
            "top={:?} root={} root_attributes={:?}",
            survey.paths.top, survey.root, survey.root_attributes
        );
        for flag in &survey.flagged {
            let _ = writeln!(
                out,
                "flag {:?} {:?} {:?} {:?}",
                flag.path, flag.label, flag.kind, flag.message
            );
        }
        let _ = writeln!(out, "counts {:?}", survey.flag_counts);
        out
    }

    /// A generated document: record lists (nested, with attributes), problem records past the
    /// sample, CDATA, comments, entities, declarations, and (with `broken`) the markup errors a
    /// tolerant scanner must read the same way whatever its shortcuts.
    fn generated_document(seed: u32, broken: bool) -> String {
        let mut state = seed;
        let mut next = move |n: u32| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) % n
        };
        const NAMES: [&str; 12] = [
            "item", "case", "name", "x:error", "failure", "Error", "count", "é", "a_b", "suite",
            "v", "fault",
        ];
        const ATTRIBUTES: [&str; 10] = [
            " id=\"7\"",
            " status=\"failed\"",
            " x:Outcome = ' Failed '",
            " name='n &amp; m'",
            " message=\"boom\nline 2\"",
            " kind=\"a>b\"",
            " state=ok",
            " result",
            "  ",
            " testname=\"t\" conclusion=\"aborted\"",
        ];
        const TEXTS: [&str; 9] = [
            "text",
            "  ",
            "\n  ",
            "a &lt; b &#65;",
            "<![CDATA[ <raw> ]]>",
            "<!-- c <a> -->",
            "<?pi x?>",
            "&bogus;",
            "1.5",
        ];
        const BROKEN: [&str; 13] = [
            "<",
            "< x",
            "</>",
            "</item >",
            "</item x>",
            "<a\"b>\"c>",
            "<a/b>",
            "<![CDATA[",
            "<!--",
            "<!DOCTYPE d [<!ENTITY e 'f'>]>",
            "</nope>",
            "<q '",
            "</a\"b>\"c>",
        ];
        let mut out = String::from("<?xml version=\"1.0\"?>\n<!DOCTYPE root>");
        let mut open: Vec<&str> = Vec::new();
        let steps = 200 + next(2_000);
        for _ in 0..steps {
            match next(if broken { 12 } else { 10 }) {
                0..=3 if open.len() < 70 => {
                    let name = NAMES[next(NAMES.len() as u32) as usize];
                    out.push('<');
                    out.push_str(name);
                    for _ in 0..next(3) {
                        out.push_str(ATTRIBUTES[next(ATTRIBUTES.len() as u32) as usize]);
                    }
                    if next(5) == 0 {
                        out.push_str(if next(2) == 0 { "/>" } else { " />" });
                    } else {
                        out.push('>');
                        open.push(name);
                    }
                }
                4..=6 => {
                    if let Some(name) = open.pop() {
                        out.push_str(&format!("</{name}>"));
                    }
                }
                7..=9 => out.push_str(TEXTS[next(TEXTS.len() as u32) as usize]),
                _ => out.push_str(BROKEN[next(BROKEN.len() as u32) as usize]),
            }
        }
        while let Some(name) = open.pop() {
            if next(4) != 0 {
                out.push_str(&format!("</{name}>"));
            }
        }
        out
    }

    #[test]
    fn start_tags_read_by_their_shortcuts_as_by_the_general_reading() {
        // The general reading: the tag up to its end (quotes respected), less `>` and a closing
        // `/`; the name runs to whitespace or `/`. `start_tag`'s shortcuts must agree with it.
        fn general(text: &str) -> (usize, &str, &str, bool) {
            let end = tag_end(text, 1);
            let inside = text[1..end].strip_suffix('>').unwrap_or(&text[1..end]);
            let (inside, empty) = inside
                .strip_suffix('/')
                .map_or((inside, false), |inside| (inside, true));
            let name_len = inside
                .bytes()
                .position(|b| b.is_ascii_whitespace() || b == b'/')
                .unwrap_or(inside.len());
            (end, &inside[..name_len], &inside[name_len..], empty)
        }
        let tags = [
            "<a>",
            "<a/>",
            "<a />",
            "<a b=\"1\">",
            "<a b='>'/>",
            "<a\tb=\"x/\" />",
            "<a/b>",
            "<a\"q>\">",
            "<a'q'>",
            "<a",
            "<a b",
            "<a />x",
            "<a\x0cb='1'>",
            "<ns:a xmlns:ns='u'>",
            "<é b='é'/>",
        ];
        let problem_tags = [
            "<a status='failed'>",
            "<a state\t=\tfailed/>",
            "<a x:Result = \"error\">",
            "<a k='=' OUTCOME=Broken>",
        ];
        for tag in tags.into_iter().chain(problem_tags) {
            let read = start_tag(tag, 0);
            assert_eq!(
                (read.end, read.name, read.raw, read.empty),
                general(tag),
                "{tag:?}"
            );
            // The filter read with the tag's end passes every tag with a problem attribute.
            assert!(
                read.may_hold_problem || problem_attribute(read.raw).is_none(),
                "{tag:?}"
            );
            assert_eq!(
                problem_attribute(read.raw).is_some(),
                problem_tags.contains(&tag),
                "{tag:?}"
            );
        }
    }

    #[test]
    fn the_fused_survey_finds_what_the_event_walk_finds() {
        let mut checked = 0;
        for seed in 0..400 {
            let document = generated_document(seed, seed % 2 == 1);
            // Every cut of a few bytes too: unclosed tags, quotes, comments, CDATA.
            let cuts = [
                document.len(),
                document.len() * 2 / 3,
                document.len() / 3 + seed as usize % 7,
            ];
            for cut in cuts {
                let Some(text) = document.get(..cut) else {
                    continue;
                };
                let (fused, walked) = (fingerprint(survey(text)), fingerprint(walked_survey(text)));
                let first_difference = fused.lines().zip(walked.lines()).find(|(a, b)| a != b);
                assert!(
                    fused == walked,
                    "seed {seed} cut {cut}: {first_difference:?}\n{text}"
                );
                checked += 1;
            }
        }
        assert!(checked > 1_000, "{checked}");
        // Record lists past the sample with problem records far past it; nesting past `MAX_DEPTH`.
        let mut long = String::from("<run>");
        for i in 0..5_000 {
            let problem = match i % 1_777 {
                1_000 => "<failure>\n <![CDATA[late trace]]></failure>",
                1_500 => "<error message='late'/>",
                _ => "",
            };
            let status = if i == 4_321 { "failed" } else { "passed" };
            long.push_str(&format!(
                "<test name=\"t{i}\" status=\"{status}\"><v>{i}</v>{problem}</test>\n"
            ));
        }
        long.push_str(&"<deep>".repeat(100));
        long.push_str("</run>");
        let found = fingerprint(survey(&long));
        assert!(
            found.contains("counts [(\"failure\", 3), (\"error\", 2), (\"status=failed\", 1)]"),
            "{found}"
        );
        assert_eq!(found, fingerprint(walked_survey(&long)));
    }

    /// A generated document of records that repeat one shape (what the survey's predictions
    /// expect), broken now and then by names that share a prefix with the expected one, tags
    /// that end in every way a name can end, problem attributes written every way, and markup
    /// errors, so that each guess is sometimes right and sometimes nearly right.
    fn repetitive_document(seed: u32) -> String {
        let mut state = seed;
        let mut next = move |n: u32| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) % n
        };
        const FIELDS: [&str; 4] = ["name", "count", "x:state", "é"];
        const NEAR: [&str; 10] = [
            "names",
            "nam",
            "Name",
            "name\"q\"",
            "coun",
            "x:stat",
            "x:stated",
            "éé",
            "failure",
            "x:error",
        ];
        const ENDINGS: [&str; 8] = [
            ">",
            " >",
            "\t>",
            "/>",
            " />",
            "\n  a='1'>",
            " b=\"x>y\">",
            "/ >",
        ];
        const ATTRIBUTES: [&str; 9] = [
            " id=\"3\"",
            " status=\"failed\"",
            " state=failed",
            " Result\t=\n'Error'",
            " x:outcome = \" aborted \"",
            " kind=\"s=t\"",
            " conclusion='ok'",
            " n='a=b' status='timeout'",
            " e=",
        ];
        let mut out = String::from("<?xml version=\"1.0\"?>\n<catalog>");
        for _ in 0..50 + next(300) {
            let record = if next(20) == 0 { "items" } else { "item" };
            out.push_str("\n  <");
            out.push_str(record);
            for _ in 0..next(3) {
                out.push_str(ATTRIBUTES[next(ATTRIBUTES.len() as u32) as usize]);
            }
            out.push('>');
            for (at, field) in FIELDS.iter().enumerate() {
                if next(8) == 0 {
                    continue;
                }
                let name = if next(10) == 0 {
                    NEAR[next(NEAR.len() as u32) as usize]
                } else {
                    field
                };
                out.push('<');
                out.push_str(name);
                if next(6) == 0 {
                    out.push_str(ATTRIBUTES[next(ATTRIBUTES.len() as u32) as usize]);
                }
                let ending = if next(4) == 0 {
                    ENDINGS[next(ENDINGS.len() as u32) as usize]
                } else {
                    ">"
                };
                out.push_str(ending);
                if !ending.ends_with("/>") {
                    out.push_str(
                        ["v", "a &amp; b", "<![CDATA[x]]>", "", "<!-- c -->"]
                            [(next(5) as usize + at) % 5],
                    );
                    if next(30) != 0 {
                        let closing = name.split(['"', ' ']).next().unwrap_or(name);
                        out.push_str(&format!("</{closing}>"));
                    }
                }
            }
            if next(25) != 0 {
                out.push_str(&format!("</{record}>"));
            }
        }
        out.push_str("\n</catalog>");
        out
    }

    #[test]
    fn the_survey_s_guesses_of_the_next_name_change_nothing_it_finds() {
        let mut predicted = 0;
        for seed in 0..300 {
            let document = repetitive_document(seed);
            for cut in [document.len(), document.len() / 2 + seed as usize % 11] {
                let Some(text) = document.get(..cut) else {
                    continue;
                };
                let (fused, walked) = (fingerprint(survey(text)), fingerprint(walked_survey(text)));
                let first_difference = fused.lines().zip(walked.lines()).find(|(a, b)| a != b);
                assert!(
                    fused == walked,
                    "seed {seed} cut {cut}: {first_difference:?}\n{text}"
                );
                predicted +=
                    usize::from(fused.contains("status=failed") && fused.contains("\"items\""));
            }
        }
        // The generator reaches what the guesses must get right.
        assert!(predicted > 50, "{predicted}");
    }

    #[test]
    fn hostile_documents_stay_bounded_and_never_panic() {
        let deep = "<a>".repeat(100_000) + "x" + &"</a>".repeat(100_000);
        let many_attributes = format!(
            "<r {}/>",
            (0..50_000)
                .map(|i| format!("a{i}=\"{i}\""))
                .collect::<Vec<_>>()
                .join(" ")
        );
        let many_names: String = (0..20_000).map(|i| format!("<n{i}>v</n{i}>")).collect();
        let wide_record: String = (0..300)
            .map(|i| {
                format!(
                    "<rec>{}</rec>",
                    (0..200)
                        .map(|j| format!("<f{j}>{i}</f{j}>"))
                        .collect::<String>()
                )
            })
            .collect();
        for output in [
            deep,
            many_attributes,
            format!("<root>{many_names}</root>"),
            format!("<root>{wide_record}</root>"),
            "<a><b><c>unclosed".to_string(),
            "</x></y><a attr=\"never closed".to_string(),
            "<a><![CDATA[never closed".to_string(),
            "<a><!-- never closed".to_string(),
            "<<<<>>>></></>".to_string(),
            "<é ü=\"ß\">ñ&#1114112;&#xD800;</é>".to_string(),
        ] {
            if let Some(synopsis) = synopsis(&output) {
                let chars: usize = synopsis.lines().map(|line| line.chars().count()).sum();
                assert!(
                    chars <= 8_000,
                    "{chars} chars for {}",
                    &output[..output.len().min(40)]
                );
            }
        }
        assert!(synopsis("no markup here").is_none());
    }

    #[test]
    fn detection_takes_parsed_xml_and_text_that_declares_itself_xml() {
        let reference = Synopsis::new("text", "Text output");
        let input = |output, mime, kind| Input {
            output,
            mime,
            reference_kind: kind,
            reference: &reference,
        };
        assert!(detect(&input("<a><b/></a>", "text/plain", "xml")).is_some());
        assert!(detect(&input(
            "<?xml version=\"1.0\"?><a><b></a>",
            "text/plain",
            "text"
        ))
        .is_some());
        assert!(detect(&input("<a><b></a>", "application/xml", "text")).is_some());
        assert!(detect(&input("<a><b></a>", "text/plain", "text")).is_none());
        assert!(detect(&input("a log line <xml>", "application/xml", "text")).is_none());
    }
}
