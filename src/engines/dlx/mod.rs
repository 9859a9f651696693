//! Dancing links: Knuth's Algorithm X on the exact-cover form of Sudoku, an engine that
//! shares nothing with the band solver or the variant engine, so that each can check the
//! other (`classify --cross-check`).
//!
//! ```text
//! rows     cells x side     (cell, value) placements, row = cell * side + value - 1
//! columns  cells            cell filled
//!          + units x side   unit u has value v: cells + u * side + v - 1, for rows,
//!                           columns, boxes, then the variant's diagonals or windows
//! ```
//!
//! `links` holds the matrix and the search for any such shape; [`ClassicDlx`] reads
//! classic 9x9 [`crate::Grid`]s, [`BoardDlx`] every variant board (4x4 to 25x25,
//! classic, diagonal, windoku), and [`Dlx`], the engine, routes each puzzle to one of
//! them. The links are built once per engine and size; a search covers the
//! givens' rows, searches (always the column with fewest rows left), and uncovers
//! everything in reverse order, so the links are back as built for the next puzzle with
//! no allocation.

mod boards;
mod classic;
mod links;

pub use boards::BoardDlx;
pub use classic::ClassicDlx;

use crate::engines::Engine;
use crate::values::board::Board;
use crate::values::geometry::{Geometry, GeometryError, Variant};
use crate::values::grid::Grid;
use crate::values::search::{
    BoardClash, BoardCount, Budget, Classification, Count, Outcome, SearchStats,
};
use links::Links;

/// The dancing-links engine (`--engine dlx`): every shape through one exact-cover
/// search. It does not read pencil marks.
pub struct Dlx {
    grids: ClassicDlx,
    boards: BoardDlx,
}

impl Engine for Dlx {
    fn new(variant: Variant) -> Box<Dlx> {
        Box::new(Dlx {
            grids: ClassicDlx::new(),
            boards: BoardDlx::new(variant),
        })
    }

    fn solve(&mut self, puzzle: &Grid) -> Outcome {
        self.grids.solve(puzzle)
    }

    fn solve_excluding(&mut self, puzzle: &Grid, cell: usize, digit: u8) -> Outcome {
        self.grids.solve_excluding(puzzle, cell, digit)
    }

    fn count(&mut self, puzzle: &Grid, limit: u64) -> Count {
        self.grids.count(puzzle, limit)
    }

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

    fn stats(&self) -> SearchStats {
        self.grids.stats()
    }

    fn set_budget(&mut self, budget: Budget) {
        self.grids.set_budget(budget);
        self.boards.set_budget(budget);
    }
}

/// The exact-cover matrix of `geometry`'s empty grid.
fn sudoku_links(geometry: &Geometry) -> Links {
    let (side, cells) = (geometry.side(), geometry.cells());
    let mut units_of = vec![Vec::new(); cells];
    for (u, unit) in geometry.units().iter().enumerate() {
        for &cell in &unit.cells {
            units_of[usize::from(cell)].push(u);
        }
    }
    let rows = (0..cells * side).map(|row| {
        let (cell, v) = (row / side, row % side);
        std::iter::once(cell).chain(units_of[cell].iter().map(move |u| cells + u * side + v))
    });
    Links::new(cells + geometry.units().len() * side, rows, cells)
}
