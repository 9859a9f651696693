//! `classify --cross-check`: every record classified by two independent engines; the row
//! is the first engine's, and column `engines` says whether the second agreed.
//!
//! Two engines agree when they give the same class and, for a unique puzzle, the same
//! solution (a puzzle with several solutions may show a different one from each).

use std::marker::PhantomData;

use super::{Answer, Columns, Job, Value};
use crate::engines::dlx::Dlx;
use crate::engines::{engine, Bitboards, Engine};
use crate::values::geometry::Variant;
use crate::values::puzzle::{Puzzle, Shapes};
use crate::values::search::Budget;
use crate::values::status::Status;

/// Classification by `A`, checked by `B`.
pub struct CrossCheck<A = Bitboards, B = Dlx>(PhantomData<fn() -> (A, B)>);

impl<A, B> Default for CrossCheck<A, B> {
    fn default() -> Self {
        CrossCheck(PhantomData)
    }
}

impl CrossCheck {
    /// The fast engines checked by dancing links.
    pub fn new() -> Self {
        Self::default()
    }
}

/// Column `engines`: empty for malformed records (no engine saw them) and for records
/// either engine left `undecided` (nothing to compare), else `agree` or `disagree`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Agreement {
    /// Both engines classified the record.
    pub checked: bool,
    /// They gave the same answer.
    pub agree: bool,
}

impl Columns for Agreement {
    const NAMES: &'static [&'static str] = &["engines"];

    fn value(&self, _: usize) -> Value<'_> {
        match (self.checked, self.agree) {
            (false, _) => Value::Empty,
            (true, true) => Value::Text("agree"),
            (true, false) => Value::Text("disagree"),
        }
    }

    fn cross_check(&self) -> Option<bool> {
        self.checked.then_some(self.agree)
    }
}

impl<A: Engine, B: Engine> Job for CrossCheck<A, B> {
    type Worker = (Box<A>, Box<B>);
    type Extra = Agreement;

    fn name(&self) -> &'static str {
        "classify"
    }

    /// Pencil marks are left out: dancing links do not read them.
    fn takes(&self) -> Shapes {
        Shapes::GRIDS_AND_BOARDS
    }

    fn checks_uniqueness(&self) -> bool {
        true
    }

    fn cross_checks(&self) -> bool {
        true
    }

    fn worker(&self, variant: Variant, budget: Budget) -> Self::Worker {
        (engine(variant, budget), engine(variant, budget))
    }

    #[inline]
    fn run(&self, (first, second): &mut Self::Worker, puzzle: Puzzle<'_>) -> Answer<Agreement> {
        let a = first.classify_puzzle(puzzle);
        let b = second.classify_puzzle(puzzle);
        let undecided = a.status == Status::Undecided || b.status == Status::Undecided;
        a.with(Agreement {
            checked: !undecided,
            agree: a.same_class(&b),
        })
    }
}
