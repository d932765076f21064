//! Session-wide search: `searchAll({ query, regex, ignoreCase, wholeWord, toolName, limit,
//! perResult })` greps every stored result of the session and ranks the results that match.
//!
//! Ranking: relevance is the number of matches in the output (more first); ties go to the newer
//! result (`created_at`, later first), then to the smaller id, so the order is deterministic.
//! With `order: "newest"` results rank newest first (then by id) whatever their match count, and
//! the host searches the candidates in that order ([`scan_order`]) and stops once `limit` of them
//! matched: no result searched later could rank before them. Its totals then count the results
//! searched, and `unsearched` says how many candidates were not. The default ranking needs every
//! candidate (a later one may match more often), so it searches them all.
//! The host does the I/O: the session's catalog (`crate::catalog`) says which stored results to
//! load (`toolName` applied first), [`grep_request`] how to grep each, [`rank`] orders what matched.

use serde::Serialize;
use serde_json::Value;

use super::grep::{self, GrepRequest};
use crate::error::{Error, Result};
use crate::json_fields;
use crate::python::stable_sort_by;

pub const DEFAULT_RESULT_LIMIT: i64 = 10;
pub const DEFAULT_PER_RESULT: i64 = 3;
/// Context around each hit: shorter than `search`'s, since hits of many results add up.
pub const DEFAULT_HIT_CONTEXT_CHARS: i64 = 120;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SearchAllRequest {
    pub query: String,
    pub regex: bool,
    pub ignore_case: bool,
    pub whole_word: bool,
    pub tool_name: Option<String>,
    /// Results (stored outputs) returned at most.
    pub limit: Option<i64>,
    /// Matches shown per result at most.
    pub per_result: Option<i64>,
    pub context_chars: Option<i64>,
    pub context_lines: Option<i64>,
    /// "relevance" (default) or "newest".
    pub order: Option<String>,
}

/// How `searchAll` ranks its results (see the module doc).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchOrder {
    Relevance,
    Newest,
}

impl SearchOrder {
    /// The orders' names, as `parse` takes them (the first is the default).
    pub const NAMES: [&'static str; 2] = ["relevance", "newest"];

    pub fn parse(order: Option<&str>) -> Result<Self> {
        match order {
            None | Some("relevance") => Ok(SearchOrder::Relevance),
            Some("newest") => Ok(SearchOrder::Newest),
            Some(other) => Err(Error::invalid(format!(
                "order must be \"relevance\" or \"newest\" (got {other:?})"
            ))),
        }
    }
}

json_fields::defaulted_struct!(SearchAllRequest, deny_unknown_fields, {
    query: "query",
    regex: "regex",
    ignore_case: "ignoreCase",
    whole_word: "wholeWord",
    tool_name: "toolName",
    limit: "limit",
    per_result: "perResult",
    context_chars: "contextChars",
    context_lines: "contextLines",
    order: "order",
});

/// The grep each stored output gets, its options checked before any I/O (its pattern is
/// checked by the grep module when it is not a literal one).
pub fn grep_request(request: &SearchAllRequest) -> Result<GrepRequest> {
    let limit = request.limit.unwrap_or(DEFAULT_RESULT_LIMIT);
    if limit <= 0 {
        return Err(Error::invalid(format!("limit must be > 0 (got {limit})")));
    }
    let per_result = request.per_result.unwrap_or(DEFAULT_PER_RESULT);
    if per_result <= 0 {
        return Err(Error::invalid(format!(
            "perResult must be > 0 (got {per_result})"
        )));
    }
    let grep = GrepRequest {
        query: request.query.clone(),
        regex: request.regex,
        ignore_case: request.ignore_case,
        whole_word: request.whole_word,
        limit: Some(per_result),
        context_chars: match (request.context_chars, request.context_lines) {
            (None, None) => Some(DEFAULT_HIT_CONTEXT_CHARS),
            (chars, _) => chars,
        },
        context_lines: request.context_lines,
    };
    SearchOrder::parse(request.order.as_deref())?;
    grep::check(&grep)?;
    Ok(grep)
}

/// A stored result `searchAll` may search, as the catalog knows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub tool_result_id: String,
    pub created_at: String,
}

json_fields::required_struct!(Candidate, {
    tool_result_id: "toolResultId",
    created_at: "createdAt",
});

/// Newer first (`created_at`, later first), then the smaller id: the order of `Newest`, and the
/// default ranking's tie-break.
fn newer_first(a: (&str, &str), b: (&str, &str)) -> std::cmp::Ordering {
    b.0.cmp(a.0).then_with(|| a.1.cmp(b.1))
}

/// The order (indices into `candidates`) in which `Newest` searches them: its ranking order.
pub fn scan_order(candidates: &[Candidate]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    stable_sort_by(&mut order, |&a, &b| {
        let key = |i: usize| {
            candidates.get(i).map_or(("", ""), |c| {
                (c.created_at.as_str(), c.tool_result_id.as_str())
            })
        };
        newer_first(key(a), key(b))
    });
    order
}

/// One result that matched, as the host reports it (its grep result added to the candidate).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Hit {
    pub tool_result_id: String,
    #[serde(rename = "ref")]
    pub reference: String,
    pub tool_name: String,
    pub created_at: String,
    pub total_matches: usize,
    pub matches: Vec<Value>,
}

json_fields::required_struct!(Hit, {
    tool_result_id: "toolResultId",
    reference: "ref",
    tool_name: "toolName",
    created_at: "createdAt",
    total_matches: "totalMatches",
    matches: "matches",
});

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ranked {
    pub results: Vec<Hit>,
    /// Stored results with at least one match (also those beyond `limit`).
    pub total_results: usize,
    /// Matches over all of them.
    pub total_matches: usize,
    /// Candidates not searched: a `Newest` search stopped once `limit` results matched.
    #[serde(skip_serializing_if = "is_zero")]
    pub unsearched: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The hits with matches, in `order` (see the module doc), cut to `limit`; `unsearched`
/// candidates were not searched.
pub fn rank(hits: Vec<Hit>, limit: i64, order: SearchOrder, unsearched: usize) -> Result<Ranked> {
    if limit <= 0 {
        return Err(Error::invalid(format!("limit must be > 0 (got {limit})")));
    }
    let mut results: Vec<Hit> = hits
        .into_iter()
        .filter(|hit| hit.total_matches > 0)
        .collect();
    stable_sort_by(&mut results, |a, b| {
        let newer = newer_first(
            (&a.created_at, &a.tool_result_id),
            (&b.created_at, &b.tool_result_id),
        );
        match order {
            SearchOrder::Relevance => b.total_matches.cmp(&a.total_matches).then(newer),
            SearchOrder::Newest => newer,
        }
    });
    let total_results = results.len();
    let total_matches = results.iter().map(|hit| hit.total_matches).sum();
    results.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    Ok(Ranked {
        results,
        total_results,
        total_matches,
        unsearched,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_order_name_parses_and_the_first_is_the_default() {
        let orders: Vec<_> = SearchOrder::NAMES
            .iter()
            .map(|name| SearchOrder::parse(Some(name)).expect("a listed name parses"))
            .collect();
        assert_eq!(orders, [SearchOrder::Relevance, SearchOrder::Newest]);
        assert_eq!(SearchOrder::parse(None).ok(), Some(orders[0]));
    }

    fn hit(id: &str, created_at: &str, total_matches: usize) -> Hit {
        Hit {
            tool_result_id: id.into(),
            reference: format!("s/tool-results/{id}"),
            tool_name: "t".into(),
            created_at: created_at.into(),
            total_matches,
            matches: Vec::new(),
        }
    }

    #[test]
    fn ranks_by_matches_then_recency_then_id() {
        let hits = vec![
            hit("a", "2024-01-01", 2),
            hit("b", "2024-01-03", 2),
            hit("c", "2024-01-02", 5),
            hit("d", "2024-01-09", 0),
            hit("e", "2024-01-03", 2),
        ];
        let ranked = rank(hits.clone(), 3, SearchOrder::Relevance, 0).expect("valid");
        let order: Vec<_> = ranked
            .results
            .iter()
            .map(|h| h.tool_result_id.as_str())
            .collect();
        assert_eq!(order, ["c", "b", "e"]);
        assert_eq!((ranked.total_results, ranked.total_matches), (4, 11));
        assert!(rank(Vec::new(), 0, SearchOrder::Relevance, 0).is_err());
        let newest = rank(hits, 2, SearchOrder::Newest, 7).expect("valid");
        let order: Vec<_> = newest
            .results
            .iter()
            .map(|h| h.tool_result_id.as_str())
            .collect();
        assert_eq!(
            (order.as_slice(), newest.unsearched),
            (["b", "e"].as_slice(), 7)
        );
    }

    #[test]
    fn newest_searches_in_its_ranking_order() {
        let candidate = |id: &str, at: &str| Candidate {
            tool_result_id: id.into(),
            created_at: at.into(),
        };
        let candidates = [
            candidate("a", "2024-01-01"),
            candidate("c", "2024-01-03"),
            candidate("b", "2024-01-03"),
            candidate("d", "2024-01-02"),
        ];
        assert_eq!(scan_order(&candidates), [2, 1, 3, 0]);
        let request = |order: &str| SearchAllRequest {
            query: "x".into(),
            order: Some(order.into()),
            ..Default::default()
        };
        assert!(grep_request(&request("newest")).is_ok());
        assert!(grep_request(&request("oldest")).is_err());
    }

    #[test]
    fn requests_are_checked_before_any_io() {
        let bad = SearchAllRequest {
            query: "x".into(),
            context_chars: Some(1),
            context_lines: Some(1),
            ..Default::default()
        };
        assert!(grep_request(&bad).is_err());
        let ok = SearchAllRequest {
            query: "x".into(),
            per_result: Some(2),
            ..Default::default()
        };
        let grep = grep_request(&ok).expect("valid");
        assert_eq!(
            (grep.limit, grep.context_chars),
            (Some(2), Some(DEFAULT_HIT_CONTEXT_CHARS))
        );
        assert!(grep_request(&SearchAllRequest {
            per_result: Some(0),
            ..ok.clone()
        })
        .is_err());
        assert!(grep_request(&SearchAllRequest {
            limit: Some(0),
            ..ok
        })
        .is_err());
    }
}
