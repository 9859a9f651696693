//! Dancing links: Knuth's Algorithm X on the exact-cover form of Sudoku, an engine that
//! shares nothing with the band solver, so that each can check the other.
//!
//! ```text
//! rows    729  (cell, digit) placements, row = cell * 9 + digit
//! columns 324  cell filled (0..81) · row has digit (81..162) · column has digit
//!              (162..243) · box has digit (243..324)
//! nodes   one header per column, four nodes per row, in fixed arrays
//! ```
//!
//! The links are built once per engine; a search covers the givens' rows, searches
//! (always the column with fewest rows left), and uncovers everything in reverse order,
//! so the structure is back to its built state for the next puzzle with no allocation.

use crate::engine::Engine;
use crate::grid::{Grid, CELLS};
use crate::solver::{Classification, Count, Outcome, SearchStats};

const COLUMNS: usize = 324;
const ROWS: usize = 729;
const ROOT: usize = 0;
/// Headers are nodes 1..=324; row nodes follow.
const NODES: usize = 1 + COLUMNS + ROWS * 4;

/// The dancing-links engine.
pub struct Dlx {
    left: [u16; NODES],
    right: [u16; NODES],
    up: [u16; NODES],
    down: [u16; NODES],
    /// Header of each node's column.
    column: [u16; NODES],
    /// Placement row of each node (meaningless for headers).
    row: [u16; NODES],
    /// Rows left in each column (indexed by header).
    size: [u16; NODES],
    /// Chosen node per search depth.
    chosen: [u16; CELLS + 1],
    stats: SearchStats,
}

/// The four columns a placement covers.
fn columns_of(row: usize) -> [usize; 4] {
    let (cell, digit) = (row / 9, row % 9);
    let (r, c) = (cell / 9, cell % 9);
    let b = r / 3 * 3 + c / 3;
    [
        cell,
        81 + r * 9 + digit,
        162 + c * 9 + digit,
        243 + b * 9 + digit,
    ]
}

impl Dlx {
    /// The exact-cover structure of the empty grid.
    pub fn new() -> Box<Dlx> {
        let mut d = Box::new(Dlx {
            left: [0; NODES],
            right: [0; NODES],
            up: [0; NODES],
            down: [0; NODES],
            column: [0; NODES],
            row: [0; NODES],
            size: [0; NODES],
            chosen: [0; CELLS + 1],
            stats: SearchStats::default(),
        });
        for h in 0..=COLUMNS {
            d.left[h] = if h == 0 { COLUMNS as u16 } else { h as u16 - 1 };
            d.right[h] = if h == COLUMNS { 0 } else { h as u16 + 1 };
            d.up[h] = h as u16;
            d.down[h] = h as u16;
            d.column[h] = h as u16;
        }
        for row in 0..ROWS {
            let first = 1 + COLUMNS + row * 4;
            for (k, col) in columns_of(row).into_iter().enumerate() {
                let node = first + k;
                let header = col + 1;
                d.row[node] = row as u16;
                d.column[node] = header as u16;
                // Append at the bottom of the column.
                let last = d.up[header] as usize;
                d.down[last] = node as u16;
                d.up[node] = last as u16;
                d.down[node] = header as u16;
                d.up[header] = node as u16;
                d.size[header] += 1;
                // Ring within the row.
                d.left[node] = (first + (k + 3) % 4) as u16;
                d.right[node] = (first + (k + 1) % 4) as u16;
            }
        }
        d
    }

    fn cover(&mut self, header: usize) {
        let (l, r) = (self.left[header] as usize, self.right[header] as usize);
        self.right[l] = r as u16;
        self.left[r] = l as u16;
        let mut i = self.down[header] as usize;
        while i != header {
            let mut j = self.right[i] as usize;
            while j != i {
                let (u, d) = (self.up[j] as usize, self.down[j] as usize);
                self.down[u] = d as u16;
                self.up[d] = u as u16;
                self.size[self.column[j] as usize] -= 1;
                j = self.right[j] as usize;
            }
            i = self.down[i] as usize;
        }
    }

    fn uncover(&mut self, header: usize) {
        let mut i = self.up[header] as usize;
        while i != header {
            let mut j = self.left[i] as usize;
            while j != i {
                let (u, d) = (self.up[j] as usize, self.down[j] as usize);
                self.size[self.column[j] as usize] += 1;
                self.down[u] = j as u16;
                self.up[d] = j as u16;
                j = self.left[j] as usize;
            }
            i = self.up[i] as usize;
        }
        let (l, r) = (self.left[header] as usize, self.right[header] as usize);
        self.right[l] = header as u16;
        self.left[r] = header as u16;
    }

    /// Takes row node `node`'s placement: covers the other columns of its row.
    fn select(&mut self, node: usize) {
        let mut j = self.right[node] as usize;
        while j != node {
            self.cover(self.column[j] as usize);
            j = self.right[j] as usize;
        }
    }

    fn unselect(&mut self, node: usize) {
        let mut j = self.left[node] as usize;
        while j != node {
            self.uncover(self.column[j] as usize);
            j = self.left[j] as usize;
        }
    }

    /// Removes one placement row from its columns (for exclusions), and puts it back.
    fn hide_row(&mut self, first: usize) {
        for node in first..first + 4 {
            let (u, d) = (self.up[node] as usize, self.down[node] as usize);
            self.down[u] = d as u16;
            self.up[d] = u as u16;
            self.size[self.column[node] as usize] -= 1;
        }
    }

    fn unhide_row(&mut self, first: usize) {
        for node in (first..first + 4).rev() {
            let (u, d) = (self.up[node] as usize, self.down[node] as usize);
            self.size[self.column[node] as usize] += 1;
            self.down[u] = node as u16;
            self.up[d] = node as u16;
        }
    }

    /// Counts solutions up to `limit`; `None` when the givens clash. `exclude` is a
    /// (cell, digit) placement taken out before the search.
    fn search(&mut self, puzzle: &Grid, limit: u64, exclude: Option<(usize, u8)>) -> Count {
        self.stats = SearchStats::default();
        let mut count = Count {
            solutions: 0,
            first: None,
        };
        let excluded = exclude
            .filter(|&(cell, d)| cell < CELLS && (1..=9).contains(&d) && puzzle.get(cell) == 0)
            .map(|(cell, d)| 1 + COLUMNS + (cell * 9 + d as usize - 1) * 4);
        if let Some(first) = excluded {
            self.hide_row(first);
        }
        // Givens: select their rows, in cell order; a given whose column is already
        // covered clashes with an earlier one.
        let mut givens = [0u16; CELLS];
        let mut placed = 0;
        let mut ok = true;
        for cell in 0..CELLS {
            let d = puzzle.get(cell);
            if d == 0 {
                continue;
            }
            let node = 1 + COLUMNS + (cell * 9 + d as usize - 1) * 4;
            if columns_of(cell * 9 + d as usize - 1)
                .iter()
                .any(|&c| self.is_covered(c + 1))
            {
                ok = false;
                break;
            }
            self.cover(self.column[node] as usize);
            self.select(node);
            givens[placed] = node as u16;
            placed += 1;
        }
        let mut solution = *puzzle;
        if ok {
            self.run(limit, &mut count, &mut solution);
        }
        for &node in givens[..placed].iter().rev() {
            let node = node as usize;
            self.unselect(node);
            self.uncover(self.column[node] as usize);
        }
        if let Some(first) = excluded {
            self.unhide_row(first);
        }
        count
    }

    /// True when column header `h` is no longer in the header list.
    fn is_covered(&self, h: usize) -> bool {
        self.right[self.left[h] as usize] as usize != h
    }

    /// Algorithm X with an explicit stack: the column with fewest rows first.
    fn run(&mut self, limit: u64, count: &mut Count, solution: &mut Grid) {
        let mut depth = 0usize;
        loop {
            // Descend: pick a column, or record a solution.
            if self.right[ROOT] as usize == ROOT {
                count.solutions += 1;
                if count.first.is_none() {
                    for &node in &self.chosen[..depth] {
                        let row = self.row[node as usize] as usize;
                        solution.set(row / 9, (row % 9) as u8 + 1);
                    }
                    count.first = Some(*solution);
                }
                if count.solutions >= limit {
                    self.unwind(depth);
                    return;
                }
            } else {
                let mut best = self.right[ROOT] as usize;
                let mut h = self.right[best] as usize;
                while h != ROOT {
                    if self.size[h] < self.size[best] {
                        best = h;
                    }
                    h = self.right[h] as usize;
                }
                if self.size[best] > 0 {
                    self.cover(best);
                    let node = self.down[best] as usize;
                    self.select(node);
                    self.chosen[depth] = node as u16;
                    depth += 1;
                    if self.size[best] > 1 {
                        self.stats.guesses += 1;
                    }
                    continue;
                }
            }
            // Backtrack to the next row of the deepest column with one left.
            loop {
                if depth == 0 {
                    return;
                }
                depth -= 1;
                let node = self.chosen[depth] as usize;
                self.unselect(node);
                let header = self.column[node] as usize;
                let next = self.down[node] as usize;
                if next != header {
                    self.select(next);
                    self.chosen[depth] = next as u16;
                    depth += 1;
                    self.stats.guesses += 1;
                    break;
                }
                self.uncover(header);
            }
        }
    }

    /// Undoes the selections of the first `depth` levels.
    fn unwind(&mut self, depth: usize) {
        for d in (0..depth).rev() {
            let node = self.chosen[d] as usize;
            self.unselect(node);
            self.uncover(self.column[node] as usize);
        }
    }
}

impl Engine for Dlx {
    fn boxed() -> Box<Self> {
        Dlx::new()
    }

    fn solve(&mut self, puzzle: &Grid) -> Outcome {
        if let Some(clash) = puzzle.find_clash() {
            return Outcome::Invalid(clash);
        }
        match self.search(puzzle, 1, None).first {
            Some(s) => Outcome::Solved(s),
            None => Outcome::Unsolvable,
        }
    }

    fn solve_excluding(&mut self, puzzle: &Grid, cell: usize, digit: u8) -> Outcome {
        if let Some(clash) = puzzle.find_clash() {
            return Outcome::Invalid(clash);
        }
        match self.search(puzzle, 1, Some((cell, digit))).first {
            Some(s) => Outcome::Solved(s),
            None => Outcome::Unsolvable,
        }
    }

    fn count(&mut self, puzzle: &Grid, limit: u64) -> Count {
        self.search(puzzle, limit.max(1), None)
    }

    fn classify(&mut self, puzzle: &Grid) -> Classification {
        if let Some(clash) = puzzle.find_clash() {
            return Classification::Invalid(clash);
        }
        let count = self.search(puzzle, 2, None);
        match (count.solutions, count.first) {
            (1, Some(s)) => Classification::Unique(s),
            (_, Some(s)) => Classification::Multiple(s),
            _ => Classification::Unsolvable,
        }
    }

    fn stats(&self) -> SearchStats {
        self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_restores() {
        let mut dlx = Dlx::new();
        let p = Grid::parse(
            b"4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
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
