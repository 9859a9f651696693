//! Profiling harness: count-to-2 over one dataset, repeated. Not part of the tool.
//! (The `sudoku` crate on the same files: `examples/sudoku_crate_bench.rs`.)
use std::time::Instant;
use sudoku_batch::pipeline::input::{detect_layout, ColumnChoice};
use sudoku_batch::Solver;
fn main() {
    let path = std::env::args().nth(1).expect("path");
    let reps: usize = std::env::args().nth(2).map_or(10, |s| s.parse().unwrap());
    let bytes = std::fs::read(&path).unwrap();
    let layout = detect_layout(&bytes, None, &ColumnChoice::Auto).unwrap();
    let puzzles = sudoku_batch::datasets::bench::load(&bytes, &layout, &Default::default()).puzzles;
    let mut solver = Solver::new();
    let t = Instant::now();
    let mut n = 0u64;
    for _ in 0..reps {
        for p in &puzzles {
            n += solver.count(p, 2).solutions;
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!("{path}: {:.0}/s ({n})", (reps * puzzles.len()) as f64 / s);
}
