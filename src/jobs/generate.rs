//! `generate`: new unique puzzles, made from nothing but the seed and the record number.
//!
//! Record `i`'s randomness derives from the seed and `i` only ([`record_rng`]), so the
//! output is the same whatever the number of threads. Each puzzle is checked unique by
//! the engine's classifier before it is written, and graded when asked (as `grade`
//! does: Sukaku Explainer's ER and its level).

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::{Columns, Graded, Value};
use crate::engines::explainer::Rater;
use crate::engines::generate::{make, record_rng, BoardPlan, Made, MadeBoard, Orbits, Spec};
use crate::engines::grader::Levels;
use crate::engines::Engine;
use crate::reports::Breakdown;
use crate::values::geometry::{Variant, MAX_CELLS};
use crate::values::search::Classification;

/// Most full grids tried for one record before giving up (when the target or the level
/// asked for is out of practical reach): about 30 s of one thread. The hardest reachable
/// targets take far fewer: `--givens 20` about 7,000 a record (2 s), so a record fails
/// by bad luck with odds near e^-14; `--givens 20 --symmetry rot90`, which no puzzle
/// meets in practice, ends with this error instead of running forever.
pub const MAX_ATTEMPTS: u64 = 100_000;

/// Most full boards tried for one variant record (each costs a full dig).
pub const MAX_BOARD_ATTEMPTS: u64 = 100;

/// What to make.
#[derive(Clone)]
pub struct Generate {
    spec: Spec,
    orbits: Orbits,
    seed: u64,
    levels: Option<Levels>,
    graded: bool,
    /// Variant boards instead of classic 9x9 grids.
    boards: Option<Box<BoardPlan>>,
    /// Set by the caller to stop making records (a server whose request timed out).
    cancel: Option<Arc<AtomicBool>>,
}

/// Full grids tried between two looks at the cancel flag (a few milliseconds).
const CANCEL_SLICE: u64 = 64;

/// A record could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateError {
    /// The 1-based record number.
    pub record: u64,
    /// What was asked for (`None` for variant boards, which take no options here).
    pub spec: Option<Spec>,
    /// The levels asked for, if any.
    pub levels: Option<Levels>,
    /// Full grids or boards tried.
    pub attempts: u64,
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "record {}: no puzzle", self.record)?;
        if let Some(spec) = self.spec {
            write!(f, " ({spec})")?;
        }
        if let Some(levels) = self.levels {
            write!(f, " of level {levels}")?;
        }
        write!(
            f,
            " after {} attempts; ask for fewer constraints (more givens, no symmetry, \
             another level)",
            self.attempts
        )
    }
}

impl std::error::Error for GenerateError {}

/// A made record: a unique puzzle and its solution.
///
/// Held inline, not boxed: made for every record, it must not allocate.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MadeRecord {
    /// A classic 9x9 puzzle.
    Grid(Made),
    /// A variant board.
    Board(MadeBoard),
}

/// One made record's own columns: `givens`, `difficulty`, `rating` (the last two empty
/// unless the run grades).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Generated {
    /// Givens of the puzzle.
    pub givens: u16,
    /// Its grades, as `grade` gives them, when the run grades.
    pub graded: Option<Graded>,
}

impl Columns for Generated {
    const NAMES: &'static [&'static str] = &["givens", "difficulty", "rating"];

    fn value(&self, index: usize) -> Value<'_> {
        match (index, &self.graded) {
            (0, _) => Value::Count(u64::from(self.givens)),
            (_, None) => Value::Empty,
            // `grade`'s difficulty and rating columns.
            (_, Some(g)) => g.value(index - 1),
        }
    }

    fn count(&self, breakdown: &mut Breakdown) {
        breakdown.givens[usize::from(self.givens).min(MAX_CELLS)] += 1;
        if let Some(g) = &self.graded {
            g.count(breakdown);
        }
    }
}

/// What one thread makes records with: an engine, and a rater for graded runs. Made
/// once per thread and reused.
pub struct Maker<E> {
    /// Completes, digs and checks the puzzles.
    pub engine: Box<E>,
    /// Grades them.
    pub rater: Box<Rater>,
}

impl<E: Engine> Maker<E> {
    /// A maker of `variant` boards, with Sukaku Explainer's default rules.
    pub fn new(variant: Variant) -> Maker<E> {
        Maker {
            engine: E::new(variant),
            rater: Box::default(),
        }
    }
}

impl Generate {
    /// Puzzles to `spec`, from `seed`, keeping only those of `levels` when given.
    /// Puzzles are graded when `graded` or when levels are asked for (grading costs
    /// more than making a minimal puzzle, so it is asked for).
    pub fn new(spec: Spec, seed: u64, levels: Option<Levels>, graded: bool) -> Generate {
        Generate {
            spec,
            orbits: Orbits::new(spec.pattern),
            seed,
            levels,
            graded: graded || levels.is_some(),
            boards: None,
            cancel: None,
        }
    }

    /// The same, stopping soon after `cancel` is set: a record being made then fails
    /// with a [`GenerateError`] (for a caller who no longer wants the answer).
    pub fn cancelled_by(self, cancel: Arc<AtomicBool>) -> Generate {
        Generate {
            cancel: Some(cancel),
            ..self
        }
    }

    fn cancelled(&self) -> bool {
        self.cancel
            .as_deref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Variant boards to `plan`, from `seed` (not graded: the grader's techniques and
    /// scale are classic 9x9's).
    pub fn boards(plan: BoardPlan, seed: u64) -> Generate {
        let spec = Spec {
            pattern: crate::engines::generate::Pattern::None,
            target: crate::engines::generate::Target::Minimal,
        };
        Generate {
            boards: Some(Box::new(plan)),
            ..Generate::new(spec, seed, None, false)
        }
    }

    /// The plan when the run makes variant boards.
    pub fn board_plan(&self) -> Option<&BoardPlan> {
        self.boards.as_deref()
    }

    /// Makes record `index` (0-based) with `maker`: a unique puzzle (a grid, or a
    /// variant board in a run made by [`Generate::boards`]), its solution, and its
    /// columns.
    pub fn record<E: Engine>(
        &self,
        maker: &mut Maker<E>,
        index: u64,
    ) -> Result<(MadeRecord, Generated), GenerateError> {
        let Maker { engine, rater } = maker;
        match self.boards.as_deref() {
            None => self
                .record_grid(&mut **engine, rater, index)
                .map(|(made, extra)| (MadeRecord::Grid(made), extra)),
            Some(plan) => self
                .record_board(plan, &mut **engine, index)
                .map(|(made, extra)| (MadeRecord::Board(made), extra)),
        }
    }

    /// A variant record: a unique board and its solution.
    fn record_board<E: Engine>(
        &self,
        plan: &BoardPlan,
        engine: &mut E,
        index: u64,
    ) -> Result<(MadeBoard, Generated), GenerateError> {
        let mut rng = record_rng(self.seed, index);
        let mut attempts = 0u64;
        while attempts < MAX_BOARD_ATTEMPTS && !self.cancelled() {
            let Some(made) = plan.make(engine, &mut rng, MAX_BOARD_ATTEMPTS - attempts) else {
                attempts = MAX_BOARD_ATTEMPTS;
                break;
            };
            attempts += 1 + u64::from(made.restarts);
            // The engine confirms what digging decided, with a fresh count.
            let confirmed = matches!(
                engine.count_board(&made.puzzle, 2),
                Ok(Ok(c)) if c.solutions == 1 && !c.spent && c.first == Some(made.solution)
            );
            if confirmed {
                let givens = made.puzzle.givens() as u16;
                return Ok((
                    made,
                    Generated {
                        givens,
                        graded: None,
                    },
                ));
            }
        }
        Err(GenerateError {
            record: index + 1,
            spec: None,
            levels: None,
            attempts,
        })
    }

    /// A classic record: a unique grid, its solution, and its columns.
    fn record_grid<E: Engine>(
        &self,
        engine: &mut E,
        rater: &mut Rater,
        index: u64,
    ) -> Result<(Made, Generated), GenerateError> {
        let mut rng = record_rng(self.seed, index);
        let mut attempts = 0u64;
        while attempts < MAX_ATTEMPTS && !self.cancelled() {
            // In slices, to look at the cancel flag; the grids drawn are the same.
            let slice = (MAX_ATTEMPTS - attempts).min(CANCEL_SLICE);
            let Some(made) = make(engine, &self.spec, &self.orbits, &mut rng, slice) else {
                attempts += slice;
                continue;
            };
            attempts += 1 + u64::from(made.restarts);
            // The classifier confirms what digging decided, independently of it.
            if engine.classify(&made.puzzle) != Classification::Unique(made.solution) {
                continue;
            }
            let graded = self.graded.then(|| Graded::of_grid(rater, &made.puzzle));
            if self.levels.is_some_and(|l| {
                !graded
                    .and_then(|g| g.level())
                    .is_some_and(|level| l.contains(level))
            }) {
                continue;
            }
            let givens = made.puzzle.given_count() as u16;
            return Ok((made, Generated { givens, graded }));
        }
        Err(GenerateError {
            record: index + 1,
            spec: Some(self.spec),
            levels: self.levels,
            attempts,
        })
    }
}
