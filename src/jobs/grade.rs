//! `grade`: how hard a person would find each unique puzzle.

use std::marker::PhantomData;

use super::{Answer, Columns, Job, Value};
use crate::engine::{engine, Budget, Engine, Fast};
use crate::explainer::{Rater, Rating};
use crate::grader::{self, BoardGrader, Level, TECHNIQUE_NAMES};
use crate::puzzle::{Puzzle, Shapes};
use crate::report::{Breakdown, Status};
use crate::variant::Variant;

/// Classifies every record and grades the unique ones with human techniques; the
/// solution always comes from the engine, never from the grader.
pub struct Grade<E = Fast>(PhantomData<fn() -> E>);

impl<E> Default for Grade<E> {
    fn default() -> Self {
        Grade(PhantomData)
    }
}

impl Grade {
    /// The job on the fast engines ([`Fast`]).
    pub fn new() -> Self {
        Self::default()
    }
}

/// The `difficulty`, `rating`, `pearl`, `diamond`, `technique`, `techniques` and
/// `bound` columns: empty unless `unique`.
///
/// For a 9x9 grid, `rating`, `pearl` and `diamond` are Sukaku Explainer's ER, EP and ED
/// ([`crate::explainer`]), `technique` the step that set ER, `difficulty` the level of
/// ER (see [`Graded::level`]), and `bound` is `lower` when the rater stopped early (a rule it does not
/// reproduce, or its budget): the ratings are then lower bounds. `techniques` counts
/// the steps of the pattern grader ([`grader`]). For a variant board only `difficulty`,
/// `rating` (the pattern grader's) and `techniques` are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Graded {
    /// The pattern grader's grade of a unique record.
    pub grade: Option<grader::Grade>,
    /// Sukaku Explainer's ratings of a unique 9x9 grid.
    pub se: Option<Rating>,
}

impl Graded {
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
        let Some(g) = &self.grade else {
            return Value::Empty;
        };
        match (&self.se, index) {
            (_, 0) => self.level().map_or(Value::Empty, |l| Value::Text(l.name())),
            (None, 1) => Value::Tenths(g.rating),
            (Some(se), 1) => Value::Tenths(se.er),
            (Some(se), 2) => Value::Tenths(se.ep),
            (Some(se), 3) => Value::Tenths(se.ed),
            (Some(se), 4) => se.technique.map_or(Value::Empty, |t| Value::Text(t.name())),
            (_, 5) => Value::Uses(&g.uses, &TECHNIQUE_NAMES),
            (Some(se), 6) if !se.complete => Value::Text("lower"),
            _ => Value::Empty,
        }
    }

    fn count(&self, breakdown: &mut Breakdown) {
        if let Some(level) = self.level() {
            breakdown.levels[level as usize] += 1;
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
            Box::default(),
        )
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
            (Status::Unique, Puzzle::Grid(grid)) => (grader::grade(grid), Some(rater.rate(grid))),
            (Status::Unique, Puzzle::Board(board)) => (boards.grade(board).ok(), None),
            _ => (None, None),
        };
        answer.with(Graded { grade, se })
    }
}
