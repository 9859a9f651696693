//! Profiling harness for generation: full grids alone, then whole minimal puzzles.
use std::time::Instant;
use sudoku_batch::engines::generate::{full_grid, make, record_rng, Orbits, Pattern, Spec, Target};
use sudoku_batch::values::geometry::Variant;
use sudoku_batch::{Bitboards, Engine};
fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .map_or(20000, |s| s.parse().unwrap());
    let mut solver = Bitboards::new(Variant::Classic);
    let t = Instant::now();
    let mut x = 0;
    for i in 0..n {
        x += full_grid(&mut *solver, &mut record_rng(1, i)).get(0) as u64;
    }
    println!(
        "full grids: {:.0}/s ({x})",
        n as f64 / t.elapsed().as_secs_f64()
    );
    for k in [20u16, 21, 22, 23, 25, 30] {
        let spec = Spec {
            pattern: Pattern::None,
            target: Target::Givens(k),
        };
        let orbits = Orbits::new(Pattern::None);
        let m = if k <= 21 { 20 } else { 2000 };
        let t = Instant::now();
        let restarts: u64 = (0..m)
            .map(|i| {
                make(
                    &mut *solver,
                    &spec,
                    &orbits,
                    &mut record_rng(1, i),
                    u64::MAX,
                )
                .map_or(0, |made| u64::from(made.restarts))
            })
            .sum();
        println!(
            "givens {k}: {:.1} restarts for givens per puzzle, {:.0}/s",
            restarts as f64 / m as f64,
            m as f64 / t.elapsed().as_secs_f64()
        );
    }
    for pattern in [Pattern::None, Pattern::Rot180] {
        let spec = Spec {
            pattern,
            target: Target::Minimal,
        };
        let orbits = Orbits::new(pattern);
        let t = Instant::now();
        let mut givens = 0;
        for i in 0..n {
            givens += make(
                &mut *solver,
                &spec,
                &orbits,
                &mut record_rng(1, i),
                u64::MAX,
            )
            .map_or(0, |made| made.puzzle.given_count());
        }
        let mut c = Counting::new(Variant::Classic);
        for i in 0..2000 {
            make(&mut *c, &spec, &orbits, &mut record_rng(1, i), u64::MAX);
        }
        println!("per puzzle: {:.1} counts ({:.0} ns each), {:.1} exclusions ({:.0} ns each, {:.0}% unsolvable)",
            c.counts as f64 / 2000.0, c.count_ns as f64 / c.counts as f64,
            c.excl as f64 / 2000.0, c.excl_ns as f64 / c.excl as f64, 100.0 * c.excl_unsolvable as f64 / c.excl as f64);
        println!(
            "{pattern:?} minimal: {:.0}/s, {:.2} givens",
            n as f64 / t.elapsed().as_secs_f64(),
            givens as f64 / n as f64
        );
    }
}

/// Counts engine calls by kind.
pub struct Counting {
    inner: Box<Bitboards>,
    pub counts: u64,
    pub excl: u64,
    pub excl_unsolvable: u64,
    pub count_ns: u128,
    pub excl_ns: u128,
}
impl sudoku_batch::Engine for Counting {
    fn new(variant: Variant) -> Box<Self> {
        Box::new(Counting {
            inner: Bitboards::new(variant),
            counts: 0,
            excl: 0,
            excl_unsolvable: 0,
            count_ns: 0,
            excl_ns: 0,
        })
    }
    fn count_board(
        &mut self,
        board: &sudoku_batch::values::board::Board,
        limit: u64,
    ) -> Result<
        Result<sudoku_batch::values::search::BoardCount, sudoku_batch::values::search::BoardClash>,
        sudoku_batch::values::geometry::GeometryError,
    > {
        self.inner.count_board(board, limit)
    }
    fn solve(&mut self, p: &sudoku_batch::Grid) -> sudoku_batch::Outcome {
        self.inner.solve(p)
    }
    fn solve_excluding(
        &mut self,
        p: &sudoku_batch::Grid,
        c: usize,
        d: u8,
    ) -> sudoku_batch::Outcome {
        let t = Instant::now();
        self.excl += 1;
        let o = self.inner.solve_excluding(p, c, d);
        self.excl_unsolvable += (o == sudoku_batch::Outcome::Unsolvable) as u64;
        self.excl_ns += t.elapsed().as_nanos();
        o
    }
    fn count(&mut self, p: &sudoku_batch::Grid, l: u64) -> sudoku_batch::Count {
        let t = Instant::now();
        self.counts += 1;
        let c = self.inner.count(p, l);
        self.count_ns += t.elapsed().as_nanos();
        c
    }
    fn classify(&mut self, p: &sudoku_batch::Grid) -> sudoku_batch::Classification {
        self.inner.classify(p)
    }
    fn stats(&self) -> sudoku_batch::SearchStats {
        self.inner.stats()
    }
    fn set_budget(&mut self, budget: sudoku_batch::values::search::Budget) {
        self.inner.set_budget(budget);
    }
}
