//! Bindings of the catalog stored in pages (`tool_stub::catalog::pages`). Each call answers its
//! result as JSON, or `{"need": [page names]}`: the host loads those pages and calls again with
//! them in `pages_json` (`{name: page text}`).

use wasm_bindgen::prelude::*;

use super::{emit, parse, to_js, BindingResult};
use tool_stub::catalog::pages::{self, Index, Pages, Query, ToJson};
use tool_stub::turn;

fn index(text: &str) -> BindingResult<Index> {
    Index::parse(text).map_err(to_js)
}

/// The catalog's totals, `{results, chars, bytes}`, from its index alone.
#[wasm_bindgen(js_name = catalogTotals)]
pub fn catalog_totals(index_text: &str) -> BindingResult<String> {
    emit(&index(index_text)?.totals.to_json())
}

/// A window of entries (`pages::Query` as JSON): `{totalResults, offset, hasMore, entries}`.
#[wasm_bindgen(js_name = catalogSelect)]
pub fn catalog_select(
    index_text: &str,
    pages_json: &str,
    query_json: &str,
) -> BindingResult<String> {
    let pages: Pages = parse("catalog pages", pages_json)?;
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
    index_text: &str,
    pages_json: &str,
    config_json: &str,
    now_ms: f64,
    protected_json: &str,
) -> BindingResult<String> {
    let pages: Pages = parse("catalog pages", pages_json)?;
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
    index_text: &str,
    generation: &str,
    pages_json: &str,
    added_json: &str,
    removed_json: &str,
) -> BindingResult<String> {
    let current = if index_text.is_empty() {
        None
    } else {
        Some(index(index_text)?)
    };
    let pages: Pages = parse("catalog pages", pages_json)?;
    let added: Vec<serde_json::Map<String, serde_json::Value>> = parse("entries", added_json)?;
    let removed: Vec<String> = parse("removed ids", removed_json)?;
    emit(
        &pages::apply(current, generation, &pages, added, &removed)
            .map_err(to_js)?
            .to_json(),
    )
}
