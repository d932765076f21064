//! Credential-looking values masked in what goes into a model's context (stubs, list summaries,
//! the enhanced analyzers' excerpts), never in what is stored as the output.
//!
//! A stub is pushed into the model's context and often logged, so a key that a tool printed must
//! not ride along in its notable items or sample. What counts as a secret:
//! - tokens of a known format, found by their prefix (cloud keys, provider API keys, VCS and chat
//!   tokens, payment keys, JWTs): see [`PREFIXED`] and the checks in [`token_rule`];
//! - PEM private key blocks;
//! - the password of a URL's user info (`scheme://user:password@host`);
//! - the value of a key named like a credential (`password`, `secret`, `token`, `api_key`, ...)
//!   in `key: value`, `key=value`, `"key": "value"`, or after `Authorization: Bearer`.
//!
//! A masked value keeps a short prefix (its format's prefix and a few chars), so the model can
//! still tell two keys apart, and ends in [`MASK`]. Minimum lengths are lenient: a synopsis may
//! have clipped a token, and a clipped key is still a key. What is not a secret stays as it is:
//! hashes, UUIDs, base64 blobs and words like `token_count` have no credential prefix and no
//! credential key name. The rules are hand-written: the main module carries no regex engine.

use std::borrow::Cow;

use crate::kinds::Synopsis;
use crate::python::stable_sort_by;
use crate::synopsis_mode::SynopsisMode;

/// Whether stubs mask secrets, given the `redactSecrets` setting and the synopsis mode: as set,
/// else on in enhanced mode and off in reference mode (whose stubs stay the reference's).
pub fn redacts(setting: Option<bool>, mode: SynopsisMode) -> bool {
    setting.unwrap_or(mode == SynopsisMode::Enhanced)
}

/// What replaces the hidden part of a secret.
pub const MASK: &str = "[REDACTED]";

/// Chars kept of a secret's own part (after its format's prefix) at most.
const KEPT_CHARS: usize = 4;

/// Bytes a token may hold: the union of what the token formats use (`~` and `.` for Azure client
/// secrets and JWTs). Not `=`, `/` or `:`, so `KEY=AKIA...` or `url/ghp_...` starts a token at
/// the key.
fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'~')
}

/// `(prefix, least chars after it, chars allowed after it)`: formats known by their prefix.
type Charset = fn(u8) -> bool;

fn alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}
fn word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-')
}
fn upper_alnum(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit()
}
fn hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}
fn dotted(b: u8) -> bool {
    word(b) || b == b'.'
}

/// Formats told by their prefix, the longest prefix of a family first.
const PREFIXED: &[(&str, usize, Charset)] = &[
    // AWS access key ids (long-term, temporary, and other principal kinds).
    ("AKIA", 12, upper_alnum),
    ("ASIA", 12, upper_alnum),
    ("ABIA", 12, upper_alnum),
    ("ACCA", 12, upper_alnum),
    ("A3T", 13, upper_alnum),
    // Google API keys and OAuth access tokens.
    ("AIza", 20, word),
    ("ya29.", 20, dotted),
    // Anthropic, OpenAI (legacy, project, service account and admin keys), and other `sk-` keys.
    ("sk-ant-", 12, word),
    ("sk-", 16, word),
    // Stripe secret and restricted keys.
    ("sk_live_", 8, alnum),
    ("sk_test_", 8, alnum),
    ("rk_live_", 8, alnum),
    ("rk_test_", 8, alnum),
    ("whsec_", 16, alnum),
    // GitHub tokens.
    ("github_pat_", 16, word),
    ("ghp_", 16, alnum),
    ("gho_", 16, alnum),
    ("ghu_", 16, alnum),
    ("ghs_", 16, alnum),
    ("ghr_", 16, alnum),
    // GitLab tokens.
    ("glpat-", 12, word),
    ("gldt-", 12, word),
    ("glptt-", 12, word),
    ("glrt-", 12, word),
    ("glsoat-", 12, word),
    ("GR1348941", 12, word),
    // Slack tokens.
    ("xoxb-", 10, word),
    ("xoxp-", 10, word),
    ("xoxa-", 10, word),
    ("xoxr-", 10, word),
    ("xoxe.xox", 10, word),
    ("xoxe-", 10, word),
    ("xoxs-", 10, word),
    ("xapp-", 10, word),
    // Package registries, hosting, observability and SaaS tokens.
    ("npm_", 20, alnum),
    ("pypi-AgEIcHlwaS5vcmc", 16, word),
    ("hf_", 20, alnum),
    ("SG.", 20, dotted),
    ("shpat_", 16, hex),
    ("shpss_", 16, hex),
    ("shpca_", 16, hex),
    ("shppa_", 16, hex),
    ("dop_v1_", 16, hex),
    ("doo_v1_", 16, hex),
    ("dor_v1_", 16, hex),
    ("dapi", 32, hex),
    ("lin_api_", 16, alnum),
    ("PMAK-", 20, word),
    ("pul-", 20, hex),
    ("glc_", 16, word),
    ("glsa_", 16, word),
    ("NRAK-", 16, upper_alnum),
    ("ATATT3", 16, dotted),
    ("AGE-SECRET-KEY-1", 16, upper_alnum),
    ("dp.pt.", 16, alnum),
    ("FlyV1", 16, dotted),
    ("sntrys_", 16, dotted),
    ("rubygems_", 16, hex),
    ("key-", 32, hex),
    ("SK", 32, hex),
];

/// Names (lower case, `_`/`-`/`.`/space removed) whose value is a credential: a key ends in one.
/// `token_count` and `max_tokens` end in another word, and stay.
const SECRET_KEY_ENDINGS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "secret",
    "secretkey",
    "token",
    "apikey",
    "accesskey",
    "privatekey",
    "accountkey",
    "sharedaccesskey",
    "credential",
    "credentials",
    "authorization",
    "sig",
    "sessionid",
    "cookie",
];

/// The bytes that end an unquoted value.
fn ends_value(b: u8) -> bool {
    b.is_ascii_whitespace()
        || matches!(
            b,
            b',' | b';' | b'&' | b'}' | b']' | b')' | b'"' | b'\'' | b'<'
        )
}

/// A span of `text` to mask: `[start, end)`, of which the first `keep` bytes stay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    start: usize,
    keep: usize,
    end: usize,
}

/// How many bytes of a secret's own part of `len` bytes stay visible.
fn kept_of(len: usize) -> usize {
    (len / 4).min(KEPT_CHARS)
}

/// The span of a secret token `text[start..end]` (a maximal run of token bytes), if it is one.
fn token_rule(text: &str, start: usize, end: usize) -> Option<Span> {
    let token = &text.as_bytes()[start..end];
    for &(prefix, least, allowed) in PREFIXED {
        let Some(rest) = token.strip_prefix(prefix.as_bytes()) else {
            continue;
        };
        let own = rest.iter().take_while(|&&b| allowed(b)).count();
        if own >= least {
            return Some(Span {
                start,
                keep: prefix.len() + kept_of(own),
                end: start + prefix.len() + own,
            });
        }
    }
    // A JWT: `eyJ` header, `.`, `eyJ` payload, `.`, signature (base64url).
    if token.starts_with(b"eyJ") {
        let mut parts = token.split(|&b| b == b'.');
        let header = parts.next().unwrap_or_default();
        let payload = parts.next().unwrap_or_default();
        if header.len() >= 10 && payload.starts_with(b"eyJ") && payload.len() >= 10 {
            return Some(Span {
                start,
                keep: KEPT_CHARS + 3,
                end,
            });
        }
    }
    // An Azure AD client secret: three chars, a digit, `Q~`, then 31 or more.
    if token.len() >= 34
        && token[3].is_ascii_digit()
        && &token[4..6] == b"Q~"
        && token[..3]
            .iter()
            .all(|&b| alnum(b) || matches!(b, b'_' | b'~' | b'.'))
    {
        return Some(Span {
            start,
            keep: 6,
            end,
        });
    }
    None
}

/// Where each PEM private key block starts and ends (to its END line, or the end of the string).
fn pem_spans(text: &str, spans: &mut Vec<Span>) {
    const BEGIN: &str = "-----BEGIN ";
    let mut from = 0;
    while let Some(found) = text[from..].find(BEGIN) {
        let at = from + found;
        let line_end = text[at..].find('\n').map_or(text.len(), |n| at + n);
        let header = &text[at..line_end];
        let Some(marker_end) = header[BEGIN.len()..]
            .find("-----")
            .map(|n| at + BEGIN.len() + n + 5)
        else {
            from = at + BEGIN.len();
            continue;
        };
        if !text[at..marker_end].contains("PRIVATE KEY") {
            from = marker_end;
            continue;
        }
        // To its END line; a block cut short (a clipped sample) runs while it looks like one:
        // base64 lines, or `\n`-escaped ones inside a JSON string.
        let end = text[marker_end..].find("-----END ").map_or_else(
            || {
                text[marker_end..]
                    .bytes()
                    .position(|b| {
                        !(b.is_ascii_alphanumeric()
                            || matches!(b, b'+' | b'/' | b'=' | b'\\' | b'\n' | b'\r'))
                    })
                    .map_or(text.len(), |n| marker_end + n)
            },
            |n| marker_end + n,
        );
        if end > marker_end {
            spans.push(Span {
                start: marker_end,
                keep: 0,
                end,
            });
        }
        from = end.max(marker_end);
    }
}

/// The password of each URL with user info: `scheme://user:password@host`.
fn url_password_spans(text: &str, spans: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(found) = text[from..].find("://") {
        let authority = from + found + 3;
        from = authority;
        let end = bytes[authority..]
            .iter()
            .position(|&b| matches!(b, b'/' | b'?' | b'#') || ends_value(b))
            .map_or(bytes.len(), |n| authority + n);
        let Some(at) = text[authority..end].rfind('@').map(|n| authority + n) else {
            continue;
        };
        let Some(colon) = text[authority..at].find(':').map(|n| authority + n) else {
            continue;
        };
        if at > colon + 1 {
            spans.push(Span {
                start: colon + 1,
                keep: 0,
                end: at,
            });
        }
    }
}

/// Whether a key name (as written) names a credential: its last one, two or three words (split at
/// `_`, `-`, `.`, spaces and lower-to-upper case steps), run together in lower case, are one of
/// [`SECRET_KEY_ENDINGS`]. `cwd` is not `pwd`, and `token_count` ends in `count`.
fn is_secret_key(name: &str) -> bool {
    let mut words: Vec<String> = Vec::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if matches!(c, '_' | '-' | '.' | ' ') {
            words.push(String::new());
            previous_lower = false;
            continue;
        }
        if words.is_empty() || (c.is_ascii_uppercase() && previous_lower) {
            words.push(String::new());
        }
        previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        if let Some(last) = words.last_mut() {
            last.push(c.to_ascii_lowercase());
        }
    }
    words.retain(|w| !w.is_empty());
    let mut tail = String::new();
    words.iter().rev().take(3).any(|w| {
        tail.insert_str(0, w);
        SECRET_KEY_ENDINGS.contains(&tail.as_str())
    })
}

/// A value that is no credential whatever its key says: a number, a boolean, null, empty, or a
/// mask or placeholder already.
fn is_plain_value(value: &str) -> bool {
    let v = value.trim();
    v.len() < 3
        || v.bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-')
        || matches!(
            v.to_ascii_lowercase().as_str(),
            "true" | "false" | "null" | "none" | "nil" | "undefined" | "***" | "redacted"
        )
        || v.bytes().all(|b| b == b'*' || b == b'x' || b == b'X')
        || v.contains(MASK)
}

/// The values of keys named like credentials: `key: value`, `key=value`, `"key": "value"`, and an
/// `Authorization` header's credentials after its scheme (`Bearer`, `Basic`, `token`).
fn keyed_spans(text: &str, spans: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    let is_name = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.');
    let mut i = 0;
    while i < bytes.len() {
        if !is_name(bytes[i]) {
            i += 1;
            continue;
        }
        let name_start = i;
        while i < bytes.len() && is_name(bytes[i]) {
            i += 1;
        }
        let name = &text[name_start..i];
        let mut j = i;
        if j < bytes.len() && matches!(bytes[j], b'"' | b'\'') {
            j += 1;
        }
        while j < bytes.len() && bytes[j] == b' ' {
            j += 1;
        }
        if j >= bytes.len() || !matches!(bytes[j], b':' | b'=') || !is_secret_key(name) {
            continue;
        }
        j += 1;
        if j < bytes.len() && bytes[j] == b'=' {
            j += 1;
        }
        while j < bytes.len() && matches!(bytes[j], b' ' | b'\t') {
            j += 1;
        }
        let quote = match bytes.get(j) {
            Some(&q @ (b'"' | b'\'')) => {
                j += 1;
                Some(q)
            }
            _ => None,
        };
        // An Authorization header: the scheme stays, its credentials go.
        let folded = name.to_ascii_lowercase();
        if folded.ends_with("authorization") {
            for scheme in ["Bearer ", "Basic ", "Token ", "token ", "bearer ", "basic "] {
                if text[j..].starts_with(scheme) {
                    j += scheme.len();
                    break;
                }
            }
        }
        let value_end = match quote {
            // A quoted value runs to its closing quote (a `\"` inside is escaped), or the string's end.
            Some(q) => {
                let mut k = j;
                while k < bytes.len() && bytes[k] != q && bytes[k] != b'\n' {
                    k += if bytes[k] == b'\\' { 2 } else { 1 };
                }
                k.min(bytes.len())
            }
            None => bytes[j..]
                .iter()
                .position(|&b| ends_value(b))
                .map_or(bytes.len(), |n| j + n),
        };
        let value = &text[j..value_end];
        if !is_plain_value(value) && !value.starts_with(['{', '[', '$']) {
            spans.push(Span {
                start: j,
                keep: kept_of(value.len()),
                end: value_end,
            });
        }
        i = value_end.max(i);
    }
}

/// Every span to mask in `text`, sorted and without overlaps.
fn spans_of(text: &str) -> Vec<Span> {
    let mut spans = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !is_token_byte(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && is_token_byte(bytes[i]) {
            i += 1;
        }
        // A token starts after a byte that is not part of a word: `task-...` holds no `sk-` key.
        if let Some(span) = token_rule(text, start, i) {
            spans.push(span);
        }
    }
    if text.contains("-----BEGIN ") {
        pem_spans(text, &mut spans);
    }
    if text.contains("://") {
        url_password_spans(text, &mut spans);
    }
    if text.contains([':', '=']) {
        keyed_spans(text, &mut spans);
    }
    // The shared sort: a `sort_by_key` of its own is another ~4 KB of the main wasm module.
    stable_sort_by(&mut spans, |a, b| {
        a.start.cmp(&b.start).then(b.end.cmp(&a.end))
    });
    let mut merged: Vec<Span> = Vec::with_capacity(spans.len());
    for span in spans {
        match merged.last_mut() {
            Some(last) if span.start < last.end => last.end = last.end.max(span.end),
            _ => merged.push(span),
        }
    }
    merged
}

/// `text` with every credential-looking value masked (borrowed when there is none).
pub fn redact_text(text: &str) -> Cow<'_, str> {
    let spans = spans_of(text);
    if spans.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for span in spans {
        let mut keep = (span.start + span.keep).min(span.end);
        while !text.is_char_boundary(keep) {
            keep -= 1;
        }
        out.push_str(&text[at..keep]);
        out.push_str(MASK);
        at = span.end;
    }
    out.push_str(&text[at..]);
    Cow::Owned(out)
}

fn redact_in_place(text: &mut String) {
    if let Cow::Owned(masked) = redact_text(text) {
        *text = masked;
    }
}

/// Masks the secrets in every text of a synopsis (its title, lines and sample).
pub fn redact_synopsis(synopsis: &mut Synopsis) {
    redact_in_place(&mut synopsis.title);
    for line in synopsis
        .summary
        .iter_mut()
        .chain(&mut synopsis.structure)
        .chain(&mut synopsis.notable_items)
    {
        redact_in_place(line);
    }
    redact_in_place(&mut synopsis.sample);
}
