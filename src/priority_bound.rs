//! The length bound of enhanced stubs: which synopsis lines stay when the stub would be longer
//! than 1.2x the reference's (`stub::ENHANCED_STUB_RATIO`). Each line has a priority
//! (`Synopsis::priorities`, lower kept first; lines without one rank alike). The bound takes the
//! lines by priority, ties in the stub's order: a line that fits whole is kept; the first that
//! does not is cut to the room left when enough of it fits to be worth it (with `... (N more
//! chars)`), else dropped, and the lines after it are still tried. The kept lines stay in their
//! order, and each section says how many of its lines were dropped (`... N more`). So a test
//! count or a definition list ranked above a long list of details survives wherever it stands,
//! where a bound by position would keep the first lines and drop the rest.
//!
//! The reference's own bound (`stub::bound_synopsis`, `maxStubChars`) keeps each section's first
//! lines: it is the reference's behaviour and stays as it is.

use crate::kinds::Synopsis;
use crate::python::{char_len, take_chars};

/// The priorities analyzers give lines (lower is kept first). (A build without the analyzers
/// ranks no line itself.)
#[cfg_attr(not(feature = "enhanced"), allow(dead_code))]
pub mod line_priority {
    /// What the output is: its kind, size, language (a synopsis's first line).
    pub const HEADLINE: u8 = 0;
    /// What a model chooses its next call by: counts, errors, names, outlines, definitions.
    pub const KEY: u8 = 1;
    /// More of the same: distributions, further lists, samples of values.
    pub const DETAIL: u8 = 2;
    /// Verbatim excerpts of the output, which a read shows as well.
    pub const QUOTE: u8 = 3;
}

const TITLES: [&str; 3] = ["Synopsis:", "Structure:", "Notable items:"];

/// Fewer chars than this left for a line that does not fit: it is dropped rather than cut.
const WORTH_CLIPPING: usize = 40;

/// What the bound does with a line.
#[derive(Clone)]
enum Fate {
    Dropped,
    Whole,
    Clipped(String),
}

/// Chars of a rendered stub's sections as the bound decides them: per section its title (when
/// it shows a line or a marker), its kept lines (`- line`) and its `- ... N more` marker.
struct Layout<'a> {
    lines: &'a [(usize, String)],
    fates: Vec<Fate>,
}

impl Layout<'_> {
    fn chars(&self) -> usize {
        let mut total = 0;
        for (section, title) in TITLES.iter().enumerate() {
            let mut present = false;
            let mut dropped = 0usize;
            for ((at, line), fate) in self.lines.iter().zip(&self.fates) {
                if *at != section {
                    continue;
                }
                present = true;
                match fate {
                    Fate::Dropped => dropped += 1,
                    Fate::Whole => total += 3 + char_len(line),
                    Fate::Clipped(cut) => total += 3 + char_len(cut),
                }
            }
            if present {
                total += 2 + title.len();
            }
            if dropped > 0 {
                total += 3 + more_marker(dropped).len();
            }
        }
        total
    }
}

fn more_marker(dropped: usize) -> String {
    format!("... {dropped} more")
}

/// `line` cut to at most `room` chars, saying how many it lost. A list (`a, b, c`) is cut after
/// a whole entry when one ends in the last third of the room, so no name is left half-written.
fn cut_line(line: &str, room: usize) -> String {
    let total = char_len(line);
    let marker_reserve =
        "... ( more chars)".len() + total.checked_ilog10().map_or(1, |l| l as usize + 1);
    let head = take_chars(line, room.saturating_sub(marker_reserve));
    let head_chars = char_len(head);
    let head = match head.rfind(", ") {
        Some(at) if char_len(&head[..at]) * 3 >= head_chars * 2 => &head[..at + 1],
        _ => head,
    };
    format!("{head}... ({} more chars)", total - char_len(head))
}

/// Clips the lines of `synopsis` so its sections add at most `room` chars to a stub, choosing by
/// priority (see the module). Clears `priorities` whatever it does: they only serve the bound.
pub(crate) fn bound_by_priority(synopsis: &mut Synopsis, room: usize) {
    let priorities = synopsis.priorities.take();
    if crate::stub::sections_chars(synopsis) <= room {
        return;
    }
    let mut lines: Vec<(usize, String)> = Vec::new();
    for (section, items) in [
        &mut synopsis.summary,
        &mut synopsis.structure,
        &mut synopsis.notable_items,
    ]
    .into_iter()
    .enumerate()
    {
        lines.extend(items.drain(..).map(|line| (section, line)));
    }
    let ranks = priorities
        .filter(|ranks| ranks.len() == lines.len())
        .unwrap_or_else(|| vec![line_priority::KEY; lines.len()]);
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by_key(|&at| (ranks[at], at));
    let mut layout = Layout {
        lines: &lines,
        fates: vec![Fate::Dropped; lines.len()],
    };
    for at in order {
        layout.fates[at] = Fate::Whole;
        if layout.chars() <= room {
            continue;
        }
        layout.fates[at] = Fate::Clipped(String::new());
        let left = room.saturating_sub(layout.chars());
        layout.fates[at] = if left >= WORTH_CLIPPING {
            Fate::Clipped(cut_line(&lines[at].1, left))
        } else {
            Fate::Dropped
        };
    }
    let fates = layout.fates;
    let mut dropped = [0usize; 3];
    for ((section, line), fate) in lines.into_iter().zip(fates) {
        let items = match section {
            0 => &mut synopsis.summary,
            1 => &mut synopsis.structure,
            _ => &mut synopsis.notable_items,
        };
        match fate {
            Fate::Dropped => dropped[section] += 1,
            Fate::Whole => items.push(line),
            Fate::Clipped(cut) => items.push(cut),
        }
    }
    for (section, items) in [
        &mut synopsis.summary,
        &mut synopsis.structure,
        &mut synopsis.notable_items,
    ]
    .into_iter()
    .enumerate()
    {
        if dropped[section] > 0 {
            items.push(more_marker(dropped[section]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::line_priority::*;
    use super::*;
    use crate::stub::sections_chars;

    fn synopsis(summary: &[&str], structure: &[&str], notable: &[&str]) -> Synopsis {
        let strings = |items: &[&str]| items.iter().map(|s| s.to_string()).collect();
        Synopsis {
            summary: strings(summary),
            structure: strings(structure),
            notable_items: strings(notable),
            ..Synopsis::new("code", "Code output")
        }
    }

    #[test]
    fn the_highest_priority_lines_stay_wherever_they_stand() {
        let details = "x".repeat(300);
        let mut bounded = synopsis(
            &["Go source, 400 lines."],
            &[&details, "tests: 12"],
            &["Opening excerpt: package main"],
        );
        bounded.priorities = Some(vec![HEADLINE, DETAIL, KEY, QUOTE]);
        let room = 150;
        bound_by_priority(&mut bounded, room);
        // A bound by position keeps the long first line of the structure and drops the test
        // count after it; by priority the test count stays, and the details are cut around it.
        assert_eq!(bounded.summary, ["Go source, 400 lines."]);
        assert_eq!(bounded.structure.len(), 2, "{:?}", bounded.structure);
        assert!(
            bounded.structure[0].starts_with("xxx")
                && bounded.structure[0].ends_with("more chars)"),
            "{:?}",
            bounded.structure
        );
        assert_eq!(bounded.structure[1], "tests: 12", "kept in its place");
        assert_eq!(bounded.notable_items, ["... 1 more"]);
        assert!(
            sections_chars(&bounded) <= room,
            "{}",
            sections_chars(&bounded)
        );
        assert_eq!(bounded.priorities, None);
    }

    #[test]
    fn lines_without_priorities_are_kept_from_the_first() {
        let mut bounded = synopsis(
            &["a".repeat(60).as_str(), "b".repeat(60).as_str()],
            &[],
            &[],
        );
        bound_by_priority(&mut bounded, 100);
        assert_eq!(bounded.summary[0], "a".repeat(60));
        assert_eq!(bounded.summary[1], "... 1 more");
        // Priorities that do not match the lines (one per line) are ignored.
        let mut mismatched = synopsis(
            &["a".repeat(60).as_str(), "b".repeat(60).as_str()],
            &[],
            &[],
        );
        mismatched.priorities = Some(vec![DETAIL]);
        bound_by_priority(&mut mismatched, 100);
        assert_eq!(mismatched.summary, bounded.summary);
    }

    #[test]
    fn a_cut_list_ends_after_a_whole_entry_and_every_room_is_held() {
        let names: Vec<String> = (0..40).map(|i| format!("function_{i}()")).collect();
        let list = format!("defines (40): {}", names.join(", "));
        let cut = cut_line(&list, 80);
        assert!(char_len(&cut) <= 80, "{cut}");
        let (head, marker) = cut.split_once("... (").expect("a marker");
        assert!(head.ends_with("),"), "{cut}");
        assert_eq!(
            marker,
            format!("{} more chars)", char_len(&list) - char_len(head))
        );
        for room in (0..700).step_by(7) {
            let mut bounded = synopsis(&["Rust source."], &[&list, "imports (2): serde"], &["q"]);
            bounded.priorities = Some(vec![HEADLINE, DETAIL, KEY, QUOTE]);
            let markers = 2
                + "Synopsis:".len()
                + 3
                + "... 1 more".len()
                + 2
                + "Structure:".len()
                + 3
                + "... 2 more".len()
                + 2
                + "Notable items:".len()
                + 3
                + "... 1 more".len();
            bound_by_priority(&mut bounded, room);
            assert!(
                sections_chars(&bounded) <= room.max(markers),
                "room {room}: {bounded:?}"
            );
        }
    }
}
