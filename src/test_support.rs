//! Helpers shared by the unit tests of several modules (compiled only for tests).

/// Every string of up to four of `pieces`, for the differential tests against the reference
/// patterns compiled by the full `regex` crate with Python's classes.
pub fn joined_pieces(pieces: &[&str]) -> Vec<String> {
    let mut all = vec![String::new()];
    for _ in 0..4 {
        all = all
            .iter()
            .flat_map(|head| pieces.iter().map(move |piece| format!("{head}{piece}")))
            .collect();
    }
    all
}

/// A synopsis's lines (summary, structure, notable items) as one text, for `contains` checks.
#[cfg(feature = "enhanced")]
pub fn synopsis_text(synopsis: &crate::kinds::Synopsis) -> String {
    synopsis.lines().cloned().collect::<Vec<_>>().join("\n")
}
