//! Log levels, shared by the log analyzer and its format grammars: the canonical names, most
//! severe first, and the words logs write them with.

/// Levels, most severe first; a line's level is one of these canonical names.
pub(super) const LEVELS: [&str; 8] = [
    "FATAL", "CRITICAL", "ERROR", "WARN", "NOTICE", "INFO", "DEBUG", "TRACE",
];
pub(super) const FATAL: usize = 0;
pub(super) const CRITICAL: usize = 1;
pub(super) const ERROR: usize = 2;
pub(super) const WARN: usize = 3;
pub(super) const INFO: usize = 5;

/// Level words as written in logs (lowercased) and their index in `LEVELS`.
const LEVEL_WORDS: [(&str, usize); 17] = [
    ("fatal", FATAL),
    ("panic", FATAL),
    ("emerg", FATAL),
    ("alert", FATAL),
    ("critical", CRITICAL),
    ("crit", CRITICAL),
    ("error", ERROR),
    ("err", ERROR),
    ("severe", ERROR),
    ("warn", WARN),
    ("warning", WARN),
    ("notice", 4),
    ("info", 5),
    ("information", 5),
    ("debug", 6),
    ("trace", 7),
    ("verbose", 7),
];

/// The level `word` names (`error`, `WARN`, `crit`, ...), as an index into `LEVELS`.
pub(super) fn level_index(word: &str) -> Option<usize> {
    level_word(word)
}

#[inline(never)]
pub(super) fn level_word(word: &str) -> Option<usize> {
    if word.len() > 11 {
        return None;
    }
    LEVEL_WORDS
        .iter()
        .find(|(name, _)| word.eq_ignore_ascii_case(name))
        .map(|&(_, level)| level)
}
