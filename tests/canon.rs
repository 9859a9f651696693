//! Canonical forms against a brute-force reference: every one of the 3,359,232
//! geometric transforms, each with its renaming, on real puzzles of every bundled set.

mod common;

use common::{load_path, unique_datasets};
use sudoku_batch::engines::canon::{Canonicalizer, TRANSFORMS};
use sudoku_batch::Grid;

/// All 1,296 permutations of nine lines that keep groups of three (bands or stacks).
fn line_perms() -> Vec<[usize; 9]> {
    let orders: Vec<[usize; 3]> = vec![
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut out = Vec::new();
    for g in &orders {
        for a in &orders {
            for b in &orders {
                for c in &orders {
                    let inner = [a, b, c];
                    let mut p = [0; 9];
                    for k in 0..3 {
                        for j in 0..3 {
                            p[3 * k + j] = 3 * g[k] + inner[k][j];
                        }
                    }
                    out.push(p);
                }
            }
        }
    }
    out
}

/// The smallest string over every transform (renamed by first appearance), and how
/// many transforms reach it. Deliberately plain: one transform at a time, compared
/// cell by cell with an early exit.
fn brute_force(puzzle: &Grid) -> ([u8; 81], u64) {
    let perms = line_perms();
    let cells = puzzle.cells();
    let mut best = [u8::MAX; 81];
    let mut count = 0u64;
    for t in 0..2 {
        for rows in &perms {
            for cols in &perms {
                let mut names = [0u8; 10];
                let mut next = 1;
                let mut state = std::cmp::Ordering::Equal;
                let mut candidate = [0u8; 81];
                for i in 0..81 {
                    let (r, c) = (rows[i / 9], cols[i % 9]);
                    let d = if t == 0 {
                        cells[r * 9 + c]
                    } else {
                        cells[c * 9 + r]
                    } as usize;
                    let v = if d == 0 {
                        0
                    } else {
                        if names[d] == 0 {
                            names[d] = next;
                            next += 1;
                        }
                        names[d]
                    };
                    candidate[i] = v;
                    if state == std::cmp::Ordering::Equal {
                        state = v.cmp(&best[i]);
                        if state == std::cmp::Ordering::Greater {
                            break;
                        }
                    }
                }
                match state {
                    std::cmp::Ordering::Less => {
                        best = candidate;
                        count = 1;
                    }
                    std::cmp::Ordering::Equal => count += 1,
                    std::cmp::Ordering::Greater => {}
                }
            }
        }
    }
    (best.map(|v| b'0' + v), count)
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `puzzle` under a random transform and a random renaming.
fn random_transform(puzzle: &Grid, rng: &mut Rng) -> Grid {
    let perms = line_perms();
    let rows = perms[rng.below(perms.len())];
    let cols = perms[rng.below(perms.len())];
    let t = rng.below(2) == 1;
    let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    for i in (1..9).rev() {
        digits.swap(i, rng.below(i + 1));
    }
    let cells = puzzle.cells();
    let mut out = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (sr, sc) = (rows[r], cols[c]);
            let d = if t {
                cells[sc * 9 + sr]
            } else {
                cells[sr * 9 + sc]
            };
            out[r * 9 + c] = if d == 0 { 0 } else { digits[d as usize - 1] };
        }
    }
    Grid::from_cells(out).unwrap()
}

fn sample(every: usize, per_set: usize) -> Vec<Grid> {
    let mut out = Vec::new();
    for path in unique_datasets() {
        let records = load_path(&path);
        let step = (records.len() / per_set).max(1) * every;
        out.extend(records.iter().step_by(step).take(per_set).map(|r| r.puzzle));
    }
    out
}

#[test]
fn agrees_with_brute_force_on_real_puzzles() {
    let mut canon = Canonicalizer::new();
    let puzzles = sample(1, 12);
    assert!(puzzles.len() >= 100, "{}", puzzles.len());
    for p in &puzzles {
        let (form, count) = brute_force(p);
        let got = canon.canonical(p);
        assert_eq!(
            got.as_str(),
            std::str::from_utf8(&form).unwrap(),
            "{}",
            String::from_utf8_lossy(&p.to_line())
        );
        assert_eq!(got.automorphisms, count);
    }
}

#[test]
fn royle_list_forms_are_at_most_its_own_and_checked_where_smaller() {
    // Royle's 17-clue list (public, `../shared/data`) is published mostly in minlex form. Each puzzle's own
    // text is one of its transforms, so the canonical form is never above it; where it
    // is below (the list is not minlex there), the brute force decides.
    let Some(path) = common::public("royle-17-clue.txt") else {
        return;
    };
    let mut canon = Canonicalizer::new();
    let (mut same, mut smaller) = (0, Vec::new());
    for r in load_path(&path) {
        let c = canon.canonical(&r.puzzle);
        let own = r.puzzle.to_line().map(|b| if b == b'.' { b'0' } else { b });
        assert!(c.form <= own, "line {}", r.line);
        assert_eq!(c.grid().given_count(), 17);
        if c.form == own {
            same += 1;
        } else {
            smaller.push((r.puzzle, c));
        }
    }
    assert!(same > 40_000, "{same}");
    for (p, c) in smaller.iter().step_by(smaller.len() / 20 + 1) {
        let (form, count) = brute_force(p);
        assert_eq!((c.form, c.automorphisms), (form, count));
    }
}

#[test]
fn invariant_under_random_transforms() {
    let mut canon = Canonicalizer::new();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for p in sample(1, 60) {
        let want = canon.canonical(&p);
        for _ in 0..5 {
            let q = random_transform(&p, &mut rng);
            assert_eq!(canon.canonical(&q), want);
        }
    }
}

#[test]
fn symmetric_and_sparse_puzzles_count_their_automorphisms() {
    let mut canon = Canonicalizer::new();
    let mut grids = Vec::new();
    // The full grid with a large symmetry group.
    let mut cells = [0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            cells[r * 9 + c] = ((3 * (r % 3) + r / 3 + c) % 9 + 1) as u8;
        }
    }
    let full = Grid::from_cells(cells).unwrap();
    grids.push(full);
    // Puzzles with one to eight givens, taken from real puzzles and from the full grid.
    let mut rng = Rng(12345);
    let sources: Vec<Grid> = sample(1, 4);
    for k in 1..=8 {
        for source in [&full, &sources[k], &sources[k + 10]] {
            let filled: Vec<usize> = (0..81).filter(|&i| source.get(i) != 0).collect();
            let mut keep = [0u8; 81];
            for _ in 0..k {
                let i = filled[rng.below(filled.len())];
                keep[i] = source.get(i);
            }
            grids.push(Grid::from_cells(keep).unwrap());
        }
    }
    // Clashing givens (same digit twice in a row) are canonical too.
    let mut clash = [0u8; 81];
    clash[0] = 5;
    clash[1] = 5;
    clash[40] = 3;
    grids.push(Grid::from_cells(clash).unwrap());
    for g in &grids {
        let (form, count) = brute_force(g);
        let got = canon.canonical(g);
        assert_eq!(got.form, form, "{}", String::from_utf8_lossy(&g.to_line()));
        assert_eq!(got.automorphisms, count);
        assert!(count >= 1 && TRANSFORMS % count == 0);
    }
    assert!(canon.canonical(&full).automorphisms > 1);
}

#[test]
fn clashing_givens_agree_with_brute_force() {
    // Digits drawn from a few values, so that rows, stacks and cells repeat them: a new
    // digit twice in one cell, in two stacks of one row, and named digits repeated.
    let mut canon = Canonicalizer::new();
    let mut rng = Rng(0xC1A5);
    for round in 0..40 {
        let mut cells = [0u8; 81];
        let givens = 3 + round % 12;
        let values = 2 + round % 4;
        for _ in 0..givens {
            // Half the givens in the first band, so that cells of one row share digits.
            let i = if rng.below(2) == 0 {
                rng.below(27)
            } else {
                rng.below(81)
            };
            cells[i] = 1 + rng.below(values) as u8;
        }
        let g = Grid::from_cells(cells).unwrap();
        let (form, count) = brute_force(&g);
        let got = canon.canonical(&g);
        assert_eq!(got.form, form, "{}", String::from_utf8_lossy(&g.to_line()));
        assert_eq!(
            got.automorphisms,
            count,
            "{}",
            String::from_utf8_lossy(&g.to_line())
        );
    }
}
