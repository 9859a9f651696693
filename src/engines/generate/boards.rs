//! Making variant boards (4x4 to 25x25 under the classic, diagonal or windoku rules): a
//! random full board, then givens dug out while the board stays unique.
//!
//! - Full boards: `side` cells chosen at random get random values that clash with no
//!   earlier one, and the variant engine completes them (its first solution); a seed
//!   without a completion (or whose search runs past a budget of four branches a cell:
//!   completions take about 0.6 a cell) is thrown away. Not uniform over the boards: the completion
//!   follows the engine's search order.
//! - Digging: the cells, grouped into orbits of the chosen [`Pattern`], are visited in a
//!   random order; an orbit is emptied when the variant engine still counts exactly one
//!   solution (on 16x16 and 25x25: within [`DIG_BUDGET`] branches). A check that needs more keeps the orbit, so
//!   every board made is unique, and "minimal" means no orbit can be removed within the
//!   budget (a full search could remove about one or two more on 16x16). The 9x9
//!   generator's exact shortcuts (two-digit unavoidable sets, givens
//!   that force a digit back) are specific to classic 9x9 and not used here.
//!
//! The plan (orbits, the geometry) is made once per run; making a board allocates
//! nothing.

use super::{Pattern, Target};
use crate::engines::corpus::Rng;
use crate::engines::Engine;
use crate::values::board::Board;
use crate::values::geometry::{Geometry, GeometryError, Variant, MAX_CELLS};
use crate::values::search::{BoardCount, Budget};

/// Most units of a geometry (25x25 diagonal has 77).
const MAX_UNITS: usize = 80;
/// Most branches one uniqueness check on 16x16 and 25x25 boards may try while digging: a
/// check that needs more
/// keeps its givens. Measured on 16x16 (4 boards each): budget 50 leaves 94.5 givens on
/// average in 0.18 s, 5,000 leaves 93 in 1.2 s; on 25x25, 50 takes 0.8 s a board and
/// 1,000 takes 8 s for the same givens.
pub const DIG_BUDGET: u64 = 100;
/// The budget of a check on 4x4 and 9x9 boards: in practice never reached (they are
/// cheap in full), there only to bound a pathological search.
const SMALL_DIG_BUDGET: u64 = 1_000_000;
/// Most branches per cell a full board's completion may take (it takes about 0.6: a
/// seed whose search runs far past that is dropped; one 9x9 windoku seed took 10
/// million branches, 15 s).
const FILL_BUDGET_PER_CELL: u64 = 4;

/// What to make, for one geometry: made once per run.
#[derive(Clone, Debug)]
pub struct BoardPlan {
    side: usize,
    variant: Variant,
    target: Target,
    /// Most branches per uniqueness check while digging.
    budget: u64,
    /// Units, peers and the units of each cell.
    geometry: Geometry,
    /// Orbits of the pattern, each listed once, in cell order.
    orbits: Box<[([u16; 4], u8)]>,
}

/// A made board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MadeBoard {
    /// The puzzle (unique).
    pub puzzle: Board,
    /// Its solution.
    pub solution: Board,
    /// Full boards tried before this one (digging stopped above the target on them).
    pub restarts: u32,
}

impl BoardPlan {
    /// Boards of `side` under `variant`, givens in `pattern`, dug to `target`
    /// ([`Target::Givens`] counts givens of the board, up to 625).
    pub fn new(
        side: usize,
        variant: Variant,
        pattern: Pattern,
        target: Target,
    ) -> Result<BoardPlan, GeometryError> {
        let geometry = Geometry::new(side, variant)?;
        assert!(geometry.units().len() <= MAX_UNITS);
        let cells = geometry.cells();
        let mut seen = vec![false; cells];
        let mut orbits = Vec::new();
        for cell in 0..cells {
            if !seen[cell] {
                let (orbit, len) = pattern.orbit_in(cell, side);
                for &c in &orbit[..len] {
                    seen[usize::from(c)] = true;
                }
                orbits.push((orbit, len as u8));
            }
        }
        Ok(BoardPlan {
            side,
            variant,
            target,
            budget: if side <= 9 {
                SMALL_DIG_BUDGET
            } else {
                DIG_BUDGET
            },
            geometry,
            orbits: orbits.into(),
        })
    }

    /// Symbols per unit.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The rules.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    fn cells(&self) -> usize {
        self.side * self.side
    }

    fn units_of(&self, cell: usize) -> &[u8] {
        self.geometry.units_of(cell)
    }

    /// A random full board.
    pub fn full_board<E: Engine>(&self, engine: &mut E, rng: &mut Rng) -> Board {
        let cells = self.cells();
        let full = (1u32 << self.side) - 1;
        let mut order = [0u16; MAX_CELLS];
        let order = &mut order[..cells];
        loop {
            for (i, slot) in order.iter_mut().enumerate() {
                *slot = i as u16;
            }
            // The first `side` places of a partial shuffle are a random sample of cells.
            for i in 0..self.side {
                order.swap(i, i + rng.below((cells - i) as u64) as usize);
            }
            let mut used = [0u32; MAX_UNITS];
            let mut seed = Board::empty(self.side);
            for &cell in &order[..self.side] {
                let cell = usize::from(cell);
                let units = self.units_of(cell);
                let taken = units.iter().fold(0, |m, &u| m | used[usize::from(u)]);
                let free = full & !taken;
                if free == 0 {
                    continue;
                }
                // The k-th free value, k at random.
                let mut pick = free;
                for _ in 0..rng.below(u64::from(free.count_ones())) {
                    pick &= pick - 1;
                }
                let bit = pick & pick.wrapping_neg();
                seed.set(cell, bit.trailing_zeros() as u8 + 1);
                for &u in units {
                    used[usize::from(u)] |= bit;
                }
            }
            // A seed with no completion, or one the budget cannot settle, is dropped.
            let budget = FILL_BUDGET_PER_CELL * cells as u64;
            if let Some(count) = count_within(engine, &seed, 1, budget) {
                if let Some(full) = count.first {
                    return full;
                }
            }
        }
    }

    /// Digs givens out of `solution` while the board stays unique; `None` when a
    /// [`Target::Givens`] cannot be reached from this board.
    pub fn dig<E: Engine>(&self, engine: &mut E, solution: &Board, rng: &mut Rng) -> Option<Board> {
        let mut order = [0u16; MAX_CELLS];
        let order = &mut order[..self.orbits.len()];
        for (i, slot) in order.iter_mut().enumerate() {
            *slot = i as u16;
        }
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let limit = match self.target {
            Target::Minimal => 0,
            Target::Givens(k) => usize::from(k),
        };
        let mut puzzle = *solution;
        let mut givens = self.cells();
        for &orbit in order.iter() {
            if givens <= limit {
                break;
            }
            let (cells, len) = self.orbits[usize::from(orbit)];
            let cells = &cells[..usize::from(len)];
            if givens - cells.len() < limit {
                continue;
            }
            let mut trial = puzzle;
            for &cell in cells {
                trial.set(usize::from(cell), 0);
            }
            // A check past the budget keeps the givens: the board stays unique, perhaps
            // not minimal.
            let counted = count_within(engine, &trial, 2, self.budget);
            if counted.is_some_and(|c| c.solutions == 1) {
                puzzle = trial;
                givens -= cells.len();
            }
        }
        (givens <= limit || self.target == Target::Minimal).then_some(puzzle)
    }

    /// Makes one board: up to `tries` full boards until digging reaches the target.
    pub fn make<E: Engine>(&self, engine: &mut E, rng: &mut Rng, tries: u64) -> Option<MadeBoard> {
        for restarts in 0..tries {
            let solution = self.full_board(engine, rng);
            if let Some(puzzle) = self.dig(engine, &solution, rng) {
                return Some(MadeBoard {
                    puzzle,
                    solution,
                    restarts: restarts as u32,
                });
            }
        }
        None
    }
}

/// Solutions of `board` counted up to `limit` within `budget` branches; `None` when the
/// search spent them (or the board has no count: clashing givens, no such geometry).
/// The engine is back on the default budget afterwards.
fn count_within<E: Engine>(
    engine: &mut E,
    board: &Board,
    limit: u64,
    budget: u64,
) -> Option<BoardCount> {
    engine.set_budget(Budget::guesses(budget));
    let counted = engine.count_board(board, limit);
    engine.set_budget(Budget::DEFAULT);
    match counted {
        Ok(Ok(count)) if !count.spent => Some(count),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::generate::record_rng;
    use crate::engines::Bitboards;

    #[test]
    fn made_boards_are_unique_minimal_and_vary() {
        for (side, variant, pattern) in [
            (4, Variant::Classic, Pattern::None),
            (9, Variant::Diagonal, Pattern::Rot180),
            (9, Variant::Windoku, Pattern::None),
            (16, Variant::Classic, Pattern::Mirror),
        ] {
            let plan = BoardPlan::new(side, variant, pattern, Target::Minimal).unwrap();
            let geometry = Geometry::new(side, variant).unwrap();
            let mut engine = Bitboards::new(variant);
            let mut seen = Vec::new();
            let mut skipped = 0;
            for i in 0..4 {
                let made = plan.make(&mut *engine, &mut record_rng(5, i), 1).unwrap();
                assert!(made.solution.is_solution(&geometry));
                assert!(made.solution.keeps_givens_of(&made.puzzle));
                let count = engine.count_board(&made.puzzle, 2).unwrap().unwrap();
                assert_eq!(count.solutions, 1, "{side} {variant:?}");
                // Minimal within the budget: without any given (orbit) there are two
                // solutions, or the check needs more than the budget.
                for (orbit, len) in plan.orbits.iter() {
                    let cells = &orbit[..usize::from(*len)];
                    if cells.iter().all(|&c| made.puzzle.get(usize::from(c)) != 0) {
                        let mut fewer = made.puzzle;
                        for &c in cells {
                            fewer.set(usize::from(c), 0);
                        }
                        match count_within(&mut *engine, &fewer, 2, plan.budget) {
                            Some(count) => assert_eq!(count.solutions, 2),
                            None => skipped += 1,
                        }
                    }
                }
                seen.push(made.solution);
            }
            seen.dedup();
            assert_eq!(seen.len(), 4, "{side} {variant:?}: boards repeat");
            if side <= 9 {
                assert_eq!(skipped, 0, "small boards are checked in full");
            }
        }
    }

    #[test]
    fn a_givens_target_is_reached() {
        let plan =
            BoardPlan::new(16, Variant::Classic, Pattern::None, Target::Givens(150)).unwrap();
        let mut engine = Bitboards::new(Variant::Classic);
        let made = plan.make(&mut *engine, &mut record_rng(1, 0), 10).unwrap();
        assert!(made.puzzle.givens() <= 150);
    }
}
