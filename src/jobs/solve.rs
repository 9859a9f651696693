//! `solve`: the first solution of every record.

use std::marker::PhantomData;

use super::{Answer, Job};
use crate::engines::{engine, Bitboards, Engine};
use crate::values::geometry::Variant;
use crate::values::puzzle::{Puzzle, Shapes};
use crate::values::search::Budget;

/// First solution only: `solved`, `unsolvable` or `invalid`.
pub struct Solve<E = Bitboards>(PhantomData<fn() -> E>);

impl<E> Default for Solve<E> {
    fn default() -> Self {
        Solve(PhantomData)
    }
}

impl Solve {
    /// The job on the bitboard engines ([`Bitboards`]).
    pub fn new() -> Self {
        Self::default()
    }
}

impl<E: Engine> Job for Solve<E> {
    type Worker = Box<E>;
    type Extra = ();

    fn name(&self) -> &'static str {
        "solve"
    }

    fn takes(&self) -> Shapes {
        Shapes::ALL
    }

    fn checks_uniqueness(&self) -> bool {
        false
    }

    fn worker(&self, variant: Variant, budget: Budget) -> Box<E> {
        engine(variant, budget)
    }

    #[inline]
    fn run(&self, engine: &mut Box<E>, puzzle: Puzzle<'_>) -> Answer {
        engine.solve_puzzle(puzzle)
    }
}
