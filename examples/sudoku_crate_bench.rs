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

use sudoku_batch::pipeline::input::{detect_layout, ColumnChoice};

fn main() -> ExitCode {
    match run(&std::env::args().skip(1).collect::<Vec<_>>()) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(2)
        }
    }
}

/// Times the file named in `args`; the output line, or why there is none.
fn run(args: &[String]) -> Result<String, String> {
    let usage = "usage: sudoku_crate_bench FILE [count|solve] [ROUNDS]";
    let path = args.first().ok_or(usage)?;
    let solve = match args.get(1).map_or("count", String::as_str) {
        "count" => false,
        "solve" => true,
        other => return Err(format!("unknown mode {other:?}: count or solve")),
    };
    let rounds: usize = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(5).max(1);
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let layout =
        detect_layout(&bytes, None, &ColumnChoice::Auto).map_err(|e| format!("{path}: {e}"))?;
    let puzzles: Vec<sudoku::Sudoku> =
        sudoku_batch::datasets::bench::load(&bytes, &layout, &Default::default())
            .puzzles
            .iter()
            .filter_map(|p| sudoku::Sudoku::from_bytes(*p.cells()).ok())
            .collect();
    if puzzles.is_empty() {
        return Err(format!("{path}: no 9x9 puzzles"));
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
    Ok(format!("{path}\t{:.0}\t{answered}", rates[rates.len() / 2]))
}
