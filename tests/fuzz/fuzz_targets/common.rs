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
    let pick = data.last().map_or(0, |&b| usize::from(b) % MIME_TYPES.len());
    (String::from_utf8_lossy(data).into_owned(), MIME_TYPES[pick].to_string())
}

pub fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// The kinds a synopsis may have.
pub const KINDS: [&str; 8] = ["json", "yaml", "xml", "csv", "tsv", "code", "text", "unknown"];
