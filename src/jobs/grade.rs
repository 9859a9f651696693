//! `grade`: how hard a person would find each unique puzzle.

use std::marker::PhantomData;

use super::{board_engine, engine, Answer, BoardAnswer, Classify, Columns, Job, Value};
use crate::engine::{Budget, Engine};
use crate::grader::{self, BoardGrader, TECHNIQUE_NAMES};
use crate::grid::Grid;
use crate::report::{Breakdown, Status};
use crate::solver::Solver;
use crate::variant::{Board, Variant};

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
    type Boards = (E::Boards, BoardGrader);

    fn name(&self) -> &'static str {
        "grade"
    }

    fn checks_uniqueness(&self) -> bool {
        true
    }

    fn worker(&self, budget: Budget) -> Box<E> {
        engine(budget)
    }

    fn boards(&self, variant: Variant, budget: Budget) -> Self::Boards {
        (board_engine(variant, budget), BoardGrader::new(variant))
    }

    /// Variant boards: classified by the job's board engine, the unique ones graded
    /// with the techniques that carry over to any units ([`BoardGrader`]).
    fn run_board(
        &self,
        (engine, grader): &mut Self::Boards,
        board: &Board,
    ) -> Option<BoardAnswer<Graded>> {
        let answer = Classify::<E>::default().run_board(engine, board)?;
        let grade = match answer.status {
            Status::Unique => grader.grade(board).ok(),
            _ => None,
        };
        Some(BoardAnswer {
            status: answer.status,
            solution: answer.solution,
            problem: answer.problem,
            extra: Graded { grade },
        })
    }

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
