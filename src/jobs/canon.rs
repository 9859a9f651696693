//! `canon`: every record classified as `classify` does, with its canonical (minlex) form
//! and automorphism count.

use std::marker::PhantomData;

use super::{Answer, Columns, Job, Value};
use crate::engines::canon::{Canonical, Canonicalizer};
use crate::engines::{engine, Bitboards, Engine};
use crate::values::geometry::Variant;
use crate::values::puzzle::{Puzzle, Shapes};
use crate::values::search::Budget;

/// Classifies each record and adds its canonical form, whatever its status (clashing
/// givens included); only malformed records get none.
pub struct Canon<E = Bitboards>(PhantomData<fn() -> E>);

impl<E> Default for Canon<E> {
    fn default() -> Self {
        Canon(PhantomData)
    }
}

impl Canon {
    /// The job on the bitboard engines ([`Bitboards`]).
    pub fn new() -> Self {
        Self::default()
    }
}

/// The `canonical` and `automorphisms` columns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CanonForm {
    /// The canonical form, for every well-formed record.
    pub canonical: Option<Canonical>,
}

impl Columns for CanonForm {
    const NAMES: &'static [&'static str] = &["canonical", "automorphisms"];

    fn value(&self, index: usize) -> Value<'_> {
        match (&self.canonical, index) {
            (Some(c), 0) => Value::Digits(&c.form),
            (Some(c), _) => Value::Count(c.automorphisms),
            (None, _) => Value::Empty,
        }
    }
}

impl<E: Engine> Job for Canon<E> {
    type Worker = (Box<E>, Box<Canonicalizer>);
    type Extra = CanonForm;

    fn name(&self) -> &'static str {
        "canon"
    }

    /// Canonical forms are of classic 9x9 grids.
    fn takes(&self) -> Shapes {
        Shapes::GRIDS
    }

    fn checks_uniqueness(&self) -> bool {
        true
    }

    fn worker(&self, variant: Variant, budget: Budget) -> Self::Worker {
        (engine(variant, budget), Box::new(Canonicalizer::new()))
    }

    fn run(&self, (engine, canon): &mut Self::Worker, puzzle: Puzzle<'_>) -> Answer<CanonForm> {
        let canonical = match puzzle {
            Puzzle::Grid(grid) => Some(canon.canonical(grid)),
            _ => None,
        };
        engine.classify_puzzle(puzzle).with(CanonForm { canonical })
    }
}
