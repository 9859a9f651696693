//! `grade`: how hard a person would find each unique puzzle.

use std::marker::PhantomData;

use super::{Answer, Columns, Job, Value};
use crate::engine::Engine;
use crate::grader::{self, TECHNIQUE_NAMES};
use crate::grid::Grid;
use crate::report::{Breakdown, Status};
use crate::solver::Solver;
use crate::variant::Variant;

/// Classifies every record and grades the unique ones with human techniques; the
/// solution always comes from the engine, never from the grader.
pub struct Grade<E = Solver>(PhantomData<fn() -> E>);

impl<E> Default for Grade<E> {
    fn default() -> Self {
        Grade(PhantomData)
    }
}

impl Grade {
    /// The job on the classic 9x9 engine ([`Solver`]).
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
    type Worker = Box<E>;
    type Extra = Graded;
    type Boards = ();

    fn name(&self) -> &'static str {
        "grade"
    }

    fn checks_uniqueness(&self) -> bool {
        true
    }

    fn worker(&self) -> Box<E> {
        E::boxed()
    }

    /// Classic 9x9 only: the grader's techniques and scale are defined there.
    fn boards(&self, _: Variant) {}

    fn run(&self, engine: &mut Box<E>, puzzle: &Grid) -> Answer<Graded> {
        let answer = super::classify::answer(engine.classify(puzzle));
        let grade = match answer.status {
            Status::Unique => grader::grade(puzzle),
            _ => None,
        };
        Answer {
            status: answer.status,
            solution: answer.solution,
            clash: answer.clash,
            extra: Graded { grade },
        }
    }
}
