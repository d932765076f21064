//! The catalog's pages already parsed, kept between a host's calls, so that a warm call does not
//! parse again (~1 ms a page of 200 entries) the pages it read before.
//!
//! Why a kept page is never stale: a page is never rewritten under its name (see [`super::pages`]:
//! a change writes new names, then the index), so a name means one text for as long as the catalog
//! that named it exists, and a catalog made anew (rebuilt, removed and started again) takes a new
//! random generation, which every page name begins with. The one text under a name that was never
//! committed, a page written before its index failed to save, is never handed in: the host keeps
//! what it wrote only once the index naming it is saved.
//!
//! Kept per owner, one per session catalog object of the host, not per name alone: two copies of
//! a session (a folder copied, say) share the names of their past and may each write a different
//! page under the next name. Bounded: past [`KEPT_PAGES`] pages (of every owner) the page kept
//! longest goes; an owner that is gone leaves its pages to go that way.

use super::pages::{read_page, PageEntries, Pages};
use crate::error::Result;

/// Pages kept at most, of every owner: ~64 x 200 entries.
pub const KEPT_PAGES: usize = 64;

// A list, not a map: a few dozen pages, and no more generic collection code in the wasm module.
#[derive(Debug, Default)]
pub struct PageCache {
    /// Owner, name, entries; the longest kept first.
    kept: Vec<(u32, String, PageEntries)>,
    next_owner: u32,
}

impl PageCache {
    pub const fn new() -> Self {
        PageCache {
            kept: Vec::new(),
            next_owner: 0,
        }
    }

    /// A new owner's number: what it keeps is its own.
    pub fn owner(&mut self) -> u32 {
        self.next_owner = self.next_owner.wrapping_add(1);
        // A number handed out before it wrapped may still be in use: its pages go first.
        self.forget(self.next_owner);
        self.next_owner
    }

    /// The pages `owner` keeps, with those handed in (`[name, text]` pairs) read and kept.
    /// A handed page that does not read fails the call; the pages read before it stay kept.
    pub fn pages(&mut self, owner: u32, handed: &[(String, String)]) -> Result<Pages> {
        let mut pages: Pages = self
            .kept
            .iter()
            .filter(|(of, _, _)| *of == owner)
            .map(|(_, name, entries)| (name.clone(), entries.clone()))
            .collect();
        for (name, text) in handed {
            if pages.contains_key(name) {
                continue;
            }
            let entries = read_page(name, text)?;
            self.keep(owner, name, entries.clone());
            // Beside what is kept: a call needing more than KEPT_PAGES pages still gets them all.
            pages.insert(name.clone(), entries);
        }
        Ok(pages)
    }

    /// Keeps a page `pages` found missing (so not kept yet for this owner).
    fn keep(&mut self, owner: u32, name: &str, entries: PageEntries) {
        if self.kept.len() >= KEPT_PAGES {
            self.kept.remove(0);
        }
        self.kept.push((owner, name.to_string(), entries));
    }

    /// Drops what `owner` keeps.
    pub fn forget(&mut self, owner: u32) {
        self.kept.retain(|(of, _, _)| *of != owner);
    }

    /// Pages kept, of every owner.
    pub fn len(&self) -> usize {
        self.kept.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    fn page(ids: &[&str]) -> String {
        let entries: Vec<String> = ids
            .iter()
            .map(|id| format!(r#"{{"toolResultId":"{id}","toolName":"t"}}"#))
            .collect();
        format!("[{}]", entries.join(","))
    }

    fn handed(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(name, text)| (name.to_string(), text.to_string()))
            .collect()
    }

    #[test]
    fn a_page_read_once_is_not_read_again_by_its_owner() {
        let mut cache = PageCache::new();
        let owner = cache.owner();
        let text = page(&["tr_a", "tr_b"]);
        let first = cache
            .pages(owner, &handed(&[("g-0", &text)]))
            .expect("reads");
        assert_eq!(first["g-0"].len(), 2);
        // Kept: the next call gets the same parsed page without handing it in.
        let again = cache.pages(owner, &[]).expect("kept");
        assert!(Rc::ptr_eq(&first["g-0"], &again["g-0"]));
        // Handed in again (as a host keeps doing within one call), it is not parsed again.
        let handed_again = cache
            .pages(owner, &handed(&[("g-0", "not json")]))
            .expect("kept");
        assert!(Rc::ptr_eq(&first["g-0"], &handed_again["g-0"]));
    }

    #[test]
    fn owners_do_not_share_pages_under_one_name() {
        let mut cache = PageCache::new();
        let (one, two) = (cache.owner(), cache.owner());
        assert_ne!(one, two);
        cache
            .pages(one, &handed(&[("g-7", &page(&["tr_a"]))]))
            .expect("reads");
        assert!(cache.pages(two, &[]).expect("nothing").is_empty());
        let other = cache
            .pages(two, &handed(&[("g-7", &page(&["tr_b", "tr_c"]))]))
            .expect("reads");
        assert_eq!(other["g-7"].len(), 2);
        assert_eq!(cache.pages(one, &[]).expect("kept")["g-7"].len(), 1);
        cache.forget(one);
        assert!(cache.pages(one, &[]).expect("nothing").is_empty());
        assert_eq!(cache.len(), 1);
    }

    #[test]
    fn bounded_the_longest_kept_goes_first_yet_a_call_gets_every_page_it_was_handed() {
        let mut cache = PageCache::new();
        let owner = cache.owner();
        let text = page(&["tr_a"]);
        let names: Vec<String> = (0..KEPT_PAGES + 10).map(|n| format!("g-{n}")).collect();
        let many: Vec<(String, String)> = names
            .iter()
            .map(|name| (name.clone(), text.clone()))
            .collect();
        let pages = cache.pages(owner, &many).expect("reads");
        assert_eq!(pages.len(), KEPT_PAGES + 10, "this call has them all");
        assert_eq!(cache.len(), KEPT_PAGES);
        let kept = cache.pages(owner, &[]).expect("kept");
        assert!(!kept.contains_key("g-0") && !kept.contains_key("g-9"));
        assert!(kept.contains_key("g-10") && kept.contains_key(&names[KEPT_PAGES + 9]));
    }

    #[test]
    fn a_page_that_does_not_read_fails_the_call_and_is_not_kept() {
        let mut cache = PageCache::new();
        let owner = cache.owner();
        let error = cache
            .pages(owner, &handed(&[("g-1", "{\"not\": \"a list\"}")]))
            .expect_err("does not read");
        assert_eq!(error.message, "catalog page g-1 does not read");
        assert!(cache.is_empty());
    }
}
