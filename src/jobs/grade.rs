//! `grade`: how hard a person would find each unique puzzle.

use std::marker::PhantomData;

use super::{Answer, Columns, Job, Value};
use crate::engine::{engine, Budget, Engine, Fast};
use crate::grader::{self, BoardGrader, TECHNIQUE_NAMES};
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

/// The `difficulty`, `rating` and `techniques` columns: empty unless `unique`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Graded {
    /// The grade of a unique record.
    pub grade: Option<grader::Grade>,
}

impl Columns for Graded {
    const NAMES: &'static [&'static str] = &["difficulty", "rating", "techniques"];

    fn value(&self, index: usize) -> Value<'_> {
        match (&self.grade, index) {
            (None, _) => Value::Empty,
            (Some(g), 0) => Value::Text(g.level.name()),
            (Some(g), 1) => Value::Tenths(g.rating),
            (Some(g), _) => Value::Uses(&g.uses, &TECHNIQUE_NAMES),
        }
    }

    fn count(&self, breakdown: &mut Breakdown) {
        if let Some(g) = &self.grade {
            breakdown.levels[g.level as usize] += 1;
        }
    }
}

impl<E: Engine> Job for Grade<E> {
    type Worker = (Box<E>, BoardGrader);
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
        (engine(variant, budget), BoardGrader::new(variant))
    }

    /// Unique grids are graded with every technique, unique variant boards with those
    /// that carry over to any units ([`BoardGrader`]).
    fn run(&self, (engine, boards): &mut Self::Worker, puzzle: Puzzle<'_>) -> Answer<Graded> {
        let answer = engine.classify_puzzle(puzzle);
        let grade = match (answer.status, puzzle) {
            (Status::Unique, Puzzle::Grid(grid)) => grader::grade(grid),
            (Status::Unique, Puzzle::Board(board)) => boards.grade(board).ok(),
            _ => None,
        };
        answer.with(Graded { grade })
    }
}
