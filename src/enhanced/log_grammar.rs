//! The line grammars of log formats whose lines say where they come from (`log` reads a line's
//! timestamp and level; this module reads the rest of a line in a known format): syslog (RFC 3164
//! `host tag[pid]: msg`, as `/var/log/syslog` and `journalctl -o short` write it; RFC 5424's
//! `host app procid msgid [sd] msg`), Android logcat (`threadtime`: `pid tid L Tag: msg`; `brief`
//! and `time`: `L/Tag( pid): msg`), klog (`tid file.go:42] msg`), Go's `log` with file flags
//! (`main.go:12: msg`), Apache's error log (`[module:level] [pid N:tid M] msg`). Each parse names
//! its grammar and the line's host and source (program, tag, module or file), which the log
//! synopsis counts.

/// A grammar a line was read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Grammar {
    Rfc5424,
    /// RFC 3164 / BSD syslog and journald's short formats: `host tag[pid]: msg`.
    Syslog,
    Logcat,
    Klog,
    GoLog,
    ApacheError,
    NginxError,
}

/// How many grammars there are (for counting by `Grammar as usize`).
pub(crate) const GRAMMARS: usize = 7;

impl Grammar {
    pub(crate) const ALL: [Grammar; GRAMMARS] = [
        Grammar::Rfc5424,
        Grammar::Syslog,
        Grammar::Logcat,
        Grammar::Klog,
        Grammar::GoLog,
        Grammar::ApacheError,
        Grammar::NginxError,
    ];

    /// The format's name as the synopsis says it.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Grammar::Rfc5424 => "syslog (RFC 5424)",
            Grammar::Syslog => "syslog (RFC 3164) / journald short",
            Grammar::Logcat => "Android logcat",
            Grammar::Klog => "klog (Kubernetes)",
            Grammar::GoLog => "Go log with file:line",
            Grammar::ApacheError => "Apache error log",
            Grammar::NginxError => "nginx error log",
        }
    }

    /// What the source of a line is in this format.
    pub(crate) fn source_label(self) -> &'static str {
        match self {
            Grammar::Rfc5424 => "Apps",
            Grammar::Syslog => "Programs",
            Grammar::Logcat => "Tags",
            Grammar::Klog | Grammar::GoLog => "Source files",
            Grammar::ApacheError => "Modules",
            Grammar::NginxError => "Sources",
        }
    }
}

/// What a grammar reads from a line beyond its timestamp.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry<'a> {
    pub(crate) grammar: Grammar,
    pub(crate) host: Option<&'a str>,
    pub(crate) source: Option<&'a str>,
    /// The level the grammar itself carries (logcat's letter), as `log`'s level index.
    pub(crate) level: Option<usize>,
    pub(crate) message: &'a str,
}

/// logcat's priority letters (`V D I W E F A`) as `log`'s level indexes (FATAL 0 .. TRACE 7).
fn logcat_level(letter: u8) -> Option<usize> {
    match letter {
        b'F' | b'A' => Some(0),
        b'E' => Some(2),
        b'W' => Some(3),
        b'I' => Some(5),
        b'D' => Some(6),
        b'V' => Some(7),
        _ => None,
    }
}

/// `s` past its leading spaces.
fn skip_spaces(s: &str) -> &str {
    s.trim_start_matches(' ')
}

/// The leading run of ASCII digits of `s` and the rest.
fn split_digits(s: &str) -> (&str, &str) {
    let n = s.bytes().take_while(u8::is_ascii_digit).count();
    s.split_at(n)
}

/// The first space-delimited word of `s` and the rest (after the space).
fn split_word(s: &str) -> (&str, &str) {
    match super::text_helpers::find_byte(s.as_bytes(), b' ') {
        Some(at) => (&s[..at], &s[at + 1..]),
        None => (s, ""),
    }
}

/// A host name as syslog writes it: letters, digits, `.-_:` (an IPv6 address), not a level word
/// or a bracketed thread.
fn host_name(word: &str) -> bool {
    !word.is_empty()
        && word.len() <= 64
        && word.as_bytes()[0].is_ascii_alphanumeric()
        && !word.ends_with(':')
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b':'))
}

/// A syslog tag (`sshd`, `systemd-logind`, `postfix/smtpd`, `kernel`): the program's name.
fn tag_name(word: &str) -> bool {
    !word.is_empty()
        && word.len() <= 48
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_' | b'/' | b'@'))
}

/// `tag[pid]:` or `tag:` at the start of `s`: the tag and the message after it.
fn syslog_tag(s: &str) -> Option<(&str, &str)> {
    let (word, rest) = split_word(s);
    let word = word.strip_suffix(':')?;
    let tag = match word.strip_suffix(']') {
        Some(inner) => {
            let open = inner.rfind('[')?;
            let (pid, _) = split_digits(&inner[open + 1..]);
            if pid.len() + open + 1 != inner.len() || pid.is_empty() {
                return None;
            }
            &inner[..open]
        }
        None => word,
    };
    tag_name(tag).then_some((tag, rest))
}

/// `host tag[pid]: msg` after a syslog or journald timestamp.
fn syslog_line(rest: &str) -> Option<Entry<'_>> {
    let (host, after_host) = split_word(skip_spaces(rest));
    if !host_name(host) || super::log_levels::level_index(host).is_some() {
        return None;
    }
    let (tag, message) = syslog_tag(after_host)?;
    Some(Entry {
        grammar: Grammar::Syslog,
        host: Some(host),
        source: Some(tag),
        level: None,
        message: skip_spaces(message),
    })
}

/// A field of RFC 5424's header: `None` for its nil value `-`.
fn field(word: &str) -> Option<&str> {
    (word != "-" && !word.is_empty()).then_some(word)
}

/// Past RFC 5424's structured data: `-` or `[id k="v" ...]` elements, quoted values escaping
/// `\]` and `\"`.
fn skip_structured_data(s: &str) -> Option<&str> {
    if let Some(rest) = s.strip_prefix('-') {
        return Some(rest);
    }
    let bytes = s.as_bytes();
    let mut at = 0;
    while bytes.get(at) == Some(&b'[') {
        let mut quoted = false;
        at += 1;
        loop {
            match *bytes.get(at)? {
                b'\\' if quoted => at += 1,
                b'"' => quoted = !quoted,
                b']' if !quoted => break,
                _ => {}
            }
            at += 1;
        }
        at += 1;
    }
    (at > 0).then(|| &s[at..])
}

/// RFC 5424 after `<PRI>1 ` and the timestamp: `host app procid msgid sd msg`.
pub(crate) fn rfc5424(rest: &str) -> Option<Entry<'_>> {
    let (host, rest) = split_word(skip_spaces(rest));
    let (app, rest) = split_word(rest);
    let (_procid, rest) = split_word(rest);
    let (_msgid, rest) = split_word(rest);
    let message = skip_structured_data(rest)?;
    let message = skip_spaces(message).trim_start_matches('\u{feff}');
    Some(Entry {
        grammar: Grammar::Rfc5424,
        host: field(host),
        source: field(app),
        level: None,
        message,
    })
}

/// RFC 3164 after `<PRI>` and the timestamp: `host tag[pid]: msg` (the tag without a host when
/// a local sender leaves it out).
pub(crate) fn rfc3164(rest: &str) -> Option<Entry<'_>> {
    syslog_line(rest).or_else(|| {
        let (tag, message) = syslog_tag(skip_spaces(rest))?;
        Some(Entry {
            grammar: Grammar::Syslog,
            host: None,
            source: Some(tag),
            level: None,
            message: skip_spaces(message),
        })
    })
}

/// logcat's `threadtime` after its timestamp: `  pid   tid L Tag     : msg`.
fn logcat_threadtime(rest: &str) -> Option<Entry<'_>> {
    let (pid, rest) = split_digits(skip_spaces(rest));
    let (tid, rest) = split_digits(rest.strip_prefix(' ')?.trim_start_matches(' '));
    if pid.is_empty() || tid.is_empty() {
        return None;
    }
    let rest = rest.strip_prefix(' ')?;
    let level = logcat_level(*rest.as_bytes().first()?)?;
    let rest = rest.get(1..)?.strip_prefix(' ')?;
    let colon = rest
        .find(": ")
        .or_else(|| rest.ends_with(':').then(|| rest.len() - 1))?;
    let tag = rest[..colon].trim_end();
    if tag.is_empty() || tag.len() > 64 {
        return None;
    }
    Some(Entry {
        grammar: Grammar::Logcat,
        host: None,
        source: Some(tag),
        level: Some(level),
        message: rest[colon + 1..].trim_start(),
    })
}

/// logcat's `brief` (and, after a timestamp, `time`) lines: `E/Tag( 1234): msg`, and `tag`
/// lines: `E/Tag: msg`.
pub(crate) fn logcat_brief(line: &str) -> Option<Entry<'_>> {
    let bytes = line.as_bytes();
    let level = logcat_level(*bytes.first()?)?;
    if bytes.get(1) != Some(&b'/') {
        return None;
    }
    let rest = &line[2..];
    let (tag, message) = match rest
        .find("): ")
        .or_else(|| rest.strip_suffix("):").map(str::len))
    {
        Some(close) => {
            let open = rest[..close].rfind('(')?;
            let (pid, after) = split_digits(skip_spaces(&rest[open + 1..close]));
            if pid.is_empty() || !after.is_empty() {
                return None;
            }
            (&rest[..open], rest.get(close + 3..).unwrap_or(""))
        }
        None => {
            let colon = rest.find(": ")?;
            (&rest[..colon], &rest[colon + 2..])
        }
    };
    let tag = tag.trim_end();
    if tag.is_empty() || tag.len() > 64 || tag.contains(['/', '(']) {
        return None;
    }
    Some(Entry {
        grammar: Grammar::Logcat,
        host: None,
        source: Some(tag),
        level: Some(level),
        message,
    })
}

/// `file.go:42` (or a path to it): the file's name, when `word` is a source position.
fn source_position(word: &str) -> Option<&str> {
    let (path, line) = word.rsplit_once(':')?;
    if line.is_empty() || !line.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let file = path.rsplit('/').next()?;
    let (stem, extension) = file.rsplit_once('.')?;
    let ok = !stem.is_empty()
        && (1..=5).contains(&extension.len())
        && extension.bytes().all(|b| b.is_ascii_alphanumeric())
        && file
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    ok.then_some(file)
}

/// klog after its `Lmmdd hh:mm:ss.uuuuuu` header: `   123 file.go:42] msg`.
pub(crate) fn klog(rest: &str) -> Option<Entry<'_>> {
    let (thread, rest) = split_digits(skip_spaces(rest));
    if thread.is_empty() {
        return None;
    }
    let (position, message) = split_word(rest.strip_prefix(' ')?);
    let file = source_position(position.strip_suffix(']')?)?;
    Some(Entry {
        grammar: Grammar::Klog,
        host: None,
        source: Some(file),
        level: None,
        message,
    })
}

/// Go's `log` with `Lshortfile` or `Llongfile` after its date and time: `main.go:12: msg`.
fn go_log(rest: &str) -> Option<Entry<'_>> {
    let (position, message) = split_word(skip_spaces(rest));
    let file = source_position(position.strip_suffix(':')?)?;
    Some(Entry {
        grammar: Grammar::GoLog,
        host: None,
        source: Some(file),
        level: None,
        message,
    })
}

/// Apache 2.4's error log after its `[Wed Oct 11 14:32:52.123456 2000]`: `[module:level]`, then
/// `[pid N:tid M]`, `[client a:p]` and the message (2.2's `[level]` has no module).
fn apache_error(rest: &str) -> Option<Entry<'_>> {
    let rest = skip_spaces(rest);
    let inner = rest.strip_prefix('[')?;
    let close = inner.find(']')?;
    let (module, level) = match inner[..close].split_once(':') {
        Some((module, level)) => (Some(module), level),
        None => (None, &inner[..close]),
    };
    let level = super::log_levels::level_index(level)?;
    if module.is_some_and(|m| !tag_name(m)) {
        return None;
    }
    let after = skip_spaces(&inner[close + 1..]);
    if module.is_none() {
        if let Some(entry) = nginx_error(after) {
            return Some(entry);
        }
        // Apache 2.2's `[level]` is followed by its `[client ...]` field.
        if !after.starts_with('[') {
            return None;
        }
    }
    let mut message = after;
    // The `[pid ...]` and `[client ...]` fields before the message.
    while let Some(field) = message.strip_prefix('[') {
        let Some(end) = field.find(']') else { break };
        let name = &field[..end];
        if !(name.starts_with("pid ") || name.starts_with("client ") || name.starts_with("remote "))
        {
            break;
        }
        message = skip_spaces(&field[end + 1..]);
    }
    Some(Entry {
        grammar: Grammar::ApacheError,
        host: None,
        source: module,
        level: Some(level),
        message,
    })
}

/// nginx's error log after `yyyy/mm/dd hh:mm:ss [level] `: `pid#tid: *cid msg`.
fn nginx_error(rest: &str) -> Option<Entry<'_>> {
    let (pid, rest) = split_digits(rest);
    let (tid, rest) = split_digits(rest.strip_prefix('#')?);
    if pid.is_empty() || tid.is_empty() {
        return None;
    }
    let mut message = skip_spaces(rest.strip_prefix(':')?);
    if let Some(connection) = message.strip_prefix('*') {
        let (id, after) = split_digits(connection);
        if !id.is_empty() {
            message = skip_spaces(after);
        }
    }
    Some(Entry {
        grammar: Grammar::NginxError,
        host: None,
        source: None,
        level: None,
        message,
    })
}

/// The grammar of what follows a line's leading timestamp, if one holds.
pub(crate) fn after_timestamp(rest: &str) -> Option<Entry<'_>> {
    let first = *skip_spaces(rest).as_bytes().first()?;
    match first {
        b'0'..=b'9' => logcat_threadtime(rest),
        b'[' => apache_error(rest),
        _ => logcat_brief(skip_spaces(rest))
            .or_else(|| go_log(rest))
            .or_else(|| syslog_line(rest)),
    }
}

/// Words that say something failed, matched case-insensitively in a message's first bytes.
const FAILURE_WORDS: [&[u8]; 10] = [
    b"fail",
    b"error",
    b"denied",
    b"refused",
    b"invalid",
    b"timed out",
    b"timeout",
    b"unable",
    b"cannot",
    b"panic",
];
/// Bytes of a message looked at for a failure word.
const FAILURE_BYTES: usize = 200;

/// Whether a message (of a line without a level) names a failure: a failure word opening one
/// of its words (`Failed`, `connection refused`, `authentication failure`). Only word starts are
/// compared, and only with the words their letter opens.
pub(crate) fn failure_word(message: &str) -> bool {
    use crate::python::swar::{bytes_below, LOW_BITS, WORD_BYTES};
    let head = &message.as_bytes()[..message.len().min(FAILURE_BYTES)];
    // Eight bytes a step: the ASCII letters (`| 0x20` folds the upper case onto the lower and
    // keeps every other byte out of `a..=z`), then the letters after a byte that is none.
    let mut previous_letter = 0;
    for (step, chunk) in head.chunks(WORD_BYTES).enumerate() {
        let mut bytes = [0u8; WORD_BYTES];
        bytes[..chunk.len()].copy_from_slice(chunk);
        let folded = u64::from_le_bytes(bytes) | (LOW_BITS * 0x20);
        let letters = bytes_below(folded, b'z' + 1) & !bytes_below(folded, b'a');
        let mut starts = letters & !((letters << 8) | previous_letter);
        while starts != 0 {
            let at = step * WORD_BYTES + (starts.trailing_zeros() / 8) as usize;
            starts &= starts - 1;
            if failure_word_at(&head[at..]) {
                return true;
            }
        }
        previous_letter = (letters >> 63) << 7;
    }
    false
}

/// Whether `rest` (a word start) opens with a failure word, in any case.
#[inline]
fn failure_word_at(rest: &[u8]) -> bool {
    let mut words = FAILURE_WORDS_BY_FIRST_BYTE[usize::from(rest[0])];
    while words != 0 {
        let word = FAILURE_WORDS[words.trailing_zeros() as usize];
        words &= words - 1;
        // The second byte first (`| 0x20` lowercases a letter and keeps a space): most words
        // that open like a failure word part from it there.
        if rest.len() >= word.len()
            && rest[1] | 0x20 == word[1]
            && rest[..word.len()].eq_ignore_ascii_case(word)
        {
            return true;
        }
    }
    false
}

/// For each byte, the failure words (bit `i` for `FAILURE_WORDS[i]`) it opens in either case.
const FAILURE_WORDS_BY_FIRST_BYTE: [u16; 256] = {
    let mut table = [0u16; 256];
    let mut i = 0;
    while i < FAILURE_WORDS.len() {
        let first = FAILURE_WORDS[i][0];
        table[first as usize] |= 1 << i;
        table[first.to_ascii_uppercase() as usize] |= 1 << i;
        i += 1;
    }
    table
};

/// A failure's group: its source and its first three words, words with digits as `#`
/// (`sshd: Failed password for`), and the line as quoted (`sshd: Failed password for x ...`).
pub(crate) fn failure_key(source: Option<&str>, message: &str) -> (String, String) {
    let mut key = String::new();
    if let Some(source) = source {
        key.push_str(source);
        key.push_str(": ");
    }
    let quoted = format!("{key}{message}");
    for (index, word) in message.split_whitespace().take(3).enumerate() {
        if index > 0 {
            key.push(' ');
        }
        if word.bytes().any(|b| b.is_ascii_digit()) {
            key.push('#');
        } else {
            key.push_str(&word[..super::text_helpers::floor_char_boundary(word, 40)]);
        }
    }
    (key, quoted)
}

/// journald's boot separator (`-- Boot 5b8c... --`) or older `-- Reboot --`.
pub(crate) fn boot_marker(line: &str) -> bool {
    (line.starts_with("-- Boot ") || line.starts_with("-- Reboot"))
        && line.trim_end().ends_with("--")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule `failure_word` implements, byte by byte: a failure word (any case) where a word
    /// starts (at the start, or after a byte that is no ASCII letter).
    fn failure_word_by_scan(message: &str) -> bool {
        let head = &message.as_bytes()[..message.len().min(FAILURE_BYTES)];
        (0..head.len()).any(|at| {
            (at == 0 || !head[at - 1].is_ascii_alphabetic())
                && FAILURE_WORDS.iter().any(|word| {
                    head[at..].len() >= word.len()
                        && head[at..at + word.len()].eq_ignore_ascii_case(word)
                })
        })
    }

    #[test]
    fn failure_words_are_found_at_word_starts_only() {
        for (message, found) in [
            ("Failed password for x", true),
            ("authentication FAILURE for x", true),
            ("connection timed out", true),
            ("xfailed", false),
            ("ok: no problem", false),
            ("9error", true),
            ("Δerror", true),
        ] {
            assert_eq!(failure_word(message), found, "{message}");
            assert_eq!(failure_word_by_scan(message), found, "{message}");
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 3000, ..Default::default() })]
        #[test]
        fn failure_word_agrees_with_the_byte_scan(
            message in "(fail|Error|DENIED|refus|invalid|timed out|timeout|unable|cannot|panic|x|é| |-|[a-z]){0,30}"
        ) {
            proptest::prop_assert_eq!(failure_word(&message), failure_word_by_scan(&message));
        }
    }

    #[test]
    fn syslog_lines_name_host_and_program() {
        let entry =
            after_timestamp(" mymachine su[230]: 'su root' failed for lonvick on /dev/pts/8")
                .expect("syslog");
        assert_eq!(entry.grammar, Grammar::Syslog);
        assert_eq!(entry.host, Some("mymachine"));
        assert_eq!(entry.source, Some("su"));
        assert_eq!(entry.message, "'su root' failed for lonvick on /dev/pts/8");
        let entry = after_timestamp(" web-2 postfix/smtpd: connect from unknown").unwrap();
        assert_eq!(entry.source, Some("postfix/smtpd"));
        let entry = rfc3164(" su: 'su root' failed").unwrap();
        assert_eq!((entry.host, entry.source), (None, Some("su")));
    }

    #[test]
    fn rfc5424_skips_structured_data() {
        let entry = rfc5424(
            r#"mymachine.example.com evntslog - ID47 [exampleSDID@32473 iut="3" eventID="1011" note="a \] b"][other@1 x="y"] An application event"#,
        )
        .expect("5424");
        assert_eq!(entry.host, Some("mymachine.example.com"));
        assert_eq!(entry.source, Some("evntslog"));
        assert_eq!(entry.message, "An application event");
        let entry = rfc5424("- - - - - \u{feff}'su root' failed").unwrap();
        assert_eq!((entry.host, entry.source), (None, None));
        assert_eq!(entry.message, "'su root' failed");
    }

    #[test]
    fn logcat_in_threadtime_brief_and_tag_forms() {
        let entry = after_timestamp("  1234  5678 E ActivityManager: ANR in com.example").unwrap();
        assert_eq!(entry.grammar, Grammar::Logcat);
        assert_eq!(entry.source, Some("ActivityManager"));
        assert_eq!(entry.level, Some(2));
        assert_eq!(entry.message, "ANR in com.example");
        let padded = after_timestamp("   901   901 I Zygote  : Preloading classes").unwrap();
        assert_eq!(padded.source, Some("Zygote"));
        let brief = logcat_brief("W/PackageManager(  612): Unknown permission x").unwrap();
        assert_eq!(brief.source, Some("PackageManager"));
        assert_eq!(brief.level, Some(3));
        assert_eq!(brief.message, "Unknown permission x");
        let tag = logcat_brief("D/OkHttp: --> GET https://x").unwrap();
        assert_eq!(tag.source, Some("OkHttp"));
        for line in ["E/ is not", "X/Tag( 1): x", "E/Tag(abc): x", "Error/Tag: x"] {
            assert_eq!(logcat_brief(line), None, "{line}");
        }
    }

    #[test]
    fn klog_go_log_and_apache_name_their_source() {
        let entry = klog("   123 reflector.go:42] failed to list").unwrap();
        assert_eq!(
            (entry.source, entry.message),
            (Some("reflector.go"), "failed to list")
        );
        let entry = after_timestamp(" main.go:12: listening on :8080").unwrap();
        assert_eq!(entry.grammar, Grammar::GoLog);
        assert_eq!(entry.source, Some("main.go"));
        let entry = after_timestamp(" /home/u/src/app/server.go:88: boom").unwrap();
        assert_eq!(entry.source, Some("server.go"));
        let entry = after_timestamp(
            " [core:error] [pid 1234:tid 5678] [client 1.2.3.4:5678] AH00126: Invalid URI in request",
        )
        .unwrap();
        assert_eq!(entry.grammar, Grammar::ApacheError);
        assert_eq!((entry.source, entry.level), (Some("core"), Some(2)));
        let module = after_timestamp(" [authz_core:warn] [pid 1:tid 2] AH01630: denied").unwrap();
        assert_eq!((module.source, module.level), (Some("authz_core"), Some(3)));
        assert_eq!(entry.message, "AH00126: Invalid URI in request");
        let old = after_timestamp(" [error] [client 127.0.0.1] client denied").unwrap();
        assert_eq!((old.source, old.message), (None, "client denied"));
        let nginx = after_timestamp(
            " [error] 123#0: *1 open() \"/x\" failed (2: No such file or directory), client: 1.2.3.4",
        )
        .unwrap();
        assert_eq!(nginx.grammar, Grammar::NginxError);
        assert!(nginx.message.starts_with("open()"), "{}", nginx.message);
    }

    #[test]
    fn failures_group_by_source_and_opening_words() {
        assert!(failure_word(
            "Failed password for root from 10.0.0.1 port 22 ssh2"
        ));
        assert!(failure_word("connection REFUSED by peer"));
        assert!(!failure_word("Accepted publickey for deploy"));
        assert!(failure_word(
            "pam_unix(sshd:auth): authentication failure; logname="
        ));
        // Inside a word is no failure word (`prefail`, `terror`).
        assert!(!failure_word("SMART prefail attribute ok, terror movie"));
        let (key, quoted) = failure_key(Some("sshd"), "Failed password for invalid user admin");
        assert_eq!(key, "sshd: Failed password for");
        assert_eq!(quoted, "sshd: Failed password for invalid user admin");
        assert_eq!(failure_key(None, "error 42 at x").0, "error # at");
        assert!(boot_marker("-- Boot 0f3c2a9e5d2b4c0e8f1a2b3c4d5e6f70 --"));
        assert!(boot_marker("-- Reboot --"));
        assert!(!boot_marker("-- a note --"));
    }

    fn enhanced(output: &str) -> crate::kinds::Synopsis {
        super::super::generate(output, "text/plain", 2_000)
    }

    #[test]
    fn a_syslog_file_names_its_format_hosts_programs_and_failures() {
        let mut log = String::new();
        for i in 0..30 {
            let (program, message) = match i % 5 {
                0 => (
                    "sshd[812]",
                    format!("Failed password for invalid user u{i} from 10.0.0.{i} port 22 ssh2"),
                ),
                1 => (
                    "CRON[90]",
                    "(root) CMD (run-parts /etc/cron.hourly)".to_string(),
                ),
                _ => (
                    "systemd[1]",
                    format!("Started session-{i}.scope - Session {i} of User deploy."),
                ),
            };
            log.push_str(&format!(
                "Oct 11 22:{i:02}:15 web-{} {program}: {message}\n",
                i % 2
            ));
        }
        log.push_str("-- Boot 0f3c2a9e5d2b4c0e8f1a2b3c4d5e6f70 --\n");
        log.push_str("Oct 11 23:00:00 web-0 kernel: Linux version 6.1.0\n");
        let synopsis = enhanced(&log);
        let shown = crate::test_support::synopsis_text(&synopsis);
        assert_eq!(synopsis.kind, "log", "{shown}");
        assert!(
            shown.contains("Format: syslog (RFC 3164) / journald short, 31 of 31 entries."),
            "{shown}"
        );
        assert!(
            shown.contains("Hosts (2 distinct): web-0 16, web-1 15."),
            "{shown}"
        );
        assert!(
            shown.contains("Programs (4 distinct): systemd 18, sshd 6, CRON 6, kernel 1."),
            "{shown}"
        );
        assert!(
            shown.contains("Boots: 1 journal boot markers (-- Boot ... --), at line 31."),
            "{shown}"
        );
        assert!(shown.contains("naming a failure (fail, error, denied, ...): 6; first: line 1: sshd: Failed password for invalid user u0"), "{shown}");
        assert!(
            shown.contains("6x sshd: Failed password for (first line 1)"),
            "{shown}"
        );
    }

    #[test]
    fn logcat_brief_is_a_log_and_prose_quoting_it_is_not() {
        let mut log = String::new();
        for i in 0..12 {
            let line = match i % 4 {
                0 => format!("E/AndroidRuntime( 4321): FATAL EXCEPTION: main {i}"),
                1 => format!("W/PackageManager(  612): Unknown permission p{i}"),
                _ => format!("I/ActivityManager(  612): Start proc {i}:com.example/u0a12"),
            };
            log.push_str(&line);
            log.push('\n');
        }
        let synopsis = enhanced(&log);
        let shown = crate::test_support::synopsis_text(&synopsis);
        assert_eq!(synopsis.kind, "log", "{shown}");
        assert!(
            shown.contains("Format: Android logcat, 12 of 12 entries."),
            "{shown}"
        );
        assert!(
            shown.contains(
                "Tags (3 distinct): ActivityManager 6, AndroidRuntime 3, PackageManager 3."
            ),
            "{shown}"
        );
        assert!(
            shown.contains("First ERROR: line 1: FATAL EXCEPTION: main 0"),
            "{shown}"
        );
        // Prose that mentions times and tags, a Markdown table of log fields, CSV rows.
        let prose = "On Oct 11 22:14:15 the host went down.\nWe looked at E/Tag and W/Other in the docs.\nThen at 10:00:01 it came back, and nobody knew why for a while.\nThe team wrote this note to remember it.\n";
        let table = "| time | host | program |\n|---|---|---|\n| Oct 11 22:14:15 | web-1 | sshd |\n| Oct 11 22:14:16 | web-2 | cron |\n| Oct 11 22:14:17 | web-3 | su |\n";
        let csv = "time,host,program,message\n2024-01-02T03:04:05Z,web-1,sshd,Failed password\n2024-01-02T03:04:06Z,web-2,cron,ran\n2024-01-02T03:04:07Z,web-1,su,denied\n";
        for output in [prose, table, csv] {
            let synopsis = enhanced(output);
            assert_ne!(synopsis.kind, "log", "{output}");
        }
    }

    #[test]
    fn other_lines_after_a_timestamp_hold_no_grammar() {
        for rest in [
            " ERROR 4127 --- [main] a.B : boom",
            " [main] ERROR c.e.Foo - msg",
            " - app - ERROR - failed",
            " INFO root: started",
            " [warn] disk",
            " user logged in",
            " 12 apples were sold: fine",
        ] {
            assert_eq!(after_timestamp(rest), None, "{rest}");
        }
    }
}
