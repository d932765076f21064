//! Shared by the fuzz targets: how raw fuzz bytes become an output and a MIME type.
#![allow(dead_code)] // each target uses its own subset

/// MIME types a fuzz input may pick by its last byte, covering every detection branch.
const MIME_TYPES: [&str; 9] = [
    "text/plain",
    "application/json",
    "application/xml",
    "text/csv",
    "text/tab-separated-values",
    "application/yaml",
    "",
    "TEXT/XML; charset=utf-8",
    "application/x-ndjson",
];

/// The bytes as text (invalid UTF-8 replaced, as a host decoding them would) and a MIME type:
/// after a 0xFF byte (never valid UTF-8) the rest is an arbitrary MIME type; otherwise the last
/// byte picks one of `MIME_TYPES`, so plain seed files stay whole.
pub fn output_and_mime(data: &[u8]) -> (String, String) {
    if let Some(split) = data.iter().position(|&b| b == 0xFF) {
        let output = String::from_utf8_lossy(&data[..split]).into_owned();
        let mime = String::from_utf8_lossy(&data[split + 1..]).into_owned();
        return (output, mime);
    }
    let pick = data
        .last()
        .map_or(0, |&b| usize::from(b) % MIME_TYPES.len());
    (
        String::from_utf8_lossy(data).into_owned(),
        MIME_TYPES[pick].to_string(),
    )
}

pub fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// More than any enhanced analyzer's synopsis can hold: every list and quoted line is capped.
const MAX_ANALYZER_SECTION_CHARS: usize = 8_000;

/// An enhanced analyzer's answer on arbitrary text: `None`, or a synopsis of its own `kind` whose
/// lines stay bounded whatever the input (a panic fails the target before this).
pub fn check_analyzer(synopsis: Option<tool_stub::Synopsis>, kind: &str) {
    if let Some(synopsis) = synopsis {
        assert_eq!(synopsis.kind, kind);
        let chars: usize = synopsis.lines().map(|line| line.chars().count()).sum();
        assert!(chars <= MAX_ANALYZER_SECTION_CHARS, "{chars} chars");
    }
}

/// The kinds a synopsis may have.
pub const KINDS: [&str; 8] = [
    "json", "yaml", "xml", "csv", "tsv", "code", "text", "unknown",
];

/// Reads a retrieval call's arguments from the front of the fuzz bytes: `Args::new` takes a
/// fixed-size header (missing bytes read as 0), so the rest, the output, keeps seed files whole.
pub struct Args<'a> {
    header: &'a [u8],
    at: usize,
    pub rest: &'a [u8],
}

/// Values at and around the limits every integer option is checked against.
const EDGE_INTS: [i64; 14] = [
    i64::MIN,
    -2,
    -1,
    0,
    1,
    2,
    159,
    160,
    199,
    200,
    201,
    1 << 20,
    1 << 53,
    i64::MAX,
];

impl<'a> Args<'a> {
    pub fn new(data: &'a [u8], header_len: usize) -> Args<'a> {
        let split = header_len.min(data.len());
        Args {
            header: &data[..split],
            at: 0,
            rest: &data[split..],
        }
    }

    pub fn byte(&mut self) -> u8 {
        let byte = self.header.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        byte
    }

    pub fn flag(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    pub fn small(&mut self) -> usize {
        usize::from(u16::from_le_bytes([self.byte(), self.byte()]))
    }

    /// An optional integer argument (3 header bytes): absent, an edge value, or a small one.
    pub fn int_option(&mut self) -> Option<i64> {
        let mode = self.byte() % 4;
        let value = self.small();
        match mode {
            0 => None,
            1 => Some(EDGE_INTS[value % EDGE_INTS.len()]),
            2 => Some(value as i64 % 300),
            _ => Some(value as i64),
        }
    }
}

/// The char-offset slice `start .. start+len` of `chars`, clamped to it.
pub fn char_slice(chars: &[char], start: usize, len: usize) -> String {
    let start = start.min(chars.len());
    chars[start..start.saturating_add(len).min(chars.len())]
        .iter()
        .collect()
}
