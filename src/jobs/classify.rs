//! `classify`: solutions counted up to two per record.

use std::marker::PhantomData;

use super::{board_engine, engine};
use super::{Answer, BoardAnswer, Job};
use crate::engine::{BoardEngine, Budget, Engine};
use crate::grid::Grid;
use crate::marks::Marks;
use crate::report::Status;
use crate::solver::{Classification, Solver};
use crate::variant::{Board, Variant};

/// `unique`, `multiple` (with one solution), `unsolvable` or `invalid`.
pub struct Classify<E = Solver>(PhantomData<fn() -> E>);

impl<E> Default for Classify<E> {
    fn default() -> Self {
        Classify(PhantomData)
    }
}

impl Classify {
    /// The job on the classic 9x9 engine ([`Solver`]).
    pub fn new() -> Self {
        Self::default()
    }
}

/// The row for a classification: status, solution and clash.
pub(super) fn answer(class: Classification) -> Answer<()> {
    let (status, solution, clash) = match class {
        Classification::Unique(s) => (Status::Unique, Some(s), None),
        Classification::Multiple(s) => (Status::Multiple, Some(s), None),
        Classification::Unsolvable => (Status::Unsolvable, None, None),
        Classification::Invalid(c) => (Status::Invalid, None, Some(c)),
        Classification::Undecided(s) => (Status::Undecided, s, None),
    };
    Answer {
        status,
        solution,
        clash,
        extra: (),
    }
}

impl<E: Engine> Job for Classify<E> {
    type Worker = Box<E>;
    type Extra = ();
    type Boards = E::Boards;

    fn name(&self) -> &'static str {
        "classify"
    }

    fn checks_uniqueness(&self) -> bool {
        true
    }

    fn worker(&self, budget: Budget) -> Box<E> {
        engine(budget)
    }

    fn boards(&self, variant: Variant, budget: Budget) -> E::Boards {
        board_engine(variant, budget)
    }

    #[inline]
    fn run(&self, engine: &mut Box<E>, puzzle: &Grid) -> Answer<()> {
        answer(engine.classify(puzzle))
    }

    fn run_board(&self, engine: &mut E::Boards, board: &Board) -> Option<BoardAnswer> {
        Some(BoardAnswer::from_count(engine.count(board, 2), |n| {
            if n == 1 {
                Status::Unique
            } else {
                Status::Multiple
            }
        }))
    }

    fn run_marks(&self, engine: &mut Box<E>, marks: &Marks) -> Option<Answer<()>> {
        engine.classify_marks(marks).map(answer)
    }
}
