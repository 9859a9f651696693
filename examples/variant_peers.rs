//! The variant engine beside the crates `sudoku-variants` (its fastest configuration:
//! backtracking with naked singles and "only cell" strategies) and `yasgs`, on the same
//! bundled puzzles, one thread, each classifying (two solutions looked for):
//!
//! ```sh
//! cargo run --release --example variant_peers [ROUNDS] [PUZZLES_PER_SET] [SET_FILTER]
//! ```
//!
//! Every engine's answer is checked (all puzzles are unique) before it is timed.

use std::time::Instant;

use sudoku_batch::engines::variant::VariantSolver;
use sudoku_batch::values::board::Board;
use sudoku_batch::values::geometry::Variant;
use sudoku_variants::constraint::{
    CompositeConstraint, Constraint, DefaultConstraint, DiagonalsConstraint,
};
use sudoku_variants::solver::strategy::{
    CompositeStrategy, NakedSingleStrategy, OnlyCellStrategy, StrategicBacktrackingSolver,
};
use sudoku_variants::solver::{Solution, Solver};
use sudoku_variants::Sudoku;

/// Cell values of a line in our default symbols.
fn values(text: &str) -> Vec<u8> {
    text.bytes()
        .map(|b| match b {
            b'.' => 0,
            b'1'..=b'9' => b - b'0',
            _ => b.to_ascii_uppercase() - b'A' + 10,
        })
        .collect()
}

/// `NxN;a,b,,c,...` for sudoku-variants.
fn variants_code(v: &[u8], side: usize) -> String {
    let n = (2..=5).find(|n| n * n == side).unwrap();
    let cells: Vec<String> = v
        .iter()
        .map(|&x| if x == 0 { String::new() } else { x.to_string() })
        .collect();
    format!("{n}x{n};{}", cells.join(","))
}

/// yasgs' alphabet: `.`, 1-9, then a-z.
fn yasgs_code(v: &[u8]) -> String {
    const ALPHABET: &[u8] = b".123456789abcdefghijklmnop";
    v.iter()
        .map(|&x| ALPHABET[usize::from(x)] as char)
        .collect()
}

/// Puzzles per second of `solver` from sudoku-variants under `constraint`, each answer
/// checked unique first.
fn time_peer<C: Constraint + Clone>(
    puzzles: &[Vec<u8>],
    side: usize,
    constraint: C,
    solver: &impl Solver,
    rounds: u32,
    file: &str,
) -> f64 {
    let sudokus: Vec<_> = puzzles
        .iter()
        .map(|p| Sudoku::parse(&variants_code(p, side), constraint.clone()).unwrap())
        .collect();
    for s in &sudokus {
        assert!(matches!(solver.solve(s), Solution::Unique(_)), "{file}");
    }
    let started = Instant::now();
    for _ in 0..rounds {
        for s in &sudokus {
            std::hint::black_box(solver.solve(s));
        }
    }
    rate(sudokus.len(), rounds, started)
}

fn rate(n: usize, rounds: u32, started: Instant) -> f64 {
    (n as f64 * f64::from(rounds)) / started.elapsed().as_secs_f64()
}

fn main() {
    let rounds: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3);
    let limit: usize = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(50);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/variants");
    let only = std::env::args().nth(3).unwrap_or_default();
    println!("| set | puzzles | sudoku-batch /s | sudoku-variants /s | yasgs /s | ours / sudoku-variants | ours / yasgs |");
    println!("|---|--:|--:|--:|--:|--:|--:|");
    for (file, side, diagonal) in [
        ("solo-4x4.txt", 4, false),
        ("solo-diagonal-9x9.txt", 9, true),
        ("solo-diagonal-9x9-advanced.txt", 9, true),
        ("solo-16x16.txt", 16, false),
        ("solo-diagonal-16x16.txt", 16, true),
        ("solo-25x25.txt", 25, false),
    ] {
        if !file.contains(&only) {
            continue;
        }
        let whole = std::fs::read_to_string(root.join(file)).unwrap();
        // The first `limit` puzzles (the peers take seconds per large puzzle).
        let text: String = whole
            .lines()
            .take(limit)
            .map(|l| format!("{l}\n"))
            .collect();
        let puzzles: Vec<Vec<u8>> = text.lines().map(values).collect();
        let variant = if diagonal {
            Variant::Diagonal
        } else {
            Variant::Classic
        };

        // Ours.
        let boards: Vec<Board> = text
            .lines()
            .map(|l| Board::parse(l.as_bytes(), None, None).unwrap())
            .collect();
        let mut engine = VariantSolver::new(variant);
        for b in &boards {
            assert_eq!(engine.count(b, 2).unwrap().unwrap().solutions, 1, "{file}");
        }
        let started = Instant::now();
        for _ in 0..rounds {
            for b in &boards {
                std::hint::black_box(engine.count(b, 2).unwrap().unwrap());
            }
        }
        let ours = rate(boards.len(), rounds, started);

        // sudoku-variants (fastest configuration of its own benchmarks).
        let solver = StrategicBacktrackingSolver::new(CompositeStrategy::new(
            NakedSingleStrategy,
            OnlyCellStrategy,
        ));
        let theirs_rate = if diagonal {
            let constraint = CompositeConstraint::new(DefaultConstraint, DiagonalsConstraint);
            time_peer(&puzzles, side, constraint, &solver, rounds, file)
        } else {
            time_peer(&puzzles, side, DefaultConstraint, &solver, rounds, file)
        };

        // yasgs (classic rules only).
        let yasgs_rate = if diagonal {
            None
        } else {
            let codes: Vec<String> = puzzles.iter().map(|p| yasgs_code(p)).collect();
            for c in &codes {
                assert_eq!(yasgs::solve(c, 2).len(), 1, "{file}");
            }
            let started = Instant::now();
            for _ in 0..rounds {
                for c in &codes {
                    std::hint::black_box(yasgs::solve(c, 2));
                }
            }
            Some(rate(codes.len(), rounds, started))
        };
        let fmt = |x: Option<f64>| x.map_or("-".to_string(), |r| format!("{r:.1}"));
        println!(
            "| {file} | {} | {ours:.0} | {theirs_rate:.1} | {} | {:.1} | {} |",
            boards.len(),
            fmt(yasgs_rate),
            ours / theirs_rate,
            yasgs_rate.map_or("-".to_string(), |y| format!("{:.1}", ours / y)),
        );
    }
}
