//! Tables a database client draws with `|` between columns: psql's aligned format (` a | b `
//! under a `---+---` rule, `(N rows)` after), mysql's and sqlite's box format (`+---+---+`
//! borders around `| a | b |` lines, `N rows in set` after). With its borders blanked such a
//! table is a column-aligned one (`text_table`), described as such, with the client's own row
//! count. Claimed when a border or rule line and `|` lines are among the first lines.

use super::analyzer::{Analyzer, Claim, Family};
use super::text_helpers::lines;
use super::text_table::{Layout, Table};
use super::Input;
use crate::kinds::Synopsis;

/// Non-blank lines read to claim an output.
const CLAIM_LINES: usize = 16;

/// A psql rule (`----+------`) or a box border (`+----+------+`).
fn is_border(line: &str) -> bool {
    let line = line.trim();
    line.len() >= 3
        && line.bytes().all(|b| b == b'-' || b == b'+')
        && (line.contains("-+-") || line.starts_with("+-"))
}

/// The row count a client prints after its table: psql's `(3 rows)`, mysql's `3 rows in set`.
fn footer_rows(line: &str) -> Option<(&'static str, &str)> {
    let line = line.trim();
    if let Some(inner) = line.strip_prefix('(').and_then(|l| l.strip_suffix(')')) {
        let (count, word) = inner.split_once(' ')?;
        if count.bytes().all(|b| b.is_ascii_digit()) && matches!(word, "rows" | "row") {
            return Some(("psql", count));
        }
    }
    let (count, rest) = line.split_once(' ')?;
    if count.bytes().all(|b| b.is_ascii_digit())
        && (rest.starts_with("rows in set") || rest.starts_with("row in set"))
    {
        return Some(("mysql", count));
    }
    None
}

pub struct PipeTable;

impl Analyzer for PipeTable {
    fn name(&self) -> &'static str {
        "pipe_table"
    }
    fn family(&self) -> Family {
        Family::Text
    }
    fn claim(&self, input: &Input<'_>) -> Option<Claim> {
        if input.reference_kind != "text" {
            return None;
        }
        let (mut border, mut piped) = (false, 0);
        for line in lines(input.output)
            .filter(|line| !line.trim().is_empty())
            .take(CLAIM_LINES)
        {
            if is_border(line) {
                border = true;
            } else if line.contains(" | ") || line.trim_start().starts_with("| ") {
                piped += 1;
            }
        }
        (border && piped >= 3).then_some(())?;
        Claim::evidence("a +/- border and | columns")
    }
    fn synopsis(&self, input: &Input<'_>, _: &Claim) -> Option<Synopsis> {
        describe(input.output)
    }
}

/// Column starts (chars) from the rule under the header: each column starts after a `+`.
fn starts_of(rule: &str) -> Vec<usize> {
    let rule = rule.trim_end();
    let mut starts = vec![0];
    for (at, byte) in rule.bytes().enumerate() {
        if byte == b'+' && at > 0 && at + 1 < rule.len() {
            starts.push(at + 1);
        }
    }
    starts
}

fn describe(output: &str) -> Option<Synopsis> {
    let all: Vec<&str> = lines(output)
        .map(|line| line.trim_end_matches('\r'))
        .collect();
    // The header: the `|` line right before the first border that follows one.
    let rule_at = (1..all.len()).find(|&at| is_border(all[at]) && all[at - 1].contains('|'))?;
    let starts = starts_of(all[rule_at]);
    if starts.len() < 2 {
        return None;
    }
    let mut footer = None;
    let mut blanked = all[rule_at - 1].replace('|', " ");
    let mut ends = vec![blanked.len()];
    for line in &all[rule_at + 1..] {
        if let Some(found) = footer_rows(line) {
            footer = Some(found);
            break;
        }
        if line.trim().is_empty() {
            break;
        }
        if is_border(line) {
            continue;
        }
        blanked.push('\n');
        blanked.push_str(&line.replace('|', " "));
        ends.push(blanked.len());
    }
    let mut rows: Vec<&str> = Vec::with_capacity(ends.len());
    let mut from = 0;
    for end in ends {
        rows.push(&blanked[from..end]);
        from = end + 1;
    }
    let header = rows.remove(0);
    let layout = Layout::Positions(starts);
    let mut names: Vec<String> = Vec::new();
    let mut fields = Vec::new();
    super::text_table::cut_line(header, &layout, &mut fields);
    for (index, name) in fields.iter().enumerate() {
        names.push(if name.is_empty() {
            format!("column_{}", index + 1)
        } else {
            (*name).to_string()
        });
    }
    if rows.is_empty() {
        return None;
    }
    let mut synopsis = super::text_table::describe(Table {
        names,
        layout,
        rows,
        listing: false,
    })?;
    let line = match footer {
        Some((client, count)) => format!("{client} table, {count} rows by its own count."),
        None => "Table drawn with | columns.".to_string(),
    };
    synopsis.summary.insert(0, line);
    Some(synopsis)
}

#[cfg(test)]
mod tests {
    use crate::test_support::synopsis_text as text;

    fn enhanced(output: &str) -> crate::kinds::Synopsis {
        super::super::generate(output, "text/plain", 2_000)
    }

    #[test]
    fn psql_aligned_output_is_a_table_with_its_row_count() {
        let mut out = String::from(
            " id  | customer | status  |  amount\n-----+----------+---------+---------\n",
        );
        for i in 0..40 {
            let status = if i % 10 == 3 { "failed" } else { "paid" };
            out.push_str(&format!(
                " {i:>3} | cust-{i:<3} | {status:<7} | {:>7}.50\n",
                i * 7
            ));
        }
        out.push_str("(40 rows)\n\n");
        let synopsis = enhanced(&out);
        let shown = text(&synopsis);
        assert_eq!(synopsis.kind, "text_table", "{shown}");
        assert!(shown.contains("psql table, 40 rows"), "{shown}");
        assert!(shown.contains("status"), "{shown}");
    }

    #[test]
    fn mysql_box_output_is_a_table_with_its_row_count() {
        let mut out = String::from("+----+------------+--------+\n| id | name       | engine |\n+----+------------+--------+\n");
        for i in 0..12 {
            let engine = if i == 4 { "MyISAM" } else { "InnoDB" };
            out.push_str(&format!("| {i:>2} | table_{i:<4} | {engine:<6} |\n"));
        }
        out.push_str("+----+------------+--------+\n12 rows in set (0.01 sec)\n");
        let synopsis = enhanced(&out);
        let shown = text(&synopsis);
        assert_eq!(synopsis.kind, "text_table", "{shown}");
        assert!(shown.contains("mysql table, 12 rows"), "{shown}");
    }
}
