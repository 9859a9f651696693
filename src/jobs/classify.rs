//! `classify`: solutions counted up to two per record.

use std::marker::PhantomData;

use super::{Answer, Job};
use crate::engines::{engine, Bitboards, Engine};
use crate::values::geometry::Variant;
use crate::values::puzzle::{Puzzle, Shapes};
use crate::values::search::Budget;

/// `unique`, `multiple` (with one solution), `unsolvable` or `invalid`.
pub struct Classify<E = Bitboards>(PhantomData<fn() -> E>);

impl<E> Default for Classify<E> {
    fn default() -> Self {
        Classify(PhantomData)
    }
}

impl Classify {
    /// The job on the bitboard engines ([`Bitboards`]).
    pub fn new() -> Self {
        Self::default()
    }
}

impl<E: Engine> Job for Classify<E> {
    type Worker = Box<E>;
    type Extra = ();

    fn name(&self) -> &'static str {
        "classify"
    }

    fn takes(&self) -> Shapes {
        Shapes::ALL
    }

    fn checks_uniqueness(&self) -> bool {
        true
    }

    fn worker(&self, variant: Variant, budget: Budget) -> Box<E> {
        engine(variant, budget)
    }

    #[inline]
    fn run(&self, engine: &mut Box<E>, puzzle: Puzzle<'_>) -> Answer {
        engine.classify_puzzle(puzzle)
    }
}
