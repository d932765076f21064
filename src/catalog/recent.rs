//! The catalog's newest entries, in a page of their own (the index's `recent`: its name and
//! count), so that `list` newest first reads one page where it read every page: ids (a tool call's
//! id and a hash) say nothing of when a result was stored, so the newest are spread over every
//! page in id order.
//!
//! What holds: the page lists up to [`RECENT_ENTRIES`] entries newest first (the order `select`
//! gives: later `createdAtMs` first, a date that does not read last, ties in id order), and every
//! entry of the catalog not in it comes after all of them in that order. A change keeps that
//! without reading other pages: an entry added goes in when it comes before the page's last
//! entry (or when the page holds the whole catalog), removed ones leave. When removals leave it
//! under half full while the catalog holds more, and for an index written before this page
//! existed, a change reads every page once to make it anew.

use std::cmp::Ordering;

use serde_json::Value;

use super::pages::{object, Entry, Index, Pages, Step, ToJson};
use crate::json_fields;
use crate::python::stable_sort_by;

/// Entries the newest page holds at most: two `list` windows of the default 50.
pub const RECENT_ENTRIES: usize = 100;

#[derive(Debug, Clone, PartialEq)]
pub struct Recent {
    pub name: String,
    pub count: u64,
}
json_fields::required_struct!(Recent, { name: "name", count: "count" });

impl ToJson for Recent {
    fn to_json(&self) -> Value {
        object(vec![
            ("name", Value::from(self.name.as_str())),
            ("count", Value::from(self.count)),
        ])
    }
}

fn id_of(entry: &Entry) -> &str {
    entry
        .get("toolResultId")
        .and_then(Value::as_str)
        .unwrap_or("")
}

fn created(entry: &Entry) -> f64 {
    entry
        .get("createdAtMs")
        .and_then(Value::as_f64)
        .filter(|n| n.is_finite())
        .unwrap_or(f64::NEG_INFINITY)
}

/// Newest first: later `createdAtMs` first, a date that does not read last, ties in id order.
pub fn newest_first(a: &Entry, b: &Entry) -> Ordering {
    created(b)
        .total_cmp(&created(a))
        .then_with(|| id_of(a).cmp(id_of(b)))
}

/// The pages a change reads first for the newest page: it, or every page of an index written
/// before it existed.
pub(super) fn first_needs(index: &Index) -> Vec<String> {
    if index.recent.is_none() {
        index.pages.iter().map(|page| page.name.clone()).collect()
    } else {
        index
            .recent
            .iter()
            .map(|recent| recent.name.clone())
            .collect()
    }
}

/// The newest page after a change: `None` when it is unchanged, else its entries (empty: no
/// page). `results_after`: the catalog's results after the change.
pub(super) fn after_change(
    index: &Index,
    pages: &Pages,
    added: &[Entry],
    removed: &[String],
    results_after: u64,
) -> Step<Option<Vec<Entry>>> {
    let from_all = index.recent.is_none() && !index.pages.is_empty();
    match changed(index, pages, added, removed, from_all) {
        // Left under half full while the catalog holds more: made anew from every page.
        Step::Done(Some(entries))
            if !from_all
                && entries.len() < RECENT_ENTRIES / 2
                && (entries.len() as u64) < results_after =>
        {
            changed(index, pages, added, removed, true)
        }
        step => step,
    }
}

fn changed(
    index: &Index,
    pages: &Pages,
    added: &[Entry],
    removed: &[String],
    from_all: bool,
) -> Step<Option<Vec<Entry>>> {
    let wanted: Vec<&str> = if from_all {
        index.pages.iter().map(|page| page.name.as_str()).collect()
    } else {
        index
            .recent
            .iter()
            .map(|recent| recent.name.as_str())
            .collect()
    };
    let need: Vec<String> = wanted
        .iter()
        .filter(|name| !pages.contains_key(**name))
        .map(|name| name.to_string())
        .collect();
    if !need.is_empty() {
        return Step::Need { need };
    }
    let mut before: Vec<&Entry> = wanted.iter().flat_map(|name| pages[*name].iter()).collect();
    if from_all {
        stable_sort_by(&mut before, |a, b| newest_first(a, b));
    }
    // Complete: it holds every entry of the catalog, so any entry added belongs in it.
    let complete = from_all || index.recent.as_ref().map_or(0, |r| r.count) == index.totals.results;
    let mut leaving: Vec<&str> = removed
        .iter()
        .map(String::as_str)
        .chain(added.iter().map(id_of))
        .collect();
    leaving.sort_unstable();
    let mut after: Vec<&Entry> = before
        .iter()
        .filter(|entry| leaving.binary_search(&id_of(entry)).is_err())
        .copied()
        .collect();
    let mut touched = after.len() != before.len();
    // Every entry outside the page comes after its last: an entry added before that goes in.
    let last = after.last().copied();
    for entry in added {
        let comes_before = last.is_some_and(|last| newest_first(entry, last) == Ordering::Less);
        if complete || comes_before {
            after.push(entry);
            touched = true;
        }
    }
    if !touched && !from_all {
        return Step::Done(None);
    }
    stable_sort_by(&mut after, |a, b| newest_first(a, b));
    after.truncate(RECENT_ENTRIES);
    Step::Done(Some(after.into_iter().cloned().collect()))
}
