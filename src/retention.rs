//! Which stored results to delete so a session stays within its retention policy: oldest first,
//! never a result the current turn refers to.
//!
//! [`RetentionOrder`] keeps results oldest first with their count and bytes, so a plan costs
//! what it deletes: it walks from the oldest and stops at the first result it keeps that the
//! turn does not protect (every later one is younger, and the count and bytes are already within
//! the policy). The catalog read in pages (`catalog::pages`) fills one with the oldest pages only,
//! and [`RetentionOrder::plan_within`] says when the plan needs the next.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use crate::json_fields;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct RetentionPolicy {
    pub max_results: Option<u64>,
    pub max_bytes: Option<u64>,
    pub max_age_ms: Option<u64>,
}

impl RetentionPolicy {
    pub fn is_unbounded(&self) -> bool {
        self.max_results.is_none() && self.max_bytes.is_none() && self.max_age_ms.is_none()
    }
}

/// One stored result as retention sees it.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredResult {
    pub tool_result_id: String,
    /// Milliseconds since the epoch; results without a readable date count as oldest.
    pub created_at_ms: Option<f64>,
    /// When a later turn handed out this result's ref again (its output came back identical, so
    /// the stored result was reused): the result is as fresh as that turn, or the ref the model
    /// just got would be the first one retention deletes.
    pub last_used_at_ms: Option<f64>,
    pub bytes: u64,
}

json_fields::required_struct!(StoredResult, {
    tool_result_id: "toolResultId",
    created_at_ms: "createdAtMs",
    last_used_at_ms: "lastUsedAtMs",
    bytes: "bytes",
});

impl StoredResult {
    /// When the result was last handed out: the later of its creation and its last reuse. A date
    /// that is NaN (from outside JSON) counts as none.
    pub fn freshness_ms(&self) -> Option<f64> {
        let created = self.created_at_ms.filter(|at| !at.is_nan());
        let used = self.last_used_at_ms.filter(|at| !at.is_nan());
        match (created, used) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }
}

/// A result's place in the order: `created_at_ms` (none counts as oldest) as `f64::total_cmp`
/// orders it, then its id.
fn age_of(created_at_ms: Option<f64>) -> f64 {
    created_at_ms.unwrap_or(f64::NEG_INFINITY)
}

fn by_age(a: (f64, &str), b: (f64, &str)) -> Ordering {
    a.0.total_cmp(&b.0).then_with(|| a.1.cmp(b.1))
}

/// A session's stored results as retention sees them, kept oldest first, with their totals.
#[derive(Debug, Default)]
pub struct RetentionOrder {
    /// `(age, id, bytes)`, oldest first (see [`by_age`]).
    order: Vec<(f64, String, u64)>,
    /// `(id, age)` by id: the age each id is kept under, to find it again. (A sorted vector, not
    /// a map: one more map type would cost the shipped wasm more than its moves cost here.)
    ages: Vec<(String, f64)>,
    bytes: u64,
}

impl RetentionOrder {
    pub fn new() -> Self {
        Self::default()
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.order.len()
    }

    #[cfg(test)]
    fn bytes(&self) -> u64 {
        self.bytes
    }

    fn id_position(&self, id: &str) -> Result<usize, usize> {
        self.ages.binary_search_by(|(i, _)| i.as_str().cmp(id))
    }

    fn position(&self, age: f64, id: &str) -> Result<usize, usize> {
        self.order
            .binary_search_by(|(a, i, _)| by_age((*a, i), (age, id)))
    }

    /// Adds a result, or replaces the one of the same id.
    pub fn add(&mut self, result: StoredResult) {
        self.remove(&result.tool_result_id);
        let age = age_of(result.freshness_ms());
        // Results mostly arrive newest: at the end, where nothing moves.
        let at = match self.order.last() {
            Some((a, i, _))
                if by_age((*a, i), (age, &result.tool_result_id)) == Ordering::Greater =>
            {
                self.position(age, &result.tool_result_id)
                    .unwrap_or_else(|at| at)
            }
            _ => self.order.len(),
        };
        self.bytes = self.bytes.saturating_add(result.bytes);
        let by_id = self
            .id_position(&result.tool_result_id)
            .unwrap_or_else(|at| at);
        self.ages
            .insert(by_id, (result.tool_result_id.clone(), age));
        self.order
            .insert(at, (age, result.tool_result_id, result.bytes));
    }

    /// Removes a result (nothing when it is not there).
    pub fn remove(&mut self, id: &str) {
        let Ok(by_id) = self.id_position(id) else {
            return;
        };
        let (_, age) = self.ages.remove(by_id);
        if let Ok(at) = self.position(age, id) {
            let (_, _, bytes) = self.order.remove(at);
            self.bytes = self.bytes.saturating_sub(bytes);
        }
    }

    /// The ids to delete under `policy` at `now_ms`, oldest first, never one of `protected`.
    pub fn plan(&self, policy: &RetentionPolicy, now_ms: f64, protected: &[String]) -> Vec<String> {
        let totals = (self.order.len() as u64, self.bytes);
        self.plan_within(policy, now_ms, protected, totals, None).0
    }

    /// [`Self::plan`] over part of a session (a catalog read in pages): `totals` are the whole
    /// session's (count, bytes), and `frontier` the age of the oldest result not held here.
    /// Answers the ids and whether the plan needs the results past the frontier before it can
    /// go on (then the ids are those it found so far).
    pub fn plan_within(
        &self,
        policy: &RetentionPolicy,
        now_ms: f64,
        protected: &[String],
        (mut count, mut bytes): (u64, u64),
        frontier: Option<f64>,
    ) -> (Vec<String>, bool) {
        let too_old = |age: f64| {
            policy
                .max_age_ms
                .is_some_and(|max| now_ms - age > max as f64)
        };
        let mut doomed = Vec::new();
        for (age, id, size) in &self.order {
            let too_many = policy.max_results.is_some_and(|max| count > max);
            let too_big = policy.max_bytes.is_some_and(|max| bytes > max);
            // A result past the frontier is younger than one not held here, and nothing here
            // or there calls for a deletion: every later result is younger, and count and
            // bytes are within the policy.
            let older_outside = frontier.is_some_and(too_old);
            if !(too_old(*age) || too_many || too_big || older_outside) {
                return (doomed, false);
            }
            // Results of one turn share a date: one at the frontier's date counts as older than
            // those outside (ties are broken by id only among the results held here), so a turn
            // whose results are spread over every page does not make a plan read them all.
            if frontier.is_some_and(|outside| *age > outside) {
                return (doomed, true);
            }
            if protected.contains(id) {
                continue;
            }
            count = count.saturating_sub(1);
            bytes = bytes.saturating_sub(*size);
            doomed.push(id.clone());
        }
        let over = policy.max_results.is_some_and(|max| count > max)
            || policy.max_bytes.is_some_and(|max| bytes > max)
            || frontier.is_some_and(too_old);
        (doomed, over && frontier.is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan_prune(
        results: Vec<StoredResult>,
        policy: &RetentionPolicy,
        now_ms: f64,
        protected: &[String],
    ) -> Vec<String> {
        let mut order = RetentionOrder::new();
        for result in results {
            order.add(result);
        }
        order.plan(policy, now_ms, protected)
    }

    fn result(id: &str, at: f64, bytes: u64) -> StoredResult {
        StoredResult {
            tool_result_id: id.into(),
            created_at_ms: Some(at),
            last_used_at_ms: None,
            bytes,
        }
    }

    /// A result stored at `at` and handed out again (reused) at `used`.
    fn reused(id: &str, at: f64, used: f64, bytes: u64) -> StoredResult {
        StoredResult {
            last_used_at_ms: Some(used),
            ..result(id, at, bytes)
        }
    }

    #[test]
    fn a_reused_result_is_as_fresh_as_the_turn_that_handed_it_out_again() {
        // Turns A, B, C, then A again (reused at 4), then D: with room for three, B goes, not A.
        let results = vec![
            reused("a", 1.0, 4.0, 10),
            result("b", 2.0, 10),
            result("c", 3.0, 10),
            result("d", 5.0, 10),
        ];
        let policy = RetentionPolicy {
            max_results: Some(3),
            ..Default::default()
        };
        assert_eq!(plan_prune(results.clone(), &policy, 10.0, &[]), ["b"]);
        // An age limit counts from the last use too.
        let policy = RetentionPolicy {
            max_age_ms: Some(7),
            ..Default::default()
        };
        assert_eq!(plan_prune(results, &policy, 11.0, &[]), ["b", "c"]);
        // A use older than the creation (a clock set back) does not make a result older.
        let mut order = RetentionOrder::new();
        order.add(reused("x", 5.0, 1.0, 1));
        order.add(result("y", 3.0, 1));
        let one = RetentionPolicy {
            max_results: Some(1),
            ..Default::default()
        };
        assert_eq!(order.plan(&one, 10.0, &[]), ["y"]);
    }

    #[test]
    fn oldest_go_first_until_within_limits() {
        let results = vec![
            result("c", 3.0, 10),
            result("a", 1.0, 10),
            result("b", 2.0, 10),
        ];
        let policy = RetentionPolicy {
            max_results: Some(2),
            ..Default::default()
        };
        assert_eq!(plan_prune(results.clone(), &policy, 10.0, &[]), ["a"]);
        let policy = RetentionPolicy {
            max_bytes: Some(15),
            ..Default::default()
        };
        assert_eq!(plan_prune(results.clone(), &policy, 10.0, &[]), ["a", "b"]);
        let policy = RetentionPolicy {
            max_age_ms: Some(8),
            ..Default::default()
        };
        assert_eq!(plan_prune(results, &policy, 10.0, &[]), ["a"]);
    }

    #[test]
    fn protected_results_are_never_deleted() {
        let results = vec![
            result("a", 1.0, 10),
            result("b", 2.0, 10),
            result("c", 3.0, 10),
        ];
        let policy = RetentionPolicy {
            max_results: Some(1),
            ..Default::default()
        };
        assert_eq!(
            plan_prune(results, &policy, 10.0, &["a".to_string()]),
            ["b", "c"]
        );
        assert!(RetentionPolicy::default().is_unbounded());
    }

    /// The plan as it was made before the order was kept: every result sorted, then walked to the end.
    fn plan_by_sorting(
        mut results: Vec<StoredResult>,
        policy: &RetentionPolicy,
        now_ms: f64,
        protected: &[String],
    ) -> Vec<String> {
        results.sort_by(|a, b| {
            by_age(
                (age_of(a.freshness_ms()), &a.tool_result_id),
                (age_of(b.freshness_ms()), &b.tool_result_id),
            )
        });
        let mut count = results.len() as u64;
        let mut bytes: u64 = results.iter().map(|r| r.bytes).sum();
        let mut doomed = Vec::new();
        for result in &results {
            if protected.contains(&result.tool_result_id) {
                continue;
            }
            let too_old = policy.max_age_ms.is_some_and(|max| {
                result
                    .freshness_ms()
                    .is_none_or(|at| now_ms - at > max as f64)
            });
            let too_many = policy.max_results.is_some_and(|max| count > max);
            let too_big = policy.max_bytes.is_some_and(|max| bytes > max);
            if too_old || too_many || too_big {
                count -= 1;
                bytes -= result.bytes;
                doomed.push(result.tool_result_id.clone());
            }
        }
        doomed
    }

    #[test]
    fn changes_keep_the_order_and_totals() {
        let mut order = RetentionOrder::new();
        order.add(result("b", 2.0, 10));
        order.add(result("a", 1.0, 5));
        order.add(result("c", 3.0, 7));
        order.add(StoredResult {
            tool_result_id: "undated".into(),
            created_at_ms: None,
            last_used_at_ms: None,
            bytes: 1,
        });
        // Replacing an id moves it and counts its new bytes once.
        order.add(result("a", 4.0, 6));
        order.remove("b");
        order.remove("never there");
        assert_eq!((order.len(), order.bytes()), (3, 14));
        let all = RetentionPolicy {
            max_results: Some(0),
            ..Default::default()
        };
        assert_eq!(order.plan(&all, 0.0, &[]), ["undated", "c", "a"]);
    }

    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;
        use proptest::prelude::*;

        #[derive(Debug, Clone)]
        enum Change {
            Add(u8, Option<i8>, Option<i8>, u8),
            Remove(u8),
        }

        fn change() -> impl Strategy<Value = Change> {
            prop_oneof![
                3 => (
                    0u8..24,
                    proptest::option::weighted(0.9, any::<i8>()),
                    proptest::option::weighted(0.3, any::<i8>()),
                    any::<u8>(),
                )
                    .prop_map(|(id, at, used, bytes)| Change::Add(id, at, used, bytes)),
                1 => (0u8..24).prop_map(Change::Remove),
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
            /// After any changes, the kept order plans exactly what sorting every result planned.
            #[test]
            fn the_kept_order_plans_as_a_full_sort(
                changes in proptest::collection::vec(change(), 0..60),
                max_results in proptest::option::of(0u64..30),
                max_bytes in proptest::option::of(0u64..3000),
                max_age_ms in proptest::option::of(0u64..200),
                protected in proptest::collection::vec(0u8..24, 0..4),
            ) {
                let mut order = RetentionOrder::new();
                let mut truth: Vec<StoredResult> = Vec::new();
                for change in changes {
                    match change {
                        Change::Add(id, at, used, bytes) => {
                            let added = StoredResult {
                                tool_result_id: format!("tr_{id}"),
                                created_at_ms: at.map(f64::from),
                                last_used_at_ms: used.map(f64::from),
                                bytes: u64::from(bytes),
                            };
                            truth.retain(|r| r.tool_result_id != added.tool_result_id);
                            truth.push(added.clone());
                            order.add(added);
                        }
                        Change::Remove(id) => {
                            let id = format!("tr_{id}");
                            truth.retain(|r| r.tool_result_id != id);
                            order.remove(&id);
                        }
                    }
                }
                let policy = RetentionPolicy { max_results, max_bytes, max_age_ms };
                let protected: Vec<String> = protected.iter().map(|id| format!("tr_{id}")).collect();
                prop_assert_eq!(order.len(), truth.len());
                prop_assert_eq!(
                    order.plan(&policy, 100.0, &protected),
                    plan_by_sorting(truth, &policy, 100.0, &protected)
                );
            }
        }
    }
}
