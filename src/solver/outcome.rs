//! What a search returns: the first solution or why there is none, a count up to a
//! limit, a class (unique, multiple, unsolvable, invalid, undecided), and the effort.

use crate::grid::{Clash, Grid};

/// Search effort for the last call, for benchmarks (as in tdoku's tables).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Branches taken (each guess of a digit in a cell).
    pub guesses: u32,
    /// Passes of the propagation loop (band updates plus naked-single sweeps).
    pub rounds: u32,
}

/// Result of [`Solver::solve`](super::Solver::solve).
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

/// Result of [`Solver::count`](super::Solver::count).
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
pub(super) fn budget_of(budget: crate::engine::Budget) -> u32 {
    u32::try_from(budget.get()).unwrap_or(u32::MAX)
}

/// Result of [`Solver::classify`](super::Solver::classify): how many solutions, up to two.
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
