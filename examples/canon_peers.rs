//! Canonical forms timed beside the [`sudoku`](https://crates.io/crates/sudoku) crate's
//! `canonicalized()`, one thread, on the same puzzles: the file loaded as the CLI loads
//! it, one warm-up round, then timed rounds (median kept). The crate canonicalises the
//! solution grid, so it answers uniquely solvable puzzles only; ours answers every
//! puzzle. Prints the file, both rates in puzzles/s, their ratio, and how often the two
//! agree on which puzzles are equivalent (same form for the same pair), tab-separated.
//!
//! ```sh
//! cargo run --release --example canon_peers -- FILE [ROUNDS]
//! ```

use std::collections::HashMap;
use std::process::ExitCode;
use std::time::Instant;

use sudoku_batch::engines::canon::Canonicalizer;
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

fn median(mut rates: Vec<f64>) -> f64 {
    rates.sort_by(f64::total_cmp);
    rates[rates.len() / 2]
}

fn run(args: &[String]) -> Result<String, String> {
    let path = args.first().ok_or("usage: canon_peers FILE [ROUNDS]")?;
    let rounds: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(3).max(1);
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let layout =
        detect_layout(&bytes, None, &ColumnChoice::Auto).map_err(|e| format!("{path}: {e}"))?;
    let grids = sudoku_batch::datasets::bench::load(&bytes, &layout, &Default::default()).puzzles;
    let crate_puzzles: Vec<sudoku::Sudoku> = grids
        .iter()
        .filter_map(|p| sudoku::Sudoku::from_bytes(*p.cells()).ok())
        .collect();
    if grids.is_empty() {
        return Err(format!("{path}: no 9x9 puzzles"));
    }
    let mut canon = Canonicalizer::new();
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    let mut sink = 0u64;
    for round in 0..=rounds {
        let start = Instant::now();
        for g in &grids {
            sink = sink.wrapping_add(canon.canonical(g).automorphisms);
        }
        let ours_rate = grids.len() as f64 / start.elapsed().as_secs_f64();
        let start = Instant::now();
        for s in &crate_puzzles {
            sink = sink.wrapping_add(s.canonicalized().map_or(0, |(_, n)| n as u64));
        }
        let theirs_rate = crate_puzzles.len() as f64 / start.elapsed().as_secs_f64();
        if round > 0 {
            ours.push(ours_rate);
            theirs.push(theirs_rate);
        }
    }
    // Same partition into classes? Map each crate form to ours and back.
    let (mut fwd, mut back) = (HashMap::new(), HashMap::new());
    let mut consistent = 0usize;
    for (g, s) in grids.iter().zip(&crate_puzzles) {
        let Some((c, _)) = s.canonicalized() else {
            continue;
        };
        let a = canon.canonical(g).form;
        let b = c.to_bytes();
        let f = *fwd.entry(b).or_insert(a);
        let k = *back.entry(a).or_insert(b);
        consistent += usize::from(f == a && k == b);
    }
    let (o, t) = (median(ours), median(theirs));
    Ok(format!(
        "{path}\t{o:.0}\t{t:.0}\t{:.2}\t{consistent}/{}\t{}",
        o / t,
        crate_puzzles.len(),
        sink % 2
    ))
}
