//! Dancing links for variant boards: one exact-cover matrix per size, built when the
//! first board of that size arrives and kept.

use super::links::{Covers, Links};
use crate::values::board::Board;
use crate::values::geometry::{Geometry, GeometryError, PerSize, UnitKind, Variant};
use crate::values::search::{BoardClash, BoardCount, Budget};

/// One size's exact-cover matrix, with what a clash message needs.
struct Matrix {
    links: Links,
    side: usize,
    cells: usize,
    /// Each unit's kind and 1-based number.
    labels: Box<[(UnitKind, u8)]>,
}

impl Matrix {
    fn new(geometry: &Geometry) -> Matrix {
        Matrix {
            links: super::sudoku_links(geometry),
            side: geometry.side(),
            cells: geometry.cells(),
            labels: geometry
                .units()
                .iter()
                .map(|u| (u.kind, u.number as u8))
                .collect(),
        }
    }

    fn count(&mut self, board: &Board, limit: u64) -> Result<BoardCount, BoardClash> {
        let side = self.side;
        let values = &board.values()[..self.cells];
        let givens = values
            .iter()
            .enumerate()
            .filter(|(_, &v)| v != 0)
            .map(|(cell, &v)| cell * side + usize::from(v) - 1);
        let mut solution = *board;
        let covers = self.links.search(givens, None, limit, |rows| {
            for row in rows {
                solution.set(row / side, (row % side) as u8 + 1);
            }
        });
        match covers {
            Covers::Clash(column) => {
                // Each cell holds one value, so only a unit's column can be covered twice.
                let unit = (column - self.cells) / side;
                let (kind, number) = self.labels[unit];
                Err(BoardClash {
                    kind,
                    number,
                    value: ((column - self.cells) % side) as u8 + 1,
                })
            }
            Covers::Found(solutions) => Ok(BoardCount {
                solutions,
                first: (solutions > 0).then_some(solution),
                guesses: self.links.guesses(),
                spent: self.links.spent(),
            }),
        }
    }
}

/// The dancing-links engine for boards of one variant, every size.
pub struct BoardDlx {
    /// One matrix per size.
    matrices: PerSize<Matrix>,
    /// Branches each count may try.
    budget: Budget,
}

impl BoardDlx {
    /// An engine for boards of `variant`; each size's matrix is made when its first
    /// board arrives.
    pub fn new(variant: Variant) -> BoardDlx {
        BoardDlx {
            matrices: PerSize::new(variant),
            budget: Budget::DEFAULT,
        }
    }

    /// Solutions of `board` counted up to `limit`, or the clash that leaves it none;
    /// `Err` when the variant does not exist at the board's size.
    pub fn count(
        &mut self,
        board: &Board,
        limit: u64,
    ) -> Result<Result<BoardCount, BoardClash>, GeometryError> {
        let matrix = self.matrices.get(board.side(), Matrix::new)?;
        matrix.links.set_budget(self.budget);
        Ok(matrix.count(board, limit))
    }

    /// Sets how many branches each later count may try.
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_empty_boards_and_names_clashes() {
        let mut dlx = BoardDlx::new(Variant::Classic);
        let count = dlx.count(&Board::empty(4), 10_000).unwrap().unwrap();
        assert_eq!(count.solutions, 288);
        let geometry = Geometry::new(4, Variant::Classic).unwrap();
        assert!(count.first.unwrap().is_solution(&geometry));
        let mut x = BoardDlx::new(Variant::Diagonal);
        assert_eq!(
            x.count(&Board::empty(4), 10_000)
                .unwrap()
                .unwrap()
                .solutions,
            48
        );
        let mut w = BoardDlx::new(Variant::Windoku);
        assert_eq!(
            w.count(&Board::empty(16), 2).unwrap_err(),
            GeometryError::Windoku(16)
        );
        // Two 3s in window 4 only (rows 6-8, columns 6-8).
        let mut b = Board::empty(9);
        b.set(5 * 9 + 5, 3);
        b.set(7 * 9 + 7, 3);
        let clash = w.count(&b, 2).unwrap().unwrap_err();
        assert_eq!(
            (clash.kind, clash.number, clash.value),
            (UnitKind::Window, 4, 3)
        );
        for side in [16, 25] {
            let count = x.count(&Board::empty(side), 2).unwrap().unwrap();
            assert_eq!(count.solutions, 2, "{side}");
            let g = Geometry::new(side, Variant::Diagonal).unwrap();
            assert!(count.first.unwrap().is_solution(&g));
        }
    }
}
