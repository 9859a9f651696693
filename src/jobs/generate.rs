//! `generate`: new unique puzzles, made from nothing but the seed and the record number.
//!
//! Record `i`'s randomness derives from the seed and `i` only ([`record_rng`]), so the
//! output is the same whatever the number of threads. Each puzzle is checked unique by
//! the engine's classifier before it is written, and graded.

use std::fmt;

use super::{Columns, Value};
use crate::engine::Engine;
use crate::generate::{make, record_rng, Made, Orbits, Spec};
use crate::grader::{self, Level};
use crate::report::Breakdown;
use crate::solver::Classification;

/// Most full grids tried for one record before giving up (when the target or the level
/// asked for is out of practical reach).
pub const MAX_ATTEMPTS: u64 = 1_000_000;

/// What to make.
#[derive(Clone, Copy)]
pub struct Generate {
    spec: Spec,
    orbits: Orbits,
    seed: u64,
    level: Option<Level>,
    graded: bool,
}

/// A record could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateError {
    /// The 1-based record number.
    pub record: u64,
    /// The level asked for, if any.
    pub level: Option<Level>,
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "record {}: no puzzle", self.record)?;
        if let Some(level) = self.level {
            write!(f, " of level {}", level.name())?;
        }
        write!(
            f,
            " after {MAX_ATTEMPTS} attempts; ask for fewer constraints (more givens, no \
             symmetry, another level)"
        )
    }
}

impl std::error::Error for GenerateError {}

/// One made record's own columns: `givens`, `difficulty`, `rating`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Generated {
    /// Givens of the puzzle.
    pub givens: u8,
    /// Its grade.
    pub grade: Option<grader::Grade>,
}

impl Columns for Generated {
    const NAMES: &'static [&'static str] = &["givens", "difficulty", "rating"];

    fn value(&self, index: usize) -> Value<'_> {
        match (index, &self.grade) {
            (0, _) => Value::Count(u64::from(self.givens)),
            (_, None) => Value::Empty,
            (1, Some(g)) => Value::Text(g.level.name()),
            (_, Some(g)) => Value::Tenths(g.rating),
        }
    }

    fn count(&self, breakdown: &mut Breakdown) {
        breakdown.givens[usize::from(self.givens).min(81)] += 1;
        if let Some(g) = &self.grade {
            breakdown.levels[g.level as usize] += 1;
        }
    }
}

impl Generate {
    /// Puzzles to `spec`, from `seed`, keeping only `level` when given. Puzzles are
    /// graded when `graded` or when a level is asked for (grading a hard puzzle costs
    /// more than making it).
    pub fn new(spec: Spec, seed: u64, level: Option<Level>, graded: bool) -> Generate {
        Generate {
            spec,
            orbits: Orbits::new(spec.pattern),
            seed,
            level,
            graded: graded || level.is_some(),
        }
    }

    /// Makes record `index` (0-based): a unique puzzle, its solution, and its columns.
    pub fn record<E: Engine>(
        &self,
        engine: &mut E,
        index: u64,
    ) -> Result<(Made, Generated), GenerateError> {
        let mut rng = record_rng(self.seed, index);
        let mut attempts = 0u64;
        while attempts < MAX_ATTEMPTS {
            let made = make(engine, &self.spec, &self.orbits, &mut rng);
            attempts += 1 + u64::from(made.restarts);
            // The classifier confirms what digging decided, independently of it.
            if engine.classify(&made.puzzle) != Classification::Unique(made.solution) {
                continue;
            }
            let grade = if self.graded {
                grader::grade(&made.puzzle)
            } else {
                None
            };
            if self
                .level
                .is_some_and(|l| grade.map(|g| g.level) != Some(l))
            {
                continue;
            }
            let givens = made.puzzle.given_count() as u8;
            return Ok((made, Generated { givens, grade }));
        }
        Err(GenerateError {
            record: index + 1,
            level: self.level,
        })
    }
}
