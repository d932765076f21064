//! Pass 2: the values of the paths the plan chose to describe.

use super::*;

/// An element being turned into a value.
pub(super) struct Building<'a> {
    pub(super) name: &'a str,
    pub(super) entries: Vec<(Cow<'a, str>, Value<'a>)>,
    /// Its text so far: borrowed from the output while it is one piece with no entity.
    pub(super) text: Cow<'a, str>,
}

/// Values of the records of each record list (the first `SAMPLED_RECORDS` and the last) and of
/// the document's fields.
pub(super) struct Values<'a> {
    pub(super) records: Vec<(Vec<Value<'a>>, Option<Value<'a>>)>,
    pub(super) fields: Vec<(&'a str, Value<'a>)>,
}

/// The value of a finished element: a leaf's text (a number when it reads as one), or a map of
/// its attributes and children (with its own text under `#text`).
pub(super) fn finish(building: Building<'_>) -> Value<'_> {
    let text = match building.text {
        Cow::Borrowed(text) => Cow::Borrowed(text.trim()),
        Cow::Owned(text) if text.trim().len() == text.len() => Cow::Owned(text),
        Cow::Owned(text) => Cow::Owned(text.trim().to_string()),
    };
    if building.entries.is_empty() {
        return leaf(text);
    }
    let mut entries = building.entries;
    if !text.is_empty() && entries.len() < MAX_KEYS {
        entries.push((Cow::Borrowed("#text"), leaf(text)));
    }
    let len = entries.len();
    Value::Map(entries, len)
}

pub(super) fn leaf(text: Cow<'_, str>) -> Value<'_> {
    let numeric = !text.is_empty()
        && text.len() < 24
        && text.parse::<f64>().is_ok_and(f64::is_finite)
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'.' | b'e' | b'E' | b'+'));
    if numeric {
        Value::Number(text)
    } else {
        Value::Text(text)
    }
}

/// Adds `value` as the child `name` of `parent`: a second child of the same name makes a list.
pub(super) fn attach<'a>(parent: &mut Building<'a>, name: &'a str, value: Value<'a>) {
    let full = parent.entries.len() >= MAX_KEYS;
    match parent.entries.iter_mut().find(|(key, _)| key == name) {
        Some((_, Value::List(items, len))) => {
            *len += 1;
            if items.len() < MAX_ITEMS {
                items.push(value);
            }
        }
        Some((_, existing)) => {
            let first = std::mem::replace(existing, Value::Null);
            *existing = Value::List(vec![first, value], 2);
        }
        None if !full => parent.entries.push((Cow::Borrowed(name), value)),
        None => {}
    }
}

/// One element being turned into a value (a record or a document field), with the elements
/// open inside it.
pub(super) struct Build<'a> {
    /// The record list it belongs to, or `None` for a document field.
    pub(super) list: Option<usize>,
    pub(super) depth: usize,
    pub(super) open: Vec<Building<'a>>,
    /// Elements opened past `MAX_VALUE_DEPTH` and not closed yet.
    pub(super) skipped: usize,
}

/// The elements being turned into values. Builds nest (a test suite record holds test case
/// records): each event goes to all of them, at most one per planned path on a branch.
#[derive(Default)]
pub(super) struct Builder<'a> {
    pub(super) builds: Vec<Build<'a>>,
}

impl<'a> Builder<'a> {
    /// An element opens; `start` begins a build of it (for record list `Some(i)` or a field).
    pub(super) fn open(
        &mut self,
        start: Option<Option<usize>>,
        name: &'a str,
        raw: &'a str,
        depth: usize,
    ) {
        if let Some(list) = start {
            self.builds.push(Build {
                list,
                depth,
                open: Vec::new(),
                skipped: 0,
            });
        }
        for build in &mut self.builds {
            if build.skipped > 0 || depth.saturating_sub(build.depth) >= MAX_VALUE_DEPTH {
                build.skipped += 1;
                continue;
            }
            let mut entries: Vec<(Cow<'a, str>, Value<'a>)> = Vec::new();
            for (key, value) in attributes(raw).filter(|(key, _)| !is_plumbing(key)) {
                if entries.len() >= MAX_KEYS {
                    break;
                }
                if !entries.iter().any(|(k, _)| k == key) {
                    entries.push((Cow::Borrowed(key), leaf(clipped(decode(value)))));
                }
            }
            build.open.push(Building {
                name,
                entries,
                text: Cow::Borrowed(""),
            });
        }
    }

    pub(super) fn text(&mut self, raw: &'a str, cdata: bool) {
        if self.builds.is_empty() {
            return;
        }
        let piece = if cdata {
            Cow::Borrowed(raw)
        } else {
            decode(raw)
        };
        for build in self.builds.iter_mut().filter(|build| build.skipped == 0) {
            if let Some(top) = build.open.last_mut() {
                append_text(&mut top.text, &piece);
            }
        }
    }

    /// An element closes: the build it completes, if any (its list, name and value).
    pub(super) fn close(&mut self) -> Option<(Option<usize>, &'a str, Value<'a>)> {
        let mut finished = None;
        for build in &mut self.builds {
            if build.skipped > 0 {
                build.skipped -= 1;
            } else if let Some(done) = build.open.pop() {
                let name = done.name;
                let value = finish(done);
                match build.open.last_mut() {
                    Some(parent) => attach(parent, name, value),
                    None => finished = Some((build.list, name, value)),
                }
            }
        }
        self.builds.retain(|build| !build.open.is_empty());
        finished
    }
}

pub(super) fn collect_values<'a>(text: &'a str, survey: &Survey<'a>, plan: &Plan) -> Values<'a> {
    let mut values = Values {
        records: plan.records.iter().map(|_| (Vec::new(), None)).collect(),
        fields: Vec::new(),
    };
    // What each path's elements start: a record of list `i` (`Some(Some(i))`) or a field.
    let mut role: Vec<Option<Option<usize>>> = vec![None; survey.paths.list.len()];
    for (index, &path) in plan.records.iter().enumerate() {
        role[path] = Some(Some(index));
    }
    for &path in &plan.fields {
        role[path] = Some(None);
    }
    // The walk numbers the paths as the survey did (same text, same order, same cap), and stops
    // once every sample is full and every field read.
    let mut paths = Paths::default();
    let mut builder = Builder::default();
    let mut fields_left = plan.fields.len();
    let wanted = |values: &Values<'a>, list: usize| values.records[list].0.len() < SAMPLED_RECORDS;
    walk(text, &mut paths, &mut |event, depth| {
        match event {
            Event::Open {
                path,
                name,
                attributes: raw,
                ..
            } => {
                let start = path
                    .and_then(|path| role.get(path).copied().flatten())
                    .filter(|start| start.is_none_or(|list| wanted(&values, list)));
                builder.open(start, name, raw, depth);
            }
            Event::Text(raw, cdata) => builder.text(raw, cdata),
            Event::Close => match builder.close() {
                Some((Some(list), _, value)) => values.records[list].0.push(value),
                Some((None, name, value)) => {
                    fields_left -= 1;
                    values.fields.push((name, value));
                }
                None => {}
            },
        }
        !builder.builds.is_empty()
            || fields_left > 0
            || (0..plan.records.len()).any(|list| wanted(&values, list))
    });
    // The last record of a list longer than its sample, read where the survey saw it start.
    for (list, &path) in plan.records.iter().enumerate() {
        let info = &survey.paths.list[path];
        if info.count > values.records[list].0.len() {
            values.records[list].1 = element_at(text, info.last_offset);
        }
    }
    for (sample, last) in &mut values.records {
        as_lists_throughout(sample, last);
    }
    values
}

/// The value of the element whose start tag begins at `offset`.
pub(super) fn element_at(text: &str, offset: usize) -> Option<Value<'_>> {
    let mut builder = Builder::default();
    let mut value = None;
    walk(
        text.get(offset..)?,
        &mut Paths::default(),
        &mut |event, depth| {
            match event {
                Event::Open {
                    name,
                    attributes: raw,
                    ..
                } => builder.open((depth == 0).then_some(None), name, raw, depth),
                Event::Text(raw, cdata) => builder.text(raw, cdata),
                Event::Close => value = builder.close().map(|(_, _, value)| value),
            }
            value.is_none()
        },
    );
    value
}

/// A child that some records repeat is a list in every record (one `category` and three are
/// the same field), so its values are counted as one field.
pub(super) fn as_lists_throughout<'a>(sample: &mut [Value<'a>], last: &mut Option<Value<'a>>) {
    let mut repeated: Vec<String> = Vec::new();
    for record in sample.iter().chain(last.iter()) {
        if let Value::Map(entries, _) = record {
            for (key, value) in entries {
                if matches!(value, Value::List(..))
                    && repeated.len() < MAX_KEYS
                    && !repeated.iter().any(|r| r == key)
                {
                    repeated.push(key.to_string());
                }
            }
        }
    }
    for record in sample.iter_mut().chain(last.iter_mut()) {
        if let Value::Map(entries, _) = record {
            for (key, value) in entries.iter_mut() {
                if !matches!(value, Value::List(..)) && repeated.iter().any(|r| r == key) {
                    let single = std::mem::replace(value, Value::Null);
                    *value = Value::List(vec![single], 1);
                }
            }
        }
    }
}

/// The first `end` bytes of `text` (a char boundary), borrowed when `text` is.
pub(super) fn prefix<'a>(text: &Cow<'a, str>, end: usize) -> Cow<'a, str> {
    match text {
        Cow::Borrowed(text) => Cow::Borrowed(&text[..end]),
        Cow::Owned(text) => Cow::Owned(text[..end].to_string()),
    }
}

/// `text` cut to at most `MAX_TEXT` bytes at a char boundary.
pub(super) fn clipped(text: Cow<'_, str>) -> Cow<'_, str> {
    let mut end = text.len().min(MAX_TEXT);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    if end == text.len() {
        text
    } else {
        prefix(&text, end)
    }
}

/// Adds a piece of an element's text, up to `MAX_TEXT` bytes (whitespace-only pieces between
/// children become one space). A first piece is kept as it is (borrowed from the output when it
/// is), later ones are copied after it.
#[allow(
    clippy::ptr_arg,
    reason = "a first piece borrowed from the output stays borrowed: `prefix` keeps the Cow"
)]
pub(super) fn append_text<'a>(text: &mut Cow<'a, str>, piece: &Cow<'a, str>) {
    if piece.trim().is_empty() {
        if !text.is_empty() && !text.ends_with(' ') && text.len() < MAX_TEXT {
            text.to_mut().push(' ');
        }
        return;
    }
    let mut end = piece.len().min(MAX_TEXT.saturating_sub(text.len()));
    while !piece.is_char_boundary(end) {
        end -= 1;
    }
    if text.is_empty() {
        *text = prefix(piece, end);
    } else {
        text.to_mut().push_str(&piece[..end]);
    }
}
