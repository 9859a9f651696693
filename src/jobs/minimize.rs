//! `minimize`: for every unique puzzle, a minimal puzzle with the same solution.
//!
//! Givens are tried for removal in cell order (row-major), deterministically: a removal
//! is kept when the puzzle stays unique. The result is minimal: a given whose removal
//! was refused left two solutions behind, and the final puzzle, holding a subset of the
//! givens present then, still allows both without that given.

use std::marker::PhantomData;

use super::{Answer, Columns, Job, Value};
use crate::engines::{engine, Bitboards, Engine};
use crate::values::geometry::Variant;
use crate::values::grid::{Grid, CELLS};
use crate::values::puzzle::{Puzzle, Shapes};
use crate::values::search::Budget;
use crate::values::status::Status;

/// Drops redundant givens from unique puzzles; other records keep their status.
pub struct Minimize<E = Bitboards>(PhantomData<fn() -> E>);

impl<E> Default for Minimize<E> {
    fn default() -> Self {
        Minimize(PhantomData)
    }
}

impl Minimize {
    /// The job on the bitboard engines ([`Bitboards`]).
    pub fn new() -> Self {
        Self::default()
    }
}

/// The `minimal` and `minimal_givens` columns: empty unless the record is `unique`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Minimal {
    /// The minimal puzzle, for a unique record.
    pub puzzle: Option<Grid>,
}

impl Columns for Minimal {
    const NAMES: &'static [&'static str] = &["minimal", "minimal_givens"];

    fn value(&self, index: usize) -> Value<'_> {
        match (&self.puzzle, index) {
            (Some(p), 0) => Value::Grid(p),
            (Some(p), _) => Value::Count(p.given_count() as u64),
            (None, _) => Value::Empty,
        }
    }
}

/// A minimal puzzle with the same unique solution as `puzzle`, which must be unique.
pub fn minimize<E: Engine>(engine: &mut E, puzzle: &Grid) -> Grid {
    let mut current = *puzzle;
    for cell in 0..CELLS {
        let digit = current.get(cell);
        // A count that spent its budget proves nothing: the given stays.
        if digit != 0 && unique_without(engine, &mut current, cell) != Some(true) {
            current.set(cell, digit);
        }
    }
    current
}

/// Whether unique `puzzle` is minimal: no given can go with the puzzle staying unique.
/// A solve per given; `None` when a count spent its budget before a removal proved the
/// puzzle not minimal (then nothing is known).
pub fn is_minimal<E: Engine>(engine: &mut E, puzzle: &Grid) -> Option<bool> {
    let mut without = *puzzle;
    let mut known = true;
    for cell in 0..CELLS {
        let digit = without.get(cell);
        if digit == 0 {
            continue;
        }
        let unique = unique_without(engine, &mut without, cell);
        without.set(cell, digit);
        match unique {
            Some(true) => return Some(false),
            Some(false) => {}
            None => known = false,
        }
    }
    known.then_some(true)
}

/// Empties `cell` of `puzzle` and says whether it is still unique (`None` when the count
/// spent its budget); the cell is left empty.
fn unique_without<E: Engine>(engine: &mut E, puzzle: &mut Grid, cell: usize) -> Option<bool> {
    puzzle.set(cell, 0);
    let count = engine.count(puzzle, 2);
    (!count.spent).then_some(count.solutions == 1)
}

impl<E: Engine> Job for Minimize<E> {
    type Worker = Box<E>;
    type Extra = Minimal;

    fn name(&self) -> &'static str {
        "minimize"
    }

    /// Classic 9x9 grids.
    fn takes(&self) -> Shapes {
        Shapes::GRIDS
    }

    fn checks_uniqueness(&self) -> bool {
        true
    }

    fn worker(&self, variant: Variant, budget: Budget) -> Box<E> {
        engine(variant, budget)
    }

    fn run(&self, engine: &mut Box<E>, puzzle: Puzzle<'_>) -> Answer<Minimal> {
        let answer = engine.classify_puzzle(puzzle);
        let minimal = match (answer.status, puzzle) {
            (Status::Unique, Puzzle::Grid(grid)) => Some(minimize(&mut **engine, grid)),
            _ => None,
        };
        answer.with(Minimal { puzzle: minimal })
    }
}
