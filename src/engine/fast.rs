//! The fast family: the band solver for classic 9x9 grids and pencil marks, the mask
//! engine for variant boards.

use super::{Budget, Engine};
use crate::grid::Grid;
use crate::marks::Marks;
use crate::solver::{Classification, Count, Outcome, SearchStats, Solver};
use crate::variant::{Board, BoardClash, BoardCount, GeometryError, Variant, VariantSolver};

/// The band-bitboard solver beside the variant mask engine (`--engine fast`).
pub struct Fast {
    grids: Solver,
    boards: VariantSolver,
}

impl Engine for Fast {
    fn new(variant: Variant) -> Box<Fast> {
        Box::new(Fast {
            grids: Solver::new(),
            boards: VariantSolver::new(variant),
        })
    }

    #[inline]
    fn solve(&mut self, puzzle: &Grid) -> Outcome {
        self.grids.solve(puzzle)
    }

    #[inline]
    fn solve_excluding(&mut self, puzzle: &Grid, cell: usize, digit: u8) -> Outcome {
        self.grids.solve_excluding(puzzle, cell, digit)
    }

    #[inline]
    fn count(&mut self, puzzle: &Grid, limit: u64) -> Count {
        self.grids.count(puzzle, limit)
    }

    #[inline]
    fn classify(&mut self, puzzle: &Grid) -> Classification {
        self.grids.classify(puzzle)
    }

    fn count_board(
        &mut self,
        board: &Board,
        limit: u64,
    ) -> Result<Result<BoardCount, BoardClash>, GeometryError> {
        self.boards.count(board, limit)
    }

    fn solve_marks(&mut self, marks: &Marks) -> Option<Outcome> {
        Some(self.grids.solve_marks(marks))
    }

    fn classify_marks(&mut self, marks: &Marks) -> Option<Classification> {
        Some(self.grids.classify_marks(marks))
    }

    #[inline]
    fn stats(&self) -> SearchStats {
        self.grids.stats()
    }

    fn set_budget(&mut self, budget: Budget) {
        self.grids.set_budget(budget);
        self.boards.set_budget(budget);
    }
}
