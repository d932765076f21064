//! The synopsis of what the two passes found.

use super::*;

/// `key=value` pairs of a map's scalar entries and the sizes of its containers.
pub(super) fn pairs(entries: &[(Cow<'_, str>, Value<'_>)]) -> Vec<String> {
    entries
        .iter()
        .map(|(key, value)| match value {
            Value::Map(_, n) => format!("{key}{{{n}}}"),
            Value::List(_, n) => format!("{key}[{n}]"),
            scalar => format!(
                "{key}={}",
                shown(&scalar.scalar_text().unwrap_or_default(), VALUE_WIDTH)
            ),
        })
        .collect()
}

/// How much a leaf says about its document: names and titles, then ids and versions, then
/// anything short, then URLs and long prose.
pub(super) fn field_rank(name: &str, value: &str) -> usize {
    let name = local(name).to_ascii_lowercase();
    if LABELS.contains(&name.as_str()) {
        0
    } else if name.ends_with("id") || name.ends_with("name") || name.contains("version") {
        1
    } else if value.starts_with("http") || value.chars().count() > VALUE_WIDTH as usize {
        3
    } else {
        2
    }
}

pub(super) fn render(survey: &Survey<'_>, plan: &Plan, values: Values<'_>) -> Synopsis {
    let paths = &survey.paths;
    let mut synopsis = Synopsis::new("xml", "XML output");
    // The document's own leaves, most telling first; its title or name goes in the summary.
    let mut leaves: Vec<(&str, String)> = values
        .fields
        .iter()
        .filter_map(|(name, value)| Some((*name, value.scalar_text()?.into_owned())))
        .filter(|(_, value)| !value.is_empty())
        .collect();
    stable_sort_by(&mut leaves, |a, b| {
        field_rank(a.0, &a.1).cmp(&field_rank(b.0, &b.1))
    });
    let title = leaves
        .iter()
        .position(|(name, _)| matches!(local(name).to_ascii_lowercase().as_str(), "title" | "name"))
        .map(|at| leaves.remove(at));
    let root = paths.list[survey.root].name;
    let root_attributes: Vec<String> = attributes(survey.root_attributes)
        .filter(|(key, value)| !is_plumbing(key) && !is_measurement(key, value))
        .take(ROOT_ATTRIBUTES)
        .map(|(key, value)| format!("{key}={}", shown(&decode(value), 40)))
        .collect();
    let mut summary = format!("XML {root}");
    if !root_attributes.is_empty() {
        summary.push_str(&format!(" ({})", root_attributes.join(", ")));
    }
    if let Some((_, value)) = &title {
        summary.push_str(&format!(": {}", shown(value, VALUE_WIDTH)));
    }
    summary.push('.');
    synopsis.summary.push(summary);

    let mut lines: Vec<String> = Vec::new();
    // Problem records first, rarest kind first: their names, then (later) their messages.
    let mut kinds = survey.flag_counts.clone();
    stable_sort_by(&mut kinds, |a, b| a.1.cmp(&b.1));
    if !kinds.is_empty() {
        let element = survey
            .flagged
            .iter()
            .find_map(|f| f.path)
            .map(|p| paths.display(p));
        let groups: Vec<String> = kinds
            .iter()
            .map(|(kind, n)| {
                let names: Vec<&str> = survey
                    .flagged
                    .iter()
                    .filter(|f| &f.kind == kind && !f.label.is_empty())
                    .map(|f| f.label.as_str())
                    .collect();
                if names.is_empty() {
                    format!("{kind} ({n})")
                } else {
                    format!("{kind} ({n}): {}", names.join(", "))
                }
            })
            .collect();
        let prefix = element.map_or(String::new(), |name| format!("{name} "));
        lines.push(format!("{prefix}{}", groups.join("; ")));
    }
    let mut later: Vec<String> = Vec::new();
    for (index, (&path, (sample, last))) in plan.records.iter().zip(&values.records).enumerate() {
        // The fields line names the path; the lines after it the element (`item first: ...`).
        let element = paths.list[path].name;
        let total = paths.list[path].count;
        let sample_refs: Vec<&Value<'_>> = sample.iter().collect();
        let last = last.as_ref().or(sample.last());
        let (fields, details) = untyped_record_lines(&sample_refs);
        let identity = |value: Option<&Value<'_>>, which: &str| {
            let value = value?;
            let id = record_identity(value, IDENTITY_WIDTH).or_else(|| fallback_identity(value))?;
            Some(format!("{which}: {id}"))
        };
        let sampled = if sample.len() < total {
            format!(", fields of the first {}", sample.len())
        } else {
            String::new()
        };
        let fields = fields.concat();
        let mut these = vec![format!(
            "{} ({total}{sampled}): {fields}",
            paths.display(path)
        )];
        let mut own = Vec::new();
        own.extend(identity(sample.first(), "first"));
        if total > 1 {
            own.extend(identity(last, "last"));
        }
        // Values every record shares (`all: ...`) come with the identities, the value counts
        // and rare states after the document's fields.
        let (shared, minor): (Vec<String>, Vec<String>) = details
            .into_iter()
            .partition(|line| line.starts_with("all: "));
        own.extend(shared);
        own.extend(ids_line(sample));
        // The first list's lines follow its fields line; the second's name their element.
        let named = |line: String| {
            if index == 0 {
                line
            } else {
                format!("{element} {line}")
            }
        };
        these.extend(own.into_iter().map(named));
        let minor = minor.into_iter().map(named);
        if index == 0 {
            lines.extend(these);
            later.extend(minor);
        } else {
            later.extend(these);
            later.extend(minor);
        }
    }
    // The document's own fields: its leaves on one line, then each container of fields.
    let body = paths.list[plan.body].name;
    if !leaves.is_empty() {
        let shown_leaves: Vec<String> = leaves
            .iter()
            .map(|(name, value)| format!("{name}={}", shown(value, VALUE_WIDTH)))
            .collect();
        lines.push(format!(
            "{body}: {}",
            joined_within(&shown_leaves, LINE_WIDTH)
        ));
    }
    for (name, value) in &values.fields {
        if let Value::Map(entries, _) = value {
            if entries.iter().any(|(_, v)| v.is_scalar()) {
                lines.push(format!(
                    "{name}: {}",
                    joined_within(&pairs(entries), LINE_WIDTH)
                ));
            }
        }
    }
    lines.extend(later);
    let messages: Vec<String> = survey
        .flagged
        .iter()
        .filter(|f| !f.message.is_empty())
        .map(|f| {
            if f.label.is_empty() {
                f.message.clone()
            } else {
                format!("{}: {}", f.label, f.message)
            }
        })
        .collect();
    if !messages.is_empty() {
        lines.push(format!("messages: {}", messages.join("; ")));
    }
    let children: Vec<String> = paths
        .children(survey.root)
        .map(|child| match paths.list[child].count {
            1 => paths.list[child].name.to_string(),
            n => format!("{} ({n})", paths.list[child].name),
        })
        .collect();
    if !children.is_empty() {
        lines.push(format!(
            "{root} children: {}",
            joined_within(&children, LINE_WIDTH)
        ));
    }
    // Every line clipped, and the lines past a total dropped: whatever the document, the
    // synopsis stays small (the stub's own bound clips it further).
    let mut total = 0;
    for line in lines {
        total += line.len().min(MAX_LINE_CHARS);
        if total > MAX_SYNOPSIS_CHARS {
            break;
        }
        synopsis.structure.push(clip(&line, MAX_LINE_CHARS as i64));
    }
    synopsis.summary = synopsis
        .summary
        .iter()
        .map(|line| clip(line, MAX_LINE_CHARS as i64))
        .collect();
    synopsis
}

/// A record without a name, title or id field: its first two scalar fields.
pub(super) fn fallback_identity(record: &Value<'_>) -> Option<String> {
    let Value::Map(entries, _) = record else {
        return record.scalar_text().map(|text| shown(&text, VALUE_WIDTH));
    };
    let parts: Vec<String> = entries
        .iter()
        .filter_map(|(key, value)| {
            Some(format!(
                "{key}={}",
                shown(&value.scalar_text()?, IDENTITY_WIDTH)
            ))
        })
        .take(2)
        .collect();
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// The records' ids (their `id`, else `name` or `key`, whichever the first record has), each
/// once, in document order.
pub(super) fn ids_line(records: &[Value<'_>]) -> Option<String> {
    let field = ["id", "name", "key"].into_iter().find(|field| {
        records
            .first()
            .and_then(|r| r.get(field))
            .is_some_and(Value::is_scalar)
    })?;
    let mut ids: Vec<String> = Vec::new();
    for record in records {
        if let Some(id) = record.get(field).and_then(Value::scalar_text) {
            let id = shown(&id, 40);
            if !ids.contains(&id) && ids.len() < 64 {
                ids.push(id);
            }
        }
    }
    (ids.len() > 1).then(|| format!("{field}s: {}", joined_within(&ids, LINE_WIDTH)))
}
