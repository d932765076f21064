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
    // Every token of a line's first words is asked: only the level words that open with its
    // first letter (one table lookup) are compared.
    let bytes = word.as_bytes();
    let &first = bytes.first()?;
    let mut candidates = WORDS_BY_FIRST_LETTER[usize::from(first | 0x20)];
    while candidates != 0 {
        let (name, level) = LEVEL_WORDS[candidates.trailing_zeros() as usize];
        candidates &= candidates - 1;
        if name.len() == bytes.len() && bytes.eq_ignore_ascii_case(name.as_bytes()) {
            return Some(level);
        }
    }
    None
}

/// For each lowercase first letter, the level words (bit `i` for `LEVEL_WORDS[i]`) that open
/// with it. (`| 0x20` lowercases ASCII letters and maps no other byte onto one.)
const WORDS_BY_FIRST_LETTER: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < LEVEL_WORDS.len() {
        table[LEVEL_WORDS[i].0.as_bytes()[0] as usize] |= 1 << i;
        i += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule without the prefilter: a case-insensitive match against the level words.
    fn level_word_by_scan(word: &str) -> Option<usize> {
        LEVEL_WORDS
            .iter()
            .find(|(name, _)| word.eq_ignore_ascii_case(name))
            .map(|&(_, level)| level)
    }

    #[test]
    fn the_prefilter_keeps_every_level_word_in_any_case() {
        for (name, level) in LEVEL_WORDS {
            for word in [
                name.to_string(),
                name.to_ascii_uppercase(),
                format!("{}{}", name[..1].to_ascii_uppercase(), &name[1..]),
            ] {
                assert_eq!(level_word(&word), Some(level), "{word}");
            }
        }
        assert_eq!(level_word(""), None);
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 3000, ..Default::default() })]
        #[test]
        fn level_word_agrees_with_the_scan(word in "[a-zA-Z\\[\\]@`{_:é0-9]{0,13}") {
            proptest::prop_assert_eq!(level_word(&word), level_word_by_scan(&word));
        }
    }
}
