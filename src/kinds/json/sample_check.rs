//! The check that a sampled load holds what the whole document holds (for the differential
//! tests and the `json` fuzz target).

use super::*;

/// Whether `load_value(output, sample)` holds what the whole document holds: the same lengths,
/// keys and scalars, each container whole or (when its items are all of one type) its first
/// `sample` items and its last. `Err` says where they differ. For the differential tests and
/// the `json` fuzz target, on outputs `synopsis` accepts.
#[doc(hidden)]
pub fn sampled_load_agrees(output: &str, sample: usize) -> Result<(), String> {
    fn agree(
        held: &Value<'_>,
        whole: &Value<'_>,
        sample: usize,
        path: &mut String,
    ) -> Result<(), String> {
        fn items<'v, T>(
            held: &'v [T],
            whole: &'v [T],
            sample: usize,
        ) -> Result<Vec<(&'v T, &'v T)>, String> {
            if held.len() == whole.len() {
                return Ok(held.iter().zip(whole).collect());
            }
            if held.len() != sample + 1 || whole.len() <= sample + 1 {
                return Err(format!("{} items held of {}", held.len(), whole.len()));
            }
            let mut pairs: Vec<(&T, &T)> = held.iter().zip(whole).take(sample).collect();
            pairs.extend(held.last().zip(whole.last()));
            Ok(pairs)
        }
        fn one_type(mut types: impl Iterator<Item = &'static str>) -> bool {
            let first = types.next();
            types.all(|t| Some(t) == first)
        }
        let length = path.len();
        match (held, whole) {
            (Value::List(held_items, held_len), Value::List(whole_items, whole_len)) => {
                if held_len != whole_len {
                    return Err(format!("{path}: length {held_len}, whole {whole_len}"));
                }
                let pairs =
                    items(held_items, whole_items, sample).map_err(|e| format!("{path}: {e}"))?;
                if pairs.len() < whole_items.len()
                    && !one_type(whole_items.iter().map(Value::type_name))
                {
                    return Err(format!("{path}: a sample of mixed items"));
                }
                for (index, (held, whole)) in pairs.into_iter().enumerate() {
                    path.push_str(&format!("[{index}]"));
                    agree(held, whole, sample, path)?;
                    path.truncate(length);
                }
            }
            (Value::Map(held_entries, held_len), Value::Map(whole_entries, whole_len)) => {
                if held_len != whole_len {
                    return Err(format!("{path}: {held_len} keys, whole {whole_len}"));
                }
                let pairs = items(held_entries, whole_entries, sample)
                    .map_err(|e| format!("{path}: {e}"))?;
                if pairs.len() < whole_entries.len()
                    && !one_type(whole_entries.iter().map(|(_, v)| v.type_name()))
                {
                    return Err(format!("{path}: a sample of mixed values"));
                }
                for ((held_key, held), (whole_key, whole)) in pairs {
                    if held_key != whole_key {
                        return Err(format!("{path}: key {held_key:?}, whole {whole_key:?}"));
                    }
                    path.push_str(&format!(".{held_key}"));
                    agree(held, whole, sample, path)?;
                    path.truncate(length);
                }
            }
            (held, whole) if held == whole => {}
            (held, whole) => return Err(format!("{path}: {held:?}, whole {whole:?}")),
        }
        Ok(())
    }
    let whole = load_value(output, usize::MAX).map(|(value, rest)| (value, rest.len()));
    let held = load_value(output, sample).map(|(value, rest)| (value, rest.len()));
    match (held, whole) {
        (Some((held, held_rest)), Some((whole, whole_rest))) => {
            if held_rest != whole_rest {
                return Err(format!(
                    "{held_rest} bytes after the value, whole {whole_rest}"
                ));
            }
            agree(&held, &whole, sample.max(1), &mut String::new())
        }
        (None, None) => Ok(()),
        (held, _) => Err(format!(
            "loaded: {}, whole: {}",
            held.is_some(),
            held.is_none()
        )),
    }
}
