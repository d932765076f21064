//! Which stored results to delete so a session stays within its retention policy: oldest first,
//! never a result the current turn refers to.

use serde::{Deserialize, Serialize};

use crate::json_fields;
use crate::python::stable_sort_by;

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
    pub bytes: u64,
}

json_fields::required_struct!(StoredResult, {
    tool_result_id: "toolResultId",
    created_at_ms: "createdAtMs",
    bytes: "bytes",
});

/// The ids to delete, oldest first.
pub fn plan_prune(
    mut results: Vec<StoredResult>,
    policy: &RetentionPolicy,
    now_ms: f64,
    protected: &[String],
) -> Vec<String> {
    stable_sort_by(&mut results, |a, b| {
        let age = |r: &StoredResult| r.created_at_ms.unwrap_or(f64::NEG_INFINITY);
        age(a)
            .total_cmp(&age(b))
            .then_with(|| a.tool_result_id.cmp(&b.tool_result_id))
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
                .created_at_ms
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

#[cfg(test)]
mod tests {
    use super::*;

    fn result(id: &str, at: f64, bytes: u64) -> StoredResult {
        StoredResult {
            tool_result_id: id.into(),
            created_at_ms: Some(at),
            bytes,
        }
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
}
