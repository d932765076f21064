use super::*;

fn entry(id: &str, tool: &str, at: f64) -> Entry {
    serde_json::json!({"toolResultId": id, "toolName": tool, "createdAtMs": at,
        "originalChars": 10, "storedBytes": 100})
    .as_object()
    .cloned()
    .expect("an object")
}

/// A store of pages: applies changes as a host would, answering every `need` from what it holds
/// and counting the pages each call read.
#[derive(Default)]
struct Host {
    index: Option<Index>,
    stored: BTreeMap<String, String>,
    generation: u32,
}

impl Host {
    fn hand<T>(&self, mut call: impl FnMut(&Pages) -> Step<T>) -> (T, usize) {
        let mut given = Pages::new();
        loop {
            match call(&given) {
                Step::Done(done) => return (done, given.len()),
                Step::Need { need } => {
                    assert!(!need.is_empty(), "a need names pages");
                    for name in need {
                        let text = self.stored.get(&name).expect("a page the index names");
                        let entries = read_page(&name, text).expect("a page that reads");
                        assert!(given.insert(name, entries).is_none(), "asked twice");
                    }
                }
            }
        }
    }

    fn change(&mut self, added: Vec<Entry>, removed: &[&str]) -> usize {
        let removed: Vec<String> = removed.iter().map(|id| id.to_string()).collect();
        self.generation += 1;
        let generation = format!("g{}", self.generation);
        let index = self.index.clone();
        let (written, read) = self.hand(|pages| {
            apply(index.clone(), &generation, pages, added.clone(), &removed).expect("applies")
        });
        for name in &written.remove {
            self.stored.remove(name);
        }
        self.stored.extend(written.write);
        self.index = Some(Index::parse(&written.index).expect("reads"));
        read
    }

    fn index(&self) -> &Index {
        self.index.as_ref().expect("an index")
    }

    fn select(&self, query: Query) -> (Selection, usize) {
        self.hand(|pages| select(self.index(), pages, &query).expect("selects"))
    }

    fn prune(&self, policy: RetentionPolicy, protected: &[String]) -> (Vec<String>, usize) {
        self.hand(|pages| plan_prune(self.index(), pages, &policy, 1e9, protected).expect("plans"))
    }

    fn ids(&self) -> Vec<String> {
        let (all, _) = self.select(Query::default());
        all.entries.iter().map(|e| id_of(e).to_string()).collect()
    }
}

/// `n` results with ids in a shuffled order (as hashes make them), created in the order of `i`.
fn filled(n: usize) -> Host {
    let mut host = Host::default();
    for turn in 0..n.div_ceil(50) {
        let added = (turn * 50..n.min(turn * 50 + 50))
            .map(|i| {
                let tool = if i % 1000 == 7 { "rare" } else { "common" };
                entry(
                    &format!("tr_{:08x}", (i as u64 * 2_654_435_761) % (1 << 32)),
                    tool,
                    i as f64,
                )
            })
            .collect();
        host.change(added, &[]);
    }
    host
}

#[test]
fn pages_split_and_stay_in_id_order_with_their_sums() {
    let host = filled(1_000);
    let index = host.index();
    assert_eq!(
        index.totals,
        Totals {
            results: 1_000,
            chars: 10_000,
            bytes: 100_000
        }
    );
    assert!(
        index.pages.len() >= 1_000 / PAGE_ENTRIES,
        "split into pages"
    );
    assert!(index
        .pages
        .iter()
        .all(|p| p.count as usize <= PAGE_ENTRIES && p.count > 0));
    assert!(index.pages.windows(2).all(|w| w[0].first < w[1].first));
    let ids = host.ids();
    assert_eq!(ids.len(), 1_000);
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "id order across pages");
    // Every page the index names is stored, and nothing else.
    let named: Vec<&String> = index
        .pages
        .iter()
        .map(|p| &p.name)
        .chain(index.recent.iter().map(|r| &r.name))
        .collect();
    assert_eq!(named.len(), host.stored.len());
    assert!(named.iter().all(|name| host.stored.contains_key(*name)));
}

#[test]
fn a_list_window_reads_only_its_pages() {
    let host = filled(2_000);
    let all = host.ids();
    let (first, read) = host.select(Query {
        limit: Some(50),
        ..Query::default()
    });
    assert_eq!(read, 1, "the first 50 ids are in the first page");
    assert_eq!(
        (first.total_results, first.offset, first.has_more),
        (2_000, 0, true)
    );
    let ids: Vec<&str> = first.entries.iter().map(id_of).collect();
    assert_eq!(
        ids,
        all[..50].iter().map(String::as_str).collect::<Vec<_>>()
    );
    // A window across a page boundary reads the two pages.
    let boundary = host.index().pages[0].count;
    let (across, read) = host.select(Query {
        offset: boundary - 10,
        limit: Some(20),
        ..Query::default()
    });
    assert_eq!(read, 2);
    let ids: Vec<&str> = across.entries.iter().map(id_of).collect();
    let from = (boundary - 10) as usize;
    assert_eq!(
        ids,
        all[from..from + 20]
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
    );
    let (end, _) = host.select(Query {
        offset: 1_990,
        limit: Some(50),
        ..Query::default()
    });
    assert_eq!((end.entries.len(), end.has_more), (10, false));
    let (past, read) = host.select(Query {
        offset: 5_000,
        limit: Some(5),
        ..Query::default()
    });
    assert_eq!((past.entries.len(), past.offset, read), (0, 2_000, 0));
}

#[test]
fn a_tool_name_reads_the_pages_that_name_it() {
    let host = filled(2_000);
    let (rare, read) = host.select(Query {
        tool_name: Some("rare".into()),
        limit: Some(50),
        ..Query::default()
    });
    assert_eq!(rare.total_results, 2);
    assert!(read <= 2, "read {read} pages for 2 results");
    assert!(rare.entries.iter().all(|e| tool_of(e) == "rare"));
    let (none, read) = host.select(Query {
        tool_name: Some("absent".into()),
        ..Query::default()
    });
    assert_eq!((none.total_results, read), (0, 0));
    let (newest, _) = host.select(Query {
        order: Some("newest".into()),
        limit: Some(3),
        ..Query::default()
    });
    let times: Vec<f64> = newest
        .entries
        .iter()
        .map(|e| time(e, "createdAtMs").unwrap())
        .collect();
    assert_eq!(times, [1999.0, 1998.0, 1997.0]);
    let wanted = host.ids()[700].clone();
    let (found, read) = host.select(Query {
        ids: Some(vec![wanted.clone(), "tr_zz".into()]),
        ..Query::default()
    });
    // The page of each id: an absent id past every other is looked for in the last.
    assert_eq!((found.entries.len(), read), (1, 2));
    assert_eq!(id_of(&found.entries[0]), wanted);
}

#[test]
fn a_change_touches_only_the_pages_of_its_ids() {
    let mut host = filled(2_000);
    let pages_before = host.index().pages.len();
    // Its page and the newest page.
    let read = host.change(vec![entry("tr_new", "common", 5_000.0)], &[]);
    assert_eq!(read, 2);
    let ids = host.ids();
    let gone = [ids[3].as_str(), ids[1_500].as_str()];
    let read = host.change(vec![], &gone);
    assert_eq!(read, 3);
    assert_eq!(host.index().totals.results, 2_000 - 1);
    assert!(host.index().pages.len() >= pages_before);
    assert!(!host.ids().iter().any(|id| gone.contains(&id.as_str())));
    // A replaced entry counts once; a removed and re-added id stays.
    let again = host.ids()[10].clone();
    host.change(vec![entry(&again, "other", 1.0)], &[again.as_str()]);
    assert_eq!(host.index().totals.results, 1_999);
    // Emptied pages go; an emptied catalog has none.
    let all = host.ids();
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    host.change(vec![], &refs);
    assert_eq!(
        (host.index().pages.len(), host.index().totals.results),
        (0, 0)
    );
    assert!(host.stored.is_empty());
    host.change(vec![entry("tr_a", "t", 1.0)], &[]);
    assert_eq!(host.ids(), ["tr_a"]);
}

#[test]
fn retention_reads_the_oldest_pages_only_when_the_policy_is_exceeded() {
    let host = filled(2_000);
    let within = RetentionPolicy {
        max_results: Some(2_000),
        ..Default::default()
    };
    assert_eq!(host.prune(within, &[]), (vec![], 0));
    let one_over = RetentionPolicy {
        max_results: Some(1_999),
        ..Default::default()
    };
    let (doomed, read) = host.prune(one_over, &[]);
    assert_eq!(doomed.len(), 1);
    assert!(read <= 2, "read {read} pages to delete one result");
    // The same plan as the whole session's order gives, protected ids kept.
    let mut whole = RetentionOrder::new();
    let (all, _) = host.select(Query::default());
    for e in &all.entries {
        whole.add(stored_result(e));
    }
    for policy in [
        RetentionPolicy {
            max_results: Some(1_900),
            ..Default::default()
        },
        RetentionPolicy {
            max_bytes: Some(150_000),
            ..Default::default()
        },
        RetentionPolicy {
            max_age_ms: Some(1_000_000_000 - 300),
            ..Default::default()
        },
    ] {
        let protected = vec![id_of(&all.entries[5]).to_string()];
        let (paged, _) = host.prune(policy, &protected);
        assert_eq!(paged, whole.plan(&policy, 1e9, &protected), "{policy:?}");
        assert!(!paged.is_empty());
    }
}

#[test]
fn an_undated_result_counts_as_oldest() {
    let mut host = filled(600);
    let mut undated = entry("tr_undated", "t", 0.0);
    undated.remove("createdAtMs");
    host.change(vec![undated], &[]);
    assert!(host.index().pages.iter().any(|p| p.oldest.is_none()));
    let policy = RetentionPolicy {
        max_results: Some(600),
        ..Default::default()
    };
    assert_eq!(host.prune(policy, &[]).0, ["tr_undated"]);
}

#[test]
fn bad_stored_text_is_a_typed_error() {
    assert!(Index::parse("{").is_err());
    assert!(Index::parse(r#"{"format":"x","version":1,"generation":"g","next":0,"totals":{"results":0,"chars":0,"bytes":0},"pages":[]}"#).is_err());
    let error = read_page("g-0", "not json").expect_err("a broken page");
    assert_eq!(error.code, ErrorCode::Corrupt);
    assert!(read_page("g-0", "{}").is_err(), "a page is a list");
}

#[test]
fn results_of_one_turn_spread_over_every_page_cost_a_prune_one_page() {
    // Every result stored at the same time (one turn), ids spread over every page.
    let mut host = Host::default();
    let added = (0..1_000)
        .map(|i| {
            entry(
                &format!("tr_{:08x}", (i as u64 * 2_654_435_761) % (1 << 32)),
                "t",
                5.0,
            )
        })
        .collect();
    host.change(added, &[]);
    assert!(host.index().pages.len() >= 5);
    let policy = RetentionPolicy {
        max_results: Some(999),
        ..Default::default()
    };
    let (doomed, read) = host.prune(policy, &[]);
    assert_eq!((doomed.len(), read), (1, 1));
}

#[test]
fn answers_keep_their_json_layout() {
    let first = entry("tr_a", "bash", 1_700_000_000_000.0);
    let second = entry("tr_b", "grep", 5.5);
    let Ok(Step::Done(written)) = apply(None, "g1", &Pages::new(), vec![first, second], &[]) else {
        panic!("a first change needs no page");
    };
    assert_eq!(
        written.index,
        r#"{"format":"tool-stub-catalog-index","version":1,"generation":"g1","next":2,"totals":{"results":2,"chars":20,"bytes":200},"pages":[{"name":"g1-0","first":"tr_a","count":2,"chars":20,"bytes":200,"oldest":5.5,"tools":["bash","grep"]}],"recent":{"name":"g1-1","count":2}}"#
    );
    let answer = serde_json::to_string(&Step::Done(written.clone()).to_json()).expect("text");
    assert!(answer.starts_with(r#"{"index":"{\"format\""#), "{answer}");
    assert!(
        answer.ends_with(r#"\"storedBytes\":100}]"},"remove":[]}"#),
        "{answer}"
    );
    let index = Index::parse(&written.index).expect("reads back");
    assert_eq!(
        Index::parse(&serde_json::to_string(&index.to_json()).expect("text")),
        Ok(index.clone())
    );
    let need = select(&index, &Pages::new(), &Query::default()).expect("a need");
    assert_eq!(need.to_json(), serde_json::json!({"need": ["g1-0"]}));
    let pages: Pages = written
        .write
        .iter()
        .map(|(name, text)| (name.clone(), read_page(name, text).expect("reads")))
        .collect();
    let selection = select(&index, &pages, &Query::default()).expect("a window");
    let text = serde_json::to_string(&selection.to_json()).expect("text");
    assert!(text.starts_with(r#"{"totalResults":2,"offset":0,"hasMore":false,"entries":[{"toolResultId":"tr_a","toolName":"bash","createdAtMs":1700000000000.0,"#), "{text}");
    let query: Query =
        serde_json::from_str(r#"{"toolName":"x","limit":null,"other":1}"#).expect("a query");
    assert_eq!(
        (query.tool_name.as_deref(), query.offset, query.limit),
        (Some("x"), 0, None)
    );
    let refused = serde_json::from_str::<Query>(r#"{"offset":null}"#).expect_err("null offset");
    assert!(
        refused
            .to_string()
            .starts_with("invalid type: null, expected u64"),
        "{refused}"
    );
    let missing = Index::parse(r#"{"format":"tool-stub-catalog-index","version":1}"#)
        .expect_err("no generation");
    assert_eq!(
        missing.message,
        "the catalog index does not read: missing field `generation`"
    );
}

fn newest(limit: Option<u64>, offset: u64) -> Query {
    Query {
        order: Some("newest".into()),
        limit,
        offset,
        ..Query::default()
    }
}

/// The ids of the whole catalog newest first, from every page (no window: the newest page is
/// not enough for it).
fn newest_ids(host: &Host) -> Vec<String> {
    let (all, read) = host.select(newest(None, 0));
    let recent = host.index().recent.as_ref().map_or(0, |r| r.count);
    if recent < host.index().totals.results {
        assert_eq!(read, host.index().pages.len(), "every page");
    }
    all.entries.iter().map(|e| id_of(e).to_string()).collect()
}

#[test]
fn a_newest_first_window_reads_the_newest_page_alone() {
    let host = filled(2_000);
    let expected = newest_ids(&host);
    let (window, read) = host.select(newest(Some(50), 0));
    assert_eq!(read, 1, "the newest page");
    assert_eq!(
        (window.total_results, window.offset, window.has_more),
        (2_000, 0, true)
    );
    let ids: Vec<&str> = window.entries.iter().map(id_of).collect();
    assert_eq!(ids, expected[..50]);
    assert_eq!(window.entries[0]["createdAtMs"], 1999.0);
    let (second, read) = host.select(newest(Some(50), 50));
    assert_eq!(read, 1);
    assert_eq!(
        second.entries.iter().map(id_of).collect::<Vec<_>>(),
        expected[50..100]
    );
    // Past the newest page: every page, the same order.
    let (past, read) = host.select(newest(Some(50), 80));
    assert_eq!(read, host.index().pages.len());
    assert_eq!(
        past.entries.iter().map(id_of).collect::<Vec<_>>(),
        expected[80..130]
    );
    // A tool name reads the pages naming it (the newest page is not the whole catalog).
    let (rare, _) = host.select(Query {
        tool_name: Some("rare".into()),
        ..newest(Some(10), 0)
    });
    assert_eq!(rare.total_results, 2);
    assert_eq!(rare.entries[0]["createdAtMs"], 1007.0);
}

#[test]
fn the_newest_page_stays_right_through_changes() {
    let mut host = filled(600);
    let check = |host: &Host| {
        let expected = newest_ids(host);
        let recent = host.index().recent.clone().expect("a newest page");
        let (window, read) = host.select(newest(Some(recent.count), 0));
        assert_eq!(read, 1);
        let ids: Vec<String> = window
            .entries
            .iter()
            .map(|e| id_of(e).to_string())
            .collect();
        assert_eq!(ids, expected[..recent.count as usize]);
    };
    check(&host);
    // Added: newer than all, older than all (stays out), between, at a tie, without a date.
    host.change(vec![entry("tr_newer", "t", 10_000.0)], &[]);
    host.change(vec![entry("tr_older", "t", -5.0)], &[]);
    host.change(vec![entry("tr_between", "t", 550.5)], &[]);
    host.change(
        vec![entry("tr_0tie", "t", 599.0), entry("tr_ztie", "t", 599.0)],
        &[],
    );
    let mut undated = entry("tr_undated", "t", 0.0);
    undated.remove("createdAtMs");
    host.change(vec![undated], &[]);
    check(&host);
    assert!(!newest_ids(&host)[..100].contains(&"tr_older".to_string()));
    // An entry of the newest page replaced with an older date leaves it; one outside it replaced
    // with a newer date comes in.
    let top = newest_ids(&host)[0].clone();
    host.change(vec![entry(&top, "t", -1.0)], &[]);
    check(&host);
    let low = newest_ids(&host)[400].clone();
    host.change(vec![entry(&low, "t", 20_000.0)], &[]);
    check(&host);
    assert_eq!(newest_ids(&host)[0], low);
    // The newest removed till the page is under half full: made anew from every page.
    let doomed: Vec<String> = newest_ids(&host)[..60].to_vec();
    let refs: Vec<&str> = doomed.iter().map(String::as_str).collect();
    host.change(vec![], &refs);
    check(&host);
    assert_eq!(host.index().recent.as_ref().map(|r| r.count), Some(100));
    // A small catalog's newest page holds it all: a tool name reads that page alone.
    let mut small = filled(30);
    let (rare, read) = small.select(Query {
        tool_name: Some("rare".into()),
        ..newest(None, 0)
    });
    assert_eq!((rare.total_results, read), (1, 1));
    small.change(vec![], &["tr_00000000"]);
    check(&small);
}

#[test]
fn an_index_without_a_newest_page_is_read_and_gets_one_on_its_next_change() {
    let mut host = filled(1_000);
    // As an earlier version wrote it: no "recent", its page not stored.
    let mut index = host.index().clone();
    let recent = index.recent.take().expect("a newest page");
    host.stored.remove(&recent.name);
    let text = serde_json::to_string(&index.to_json()).expect("text");
    let text = text.replace(r#","recent":null"#, "");
    assert!(!text.contains("recent"));
    host.index = Some(Index::parse(&text).expect("reads"));
    let expected = newest_ids(&host);
    let (window, read) = host.select(newest(Some(20), 0));
    assert_eq!(read, host.index().pages.len(), "every page, as before");
    assert_eq!(
        window.entries.iter().map(id_of).collect::<Vec<_>>(),
        expected[..20]
    );
    let read = host.change(vec![entry("tr_late", "t", 5_000.0)], &[]);
    assert_eq!(read, host.index().pages.len(), "made from every page, once");
    let (window, read) = host.select(newest(Some(20), 0));
    assert_eq!(read, 1);
    assert_eq!(id_of(&window.entries[0]), "tr_late");
    assert_eq!(
        window.entries[1..].iter().map(id_of).collect::<Vec<_>>(),
        expected[..19]
    );
}
