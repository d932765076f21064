//! `diff` kind: unified diffs (`diff -u`, `git diff`, `git format-patch`). A file's section is
//! `diff --git a/x b/x` (git) or nothing, then `--- old` and `+++ new`, then hunks that open with
//! `@@ -l,s +l,s @@` and hold ` `, `+`, `-` and `\ No newline` lines. Claimed on a diff MIME type,
//! or when the output opens like a diff and a `--- `/`+++ `/`@@ -` triple follows. The synopsis
//! names the files with their added and removed lines, new, deleted and renamed files.

use super::analyzer::{Analyzer, Claim, Confidence, Family};
use super::document::joined_within;
use super::text_helpers::{floor_char_boundary, lines, PROBE_BYTES};
use super::Input;
use crate::kinds::Synopsis;

/// Chars of the files line.
const FILES_WIDTH: usize = 900;
/// Files named in each status line.
const STATUS_FILES: usize = 8;

/// Whether `head` holds a `--- ` line, a `+++ ` line right after it and a hunk header right
/// after that: the triple no other text has by accident.
fn has_file_header(head: &str) -> bool {
    let mut previous = ["", ""];
    for line in lines(head) {
        let line = line.trim_end_matches('\r');
        if line.starts_with("@@ -")
            && previous[1].starts_with("+++ ")
            && previous[0].starts_with("--- ")
        {
            return true;
        }
        previous = [previous[1], line];
    }
    false
}

/// The first `PROBE_BYTES` of `output`, cut at a char boundary.
fn head(output: &str) -> &str {
    &output[..floor_char_boundary(output, PROBE_BYTES)]
}

pub struct Diff;

impl Analyzer for Diff {
    fn name(&self) -> &'static str {
        "diff"
    }
    fn family(&self) -> Family {
        Family::Diff
    }
    fn claim(&self, input: &Input<'_>) -> Option<Claim> {
        let declared = super::analyzer::declared_family(input.mime) == Some(Family::Diff);
        if !declared {
            if matches!(input.reference_kind, "json" | "xml") {
                return None;
            }
            let first = input.output.trim_start().lines().next().unwrap_or("");
            let opens = ["diff ", "--- ", "Index: ", "From ", "commit "]
                .iter()
                .any(|start| first.starts_with(start));
            if !opens {
                return None;
            }
        }
        if !has_file_header(head(input.output)) {
            return None;
        }
        Some(Claim {
            confidence: if declared {
                Confidence::Declared
            } else {
                Confidence::Evidence
            },
            evidence: "--- / +++ / @@ file headers",
        })
    }
    fn synopsis(&self, input: &Input<'_>, _: &Claim) -> Option<Synopsis> {
        describe(input.output)
    }
}

#[derive(Default)]
struct FileChange {
    path: String,
    added: usize,
    removed: usize,
    status: &'static str,
    renamed_from: Option<String>,
}

/// `a/x` / `b/x` → `x`; `/dev/null` stays.
fn path_of(header: &str) -> &str {
    let path = header.split('\t').next().unwrap_or(header).trim_end();
    path.strip_prefix("a/")
        .or_else(|| path.strip_prefix("b/"))
        .unwrap_or(path)
}

/// The old and new line counts of a hunk header `@@ -l[,s] +l[,s] @@` (a missing count is 1).
fn hunk_counts(header: &str) -> Option<(usize, usize)> {
    let mut words = header.split(' ');
    words.next();
    let count = |range: &str| -> Option<usize> {
        match range.split_once(',') {
            Some((_, count)) => count.parse().ok(),
            None => range.parse::<usize>().ok().map(|_| 1),
        }
    };
    let old = count(words.next()?.strip_prefix('-')?)?;
    let new = count(words.next()?.strip_prefix('+')?)?;
    Some((old, new))
}

fn describe(output: &str) -> Option<Synopsis> {
    let mut files: Vec<FileChange> = Vec::new();
    let mut hunks = 0usize;
    // Lines of the open hunk still to come: old (context and removed), new (context and added).
    let mut left = (0usize, 0usize);
    // A `diff --git` line opened the last file, whose `---`/`+++` headers may follow.
    let mut git_header = false;
    let mut old_path: Option<String> = None;
    for line in lines(output) {
        let line = line.trim_end_matches('\r');
        if left != (0, 0) {
            if let Some(file) = files.last_mut() {
                match line.as_bytes().first() {
                    Some(b'+') => {
                        file.added += 1;
                        left.1 = left.1.saturating_sub(1);
                        continue;
                    }
                    Some(b'-') => {
                        file.removed += 1;
                        left.0 = left.0.saturating_sub(1);
                        continue;
                    }
                    Some(b' ') | None => {
                        left = (left.0.saturating_sub(1), left.1.saturating_sub(1));
                        continue;
                    }
                    Some(b'\\') => continue,
                    _ => left = (0, 0),
                }
            }
        }
        if let Some(rest) = line.strip_prefix("diff --git ") {
            let path = rest.rsplit_once(" b/").map_or(rest, |(_, new)| new);
            files.push(FileChange {
                path: path.to_string(),
                ..FileChange::default()
            });
            git_header = true;
            continue;
        }
        if line.starts_with("@@ -") {
            if let Some(counts) = hunk_counts(line) {
                if files.is_empty() {
                    files.push(FileChange::default());
                }
                hunks += 1;
                left = counts;
            }
            continue;
        }
        if let Some(old) = line.strip_prefix("--- ") {
            old_path = Some(path_of(old).to_string());
            continue;
        }
        if let Some(new) = line.strip_prefix("+++ ") {
            let new = path_of(new).to_string();
            let old = old_path.take().unwrap_or_default();
            if !git_header {
                files.push(FileChange::default());
            }
            git_header = false;
            let file = files.last_mut().expect("pushed above");
            if new == "/dev/null" {
                file.path = old;
                file.status = "deleted";
            } else {
                file.path = new;
                if old == "/dev/null" {
                    file.status = "new";
                }
            }
            continue;
        }
        let Some(file) = files.last_mut() else {
            continue;
        };
        if line.starts_with("new file mode") {
            file.status = "new";
        } else if line.starts_with("deleted file mode") {
            file.status = "deleted";
        } else if let Some(from) = line.strip_prefix("rename from ") {
            file.status = "renamed";
            file.renamed_from = Some(from.to_string());
        } else if line.starts_with("Binary files ") || line.starts_with("GIT binary patch") {
            file.status = "binary";
        }
    }
    if files.is_empty() {
        return None;
    }
    let added: usize = files.iter().map(|file| file.added).sum();
    let removed: usize = files.iter().map(|file| file.removed).sum();
    let mut synopsis = Synopsis::new("diff", "Unified diff");
    synopsis.summary.push(format!(
        "Unified diff: {} files changed, {hunks} hunks, +{added} -{removed} lines.",
        files.len()
    ));
    let listed: Vec<String> = files
        .iter()
        .map(|file| format!("{} +{} -{}", file.path, file.added, file.removed))
        .collect();
    synopsis
        .summary
        .push(format!("Files: {}.", joined_within(&listed, FILES_WIDTH)));
    for status in ["new", "deleted", "renamed", "binary"] {
        let named: Vec<String> = files
            .iter()
            .filter(|file| file.status == status)
            .map(|file| match &file.renamed_from {
                Some(from) => format!("{from} -> {}", file.path),
                None => file.path.clone(),
            })
            .collect();
        if !named.is_empty() {
            synopsis.structure.push(format!(
                "{status} files ({}): {}.",
                named.len(),
                joined_within(&named[..named.len().min(STATUS_FILES)], FILES_WIDTH / 2)
            ));
        }
    }
    let mut largest: Vec<&FileChange> = files.iter().collect();
    largest.sort_by_key(|file| std::cmp::Reverse(file.added + file.removed));
    if files.len() > 3 {
        let top: Vec<String> = largest
            .iter()
            .take(3)
            .map(|file| format!("{} ({} lines)", file.path, file.added + file.removed))
            .collect();
        synopsis
            .notable_items
            .push(format!("Largest changes: {}.", top.join(", ")));
    }
    Some(synopsis)
}
