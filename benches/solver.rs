//! Single-thread solver throughput against peers on the same puzzles, in one run:
//! ours, the `sudoku` crate (JCZSolve port) and `msolve`, for `solve` and count-to-2.
//!
//! `cargo bench --bench solver`; `scripts/peers.sh` turns the results into ratios.

use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sudoku_batch::pipeline::input::{detect_layout, ColumnChoice};
use sudoku_batch::{Grid, Outcome, Solver};

mod common;

/// Public sets, each with the bundled set that stands in for it.
const DATASETS: &[(&str, &str)] = &[
    ("royle-17-clue.txt", "minimal.txt"),
    ("magictour-top1465.txt", "hard.txt"),
    ("kaggle-1m-first10k.csv", "quizzes.csv"),
];

fn load(path: &Path) -> Vec<Grid> {
    let bytes = std::fs::read(path).unwrap();
    let layout = detect_layout(&bytes, None, &ColumnChoice::Auto).unwrap();
    sudoku_batch::datasets::bench::load(&bytes, &layout, &Default::default()).puzzles
}

fn solvers(c: &mut Criterion) {
    for &(public, bundled) in DATASETS {
        let (name, path) = common::set(public, bundled);
        let puzzles = load(&path);
        let as_sudoku: Vec<sudoku::Sudoku> = puzzles
            .iter()
            .map(|p| sudoku::Sudoku::from_bytes(*p.cells()).unwrap())
            .collect();
        let as_msolve: Vec<msolve::Sudoku> = puzzles
            .iter()
            .map(|p| msolve::Sudoku::from(p.cells()))
            .collect();
        for mode in ["solve", "count2"] {
            let mut group = c.benchmark_group(format!("{mode}/{name}"));
            group.throughput(Throughput::Elements(puzzles.len() as u64));
            group.sample_size(10);
            group.warm_up_time(Duration::from_secs(1));
            group.measurement_time(Duration::from_secs(4));
            let mut solver = Box::new(Solver::new());
            group.bench_function(BenchmarkId::from_parameter("sudoku-batch"), |b| {
                b.iter(|| {
                    let mut n = 0u64;
                    for p in &puzzles {
                        n += if mode == "solve" {
                            matches!(solver.solve(p), Outcome::Solved(_)) as u64
                        } else {
                            solver.count(p, 2).solutions
                        };
                    }
                    n
                })
            });
            group.bench_function(BenchmarkId::from_parameter("sudoku-crate"), |b| {
                b.iter(|| {
                    let mut n = 0u64;
                    for s in &as_sudoku {
                        n += if mode == "solve" {
                            s.some_solution().is_some() as u64
                        } else {
                            s.solutions_count_up_to(2) as u64
                        };
                    }
                    n
                })
            });
            group.bench_function(BenchmarkId::from_parameter("msolve"), |b| {
                b.iter(|| {
                    let mut n = 0u64;
                    for s in &as_msolve {
                        n += if mode == "solve" {
                            s.solve_one().is_some() as u64
                        } else {
                            s.count_solutions(2) as u64
                        };
                    }
                    n
                })
            });
            group.finish();
        }
    }
}

criterion_group!(benches, solvers);
criterion_main!(benches);
