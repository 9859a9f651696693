//! Making puzzles: a random full grid, then givens dug out while the puzzle stays unique.
//! Classic 9x9 here; variant boards (4x4 to 25x25, diagonal, windoku) in [`BoardPlan`].
//!
//! - Full grids: the three diagonal boxes filled with random permutations (they share no
//!   row, column or box, so any fill is consistent), completed by the engine's first
//!   solution, then put through a random validity-preserving [`Symmetry`] (digit
//!   relabelling, band/stack and row/column permutations, transposition). This is *not*
//!   uniform over the 6.67e21 grids: the completion follows the engine's search order.
//! - Digging: the cells, grouped into orbits of the chosen [`Pattern`], are visited in a
//!   random order; an orbit is emptied when the puzzle stays unique without it. Three
//!   exact shortcuts replace the seeds' `countSolutions(copy, 2) == 1`: when a
//!   two-digit unavoidable set of the grid would be left without a given, the puzzle
//!   is not unique, with no search; when the remaining givens alone force the removed
//!   digits back (a naked or hidden single among givens), it is unique, with no search;
//!   otherwise a second
//!   solution would have to differ in a removed cell, so one narrow search per removed
//!   cell, with the solution's digit excluded there, decides it.
//!
//! Everything a record needs comes from its own random stream, derived from the seed and
//! the record's number only, so output does not depend on threads or scheduling.

mod boards;

pub use boards::{BoardPlan, MadeBoard};

use crate::engines::corpus::{Rng, Symmetry};
use crate::engines::Engine;
use crate::values::grid::{Grid, CELLS};
use crate::values::search::Outcome;

/// Symmetry of the pattern of givens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pattern {
    /// Any pattern.
    #[default]
    None,
    /// Unchanged by a half turn.
    Rot180,
    /// Unchanged by a quarter turn.
    Rot90,
    /// Unchanged by a left-right mirror.
    Mirror,
    /// Unchanged by reflection in the main diagonal.
    Diagonal,
}

impl Pattern {
    /// The cells that must be given or empty together with `cell` (including it).
    fn orbit(self, cell: usize) -> ([u8; 4], usize) {
        let (cells, len) = self.orbit_in(cell, 9);
        (cells.map(|c| c as u8), len)
    }

    /// [`Pattern::orbit`] on a `side`x`side` board.
    fn orbit_in(self, cell: usize, side: usize) -> ([u16; 4], usize) {
        let (r, c, last) = (cell / side, cell % side, side - 1);
        let at = |r: usize, c: usize| (r * side + c) as u16;
        let mut cells = [at(r, c); 4];
        let images = match self {
            Pattern::None => [None; 3],
            Pattern::Rot180 => [Some(at(last - r, last - c)), None, None],
            Pattern::Rot90 => [
                Some(at(c, last - r)),
                Some(at(last - r, last - c)),
                Some(at(last - c, r)),
            ],
            Pattern::Mirror => [Some(at(r, last - c)), None, None],
            Pattern::Diagonal => [Some(at(c, r)), None, None],
        };
        let mut len = 1;
        for image in images.into_iter().flatten() {
            if !cells[..len].contains(&image) {
                cells[len] = image;
                len += 1;
            }
        }
        (cells, len)
    }
}

/// When to stop digging.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Until no orbit of givens can be removed.
    Minimal,
    /// Until at most this many givens remain.
    Givens(u16),
}

/// The fewest givens `--givens` accepts: below this, digging practically never gets
/// there (puzzles with 17 to 19 givens exist, but are found by dedicated searches).
pub const MIN_GIVENS: u16 = 20;

/// What to make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Pattern of the givens.
    pub pattern: Pattern,
    /// When to stop digging.
    pub target: Target,
}

impl std::fmt::Display for Spec {
    /// `at most 20 givens, rot90 symmetry`, `minimal`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.target {
            Target::Minimal => f.write_str("minimal")?,
            Target::Givens(k) => write!(f, "at most {k} givens")?,
        }
        let symmetry = match self.pattern {
            Pattern::None => return Ok(()),
            Pattern::Rot180 => "rot180",
            Pattern::Rot90 => "rot90",
            Pattern::Mirror => "mirror",
            Pattern::Diagonal => "diagonal",
        };
        write!(f, ", {symmetry} symmetry")
    }
}

/// The orbits of a pattern, each listed once, in cell order.
#[derive(Clone, Copy)]
pub struct Orbits {
    cells: [[u8; 4]; CELLS],
    lens: [u8; CELLS],
    count: usize,
}

impl Orbits {
    /// The orbits of `pattern`.
    pub fn new(pattern: Pattern) -> Orbits {
        let mut orbits = Orbits {
            cells: [[0; 4]; CELLS],
            lens: [0; CELLS],
            count: 0,
        };
        let mut seen = [false; CELLS];
        for cell in 0..CELLS {
            if seen[cell] {
                continue;
            }
            let (cells, len) = pattern.orbit(cell);
            for &c in &cells[..len] {
                seen[c as usize] = true;
            }
            orbits.cells[orbits.count] = cells;
            orbits.lens[orbits.count] = len as u8;
            orbits.count += 1;
        }
        orbits
    }

    fn cells(&self, index: usize) -> &[u8] {
        &self.cells[index][..self.lens[index] as usize]
    }
}

/// A made puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Made {
    /// The puzzle (unique).
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// Full grids tried before this one (digging stopped above the target on them).
    pub restarts: u32,
}

/// The random stream of record `index` of a run seeded with `seed`.
pub fn record_rng(seed: u64, index: u64) -> Rng {
    let mut mix = Rng::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    Rng::new(mix.next_u64() ^ index)
}

/// A random full grid.
pub fn full_grid<E: Engine>(engine: &mut E, rng: &mut Rng) -> Grid {
    loop {
        let mut start = Grid::EMPTY;
        for diagonal_box in 0..3 {
            let mut digits = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
            for i in (1..9).rev() {
                digits.swap(i, rng.below(i as u64 + 1) as usize);
            }
            for (k, &d) in digits.iter().enumerate() {
                let (r, c) = (diagonal_box * 3 + k / 3, diagonal_box * 3 + k % 3);
                start.set(r * 9 + c, d);
            }
        }
        // Three filled diagonal boxes always complete; the loop only guards the engine.
        if let Outcome::Solved(solved) = engine.solve(&start) {
            return Symmetry::random(rng).apply(&solved);
        }
    }
}

/// Digs givens out of `solution` while the puzzle stays unique; `None` when a
/// [`Target::Givens`] cannot be reached from this grid.
pub fn dig<E: Engine>(
    engine: &mut E,
    solution: &Grid,
    spec: &Spec,
    orbits: &Orbits,
    rng: &mut Rng,
) -> Option<Grid> {
    let mut order = [0u8; CELLS];
    for (i, slot) in order.iter_mut().enumerate().take(orbits.count) {
        *slot = i as u8;
    }
    let order = &mut order[..orbits.count];
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let limit = match spec.target {
        Target::Minimal => 0,
        Target::Givens(k) => k as usize,
    };
    let mut puzzle = *solution;
    let mut givens = CELLS;
    let mut placed = Placed::full(solution);
    let mut sets = Unavoidable::of(solution);
    for &orbit in order.iter() {
        if givens <= limit {
            break;
        }
        let cells = orbits.cells(orbit as usize);
        if givens - cells.len() < limit {
            continue;
        }
        let mut trial = puzzle;
        let mut open_set = false;
        for &cell in cells {
            trial.set(cell as usize, 0);
            placed.toggle(cell as usize, solution.get(cell as usize));
            open_set |= sets.remove(cell as usize);
        }
        let unique = !open_set
            && (cells
                .iter()
                .all(|&c| placed.forces(&trial, c as usize, solution.get(c as usize)))
                || stays_unique(engine, &trial, solution, cells));
        if unique {
            puzzle = trial;
            givens -= cells.len();
        } else {
            for &cell in cells {
                placed.toggle(cell as usize, solution.get(cell as usize));
                sets.restore(cell as usize);
            }
        }
    }
    (givens <= limit || spec.target == Target::Minimal).then_some(puzzle)
}

/// Two-digit unavoidable sets of a full grid, and how many givens each still holds.
///
/// For digits `a` and `b`, the 18 cells holding them split into closed sets: take a cell,
/// add the cell holding the other digit in its row, in its column and in its box, and so
/// on. Swapping `a` and `b` inside one such set gives another valid grid that agrees
/// with the solution everywhere else, so a puzzle with no given left in the set has a
/// second solution: emptying it is refused with no search.
struct Unavoidable {
    /// The sets holding each cell, one per other digit (8 per cell).
    member: [[u16; 8]; CELLS],
    /// Givens left in each set.
    givens: [u8; 36 * 9],
}

impl Unavoidable {
    fn of(solution: &Grid) -> Unavoidable {
        let mut sets = Unavoidable {
            member: [[0; 8]; CELLS],
            givens: [0; 36 * 9],
        };
        // row_of[d][kind][unit]: the row of the cell holding digit d in column `unit`
        // (kind 0) or box `unit` (kind 1); cell_of[d][row]: where d is in that row.
        let mut row_of = [[[0u8; 9]; 2]; 10];
        let mut cell_of = [[0u8; 9]; 10];
        for cell in 0..CELLS {
            let (r, c, b) = units_of(cell);
            let d = solution.get(cell) as usize;
            row_of[d][0][c] = r as u8;
            row_of[d][1][b] = r as u8;
            cell_of[d][r] = cell as u8;
        }
        let mut filled = [0usize; CELLS];
        let mut pair = 0;
        for a in 1..=9usize {
            for b in a + 1..=9 {
                // Union-find over rows: row r stands for its `a` cell and its `b` cell (row
                // partners); column and box partners join rows.
                let mut parent: [u8; 9] = core::array::from_fn(|i| i as u8);
                fn root(parent: &mut [u8; 9], mut i: usize) -> usize {
                    while parent[i] as usize != i {
                        parent[i] = parent[parent[i] as usize];
                        i = parent[i] as usize;
                    }
                    i
                }
                let partners = row_of[a].iter().flatten().zip(row_of[b].iter().flatten());
                for (&row_a, &row_b) in partners {
                    let x = root(&mut parent, row_a as usize);
                    let y = root(&mut parent, row_b as usize);
                    parent[x] = y as u8;
                }
                for row in 0..9 {
                    let set = pair * 9 + root(&mut parent, row);
                    for cells in [&cell_of[a], &cell_of[b]] {
                        let cell = cells[row] as usize;
                        sets.member[cell][filled[cell]] = set as u16;
                        filled[cell] += 1;
                        sets.givens[set] += 1;
                    }
                }
                pair += 1;
            }
        }
        sets
    }

    /// Empties `cell`; true when a set it belongs to has no given left.
    #[inline]
    fn remove(&mut self, cell: usize) -> bool {
        let mut emptied = false;
        for &set in &self.member[cell] {
            self.givens[set as usize] -= 1;
            emptied |= self.givens[set as usize] == 0;
        }
        emptied
    }

    /// Gives `cell` back.
    #[inline]
    fn restore(&mut self, cell: usize) {
        for &set in &self.member[cell] {
            self.givens[set as usize] += 1;
        }
    }
}

/// Which rows, columns and boxes hold each digit among the givens: enough to see when
/// the givens alone force a digit into an empty cell.
struct Placed {
    /// `rows[d]`: bit r set when row r has a given `d`; likewise columns and boxes.
    rows: [u16; 10],
    cols: [u16; 10],
    boxes: [u16; 10],
}

#[inline]
fn units_of(cell: usize) -> (usize, usize, usize) {
    let (r, c) = (cell / 9, cell % 9);
    (r, c, r / 3 * 3 + c / 3)
}

impl Placed {
    fn full(grid: &Grid) -> Placed {
        let mut placed = Placed {
            rows: [0; 10],
            cols: [0; 10],
            boxes: [0; 10],
        };
        for cell in 0..CELLS {
            placed.toggle(cell, grid.get(cell));
        }
        placed
    }

    /// Adds or removes a given `digit` at `cell`.
    #[inline]
    fn toggle(&mut self, cell: usize, digit: u8) {
        let (r, c, b) = units_of(cell);
        let d = digit as usize;
        self.rows[d] ^= 1 << r;
        self.cols[d] ^= 1 << c;
        self.boxes[d] ^= 1 << b;
    }

    /// True when the givens rule out `digit` at `cell`.
    #[inline]
    fn blocks(&self, cell: usize, digit: u8) -> bool {
        let (r, c, b) = units_of(cell);
        let d = digit as usize;
        (self.rows[d] >> r | self.cols[d] >> c | self.boxes[d] >> b) & 1 == 1
    }

    /// True when the givens of `puzzle` alone force `digit` into the empty `cell`: every
    /// other digit is ruled out there (naked single), or every other empty cell of one
    /// of its units is ruled out for `digit` (hidden single). Any solution then has
    /// `digit` there.
    fn forces(&self, puzzle: &Grid, cell: usize, digit: u8) -> bool {
        if (1..=9u8).all(|d| d == digit || self.blocks(cell, d)) {
            return true;
        }
        let (r, c, b) = units_of(cell);
        let hidden = |at: &dyn Fn(usize) -> usize| {
            (0..9)
                .map(at)
                .all(|other| other == cell || puzzle.get(other) != 0 || self.blocks(other, digit))
        };
        hidden(&|i| r * 9 + i)
            || hidden(&|i| i * 9 + c)
            || hidden(&|i| (b / 3 * 3 + i / 3) * 9 + b % 3 * 3 + i % 3)
    }
}

/// True when `trial` (a unique puzzle with `solution`, with `removed` emptied) is still
/// unique. Any second solution differs from `solution` in a removed cell, so it is
/// enough to exclude, cell by cell, the solution's digit there: a narrower search than
/// counting to two.
fn stays_unique<E: Engine>(engine: &mut E, trial: &Grid, solution: &Grid, removed: &[u8]) -> bool {
    removed.iter().all(|&cell| {
        let cell = cell as usize;
        engine.solve_excluding(trial, cell, solution.get(cell)) == Outcome::Unsolvable
    })
}

/// Makes the puzzle of one record: full grids until digging reaches the target, at most
/// `budget` of them (`None` once they are spent: the target is out of practical reach).
pub fn make<E: Engine>(
    engine: &mut E,
    spec: &Spec,
    orbits: &Orbits,
    rng: &mut Rng,
    budget: u64,
) -> Option<Made> {
    for restarts in 0..budget.min(u64::from(u32::MAX)) as u32 {
        let solution = full_grid(engine, rng);
        if let Some(puzzle) = dig(engine, &solution, spec, orbits, rng) {
            return Some(Made {
                puzzle,
                solution,
                restarts,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::{Bitboards, Engine};
    use crate::values::geometry::Variant;

    #[test]
    fn orbits_partition_the_grid() {
        for pattern in [
            Pattern::None,
            Pattern::Rot180,
            Pattern::Rot90,
            Pattern::Mirror,
            Pattern::Diagonal,
        ] {
            let orbits = Orbits::new(pattern);
            let mut covered = [0; CELLS];
            for i in 0..orbits.count {
                for &c in orbits.cells(i) {
                    covered[c as usize] += 1;
                }
            }
            assert!(covered.iter().all(|&n| n == 1), "{pattern:?}");
        }
        assert_eq!(Orbits::new(Pattern::None).count, 81);
        assert_eq!(Orbits::new(Pattern::Rot180).count, 41);
        assert_eq!(Orbits::new(Pattern::Rot90).count, 21);
        assert_eq!(Orbits::new(Pattern::Mirror).count, 45);
        assert_eq!(Orbits::new(Pattern::Diagonal).count, 45);
    }

    #[test]
    fn full_grids_are_valid_and_vary() {
        let mut solver = Bitboards::new(Variant::Classic);
        let mut rng = Rng::new(1);
        let a = full_grid(&mut *solver, &mut rng);
        let b = full_grid(&mut *solver, &mut rng);
        assert!(a.is_valid_solution() && b.is_valid_solution());
        assert_ne!(a, b);
    }

    #[test]
    fn dug_puzzles_are_unique_and_minimal() {
        let mut solver = Bitboards::new(Variant::Classic);
        let spec = Spec {
            pattern: Pattern::None,
            target: Target::Minimal,
        };
        let orbits = Orbits::new(spec.pattern);
        for i in 0..20 {
            let made = make(&mut *solver, &spec, &orbits, &mut record_rng(9, i), 1000).unwrap();
            assert_eq!(solver.count(&made.puzzle, 2).solutions, 1);
            assert!(made.solution.keeps_givens_of(&made.puzzle));
            for cell in (0..CELLS).filter(|&c| made.puzzle.get(c) != 0) {
                let mut fewer = made.puzzle;
                fewer.set(cell, 0);
                assert_eq!(solver.count(&fewer, 2).solutions, 2);
            }
        }
    }
}
