//! The [`sudoku`](https://crates.io/crates/sudoku) crate (a JCZSolve port) timed on one
//! puzzle file, one thread, the way `sudoku-batch bench` times ours: the puzzles loaded
//! as the CLI loads them, one warm-up round, then timed rounds over all of them,
//! counting solutions up to two (`count`) or finding one (`solve`). Prints the file, the
//! median round's puzzles/s and the number of puzzles answered, tab-separated;
//! `scripts/tdoku-peers.sh` runs it beside tdoku and ours.
//!
//! ```sh
//! cargo run --release --example sudoku_crate_bench -- FILE [count|solve] [ROUNDS]
//! ```

use std::process::ExitCode;
use std::time::Instant;

use sudoku_batch::input::{detect_layout, ColumnChoice};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(path), mode) = (args.first(), args.get(1).map_or("count", String::as_str)) else {
        eprintln!("usage: sudoku_crate_bench FILE [count|solve] [ROUNDS]");
        return ExitCode::from(2);
    };
    let solve = match mode {
        "count" => false,
        "solve" => true,
        other => {
            eprintln!("unknown mode {other:?}: count or solve");
            return ExitCode::from(2);
        }
    };
    let rounds: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(5).max(1);
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let layout = match detect_layout(&bytes, None, &ColumnChoice::Auto) {
        Ok(layout) => layout,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let puzzles: Vec<sudoku::Sudoku> =
        sudoku_batch::bench::load(&bytes, &layout, &Default::default())
            .puzzles
            .iter()
            .filter_map(|p| sudoku::Sudoku::from_bytes(*p.cells()).ok())
            .collect();
    if puzzles.is_empty() {
        eprintln!("{path}: no 9x9 puzzles");
        return ExitCode::from(2);
    }
    let mut rates = Vec::with_capacity(rounds);
    let mut answered = 0;
    for round in 0..=rounds {
        let start = Instant::now();
        let mut n = 0u64;
        for s in &puzzles {
            n += if solve {
                s.some_solution().is_some() as u64
            } else {
                (s.solutions_count_up_to(2) > 0) as u64
            };
        }
        let seconds = start.elapsed().as_secs_f64();
        answered = n;
        if round > 0 {
            rates.push(puzzles.len() as f64 / seconds);
        }
    }
    rates.sort_by(f64::total_cmp);
    println!("{path}\t{:.0}\t{answered}", rates[rates.len() / 2]);
    ExitCode::SUCCESS
}
