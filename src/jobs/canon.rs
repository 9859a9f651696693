//! `canon`: every record classified as `classify` does, with its canonical (minlex) form
//! and automorphism count.

use std::marker::PhantomData;

use super::{engine, Answer, Columns, Job, Value};
use crate::canon::{Canonical, Canonicalizer};
use crate::engine::{Budget, Engine};
use crate::grid::Grid;
use crate::solver::Solver;
use crate::variant::Variant;

/// Classifies each record and adds its canonical form, whatever its status (clashing
/// givens included); only malformed records get none.
pub struct Canon<E = Solver>(PhantomData<fn() -> E>);

impl<E> Default for Canon<E> {
    fn default() -> Self {
        Canon(PhantomData)
    }
}

impl Canon {
    /// The job on the classic 9x9 engine ([`Solver`]).
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
    type Boards = ();

    fn name(&self) -> &'static str {
        "canon"
    }

    fn checks_uniqueness(&self) -> bool {
        true
    }

    fn worker(&self, budget: Budget) -> Self::Worker {
        (engine(budget), Box::new(Canonicalizer::new()))
    }

    fn boards(&self, _: Variant, _: Budget) {}

    fn run(&self, (engine, canon): &mut Self::Worker, puzzle: &Grid) -> Answer<CanonForm> {
        let answer = super::classify::answer(engine.classify(puzzle));
        Answer {
            status: answer.status,
            solution: answer.solution,
            clash: answer.clash,
            extra: CanonForm {
                canonical: Some(canon.canonical(puzzle)),
            },
        }
    }
}
