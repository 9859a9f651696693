//! Checking a full or partial grid as a person would: every clash (unit, digit, cells),
//! whether it is complete, and whether it is a correct solution.
//!
//! ```
//! use sudoku_batch::values::grid::{Grid, Unit};
//! use sudoku_batch::values::validate::validate;
//!
//! let mut grid = Grid::EMPTY;
//! grid.set(0, 5);
//! grid.set(8, 5);
//! let checked = validate(&grid);
//! assert_eq!(checked.filled, 2);
//! assert!(!checked.complete && !checked.correct);
//! assert_eq!(checked.clashes[0].unit, Unit::Row(0));
//! assert_eq!(checked.clashes[0].cells, vec![0, 8]);
//! ```

use crate::values::grid::{Grid, Unit, CELLS};

/// One digit repeated in one unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitClash {
    /// The unit holding the repeats.
    pub unit: Unit,
    /// The repeated digit, `1..=9`.
    pub digit: u8,
    /// The cells (row-major indexes `0..81`) holding it in that unit, in order.
    pub cells: Vec<usize>,
}

/// What [`validate`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Validation {
    /// Filled cells.
    pub filled: usize,
    /// Every cell is filled.
    pub complete: bool,
    /// Complete and without a clash: a correct solution.
    pub correct: bool,
    /// Every repeated digit in every unit: rows first, then columns, then boxes, each in
    /// unit then digit order.
    pub clashes: Vec<UnitClash>,
}

/// The cells of a unit, in row-major order.
fn unit_cells(unit: Unit) -> [usize; 9] {
    std::array::from_fn(|k| match unit {
        Unit::Row(r) => usize::from(r) * 9 + k,
        Unit::Column(c) => k * 9 + usize::from(c),
        Unit::Box(b) => {
            let (top, left) = (usize::from(b) / 3 * 3, usize::from(b) % 3 * 3);
            (top + k / 3) * 9 + left + k % 3
        }
    })
}

/// Checks `grid`.
pub fn validate(grid: &Grid) -> Validation {
    let mut clashes = Vec::new();
    let units = (0..9u8)
        .map(Unit::Row)
        .chain((0..9u8).map(Unit::Column))
        .chain((0..9u8).map(Unit::Box));
    for unit in units {
        let cells = unit_cells(unit);
        for digit in 1..=9u8 {
            let holding: Vec<usize> = cells
                .iter()
                .copied()
                .filter(|&i| grid.get(i) == digit)
                .collect();
            if holding.len() > 1 {
                clashes.push(UnitClash {
                    unit,
                    digit,
                    cells: holding,
                });
            }
        }
    }
    let filled = grid.given_count();
    let complete = filled == CELLS;
    Validation {
        filled,
        complete,
        correct: complete && clashes.is_empty(),
        clashes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOLVED: &[u8] =
        b"534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    #[test]
    fn a_solution_is_correct() {
        let grid = Grid::parse(SOLVED).unwrap();
        let v = validate(&grid);
        assert_eq!((v.filled, v.complete, v.correct), (81, true, true));
        assert!(v.clashes.is_empty());
    }

    #[test]
    fn a_swap_clashes_in_every_unit_it_touches() {
        // Swapping r1c1 (5) and r1c4 (6) keeps the row whole, but each column and each
        // box now holds one digit twice: box 1 two 6s, box 2 two 5s.
        let mut cells = *Grid::parse(SOLVED).unwrap().cells();
        cells.swap(0, 3);
        let v = validate(&Grid::from_cells(cells).unwrap());
        assert!(v.complete && !v.correct);
        let units: Vec<Unit> = v.clashes.iter().map(|c| c.unit).collect();
        assert_eq!(
            units,
            [Unit::Column(0), Unit::Column(3), Unit::Box(0), Unit::Box(1)]
        );
        assert_eq!((v.clashes[2].digit, v.clashes[3].digit), (6, 5));
        assert_eq!(v.clashes[2].cells, vec![0, 9]);
        assert!(v.clashes.iter().all(|c| c.cells.len() == 2));
    }

    #[test]
    fn a_partial_grid_is_incomplete() {
        let mut grid = Grid::EMPTY;
        grid.set(10, 4);
        grid.set(20, 4);
        let v = validate(&grid);
        assert_eq!((v.filled, v.complete, v.correct), (2, false, false));
        assert_eq!(
            v.clashes,
            vec![UnitClash {
                unit: Unit::Box(0),
                digit: 4,
                cells: vec![10, 20]
            }]
        );
    }

    #[test]
    fn box_cells_are_row_major() {
        assert_eq!(
            unit_cells(Unit::Box(4)),
            [30, 31, 32, 39, 40, 41, 48, 49, 50]
        );
        assert_eq!(unit_cells(Unit::Column(2))[8], 74);
    }
}
