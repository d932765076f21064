//! Constructor: SafeConstructor's checks, and Python values for scalars.

use super::*;

/// A constructed scalar (the only hashable things SafeConstructor makes, so the only possible keys).
#[derive(Debug, Clone, PartialEq)]
pub(super) enum PyScalar {
    None,
    Bool(bool),
    Int(BigInt),
    /// The float, and for NaN which object it is (Python dicts match NaN keys by identity).
    Float(f64, NanObject),
    Str(String),
    Bytes(Vec<u8>),
    Date(Date),
    DateTime(DateTime),
}

/// `SafeConstructor.nan_value` is one shared object for every `.nan`; `float('nan')` makes a new one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum NanObject {
    Shared,
    Node(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct Date {
    pub(super) year: i64,
    pub(super) month: u32,
    pub(super) day: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct DateTime {
    pub(super) date: Date,
    pub(super) hour: u32,
    pub(super) minute: u32,
    pub(super) second: u32,
    pub(super) microsecond: u32,
    /// UTC offset in minutes for an aware datetime.
    pub(super) offset_minutes: Option<i64>,
}

/// What Python dict lookup compares: `True == 1 == 1.0`, aware datetimes by instant, NaN by identity.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum KeyIdentity {
    Integer(BigInt),
    NonIntegralFloat(u64),
    Nan(NanObject),
    Text(String),
    NoneValue,
    Bytes(Vec<u8>),
    Date(Date),
    NaiveDateTime(Date, u32, u32, u32, u32),
    AwareDateTime(i128),
}

impl PyScalar {
    pub(super) fn into_identity(self) -> KeyIdentity {
        match self {
            PyScalar::None => KeyIdentity::NoneValue,
            PyScalar::Bool(flag) => KeyIdentity::Integer(BigInt::from_u64(u64::from(flag))),
            PyScalar::Int(value) => KeyIdentity::Integer(value),
            PyScalar::Float(value, nan_object) => {
                if value.is_nan() {
                    KeyIdentity::Nan(nan_object)
                } else if value.is_finite() && value.fract() == 0.0 {
                    KeyIdentity::Integer(BigInt::from_integral_f64(value))
                } else {
                    KeyIdentity::NonIntegralFloat(value.to_bits())
                }
            }
            PyScalar::Str(text) => KeyIdentity::Text(text),
            PyScalar::Bytes(bytes) => KeyIdentity::Bytes(bytes),
            PyScalar::Date(date) => KeyIdentity::Date(date),
            PyScalar::DateTime(datetime) => match datetime.offset_minutes {
                None => KeyIdentity::NaiveDateTime(
                    datetime.date,
                    datetime.hour,
                    datetime.minute,
                    datetime.second,
                    datetime.microsecond,
                ),
                Some(offset) => {
                    let days = i128::from(days_from_civil(datetime.date));
                    let seconds = days * 86_400
                        + i128::from(datetime.hour) * 3600
                        + i128::from(datetime.minute) * 60
                        + i128::from(datetime.second)
                        - i128::from(offset) * 60;
                    KeyIdentity::AwareDateTime(
                        seconds * 1_000_000 + i128::from(datetime.microsecond),
                    )
                }
            },
        }
    }

    /// Python's `str(value)`; an error where Python raises (an int over 4300 digits).
    pub(super) fn py_str(&self) -> Res<String> {
        Ok(match self {
            PyScalar::None => "None".to_string(),
            PyScalar::Bool(true) => "True".to_string(),
            PyScalar::Bool(false) => "False".to_string(),
            PyScalar::Int(value) => value.to_decimal().ok_or(Rejected)?,
            PyScalar::Float(value, _) => py_repr_float(*value),
            PyScalar::Str(text) => text.clone(),
            PyScalar::Bytes(bytes) => py_bytes_repr(bytes),
            PyScalar::Date(date) => format_date(date),
            PyScalar::DateTime(datetime) => format_datetime(datetime),
        })
    }
}

/// Python's `type_name` of the value a node constructs to, from its (validated) tag.
pub(super) fn type_name(tag: Tag) -> &'static str {
    match tag {
        Tag::Map => "object",
        Tag::Seq | Tag::Omap | Tag::Pairs => "array",
        Tag::Bool => "boolean",
        Tag::Null => "null",
        Tag::Int | Tag::Float => "number",
        // str, date/datetime, bytes, set: none of the above.
        _ => "string",
    }
}

pub(super) struct Constructor<'a> {
    pub(super) nodes: Vec<Node<'a>>,
    /// The merged pairs of each sequence merged with `<<` (by its node id), de-duplicated, once
    /// built: a list of N aliased sources merged into M mappings (`<<: *list`) costs N once and
    /// its distinct keys per mapping, not N per mapping.
    pub(super) merged_lists: HashMap<usize, Vec<(usize, usize)>>,
    /// Pairs de-duplicated so far: the merge work, which the tests hold to the input's size.
    pub(super) merged_pairs: std::cell::Cell<usize>,
}

impl<'a> Constructor<'a> {
    pub(super) fn node(&self, id: usize) -> Res<&Node<'a>> {
        self.nodes.get(id).ok_or(Rejected)
    }

    pub(super) fn pairs(&self, id: usize) -> Res<&Vec<(usize, usize)>> {
        match &self.node(id)?.body {
            Body::Mapping(pairs) => Ok(pairs),
            _ => Err(Rejected),
        }
    }

    pub(super) fn pairs_mut(&mut self, id: usize) -> Res<&mut Vec<(usize, usize)>> {
        match self.nodes.get_mut(id).map(|node| &mut node.body) {
            Some(Body::Mapping(pairs)) => Ok(pairs),
            _ => Err(Rejected),
        }
    }

    /// Constructs every node PyYAML's `construct_document` would, failing where it raises.
    /// The order differs from PyYAML's, which only matters for which error comes first.
    pub(super) fn construct_document(&mut self, root: usize) -> Res<()> {
        let mut constructed = vec![false; self.nodes.len()];
        let mut pending = vec![root];
        while let Some(id) = pending.pop() {
            match constructed.get_mut(id) {
                Some(done) if !*done => *done = true,
                Some(_) => continue,
                None => return Err(Rejected),
            }
            let node = self.node(id)?;
            match (node.tag, &node.body) {
                (Tag::Seq, Body::Sequence(items)) => pending.extend(items.iter().copied()),
                (Tag::Omap | Tag::Pairs, Body::Sequence(items)) => {
                    // Each item must be a one-pair mapping; its key and value are constructed (the
                    // key need not be hashable), the item mapping itself is not.
                    for &item in items {
                        match &self.node(item)?.body {
                            Body::Mapping(pairs) if pairs.len() == 1 => {
                                pending.extend(pairs.iter().flat_map(|&(key, value)| [key, value]));
                            }
                            _ => return Err(Rejected),
                        }
                    }
                }
                (Tag::Map | Tag::Set, Body::Mapping(_)) => {
                    self.flatten_mapping(id, 0, &mut pending)?;
                    for &(key, value) in self.pairs(id)? {
                        self.check_key(key)?;
                        if let Some(done) = constructed.get_mut(key) {
                            *done = true;
                        }
                        pending.push(value);
                    }
                }
                (Tag::Str | Tag::Null, _) => {
                    self.scalar_text(id)?;
                }
                (Tag::Int, Body::Scalar(text)) if is_plain_small_decimal(text) => {}
                (Tag::Bool | Tag::Int | Tag::Float | Tag::Timestamp | Tag::Binary, _) => {
                    self.construct_scalar(id)?;
                }
                _ => return Err(Rejected), // wrong node kind for the tag, or no constructor
            }
        }
        Ok(())
    }

    /// `construct_key` for validation only: strings and nulls need no copy of their text.
    pub(super) fn check_key(&self, id: usize) -> Res<()> {
        match self.node(id)?.tag {
            Tag::Str | Tag::Null => self.scalar_text(id).map(|_| ()),
            _ => self.construct_key(id).map(|_| ()),
        }
    }

    /// A mapping key: must construct to something hashable, i.e. a scalar.
    pub(super) fn construct_key(&self, id: usize) -> Res<PyScalar> {
        match self.node(id)?.tag {
            Tag::Str
            | Tag::Null
            | Tag::Bool
            | Tag::Int
            | Tag::Float
            | Tag::Timestamp
            | Tag::Binary => self.construct_scalar(id),
            _ => Err(Rejected), // unhashable (list, dict, set) or not constructible
        }
    }

    /// SafeConstructor's `flatten_mapping`: `<<` pairs are replaced by the merged mappings' pairs,
    /// placed first (a later merge source wins over an earlier one, own pairs win over all), and
    /// `=` keys become strings. Node lists are mutated in place as in PyYAML. Unlike PyYAML, the
    /// result keeps only one pair per distinct key (first key, last value: what a dict keeps),
    /// so chains of aliased merges cannot grow exponentially; the dropped pairs still get their
    /// keys checked and their values queued for construction, as PyYAML constructs them all.
    pub(super) fn flatten_mapping(
        &mut self,
        id: usize,
        depth: usize,
        pending: &mut Vec<usize>,
    ) -> Res<()> {
        if depth > MAX_FLATTEN_DEPTH {
            return Err(Rejected);
        }
        let mut merge: Vec<(usize, usize)> = Vec::new();
        let mut index = 0;
        while let Some(&(key, value)) = self.pairs(id)?.get(index) {
            match self.node(key)?.tag {
                Tag::Merge => {
                    self.pairs_mut(id)?.remove(index);
                    match &self.node(value)?.body {
                        Body::Mapping(_) => {
                            self.flatten_mapping(value, depth + 1, pending)?;
                            merge.extend(self.pairs(value)?.iter().copied());
                        }
                        Body::Sequence(items) => {
                            if let Some(merged) = self.merged_lists.get(&value) {
                                merge.extend(merged.iter().copied());
                                continue;
                            }
                            let mut sources = Vec::with_capacity(items.len());
                            for source in items.clone() {
                                if !matches!(self.node(source)?.body, Body::Mapping(_)) {
                                    return Err(Rejected);
                                }
                                self.flatten_mapping(source, depth + 1, pending)?;
                                sources.push(self.pairs(source)?.clone());
                            }
                            let mut list = Vec::new();
                            for source_pairs in sources.into_iter().rev() {
                                list.extend(source_pairs);
                            }
                            // Every pair's value is constructed (as PyYAML constructs them all),
                            // then the list keeps one pair per key, as the merging mapping does:
                            // de-duplicating twice keeps the same first keys and last values.
                            pending.extend(list.iter().map(|&(_, value)| value));
                            let list = self.deduplicated(list)?;
                            merge.extend(list.iter().copied());
                            self.merged_lists.insert(value, list);
                        }
                        Body::Scalar(_) => return Err(Rejected),
                    }
                }
                Tag::Value => {
                    if let Some(node) = self.nodes.get_mut(key) {
                        node.tag = Tag::Str;
                    }
                    index += 1;
                }
                _ => index += 1,
            }
        }
        if merge.is_empty() {
            return Ok(());
        }
        let own = std::mem::take(self.pairs_mut(id)?);
        merge.extend(own);
        // Every value of the combined list gets constructed in PyYAML, including the ones a
        // later duplicate key overrides (and those are about to be dropped here).
        pending.extend(merge.iter().map(|&(_, value)| value));
        *self.pairs_mut(id)? = self.deduplicated(merge)?;
        Ok(())
    }

    /// One pair per distinct key (Python key equality): the first key, in its place, with the
    /// last value, as a dict built from the pairs keeps them.
    fn deduplicated(&self, merge: Vec<(usize, usize)>) -> Res<Vec<(usize, usize)>> {
        self.merged_pairs.set(self.merged_pairs.get() + merge.len());
        let mut position_by_key: HashMap<KeyIdentity, usize> = HashMap::new();
        let mut deduplicated: Vec<(usize, usize)> = Vec::new();
        for (key, value) in merge {
            let identity = self.construct_key(key)?.into_identity();
            match position_by_key.get(&identity) {
                Some(&position) => {
                    if let Some(pair) = deduplicated.get_mut(position) {
                        pair.1 = value;
                    }
                }
                None => {
                    position_by_key.insert(identity, deduplicated.len());
                    deduplicated.push((key, value));
                }
            }
        }
        Ok(deduplicated)
    }

    /// SafeConstructor's `construct_scalar`: a scalar's text, or (a quirk) the value of the first
    /// `=` key of a mapping node.
    pub(super) fn scalar_text(&self, id: usize) -> Res<&str> {
        let mut current = id;
        // A chain of `=` mappings longer than the node count is a cycle: RecursionError in Python.
        for _ in 0..=self.nodes.len() {
            match &self.node(current)?.body {
                Body::Scalar(text) => return Ok(text),
                Body::Mapping(pairs) => {
                    let mut next = None;
                    for &(key, value) in pairs {
                        if self.node(key)?.tag == Tag::Value {
                            next = Some(value);
                            break;
                        }
                    }
                    current = next.ok_or(Rejected)?;
                }
                Body::Sequence(_) => return Err(Rejected),
            }
        }
        Err(Rejected)
    }

    pub(super) fn construct_scalar(&self, id: usize) -> Res<PyScalar> {
        let node = self.node(id)?;
        let text = self.scalar_text(id)?;
        match node.tag {
            Tag::Str => Ok(PyScalar::Str(text.to_string())),
            Tag::Null => Ok(PyScalar::None),
            // ASCII lowering is Python's `lower()` here: no non-ASCII char lowers into these words.
            Tag::Bool => match text.to_ascii_lowercase().as_str() {
                "yes" | "true" | "on" => Ok(PyScalar::Bool(true)),
                "no" | "false" | "off" => Ok(PyScalar::Bool(false)),
                _ => Err(Rejected),
            },
            Tag::Int => construct_yaml_int(text).map(PyScalar::Int),
            Tag::Float => construct_yaml_float(text, id),
            Tag::Binary => decode_base64(text).map(PyScalar::Bytes),
            Tag::Timestamp => match &node.body {
                // The regex runs on `node.value`, which is a list for a mapping node: TypeError.
                Body::Scalar(value) => construct_yaml_timestamp(value),
                _ => Err(Rejected),
            },
            _ => Err(Rejected),
        }
    }

    pub(super) fn top_level(&self, root: usize) -> Res<TopLevel> {
        let node = self.node(root)?;
        match (node.tag, &node.body) {
            (Tag::Map, Body::Mapping(pairs)) => {
                // Only the first listed keys are shown, so a later key matters only when it equals
                // one of them (its value then replaces theirs): no map over every key is needed.
                let mut entries: Vec<(PyScalar, &'static str)> = Vec::new();
                let mut identities: Vec<KeyIdentity> = Vec::new();
                // The listed string keys again, borrowed: most keys are strings, and comparing
                // them needs no constructed value.
                let mut listed_texts: Vec<(&str, usize)> = Vec::new();
                for &(key, value) in pairs {
                    let value_type = type_name(self.node(value)?.tag);
                    if self.node(key)?.tag == Tag::Str {
                        let text = self.scalar_text(key)?;
                        match listed_texts.iter().find(|(listed, _)| *listed == text) {
                            Some(&(_, position)) => {
                                if let Some(entry) = entries.get_mut(position) {
                                    entry.1 = value_type;
                                }
                            }
                            None if entries.len() < MAX_LISTED_KEYS => {
                                listed_texts.push((text, entries.len()));
                                identities.push(KeyIdentity::Text(text.to_string()));
                                entries.push((PyScalar::Str(text.to_string()), value_type));
                            }
                            None => {}
                        }
                        continue;
                    }
                    let key = self.construct_key(key)?;
                    let identity = key.clone().into_identity();
                    match identities.iter().position(|known| *known == identity) {
                        Some(position) => {
                            if let Some(entry) = entries.get_mut(position) {
                                entry.1 = value_type;
                            }
                        }
                        None if entries.len() < MAX_LISTED_KEYS => {
                            identities.push(identity);
                            entries.push((key, value_type));
                        }
                        None => {}
                    }
                }
                Ok(TopLevel::Mapping(entries))
            }
            (Tag::Seq | Tag::Omap | Tag::Pairs, Body::Sequence(items)) => {
                Ok(TopLevel::Sequence(items.len()))
            }
            _ => Err(Rejected), // a scalar, a set, or a `=` mapping read as a scalar
        }
    }
}

/// A decimal int `construct_yaml_int` always accepts (`0`, or an optional sign and at most 18
/// digits without a leading zero or `_`): validating it needs no big-int arithmetic.
pub(super) fn is_plain_small_decimal(text: &str) -> bool {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    text == "0"
        || (!digits.is_empty()
            && digits.len() <= 18
            && !digits.starts_with('0')
            && digits.bytes().all(|byte| byte.is_ascii_digit()))
}

/// SafeConstructor's `construct_yaml_int`.
pub(super) fn construct_yaml_int(text: &str) -> Res<BigInt> {
    let value = text.replace('_', "");
    let (negative, value) = split_sign(&value)?;
    let magnitude = if value == "0" {
        BigInt::zero()
    } else if let Some(digits) = value.strip_prefix("0b") {
        python_int(digits, 2)?
    } else if let Some(digits) = value.strip_prefix("0x") {
        python_int(digits, 16)?
    } else if value.starts_with('0') {
        python_int(value, 8)?
    } else if value.contains(':') {
        // Sexagesimal: each part is a Python int(); i128 covers any realistic value.
        let mut total: i128 = 0;
        for part in value.split(':') {
            let part = python_int(part, 10)?.to_i128().ok_or(Rejected)?;
            total = total
                .checked_mul(60)
                .and_then(|t| t.checked_add(part))
                .ok_or(Rejected)?;
        }
        BigInt::from_i128(total)
    } else {
        python_int(value, 10)?
    };
    Ok(if negative {
        magnitude.negated()
    } else {
        magnitude
    })
}

/// The `sign` handling shared by the int and float constructors (`value[0]` of "" raises).
pub(super) fn split_sign(value: &str) -> Res<(bool, &str)> {
    match value.chars().next() {
        None => Err(Rejected),
        Some('-') => Ok((true, value.get(1..).unwrap_or(""))),
        Some('+') => Ok((false, value.get(1..).unwrap_or(""))),
        Some(_) => Ok((false, value)),
    }
}

/// Python's `int(text, base)` for bases 2, 8, 10 and 16 (ASCII digits; `_` is already removed).
pub(super) fn python_int(text: &str, base: u32) -> Res<BigInt> {
    let text = py_strip(text);
    let (negative, digits) = match text.chars().next() {
        Some('-') => (true, text.get(1..).unwrap_or("")),
        Some('+') => (false, text.get(1..).unwrap_or("")),
        _ => (false, text),
    };
    let prefix = match base {
        2 => Some(["0b", "0B"]),
        8 => Some(["0o", "0O"]),
        16 => Some(["0x", "0X"]),
        _ => None,
    };
    let digits = prefix
        .and_then(|prefixes| {
            prefixes
                .iter()
                .find_map(|prefix| digits.strip_prefix(prefix))
        })
        .unwrap_or(digits);
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(base)) {
        return Err(Rejected);
    }
    let magnitude = match base {
        10 => {
            if digits.len() > INT_MAX_STR_DIGITS {
                return Err(Rejected);
            }
            BigInt::from_decimal_digits(digits)
        }
        _ => BigInt::from_power_of_two_digits(digits, base),
    };
    Ok(if negative {
        magnitude.negated()
    } else {
        magnitude
    })
}

/// SafeConstructor's `construct_yaml_float`.
pub(super) fn construct_yaml_float(text: &str, node: usize) -> Res<PyScalar> {
    // ASCII lowering suffices: a non-ASCII char fails `python_float` either way, lowered or not
    // (Python's `lower()` of U+0130 and U+212A gives ASCII letters no float accepts).
    let value = text.replace('_', "").to_ascii_lowercase();
    let (negative, value) = split_sign(&value)?;
    let sign = if negative { -1.0 } else { 1.0 };
    if value == ".inf" {
        return Ok(PyScalar::Float(sign * f64::INFINITY, NanObject::Node(node)));
    }
    if value == ".nan" {
        return Ok(PyScalar::Float(f64::NAN, NanObject::Shared));
    }
    let magnitude = if value.contains(':') {
        let mut parts = Vec::new();
        for part in value.split(':') {
            parts.push(python_float(part)?);
        }
        let mut total = 0.0;
        let mut base = 1.0;
        for part in parts.iter().rev() {
            total += part * base;
            base *= 60.0;
        }
        total
    } else {
        python_float(value)?
    };
    Ok(PyScalar::Float(sign * magnitude, NanObject::Node(node)))
}

/// Python's `float(text)`: surrounding whitespace allowed, `inf`/`nan`/`infinity` in any case.
pub(super) fn python_float(text: &str) -> Res<f64> {
    let text = py_strip(text);
    // Rust also accepts these forms; anything with a letter other than e/inf/nan fails in both.
    text.parse::<f64>().map_err(|_| Rejected)
}

/// SafeConstructor's `construct_yaml_timestamp`, with Python's date/datetime range checks.
pub(super) fn construct_yaml_timestamp(value: &str) -> Res<PyScalar> {
    let parts = py_dollar_candidates(value)
        .find_map(timestamp_parts)
        .ok_or(Rejected)?;
    let number = |digits: &str| -> Res<u32> { digits.parse().map_err(|_| Rejected) };
    let year = i64::from(number(parts.year)?);
    let month = number(parts.month)?;
    let day = number(parts.day)?;
    if !(1..=9999).contains(&year)
        || !(1..=12).contains(&month)
        || day < 1
        || day > days_in_month(year, month)
    {
        return Err(Rejected);
    }
    let date = Date { year, month, day };
    let Some(time) = parts.time else {
        return Ok(PyScalar::Date(date));
    };
    let hour = number(time.hour)?;
    let minute = number(time.minute)?;
    let second = number(time.second)?;
    if hour > 23 || minute > 59 || second > 59 {
        return Err(Rejected);
    }
    let microsecond = match time.fraction {
        Some(fraction) if !fraction.is_empty() => {
            let digits: String = fraction
                .chars()
                .chain(std::iter::repeat('0'))
                .take(6)
                .collect();
            digits.parse().map_err(|_| Rejected)?
        }
        _ => 0,
    };
    let offset_minutes = match time.tz {
        Some((Some(sign), tz_hour, tz_minute)) => {
            let offset =
                i64::from(number(tz_hour)?) * 60 + i64::from(tz_minute.map_or(Ok(0), number)?);
            // datetime.timezone needs -24h < offset < 24h.
            if offset >= 24 * 60 {
                return Err(Rejected);
            }
            Some(if sign == b'-' { -offset } else { offset })
        }
        Some((None, _, _)) => Some(0),
        None => None,
    };
    Ok(PyScalar::DateTime(DateTime {
        date,
        hour,
        minute,
        second,
        microsecond,
        offset_minutes,
    }))
}

pub(super) fn days_in_month(year: i64, month: u32) -> u32 {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 (proleptic Gregorian), for comparing aware datetimes by instant.
pub(super) fn days_from_civil(date: Date) -> i64 {
    let year = if date.month <= 2 {
        date.year - 1
    } else {
        date.year
    };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month = i64::from(date.month);
    let day_of_year =
        (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(date.day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

pub(super) fn format_date(date: &Date) -> String {
    format!("{:04}-{:02}-{:02}", date.year, date.month, date.day)
}

/// Python's `str(datetime)`: `YYYY-MM-DD HH:MM:SS[.ffffff][+HH:MM]`.
pub(super) fn format_datetime(datetime: &DateTime) -> String {
    let mut text = format!(
        "{} {:02}:{:02}:{:02}",
        format_date(&datetime.date),
        datetime.hour,
        datetime.minute,
        datetime.second
    );
    if datetime.microsecond != 0 {
        text.push_str(&format!(".{:06}", datetime.microsecond));
    }
    if let Some(offset) = datetime.offset_minutes {
        let sign = if offset < 0 { '-' } else { '+' };
        text.push_str(&format!(
            "{sign}{:02}:{:02}",
            offset.abs() / 60,
            offset.abs() % 60
        ));
    }
    text
}

/// `base64.decodebytes` (binascii's non-strict decoder): other chars are skipped, a pad ends the
/// data once a quad is complete, a dangling partial quad is an error. Non-ASCII text is an error.
pub(super) fn decode_base64(text: &str) -> Res<Vec<u8>> {
    if !text.is_ascii() {
        return Err(Rejected);
    }
    let mut output = Vec::new();
    let mut quad_position = 0;
    let mut pads = 0;
    let mut left: u32 = 0;
    for byte in text.bytes() {
        if byte == b'=' {
            if quad_position >= 2 {
                pads += 1;
                if quad_position + pads >= 4 {
                    return Ok(output);
                }
            }
            continue;
        }
        let sextet = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => continue,
        };
        let sextet = u32::from(sextet);
        match quad_position {
            0 => {
                left = sextet;
                quad_position = 1;
            }
            1 => {
                output.push(((left << 2) | (sextet >> 4)) as u8);
                left = sextet & 0x0f;
                quad_position = 2;
            }
            2 => {
                output.push(((left << 4) | (sextet >> 2)) as u8);
                left = sextet & 0x03;
                quad_position = 3;
            }
            _ => {
                output.push(((left << 6) | sextet) as u8);
                left = 0;
                quad_position = 0;
            }
        }
    }
    if quad_position == 0 {
        Ok(output)
    } else {
        Err(Rejected)
    }
}
