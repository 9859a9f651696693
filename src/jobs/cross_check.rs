//! `classify --cross-check`: every record classified by two independent engines; the row
//! is the first engine's, and column `engines` says whether the second agreed.
//!
//! Two engines agree when they give the same class and, for a unique puzzle, the same
//! solution (a puzzle with several solutions may show a different one from each).

use std::marker::PhantomData;

use super::classify::answer;
use super::{board_engine, engine};
use super::{Answer, BoardAnswer, Classify, Columns, Job, Value};
use crate::dlx::Dlx;
use crate::engine::{Budget, Engine};
use crate::grid::Grid;
use crate::report::Status;
use crate::solver::{Classification, Solver};
use crate::variant::{Board, Variant};

/// Classification by `A`, checked by `B`.
pub struct CrossCheck<A = Solver, B = Dlx>(PhantomData<fn() -> (A, B)>);

impl<A, B> Default for CrossCheck<A, B> {
    fn default() -> Self {
        CrossCheck(PhantomData)
    }
}

impl CrossCheck {
    /// The band solver checked by dancing links.
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

/// True when two classifications of one puzzle say the same.
pub fn same_class(a: &Classification, b: &Classification) -> bool {
    match (a, b) {
        (Classification::Unique(x), Classification::Unique(y)) => x == y,
        (Classification::Multiple(_), Classification::Multiple(_))
        | (Classification::Unsolvable, Classification::Unsolvable)
        | (Classification::Invalid(_), Classification::Invalid(_)) => true,
        _ => false,
    }
}

/// True when two engines' answers for one variant board say the same (as
/// [`same_class`]).
pub fn same_board_class<E, F>(a: &BoardAnswer<E>, b: &BoardAnswer<F>) -> bool {
    a.status == b.status && (a.status != Status::Unique || a.solution == b.solution)
}

impl<A: Engine, B: Engine> Job for CrossCheck<A, B> {
    type Worker = (Box<A>, Box<B>);
    type Extra = Agreement;
    type Boards = (A::Boards, B::Boards);

    fn name(&self) -> &'static str {
        "classify"
    }

    fn checks_uniqueness(&self) -> bool {
        true
    }

    fn cross_checks(&self) -> bool {
        true
    }

    fn worker(&self, budget: Budget) -> (Box<A>, Box<B>) {
        (engine(budget), engine(budget))
    }

    fn boards(&self, variant: Variant, budget: Budget) -> Self::Boards {
        (board_engine(variant, budget), board_engine(variant, budget))
    }

    fn run_board(
        &self,
        (first, second): &mut Self::Boards,
        board: &Board,
    ) -> Option<BoardAnswer<Agreement>> {
        let a = Classify::<A>::default().run_board(first, board)?;
        let b = Classify::<B>::default().run_board(second, board)?;
        let undecided = a.status == Status::Undecided || b.status == Status::Undecided;
        Some(BoardAnswer {
            status: a.status,
            solution: a.solution,
            problem: a.problem,
            extra: Agreement {
                checked: !undecided,
                agree: same_board_class(&a, &b),
            },
        })
    }

    #[inline]
    fn run(&self, (first, second): &mut (Box<A>, Box<B>), puzzle: &Grid) -> Answer<Agreement> {
        let class = first.classify(puzzle);
        let other = second.classify(puzzle);
        let undecided = matches!(class, Classification::Undecided(_))
            || matches!(other, Classification::Undecided(_));
        let row = answer(class);
        Answer {
            status: row.status,
            solution: row.solution,
            clash: row.clash,
            extra: Agreement {
                checked: !undecided,
                agree: same_class(&class, &other),
            },
        }
    }
}
