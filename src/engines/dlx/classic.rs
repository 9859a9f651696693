//! Dancing links for classic 9x9 [`Grid`]s, the half of [`super::Dlx`] that checks the
//! band solver.
//!
//! ```text
//! rows    729  (cell, digit) placements, row = cell * 9 + digit - 1
//! columns 324  cell filled (0..81) · row has digit (81..162) · column has digit
//!              (162..243) · box has digit (243..324)
//! ```

use super::links::{Covers, Links};
use crate::values::geometry::{Geometry, Variant};
use crate::values::grid::{Grid, CELLS};
use crate::values::search::{Budget, Classification, Count, Outcome, SearchStats};

/// The dancing-links engine for classic 9x9 grids.
pub struct ClassicDlx {
    links: Links,
    stats: SearchStats,
}

impl Default for ClassicDlx {
    fn default() -> Self {
        ClassicDlx::new()
    }
}

impl ClassicDlx {
    /// The exact-cover structure of the empty grid.
    pub fn new() -> ClassicDlx {
        let geometry = Geometry::new(9, Variant::Classic).expect("9x9 classic exists");
        ClassicDlx {
            links: super::sudoku_links(&geometry),
            stats: SearchStats::default(),
        }
    }

    /// Counts solutions up to `limit` (none when the givens clash), without placement
    /// `exclude` (cell, digit).
    fn search(&mut self, puzzle: &Grid, limit: u64, exclude: Option<(usize, u8)>) -> Count {
        let givens = (0..CELLS)
            .filter(|&cell| puzzle.get(cell) != 0)
            .map(|cell| cell * 9 + usize::from(puzzle.get(cell)) - 1);
        let exclude = exclude
            .filter(|&(cell, d)| cell < CELLS && (1..=9).contains(&d) && puzzle.get(cell) == 0)
            .map(|(cell, d)| cell * 9 + usize::from(d) - 1);
        let mut solution = *puzzle;
        let covers = self.links.search(givens, exclude, limit, |rows| {
            for row in rows {
                solution.set(row / 9, (row % 9) as u8 + 1);
            }
        });
        self.stats = SearchStats {
            guesses: u32::try_from(self.links.guesses()).unwrap_or(u32::MAX),
            ..SearchStats::default()
        };
        let spent = self.links.spent();
        match covers {
            Covers::Found(n) if n > 0 => Count {
                solutions: n,
                first: Some(solution),
                spent,
            },
            Covers::Found(_) => Count {
                spent,
                ..Count::NONE
            },
            Covers::Clash(_) => Count::NONE,
        }
    }
}

impl ClassicDlx {
    /// The first solution, or why there is none.
    pub fn solve(&mut self, puzzle: &Grid) -> Outcome {
        if let Some(clash) = puzzle.find_clash() {
            return Outcome::Invalid(clash);
        }
        Outcome::of(self.search(puzzle, 1, None))
    }

    /// The first solution without `digit` in `cell`.
    pub fn solve_excluding(&mut self, puzzle: &Grid, cell: usize, digit: u8) -> Outcome {
        if let Some(clash) = puzzle.find_clash() {
            return Outcome::Invalid(clash);
        }
        Outcome::of(self.search(puzzle, 1, Some((cell, digit))))
    }

    /// Solutions counted up to `limit`; clashing givens count as none.
    pub fn count(&mut self, puzzle: &Grid, limit: u64) -> Count {
        self.search(puzzle, limit.max(1), None)
    }

    /// Solutions counted up to two, named as a class.
    pub fn classify(&mut self, puzzle: &Grid) -> Classification {
        if let Some(clash) = puzzle.find_clash() {
            return Classification::Invalid(clash);
        }
        Classification::of(self.search(puzzle, 2, None))
    }

    /// Search effort of the last call.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Sets how many branches each later call may try.
    pub fn set_budget(&mut self, budget: Budget) {
        self.links.set_budget(budget);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_restores() {
        let mut dlx = ClassicDlx::new();
        let p = Grid::parse(
            b"....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3",
        )
        .unwrap();
        let c = dlx.count(&p, 2);
        assert_eq!(c.solutions, 1);
        let s = c.first.unwrap();
        assert!(s.is_valid_solution() && s.keeps_givens_of(&p));
        assert_eq!(dlx.count(&Grid::EMPTY, 10).solutions, 10);
        // The same answer again: the links are back as built.
        assert_eq!(dlx.count(&p, 2), c);
        let cell = (0..CELLS).find(|&i| p.get(i) == 0).unwrap();
        assert_eq!(
            dlx.solve_excluding(&p, cell, s.get(cell)),
            Outcome::Unsolvable
        );
        assert_eq!(dlx.count(&p, 2), c);
    }
}
