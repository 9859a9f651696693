//! The engine interface: what a job asks of a solver, and nothing about files, formats
//! or threads.
//!
//! An engine is made once per worker thread and reused for every puzzle that thread
//! handles, so an implementation keeps all its search state inside itself, in fixed-size
//! storage: a call never allocates. [`Solver`] (the classic 9x9 band-bitboard engine)
//! is the first implementation; other engines (DLX, a generic engine for other
//! geometries) implement the same trait, and every job and `bench` take any of them.

use crate::grid::Grid;
use crate::marks::Marks;
use crate::solver::{Classification, Count, Outcome, SearchStats, Solver};
use crate::variant::{Board, BoardClash, BoardCount, GeometryError, Variant, VariantSolver};

/// How much search one record may take: the branches (guesses) an engine tries before it
/// gives up and answers `undecided`. Every engine counts its own branches, so the
/// same budget is a similar amount of work in each.
///
/// The default, 2^16 branches, is far beyond any classic 9x9 puzzle and stops a hard
/// 25x25 board within about a second. Measured on the bundled and shared sets (Intel
/// Xeon, 2026-12): the band solver never takes more than 2,000 branches on a 9x9
/// puzzle counting to two, dancing links at most 25,000; on 25x25 boards the variant
/// engine tries about 50,000 branches a second, dancing links about 130,000.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Budget(u64);

impl Budget {
    /// The default budget: 2^16 branches.
    pub const DEFAULT: Budget = Budget(1 << 16);

    /// No limit.
    pub const UNLIMITED: Budget = Budget(u64::MAX);

    /// A budget of `guesses` branches (at least one).
    pub const fn guesses(guesses: u64) -> Budget {
        Budget(if guesses == 0 { 1 } else { guesses })
    }

    /// The branches allowed.
    pub const fn get(self) -> u64 {
        self.0
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::DEFAULT
    }
}

/// A reusable solver for one worker thread.
pub trait Engine: Send {
    /// The engine of the same family for variant boards (4x4 to 25x25, diagonal,
    /// windoku): the variant engine beside the band solver, dancing links beside
    /// dancing links.
    type Boards: BoardEngine;

    /// A fresh engine on the heap (engines hold kilobytes of search state, more than a
    /// small thread stack should carry).
    fn boxed() -> Box<Self>
    where
        Self: Sized;

    /// The first solution in the engine's search order, or why there is none.
    fn solve(&mut self, puzzle: &Grid) -> Outcome;

    /// The first solution in which `cell` (0..81) does not hold `digit` (1..=9): with a
    /// unique puzzle's solution digit, `Unsolvable` says the puzzle stays unique when
    /// `cell` is emptied.
    fn solve_excluding(&mut self, puzzle: &Grid, cell: usize, digit: u8) -> Outcome;

    /// Solutions counted up to `limit` (at least 1), with the first one found.
    /// Clashing givens count as zero solutions.
    fn count(&mut self, puzzle: &Grid, limit: u64) -> Count;

    /// Solutions counted up to two, named as a class.
    fn classify(&mut self, puzzle: &Grid) -> Classification;

    /// Search effort of the last call.
    fn stats(&self) -> SearchStats;

    /// Sets how many branches each later call may try before it gives up: `solve` then
    /// answers [`Outcome::Undecided`], `classify` [`Classification::Undecided`] and
    /// `count` a [`Count`] with `spent` set. Engines start with [`Budget::DEFAULT`].
    fn set_budget(&mut self, budget: Budget);

    /// The first solution of a pencil-mark puzzle, when the engine reads them.
    fn solve_marks(&mut self, _marks: &Marks) -> Option<Outcome> {
        None
    }

    /// Solutions of a pencil-mark puzzle counted up to two, when the engine reads them.
    fn classify_marks(&mut self, _marks: &Marks) -> Option<Classification> {
        None
    }
}

impl Engine for Solver {
    type Boards = VariantSolver;

    fn boxed() -> Box<Self> {
        Box::new(Solver::new())
    }

    #[inline]
    fn solve(&mut self, puzzle: &Grid) -> Outcome {
        Solver::solve(self, puzzle)
    }

    #[inline]
    fn solve_excluding(&mut self, puzzle: &Grid, cell: usize, digit: u8) -> Outcome {
        Solver::solve_excluding(self, puzzle, cell, digit)
    }

    #[inline]
    fn count(&mut self, puzzle: &Grid, limit: u64) -> Count {
        Solver::count(self, puzzle, limit)
    }

    #[inline]
    fn classify(&mut self, puzzle: &Grid) -> Classification {
        Solver::classify(self, puzzle)
    }

    #[inline]
    fn stats(&self) -> SearchStats {
        Solver::stats(self)
    }

    fn set_budget(&mut self, budget: Budget) {
        Solver::set_budget(self, budget);
    }

    fn solve_marks(&mut self, marks: &Marks) -> Option<Outcome> {
        Some(Solver::solve_marks(self, marks))
    }

    fn classify_marks(&mut self, marks: &Marks) -> Option<Classification> {
        Some(Solver::classify_marks(self, marks))
    }
}

/// A reusable solver of variant boards for one worker thread: every size of one
/// variant, each size's tables made when its first board arrives.
pub trait BoardEngine: Send {
    /// An engine for boards of `variant`.
    fn new(variant: Variant) -> Self
    where
        Self: Sized;

    /// Solutions of `board` counted up to `limit` (at least 1), with the first found, or
    /// the clash that leaves it none; `Err` when the variant does not exist at the
    /// board's size (windoku beyond 9x9). A search that runs out of budget says so in
    /// [`BoardCount::spent`].
    fn count(
        &mut self,
        board: &Board,
        limit: u64,
    ) -> Result<Result<BoardCount, BoardClash>, GeometryError>;

    /// Sets how many branches each later count may try (as [`Engine::set_budget`]).
    fn set_budget(&mut self, budget: Budget);
}

impl BoardEngine for VariantSolver {
    fn new(variant: Variant) -> Self {
        VariantSolver::new(variant)
    }

    fn count(
        &mut self,
        board: &Board,
        limit: u64,
    ) -> Result<Result<BoardCount, BoardClash>, GeometryError> {
        VariantSolver::count(self, board, limit)
    }

    fn set_budget(&mut self, budget: Budget) {
        VariantSolver::set_budget(self, budget);
    }
}
