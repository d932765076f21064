//! Ids and digests (SPEC 5): `safe_id`, tool-result ids, SHA-256, and validation of ids that
//! callers hand back to us.

use sha2::{Digest, Sha256};

use crate::error::{Error, Result};

const MAX_SAFE_ID_CHARS: usize = 96;

fn is_id_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}

/// Every run of chars outside `[A-Za-z0-9_.-]` becomes `_`; `.`, `_`, `-` are stripped at both
/// ends; `tool` when nothing is left; at most 96 chars.
pub fn safe_id(raw: &str) -> String {
    let mut replaced = String::with_capacity(raw.len());
    let mut in_run = false;
    for c in raw.chars() {
        if is_id_char(c) {
            replaced.push(c);
            in_run = false;
        } else if !in_run {
            replaced.push('_');
            in_run = true;
        }
    }
    let trimmed = replaced.trim_matches(['.', '_', '-']);
    if trimmed.is_empty() {
        return "tool".to_string();
    }
    // Only ASCII is left, so a byte prefix is a char prefix.
    trimmed[..trimmed.len().min(MAX_SAFE_ID_CHARS)].to_string()
}

/// Lower-case hex SHA-256 of the output's UTF-8 bytes.
pub fn sha256_hex(output: &str) -> String {
    sha256_hex_of_bytes(output.as_bytes())
}

/// Lower-case hex SHA-256 of bytes: the host hashes an output holding lone surrogates (which
/// UTF-8 cannot hold, and which reach the core as U+FFFD) over the WTF-8 bytes it stores.
pub fn sha256_hex_of_bytes(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for byte in digest {
        hex.push_str(&format!("{byte:02x}"));
    }
    hex
}

/// `tr_{safe_id(tool_id)}_{sha256[:16]}`, or `tr_{sha256[:24]}` without a tool id.
pub fn tool_result_id(tool_id: &str, sha256: &str) -> String {
    let prefix = |n: usize| sha256.get(..n).unwrap_or(sha256);
    if tool_id.is_empty() {
        format!("tr_{}", prefix(24))
    } else {
        format!("tr_{}_{}", safe_id(tool_id), prefix(16))
    }
}

/// Longest id we accept back from a caller; ours are at most 3 + 96 + 1 + 16 chars.
const MAX_ID_CHARS: usize = 256;

/// An id handed back by a caller: non-empty, only `[A-Za-z0-9_.-]`, and (beyond the reference,
/// because the id names a directory) not `.`/`..` and not absurdly long.
pub fn validate_id(id: &str) -> Result<()> {
    if id.is_empty() {
        return Err(Error::invalid("tool_result_id must not be empty"));
    }
    if !id.chars().all(is_id_char) {
        return Err(Error::invalid(format!(
            "invalid tool_result_id {:?}: only A-Z, a-z, 0-9, '_', '.' and '-' are allowed",
            crate::python::take_chars(id, 80)
        )));
    }
    if id == "." || id == ".." || id.len() > MAX_ID_CHARS {
        return Err(Error::invalid(format!(
            "invalid tool_result_id: must not be '.' or '..' and at most {MAX_ID_CHARS} chars"
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_id_rules() {
        assert_eq!(safe_id("call/../x y"), "call_.._x_y");
        assert_eq!(safe_id("--._a b_.-"), "a_b");
        assert_eq!(safe_id("日本"), "tool");
        assert_eq!(safe_id(&"x".repeat(200)).len(), 96);
    }

    #[test]
    fn ids_and_digest() {
        let sha = sha256_hex("");
        assert_eq!(
            sha,
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(tool_result_id("", &sha), "tr_e3b0c44298fc1c149afbf4c8");
        assert_eq!(tool_result_id("call 1", &sha), "tr_call_1_e3b0c44298fc1c14");
    }

    #[test]
    fn validation() {
        assert!(validate_id("tr_a.b-c").is_ok());
        for bad in ["", "a/b", "..", "a\\b", "a\0b", "é"] {
            assert!(validate_id(bad).is_err(), "{bad:?}");
        }
        assert!(validate_id(&"a".repeat(10_000)).is_err());
    }
}
