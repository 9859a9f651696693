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
//!    the band where it has one cell left (hidden singles in rows);
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

#[cfg(target_arch = "x86_64")]
mod lanes;
pub mod tables;

use crate::grid::{Clash, Grid, CELLS};
use crate::marks::Marks;
use tables::{
    column_cells, BAND_ALL, BOX_CELLS, CLAIMED_COLUMNS, COLUMN, PEERS_IN_BAND, PERMS_CELLS,
    PERMS_COLUMNS, PERMS_IN, PERMS_OPEN, ROW_KEEP, SHRINK, STACK_KEEP, TRIAD_CELLS, TRIAD_KEEP,
    TRIAD_KEEP_HASHED, TRIAD_MAGIC, TURNED_COLUMNS,
};

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
struct Node {
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
    board: Node,
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

/// Whether this CPU has what [`Solver::search_with_bit_instructions`] is compiled for
/// (std caches the answer).
#[cfg(target_arch = "x86_64")]
fn bit_instructions() -> bool {
    std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
}

/// The compiled copies of the search, and which one this CPU runs.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, PartialEq, Eq)]
enum SearchCopy {
    /// [`Solver::search`] as the default build compiles it.
    Baseline,
    /// [`Solver::search_with_bit_instructions`].
    BitInstructions,
    /// [`Solver::search_avx2`].
    Avx2,
    /// [`Solver::search_fast`].
    Fast,
}

/// What a compiled copy of the search uses beyond the bit instructions, as bits of its
/// `KIT` parameter: AVX2 for the sweep's counts, `pext` for triads and stack patterns.
const AVX2: u8 = 1;
/// See [`AVX2`].
const PEXT: u8 = 2;

/// The copy for this CPU, decided once: [`Solver::search_fast`] where it has the bit
/// instructions and AVX2 and runs `pext` in one fast instruction (every Intel CPU with
/// BMI2 does; AMD's before Zen 3, family 17h, and Hygon's 18h run it in microcode, tens
/// of cycles or more, slower than the table lookups it replaces), else
/// [`Solver::search_avx2`] where it has those and AVX2, else
/// [`Solver::search_with_bit_instructions`] where it has the bit instructions, else the
/// baseline.
#[cfg(target_arch = "x86_64")]
fn copy_for_this_cpu() -> SearchCopy {
    static COPY: std::sync::OnceLock<SearchCopy> = std::sync::OnceLock::new();
    *COPY.get_or_init(|| {
        use std::arch::x86_64::__cpuid;
        if !bit_instructions() {
            return SearchCopy::Baseline;
        }
        let vendor = __cpuid(0);
        let fast_pext = pext_is_fast([vendor.ebx, vendor.edx, vendor.ecx], __cpuid(1).eax);
        match (std::is_x86_feature_detected!("avx2"), fast_pext) {
            (true, true) => SearchCopy::Fast,
            (true, false) => SearchCopy::Avx2,
            (false, _) => SearchCopy::BitInstructions,
        }
    })
}

/// A CPUID vendor string as the three words leaf 0 returns it in EBX, EDX, ECX.
#[cfg(any(test, target_arch = "x86_64"))]
fn vendor_words(name: &[u8; 12]) -> [u32; 3] {
    let word = |i: usize| u32::from_le_bytes([name[i], name[i + 1], name[i + 2], name[i + 3]]);
    [word(0), word(4), word(8)]
}

/// Whether `pext` is fast, from CPUID: the vendor words and leaf 1's EAX (family in bits
/// 8..12, extended family in bits 20..28 when that is 0xf).
#[cfg(any(test, target_arch = "x86_64"))]
fn pext_is_fast(vendor: [u32; 3], signature: u32) -> bool {
    let amd_like =
        vendor == vendor_words(b"AuthenticAMD") || vendor == vendor_words(b"HygonGenuine");
    let base = (signature >> 8) & 0xf;
    let family = if base == 0xf {
        base + ((signature >> 20) & 0xff)
    } else {
        base
    };
    !amd_like || family >= 0x19
}

/// Search effort for the last call, for benchmarks (as in tdoku's tables).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Branches taken (each guess of a digit in a cell).
    pub guesses: u32,
    /// Passes of the propagation loop (band updates plus naked-single sweeps).
    pub rounds: u32,
}

/// Result of [`Solver::solve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A solution was found (the first in search order).
    Solved(Grid),
    /// The givens do not clash but there is no solution.
    Unsolvable,
    /// Two givens clash.
    Invalid(Clash),
    /// The search spent its budget ([`crate::engine::Budget`]) before finding a solution
    /// or proving there is none.
    Undecided,
}

impl Outcome {
    /// The outcome of a count to one (any engine's).
    pub(crate) fn of(count: Count) -> Outcome {
        match count.first {
            Some(solution) => Outcome::Solved(solution),
            None if count.spent => Outcome::Undecided,
            None => Outcome::Unsolvable,
        }
    }
}

/// Result of [`Solver::count`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Solutions found, at most the limit asked for.
    pub solutions: u64,
    /// The first solution found, if any.
    pub first: Option<Grid>,
    /// The search spent its budget before it could finish: `solutions` counts those
    /// found by then, and there may be more.
    pub spent: bool,
}

impl Count {
    /// No solution, search finished.
    pub const NONE: Count = Count {
        solutions: 0,
        first: None,
        spent: false,
    };
}

/// A budget as the band solver counts it (its guess counter is 32 bits).
fn budget_of(budget: crate::engine::Budget) -> u32 {
    u32::try_from(budget.get()).unwrap_or(u32::MAX)
}

/// Result of [`Solver::classify`]: how many solutions, up to two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Classification {
    /// Exactly one solution.
    Unique(Grid),
    /// Two or more; holds one of them.
    Multiple(Grid),
    /// No solution, though the givens do not clash.
    Unsolvable,
    /// The givens clash.
    Invalid(Clash),
    /// The search spent its budget first; holds the solution found by then, if any.
    Undecided(Option<Grid>),
}

impl Classification {
    /// The class of a count to two (any engine's).
    pub(crate) fn of(count: Count) -> Classification {
        match (count.solutions, count.first, count.spent) {
            (_, first, true) if count.solutions < 2 => Classification::Undecided(first),
            (1, Some(s), _) => Classification::Unique(s),
            (_, Some(s), _) => Classification::Multiple(s),
            _ => Classification::Unsolvable,
        }
    }
}

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
    board: Node,
    /// Each mask as its last band update left it; a mask differing from this needs one.
    seen: [u32; 28],
    stack: [Frame; MAX_DEPTH],
    depth: usize,
    stats: SearchStats,
    /// Branches a search may take ([`crate::engine::Budget`], at most `u32::MAX`).
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
        let board = Node {
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
            budget: budget_of(crate::engine::Budget::DEFAULT),
            sparse: false,
            givens: [BAND_ALL; 3],
        }
    }

    /// Sets how many branches each later search may take before it gives up.
    pub fn set_budget(&mut self, budget: crate::engine::Budget) {
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

    fn search_from(
        &mut self,
        start: Start<'_>,
        limit: u64,
        exclude: Option<(usize, u8)>,
    ) -> Result<Count, Clash> {
        #[cfg(target_arch = "x86_64")]
        match copy_for_this_cpu() {
            // SAFETY: each copy is chosen only where this CPU has the features it is
            // compiled for (`copy_for_this_cpu`).
            SearchCopy::Fast => return unsafe { self.search_fast(start, limit, exclude) },
            SearchCopy::Avx2 => return unsafe { self.search_avx2(start, limit, exclude) },
            SearchCopy::BitInstructions => {
                return unsafe { self.search_with_bit_instructions(start, limit, exclude) }
            }
            SearchCopy::Baseline => {}
        }
        self.search::<0>(start, limit, exclude)
    }

    /// [`Solver::search_with_bit_instructions`] for CPUs where `pext` is fast (Intel
    /// since Haswell, AMD since Zen 3, all with AVX2): each mask's triads by one `pext`
    /// instead of three table lookups (measured: 6-7% faster on the hard sets and
    /// Kaggle), a digit's stack patterns by three, and the sweep's counts two digits at
    /// a time in AVX2 vectors (which also gives the SSE2 code three-operand forms).
    ///
    /// # Safety
    /// The CPU must have the features [`bit_instructions`] checks, and AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx,avx2")]
    unsafe fn search_fast(
        &mut self,
        start: Start<'_>,
        limit: u64,
        exclude: Option<(usize, u8)>,
    ) -> Result<Count, Clash> {
        self.search::<{ AVX2 | PEXT }>(start, limit, exclude)
    }

    /// [`Solver::search_fast`] without `pext`, for CPUs that have AVX2 but run `pext` in
    /// microcode (AMD before Zen 3): the sweep's counts two digits at a time, triads
    /// hashed by one multiply, and no compiler fences (measured on Zen 2: see
    /// [`Solver::propagate`]).
    ///
    /// # Safety
    /// The CPU must have the features [`bit_instructions`] checks, and AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx,avx2")]
    unsafe fn search_avx2(
        &mut self,
        start: Start<'_>,
        limit: u64,
        exclude: Option<(usize, u8)>,
    ) -> Result<Count, Clash> {
        self.search::<AVX2>(start, limit, exclude)
    }

    /// [`Solver::search`] compiled with popcnt, BMI1/2 and lzcnt (one instruction for
    /// each bit count and lowest-bit step; the default build targets baseline x86-64).
    ///
    /// # Safety
    /// The CPU must have those features: see [`bit_instructions`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
    unsafe fn search_with_bit_instructions(
        &mut self,
        start: Start<'_>,
        limit: u64,
        exclude: Option<(usize, u8)>,
    ) -> Result<Count, Clash> {
        self.search::<0>(start, limit, exclude)
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

    /// Resets the board to pencil marks: every cell unsolved with exactly its marked
    /// candidates; propagation then places the cells that have one.
    #[inline(always)]
    fn load_marks(&mut self, marks: &Marks) {
        for digit in 0..9 {
            for band in 0..3 {
                let mut mask = 0u32;
                for bit in 0..27 {
                    if marks.candidates(band * 27 + bit) >> digit & 1 == 1 {
                        mask |= 1 << bit;
                    }
                }
                self.board.candidates[digit * 3 + band] = mask;
            }
        }
        self.board.unsolved = [BAND_ALL; 3];
        self.seen = [u32::MAX; 28];
        self.sparse = false;
        // Marks are no givens: no rectangle is taken as a second solution.
        self.givens = [BAND_ALL; 3];
    }

    /// Resets the board to the givens with all their eliminations, in one batch per
    /// digit; false when two givens of a digit share a row, column or box.
    #[inline(always)]
    fn load(&mut self, puzzle: &Grid) -> bool {
        let givens = &given_masks(puzzle.cells());
        let mut filled = [0u32; 3];
        for digit in 0..9 {
            for band in 0..3 {
                filled[band] |= givens[digit * 3 + band];
            }
        }
        for digit in 0..9 {
            let g = [
                givens[digit * 3],
                givens[digit * 3 + 1],
                givens[digit * 3 + 2],
            ];
            let all = g[0] | g[1] | g[2];
            let columns = fold_columns(all);
            // n givens of one digit need n distinct columns, rows and boxes.
            if columns.count_ones() != g[0].count_ones() + g[1].count_ones() + g[2].count_ones() {
                return false;
            }
            let taken = column_cells(columns);
            for band in 0..3 {
                let mask = g[band];
                let rows = [mask & 0x1ff, (mask >> 9) & 0x1ff, (mask >> 18) & 0x1ff];
                let row_cells = ((rows[0] != 0) as u32 * 0x1ff)
                    | ((rows[1] != 0) as u32 * (0x1ff << 9))
                    | ((rows[2] != 0) as u32 * (0x1ff << 18));
                let boxes = (SHRINK[rows[0] as usize]
                    | SHRINK[rows[1] as usize]
                    | SHRINK[rows[2] as usize]) as usize
                    & 7;
                let count = mask.count_ones();
                if row_cells.count_ones() != 9 * count || boxes.count_ones() != count {
                    return false;
                }
                self.board.candidates[digit * 3 + band] =
                    (BAND_ALL & !(row_cells | BOX_CELLS[boxes] | taken | filled[band])) | mask;
            }
        }
        let givens = filled[0].count_ones() + filled[1].count_ones() + filled[2].count_ones();
        self.sparse = givens <= SPARSE_GIVENS;
        self.givens = filled;
        self.board.unsolved = [
            BAND_ALL & !filled[0],
            BAND_ALL & !filled[1],
            BAND_ALL & !filled[2],
        ];
        // No 27-bit mask equals u32::MAX: every mask gets a first update.
        self.seen = [u32::MAX; 28];
        true
    }

    /// Places `digit` in cell `bit` of `band`: removes it from the cell's peers and
    /// every other digit from the cell, and marks the cell solved.
    #[inline(always)]
    fn place(&mut self, digit: usize, band: usize, bit: u32) {
        let cell = 1u32 << bit;
        #[cfg(test)]
        assert!(self.board.candidates[digit * 3 + band] & cell != 0);
        // Every digit loses the cell, then the placed one gets it back alone among its
        // peers: no branch on the digit (the callers pass one of the cell's candidates).
        for d in 0..9 {
            self.clear(d * 3 + band, cell);
        }
        let own = digit * 3 + band;
        self.board.candidates[own] =
            (self.board.candidates[own] & !PEERS_IN_BAND[bit as usize]) | cell;
        let column = COLUMN[(bit % 9) as usize];
        self.clear(digit * 3 + (band + 1) % 3, column);
        self.clear(digit * 3 + (band + 2) % 3, column);
        self.board.unsolved[band] &= !cell;
    }

    /// Removes `cells` from mask `index`; the next pass sees the change.
    #[inline(always)]
    fn clear(&mut self, index: usize, cells: u32) {
        self.board.candidates[index] &= !cells;
    }

    /// Runs propagation to a fixed point; false on a contradiction.
    #[inline(always)]
    fn propagate<const KIT: u8>(&mut self) -> bool {
        loop {
            // Unrolled passes over the 27 masks until none changed; each update is
            // specialised for its (digit, band): constant indices, no bounds checks.
            // Band by band: a band's columns claimed from the next bands are seen in the
            // same pass (measured 4-6% faster than digit by digit on the hard sets).
            // The fence before each check (it emits no instruction) stops LLVM from
            // keeping the masks a pass has read in registers for later updates' clears:
            // with 27 of them live through the pass it spilled some on every check that
            // found its mask unchanged (about 10k extra instructions a top95 puzzle).
            // Measured: top95 +3-6%, forum-hardest +0.5%, Kaggle -0.6%, others level.
            // Only in the copy with `pext`, where it was measured: on AMD Zen 2 (the AVX2
            // copy) it cost 3-4% on every hard set and on puzzles with many solutions.
            macro_rules! pass {
                ($changed:ident; $($i:literal)*) => {
                    $(
                        if KIT & PEXT != 0 {
                            std::sync::atomic::compiler_fence(std::sync::atomic::Ordering::SeqCst);
                        }
                        if self.board.candidates[$i] != self.seen[$i] {
                            $changed = true;
                            if !self.update_mask::<KIT>($i) {
                                return false;
                            }
                        }
                    )*
                };
            }
            loop {
                let mut changed = false;
                pass!(changed;
                    0 3 6 9 12 15 18 21 24 1 4 7 10 13 16 19 22 25 2 5 8 11 14 17 20 23 26);
                if !changed {
                    break;
                }
            }
            self.stats.rounds += 1;
            match self.naked_singles::<KIT>() {
                Sweep::Contradiction => return false,
                Sweep::Placed => continue,
                Sweep::Stable if self.board.unsolved == [0; 3] => return true,
                Sweep::Stable if self.light() => return true,
                Sweep::Stable => {}
            }
            match self.sweep_sets::<KIT>() {
                Sweep::Contradiction => return false,
                Sweep::Placed => continue,
                Sweep::Stable => return true,
            }
        }
    }

    /// Narrows the digit's mask in band `b` to `keep[b]` (`BAND_ALL` leaves it as it is)
    /// for a branch, and updates the masks it narrows at once: false at a dead end. Run
    /// before the passes, these updates cost no mispredicted check "changed since its
    /// update" (measured on Zen 2: +2-4% on puzzles with many solutions, level on the
    /// hardest).
    #[inline(always)]
    fn narrow<const KIT: u8>(&mut self, digit: usize, keep: [u32; 3]) -> bool {
        let digit = digit % 9;
        for (band, &kept) in keep.iter().enumerate() {
            self.board.candidates[digit * 3 + band] &= kept;
        }
        (keep[0] == BAND_ALL || self.update_mask::<KIT>(digit * 3))
            && (keep[1] == BAND_ALL || self.update_mask::<KIT>(digit * 3 + 1))
            && (keep[2] == BAND_ALL || self.update_mask::<KIT>(digit * 3 + 2))
    }

    /// Applies the triad rule, column claiming and row hidden singles to mask `index`
    /// (0..27), straight-line (no data-dependent branches but the dead end).
    ///
    /// The triad rule keeps only triads on a feasible permutation; a row confined to
    /// one triad thereby takes that box, so a cell alone in its row has no box peers
    /// left. A box where the digit is left in one column claims that column: the other
    /// two bands lose it. Cells alone in their row are placed: the other digits lose them.
    ///
    /// The passes call it with constant indices, so each call is specialised; a branch
    /// calls it with the masks it narrowed ([`Solver::narrow`]).
    #[inline(always)]
    fn update_mask<const KIT: u8>(&mut self, index: usize) -> bool {
        let index = index % 27;
        let (digit, band) = (index / 3, index % 3);
        let (next, last) = (digit * 3 + (band + 1) % 3, digit * 3 + (band + 2) % 3);
        let mut mask = self.board.candidates[index];
        let keep = triad_keep::<KIT>(mask);
        mask &= keep as u32;
        if mask == 0 {
            return false;
        }
        self.board.candidates[index] = mask;
        self.seen[index] = mask;
        let columns = fold_columns(mask);
        self.board.shapes[index] = (keep >> 32) as u32 | columns << 9;
        let claimed = CLAIMED_COLUMNS[columns as usize];
        self.clear(next, claimed);
        // Where `next` and `last` are adjacent (bands 0 and 2), LLVM otherwise merges the
        // two clears into one 8-byte read-modify-write, whose load spans two earlier
        // 4-byte stores and so cannot be served from the store buffer: it waits for
        // them to reach the cache. The fence emits no instruction; it only keeps the
        // two clears apart (measured: top95 +1.5%, top1465 +2.5%, Kaggle -0.6% to +1%).
        // As the fence in the passes, only in the copy with `pext`: on AMD Zen 2 the
        // AVX2 copy is 0.5-2.6% faster without it.
        if KIT & PEXT != 0 {
            std::sync::atomic::compiler_fence(std::sync::atomic::Ordering::Release);
        }
        self.clear(last, claimed);
        // Cells placed before come back as singles of their row every time: removing
        // them again changes nothing, and not masking them with `unsolved` keeps these
        // stores off the chain of `unsolved` updates through the band (measured: top95
        // +2-4%, top1465 +2%, forum-hardest +1-2%).
        let singles = row_singles(mask);
        self.board.unsolved[band] &= !singles;
        // Every digit loses the singles, then this mask is stored again whole: no
        // branch on the digit where the index is not a constant (measured with the
        // constant too: level to +1.7%).
        for d in 0..9 {
            self.clear(d * 3 + band, singles);
        }
        self.board.candidates[index] = mask;
        true
    }

    /// What the band updates do not see, run once they and naked singles are stable (so
    /// it costs nothing on puzzles that fall to them); `Placed` means something changed.
    ///
    /// - Locked candidates in the stack direction: where one band alone still holds a
    ///   digit in a column, that band's box holds it in that column. A column no band
    ///   holds is a dead end.
    /// - Naked and hidden triples on the three cells of a minirow or minicolumn, each of
    ///   which holds exactly three digits: where only three digits can still go there,
    ///   each must (a digit forced into a minirow keeps only it in its row; into a
    ///   minicolumn, only that column in its box); where three digits can go nowhere else
    ///   in their row (or box column), the other digits lose those cells. Fewer than three
    ///   possible digits, or more than three that must go there, is a dead end.
    #[inline(always)]
    fn sweep_sets<const KIT: u8>(&mut self) -> Sweep {
        let Some(Settled {
            naked,
            hidden,
            locks,
        }) = self.triad_counts::<KIT>()
        else {
            return Sweep::Contradiction;
        };
        // `sure` lies within `open`: a minirow or minicolumn with three open digits and
        // three sure is settled; either alone has something to remove.
        if (naked ^ hidden) == 0 && locks == 0 {
            return Sweep::Stable;
        }
        let mut changed = false;
        for digit in 0..9 {
            let (open, sure, only) = self.digit_sets(digit);
            let forced = open & naked;
            let barred = hidden & !sure;
            for band in 0..3 {
                let f = (forced >> (18 * band)) as u32;
                let b = (barred >> (18 * band)) as u32;
                let cols = (b >> 9) & 0x1ff;
                let lock = ((only >> (9 * band)) | f >> 9) & 0x1ff;
                let keep = ROW_KEEP[(f & 0x1ff) as usize]
                    & STACK_KEEP[lock as usize]
                    & !TRIAD_CELLS[(b & 0x1ff) as usize]
                    & !column_cells(cols);
                let index = digit * 3 + band;
                let kept = self.board.candidates[index] & keep;
                changed |= kept != self.board.candidates[index];
                self.board.candidates[index] = kept;
            }
        }
        if changed {
            Sweep::Placed
        } else {
            Sweep::Stable
        }
    }

    /// A digit's minirows and minicolumns, three bands packed 18 bits apart (bits 0..9 of
    /// a band are its minirows, bit `row * 3 + box`; bits 9..18 its minicolumns, bit
    /// `9 + column`): where it may go, where it must (alone in its row's triads or its
    /// box's columns); and, three bands packed 9 bits apart, the columns where that band
    /// alone holds it.
    #[inline(always)]
    fn digit_sets(&self, digit: usize) -> (u64, u64, u32) {
        let shape = self.digit_shapes(digit);
        let c = [
            (shape[0] >> 9) & 0x1ff,
            (shape[1] >> 9) & 0x1ff,
            (shape[2] >> 9) & 0x1ff,
        ];
        let open = (shape[0] & 0x3ffff) as u64
            | ((shape[1] & 0x3ffff) as u64) << 18
            | ((shape[2] & 0x3ffff) as u64) << 36;
        let only =
            (c[0] & !(c[1] | c[2])) | (c[1] & !(c[0] | c[2])) << 9 | (c[2] & !(c[0] | c[1])) << 18;
        (open, lone_in_threes(open), only)
    }

    /// A digit's three band shapes.
    #[inline(always)]
    fn digit_shapes(&self, digit: usize) -> [u32; 3] {
        [
            self.board.shapes[digit * 3],
            self.board.shapes[digit * 3 + 1],
            self.board.shapes[digit * 3 + 2],
        ]
    }

    /// Counts over the nine digits for [`Solver::sweep_sets`]; `None` at a dead end (a
    /// column no band holds a digit in, a minirow or minicolumn open to fewer than three
    /// digits or sure of more than three).
    #[cfg(any(test, not(target_arch = "x86_64")))]
    #[inline(always)]
    fn triad_counts_scalar(&self) -> Option<Settled> {
        let (mut o1, mut o2, mut o3, mut o4) = (0u64, 0u64, 0u64, 0u64);
        let (mut s1, mut s2, mut s3, mut s4) = (0u64, 0u64, 0u64, 0u64);
        let mut locks = 0u32;
        for digit in 0..9 {
            let (x, y, o) = self.digit_sets(digit);
            let c = (x >> 9) as u32 & 0x1ff | (x >> 27) as u32 & 0x1ff | (x >> 45) as u32 & 0x1ff;
            if c != 0x1ff {
                return None;
            }
            locks |= box_locks(x, o);
            o4 |= o3 & x;
            o3 |= o2 & x;
            o2 |= o1 & x;
            o1 |= x;
            s4 |= s3 & y;
            s3 |= s2 & y;
            s2 |= s1 & y;
            s1 |= y;
        }
        if o3 != (1 << 54) - 1 || s4 != 0 {
            return None;
        }
        Some(Settled {
            naked: o3 & !o4,
            hidden: s3,
            locks,
        })
    }

    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    fn triad_counts<const KIT: u8>(&self) -> Option<Settled> {
        self.triad_counts_scalar()
    }

    /// [`Solver::triad_counts_scalar`] with SSE2 (part of every x86-64 CPU), a digit's
    /// three bands in three lanes; in the copies with [`AVX2`], two digits at a time.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn triad_counts<const KIT: u8>(&self) -> Option<Settled> {
        let found = if KIT & AVX2 != 0 {
            // SAFETY: `AVX2` code runs only inside `search_fast` or `search_avx2`, chosen
            // where the CPU has AVX2 (`copy_for_this_cpu`).
            unsafe { lanes::triad_counts_avx2(&self.board.shapes) }
        } else {
            lanes::triad_counts_sse2(&self.board.shapes)
        };
        let counts = found.map(|(n, h, l)| Settled {
            naked: n[0] as u64 | (n[1] as u64) << 18 | (n[2] as u64) << 36,
            hidden: h[0] as u64 | (h[1] as u64) << 18 | (h[2] as u64) << 36,
            locks: l[0] | l[1] << 9 | l[2] << 18,
        });
        // Checked in test builds with `assert`: the suite runs `--release`, where
        // `debug_assert` is off.
        #[cfg(test)]
        assert_eq!(counts, self.triad_counts_scalar());
        counts
    }

    /// Places every unsolved cell with a single candidate; fails on a cell with none.
    #[inline(always)]
    fn naked_singles<const KIT: u8>(&mut self) -> Sweep {
        let mut placed = false;
        // Counted once for all bands: a placement below can only take candidates away,
        // so a cell it leaves with one is found next round, one it empties below.
        let (any, two) = self.cell_counts();
        for band in 0..3 {
            let unsolved = self.board.unsolved[band];
            if unsolved & !any[band] != 0 {
                return Sweep::Contradiction;
            }
            let mut singles = unsolved & !two[band];
            while singles != 0 {
                let bit = singles.trailing_zeros();
                singles &= singles - 1;
                let digits = self.digits_at(band, bit);
                if digits == 0 {
                    // An earlier placement in this sweep took the cell's last candidate.
                    return Sweep::Contradiction;
                }
                let digit = digits.trailing_zeros() as usize;
                self.place(digit, band, bit);
                // The placed digit's mask in this band changed: updated at once, not
                // found by a pass's check (a likely mispredicted branch).
                if !self.update_mask::<KIT>(digit * 3 + band) {
                    return Sweep::Contradiction;
                }
                placed = true;
            }
        }
        if placed {
            Sweep::Placed
        } else {
            Sweep::Stable
        }
    }

    /// Each band's cells with at least one candidate, and with at least two.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    #[inline(always)]
    fn cell_counts_scalar(&self) -> ([u32; 3], [u32; 3]) {
        let (mut any, mut two) = ([0; 3], [0; 3]);
        for band in 0..3 {
            (any[band], two[band], _) = self.candidate_counts(band);
        }
        (any, two)
    }

    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    fn cell_counts(&self) -> ([u32; 3], [u32; 3]) {
        self.cell_counts_scalar()
    }

    /// [`Solver::cell_counts_scalar`] with SSE2, the three bands in three lanes.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn cell_counts(&self) -> ([u32; 3], [u32; 3]) {
        let (one, two) = lanes::cell_counts_sse2(&self.board.candidates);
        let counts = ([one[0], one[1], one[2]], [two[0], two[1], two[2]]);
        #[cfg(test)]
        assert_eq!(counts, self.cell_counts_scalar());
        counts
    }

    /// The candidate digits of cell `bit` of `band`, as bits 0..9 (branch-free).
    #[inline(always)]
    fn digits_at(&self, band: usize, bit: u32) -> u32 {
        let mut digits = 0;
        for d in 0..9 {
            digits |= ((self.board.candidates[d * 3 + band] >> bit) & 1) << d;
        }
        digits
    }

    /// Bit-sliced candidate counts for a band's cells: (at least 1, at least 2, at least 3).
    #[inline(always)]
    fn candidate_counts(&self, band: usize) -> (u32, u32, u32) {
        let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
        for digit in 0..9 {
            let m = self.board.candidates[digit * 3 + band];
            three |= two & m;
            two |= one & m;
            one |= m;
        }
        (one, two, three)
    }

    /// Whether this node is light: on the search's first descent (it has not
    /// backtracked), below the root, with at most [`LIGHT_UNSOLVED`] cells left (or
    /// anywhere on the first descent of a sparse puzzle, below). A light
    /// node skips the sweep and branches on the first cell with two candidates, the
    /// cheapest choice, instead of choosing among the digits' permutations.
    ///
    /// On a puzzle with many solutions the search is one straight descent (almost no
    /// guess there meets a dead end), where what the sweep and the permutation choice
    /// save in guesses costs more than it saves; on a unique puzzle the first dead end
    /// comes early, and from then on every node is full. The root stays full: a puzzle
    /// that the sweep finishes there needs no guess (Royle's 17-clue list: 0.60 guesses
    /// a puzzle, 0.74 with a light root, 0.56 with no light nodes).
    ///
    /// A puzzle of at most [`SPARSE_GIVENS`] givens cannot be unique: it has no
    /// solution or several, and the sweep cannot finish it at the root. Its first
    /// descent is light from the root, however many cells are left (Royle's 17-clue
    /// puzzles less one given: 14.5 guesses a puzzle against 14.2, 13% faster).
    ///
    /// Every branch pushes a frame and every backtrack pops one, so the search has not
    /// backtracked exactly while its depth equals its branches taken.
    #[inline(always)]
    fn light(&self) -> bool {
        let left = self.board.unsolved[0].count_ones()
            + self.board.unsolved[1].count_ones()
            + self.board.unsolved[2].count_ones();
        (self.sparse || (self.depth > 0 && left <= LIGHT_UNSOLVED))
            && self.depth == self.stats.guesses as usize
    }

    /// Branches: on the placement of a digit in a band when one is down to two or three
    /// triad permutations (the first, then the others), else on a cell (its lowest
    /// candidate, then the rest); at a light node ([`Solver::light`]) on a cell alone.
    /// Saves the node with what the other branch keeps, then takes the first: false
    /// when the masks it narrows are a dead end at once, else the caller propagates it.
    #[inline(always)]
    fn guess<const KIT: u8>(&mut self) -> bool {
        // Before counting this branch: `light` compares the branches taken with the depth.
        let light = self.light();
        self.stats.guesses += 1;
        let permutation = if light {
            None
        } else {
            self.pick_permutation::<KIT>()
        };
        if let Some((digit, unit, perms)) = permutation {
            let first = perms.trailing_zeros() as usize;
            let rest = perms & (perms - 1);
            let keep = [
                unit_keep(unit, 0, rest),
                unit_keep(unit, 1, rest),
                unit_keep(unit, 2, rest),
            ];
            self.stack[self.depth] = Frame {
                board: self.board,
                digit: digit as u8,
                second: NO_CELL,
                keep,
            };
            self.depth += 1;
            let taken = [0, 1, 2].map(|band| unit_keep(unit, band, 1 << first));
            return self.narrow::<KIT>(digit, taken);
        }
        let (band, bit) = if light {
            self.pick_first_pair()
        } else {
            self.pick_cell()
        };
        // The picked cell is unsolved and alive, so it has a candidate.
        let digits = self.digits_at(band, bit);
        let digit = (digits.trailing_zeros() as usize).min(8);
        // The cell's highest candidate: at a cell with two, the other branch's digit.
        let second = (31 - (digits | 1).leading_zeros()) as usize;
        // Depth stays below MAX_DEPTH: every frame below this one placed at least one
        // of the 81 cells or fixed a mask's permutation, and this cell is unsolved.
        self.stack[self.depth] = Frame {
            board: self.board,
            digit: digit as u8,
            second: second as u8,
            keep: [
                if band == 0 { !(1 << bit) } else { BAND_ALL },
                if band == 1 { !(1 << bit) } else { BAND_ALL },
                if band == 2 { !(1 << bit) } else { BAND_ALL },
            ],
        };
        self.depth += 1;
        self.place(digit, band, bit);
        // The two masks of the band that the placement surely changed (the digit's, and
        // the other digit's that lost the cell), updated at once as `narrow` does.
        self.update_mask::<KIT>(digit * 3 + band) && self.update_mask::<KIT>(second * 3 + band)
    }

    /// A digit whose triads in a band or stack (unit 0..3 a band, 3..6 a stack, whose
    /// permutations are how the digit's three bands sit in its three columns) fit two
    /// permutations (else three), in the unit with the fewest open permutations over all
    /// digits (as tdoku picks its branch): the digit, the unit and its permutations (bit
    /// `p`). Measured before the triple rules, count to 2 (guesses a puzzle, top1465 /
    /// forum-hardest): bands only 14.2 / 166, against 13.6 / 218 branching on cells only;
    /// preferring a two-candidate cell when there is one gave 13.5 / 235, a
    /// two-permutation digit from any band 17.2 / 231, the band's such digit with the
    /// fewest cells 13.3 / 160 (5-9% slower for first solutions); bands and stacks 13.7 /
    /// 147, then 1-6% slower. With the triple rules, bands only 9.4 / 126, bands and
    /// stacks 8.9 / 111 (tdoku 8.9 / 110) and 5% faster on the hardest.
    #[inline(always)]
    fn pick_permutation<const KIT: u8>(&self) -> Option<(usize, usize, u8)> {
        let mut totals = [0u32; 6];
        for digit in 0..9 {
            let shape = self.digit_shapes(digit);
            // A band's count comes with its shape; a stack's needs all three bands.
            for band in 0..3 {
                totals[band] += shape[band] >> 18;
            }
        }
        totals[3..].copy_from_slice(&stack_totals::<KIT>(&self.board.shapes));
        // The unit with the fewest open permutations above nine (every digit placed
        // there is down to one), the first such on ties; and in it the first digit
        // with two permutations, else three. Branch-free: as searches over the units
        // and digits, these branches took 13% of the simulated mispredictions on
        // puzzles with many solutions.
        let mut best = u32::MAX;
        for (unit, &total) in totals.iter().enumerate() {
            let key = if total > 9 {
                total << 3 | unit as u32
            } else {
                u32::MAX
            };
            best = best.min(key);
        }
        if best == u32::MAX {
            return None;
        }
        let unit = (best & 7) as usize;
        let mut patterns = [0usize; 9];
        let (mut twos, mut threes) = (0u32, 0u32);
        for (digit, pattern) in patterns.iter_mut().enumerate() {
            *pattern = self.unit_pattern(digit, unit) & 0x1ff;
            let open = PERMS_OPEN[*pattern];
            twos |= ((open == 2) as u32) << digit;
            threes |= ((open == 3) as u32) << digit;
        }
        let digits = if twos != 0 { twos } else { threes };
        if digits == 0 {
            return None;
        }
        let digit = digits.trailing_zeros() as usize % 9;
        Some((digit, unit, PERMS_IN[patterns[digit]]))
    }

    /// The 3x3 pattern of a digit in unit 0..3 (a band: bit `row * 3 + box`) or 3..6 (a
    /// stack: bit `band * 3 + column in the stack`).
    #[inline(always)]
    fn unit_pattern(&self, digit: usize, unit: usize) -> usize {
        if unit < 3 {
            return self.board.shapes[digit * 3 + unit] as usize & 0x1ff;
        }
        let shape = self.digit_shapes(digit);
        stack_pattern(shape, unit - 3)
    }

    /// The unsolved cell to branch on: a cell with two candidates, in the band with the
    /// most such cells and that band's row with the most (measured on top1465, counting
    /// to 2: 16.0 guesses per puzzle, against 19.9 for the first such cell found), else
    /// the cell with the fewest candidates.
    #[inline(always)]
    fn pick_cell(&self) -> (usize, u32) {
        let mut pair: Option<(usize, u32, u32)> = None;
        for band in 0..3 {
            let (_, two, three) = self.candidate_counts(band);
            let pairs = self.board.unsolved[band] & two & !three;
            let n = pairs.count_ones();
            if n > pair.map_or(0, |p| p.2) {
                // Within the band, the row holding the most such cells.
                let rows = [pairs & 0x1ff, pairs & (0x1ff << 9), pairs & (0x1ff << 18)];
                let row = rows
                    .into_iter()
                    .max_by_key(|r| r.count_ones())
                    .unwrap_or(pairs);
                pair = Some((band, row.trailing_zeros(), n));
            }
        }
        if let Some((band, bit, _)) = pair {
            return (band, bit);
        }
        let mut best = (0usize, 0u32, u32::MAX);
        for band in 0..3 {
            let mut rest = self.board.unsolved[band];
            while rest != 0 {
                let bit = rest.trailing_zeros();
                rest &= rest - 1;
                let n = self.digits_at(band, bit).count_ones();
                if n < best.2 {
                    best = (band, bit, n);
                }
            }
        }
        (best.0, best.1)
    }

    /// The first unsolved cell with two candidates, in band and cell order, else as
    /// [`Solver::pick_cell`]: the light nodes' branch, which needs no count of pairs.
    #[inline(always)]
    fn pick_first_pair(&self) -> (usize, u32) {
        for band in 0..3 {
            let (_, two, three) = self.candidate_counts(band);
            let pairs = self.board.unsolved[band] & two & !three;
            if pairs != 0 {
                return (band, pairs.trailing_zeros());
            }
        }
        self.pick_cell()
    }

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
    fn second_by_rectangle(&self) -> bool {
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
    fn rectangle(&self, band: usize, bit: u32, a: usize, b: usize) -> bool {
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

    /// Reads the solved board back into a grid, branch-free: each band's cells as four
    /// bit planes of their digit (1-9), spread into bytes ([`band_digits`]). A loop over
    /// each mask's set bits cost a likely mispredicted exit per mask, 27 a solution: 3%
    /// of the samples on puzzles that take few guesses.
    #[inline(always)]
    fn solution(&self) -> Grid {
        let c = &self.board.candidates;
        let mut cells = [0u8; CELLS];
        for band in 0..3 {
            let m = |digit: usize| c[digit * 3 + band];
            // Plane k holds the cells whose digit (1-9) has bit k set.
            let planes = [
                m(0) | m(2) | m(4) | m(6) | m(8),
                m(1) | m(2) | m(5) | m(6),
                m(3) | m(4) | m(5) | m(6),
                m(7) | m(8),
            ];
            let bytes = band_digits(planes);
            cells[band * 27..band * 27 + 27].copy_from_slice(&bytes[..27]);
        }
        Grid::from_solver_cells(cells)
    }
}

/// A band's cells as bytes from its four digit planes (27-bit masks): byte `j` has
/// bit `k` set where plane `k` has bit `j`; bytes 27..32 are zero. Each plane is spread
/// eight cells at a time ([`spread_bits`]).
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn band_digits_scalar(planes: [u32; 4]) -> [u8; 32] {
    let mut bytes = [0u8; 32];
    for (chunk, out) in bytes.chunks_exact_mut(8).enumerate() {
        let mut value = 0u64;
        for (k, plane) in planes.iter().enumerate() {
            value |= spread_bits(plane >> (8 * chunk) & 0xff) << k;
        }
        out.copy_from_slice(&value.to_le_bytes());
    }
    bytes
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn band_digits(planes: [u32; 4]) -> [u8; 32] {
    band_digits_scalar(planes)
}

/// [`band_digits_scalar`] in SSE2: sixteen cells a vector instead of eight a word.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn band_digits(planes: [u32; 4]) -> [u8; 32] {
    let bytes = lanes::band_digits_sse2(planes);
    #[cfg(test)]
    assert_eq!(bytes, band_digits_scalar(planes));
    bytes
}

/// Eight bits (`bits` < 256) as eight bytes, byte `j` holding bit `j` (0 or 1).
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn spread_bits(bits: u32) -> u64 {
    // Byte j of the product keeps bit j of `bits` in place (0 or 2^j, at most 0x80);
    // adding 0x7f to each byte then sets its top bit exactly when that bit was set,
    // with no carry into the next byte.
    let isolated = u64::from(bits).wrapping_mul(0x0101_0101_0101_0101) & 0x8040_2010_0804_0201;
    ((isolated + 0x7f7f_7f7f_7f7f_7f7f) >> 7) & 0x0101_0101_0101_0101
}

/// What the sweep's counts over the digits found, bands packed as in
/// [`Solver::digit_sets`].
#[derive(Debug, PartialEq, Eq)]
struct Settled {
    /// Minirows and minicolumns open to exactly three digits.
    naked: u64,
    /// Minirows and minicolumns three digits are sure of.
    hidden: u64,
    /// Nonzero where a box is confined to a column by the stack-direction rule but has
    /// other columns left.
    locks: u32,
}

enum Sweep {
    Contradiction,
    Placed,
    Stable,
}

/// The cells of `band` a digit keeps when unit 0..3 (a band) or 3..6 (a stack) takes one
/// of the permutations in `perms`: by table, where a loop over the set's bits cost about
/// 190 instructions and a data-dependent exit a guess.
#[inline(always)]
fn unit_keep(unit: usize, band: usize, perms: u8) -> u32 {
    let perms = perms as usize & 63;
    if unit < 3 {
        return if unit == band {
            PERMS_CELLS[perms]
        } else {
            BAND_ALL
        };
    }
    let stack = (unit - 3) % 3;
    let columns = (PERMS_COLUMNS[band % 3][perms] as u32) << (3 * stack);
    (BAND_ALL & !BOX_CELLS[1 << stack]) | column_cells(columns)
}

/// The givens as band masks: `masks[digit * 3 + band]` (digit 0-based), bit `i` where
/// cell `band * 27 + i` holds `digit + 1`.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn given_masks_scalar(cells: &[u8; CELLS]) -> [u32; 27] {
    // Slot `value * 3 + band`, branch-free: empty cells (value 0) land in slots 0..3,
    // which are ignored. Masking the index with 31 keeps it provably in bounds.
    let mut slots = [0u32; 32];
    for (band, cells) in cells.chunks_exact(27).enumerate() {
        for (bit, &value) in cells.iter().enumerate() {
            slots[(value as usize * 3 + band) & 31] |= 1 << bit;
        }
    }
    let mut masks = [0u32; 27];
    masks.copy_from_slice(&slots[3..30]);
    masks
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn given_masks(cells: &[u8; CELLS]) -> [u32; 27] {
    given_masks_scalar(cells)
}

/// [`given_masks_scalar`] by SSE2 byte compares (`lanes::given_masks_sse2`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn given_masks(cells: &[u8; CELLS]) -> [u32; 27] {
    let masks = lanes::given_masks_sse2(cells);
    #[cfg(test)]
    assert_eq!(masks, given_masks_scalar(cells));
    masks
}

/// Where a box holds a column that only its band holds the digit in (`only`, as from
/// [`Solver::digit_sets`]) but other columns as well: those other columns, which it loses
/// (bands packed 9 bits apart); zero when the stack-direction rule removes nothing.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn box_locks(open: u64, only: u32) -> u32 {
    let boxes = (only | only >> 1 | only >> 2) & 0x124_9249;
    let columns = (open >> 9) as u32 & 0x1ff
        | (open >> 18) as u32 & (0x1ff << 9)
        | (open >> 27) as u32 & (0x1ff << 18);
    (columns & (boxes * 7)) ^ only
}

/// [`TRIAD_KEEP`] for a mask's triad pattern (bit `row * 3 + box` where the triad has a
/// cell). The mask is folded onto each triad's first bit; in the copy with [`PEXT`] one
/// `pext` gathers those nine bits into the pattern, elsewhere one multiply hashes them
/// into [`TRIAD_KEEP_HASHED`] (three `SHRINK` lookups, one per row, before).
#[inline(always)]
fn triad_keep<const KIT: u8>(mask: u32) -> u64 {
    const FIRSTS: u32 = 0x124_9249;
    let folded = mask | mask >> 1 | mask >> 2;
    #[cfg(target_arch = "x86_64")]
    if KIT & PEXT != 0 {
        // SAFETY: `PEXT` code runs only inside `search_fast`, chosen where the CPU has
        // BMI2 (`copy_for_this_cpu`). `pext` takes only the first bits: no mask first.
        let pattern = unsafe { std::arch::x86_64::_pext_u32(folded, FIRSTS) };
        return TRIAD_KEEP[pattern as usize & 0x1ff];
    }
    TRIAD_KEEP_HASHED[(((folded & FIRSTS) as u64).wrapping_mul(TRIAD_MAGIC) >> 55) as usize]
}

/// Each stack's open placements summed over the digits (`PERMS_OPEN` of every digit's
/// pattern there, bit `band * 3 + column in the stack`), from the band shapes. In the
/// copy with [`PEXT`], one `pext` gathers each pattern for its lookup. Elsewhere, per
/// digit, its band-0 columns ANDed with its band-1 and band-2 columns turned
/// (`TURNED_COLUMNS`) leave one bit per open placement, three digits' bits go side by
/// side in one word, and a count per stack sums them (measured on AMD Zen 2 against
/// patterns by shifts and three lookups a digit: see `docs/performance.md`).
#[inline(always)]
fn stack_totals<const KIT: u8>(shapes: &[u32; 28]) -> [u32; 3] {
    let mut totals = [0u32; 3];
    #[cfg(target_arch = "x86_64")]
    if KIT & PEXT != 0 {
        let columns = |stack: u64| (7u64 << (9 + 3 * stack)) * (1 | 1 << 21 | 1 << 42);
        for digit in 0..9 {
            let x = shapes[digit * 3] as u64
                | (shapes[digit * 3 + 1] as u64) << 21
                | (shapes[digit * 3 + 2] as u64) << 42;
            for (stack, total) in totals.iter_mut().enumerate() {
                // SAFETY: as in `triad_keep`: only reached inside `search_fast`.
                let pattern = unsafe { std::arch::x86_64::_pext_u64(x, columns(stack as u64)) };
                *total += PERMS_OPEN[pattern as usize & 0x1ff] as u32;
            }
        }
        return totals;
    }
    /// A stack's six placement bits in each of three digits' 18-bit fields.
    const STACK: [u64; 3] = {
        let mut masks = [0u64; 3];
        let mut stack = 0;
        while stack < 3 {
            let bits = (7u64 << (3 * stack)) | (7u64 << (9 + 3 * stack));
            masks[stack] = bits | bits << 18 | bits << 36;
            stack += 1;
        }
        masks
    };
    for group in 0..3 {
        let mut open = 0u64;
        for k in 0..3 {
            let digit = group * 3 + k;
            let columns = |band: usize| (shapes[digit * 3 + band] >> 9) & 0x1ff;
            let first = columns(0);
            let placements = (first | first << 9)
                & TURNED_COLUMNS[0][columns(1) as usize]
                & TURNED_COLUMNS[1][columns(2) as usize];
            open |= (placements as u64) << (18 * k);
        }
        for stack in 0..3 {
            totals[stack] += (open & STACK[stack]).count_ones();
        }
    }
    totals
}

/// One stack's pattern from a digit's three band shapes, by shifts.
#[inline(always)]
fn stack_pattern(shape: [u32; 3], stack: usize) -> usize {
    let c = |band: usize| (shape[band] >> (9 + 3 * stack)) & 7;
    (c(0) | c(1) << 3 | c(2) << 6) as usize
}

/// Of bits read in groups of three (from bit 0), those alone in their group.
#[inline(always)]
fn lone_in_threes(x: u64) -> u64 {
    const P0: u64 = 0x0009_2492_4924_9249;
    const P1: u64 = P0 << 1;
    const P2: u64 = P0 << 2;
    let others = ((x >> 1 | x >> 2) & P0) | ((x << 1 | x >> 1) & P1) | ((x << 1 | x << 2) & P2);
    x & !others
}

/// The 9-bit set of columns a band mask has cells in.
#[inline(always)]
fn fold_columns(mask: u32) -> u32 {
    (mask | mask >> 9 | mask >> 18) & 0x1ff
}

/// Cells that are alone in their row of the band.
///
/// Every row of `mask` must be non-empty. That holds after the triad rule leaves a
/// mask alive: it keeps only triads on some permutation, which covers every row. Then
/// subtracting 1 from each 9-bit row at once cannot borrow across rows, and
/// `mask & (mask - 1 per row)` drops each row's lowest cell: a row is a single exactly
/// when nothing of it is left. The rest's first bit in each row is clear (it either
/// held the row's lowest cell, now dropped, or was empty), so shifted down one, each
/// row's other eight bits sit below a clear bit: adding 0xff to each carries into that
/// bit exactly where the row had a second cell. Branch-free, no per-row tests.
#[inline(always)]
fn row_singles(mask: u32) -> u32 {
    const LOW_EIGHT: u32 = 0xff | 0xff << 9 | 0xff << 18;
    const CARRY: u32 = 1 << 8 | 1 << 17 | 1 << 26;
    let rest = mask & mask.wrapping_sub(0x40201);
    let lone = !((rest >> 1) + LOW_EIGHT) & CARRY;
    let rows = lone >> 8;
    mask & ((rows << 9) - rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(s: &str) -> Grid {
        Grid::parse(s.as_bytes()).unwrap()
    }

    /// A bundled dataset's text (`data/NAME`).
    fn bundled(name: &str) -> String {
        let path = format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// A 17-given puzzle from Royle's list (unique).
    const ROYLE_17: &str =
        ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";

    #[test]
    fn solves_a_hard_puzzle() {
        let p = grid(
            "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
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
    fn spread_bits_puts_each_bit_in_its_own_byte() {
        for bits in 0..256u32 {
            let expect = (0..8).fold(0u64, |acc, j| acc | u64::from(bits >> j & 1) << (8 * j));
            assert_eq!(spread_bits(bits), expect, "{bits:#x}");
        }
    }

    #[test]
    fn band_digits_put_each_cells_plane_bits_in_its_byte() {
        // Planes from a fixed xorshift stream, and the four single-bit planes.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x as u32) & BAND_ALL
        };
        let mut cases: Vec<[u32; 4]> = (0..27).map(|j| [1 << j, 0, 1 << j, 0]).collect();
        cases.extend((0..10_000).map(|_| [next(), next(), next(), next()]));
        for planes in cases {
            let bytes = band_digits(planes);
            for (j, &byte) in bytes.iter().enumerate() {
                let expect = (0..4).fold(0u8, |acc, k| acc | ((planes[k] >> j & 1) as u8) << k);
                assert_eq!(byte, expect, "{planes:x?} cell {j}");
            }
        }
    }

    /// The board read back cell by cell, as the branch-free planes must agree with, on
    /// Kaggle's 10,000 solution grids loaded as givens.
    #[test]
    fn a_solved_board_reads_back_as_its_grid() {
        let text = bundled("kaggle-1m-first10k.csv");
        let mut solver = Solver::new();
        let mut n = 0;
        for line in text.lines().skip(1) {
            let solution = grid(line.split(',').nth(1).unwrap());
            assert!(solver.load(&solution));
            let mut cells = [0u8; CELLS];
            for (i, cell) in cells.iter_mut().enumerate() {
                let (band, bit) = (i / 27, i % 27);
                let digits: Vec<usize> = (0..9)
                    .filter(|d| solver.board.candidates[d * 3 + band] >> bit & 1 == 1)
                    .collect();
                assert_eq!(digits.len(), 1);
                *cell = digits[0] as u8 + 1;
            }
            assert_eq!(solver.solution().cells(), &cells);
            assert_eq!(solver.solution(), solution);
            n += 1;
        }
        assert_eq!(n, 10_000);
    }

    /// The stacks' totals equal the placements counted by trying all six column orders,
    /// for every pattern of one stack and for mixed shapes.
    #[test]
    fn stack_totals_count_each_stacks_placements() {
        // Placements of one digit in one stack, by trying the six column orders.
        let open = |columns: [u32; 3], stack: usize| -> u32 {
            tables::PERMUTATIONS
                .iter()
                .filter(|order| (0..3).all(|b| columns[b] >> (3 * stack + order[b]) & 1 == 1))
                .count() as u32
        };
        let check = |shapes: &[u32; 28]| {
            let mut want = [0u32; 3];
            for digit in 0..9 {
                let columns = [0, 1, 2].map(|b| (shapes[digit * 3 + b] >> 9) & 0x1ff);
                for (stack, total) in want.iter_mut().enumerate() {
                    *total += open(columns, stack);
                }
            }
            assert_eq!(stack_totals::<0>(shapes), want, "{shapes:x?}");
        };
        // Every pattern of one stack for one digit (the other stacks and digits with
        // every column open, and the triad and count bits set to catch a missed mask).
        for pattern in 0..512u32 {
            for stack in 0..3 {
                for digit in [0, 4, 8] {
                    let mut shapes = [0x1ff << 9 | 0x1ff | 7 << 18; 28];
                    for band in 0..3 {
                        let bits = (pattern >> (3 * band)) & 7;
                        let columns = 0x1ff & !(7 << (3 * stack)) | bits << (3 * stack);
                        shapes[digit * 3 + band] = 0x1ff | columns << 9 | 7 << 18;
                    }
                    check(&shapes);
                }
            }
        }
        // Mixed shapes, drawn by a fixed linear congruential sequence.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            let mut shapes = [0u32; 28];
            for shape in shapes.iter_mut().take(27) {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                *shape = (x >> 32) as u32 & 0x1f_ffff;
            }
            check(&shapes);
        }
    }

    /// The triad hash and `pext` find the same table entry as the plain pattern, for
    /// every pattern and several masks drawing it (first, last or all cells of each
    /// triad, or one cell varying by triad).
    #[test]
    fn triad_keep_matches_the_plain_pattern() {
        for (pattern, &want) in TRIAD_KEEP.iter().enumerate() {
            for choice in 0..4u32 {
                let mut mask = 0u32;
                for triad in 0..9u32 {
                    if pattern >> triad & 1 == 1 {
                        let (row, box_) = (triad / 3, triad % 3);
                        let cells = match choice {
                            0 => 1,
                            1 => 4,
                            2 => 7,
                            _ => 1 << ((triad + pattern as u32) % 3),
                        };
                        mask |= cells << (row * 9 + box_ * 3);
                    }
                }
                // The plain pattern, triad by triad.
                let plain = (0..9).fold(0, |p, t| {
                    p | (((mask >> ((t / 3) * 9 + (t % 3) * 3)) & 7 != 0) as usize) << t
                });
                assert_eq!(plain, pattern);
                assert_eq!(triad_keep::<0>(mask), want, "{mask:#x}");
                #[cfg(target_arch = "x86_64")]
                if std::is_x86_feature_detected!("bmi2") {
                    assert_eq!(triad_keep::<PEXT>(mask), want, "{mask:#x}");
                }
            }
        }
    }

    #[test]
    fn row_singles_finds_rows_with_one_cell() {
        // Row 0: one cell (bit 4); row 1: two cells; row 2: one cell (bit 26).
        let mask = (1 << 4) | (1 << 9) | (1 << 12) | (1 << 26);
        assert_eq!(row_singles(mask), (1 << 4) | (1 << 26));
        assert_eq!(row_singles(0x7ff_ffff), 0);
        // Against a row-by-row count: every non-empty content of one row, the other two
        // rows each one cell, two cells or full.
        for row in 1..0x200u32 {
            for r in 0..3 {
                for other in [0x008, 0x081, 0x1ff] {
                    let rows: [u32; 3] = std::array::from_fn(|k| if k == r { row } else { other });
                    let mask = rows[0] | rows[1] << 9 | rows[2] << 18;
                    let expect = (0..3)
                        .filter(|&k| rows[k].count_ones() == 1)
                        .fold(0, |acc, k| acc | rows[k] << (9 * k));
                    assert_eq!(row_singles(mask), expect, "{mask:#x}");
                }
            }
        }
    }

    /// The variants compiled for popcnt/BMI, alone, with AVX2 and with AVX2 and `pext`
    /// (one of them taken on CPUs that have those), and the baseline one find the same
    /// counts, solutions and search effort on real puzzles.
    #[test]
    fn every_compiled_variant_agrees() {
        // Unique puzzles, and puzzles with several solutions (where the search is mostly
        // light nodes and the first solution found depends on every branch).
        for (file, step, solutions) in [
            ("magictour-top1465.txt", 7, 1),
            ("multi-solution-20k.txt", 61, 2),
        ] {
            compiled_variants_agree(&bundled(file), step, solutions);
        }
    }

    /// Every `step`-th puzzle of `text` searched to two solutions by each compiled copy:
    /// each finds `solutions`, the same first one, with the same statistics.
    fn compiled_variants_agree(text: &str, step: usize, solutions: u64) {
        let mut base = Solver::new();
        #[cfg(target_arch = "x86_64")]
        let variants = match (bit_instructions(), std::is_x86_feature_detected!("avx2")) {
            (false, _) => 0,
            (true, false) => 1,
            (true, true) => 3,
        };
        #[cfg(not(target_arch = "x86_64"))]
        let variants = 0;
        let mut other = Solver::new();
        let puzzles = text.lines().filter(|l| !l.starts_with('#'));
        for line in puzzles.step_by(step) {
            let puzzle = grid(&line[..81]);
            let start = Start::Grid(&puzzle);
            let b = base.search::<0>(start, 2, None);
            assert!(
                matches!(b, Ok(Count { solutions: found, .. }) if found == solutions),
                "{line}"
            );
            for variant in 0..variants {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: compiled for the features `bit_instructions` (and, for variants
                // 1 and 2, AVX2) found. `pext` runs on every CPU with BMI2, slowly on some.
                let a = unsafe {
                    match variant {
                        0 => other.search_with_bit_instructions(start, 2, None),
                        1 => other.search_avx2(start, 2, None),
                        _ => other.search_fast(start, 2, None),
                    }
                };
                #[cfg(not(target_arch = "x86_64"))]
                let a = other.search::<{ AVX2 | PEXT }>(start, 2, None);
                assert_eq!(a, b, "{line} (variant {variant})");
                assert_eq!(other.stats(), base.stats(), "{line} (variant {variant})");
            }
        }
    }

    #[test]
    fn pext_counts_as_fast_except_on_amd_before_zen_3() {
        let (amd, hygon, intel) = (
            vendor_words(b"AuthenticAMD"),
            vendor_words(b"HygonGenuine"),
            vendor_words(b"GenuineIntel"),
        );
        // Family 0xf plus extended family: Zen 2 (17h), Hygon Dhyana (18h), Zen 3 (19h),
        // Zen 5 (1Ah); Intel Haswell is family 6.
        let signature = |extended: u32, model: u32| 0xf << 8 | extended << 20 | model << 4;
        assert!(!pext_is_fast(amd, signature(0x8, 0x1)));
        assert!(!pext_is_fast(hygon, signature(0x9, 0x0)));
        assert!(pext_is_fast(amd, signature(0xa, 0x1)));
        assert!(pext_is_fast(amd, signature(0xb, 0x4)));
        assert!(pext_is_fast(intel, 0x6 << 8 | 0x3 << 16 | 0xc << 4));
    }

    #[test]
    fn given_masks_match_the_scalar_pass() {
        let solved =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let mut cells = [0u8; CELLS];
        for (i, b) in solved.bytes().enumerate() {
            cells[i] = b - b'0';
        }
        // Full, empty, and every cell emptied in turn down to one given (cell 80, read
        // only by the last load, and the band edges 26/27 and 53/54 among them).
        for keep in 0..=CELLS {
            let mut grid = cells;
            grid[..CELLS - keep].fill(0);
            assert_eq!(given_masks(&grid), given_masks_scalar(&grid), "{keep}");
            let mut reversed = cells;
            reversed[keep.min(CELLS)..].fill(0);
            assert_eq!(
                given_masks(&reversed),
                given_masks_scalar(&reversed),
                "{keep}"
            );
        }
    }

    #[test]
    fn unit_keep_is_the_union_of_its_permutations() {
        use tables::{PERMUTATIONS, PERM_CELLS};
        for unit in 0..6 {
            for band in 0..3 {
                for perms in 0..64u8 {
                    // A band unit keeps its permutations' triads; the other bands are
                    // whole. A stack keeps, in each band, the columns its permutations
                    // use there, and the band's other boxes whole.
                    let mut want = if unit < 3 && unit != band {
                        BAND_ALL
                    } else {
                        0
                    };
                    if unit >= 3 {
                        want = BAND_ALL & !BOX_CELLS[1 << (unit - 3)];
                    }
                    for p in (0..6).filter(|p| perms >> p & 1 == 1) {
                        if unit == band {
                            want |= PERM_CELLS[p];
                        } else if unit >= 3 {
                            want |= COLUMN[3 * (unit - 3) + PERMUTATIONS[p][band]];
                        }
                    }
                    assert_eq!(unit_keep(unit, band, perms), want, "{unit} {band} {perms}");
                }
            }
        }
    }

    #[test]
    fn lone_in_threes_keeps_bits_alone_in_their_group() {
        // Groups 0b001 (alone), 0b110 (two), 0b100 (alone), 0 (none), top group 0b010.
        let x = 0b001 | 0b110 << 3 | 0b100 << 6 | 0b010 << 51;
        assert_eq!(lone_in_threes(x), 0b001 | 0b100 << 6 | 0b010 << 51);
        assert_eq!(lone_in_threes((1 << 54) - 1), 0);
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
        // A 17-given puzzle from Royle's list, then less each of its givens.
        let text = ROYLE_17;
        let mut solver = Solver::new();
        assert_eq!(solver.count(&grid(text), 2).solutions, 1);
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
        let fewer = grid(&ROYLE_17.replacen('1', ".", 1));
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

    #[test]
    fn rectangles_are_those_a_plain_look_at_the_grid_finds() {
        // The first puzzle of Kaggle's set less every other given (a rectangle of
        // free cells is then common), solved; its givens are the fixed cells.
        let mut text =
            *b"004300209005009001070060043006002087190007400050083000600000105003508690042910300";
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
        let text = bundled("multi-solution-20k.txt");
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
