//! `solve`: the first solution of every record.

use std::marker::PhantomData;

use super::{board_engine, engine};
use super::{Answer, BoardAnswer, Job};
use crate::engine::{BoardEngine, Budget, Engine};
use crate::grid::Grid;
use crate::marks::Marks;
use crate::report::Status;
use crate::solver::{Outcome, Solver};
use crate::variant::{Board, Variant};

/// First solution only: `solved`, `unsolvable` or `invalid`.
pub struct Solve<E = Solver>(PhantomData<fn() -> E>);

impl<E> Default for Solve<E> {
    fn default() -> Self {
        Solve(PhantomData)
    }
}

impl Solve {
    /// The job on the classic 9x9 engine ([`Solver`]).
    pub fn new() -> Self {
        Self::default()
    }
}

impl<E: Engine> Job for Solve<E> {
    type Worker = Box<E>;
    type Extra = ();
    type Boards = E::Boards;

    fn name(&self) -> &'static str {
        "solve"
    }

    fn checks_uniqueness(&self) -> bool {
        false
    }

    fn worker(&self, budget: Budget) -> Box<E> {
        engine(budget)
    }

    fn boards(&self, variant: Variant, budget: Budget) -> E::Boards {
        board_engine(variant, budget)
    }

    fn run_board(&self, engine: &mut E::Boards, board: &Board) -> Option<BoardAnswer> {
        Some(BoardAnswer::from_count(engine.count(board, 1), |_| {
            Status::Solved
        }))
    }

    fn run_marks(&self, engine: &mut Box<E>, marks: &Marks) -> Option<Answer<()>> {
        engine.solve_marks(marks).map(answer)
    }

    #[inline]
    fn run(&self, engine: &mut Box<E>, puzzle: &Grid) -> Answer<()> {
        answer(engine.solve(puzzle))
    }
}

/// The row for a first-solution search.
#[inline]
fn answer(outcome: Outcome) -> Answer<()> {
    let (status, solution, clash) = match outcome {
        Outcome::Solved(s) => (Status::Solved, Some(s), None),
        Outcome::Unsolvable => (Status::Unsolvable, None, None),
        Outcome::Invalid(c) => (Status::Invalid, None, Some(c)),
        Outcome::Undecided => (Status::Undecided, None, None),
    };
    Answer {
        status,
        solution,
        clash,
        extra: (),
    }
}
