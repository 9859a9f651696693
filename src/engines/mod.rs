//! The engine interface: what a job asks of a solver, and nothing about files, formats
//! or threads.
//!
//! An engine is made once per worker thread and reused for every puzzle that thread
//! handles, so an implementation keeps all its search state inside itself, in fixed-size
//! storage: a call never allocates.
//!
//! An engine is a family that takes every shape of puzzle ([`Puzzle`]) and routes it once
//! per record: [`Bitboards`] sends 9x9 grids and pencil marks to the band solver
//! ([`crate::Solver`]) and variant boards to the mask engine
//! ([`crate::engines::variant::VariantSolver`]); [`crate::engines::dlx::Dlx`] sends everything to dancing
//! links. Every job, `generate` and `bench` take any engine.

mod bitboards;
pub mod canon;
pub mod corpus;
pub mod dlx;
pub mod explainer;
pub mod generate;
pub mod grader;
pub mod solver;
pub mod variant;

pub use bitboards::Bitboards;

use crate::values::board::Board;
use crate::values::geometry::{GeometryError, Variant};
use crate::values::grid::Grid;
use crate::values::marks::Marks;
use crate::values::puzzle::{Answer, Puzzle, Shape};
use crate::values::search::{
    BoardClash, BoardCount, Budget, Classification, Count, Outcome, SearchStats,
};
use crate::values::status::Status;

/// A reusable solver of every shape of puzzle for one worker thread.
pub trait Engine: Send {
    /// A fresh engine on the heap, reading variant boards by the rules of `variant`
    /// (engines hold kilobytes of search state, more than a small thread stack should
    /// carry). Tables for a board size are made when the first board of that size
    /// arrives.
    fn new(variant: Variant) -> Box<Self>
    where
        Self: Sized;

    /// The first solution of a 9x9 grid in the engine's search order, or why there is
    /// none.
    fn solve(&mut self, puzzle: &Grid) -> Outcome;

    /// The first solution in which `cell` (0..81) does not hold `digit` (1..=9): with a
    /// unique puzzle's solution digit, `Unsolvable` says the puzzle stays unique when
    /// `cell` is emptied.
    fn solve_excluding(&mut self, puzzle: &Grid, cell: usize, digit: u8) -> Outcome;

    /// Solutions of a 9x9 grid counted up to `limit` (at least 1), with the first one
    /// found. Clashing givens count as zero solutions.
    fn count(&mut self, puzzle: &Grid, limit: u64) -> Count;

    /// Solutions of a 9x9 grid counted up to two, named as a class.
    fn classify(&mut self, puzzle: &Grid) -> Classification;

    /// Solutions of a variant board counted up to `limit` (at least 1), with the first
    /// found, or the clash that leaves it none; `Err` when the variant does not exist
    /// at the board's size (windoku beyond 9x9). A search that runs out of budget says
    /// so in [`BoardCount::spent`].
    fn count_board(
        &mut self,
        board: &Board,
        limit: u64,
    ) -> Result<Result<BoardCount, BoardClash>, GeometryError>;

    /// The first solution of a pencil-mark puzzle, when the engine reads them.
    fn solve_marks(&mut self, _marks: &Marks) -> Option<Outcome> {
        None
    }

    /// Solutions of a pencil-mark puzzle counted up to two, when the engine reads them.
    fn classify_marks(&mut self, _marks: &Marks) -> Option<Classification> {
        None
    }

    /// Search effort of the last call on a 9x9 grid or pencil marks.
    fn stats(&self) -> SearchStats;

    /// Sets how many branches each later call may try before it gives up: `solve` then
    /// answers [`Outcome::Undecided`], `classify` [`Classification::Undecided`] and
    /// `count` a [`Count`] with `spent` set. Engines start with [`Budget::DEFAULT`].
    fn set_budget(&mut self, budget: Budget);

    /// The first solution of a puzzle of any shape: `solved`, `unsolvable`, `invalid`
    /// or `undecided`.
    #[inline]
    fn solve_puzzle(&mut self, puzzle: Puzzle<'_>) -> Answer {
        match puzzle {
            Puzzle::Grid(grid) => Answer::solved(self.solve(grid)),
            Puzzle::Marks(marks) => self
                .solve_marks(marks)
                .map_or(Answer::refused(Shape::Marks), Answer::solved),
            Puzzle::Board(board) => Answer::counted(self.count_board(board, 1), |_| Status::Solved),
        }
    }

    /// The class of a puzzle of any shape, by its solutions counted up to two:
    /// `unique`, `multiple`, `unsolvable`, `invalid` or `undecided`.
    #[inline]
    fn classify_puzzle(&mut self, puzzle: Puzzle<'_>) -> Answer {
        match puzzle {
            Puzzle::Grid(grid) => Answer::classified(self.classify(grid)),
            Puzzle::Marks(marks) => self
                .classify_marks(marks)
                .map_or(Answer::refused(Shape::Marks), Answer::classified),
            Puzzle::Board(board) => Answer::counted(self.count_board(board, 2), |n| {
                if n == 1 {
                    Status::Unique
                } else {
                    Status::Multiple
                }
            }),
        }
    }
}

/// A fresh engine for `variant` on `budget`.
pub fn engine<E: Engine>(variant: Variant, budget: Budget) -> Box<E> {
    let mut engine = E::new(variant);
    engine.set_budget(budget);
    engine
}
