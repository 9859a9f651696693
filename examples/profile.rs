//! Profiling harness: count-to-2 over one dataset, repeated. Not part of the tool.
use std::time::Instant;
use sudoku_batch::input::{detect_layout, ColumnChoice};
use sudoku_batch::Solver;
fn main() {
    let path = std::env::args().nth(1).expect("path");
    let reps: usize = std::env::args().nth(2).map_or(10, |s| s.parse().unwrap());
    let bytes = std::fs::read(&path).unwrap();
    let layout = detect_layout(&bytes, None, &ColumnChoice::Auto).unwrap();
    let puzzles = sudoku_batch::bench::load(&bytes, &layout, &Default::default()).puzzles;
    let peer = std::env::args().nth(3).is_some_and(|s| s == "peer");
    let as_sudoku: Vec<sudoku::Sudoku> = puzzles
        .iter()
        .map(|p| sudoku::Sudoku::from_bytes(*p.cells()).unwrap())
        .collect();
    let mut solver = Solver::new();
    let t = Instant::now();
    let mut n = 0u64;
    for _ in 0..reps {
        if peer {
            for s in &as_sudoku {
                n += s.solutions_count_up_to(2) as u64;
            }
        } else {
            for p in &puzzles {
                n += solver.count(p, 2).solutions;
            }
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!("{path}: {:.0}/s ({n})", (reps * puzzles.len()) as f64 / s);
}
