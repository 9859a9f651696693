//! `grade`: how hard a person would find each unique puzzle.

use std::marker::PhantomData;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::{Answer, Columns, Job, Value};
use crate::engines::explainer::{Rater, Rating, Rules, SLUGS};
use crate::engines::grader;
use crate::engines::grader::{BoardGrader, TECHNIQUE_NAMES};
use crate::engines::{engine, Bitboards, Engine};
use crate::reports::Breakdown;
use crate::values::geometry::Variant;
use crate::values::level::Level;
use crate::values::puzzle::{Puzzle, Shapes};
use crate::values::search::Budget;
use crate::values::status::Status;
use crate::Grid;

/// Classifies every record and grades the unique ones with human techniques; the
/// solution always comes from the engine, never from the grader.
pub struct Grade<E = Bitboards> {
    rules: Rules,
    budget: u64,
    /// Set by the caller to stop rating (a server whose request timed out).
    cancel: Option<Arc<AtomicBool>>,
    engine: PhantomData<fn() -> E>,
}

impl<E> Default for Grade<E> {
    /// Sukaku Explainer's default rules and the rater's default budget.
    fn default() -> Self {
        Grade::with(Rules::SUKAKU, Rater::DEFAULT_BUDGET)
    }
}

impl Grade {
    /// The job on the bitboard engines ([`Bitboards`]).
    pub fn new() -> Self {
        Self::default()
    }
}

impl<E> Grade<E> {
    /// Rating with `rules`, each puzzle given up (its ratings then lower bounds) after
    /// `budget` chain potentials.
    pub fn with(rules: Rules, budget: u64) -> Self {
        Grade {
            rules,
            budget,
            cancel: None,
            engine: PhantomData,
        }
    }
}

/// The `difficulty`, `rating`, `pearl`, `diamond`, `technique`, `techniques` and
/// `bound` columns: empty unless `unique`.
///
/// For a 9x9 grid, `rating`, `pearl` and `diamond` are Sukaku Explainer's ER, EP and ED
/// ([`crate::engines::explainer`]), `technique` the step that set ER, `difficulty` the level of
/// ER (see [`Graded::level`]), `techniques` the rater's steps by technique, and `bound`
/// is `lower` when the rater stopped early (a rule it does not reproduce, or its
/// budget): the ratings are then lower bounds. For a variant board only `difficulty`,
/// `rating` and `techniques` are written, from the pattern grader ([`grader`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Graded {
    /// The pattern grader's grade of a unique variant board, or of a unique 9x9 grid
    /// whose Sukaku Explainer ratings are lower bounds (its level then counts too).
    pub grade: Option<grader::PatternGrade>,
    /// Sukaku Explainer's ratings of a unique 9x9 grid.
    pub se: Option<Rating>,
}

impl Graded {
    /// The grades of a unique 9x9 grid: Sukaku Explainer's ratings by `rater`, and the
    /// pattern grader's where those are lower bounds.
    pub fn of_grid(rater: &mut Rater, grid: &Grid) -> Graded {
        let se = rater.rate(grid);
        let grade = if se.complete {
            None
        } else {
            grader::grade(grid)
        };
        Graded {
            grade,
            se: Some(se),
        }
    }

    /// The level of the record: from ER where it is complete; where ER is a lower
    /// bound, the higher of its level and the pattern grader's.
    pub fn level(&self) -> Option<Level> {
        match (&self.se, &self.grade) {
            (Some(se), _) if se.complete => Some(Level::of_rating(se.er)),
            (Some(se), Some(g)) => Some(Level::of_rating(se.er).max(g.level)),
            (_, g) => g.map(|g| g.level),
        }
    }
}

impl Columns for Graded {
    const NAMES: &'static [&'static str] = &[
        "difficulty",
        "rating",
        "pearl",
        "diamond",
        "technique",
        "techniques",
        "bound",
    ];

    fn value(&self, index: usize) -> Value<'_> {
        match (&self.se, &self.grade, index) {
            (None, None, _) => Value::Empty,
            (_, _, 0) => self.level().map_or(Value::Empty, |l| Value::Text(l.name())),
            (Some(se), _, 1) => Value::Tenths(se.er),
            (None, Some(g), 1) => Value::Tenths(g.rating),
            (Some(se), _, 2) => Value::Tenths(se.ep),
            (Some(se), _, 3) => Value::Tenths(se.ed),
            (Some(se), _, 4) => se.technique.map_or(Value::Empty, |t| Value::Text(t.name())),
            (Some(se), _, 5) => Value::Uses(&se.uses, &SLUGS),
            (None, Some(g), 5) => Value::Uses(&g.uses, &TECHNIQUE_NAMES),
            (Some(se), _, 6) if !se.complete => Value::Text("lower"),
            _ => Value::Empty,
        }
    }

    fn rated(&self) -> Option<(u16, Level)> {
        let rating = match (&self.se, &self.grade) {
            (Some(se), _) => se.er,
            (None, Some(g)) => g.rating,
            (None, None) => return None,
        };
        Some((rating, self.level()?))
    }

    fn count(&self, breakdown: &mut Breakdown) {
        if let Some(level) = self.level() {
            breakdown.levels[level as usize] += 1;
        }
        if self.se.is_some_and(|se| !se.complete) {
            breakdown.lower_bounds += 1;
        }
    }
}

impl<E: Engine> Job for Grade<E> {
    type Worker = (Box<E>, BoardGrader, Box<Rater>);
    type Extra = Graded;

    fn name(&self) -> &'static str {
        "grade"
    }

    /// Grids and variant boards; pencil marks have no grade on the scale.
    fn takes(&self) -> Shapes {
        Shapes::GRIDS_AND_BOARDS
    }

    fn checks_uniqueness(&self) -> bool {
        true
    }

    fn worker(&self, variant: Variant, budget: Budget) -> Self::Worker {
        (
            engine(variant, budget),
            BoardGrader::new(variant),
            Box::new(Rater::with(self.rules, self.budget)),
        )
    }

    /// A rating in progress stops soon after `cancel` is set (as a lower bound).
    fn cancelled_by(self, cancel: Arc<AtomicBool>) -> Self {
        Grade {
            cancel: Some(cancel),
            ..self
        }
    }

    /// Unique grids are graded with every technique, unique variant boards with those
    /// that carry over to any units ([`BoardGrader`]).
    fn run(
        &self,
        (engine, boards, rater): &mut Self::Worker,
        puzzle: Puzzle<'_>,
    ) -> Answer<Graded> {
        let answer = engine.classify_puzzle(puzzle);
        let (grade, se) = match (answer.status, puzzle) {
            (Status::Unique, Puzzle::Grid(grid)) => {
                // The worker may have served another caller: it takes this one's flag.
                rater.stop_when(self.cancel.as_ref());
                return answer.with(Graded::of_grid(rater, grid));
            }
            (Status::Unique, Puzzle::Board(board)) => (boards.grade(board).ok(), None),
            _ => (None, None),
        };
        answer.with(Graded { grade, se })
    }
}
