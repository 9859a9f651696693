//! Propagation and search over fixed-size band bitboards; no heap use per puzzle.
//!
//! State is 27 candidate masks, one per (digit, band), each 27 bits (see
//! [`tables`] for the layout), a mask per band of cells not yet solved, and each
//! mask's triads and columns as its last update found them (read by the sweep and the
//! branch choice instead of recomputing them: 8% faster on the hardest puzzles, 2%
//! slower on Kaggle's). That is 236 bytes (two arrays padded for vector loads), copied
//! onto a fixed guess stack when the search branches (no undo log).
//!
//! Propagation to a fixed point, after the givens and after every guess:
//! 1. unrolled passes over the 27 masks, updating each that changed since its last
//!    update: keep only triads on a feasible permutation (locked candidates and box-line
//!    reduction within the band; hidden singles in boxes follow), let a box confined to
//!    one column claim that column from the other bands, and place the digit in rows of
//!    the band where it has one cell left (hidden singles in rows); at the root, where
//!    every mask is new, in the copies with AVX2, the same rules a band at a time, its
//!    digits as vector lanes (`band_lanes`; Kaggle's puzzles, solved there, 1.5x as fast
//!    on AMD Zen 2);
//! 2. once a pass changes nothing: place every cell with one candidate left (naked
//!    singles), failing on a cell with none.
//! 3. once those are stable and cells are left, one sweep over all masks (then back to
//!    1 if it changed anything): locked candidates in the stack direction (a column
//!    where one band alone holds a digit confines that band's box to the column), and
//!    naked and hidden triples on minirows and minicolumns (three cells that hold
//!    exactly three digits: where only three can go, each must; where three must, no
//!    other can), as tdoku's triad clauses do. Run in every band update the stack rule
//!    paid in guesses but cost 20% on Kaggle; run here it costs nothing on puzzles that
//!    fall to singles and locked candidates in the band direction. The triples took
//!    guesses a puzzle counting to two from 14.2 to 9.4 on top1465, 166 to 126 on the
//!    forum's hardest.
//!
//! The update is straight-line code specialised per (digit, band): measured, branch
//! mispredictions were the main cost, ahead of instruction count. A sweep for hidden
//! singles in columns was measured too and dropped: once boxes claim columns it found
//! little, and cost 6-8% on top1465 and Kaggle.
//!
//! The default build targets baseline x86-64; where the CPU has popcnt, BMI1/2 and
//! lzcnt (checked once, cached by std), the search runs a copy compiled for them
//! (measured: Kaggle +15%, the hard sets +3-4%); where `pext` is also fast and AVX2
//! present (Intel since Haswell, AMD since Zen 3) a third copy finds each mask's
//! triads with `pext` instead of three table lookups (+6-8% on the hard sets and
//! Kaggle) and counts the sweep's digits two at a time (+3-5% on the hard sets); where
//! AVX2 is present but `pext` slow (AMD Zen 2) a fourth copy counts with AVX2 alone
//! (Zen 2: +4% on the hard sets, +8% on puzzles with many solutions). The copies
//! without `pext` hash the triads by one multiply (`TRIAD_MAGIC`) instead of three
//! table lookups (Zen 2: +1-3%), and count the stacks' open placements for the branch
//! from turned column sets (`TURNED_COLUMNS`) instead of 27 patterns (Zen 2:
//! +0.5-2%). A test checks all copies agree. The sweep's counts over the digits and
//! naked singles' counts over a band's cells are vector code (`lanes.rs`: SSE2, in
//! every x86-64 CPU, a digit's three bands as three lanes); elsewhere a scalar
//! version runs, and test builds check the two agree at every call.
//!
//! Search branches, as tdoku does, on how a digit sits in a band or a stack when one is
//! down to two or three triad permutations (in the band or stack with the fewest open
//! permutations), trying one and, on backtrack, the others; else on a cell with two
//! candidates (in the band, then the row, with the most such cells; else the cell with
//! fewest), trying one digit and, on backtrack, removing it from the cell. The masks a
//! branch narrows are known, so they are updated at once, before the passes look for
//! what changed (a changed mask is a likely mispredicted check there); so are those a
//! placement surely changes (the digit's in its band, and at a guessed cell the other
//! digit's). Until the search first backtracks, a node below the root with at most
//! 45 cells left is light: no sweep, and the branch is the first cell with two
//! candidates (on puzzles with many solutions, one straight descent, that is 6-16%
//! faster on Zen 2; see `Solver::light`); on a puzzle of at most 16 givens, which is
//! never unique, every node of the first descent is, the root included, and counting to
//! two ends at its first solution. So it does on any puzzle whose first solution shows
//! a second by a rectangle through a cell branched on (`Solver::second_by_rectangle`).
//!
//! The code, one step a module: `start` loads givens or pencil marks onto the board,
//! `propagate` runs the band updates and naked singles to a fixed point, `sweep` the
//! stack-direction locks and triples, `branch` chooses and takes a branch, `rectangle`
//! looks for a second solution in the first, `readback` turns the solved board into a
//! grid; `copies` picks the compiled copy of the search for this CPU, `outcome` holds
//! what a search returns, `tables` the lookup tables and the layout, `lanes` the vector
//! counts, `band_lanes` the root's band passes in vector lanes. This module holds the
//! board, the solver and the search loop.

#[cfg(target_arch = "x86_64")]
mod band_lanes;
mod branch;
mod copies;
#[cfg(target_arch = "x86_64")]
mod lanes;
mod propagate;
mod readback;
mod rectangle;
mod start;
mod sweep;
pub mod tables;

use crate::values::grid::{Clash, Grid, CELLS};
use crate::values::marks::Marks;
use crate::values::search::{Budget, Classification, Count, Outcome, SearchStats};
use tables::BAND_ALL;

/// Where a search starts: givens, or pencil marks.
#[derive(Clone, Copy)]
enum Start<'a> {
    Grid(&'a Grid),
    Marks(&'a Marks),
}

/// Maximum depth of the guess stack: each level either solves at least one more cell
/// or fixes one of the 27 (digit, band) masks to a single triad permutation (which then
/// never has two again below it).
const MAX_DEPTH: usize = CELLS + 27 + 1;

/// Unsolved cells at or below which a node on the search's first descent is light
/// ([`Solver::light`]).
const LIGHT_UNSOLVED: u32 = 45;

/// Givens at or below which a puzzle cannot have a unique solution: McGuire, Tugemann
/// and Civario's exhaustive search (2012) found no 16-given puzzle with one. Such a
/// puzzle's first descent is light from the root ([`Solver::light`]), and counting its
/// solutions to two stops at the first: a solution found proves two.
const SPARSE_GIVENS: u32 = 16;

/// The bitboard state of one search node: what is copied on a guess.
#[derive(Clone, Copy)]
struct SearchNode {
    /// `candidates[digit * 3 + band]`: 27-bit cell mask where `digit` (0-based) may go.
    /// Entry 27 pads the array so a digit's three bands load as one 4-lane vector.
    candidates: [u32; 28],
    /// `unsolved[band]`: 27-bit mask of the band's cells not yet placed.
    unsolved: [u32; 3],
    /// `shapes[i]`: mask `i`'s triad pattern (bits 0..9), column set (bits 9..18) and
    /// number of open triad permutations (bits 18..21) as its last band update left it,
    /// so current for every mask at a fixed point of the band updates, where the sweep
    /// and the branch choice read them (padded as `candidates`).
    shapes: [u32; 28],
}

/// A saved node and what the other branch keeps when the one taken from it fails.
#[derive(Clone, Copy)]
struct Frame {
    board: SearchNode,
    /// The digit branched on.
    digit: u8,
    /// At a cell branch, another candidate of the cell (the other at a cell of two);
    /// [`NO_CELL`] at a permutation branch.
    second: u8,
    /// The other branch: the digit's mask in band `b` keeps only `keep[b]`.
    keep: [u32; 3],
}

/// [`Frame::second`] of a branch on a digit's permutations, not on a cell.
const NO_CELL: u8 = u8::MAX;

/// What a compiled copy of the search uses beyond the bit instructions, as bits of its
/// `KIT` parameter: AVX2 for the sweep's counts, `pext` for triads and stack patterns.
const AVX2: u8 = 1;
/// See [`AVX2`].
const PEXT: u8 = 2;

/// A reusable solver: create one per worker thread and call it for every puzzle.
///
/// All search state lives inside this value in fixed-size arrays (about 12 KiB), so
/// solving never allocates. Box it once if a thread's stack is small.
///
/// `repr(C)` keeps the fields in this order: with Rust's own layout, one more field
/// (`sparse`) moved the others and cost 1-1.5% on Kaggle's puzzles less some givens, on
/// grids with holes and on forum-hardest (AMD Zen 2, in a probe).
#[repr(C)]
pub struct Solver {
    board: SearchNode,
    /// Each mask as its last band update left it; a mask differing from this needs one.
    seen: [u32; 28],
    stack: [Frame; MAX_DEPTH],
    depth: usize,
    stats: SearchStats,
    /// Branches a search may take ([`crate::values::search::Budget`], at most `u32::MAX`).
    budget: u32,
    /// Whether the puzzle has at most [`SPARSE_GIVENS`] givens ([`Solver::light`]);
    /// false for a search from pencil marks.
    sparse: bool,
    /// Each band's given cells (every cell for a search from pencil marks):
    /// [`Solver::rectangle`] swaps none of them.
    givens: [u32; 3],
}

impl Default for Solver {
    fn default() -> Self {
        Self::new()
    }
}

impl Solver {
    /// A fresh solver.
    pub fn new() -> Solver {
        let board = SearchNode {
            candidates: [BAND_ALL; 28],
            unsolved: [BAND_ALL; 3],
            shapes: [0; 28],
        };
        Solver {
            board,
            seen: [0; 28],
            stack: [Frame {
                board,
                digit: 0,
                second: NO_CELL,
                keep: [0; 3],
            }; MAX_DEPTH],
            depth: 0,
            stats: SearchStats::default(),
            budget: budget_of(crate::values::search::Budget::DEFAULT),
            sparse: false,
            givens: [BAND_ALL; 3],
        }
    }

    /// Sets how many branches each later search may take before it gives up.
    pub fn set_budget(&mut self, budget: crate::values::search::Budget) {
        self.budget = budget_of(budget);
    }

    /// Search statistics of the last `solve`, `count` or `classify` call.
    pub fn stats(&self) -> SearchStats {
        self.stats
    }

    /// Finds the first solution, or says why there is none.
    pub fn solve(&mut self, puzzle: &Grid) -> Outcome {
        self.first_solution(puzzle, None)
    }

    /// The first solution in which `cell` (0..81) does not hold `digit` (1..=9).
    ///
    /// With a unique puzzle's solution digit this asks whether emptying `cell` keeps the
    /// puzzle unique (it does exactly when the answer is `Unsolvable`), a narrower and
    /// cheaper search than counting the emptied puzzle's solutions to two.
    pub fn solve_excluding(&mut self, puzzle: &Grid, cell: usize, digit: u8) -> Outcome {
        self.first_solution(puzzle, Some((cell, digit)))
    }

    fn first_solution(&mut self, puzzle: &Grid, exclude: Option<(usize, u8)>) -> Outcome {
        match self.search_grid(puzzle, 1, exclude) {
            Err(clash) => Outcome::Invalid(clash),
            Ok(count) => Outcome::of(count),
        }
    }

    /// Counts solutions up to `limit` (at least 1), keeping the first one found.
    ///
    /// Counting to two, a puzzle of at most 16 givens with a solution counts two without
    /// a search for the second: no such puzzle is unique (McGuire, Tugemann and Civario,
    /// 2012).
    ///
    /// Clashing givens count as zero solutions; use [`Solver::classify`] to tell them apart.
    pub fn count(&mut self, puzzle: &Grid, limit: u64) -> Count {
        self.search_grid(puzzle, limit.max(1), None)
            .unwrap_or(Count::NONE)
    }

    /// Counts up to two solutions and names the class (as [`Solver::count`] to two).
    pub fn classify(&mut self, puzzle: &Grid) -> Classification {
        match self.search_grid(puzzle, 2, None) {
            Ok(count) => Classification::of(count),
            Err(clash) => Classification::Invalid(clash),
        }
    }

    /// Depth-first search over propagated nodes, stopping at `limit` solutions.
    /// `exclude`: a (cell, digit) candidate removed before propagation starts.
    fn search_grid(
        &mut self,
        puzzle: &Grid,
        limit: u64,
        exclude: Option<(usize, u8)>,
    ) -> Result<Count, Clash> {
        self.search_from(Start::Grid(puzzle), limit, exclude)
    }

    /// Counts the solutions of a pencil-mark puzzle up to two and names the class (a
    /// pencil-mark puzzle has no givens to clash: contradictory marks are `Unsolvable`).
    pub fn classify_marks(&mut self, marks: &Marks) -> Classification {
        Classification::of(
            self.search_from(Start::Marks(marks), 2, None)
                .unwrap_or(Count::NONE),
        )
    }

    /// The first solution of a pencil-mark puzzle.
    pub fn solve_marks(&mut self, marks: &Marks) -> Outcome {
        Outcome::of(
            self.search_from(Start::Marks(marks), 1, None)
                .unwrap_or(Count::NONE),
        )
    }

    /// The search itself, inlined into each compiled variant with what it calls;
    /// `KIT` says what beyond the bit instructions it may use ([`AVX2`], [`PEXT`]).
    #[inline(always)]
    fn search<const KIT: u8>(
        &mut self,
        start: Start<'_>,
        limit: u64,
        exclude: Option<(usize, u8)>,
    ) -> Result<Count, Clash> {
        self.stats = SearchStats::default();
        self.depth = 0;
        let mut count = Count::NONE;
        match start {
            Start::Grid(puzzle) => {
                if !self.load(puzzle) {
                    // Placing givens only fails when a peer already holds the same digit.
                    if let Some(clash) = puzzle.find_clash() {
                        return Err(clash);
                    }
                    return Ok(count);
                }
            }
            Start::Marks(marks) => self.load_marks(marks),
        }
        if let Some((cell, digit)) = exclude {
            if (1..=9).contains(&digit) && cell < CELLS {
                let index = (digit as usize - 1) * 3 + cell / 27;
                self.clear(index, 1 << (cell % 27));
            }
        }
        // A sparse puzzle ([`SPARSE_GIVENS`]) with one solution has another: counting to
        // two, the search stops at the first and the theorem counts the second. Not with
        // a candidate excluded (only searched for a first solution now): that is no
        // longer a puzzle of givens alone.
        let proven = limit == 2 && exclude.is_none() && self.sparse;
        let limit = limit - proven as u64;
        // Counting to two, a first solution may show the second itself
        // ([`Solver::second_by_rectangle`]); with a candidate excluded the swap could
        // put it back.
        let rectangles = limit == 2 && exclude.is_none();
        // One call site for propagation, so each compiled variant inlines it once;
        // `alive` is false when a branch's own masks are a dead end before it.
        let mut alive = true;
        loop {
            if alive && self.propagate::<KIT>() {
                if self.board.unsolved != [0; 3] {
                    if self.stats.guesses >= self.budget {
                        count.spent = true;
                        return Ok(count);
                    }
                    alive = self.guess::<KIT>();
                    continue;
                }
                count.solutions += 1;
                if count.first.is_none() {
                    count.first = Some(self.solution());
                    if rectangles && self.second_by_rectangle() {
                        count.solutions = 2;
                    }
                }
                if count.solutions >= limit {
                    count.solutions += proven as u64;
                    return Ok(count);
                }
            }
            if self.depth == 0 {
                return Ok(count);
            }
            self.depth -= 1;
            let frame = self.stack[self.depth];
            self.board = frame.board;
            // The saved node was at a fixed point: every mask is as last updated.
            self.seen = self.board.candidates;
            alive = self.narrow::<KIT>(frame.digit as usize, frame.keep);
        }
    }
}

/// A budget as the band solver counts it (its guess counter is 32 bits).
fn budget_of(budget: Budget) -> u32 {
    u32::try_from(budget.get()).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn grid(s: &str) -> Grid {
        Grid::parse(s.as_bytes()).unwrap()
    }

    /// A bundled dataset's text (`data/NAME`).
    pub(super) fn bundled(name: &str) -> String {
        let path = format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// A 17-given puzzle (`data/cases.tsv`'s `givens17`: a minimal puzzle of
    /// `generate` cut down to 17 givens, so it has several solutions).
    pub(super) const GIVENS_17: &str =
        "............8.25....2...614..61.........86.373..2.9.4............................";

    #[test]
    fn solves_a_hard_puzzle() {
        let p = grid(
            "....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3",
        );
        let mut solver = Solver::new();
        let Outcome::Solved(s) = solver.solve(&p) else {
            panic!("no solution")
        };
        assert!(s.is_valid_solution());
        assert!(s.keeps_givens_of(&p));
        assert!(matches!(solver.classify(&p), Classification::Unique(u) if u == s));
    }

    #[test]
    fn empty_grid_has_many_solutions() {
        let mut solver = Solver::new();
        let c = solver.count(&Grid::EMPTY, 50);
        assert_eq!(c.solutions, 50);
        assert!(c.first.unwrap().is_valid_solution());
    }

    #[test]
    fn solved_grid_is_unique() {
        let g = grid(
            "123456789456789123789123456312645978645978312978312645231564897564897231897231564",
        );
        assert_eq!(Solver::new().classify(&g), Classification::Unique(g));
    }

    #[test]
    fn only_puzzles_of_at_most_sixteen_givens_are_sparse() {
        // A 17-given puzzle, then less each of its givens.
        let text = GIVENS_17;
        let mut solver = Solver::new();
        assert_eq!(solver.count(&grid(text), 2).solutions, 2);
        assert!(!solver.sparse);
        for (i, _) in text.bytes().enumerate().filter(|&(_, b)| b != b'.') {
            let mut fewer = text.as_bytes().to_vec();
            fewer[i] = b'.';
            let fewer = grid(std::str::from_utf8(&fewer).unwrap());
            assert_eq!(solver.count(&fewer, 2).solutions, 2);
            assert!(solver.sparse);
            // Pencil marks never are, whatever they came from.
            solver.solve_marks(&Marks::of_grid(&fewer));
            assert!(!solver.sparse);
        }
    }

    #[test]
    fn counting_a_sparse_puzzle_to_two_stops_at_its_first_solution() {
        // The 17-given puzzle less its first given: 16 givens, several solutions.
        let fewer = grid(&GIVENS_17.replacen('8', ".", 1));
        let mut solver = Solver::new();
        let first = solver.solve(&fewer);
        let to_first = solver.stats().guesses;
        let count = solver.count(&fewer, 2);
        assert_eq!(count.solutions, 2);
        assert_eq!(Outcome::of(count), first);
        assert_eq!(solver.stats().guesses, to_first);
        // Any other limit searches on.
        assert_eq!(solver.count(&fewer, 3).solutions, 3);
        assert!(solver.stats().guesses > to_first);
    }
}
