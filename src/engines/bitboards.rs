//! The bitboard family: the band solver for classic 9x9 grids and pencil marks, the mask
//! engine for variant boards.

use super::Engine;
use crate::engines::solver::Solver;
use crate::engines::variant::VariantSolver;
use crate::values::board::Board;
use crate::values::geometry::{GeometryError, Variant};
use crate::values::grid::Grid;
use crate::values::marks::Marks;
use crate::values::search::{
    BoardClash, BoardCount, Budget, Classification, Count, Outcome, SearchStats,
};

/// The band-bitboard solver beside the variant mask engine (`--engine fast`).
pub struct Bitboards {
    grids: Solver,
    boards: VariantSolver,
}

impl Engine for Bitboards {
    fn new(variant: Variant) -> Box<Bitboards> {
        Box::new(Bitboards {
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
