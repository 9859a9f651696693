//! Sukaku Explainer's ratings against its own output: `data/se-reference-expert.txt`
//! holds serate's ER/EP/ED for 400 puzzles `generate` made at the levels hard and expert
//! (serate rates them 3.6 to 8.4), and `data/se-reference-extreme.txt` for 150 made at
//! the level extreme (8.5 to 9.1: forcing chains past the static ones); see
//! data/README.md. Bank puzzles that once differed are read from `../shared/data`.

mod common;

use std::collections::BTreeMap;

use sudoku_batch::engines::explainer::{Pencilmarks, Rater, Rules};
use sudoku_batch::{Classification, Grid, Solver};

struct Reference {
    puzzle: Grid,
    er: u16,
    ep: u16,
    ed: u16,
}

fn tenths(s: &str) -> u16 {
    let (w, f) = s.split_once('.').expect("a rating with a point");
    w.parse::<u16>().unwrap() * 10 + f.parse::<u16>().unwrap()
}

fn reference(name: &str) -> Vec<Reference> {
    let path = format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let (p, r) = l.split_once(' ').unwrap();
            let mut r = r.split('/').map(tenths);
            Reference {
                puzzle: Grid::parse(p.as_bytes()).unwrap(),
                er: r.next().unwrap(),
                ep: r.next().unwrap(),
                ed: r.next().unwrap(),
            }
        })
        .collect()
}

/// The ratings of every reference puzzle, with what differs (ours, serate's).
fn compare(refs: &[Reference]) -> (usize, usize, usize, usize, BTreeMap<(u16, u16), usize>) {
    let mut rater = Rater::new();
    let (mut exact, mut complete, mut ep, mut ed) = (0, 0, 0, 0);
    let mut misses = BTreeMap::new();
    for r in refs {
        let got = rater.rate(&r.puzzle);
        complete += got.complete as usize;
        ep += (got.ep == r.ep) as usize;
        ed += (got.ed == r.ed) as usize;
        if got.er == r.er {
            exact += 1;
        } else {
            *misses.entry((got.er, r.er)).or_insert(0) += 1;
        }
    }
    (exact, complete, ep, ed, misses)
}

/// Serate's ER, EP and ED on every one of the 400 (3.6 to 8.4), each rating complete.
#[test]
fn ratings_match_serate_on_expert_puzzles() {
    let refs = reference("se-reference-expert.txt");
    assert_eq!(refs.len(), 400);
    let (exact, complete, ep, ed, misses) = compare(&refs);
    assert_eq!(complete, 400, "rated to the end");
    assert_eq!(exact, 400, "ER differs (ours, serate): {misses:?}");
    assert_eq!((ep, ed), (400, 400), "EP and ED exact");
}

/// The same on 150 extreme puzzles: Nishio, multiple and dynamic chains (serate rates
/// them 8.5 to 9.1).
#[test]
fn ratings_match_serate_on_extreme_puzzles() {
    let refs = reference("se-reference-extreme.txt");
    assert_eq!(refs.len(), 150);
    let (exact, complete, ep, ed, misses) = compare(&refs);
    assert_eq!(complete, 150, "rated to the end");
    assert_eq!(exact, 150, "ER differs (ours, serate): {misses:?}");
    assert_eq!((ep, ed), (150, 150), "EP and ED exact");
}

/// Nested forcing chains (ER 9.5 and up: static and static multiple chains inside
/// dynamic ones) against serate on puzzles of the hardest lists: every record of
/// `../shared/data/reference-sets/nested-chains-70.txt` that
/// `tests/expected/nested-chains-70.serate.tsv` holds serate's ratings for (the default
/// budget rates each in one to four seconds; two threads). Each rating is complete and
/// equal to serate's ER, EP and ED.
#[test]
fn nested_chains_rate_as_serate_rates_them() {
    let Some(records) = public_records("reference-sets/nested-chains-70.txt") else {
        return;
    };
    let expected = serate_tsv("nested-chains-70.serate.tsv");
    let cases: Vec<_> = expected
        .iter()
        .map(|(n, l, r)| (*n, l.as_str(), *r))
        .collect();
    let rate = |cases: &[(usize, &str, (u16, u16, u16))]| {
        let mut rater = Rater::new();
        let mut exact = 0;
        for &(n, line, (er, ep, ed)) in cases {
            let got = rater.rate(&Grid::parse(records[n - 1].as_bytes()).unwrap());
            assert!(got.complete, "record {n}: rated to the end");
            assert_eq!(
                (got.er, got.ep, got.ed),
                (er, ep, ed),
                "record {n}: {got:?} for {line}"
            );
            exact += 1;
        }
        exact
    };
    let (first, second) = cases.split_at(cases.len() / 2);
    let exact = std::thread::scope(|s| {
        let other = s.spawn(|| rate(second));
        rate(first) + other.join().unwrap()
    });
    let rated = cases.len();
    assert!(rated >= 63 && exact == rated, "{exact} of {rated} equal");
}

/// The lines of a file of `../shared/data` not starting with '#' (record n is the n-th),
/// or `None` where it is absent (skipped with a note).
#[track_caller]
fn public_records(name: &str) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(common::public(name)?).unwrap();
    Some(
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect(),
    )
}

/// The records of a `tests/expected` file of serate's ratings that serate finished:
/// (record, its line, ER/EP/ED in tenths).
fn serate_tsv(name: &str) -> Vec<(usize, String, (u16, u16, u16))> {
    let path = format!("{}/tests/expected/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let mut cases = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let Some((er, rest)) = f[1].split_once('/') else {
            continue; // serate did not finish
        };
        let (ep, ed) = rest.split_once('/').unwrap();
        let n: usize = f[0].parse().unwrap();
        cases.push((n, line.to_string(), (tenths(er), tenths(ep), tenths(ed))));
    }
    cases
}

/// A sample of `../shared/data/forum-hardest-1106.txt` (every 25th puzzle from the 12th,
/// less two that nested-chains-70 holds) against serate's ratings
/// (`tests/expected/forum-hardest-1106.serate.tsv`): each rated to the end at the
/// default budget, with serate's ER, EP and ED (one needs the nested chains of level 4).
#[test]
fn a_hardest_list_sample_rates_as_serate_rates_it() {
    let Some(puzzles) = public_records("forum-hardest-1106.txt") else {
        return;
    };
    let cases = serate_tsv("forum-hardest-1106.serate.tsv");
    let mut rater = Rater::new();
    for (n, line, (er, ep, ed)) in &cases {
        let got = rater.rate(&Grid::parse(puzzles[n - 1].as_bytes()).unwrap());
        assert!(got.complete, "line {n}: rated to the end");
        assert_eq!(
            (got.er, got.ep, got.ed),
            (*er, *ep, *ed),
            "line {n}: {line}"
        );
    }
    assert!(cases.len() >= 13, "{} rated by serate", cases.len());
}

/// The first puzzles of `../shared/data/forum-hardest-1106.txt` that need the nested
/// chains of level 4 against serate's ratings
/// (`tests/expected/forum-hardest-1106.level4.serate.tsv`): each rated to the end at
/// the default budget (2 to 6 s each; two threads), with serate's ER, EP and ED.
#[test]
fn level4_puzzles_rate_as_serate_rates_them() {
    let Some(puzzles) = public_records("forum-hardest-1106.txt") else {
        return;
    };
    let cases = serate_tsv("forum-hardest-1106.level4.serate.tsv");
    let rate = |cases: &[(usize, String, (u16, u16, u16))]| {
        let mut rater = Rater::new();
        for (n, line, expected) in cases {
            let got = rater.rate(&Grid::parse(&puzzles[n - 1].as_bytes()[..81]).unwrap());
            assert!(got.complete, "line {n}: rated to the end");
            assert_eq!((got.er, got.ep, got.ed), *expected, "line {n}: {line}");
        }
    };
    let (first, second) = cases.split_at(cases.len() / 2);
    std::thread::scope(|s| {
        s.spawn(|| rate(second));
        rate(first);
    });
    assert!(cases.len() >= 3, "{} rated by serate", cases.len());
}

/// A caller's stop flag ends a rating as the budget does: set before, the extreme
/// references (whose ratings need forcing chains) end as lower bounds no higher than
/// serate's; cleared, the same rater rates them to the end as serate does.
#[test]
fn a_stopped_rating_ends_as_a_lower_bound() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let refs = reference("se-reference-extreme.txt");
    let stop = Arc::new(AtomicBool::new(true));
    let mut rater = Rater::new();
    rater.stop_when(Some(&stop));
    for r in refs.iter().take(20) {
        let got = rater.rate(&r.puzzle);
        assert!(!got.complete, "stopped, yet rated to the end");
        assert!(
            got.er <= r.er,
            "{got:?}: a lower bound above serate's {}",
            r.er
        );
    }
    stop.store(false, Ordering::Relaxed);
    for r in refs.iter().take(5) {
        let got = rater.rate(&r.puzzle);
        assert!(
            got.complete && (got.er, got.ep, got.ed) == (r.er, r.ep, r.ed),
            "{got:?}"
        );
    }
    rater.stop_when(None);
    stop.store(true, Ordering::Relaxed);
    let got = rater.rate(&refs[0].puzzle);
    assert!(got.complete, "the flag left behind still stopped it");
}

/// Stopped from another thread while it rates a puzzle that needs level 4 (line 11 of
/// `../shared/data/forum-hardest-1106.txt`, seconds of work; serate 11.8), a rating
/// ends there, inside the nested searches, as a lower bound.
#[test]
fn a_rating_stops_within_its_record() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let Some(puzzles) = public_records("forum-hardest-1106.txt") else {
        return;
    };
    let puzzle = Grid::parse(&puzzles[10].as_bytes()[..81]).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let mut rater = Rater::new();
    rater.stop_when(Some(&stop));
    let got = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(100));
            stop.store(true, Ordering::Relaxed);
        });
        rater.rate(&puzzle)
    });
    assert!(!got.complete, "{got:?}");
    assert!(got.er <= 118, "{got:?}");
}

/// The nested chains of level 4 (which `Rules::without_level4` leaves out) take
/// record 49 of `../shared/data/reference-sets/nested-chains-70.txt` past the
/// step where level 3 has nothing (serate rates it past 10.5 and takes more steps
/// there): a step of at least 10.5, which keeps the solution, where the default rules
/// stop with a lower bound of 10.5.
#[test]
fn level4_takes_the_step_level3_cannot() {
    let Some(records) = public_records("reference-sets/nested-chains-70.txt") else {
        return;
    };
    let puzzle = Grid::parse(records[48].as_bytes()).unwrap();
    let Classification::Unique(solution) = Solver::new().classify(&puzzle) else {
        panic!("record 49 is not unique");
    };
    let keeps = |b: &Pencilmarks| {
        (0..81).all(|c| {
            let d = solution.get(c);
            match b.value[c] {
                0 => b.cands[c] >> (d - 1) & 1 != 0,
                v => v == d,
            }
        })
    };
    let mut level3 = Rater::with(Rules::SUKAKU.without_level4(), 400_000_000);
    let mut b = Pencilmarks::new(&puzzle);
    while let Some(h) = level3.next_hint(&b) {
        h.apply(&mut b);
        assert!(keeps(&b), "{:?} lost the solution", h.technique);
    }
    assert!(
        !b.is_full() && level3.floor() == 10.5,
        "level 3 stops, at least 10.5"
    );
    let mut level4 = Rater::with(Rules::SUKAKU, 400_000_000);
    let h = level4.next_hint(&b).expect("a step of level 4");
    assert!(h.rating >= 10.5, "{h:?}");
    assert!(h.apply(&mut b) && keeps(&b), "{h:?} keeps the solution");
}

/// Level 4 as serate takes it, where serate's path is known: record 48 of
/// `../shared/data/reference-sets/nested-chains-70.txt` takes serate's first four steps
/// (serate `--after='%r|%s'`, started from the board of each step; it does not finish
/// the record), and line 112 of `../shared/data/forum-hardest-1106.txt` gets serate's
/// ER/EP/ED from the sample's reference. Both rest on inner dynamic chains whose
/// branches share their target: a branch's removals count for the hint however many
/// branches reach that target before it.
#[test]
fn level4_takes_serates_steps_where_they_are_known() {
    let (Some(records), Some(hardest)) = (
        public_records("reference-sets/nested-chains-70.txt"),
        public_records("forum-hardest-1106.txt"),
    ) else {
        return;
    };
    let mut rater = Rater::new();
    let mut b = Pencilmarks::new(&Grid::parse(records[47].as_bytes()).unwrap());
    let serate = [
        (112, 44, 6), // 11.2 r5c9.7
        (115, 4, 6),  // 11.5 r1c5.7
        (116, 14, 2), // 11.6 r2c6.3
        (116, 34, 8), // 11.6 r4c8.9
    ];
    for (step, &(rating, cell, value)) in serate.iter().enumerate() {
        let h = rater.next_hint(&b).expect("a step");
        let mut elims = [0u16; 81];
        elims[cell] = 1 << value;
        assert_eq!(
            (tenths(&format!("{:.1}", h.rating)), h.place, h.elims),
            (rating, None, elims),
            "record 48 step {}",
            step + 1
        );
        h.apply(&mut b);
    }
    let (_, line, expected) = serate_tsv("forum-hardest-1106.serate.tsv")
        .into_iter()
        .find(|c| c.0 == 112)
        .expect("line 112 in the sample");
    let got = rater.rate(&Grid::parse(hardest[111].as_bytes()).unwrap());
    assert!(got.complete, "line 112 rated to the end");
    assert_eq!((got.er, got.ep, got.ed), expected, "{line}");
}

/// No step of the rater removes a puzzle's solution (its rules as applied to unique
/// puzzles are sound, quirks included, on these), checked against the solver.
#[test]
fn steps_keep_the_solution() {
    let mut rater = Rater::new();
    let mut solver = Solver::new();
    let refs = reference("se-reference-expert.txt")
        .into_iter()
        .step_by(3)
        .chain(reference("se-reference-extreme.txt").into_iter().step_by(5));
    for r in refs {
        let Classification::Unique(solution) = solver.classify(&r.puzzle) else {
            panic!("{} is not unique", r.puzzle);
        };
        let mut b = Pencilmarks::new(&r.puzzle);
        while let Some(h) = rater.next_hint(&b) {
            h.apply(&mut b);
            for c in 0..81 {
                let d = solution.get(c);
                let kept = match b.value[c] {
                    0 => b.cands[c] >> (d - 1) & 1 != 0,
                    v => v == d,
                };
                assert!(kept, "{}: {:?} lost cell {c}'s {d}", r.puzzle, h.technique);
            }
            if b.is_full() {
                break;
            }
        }
    }
}

#[test]
fn a_solved_grid_rates_zero() {
    let solved = Grid::parse(
        b"123456789456789123789123456214365897365897214897214365531642978642978531978531642",
    )
    .unwrap();
    let r = Rater::new().rate(&solved);
    assert_eq!((r.er, r.ep, r.ed, r.complete), (0, 0, 0, true));
}

/// A rater whose budget runs out gives lower bounds: never above serate's ratings, at
/// least the static chains' 6.5, and marked incomplete. On the extreme ones, whose
/// forcing chains spend far more than this small budget.
#[test]
fn a_spent_budget_gives_lower_bounds() {
    let mut rater = Rater::with(Rules::SUKAKU, 20_000);
    let mut lower = 0;
    for r in reference("se-reference-extreme.txt").iter().step_by(3) {
        let got = rater.rate(&r.puzzle);
        if got.complete {
            assert_eq!((got.er, got.ep, got.ed), (r.er, r.ep, r.ed), "{}", r.puzzle);
            continue;
        }
        lower += 1;
        assert!(got.er >= 65, "{}: {}", r.puzzle, got.er);
        assert!(
            got.er <= r.er && got.ep <= r.ep && got.ed <= r.ed,
            "{}: ours {}/{}/{}, serate {}/{}/{}",
            r.puzzle,
            got.er,
            got.ep,
            got.ed,
            r.er,
            r.ep,
            r.ed
        );
    }
    assert!(lower >= 40, "only {lower} of 50 ran out of budget");
}

/// Bank puzzles whose ratings once differed from `serate`'s, by their line in the public
/// `../shared/data/sudoku-exchange-diabolical.txt`, with `serate`'s ER/EP/ED
/// (SukakuExplainer `362854e`, default options, run 2026-12-04): BUGs of type 4 in
/// grids where a region holds two values each in two 3+-candidate cells, or one value
/// in two while another is found in one (which the scan had refused), BUGs of type 3 (5.8, 5.9, and one that comes before a VWXYZ-Wing),
/// and three whose bank rating differs from today's `serate`.
const SERATE_CASES: [(usize, &str); 16] = [
    (12298, "5.7/1.2/1.2"),
    (21575, "5.8/1.2/1.2"),
    (29017, "5.7/1.2/1.2"),
    (37176, "5.7/1.2/1.2"),
    (1912, "5.9/1.2/1.2"),
    (7649, "6.8/1.2/1.2"),
    (10106, "5.7/1.2/1.2"),
    (11749, "5.9/1.2/1.2"),
    (16390, "6.4/1.2/1.2"),
    (26754, "5.7/1.2/1.2"),
    (27051, "5.7/1.2/1.2"),
    (30540, "7.1/1.2/1.2"),
    (30680, "5.8/1.2/1.2"),
    (30731, "5.7/1.2/1.2"),
    (35135, "5.7/1.2/1.2"),
    (38045, "7.2/1.2/1.2"),
];

#[test]
fn rated_as_serate_rates_them() {
    let Some(path) = common::public("sudoku-exchange-diabolical.txt") else {
        return;
    };
    let bank = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = bank.lines().collect();
    let mut rater = Rater::new();
    for (line, want) in SERATE_CASES {
        let puzzle = lines[line - 1].split_whitespace().nth(1).unwrap();
        let r = rater.rate(&Grid::parse(puzzle.as_bytes()).unwrap());
        let got = format!(
            "{}.{}/{}.{}/{}.{}",
            r.er / 10,
            r.er % 10,
            r.ep / 10,
            r.ep % 10,
            r.ed / 10,
            r.ed % 10
        );
        assert_eq!(got, want, "{puzzle}");
        assert!(r.complete);
    }
}
