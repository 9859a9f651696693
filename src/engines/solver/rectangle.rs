//! A first solution that shows a second: a rectangle of two digits through a cell
//! branched on, whose swap is another solution with the same givens.

use super::tables::BAND_ALL;
use super::Solver;

impl Solver {
    /// Whether the solved board shows a second solution: a rectangle through a cell
    /// branched on, on the path to this solution, and the cell's other candidate there.
    ///
    /// Four cells, none a given, in two rows and two columns, whose rows lie in one band
    /// or whose columns lie in one stack (so the four cells are in two boxes), holding
    /// two digits crosswise: swapping the two digits leaves every row, column and box
    /// with the same digits, so it is another solution with the same givens. Finding
    /// one spares the search for the second solution, which on puzzles with several
    /// costs as much as a tenth of the search (Kaggle's puzzles less 1-4 givens: such a
    /// rectangle through a branched cell in 60% of them; grids with holes 53%). A
    /// unique puzzle's solution has none; its branches are mostly on permutations, not
    /// cells, so the look costs it little. The frames on the stack are the branches
    /// whose first choice the path took, deepest first.
    #[cold]
    #[inline(never)]
    pub(super) fn second_by_rectangle(&self) -> bool {
        for frame in self.stack[..self.depth].iter().rev() {
            // The path took each frame's first choice: the digit is in the cell.
            if frame.second < 9 {
                // The other choice keeps all but the cell, in its band.
                let band =
                    (frame.keep[1] != BAND_ALL) as usize + 2 * (frame.keep[2] != BAND_ALL) as usize;
                let bit = (!frame.keep[band]).trailing_zeros();
                let (a, b) = (frame.digit as usize % 9, frame.second as usize);
                if self.rectangle(band, bit, a, b) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the solved board has a rectangle of two different digits `a` (0-based,
    /// in cell `bit` of `band`) and `b` through that cell, as [`Solver::second_by_rectangle`]
    /// takes one: `b`'s cells in the cell's row and column fix the other corners.
    #[inline(always)]
    pub(super) fn rectangle(&self, band: usize, bit: u32, a: usize, b: usize) -> bool {
        let c = &self.board.candidates;
        let (row, column) = (bit / 9, bit % 9);
        // `b` once in the cell's row: the second column.
        let other_column = ((c[b * 3 + band] >> (row * 9)) & 0x1ff).trailing_zeros() % 9;
        // `b` once in the cell's column (bits 0, 9, 18 of a band): the second row.
        let mut other = (band, 0);
        for (ob, &mask) in c[b * 3..b * 3 + 3].iter().enumerate() {
            let rows = (mask >> column) & 0x40201;
            if rows != 0 {
                other = (ob, rows.trailing_zeros() / 9);
            }
        }
        let (other_band, other_row) = other;
        let corners = [
            (band, row * 9 + column),
            (band, row * 9 + other_column),
            (other_band, other_row * 9 + column),
            (other_band, other_row * 9 + other_column),
        ];
        let free = corners
            .iter()
            .all(|&(band, bit)| self.givens[band] >> bit & 1 == 0);
        let crosswise =
            c[a * 3 + band] >> bit & 1 == 1 && c[a * 3 + other_band] >> corners[3].1 & 1 == 1;
        let two_boxes = other_band == band || column / 3 == other_column / 3;
        a != b && free && crosswise && two_boxes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::solver::tests::{bundled, grid};
    use crate::values::search::Outcome;

    #[test]
    fn rectangles_are_those_a_plain_look_at_the_grid_finds() {
        // The first puzzle of `data/quizzes.csv` less every other given (a rectangle of
        // free cells is then common), solved; its givens are the fixed cells.
        let mut text =
            *b"000608290029000003000309014890451760000070100170000000050106008900000000001700900";
        let mut kept = false;
        for byte in text.iter_mut().filter(|b| **b != b'0') {
            if kept {
                *byte = b'0';
            }
            kept = !kept;
        }
        let puzzle = grid(std::str::from_utf8(&text).unwrap());
        let mut solver = Solver::new();
        let Outcome::Solved(solved) = solver.solve(&puzzle) else {
            panic!("unsolved")
        };
        // The search stopped at the solution: the board is the solved grid.
        let (cells, given) = (solved.cells(), puzzle.cells());
        let at = |row: usize, column: usize| cells[row * 9 + column];
        let free = |row: usize, column: usize| given[row * 9 + column] == 0;
        let (mut found, mut looked) = (0, 0);
        for (cell, &digit) in cells.iter().enumerate() {
            let (row, column) = (cell / 9, cell % 9);
            for b in (1..=9).filter(|&b| b != digit) {
                // Plainly: any second row and column with `b` where the grid crosses.
                let mut expected = false;
                for other_row in (0..9).filter(|&r| r != row) {
                    for other_column in (0..9).filter(|&c| c != column) {
                        expected |= at(row, other_column) == b
                            && at(other_row, column) == b
                            && at(other_row, other_column) == digit
                            && (row / 3 == other_row / 3 || column / 3 == other_column / 3)
                            && free(row, column)
                            && free(row, other_column)
                            && free(other_row, column)
                            && free(other_row, other_column);
                    }
                }
                let (band, bit) = (cell / 27, (cell % 27) as u32);
                let a = digit as usize - 1;
                assert_eq!(
                    solver.rectangle(band, bit, a, b as usize - 1),
                    expected,
                    "cell {cell}, digit {b}"
                );
                found += expected as u32;
                looked += 1;
            }
        }
        assert!(found > 0 && found < looked, "{found} of {looked}");
    }

    #[test]
    fn a_rectangle_often_ends_the_count_at_the_first_solution() {
        // The multi-solution set's puzzles of 17-27 givens (Kaggle's less 1-4 givens),
        // where a branched cell's rectangle is common; the unique sets' tests
        // (`tests/solver_datasets.rs`) check none is taken where there is no second.
        let text = bundled("multiple.txt");
        let mut solver = Solver::new();
        let mut stopped = 0;
        let kaggles = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter(|l| (17..=27).contains(&l.bytes().filter(|&b| b != b'.').count()));
        for line in kaggles.take(500) {
            let puzzle = grid(line);
            solver.solve(&puzzle);
            // A search for the second solution propagates at least once more.
            let to_first = solver.stats().rounds;
            assert_eq!(solver.count(&puzzle, 2).solutions, 2, "{line}");
            stopped += (solver.stats().rounds == to_first) as u32;
        }
        assert!(
            stopped > 100,
            "{stopped} of 500 stopped at the first solution"
        );
    }
}
