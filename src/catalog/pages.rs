//! The catalog stored in pages, so that a new `ToolStub`'s first call reads what it acts on, not
//! what the session holds.
//!
//! Layout (the host does the I/O; the names are exported to JavaScript, js/core-constants.js):
//! - the index, `[session, "tool-stub", "catalog-index"]`: a small record,
//!   `{"format", "version", "generation", "next", "totals": {"results", "chars", "bytes"},
//!   "pages": [{"name", "first", "count", "chars", "bytes", "oldest", "tools"}]}`, the pages in id
//!   order, each with its first id (a page holds the ids from its `first` up to the next page's),
//!   its sums, the oldest freshness of its results (`null`: one has no readable date, which
//!   retention counts as oldest) and the tool names it holds (`null`: more than
//!   [`MAX_PAGE_TOOLS`]);
//! - pages, `[session, "tool-stub", "catalog-pages", "<generation>-<n>"]`: a JSON array of up
//!   to [`PAGE_ENTRIES`] entries in id order.
//!
//! Why: `list` in id order reads the index and the one or two pages its window falls in; a tool
//! name filter reads the pages that name the tool; `usage` the index alone; retention the pages
//! holding the oldest results, only when the index says the policy is exceeded; a change the
//! pages of the ids it adds or removes. Pages are never written in place: a changed page is
//! written under a new name, then the index, which is the commit, then the old page goes. A
//! reader holding an index finds the pages it names, or (when a writer removed one since) reads
//! the index again; a host may keep the pages it read by name, as a name always means the same text.
//!
//! Every call here answers either what was asked or `{"need": [page names]}`: the pages it must
//! be given (in `pages`, a map of name to the page's entries, [`read_page`]) before it can
//! answer. The host loads those and calls again. A page read once need not be parsed again: its
//! name always means the same text ([`super::page_cache`] keeps them).

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode, Result};
use crate::json_fields;
use crate::python::stable_sort_by;
use crate::retention::{RetentionOrder, RetentionPolicy, StoredResult};

use super::recent::{self, newest_first, Recent};

/// The catalog's index (the head of its pages).
pub const INDEX_FILE: &str = "catalog-index";
/// The folder of the catalog's pages.
pub const PAGES_DIR: &str = "catalog-pages";
/// Most entries a page holds; a page past it is split. ~400 chars of JSON an entry: a page is
/// ~80 KB, read and parsed in about a millisecond.
pub const PAGE_ENTRIES: usize = 200;
/// Most tool names a page's index line lists; a page with more lists none (`null`: any).
pub const MAX_PAGE_TOOLS: usize = 8;

const INDEX_FORMAT: &str = "tool-stub-catalog-index";
const INDEX_VERSION: u64 = 1;

pub(super) type Entry = Map<String, Value>;

#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Totals {
    pub results: u64,
    pub chars: u64,
    pub bytes: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PageInfo {
    pub name: String,
    pub first: String,
    pub count: u64,
    pub chars: u64,
    pub bytes: u64,
    /// The oldest freshness (creation or last reuse, ms) of its results; `None` when one has
    /// no readable date.
    pub oldest: Option<f64>,
    pub tools: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Index {
    pub format: String,
    pub version: u64,
    pub generation: String,
    /// The number the next page written is named with.
    pub next: u64,
    pub totals: Totals,
    pub pages: Vec<PageInfo>,
    /// The page of the newest entries (`super::recent`); absent in an index written before it.
    pub recent: Option<Recent>,
}

// Read by hand, not derived (see json_fields): the main module's size. Unknown keys are ignored.
json_fields::required_struct!(Totals, { results: "results", chars: "chars", bytes: "bytes" });
json_fields::required_struct!(PageInfo, {
    name: "name",
    first: "first",
    count: "count",
    chars: "chars",
    bytes: "bytes",
    oldest: "oldest",
    tools: "tools",
});
json_fields::required_struct!(Index, {
    format: "format",
    version: "version",
    generation: "generation",
    next: "next",
    totals: "totals",
    pages: "pages",
    recent: "recent",
});

/// A value as the JSON a call answers, its keys in the order the layout above gives them.
pub trait ToJson {
    fn to_json(&self) -> Value;
}

/// A JSON object of `fields` in their order. Built from `Value`s, not through `json!`'s
/// `to_value`: one serializer instantiation less per field type in the main module.
pub(crate) fn object(fields: Vec<(&str, Value)>) -> Value {
    Value::Object(
        fields
            .into_iter()
            .map(|(key, value)| (key.to_string(), value))
            .collect(),
    )
}

fn strings(items: &[String]) -> Value {
    Value::Array(
        items
            .iter()
            .map(|item| Value::from(item.as_str()))
            .collect(),
    )
}

impl ToJson for Totals {
    fn to_json(&self) -> Value {
        object(vec![
            ("results", Value::from(self.results)),
            ("chars", Value::from(self.chars)),
            ("bytes", Value::from(self.bytes)),
        ])
    }
}

impl ToJson for PageInfo {
    fn to_json(&self) -> Value {
        object(vec![
            ("name", Value::from(self.name.as_str())),
            ("first", Value::from(self.first.as_str())),
            ("count", Value::from(self.count)),
            ("chars", Value::from(self.chars)),
            ("bytes", Value::from(self.bytes)),
            ("oldest", self.oldest.map_or(Value::Null, Value::from)),
            ("tools", self.tools.as_deref().map_or(Value::Null, strings)),
        ])
    }
}

impl ToJson for Index {
    fn to_json(&self) -> Value {
        object(vec![
            ("format", Value::from(self.format.as_str())),
            ("version", Value::from(self.version)),
            ("generation", Value::from(self.generation.as_str())),
            ("next", Value::from(self.next)),
            ("totals", self.totals.to_json()),
            (
                "pages",
                Value::Array(self.pages.iter().map(ToJson::to_json).collect()),
            ),
            (
                "recent",
                self.recent.as_ref().map_or(Value::Null, ToJson::to_json),
            ),
        ])
    }
}

impl ToJson for Vec<String> {
    fn to_json(&self) -> Value {
        strings(self)
    }
}

impl<T: ToJson> ToJson for Step<T> {
    fn to_json(&self) -> Value {
        match self {
            Step::Need { need } => object(vec![("need", strings(need))]),
            Step::Done(done) => done.to_json(),
        }
    }
}

/// What a call answers: its result, or the pages it needs first.
#[derive(Debug, Clone, PartialEq)]
pub enum Step<T> {
    Need { need: Vec<String> },
    Done(T),
}

/// A page's entries in id order, parsed once ([`read_page`]) and shared.
pub type PageEntries = Rc<Vec<Entry>>;

/// The pages a host hands in: name to entries.
pub type Pages = BTreeMap<String, PageEntries>;

fn id_of(entry: &Entry) -> &str {
    entry
        .get("toolResultId")
        .and_then(Value::as_str)
        .unwrap_or("")
}

fn number(entry: &Entry, key: &str) -> u64 {
    entry
        .get(key)
        .and_then(Value::as_f64)
        .filter(|n| n.is_finite() && *n > 0.0)
        .map_or(0, |n| n as u64)
}

fn time(entry: &Entry, key: &str) -> Option<f64> {
    entry
        .get(key)
        .and_then(Value::as_f64)
        .filter(|n| n.is_finite())
}

fn stored_result(entry: &Entry) -> StoredResult {
    StoredResult {
        tool_result_id: id_of(entry).to_string(),
        created_at_ms: time(entry, "createdAtMs"),
        last_used_at_ms: time(entry, "lastUsedAtMs"),
        bytes: number(entry, "storedBytes"),
    }
}

fn tool_of(entry: &Entry) -> &str {
    entry.get("toolName").and_then(Value::as_str).unwrap_or("")
}

impl Index {
    /// An empty catalog of a new generation.
    pub fn new(generation: &str) -> Self {
        Index {
            format: INDEX_FORMAT.to_string(),
            version: INDEX_VERSION,
            generation: generation.to_string(),
            next: 0,
            totals: Totals::default(),
            pages: Vec::new(),
            recent: None,
        }
    }

    /// The index a stored text holds, if this version reads it.
    pub fn parse(text: &str) -> Result<Self> {
        let bad = |e: serde_json::Error| corrupt(format!("the catalog index does not read: {e}"));
        let value: Value = serde_json::from_str(text).map_err(bad)?;
        let index = Index::from_json(value).map_err(bad)?;
        if index.format != INDEX_FORMAT || index.version != INDEX_VERSION {
            return Err(corrupt(format!(
                "the catalog index is {} version {}, not {INDEX_FORMAT} version {INDEX_VERSION}",
                index.format, index.version
            )));
        }
        Ok(index)
    }

    /// The page an id belongs in: the last whose first id is not after it, else the first.
    fn page_of(&self, id: &str) -> usize {
        self.pages
            .partition_point(|page| page.first.as_str() <= id)
            .saturating_sub(1)
    }

    fn may_hold_tool(page: &PageInfo, tool: &str) -> bool {
        page.tools
            .as_ref()
            .is_none_or(|tools| tools.iter().any(|t| t == tool))
    }
}

/// The pages named `names`, in order; `Need` lists those not handed in.
fn pages_of<'a>(names: &[&str], pages: &'a Pages) -> Step<Vec<&'a PageEntries>> {
    let missing: Vec<String> = names
        .iter()
        .filter(|name| !pages.contains_key(**name))
        .map(|name| name.to_string())
        .collect();
    if !missing.is_empty() {
        return Step::Need { need: missing };
    }
    Step::Done(names.iter().map(|name| &pages[*name]).collect())
}

/// A page's entries (a JSON array of objects; anything else in it is left out).
pub fn read_page(name: &str, text: &str) -> Result<PageEntries> {
    match serde_json::from_str(text) {
        Ok(Value::Array(items)) => Ok(Rc::new(
            items
                .into_iter()
                .filter_map(|item| match item {
                    Value::Object(entry) => Some(entry),
                    _ => None,
                })
                .collect(),
        )),
        _ => Err(corrupt(format!("catalog page {name} does not read"))),
    }
}

/// What `select` is asked: a tool name, an order, a window; or given ids.
#[derive(Debug, Clone, Default)]
pub struct Query {
    pub tool_name: Option<String>,
    /// `"id"` (the reference's list order) or `"newest"`.
    pub order: Option<String>,
    pub offset: u64,
    /// None: every entry.
    pub limit: Option<u64>,
    /// The entries of these ids (those the catalog has), instead of the above.
    pub ids: Option<Vec<String>>,
}
json_fields::defaulted_struct!(Query, {
    tool_name: "toolName",
    order: "order",
    offset: "offset",
    limit: "limit",
    ids: "ids",
});

#[derive(Debug, Clone, PartialEq)]
pub struct Selection {
    pub total_results: u64,
    pub offset: u64,
    pub has_more: bool,
    pub entries: Vec<Entry>,
}

impl Selection {
    /// The entries `start..end` of `entries`, out of `total_results` that matched.
    fn window_of(entries: Vec<&Entry>, total_results: u64, start: u64, end: u64) -> Self {
        Selection {
            total_results,
            offset: start,
            has_more: end < total_results,
            entries: entries
                .into_iter()
                .skip(start as usize)
                .take((end - start) as usize)
                .cloned()
                .collect(),
        }
    }
}

impl ToJson for Selection {
    fn to_json(&self) -> Value {
        let entries = self.entries.iter().cloned().map(Value::Object).collect();
        object(vec![
            ("totalResults", Value::from(self.total_results)),
            ("offset", Value::from(self.offset)),
            ("hasMore", Value::Bool(self.has_more)),
            ("entries", Value::Array(entries)),
        ])
    }
}

/// A window of the catalog's entries (see [`Query`]), reading only the pages it falls in.
pub fn select(index: &Index, pages: &Pages, query: &Query) -> Result<Step<Selection>> {
    let names = |range: &mut dyn Iterator<Item = &PageInfo>| -> Vec<String> {
        range.map(|page| page.name.clone()).collect()
    };
    if let Some(ids) = &query.ids {
        let places: BTreeSet<usize> = ids.iter().map(|id| index.page_of(id)).collect();
        let wanted: Vec<String> = places
            .into_iter()
            .filter_map(|at| index.pages.get(at).map(|page| page.name.clone()))
            .collect();
        let refs: Vec<&str> = wanted.iter().map(String::as_str).collect();
        return Ok(match pages_of(&refs, pages) {
            Step::Need { need } => Step::Need { need },
            Step::Done(read) => {
                let found: Vec<Entry> = read
                    .into_iter()
                    .flat_map(|page| page.iter())
                    .filter(|entry| ids.iter().any(|id| id == id_of(entry)))
                    .cloned()
                    .collect();
                Step::Done(Selection {
                    total_results: found.len() as u64,
                    offset: 0,
                    has_more: false,
                    entries: found,
                })
            }
        });
    }
    let newest = query.order.as_deref() == Some("newest");
    let by_tool = query.tool_name.as_deref();
    let total = index.totals.results;
    let window = |len: u64| {
        let start = query.offset.min(len);
        let end = query
            .limit
            .map_or(len, |limit| start.saturating_add(limit).min(len));
        (start, end)
    };
    // In id order without a tool name the index's counts place the window: only its pages load.
    if !newest && by_tool.is_none() {
        let (start, end) = window(total);
        let mut before = 0u64;
        let mut chosen = Vec::new();
        let mut skipped = 0u64;
        for page in &index.pages {
            let after = before + page.count;
            if after > start && before < end {
                if chosen.is_empty() {
                    skipped = before;
                }
                chosen.push(page);
            }
            before = after;
        }
        let wanted = names(&mut chosen.into_iter());
        let refs: Vec<&str> = wanted.iter().map(String::as_str).collect();
        return Ok(match pages_of(&refs, pages) {
            Step::Need { need } => Step::Need { need },
            Step::Done(read) => {
                let from = (start - skipped.min(start)) as usize;
                let len = (end - start) as usize;
                let entries = read.into_iter().flat_map(|page| page.iter());
                Step::Done(Selection {
                    total_results: total,
                    offset: start,
                    has_more: end < total,
                    entries: entries.skip(from).take(len).cloned().collect(),
                })
            }
        });
    }
    // Newest first: the newest page, when the window falls in it or it holds the whole catalog.
    if let (true, Some(recent)) = (newest, &index.recent) {
        let complete = recent.count == total;
        let (start, end) = window(total);
        if (by_tool.is_none() && end <= recent.count) || complete {
            let read = match pages_of(&[recent.name.as_str()], pages) {
                Step::Need { need } => return Ok(Step::Need { need }),
                Step::Done(read) => read,
            };
            let entries: Vec<&Entry> = read[0]
                .iter()
                .filter(|entry| by_tool.is_none_or(|tool| tool_of(entry) == tool))
                .collect();
            let len = if by_tool.is_none() {
                total
            } else {
                entries.len() as u64
            };
            let (start, end) = if by_tool.is_none() {
                (start, end)
            } else {
                window(len)
            };
            return Ok(Step::Done(Selection::window_of(entries, len, start, end)));
        }
    }
    // A tool name reads the pages that may hold it; newest first reads them all.
    let wanted = names(
        &mut index
            .pages
            .iter()
            .filter(|page| by_tool.is_none_or(|tool| Index::may_hold_tool(page, tool))),
    );
    let refs: Vec<&str> = wanted.iter().map(String::as_str).collect();
    let read = match pages_of(&refs, pages) {
        Step::Need { need } => return Ok(Step::Need { need }),
        Step::Done(read) => read,
    };
    let mut entries: Vec<&Entry> = read
        .into_iter()
        .flat_map(|page| page.iter())
        .filter(|entry| by_tool.is_none_or(|tool| tool_of(entry) == tool))
        .collect();
    if newest {
        stable_sort_by(&mut entries, |a, b| newest_first(a, b));
    }
    let len = entries.len() as u64;
    let (start, end) = window(len);
    Ok(Step::Done(Selection::window_of(entries, len, start, end)))
}

/// The ids retention deletes, oldest first, never one of `protected`: reads the pages holding
/// the oldest results, one at a time, only while the index says the policy is exceeded.
pub fn plan_prune(
    index: &Index,
    pages: &Pages,
    policy: &RetentionPolicy,
    now_ms: f64,
    protected: &[String],
) -> Result<Step<Vec<String>>> {
    let mut order = RetentionOrder::new();
    let mut frontier: Option<(f64, &str)> = None;
    for page in &index.pages {
        let oldest = page.oldest.unwrap_or(f64::NEG_INFINITY);
        if let Some(entries) = pages.get(&page.name) {
            for entry in entries.iter() {
                order.add(stored_result(entry));
            }
        } else if frontier.is_none_or(|(age, _)| oldest < age) {
            frontier = Some((oldest, &page.name));
        }
    }
    let totals = (index.totals.results, index.totals.bytes);
    let (doomed, more) = order.plan_within(
        policy,
        now_ms,
        protected,
        totals,
        frontier.map(|(age, _)| age),
    );
    Ok(match (more, frontier) {
        (true, Some((_, name))) => Step::Need {
            need: vec![name.to_string()],
        },
        _ => Step::Done(doomed),
    })
}

/// A change written: the new index, the pages to write first, the pages to remove after.
#[derive(Debug, Clone, PartialEq)]
pub struct Written {
    pub index: String,
    pub write: BTreeMap<String, String>,
    pub remove: Vec<String>,
}

impl ToJson for Written {
    fn to_json(&self) -> Value {
        let write = self
            .write
            .iter()
            .map(|(name, text)| (name.clone(), Value::from(text.as_str())))
            .collect();
        object(vec![
            ("index", Value::from(self.index.as_str())),
            ("write", Value::Object(write)),
            ("remove", strings(&self.remove)),
        ])
    }
}

/// Applies a change (ids removed, then entries added or replaced) to the pages holding those ids.
/// `index` None starts a catalog of generation `generation`.
pub fn apply(
    index: Option<Index>,
    generation: &str,
    pages: &Pages,
    added: Vec<Entry>,
    removed: &[String],
) -> Result<Step<Written>> {
    let mut index = index.unwrap_or_else(|| Index::new(generation));
    let before = index.clone();
    let added: Vec<Entry> = added
        .into_iter()
        .filter(|entry| entry.get("toolResultId").is_some_and(Value::is_string))
        .collect();
    // The pages touched, by their place in the index.
    let touched: Vec<usize> = removed
        .iter()
        .map(String::as_str)
        .chain(added.iter().map(id_of))
        .filter(|_| !index.pages.is_empty())
        .map(|id| index.page_of(id))
        .collect::<BTreeSet<usize>>()
        .into_iter()
        .collect();
    let names: Vec<String> = touched
        .iter()
        .map(|&at| index.pages[at].name.clone())
        .collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    // The newest page is asked for with them: one round trip for both.
    let missing: Vec<String> = names
        .iter()
        .chain(recent::first_needs(&before).iter())
        .filter(|name| !pages.contains_key(*name))
        .cloned()
        .collect::<BTreeSet<String>>()
        .into_iter()
        .collect();
    if !missing.is_empty() {
        return Ok(Step::Need { need: missing });
    }
    let mut groups: Vec<(usize, BTreeMap<String, Entry>)> = Vec::new();
    for (&at, name) in touched.iter().zip(&refs) {
        let map = pages[*name]
            .iter()
            .map(|entry| (id_of(entry).to_string(), entry.clone()))
            .collect();
        groups.push((at, map));
    }
    if index.pages.is_empty() {
        groups.push((0, BTreeMap::new()));
    }
    for id in removed {
        let at = index.page_of(id);
        if let Some((_, map)) = groups.iter_mut().find(|(g, _)| *g == at) {
            map.remove(id);
        }
    }
    for entry in &added {
        let at = index.page_of(id_of(entry));
        if let Some((_, map)) = groups.iter_mut().find(|(g, _)| *g == at) {
            map.insert(id_of(entry).to_string(), entry.clone());
        }
    }
    let mut write = BTreeMap::new();
    let mut remove = names.clone();
    // From the last touched page back, so the places of those before stay right.
    for (at, map) in groups.into_iter().rev() {
        let entries: Vec<Entry> = map.into_values().collect();
        let chunks = entries.len().div_ceil(PAGE_ENTRIES);
        let mut made = Vec::new();
        for k in 0..chunks {
            let (from, to) = (k * entries.len() / chunks, (k + 1) * entries.len() / chunks);
            let name = format!("{}-{}", index.generation, index.next);
            index.next += 1;
            let part = &entries[from..to];
            write.insert(name.clone(), serde_json::to_string(part).map_err(to_error)?);
            made.push(page_info(name, part));
        }
        if at < index.pages.len() {
            index.pages.splice(at..=at, made);
        } else {
            index.pages.extend(made);
        }
    }
    remove.retain(|name| !write.contains_key(name));
    index.totals = index
        .pages
        .iter()
        .fold(Totals::default(), |sum, page| Totals {
            results: sum.results + page.count,
            chars: sum.chars + page.chars,
            bytes: sum.bytes + page.bytes,
        });
    match recent::after_change(&before, pages, &added, removed, index.totals.results) {
        Step::Need { need } => return Ok(Step::Need { need }),
        Step::Done(None) => {}
        Step::Done(Some(newest)) => {
            remove.extend(before.recent.iter().map(|recent| recent.name.clone()));
            index.recent = if newest.is_empty() {
                None
            } else {
                let name = format!("{}-{}", index.generation, index.next);
                index.next += 1;
                let text = serde_json::to_string(newest.as_slice()).map_err(to_error)?;
                write.insert(name.clone(), text);
                Some(Recent {
                    name,
                    count: newest.len() as u64,
                })
            };
        }
    }
    Ok(Step::Done(Written {
        index: serde_json::to_string(&index.to_json()).map_err(to_error)?,
        write,
        remove,
    }))
}

fn corrupt(message: String) -> Error {
    Error::new(ErrorCode::Corrupt, message)
}

fn to_error(error: serde_json::Error) -> Error {
    corrupt(format!("the catalog does not serialize: {error}"))
}

fn page_info(name: String, entries: &[Entry]) -> PageInfo {
    let mut tools: Vec<String> = Vec::new();
    let mut many = false;
    let mut oldest = Some(f64::INFINITY);
    let (mut chars, mut bytes) = (0, 0);
    for entry in entries {
        chars += number(entry, "originalChars");
        bytes += number(entry, "storedBytes");
        let fresh = stored_result(entry).freshness_ms();
        oldest = match (oldest, fresh) {
            (Some(a), Some(b)) => Some(a.min(b)),
            _ => None,
        };
        let tool = tool_of(entry);
        if !many && !tools.iter().any(|t| t == tool) {
            tools.push(tool.to_string());
            many = tools.len() > MAX_PAGE_TOOLS;
        }
    }
    PageInfo {
        name,
        first: entries
            .first()
            .map(|e| id_of(e).to_string())
            .unwrap_or_default(),
        count: entries.len() as u64,
        chars,
        bytes,
        oldest: oldest.filter(|at| at.is_finite()),
        tools: (!many).then_some(tools),
    }
}

#[cfg(test)]
#[path = "pages_tests.rs"]
mod tests;
