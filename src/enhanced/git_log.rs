//! `git_log` kind (enhanced mode): `git log` output, in its default form (`commit <sha>` blocks
//! with `Author:`, `Date:` and an indented message) or one commit per line (`--oneline`, with or
//! without `--graph`). The synopsis: the commit count, the newest and the oldest commit (hash,
//! subject, author, date), the date span, the authors with their commit counts, the merges.
//!
//! One pass over the lines; authors are counted in a map capped at `MAX_AUTHORS` names.

use crate::kinds::Synopsis;

use super::counter::Counter;
use super::text_helpers::bounded_one_line;

const MIN_HASH: usize = 7;
const MAX_HASH: usize = 40;
/// Lines the default form's first commit header must appear within.
const HEAD_LINES: usize = 3;
/// One-line form: lines sampled, and the share (percent) that must be commits.
const ONELINE_SAMPLE: usize = 200;
const ONELINE_PERCENT: usize = 90;
const MIN_ONELINE_COMMITS: usize = 3;
const MAX_AUTHORS: usize = 2_000;
const SHOWN_AUTHORS: usize = 5;
const SUBJECT_CHARS: i64 = 90;
const NAME_CHARS: i64 = 40;

/// The hex hash opening `text` (7 to 40 hex digits followed by the end, a space or `(`).
fn hash_prefix(text: &str) -> Option<&str> {
    let len = text.bytes().take_while(u8::is_ascii_hexdigit).count();
    let ok = (MIN_HASH..=MAX_HASH).contains(&len)
        && matches!(text.as_bytes().get(len), None | Some(b' '))
        && text[..len].bytes().all(|b| !b.is_ascii_uppercase());
    ok.then(|| &text[..len])
}

/// `commit <sha>` (with optional decorations): the hash.
fn commit_line(line: &str) -> Option<&str> {
    hash_prefix(line.strip_prefix("commit ")?)
}

/// A `--graph` prefix (`* `, `| * `, `|\ `...), skipped.
fn strip_graph(line: &str) -> &str {
    line.trim_start_matches(['*', '|', '/', '\\', ' ', '_'])
}

#[derive(Default)]
struct Commit {
    hash: String,
    subject: String,
    author: String,
    date: String,
}

impl Commit {
    fn describe(&self) -> String {
        let mut text = format!(
            "{} {}",
            short(&self.hash),
            bounded_one_line(&self.subject, SUBJECT_CHARS)
        );
        match (self.author.is_empty(), self.date.is_empty()) {
            (false, false) => text.push_str(&format!(" ({}, {})", self.author, self.date)),
            (false, true) => text.push_str(&format!(" ({})", self.author)),
            (true, false) => text.push_str(&format!(" ({})", self.date)),
            (true, true) => {}
        }
        text
    }
}

fn short(hash: &str) -> &str {
    &hash[..hash.len().min(MIN_HASH + 3)]
}

#[derive(Default)]
struct Scan {
    commits: usize,
    merges: usize,
    newest: Commit,
    oldest: Commit,
    authors: Counter,
}

/// `Name <email>` as the name.
fn author_name(value: &str) -> &str {
    let name = value.split('<').next().unwrap_or(value).trim();
    if name.is_empty() {
        value.trim()
    } else {
        name
    }
}

/// The default form: `commit` blocks.
fn scan_blocks(output: &str) -> Scan {
    let mut scan = Scan::default();
    let mut current = Commit::default();
    let mut want_subject = false;
    let finish = |scan: &mut Scan, commit: Commit| {
        if scan.commits == 1 {
            scan.newest = Commit { ..commit };
        } else {
            scan.oldest = commit;
        }
    };
    for line in output.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if let Some(hash) = commit_line(strip_graph_commit(line)) {
            if scan.commits > 0 {
                finish(&mut scan, std::mem::take(&mut current));
            }
            scan.commits += 1;
            current.hash = hash.to_string();
            want_subject = false;
            continue;
        }
        if scan.commits == 0 {
            continue;
        }
        let body = strip_graph(line);
        if let Some(value) = body.strip_prefix("Author:") {
            let name = author_name(value);
            current.author = bounded_one_line(name, NAME_CHARS);
            scan.authors.add(name, MAX_AUTHORS);
        } else if body.starts_with("Merge:") {
            scan.merges += 1;
        } else if let Some(value) = body
            .strip_prefix("Date:")
            .or_else(|| body.strip_prefix("AuthorDate:"))
        {
            current.date = bounded_one_line(value.trim(), NAME_CHARS);
            want_subject = true;
        } else if want_subject {
            // The message's first non-blank line is its subject.
            let subject = body.trim();
            if !subject.is_empty() {
                current.subject = bounded_one_line(subject, SUBJECT_CHARS);
                want_subject = false;
            }
        }
    }
    if scan.commits > 0 {
        finish(&mut scan, current);
    }
    scan
}

/// `* commit abc...` under `--graph`: the `commit` line without its graph prefix.
fn strip_graph_commit(line: &str) -> &str {
    if line.starts_with("commit ") {
        line
    } else {
        strip_graph(line)
    }
}

/// The one-line form: `<hash> <subject>` per line (after a graph prefix).
fn scan_oneline(output: &str) -> Scan {
    let mut scan = Scan::default();
    for line in output.split('\n') {
        let body = strip_graph(line.strip_suffix('\r').unwrap_or(line));
        let Some(hash) = hash_prefix(body) else {
            continue;
        };
        scan.commits += 1;
        let subject = body[hash.len()..].trim();
        let commit = Commit {
            hash: hash.to_string(),
            subject: bounded_one_line(subject, SUBJECT_CHARS),
            ..Commit::default()
        };
        if subject.starts_with("Merge ") {
            scan.merges += 1;
        }
        if scan.commits == 1 {
            scan.newest = commit;
        } else {
            scan.oldest = commit;
        }
    }
    scan
}

/// Whether most of the first non-blank lines are one-line commits.
fn oneline_form(output: &str) -> bool {
    let mut lines = 0;
    let mut commits = 0;
    for line in output
        .split('\n')
        .filter(|line| !line.trim().is_empty())
        .take(ONELINE_SAMPLE)
    {
        lines += 1;
        let body = strip_graph(line.trim_end_matches('\r'));
        // A graph line without a commit (`|\`, `|/`) is neither.
        if body.is_empty() {
            lines -= 1;
            continue;
        }
        // git puts one space between the hash and the subject; a table of ids pads its columns
        // (`docker ps`), and its header line is no commit.
        let commit = hash_prefix(body).is_some_and(|hash| {
            body.len() > hash.len() + 1 && body.as_bytes()[hash.len() + 1] != b' '
        });
        if lines == 1 && !commit {
            return false;
        }
        commits += usize::from(commit);
    }
    commits >= MIN_ONELINE_COMMITS && commits * 100 >= lines * ONELINE_PERCENT
}

/// The synopsis of `git log` output, or `None` when `output` is not one.
pub fn synopsis(output: &str) -> Option<Synopsis> {
    let head: Vec<&str> = output
        .split('\n')
        .filter(|line| !line.trim().is_empty())
        .take(HEAD_LINES)
        .collect();
    let blocks = head
        .first()
        .is_some_and(|line| commit_line(strip_graph_commit(line)).is_some())
        && head.iter().skip(1).any(|line| {
            let body = strip_graph(line);
            body.starts_with("Author:") || body.starts_with("Merge:")
        });
    let scan = if blocks {
        scan_blocks(output)
    } else if oneline_form(output) {
        scan_oneline(output)
    } else {
        return None;
    };
    let mut synopsis = Synopsis::new("git_log", "git log");
    let form = if blocks { "" } else { " (one line each)" };
    synopsis.summary.push(format!(
        "git log: {} commits{form}, {} merges.",
        scan.commits, scan.merges
    ));
    synopsis
        .summary
        .push(format!("Newest: {}", scan.newest.describe()));
    if scan.commits > 1 {
        synopsis
            .summary
            .push(format!("Oldest: {}", scan.oldest.describe()));
    }
    if !scan.authors.values.is_empty() {
        let (shown, _) = scan.authors.top(SHOWN_AUTHORS, NAME_CHARS);
        synopsis.structure.push(format!(
            "Authors ({}{}) by commits: {}",
            scan.authors.values.len(),
            if scan.authors.other > 0 { "+" } else { "" },
            shown.join(", ")
        ));
    }
    Some(synopsis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::synopsis_text as text;

    fn block(hash: char, author: &str, day: u32, subject: &str) -> String {
        format!(
            "commit {}\nAuthor: {author} <{}@example.org>\nDate:   Mon Mar {day} 10:00:00 2025 +0100\n\n    {subject}\n\n    Body line.\n\n",
            hash.to_string().repeat(40),
            author.to_lowercase().replace(' ', ".")
        )
    }

    #[test]
    fn default_form_counts_commits_and_authors() {
        let mut log = String::new();
        for (i, author) in [
            "Ada Lovelace",
            "Alan Turing",
            "Ada Lovelace",
            "Grace Hopper",
            "Ada Lovelace",
        ]
        .iter()
        .enumerate()
        {
            let hash = char::from(b'a' + i as u8);
            log.push_str(&block(
                hash,
                author,
                20 - i as u32,
                &format!("change number {i}"),
            ));
        }
        let s = synopsis(&log).expect("a git log");
        let all = text(&s);
        assert_eq!(s.kind, "git_log");
        assert!(all.contains("git log: 5 commits, 0 merges."), "{all}");
        assert!(
            all.contains(
                "Newest: aaaaaaaaaa change number 0 (Ada Lovelace, Mon Mar 20 10:00:00 2025 +0100)"
            ),
            "{all}"
        );
        assert!(
            all.contains("Oldest: eeeeeeeeee change number 4 (Ada Lovelace, Mon Mar 16"),
            "{all}"
        );
        assert!(
            all.contains("Authors (3) by commits: Ada Lovelace 3, Alan Turing 1, Grace Hopper 1"),
            "{all}"
        );
    }

    #[test]
    fn merges_and_decorations() {
        let log = format!(
            "commit {} (HEAD -> main, origin/main)\nMerge: 1111111 2222222\nAuthor: Bo <b@x>\nDate:   Tue Apr 1 09:00:00 2025 +0000\n\n    Merge pull request #12 from x/y\n\n{}",
            "f".repeat(40),
            block('0', "Cy", 1, "first")
        );
        let all = text(&synopsis(&log).expect("a git log"));
        assert!(all.contains("2 commits, 1 merges"), "{all}");
        assert!(
            all.contains("Newest: ffffffffff Merge pull request #12 from x/y"),
            "{all}"
        );
    }

    #[test]
    fn one_line_form_with_and_without_graph() {
        let plain = "a1b2c3d fix: handle empty input\n9f8e7d6 feat: add export\n0011223 Merge branch 'x'\n4455667 docs: readme\n";
        let all = text(&synopsis(plain).expect("oneline"));
        assert!(
            all.contains("4 commits (one line each), 1 merges."),
            "{all}"
        );
        assert!(
            all.contains("Newest: a1b2c3d fix: handle empty input"),
            "{all}"
        );
        assert!(all.contains("Oldest: 4455667 docs: readme"), "{all}");
        let graph = "* a1b2c3d (HEAD -> main) top\n*   9f8e7d6 Merge x\n|\\  \n| * 0011223 side\n|/  \n* 4455667 base\n";
        let all = text(&synopsis(graph).expect("graph"));
        assert!(all.contains("4 commits (one line each)"), "{all}");
    }

    #[test]
    fn not_a_git_log() {
        for output in [
            "commit message guidelines\nWrite short subjects.\n",
            "deadbeef is a hex word\nbut this is prose\nand more prose\n",
            "",
            "commit 12345\nAuthor: x\n",
            "CONTAINER ID   IMAGE\nabcdef012345   nginx\n0123456789ab   redis\nfedcba987654   app\n",
            "abcdef012345   nginx\n0123456789ab   redis\nfedcba987654   app\n",
        ] {
            assert!(synopsis(output).is_none(), "{output:?}");
        }
    }
}
