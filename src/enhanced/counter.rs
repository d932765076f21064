//! Counts of text values in first-seen order, with a cap on how many distinct values are kept
//! (past it, new values are only counted as `other`): bounded memory on any output. The one
//! counter of the command-output analyzers (each map type is its own code in the wasm module).

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::text_helpers::bounded_one_line;
use crate::fx_hasher::FxHasher;

#[derive(Default)]
pub struct Counter {
    /// The kept values with their counts, in first-seen order.
    pub values: Vec<(String, usize)>,
    /// Every value of a log's lines is looked up (hosts, programs): FxHash, not SipHash. Nothing
    /// is read in the map's order.
    index: HashMap<String, usize, BuildHasherDefault<FxHasher>>,
    /// How many times a value past the cap was seen.
    pub other: usize,
}

impl Counter {
    #[inline(never)]
    pub fn add(&mut self, value: &str, cap: usize) {
        if let Some(&at) = self.index.get(value) {
            self.values[at].1 += 1;
        } else if self.values.len() < cap {
            self.index.insert(value.to_string(), self.values.len());
            self.values.push((value.to_string(), 1));
        } else {
            self.other += 1;
        }
    }

    /// `value count` for the `shown` most frequent values (ties in first-seen order), each value
    /// cut to `width` chars, and how many counts the values not shown hold (`other` included).
    pub fn top(&self, shown: usize, width: i64) -> (Vec<String>, usize) {
        let mut ranked: Vec<&(String, usize)> = self.values.iter().collect();
        ranked.sort_by_key(|entry| std::cmp::Reverse(entry.1));
        let parts = ranked
            .iter()
            .take(shown)
            .map(|(value, count)| format!("{} {count}", bounded_one_line(value, width)))
            .collect();
        let rest = ranked
            .iter()
            .skip(shown)
            .map(|(_, count)| count)
            .sum::<usize>()
            + self.other;
        (parts, rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_in_first_seen_order_up_to_the_cap_then_as_other() {
        let mut counter = Counter::default();
        for value in ["b", "a", "b", "c", "d", "c", "b"] {
            counter.add(value, 3);
        }
        assert_eq!(
            counter.values,
            [
                ("b".to_string(), 3),
                ("a".to_string(), 1),
                ("c".to_string(), 2)
            ]
        );
        assert_eq!(counter.other, 1);
        // Most frequent first, ties in first-seen order; the rest counts what is not shown.
        assert_eq!(
            counter.top(2, 40),
            (vec!["b 3".to_string(), "c 2".to_string()], 2)
        );
    }
}
