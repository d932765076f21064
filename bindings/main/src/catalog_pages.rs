//! Bindings of the catalog stored in pages (`tool_stub::catalog::pages`). Each call answers its
//! result as JSON, or `{"need": [page names]}`: the host loads those pages and calls again with
//! them in `pages` (`[name, text, name, text, ...]`: texts cross as they are, not escaped in JSON).
//! Each call takes its caller's owner number (`catalogCacheOwner`): the pages an owner was
//! handed stay parsed in the core (`tool_stub::catalog::page_cache`), so a warm call neither
//! hands nor parses them again.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;

use super::{emit, parse, to_js, BindingResult};
use tool_stub::catalog::page_cache::PageCache;
use tool_stub::catalog::pages::{self, Index, Pages, Query, ToJson};
use tool_stub::turn;

thread_local! {
    /// Parsed pages by owner (a session catalog object of the host), bounded.
    static PAGE_CACHE: RefCell<PageCache> = const { RefCell::new(PageCache::new()) };
}

fn index(text: &str) -> BindingResult<Index> {
    Index::parse(text).map_err(to_js)
}

/// The pages `owner` keeps parsed, with the pages handed in (`[name, text, ...]`) read and kept.
fn pages_of(owner: u32, handed: Vec<String>) -> BindingResult<Pages> {
    let mut pairs = Vec::with_capacity(handed.len() / 2);
    let mut items = handed.into_iter();
    while let (Some(name), Some(text)) = (items.next(), items.next()) {
        pairs.push((name, text));
    }
    PAGE_CACHE.with_borrow_mut(|cache| cache.pages(owner, &pairs).map_err(to_js))
}

/// A new owner's number for the calls below: the pages it is handed stay parsed for it alone.
#[wasm_bindgen(js_name = catalogCacheOwner)]
pub fn catalog_cache_owner() -> u32 {
    PAGE_CACHE.with_borrow_mut(PageCache::owner)
}

/// The catalog's totals, `{results, chars, bytes}`, from its index alone.
#[wasm_bindgen(js_name = catalogTotals)]
pub fn catalog_totals(index_text: &str) -> BindingResult<String> {
    emit(&index(index_text)?.totals.to_json())
}

/// A window of entries (`pages::Query` as JSON): `{totalResults, offset, hasMore, entries}`.
#[wasm_bindgen(js_name = catalogSelect)]
pub fn catalog_select(
    owner: u32,
    index_text: &str,
    pages: Vec<String>,
    query_json: &str,
) -> BindingResult<String> {
    let pages = pages_of(owner, pages)?;
    let query: Query = parse("catalog query", query_json)?;
    emit(
        &pages::select(&index(index_text)?, &pages, &query)
            .map_err(to_js)?
            .to_json(),
    )
}

/// The ids retention deletes under the config's policy at `now_ms`, never a protected one.
#[wasm_bindgen(js_name = catalogPrune)]
pub fn catalog_prune(
    owner: u32,
    index_text: &str,
    pages: Vec<String>,
    config_json: &str,
    now_ms: f64,
    protected_json: &str,
) -> BindingResult<String> {
    let pages = pages_of(owner, pages)?;
    let config: turn::TurnConfig = parse("config", config_json)?;
    let protected: Vec<String> = parse("protected ids", protected_json)?;
    let planned = pages::plan_prune(
        &index(index_text)?,
        &pages,
        &config.retention(),
        now_ms,
        &protected,
    );
    emit(&planned.map_err(to_js)?.to_json())
}

/// A change (entries added or replaced, ids removed) as `{index, write, remove}`: the pages to
/// write, then the index, then the pages to remove. `index_text` "" starts a catalog of
/// `generation`.
#[wasm_bindgen(js_name = catalogApply)]
pub fn catalog_apply(
    owner: u32,
    index_text: &str,
    generation: &str,
    pages: Vec<String>,
    added_json: &str,
    removed_json: &str,
) -> BindingResult<String> {
    let current = if index_text.is_empty() {
        None
    } else {
        Some(index(index_text)?)
    };
    let pages = pages_of(owner, pages)?;
    let added: Vec<serde_json::Map<String, serde_json::Value>> = parse("entries", added_json)?;
    let removed: Vec<String> = parse("removed ids", removed_json)?;
    emit(
        &pages::apply(current, generation, &pages, added, &removed)
            .map_err(to_js)?
            .to_json(),
    )
}
