//! A big YAML document read in part. The analysis reads only the first `SAMPLED_RECORDS` records
//! of a collection and its last one (`Value::sampled`), so when the reference has already loaded
//! the output as one YAML document (PyYAML accepts all of it), the PyYAML port need only compose
//! those: a line scanner finds where each entry of the document's biggest collection starts and
//! counts them, and the port composes the text up to the first entry left out, joined to the text
//! from the last entry on (the same document with the entries between cut out).
//!
//! The collections it samples sit at column 0: the root mapping's keys, the root sequence's
//! `- ` entries, or the `- ` entries of an indentless sequence that is a root key's value
//! (`kubectl get -o yaml`'s `items:`). A column-0 line of a document PyYAML accepts starts such
//! an entry unless it goes on with a quoted scalar or a flow collection opened on an earlier line
//! (neither is bounded by indentation; plain and block scalars inside a column-0 collection are
//! indented). So the scanner reads every line that holds a quote or a bracket as tokens, and gives
//! up (`None`: the whole port decides, as without sampling) when one may be left open at the
//! line's end, and on anything else it cannot vouch for: line breaks other than `\n` (CR, NEL, LS,
//! PS), directives, document markers past the first line, tags, anchors or `?`/`:` at column 0,
//! keys with escapes, a duplicated root key (the entries and counts of maps keep first keys), and
//! an entry that is not a mapping (a sample is taken of records only, so what it says of the
//! records' type holds for them all). An alias in the kept text to an anchor in the cut text makes
//! the port refuse the joined text: given up too.

use super::document::SAMPLED_RECORDS;
use crate::kinds::yaml::load_documents_cut_from;
use crate::python::swar::{bytes_below, bytes_equal, LOW_BITS, WORD_BYTES};
use crate::value::Value;

/// Flow collections nested deeper than this on one line are given up.
const MAX_FLOW_DEPTH: usize = 64;

/// The document `text` (which PyYAML loads as one document: the reference's `yaml` kind) with
/// its biggest column-0 collection sampled; `None` when it has none bigger than a sample or the
/// scanner cannot vouch for its entries.
pub fn load_sampled(text: &str) -> Option<Sampled> {
    load_sampled_keeping(text, SAMPLED_RECORDS)
}

/// `load_sampled` keeping the first `sample` entries (tests sample small documents).
fn load_sampled_keeping(text: &str, sample: usize) -> Option<Sampled> {
    let split = split(text, sample)?;
    let mut joined = String::with_capacity(split.cut + (text.len() - split.last));
    joined.push_str(text.get(..split.cut)?);
    joined.push_str(text.get(split.last..)?);
    Some(Sampled {
        joined,
        whole_bytes: text.len(),
        split,
    })
}

/// The joined text and where its sampled collection is.
pub struct Sampled {
    joined: String,
    /// The length of the whole document.
    whole_bytes: usize,
    split: Split,
}

impl Sampled {
    /// The document as a value whose sampled collection holds its first `SAMPLED_RECORDS`
    /// entries, its last one, and the exact count; `None` when the port refuses the joined text
    /// or composes something else than the scanner saw.
    pub fn document(&self) -> Option<Value<'_>> {
        self.document_and_budget().map(|(document, _)| document)
    }

    /// `document`, and whether the value budget against alias bombs ran out.
    fn document_and_budget(&self) -> Option<(Value<'_>, bool)> {
        let (mut documents, exhausted) = load_documents_cut_from(&self.joined, self.whole_bytes)?;
        if documents.len() != 1 {
            return None;
        }
        let mut root = documents.pop()?;
        let collection = match &self.split.owner {
            None => &mut root,
            Some(owner) => match &mut root {
                Value::Map(entries, _) => entries
                    .iter_mut()
                    .find(|(key, _)| key == owner)
                    .map(|(_, value)| value)?,
                _ => return None,
            },
        };
        let held = self.split.sample + 1;
        match collection {
            Value::List(items, len)
                if items.len() == held && *len == held && items.iter().all(is_map) =>
            {
                *len = self.split.count;
            }
            Value::Map(entries, len)
                if self.split.owner.is_none()
                    && entries.len() == held
                    && *len == held
                    && entries.iter().all(|(_, v)| is_map(v)) =>
            {
                *len = self.split.count;
            }
            _ => return None,
        }
        Some((root, exhausted))
    }
}

/// The differential check of the tests and the fuzz target: `text` (a document the reference
/// loads) read in part keeping `sample` entries, against the whole document's value sampled
/// the same way; `None` when it is not read in part, or when the value budget against alias
/// bombs ran out (where it does depends on the nodes visited before: not comparable).
pub fn read_in_part_as_whole(text: &str, sample: usize) -> Option<Result<(), String>> {
    let part = load_sampled_keeping(text, sample)?;
    let (value, part_exhausted) = part.document_and_budget()?;
    let Some((mut documents, whole_exhausted)) = load_documents_cut_from(text, text.len()) else {
        return Some(Err(
            "read in part, but the whole text does not load".to_string()
        ));
    };
    if part_exhausted || whole_exhausted {
        return None;
    }
    let Some(mut whole) = documents.pop().filter(|_| documents.is_empty()) else {
        return Some(Err(
            "read in part, but the whole text is not one document".to_string()
        ));
    };
    let collection = match &part.split.owner {
        None => Some(&mut whole),
        Some(owner) => match &mut whole {
            Value::Map(entries, _) => entries
                .iter_mut()
                .find(|(key, _)| key == owner)
                .map(|(_, value)| value),
            _ => None,
        },
    };
    // Its first `sample` items and its last.
    let cut = |held: usize| sample.min(held - 1)..held - 1;
    match collection {
        Some(Value::List(items, _)) if !items.is_empty() => drop(items.drain(cut(items.len()))),
        Some(Value::Map(entries, _)) if !entries.is_empty() => {
            drop(entries.drain(cut(entries.len())))
        }
        _ => {
            return Some(Err(
                "the sampled collection is not in the whole document".to_string()
            ))
        }
    }
    let (part, whole) = (format!("{value:?}"), format!("{whole:?}"));
    Some(if part == whole {
        Ok(())
    } else {
        Err(format!("read in part:\n{part}\nwhole:\n{whole}"))
    })
}

fn is_map(value: &Value<'_>) -> bool {
    matches!(value, Value::Map(..))
}

/// Where the sampled collection's entries start.
#[derive(Debug, PartialEq)]
struct Split {
    /// How many first entries are kept.
    sample: usize,
    /// The root key whose value it is (`None`: the root).
    owner: Option<String>,
    /// How many entries it has.
    count: usize,
    /// Where the first entry left out starts (entry `SAMPLED_RECORDS`).
    cut: usize,
    /// Where the last entry starts.
    last: usize,
}

/// A column-0 collection being counted.
struct Entries<'t> {
    sample: usize,
    owner: Option<&'t [u8]>,
    count: usize,
    cut: usize,
    last: usize,
    /// Every entry so far is a mapping.
    all_maps: bool,
}

impl<'t> Entries<'t> {
    fn new(sample: usize, owner: Option<&'t [u8]>) -> Self {
        Entries {
            sample,
            owner,
            count: 0,
            cut: 0,
            last: 0,
            all_maps: true,
        }
    }

    fn add(&mut self, at: usize) {
        if self.count == self.sample {
            self.cut = at;
        }
        self.last = at;
        self.count += 1;
    }

    fn worth_sampling(&self) -> bool {
        self.all_maps && self.count > self.sample + 1
    }
}

/// Scans `text` line by line (see the module's comment).
fn split(text: &str, sample: usize) -> Option<Split> {
    let bytes = text.as_bytes();
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return None;
    }
    // The root keys as written, in order.
    let mut keys: Vec<&[u8]> = Vec::new();
    let mut root = Entries::new(sample, None);
    // Whether the root is a mapping (`None` until its first entry).
    let mut root_is_map: Option<bool> = None;
    // The `- ` entries at column 0 being read, and the biggest finished run.
    let mut run: Option<Entries<'_>> = None;
    let mut best: Option<Entries<'_>> = None;
    // The last root key whose value is not on its line (the owner of a run of `- ` entries).
    let mut open_key: Option<&[u8]> = None;
    // An entry whose value starts on a later line (a mapping when that line holds a key), and
    // whether it is a run's.
    let mut awaiting = false;
    let mut awaiting_run = false;
    let mut started = false;
    let mut at = 0;
    while at < bytes.len() {
        let start = at;
        let (end, flagged) = line_end(bytes, at)?;
        at = end + 1;
        let line = &bytes[start..end];
        let indent = line.iter().take_while(|&&b| b == b' ').count();
        let content = &line[indent..];
        if content.is_empty() || content[0] == b'#' {
            continue;
        }
        if indent > 0 {
            if awaiting {
                awaiting = false;
                if !starts_mapping(content) {
                    not_a_map(&mut root, &mut run, awaiting_run);
                }
            }
            if flagged && !block_line_closes(content) {
                return None;
            }
            continue;
        }
        // A column-0 line: a value still awaited is not a mapping (`key:` then a sibling is null;
        // a run of `- ` entries under the key is a list).
        if awaiting {
            awaiting = false;
            not_a_map(&mut root, &mut run, awaiting_run);
        }
        match content[0] {
            b'-' if line.starts_with(b"---") && line.get(3).is_none_or(|b| is_blank(*b)) => {
                // The document start, before anything else; a comment may follow it.
                if started || !is_blank_or_comment(&line[3..]) {
                    return None;
                }
                started = true;
            }
            b'-' if line.get(1).is_none_or(|b| is_blank(*b)) => {
                started = true;
                let owner = match root_is_map {
                    None => {
                        root_is_map = Some(false);
                        None
                    }
                    Some(false) => None,
                    Some(true) => Some(open_key?),
                };
                let entries = run.get_or_insert_with(|| Entries::new(sample, owner));
                entries.add(start);
                let value = &line[1..];
                let value = &value[value.iter().take_while(|&&b| is_blank(b)).count()..];
                if is_blank_or_comment(value) {
                    awaiting = true;
                    awaiting_run = true;
                } else if !starts_mapping(value) {
                    entries.all_maps = false;
                }
                if flagged && !block_line_closes(value) {
                    return None;
                }
            }
            first if first == b'"' || first == b'\'' || starts_plain_key(first) => {
                started = true;
                if root_is_map == Some(false) {
                    return None;
                }
                root_is_map = Some(true);
                if let Some(finished) = run.take() {
                    if best.as_ref().is_none_or(|b| finished.count > b.count) {
                        best = Some(finished);
                    }
                }
                let (key, value_start) = simple_key(line)?;
                keys.push(key);
                root.add(start);
                let value = &line[value_start..];
                let value = &value[value.iter().take_while(|&&b| is_blank(b)).count()..];
                if is_blank_or_comment(value) {
                    open_key = Some(key);
                    awaiting = true;
                    awaiting_run = false;
                } else {
                    open_key = None;
                    if value[0] != b'{' {
                        root.all_maps = false;
                    }
                }
                if flagged && !block_line_closes(value) {
                    return None;
                }
            }
            _ => return None,
        }
    }
    if awaiting {
        not_a_map(&mut root, &mut run, awaiting_run);
    }
    if let Some(finished) = run.take() {
        if best.as_ref().is_none_or(|b| finished.count > b.count) {
            best = Some(finished);
        }
    }
    let root_candidate = (root_is_map == Some(true) && root.worth_sampling()).then_some(root);
    let run_candidate = best.filter(Entries::worth_sampling);
    let chosen = match (root_candidate, run_candidate) {
        (Some(root), Some(run)) => {
            if run.count > root.count {
                run
            } else {
                root
            }
        }
        (Some(one), None) | (None, Some(one)) => one,
        (None, None) => return None,
    };
    // Maps keep a key's first entry: the last entry, or the run's owner, must be the only one
    // of its key to be the one the whole document shows.
    // (A root sequence has no keys: its entries are all kept by the whole document.)
    let unique = match chosen.owner {
        Some(owner) => Some(owner),
        None if root_is_map == Some(true) => Some(*keys.last()?),
        None => None,
    };
    if unique.is_some_and(|unique| keys.iter().filter(|key| **key == unique).count() != 1) {
        return None;
    }
    Some(Split {
        sample,
        owner: match chosen.owner {
            Some(owner) => Some(std::str::from_utf8(owner).ok()?.to_string()),
            None => None,
        },
        count: chosen.count,
        cut: chosen.cut,
        last: chosen.last,
    })
}

/// The entry whose value was awaited is not a mapping.
fn not_a_map(root: &mut Entries<'_>, run: &mut Option<Entries<'_>>, of_run: bool) {
    if of_run {
        if let Some(run) = run.as_mut() {
            run.all_maps = false;
        }
    } else {
        root.all_maps = false;
    }
}

fn is_blank(byte: u8) -> bool {
    byte == b' ' || byte == b'\t'
}

fn is_blank_or_comment(rest: &[u8]) -> bool {
    let rest = &rest[rest.iter().take_while(|&&b| is_blank(b)).count()..];
    rest.is_empty() || rest[0] == b'#'
}

/// A first byte this scanner takes for a plain key: none of YAML's indicators (`-`, `?` and `:`
/// starting plain scalars are left out too), nor `<` (the merge key `<<`), nor a control char.
fn starts_plain_key(first: u8) -> bool {
    first.is_ascii_alphanumeric()
        || matches!(first, b'_' | b'/' | b'.' | b'$' | b'(' | b'~' | b'+')
        || first >= 0x80
}

/// Whether a node's first line `content` starts a block mapping: a simple key.
fn starts_mapping(content: &[u8]) -> bool {
    match content.first() {
        Some(b'{') => true,
        Some(&first) => {
            (first == b'"' || first == b'\'' || starts_plain_key(first))
                && simple_key(content).is_some()
        }
        None => false,
    }
}

/// A simple key at the start of `line` (plain, or quoted without escapes) and where its value
/// starts (after the `:`): `None` when the line holds no such key.
fn simple_key(line: &[u8]) -> Option<(&[u8], usize)> {
    let first = *line.first()?;
    if first == b'"' || first == b'\'' {
        let close = line
            .iter()
            .skip(1)
            .position(|&b| b == first || b == b'\\')?
            + 1;
        if line[close] != first || line.get(close + 1) == Some(&first) {
            return None; // an escape: the key's text is not the written one
        }
        let after = close
            + 1
            + line[close + 1..]
                .iter()
                .take_while(|&&b| is_blank(b))
                .count();
        if line.get(after) != Some(&b':') || !line.get(after + 1).is_none_or(|b| is_blank(*b)) {
            return None;
        }
        return Some((&line[1..close], after + 1));
    }
    if line.starts_with(b"...") {
        return None;
    }
    let mut at = 0;
    while at < line.len() {
        match line[at] {
            b':' if line.get(at + 1).is_none_or(|b| is_blank(*b)) => {
                let key = &line[..at];
                let trimmed = key.len() - key.iter().rev().take_while(|&&b| is_blank(b)).count();
                return Some((&key[..trimmed], at + 1));
            }
            b'#' if at > 0 && is_blank(line[at - 1]) => return None,
            _ => at += 1,
        }
    }
    None
}

/// Where the line starting at `start` ends (its `\n`, or the text's end), and whether it holds a
/// byte that may open a quoted scalar or a flow collection (`"` `'` `[` `{`; also `#` and `&`,
/// which share their bit pattern). `None` when it holds a line break other than `\n`.
fn line_end(bytes: &[u8], start: usize) -> Option<(usize, bool)> {
    let mut flagged = false;
    let mut at = start;
    loop {
        while let Some(chunk) = bytes.get(at..at + WORD_BYTES) {
            let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
            // Controls; `"` `#` `&` `'` (0x22, 0x23, 0x26, 0x27 | 0x05 = 0x27); `[` `{` (| 0x20 =
            // 0x7B); the lead bytes of NEL, LS and PS (0xC2, 0xE2 | 0x20 = 0xE2).
            let raised = word | (LOW_BITS * 0x20);
            let special = bytes_below(word, 0x20)
                | bytes_equal(word | (LOW_BITS * 0x05), 0x27)
                | bytes_equal(raised, 0x7B)
                | bytes_equal(raised, 0xE2);
            if special != 0 {
                at += (special.trailing_zeros() / 8) as usize;
                break;
            }
            at += WORD_BYTES;
        }
        let Some(&byte) = bytes.get(at) else {
            return Some((bytes.len(), flagged));
        };
        match byte {
            b'\n' => return Some((at, flagged)),
            b'\t' => {}
            0x00..=0x1F => return None,
            b'"' | b'\'' | b'[' | b'{' | b'#' | b'&' => flagged = true,
            0xC2 if bytes.get(at + 1).is_some_and(|b| (0x80..=0x9F).contains(b)) => return None,
            0xE2 if bytes.get(at + 1) == Some(&0x80)
                && matches!(bytes.get(at + 2), Some(0xA8 | 0xA9)) =>
            {
                return None
            }
            _ => {}
        }
        at += 1;
    }
}

/// Whether a line read in block context from a token's start leaves no quoted scalar or flow
/// collection open at its end (`false` also when unsure).
fn block_line_closes(line: &[u8]) -> bool {
    let next_is_blank = |at: usize| line.get(at).is_none_or(|b| is_blank(*b));
    let mut at = 0;
    loop {
        while line.get(at).is_some_and(|b| is_blank(*b)) {
            at += 1;
        }
        let Some(&byte) = line.get(at) else {
            return true;
        };
        match byte {
            b'#' => return true,
            b'-' | b'?' | b':' if next_is_blank(at + 1) => at += 1,
            // An anchor, a tag or an alias: what follows it is read on.
            b'&' | b'!' | b'*' => {
                while line.get(at).is_some_and(|b| !is_blank(*b)) {
                    at += 1;
                }
            }
            // A block scalar's header: its content is on more indented lines.
            b'|' | b'>' => return true,
            b'"' | b'\'' => match quoted_end(line, at) {
                Some(end) => at = end,
                None => return false,
            },
            b'[' | b'{' => match flow_end(line, at) {
                Some(end) => at = end,
                None => return false,
            },
            b'%' | b'@' | b'`' | b']' | b'}' | b',' => return false,
            // A plain scalar: its quotes and brackets are text; it ends at `: ` (a key, whose
            // value follows), at ` #` or at the line's end.
            _ => loop {
                let Some(&byte) = line.get(at) else {
                    return true;
                };
                if byte == b':' && next_is_blank(at + 1) {
                    at += 1;
                    break;
                }
                if is_blank(byte) && line.get(at + 1) == Some(&b'#') {
                    return true;
                }
                at += 1;
            },
        }
    }
}

/// Where the quoted scalar opening at `start` closes on this line (after its closing quote).
fn quoted_end(line: &[u8], start: usize) -> Option<usize> {
    let quote = line[start];
    let mut at = start + 1;
    loop {
        let byte = *line.get(at)?;
        if quote == b'"' && byte == b'\\' {
            // An escape; a `\` ending the line escapes the break: the scalar goes on.
            line.get(at + 1)?;
            at += 2;
        } else if byte == quote {
            if quote == b'\'' && line.get(at + 1) == Some(&b'\'') {
                at += 2;
            } else {
                return Some(at + 1);
            }
        } else {
            at += 1;
        }
    }
}

/// Where the flow collection opening at `start` closes on this line (after its bracket). Only
/// flow collections of quoted and plain scalars are read: anything else gives up.
fn flow_end(line: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut at = start;
    loop {
        while line.get(at).is_some_and(|b| is_blank(*b)) {
            at += 1;
        }
        match *line.get(at)? {
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_FLOW_DEPTH {
                    return None;
                }
                at += 1;
            }
            b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                at += 1;
                if depth == 0 {
                    return Some(at);
                }
            }
            // In a flow collection `?` and `:` are always indicators.
            b',' | b'?' | b':' => at += 1,
            b'"' | b'\'' => at = quoted_end(line, at)?,
            // A comment (the collection goes on over lines), anchors, tags, aliases, block
            // scalars, reserved chars: given up.
            b'#' | b'&' | b'!' | b'*' | b'|' | b'>' | b'%' | b'@' | b'`' => return None,
            // A plain scalar: it ends at `,[]{}`, or at a `:` followed by a blank or one of
            // those. A `?` would end it too, a quote inside or a ` #` after it is given up.
            _ => loop {
                let byte = *line.get(at)?;
                match byte {
                    b',' | b'[' | b']' | b'{' | b'}' => break,
                    b':' if line
                        .get(at + 1)
                        .is_none_or(|b| is_blank(*b) || b",[]{}".contains(b)) =>
                    {
                        break
                    }
                    b'?' | b'"' | b'\'' => return None,
                    _ if is_blank(byte) && line.get(at + 1) == Some(&b'#') => return None,
                    _ => at += 1,
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator of numbers.
    struct Numbers(u64);

    impl Numbers {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }

        fn pick<'p>(&mut self, pieces: &[&'p str]) -> &'p str {
            pieces[self.below(pieces.len())]
        }
    }

    /// Field lines of a record at `indent`, some with what the scanner must read across lines:
    /// quoted scalars and flow collections going on at column 0 (where a line looks like a key
    /// or an entry), block scalars, comments, anchors and aliases.
    fn fields(numbers: &mut Numbers, indent: &str, record: usize, hazards: usize) -> String {
        // The first ones read on one line; the others go on over lines or give up.
        const FIELDS: &[&str] = &[
            "name: plain text {i}",
            "count: {i}",
            "enabled: true",
            "quoted: \"a # b: c [x {i}\"",
            "single: 'it''s {i} [ {'",
            "url: http://example.com:80/{i}",
            "tags: [a, \"b, c\", 'd', {i}]",
            "map: {k: v, \"q\": [1, 2]}",
            "empty:",
            "tabbed:\tvalue {i}",
            "# a comment with \"a quote and [ a bracket",
            "note: text # a comment \"with a quote",
            "plain: it's [not] {a} \"flow\"",
            "escaped: \"a \\\" b \\\\\"",
            "multi: \"first line\nitem_fake:\n  name: not a record\n  last line\"",
            "multi_entry: \"first line\n- name: not an entry\n  last line\"",
            "multi_single: 'first\nitem_fake:\n  name: not a record'",
            "flow: [a,\nitem_fake: {name: not a record},\n d]",
            "flowmap: {a: 1,\n- name: not an entry}",
            "script: |\n{in}  echo \"unclosed\n{in}  [ not flow\n\n{in}  # not a comment",
            "folded: >-\n{in}  text 'open\n{in}  more",
            "folded_plain: a\n{in}  \"b continues",
            "list:\n{in}- x {i}\n{in}- \"y\"",
            "nested:\n{in}  deep: [1, 2]\n{in}  deeper:\n{in}    x: \"#\"",
            "anchored: &anchor{i} {a: 1}",
            "alias: *anchor0",
            "continued: \"line \\\n  goes on\"",
            "crlf: a\r",
        ];
        const ONE_LINE: usize = 14;
        let mut lines = String::new();
        for _ in 0..1 + numbers.below(4) {
            let pick = if numbers.below(10) < hazards {
                numbers.below(FIELDS.len())
            } else {
                numbers.below(ONE_LINE)
            };
            let field = FIELDS[pick]
                .replace("{i}", &record.to_string())
                .replace("{in}", indent);
            lines.push_str(indent);
            lines.push_str(&field);
            lines.push('\n');
        }
        lines
    }

    fn key(numbers: &mut Numbers, record: usize, hazards: usize) -> String {
        match numbers.below(4 + 8 * (4 - hazards)) {
            0 => format!("\"quoted {record}\""),
            1 => format!("'single {record}'"),
            2 => "item_0".to_string(),
            3 => format!("a#{record}"),
            4 => format!("\"esc\\t{record}\""),
            5 => format!("&k{record} anchored"),
            _ => format!("item_{record}"),
        }
    }

    /// A document of records: a root mapping of them, a root sequence, or a kubectl-style list.
    fn document(numbers: &mut Numbers) -> String {
        let mut text = String::new();
        if numbers.below(3) == 0 {
            text.push_str("---\n");
        }
        if numbers.below(4) == 0 {
            text.push_str("# generated \"records\n");
        }
        let records = 2 + numbers.below(10);
        let shape = numbers.below(3);
        // How likely the records hold what reads across lines or gives up (out of 10).
        let hazards = numbers.below(4);
        if shape == 2 {
            text.push_str("apiVersion: v1\nitems:\n");
        }
        for record in 0..records {
            let odd = numbers.below(10 + 20 * (3 - hazards));
            match shape {
                0 => {
                    text.push_str(&key(numbers, record, hazards));
                    if odd == 0 {
                        text.push_str(": scalar\n");
                    } else if odd == 1 {
                        text.push_str(": {inline: map}\n");
                    } else {
                        text.push_str(":\n");
                        text.push_str(&fields(numbers, "  ", record, hazards));
                    }
                }
                _ => {
                    if odd == 0 {
                        text.push_str("- scalar\n");
                    } else if odd == 1 {
                        text.push_str("-\n");
                        text.push_str(&fields(numbers, "  ", record, hazards));
                    } else {
                        let lines = fields(numbers, "  ", record, hazards);
                        text.push_str("- ");
                        text.push_str(&lines[2..]);
                    }
                }
            }
            if numbers.below(5 + 10 * (3 - hazards)) == 0 {
                text.push_str(numbers.pick(&[
                    "\n",
                    "# between\n",
                    "  # indented comment\n",
                    "\t\n",
                ]));
            }
        }
        if shape == 2 {
            text.push_str("kind: List\nmetadata:\n  resourceVersion: \"\"\n");
        }
        text
    }

    #[test]
    fn sampled_documents_are_the_whole_documents_sampled() {
        let mut numbers = Numbers(0x9E37_79B9_7F4A_7C15);
        let (mut loaded, mut sampled) = (0, 0);
        for _ in 0..20_000 {
            let text = document(&mut numbers);
            // Only documents the reference loads are read in part.
            if crate::kinds::yaml::synopsis(&text).is_none() {
                continue;
            }
            loaded += 1;
            let sample = 1 + numbers.below(3);
            if let Some(compared) = read_in_part_as_whole(&text, sample) {
                sampled += 1;
                compared.unwrap_or_else(|message| panic!("{message}\ndocument:\n{text}"));
            }
        }
        // The generated documents are worth the comparison: most load, many are sampled.
        assert!(
            loaded > 5_000 && sampled > 800,
            "{loaded} loaded, {sampled} sampled"
        );
    }

    /// A document of six records whose fourth holds `field` (at the records' indentation).
    fn six_records_with(field: &str) -> String {
        let mut text = String::new();
        for record in 0..6 {
            text.push_str(&format!("item_{record}:\n  name: x\n"));
            if record == 3 {
                text.push_str(&format!("  {field}\n"));
            }
        }
        text
    }

    #[test]
    fn lines_inside_quoted_scalars_and_flow_collections_are_not_entries() {
        // Quoted scalars and flow collections go on at column 0, where a line reads as a key.
        for field in [
            "double: \"first line\nitem_fake:\n  name: not a record\"",
            "single: 'first\nitem_fake:\n  name: not a record'",
            "escaped_break: \"first \\\nitem_fake:\n  name: not a record\"",
            "flow: [a,\nitem_fake: {name: not a record},\n d]",
            "flow_map: {a: 1,\nitem_fake: {name: not a record}}",
            "commented_flow: [a, # a comment\nitem_fake: {name: not a record}]",
            "anchored_flow: &a [a,\nitem_fake: {name: not a record}]",
        ] {
            let text = six_records_with(field);
            assert!(
                crate::kinds::yaml::synopsis(&text).is_some(),
                "PyYAML loads {text}"
            );
            assert_eq!(split(&text, 1), None, "{text}");
        }
        // What closes on its line, or is text (a plain or block scalar's), does not give up.
        for field in [
            "double: \"a # b: c [x\"  # \"comment",
            "single: 'it''s [ {'",
            "flow: [a, \"b, c\", 'd', {k: [1]}]",
            "plain: it's [not] {a} \"flow",
            "script: |\n    echo \"unclosed [",
        ] {
            let text = six_records_with(field);
            assert!(
                crate::kinds::yaml::synopsis(&text).is_some(),
                "PyYAML loads {text}"
            );
            let found = split(&text, 1).unwrap_or_else(|| panic!("split {text}"));
            assert_eq!((found.count, found.owner), (6, None), "{text}");
            assert_eq!(found.last, text.find("item_5").expect("the last"), "{text}");
        }
    }

    fn text_of<'v>(value: Option<&'v Value<'_>>) -> Option<&'v str> {
        match value? {
            Value::Text(text) => Some(text.as_ref()),
            _ => None,
        }
    }

    #[test]
    fn big_collections_are_sampled_with_their_count_and_last_entry() {
        let records = SAMPLED_RECORDS + 500;
        // A root mapping of records.
        let mut text = String::from("---\n");
        for record in 0..records {
            text.push_str(&format!(
                "item_{record}:\n  name: \"n {record}\"\n  tags:\n    - a\n    - b\n"
            ));
        }
        let part = load_sampled(&text).expect("sampled");
        let Some(Value::Map(entries, len)) = part.document() else {
            panic!("a map");
        };
        assert_eq!((entries.len(), len), (SAMPLED_RECORDS + 1, records));
        let (last_key, last) = entries.last().expect("entries");
        assert_eq!(last_key, &format!("item_{}", records - 1));
        assert_eq!(
            text_of(last.get("name")),
            Some(format!("n {}", records - 1).as_str())
        );
        // A kubectl list: an indentless sequence of records under `items`, and keys after it.
        let mut text = String::from("apiVersion: v1\nitems:\n");
        for record in 0..records {
            text.push_str(&format!("- kind: Pod\n  metadata:\n    name: pod-{record}\n  spec: {{containers: [{{name: c}}]}}\n"));
        }
        text.push_str("kind: List\nmetadata:\n  resourceVersion: \"\"\n");
        let part = load_sampled(&text).expect("sampled");
        let root = part.document().expect("a document");
        let Some(Value::List(items, len)) = root.get("items") else {
            panic!("items");
        };
        assert_eq!((items.len(), *len), (SAMPLED_RECORDS + 1, records));
        let last = items.last().and_then(|item| item.at_path("metadata.name"));
        assert_eq!(text_of(last), Some(format!("pod-{}", records - 1).as_str()));
        assert_eq!(text_of(root.get("kind")), Some("List"));
        // Up to a sample and its last entry, documents are not sampled.
        let small: String = text
            .lines()
            .take(2 + 4 * (SAMPLED_RECORDS + 1))
            .map(|line| format!("{line}\n"))
            .collect();
        assert!(load_sampled(&small).is_none());
    }
}
