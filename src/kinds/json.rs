//! Placeholder until the json module lands.
use crate::synopsis::Synopsis;
pub fn synopsis(_output: &str) -> Option<Synopsis> {
    None
}
