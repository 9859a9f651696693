//! What a search returns: the first solution or why there is none, a count up to a
//! limit, a class (unique, multiple, unsolvable, invalid, undecided), and the effort;
//! and how much search a record may take ([`Budget`]). Values every engine returns.

use crate::values::board::Board;
use crate::values::geometry::UnitKind;
use crate::values::grid::{Clash, Grid};

/// Search effort for the last call, for benchmarks (as in tdoku's tables).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Branches taken (each guess of a digit in a cell).
    pub guesses: u32,
    /// Passes of the propagation loop (band updates plus naked-single sweeps).
    pub rounds: u32,
}

/// Result of [`Solver::solve`](crate::Solver::solve).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A solution was found (the first in search order).
    Solved(Grid),
    /// The givens do not clash but there is no solution.
    Unsolvable,
    /// Two givens clash.
    Invalid(Clash),
    /// The search spent its budget ([`crate::values::search::Budget`]) before finding a solution
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

/// Result of [`Solver::count`](crate::Solver::count).
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

/// Result of [`Solver::classify`](crate::Solver::classify): how many solutions, up to two.
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

/// How much search one record may take: the branches (guesses) an engine tries before it
/// gives up and answers `undecided`. Every engine counts its own branches, so the
/// same budget is a similar amount of work in each.
///
/// The default, 2^16 branches, is far beyond any classic 9x9 puzzle and stops a hard
/// 25x25 board within about a second. Measured on the bundled and shared sets (Intel
/// Xeon, 2026-12): the band solver never takes more than 2,000 branches on a 9x9
/// puzzle counting to two, dancing links at most 25,000; on 25x25 boards the variant
/// engine tries about 50,000 branches a second, dancing links about 130,000.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Budget(u64);

impl Budget {
    /// The default budget: 2^16 branches.
    pub const DEFAULT: Budget = Budget(1 << 16);

    /// No limit.
    pub const UNLIMITED: Budget = Budget(u64::MAX);

    /// A budget of `guesses` branches (at least one).
    pub const fn guesses(guesses: u64) -> Budget {
        Budget(if guesses == 0 { 1 } else { guesses })
    }

    /// The branches allowed.
    pub const fn get(self) -> u64 {
        self.0
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::DEFAULT
    }
}

/// Solutions counted up to a limit, with the first found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardCount {
    /// Solutions found (at most the limit).
    pub solutions: u64,
    /// The first solution, if any.
    pub first: Option<Board>,
    /// Branches tried.
    pub guesses: u64,
    /// The search stopped at its budget: `solutions` counts those found by then, and
    /// there may be more.
    pub spent: bool,
}

/// Two givens that clash: where and which value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardClash {
    /// The kind of unit.
    pub kind: UnitKind,
    /// Its 1-based number among units of its kind.
    pub number: u8,
    /// The repeated value.
    pub value: u8,
}
