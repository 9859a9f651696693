use std::time::Instant;
use sudoku_batch::*;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read(&path).unwrap();
    let mut puzzles = Vec::new();
    for line in text.split(|&b| b == b'\n') {
        for tok in line.split(|&b| b == b' ' || b == b',' || b == b'\t' || b == b'\r') {
            if tok.len() == 81 {
                if let Ok(g) = Grid::parse(tok) {
                    puzzles.push(g);
                }
                break;
            }
        }
    }
    let mut s = Solver::new();
    let t = Instant::now();
    let mut uniq = 0;
    let mut guesses = 0u64;
    for p in &puzzles {
        if let Classification::Unique(sol) = s.classify(p) {
            assert!(sol.is_valid_solution() && sol.keeps_givens_of(p));
            uniq += 1;
        }
        guesses += s.stats().guesses as u64;
    }
    let ours = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut u2 = 0;
    for p in &puzzles {
        let sd = sudoku::Sudoku::from_bytes(*p.cells()).unwrap();
        if sd.solutions_count_up_to(2) == 1 {
            u2 += 1;
        }
    }
    let theirs = t.elapsed().as_secs_f64();
    let n = puzzles.len() as f64;
    println!("{path}: n={} unique ours={uniq} sudoku={u2} ours={:.0}/s sudoku={:.0}/s ratio={:.2} guesses/puzzle={:.2}", puzzles.len(), n/ours, n/theirs, theirs/ours, guesses as f64/n);
}
