//! The dancing-links engine against the band solver on every bundled file: the same
//! status for every record and the same solution for every unique one (for `multiple`
//! records the engines may find different first solutions; each must be valid).

mod common;

use std::process::Command;

use sudoku_batch::dlx::Dlx;
use sudoku_batch::{Engine, Grid, Solver};

fn classify(file: &str, engine: &str) -> Vec<csv::StringRecord> {
    let out = Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(["classify", file, "--quiet", "--engine", engine])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    csv::Reader::from_reader(&out.stdout[..])
        .records()
        .map(Result::unwrap)
        .collect()
}

#[test]
fn dlx_agrees_with_the_band_solver_on_every_bundled_file() {
    for name in [
        "royle-17-clue.txt",
        "magictour-top1465.txt",
        "kaggle-1m-first10k.csv",
        "kaggle-3m-curated5000.csv",
        "sudoku-exchange-diabolical.txt",
        "sudoku-exchange-easy-with-solutions.txt",
        "sudoku-exchange-hard-with-solutions.txt",
        "norvig-easy50.txt",
        "norvig-top95.txt",
        "sudopedia-cases.tsv",
    ] {
        let path = common::data(name);
        let fast = classify(path.to_str().unwrap(), "fast");
        let dlx = classify(path.to_str().unwrap(), "dlx");
        assert_eq!(fast.len(), dlx.len(), "{name}");
        for (f, d) in fast.iter().zip(&dlx) {
            assert_eq!((&f[0], &f[3], &f[4]), (&d[0], &d[3], &d[4]), "{name}");
            if &f[3] == "unique" {
                assert_eq!(&f[2], &d[2], "{name} line {}", &f[0]);
            }
            if &d[3] == "multiple" {
                let p = Grid::parse(d[1].as_bytes()).unwrap();
                let s = Grid::parse(d[2].as_bytes()).unwrap();
                assert!(s.is_valid_solution() && s.keeps_givens_of(&p));
            }
        }
    }
}

#[test]
fn dlx_counts_match_on_puzzles_with_many_solutions() {
    let mut dlx = Dlx::boxed();
    let mut fast = Solver::boxed();
    for r in common::load("sudopedia-cases.tsv") {
        for limit in [1, 2, 10, 1000] {
            assert_eq!(
                Engine::count(&mut *dlx, &r.puzzle, limit).solutions,
                Engine::count(&mut *fast, &r.puzzle, limit).solutions,
                "line {} limit {limit}",
                r.line
            );
        }
    }
}
