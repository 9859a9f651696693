//! Sukaku Explainer's ratings against its own output: `data/se-reference-diabolical-600.txt`
//! holds serate's ER/EP/ED for 600 of the bank's diabolical puzzles (see data/README.md).

use std::collections::BTreeMap;

use sudoku_batch::explainer::{Board, Rater};
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

fn reference() -> Vec<Reference> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/se-reference-diabolical-600.txt"
    );
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

/// Every rating the rater completes is serate's on nearly all of them; the ones it
/// cannot complete (rules past the static chains) are lower bounds. The floors are the
/// shares measured when the reference was made, so a rule that drifts fails here.
#[test]
fn ratings_match_serate_on_the_diabolical_sample() {
    let refs = reference();
    assert_eq!(refs.len(), 600);
    let mut rater = Rater::new();
    let (mut exact, mut complete, mut ep, mut ed) = (0, 0, 0, 0);
    let mut misses = BTreeMap::new();
    for r in &refs {
        let got = rater.rate(&r.puzzle);
        ep += (got.ep == r.ep) as usize;
        ed += (got.ed == r.ed) as usize;
        if got.complete {
            complete += 1;
            if got.er == r.er {
                exact += 1;
            } else {
                *misses.entry((got.er, r.er)).or_insert(0) += 1;
            }
        } else {
            assert!(
                got.er <= r.er,
                "{}: lower bound {} over {}",
                r.puzzle,
                got.er,
                r.er
            );
            assert!(
                r.er >= 75,
                "{}: serate rates {} yet the rater stops",
                r.puzzle,
                r.er
            );
        }
    }
    assert!(complete >= 550, "only {complete} of 600 rated to the end");
    assert!(
        exact * 100 >= complete * 99,
        "ER exact on {exact} of {complete}: {misses:?}"
    );
    assert!(
        ep >= 597 && ed >= 597,
        "EP exact on {ep}, ED on {ed} of 600"
    );
}

/// No step of the rater removes a puzzle's solution (its rules as applied to unique
/// puzzles are sound, quirks included, on these), checked against the solver.
#[test]
fn steps_keep_the_solution() {
    let mut rater = Rater::new();
    let mut solver = Solver::new();
    for r in reference().iter().step_by(3) {
        let Classification::Unique(solution) = solver.classify(&r.puzzle) else {
            panic!("{} is not unique", r.puzzle);
        };
        let mut b = Board::new(&r.puzzle);
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
