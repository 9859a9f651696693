//! Jobs: what is computed for one record. One trait, record in, answer out.
//!
//! A job sees only a parsed [`Grid`]: where records come from (a mapped file, stdin, a
//! slice of strings from Python or HTTP), how they are scheduled and how rows are
//! formatted are the pipeline's and the row writers' business. Malformed records never
//! reach a job; the pipeline answers them `invalid` itself.
//!
//! Each worker thread owns one [`Job::Worker`] (an engine, scratch space, statistics),
//! made once and reused for every record, so a job's per-record work allocates nothing.
//!
//! Adding a job: a type implementing [`Job`] (and [`Columns`] for any columns of its own
//! after the contract's six), then one line of wiring in the front end.

mod canon;
mod classify;
mod cross_check;
mod generate;
mod grade;
mod minimize;
mod solve;

pub use canon::{Canon, CanonForm};
pub use classify::Classify;
pub use cross_check::{same_board_class, same_class, Agreement, CrossCheck};
pub use generate::{Generate, GenerateError, Generated, MAX_ATTEMPTS};
pub use grade::{Grade, Graded};
pub use minimize::{Minimal, Minimize};
pub use solve::Solve;

use crate::engine::{BoardEngine, Budget, Engine};
use crate::grid::{Clash, Grid};
use crate::marks::Marks;
use crate::report::{Breakdown, Status};
use crate::variant::{Board, BoardClash, BoardCount, GeometryError, Variant};

/// One kind of work done for every record of a run.
pub trait Job: Sync {
    /// Per-worker state, made once per thread by [`Job::worker`].
    type Worker: Send;
    /// What the job adds to a row beyond status and solution.
    type Extra: Columns;
    /// Per-worker state for variant boards (engines of the job's family), made by
    /// [`Job::boards`] when a worker meets its first board; `()` for jobs that take none.
    type Boards: Send;

    /// The command's name (`solve`, `classify`, ...), as in reports.
    fn name(&self) -> &'static str;

    /// True when the job counts solutions, so that records not `unique` are worth
    /// listing (`classify --require-unique`).
    fn checks_uniqueness(&self) -> bool;

    /// True when two engines answer every record (`classify --cross-check`), so that
    /// the report counts their disagreements.
    fn cross_checks(&self) -> bool {
        false
    }

    /// A fresh worker state whose engines give up on a record after `budget` branches.
    fn worker(&self, budget: Budget) -> Self::Worker;

    /// Fresh board state for boards of `variant`, with engines on `budget`.
    fn boards(&self, variant: Variant, budget: Budget) -> Self::Boards;

    /// The answer for one well-formed puzzle.
    fn run(&self, worker: &mut Self::Worker, puzzle: &Grid) -> Answer<Self::Extra>;

    /// The answer for a variant board (4x4 to 25x25, diagonal, windoku), for jobs that
    /// take them; `None` makes the record `invalid`, saying the command does not.
    fn run_board(
        &self,
        _boards: &mut Self::Boards,
        _board: &Board,
    ) -> Option<BoardAnswer<Self::Extra>> {
        None
    }

    /// The answer for a pencil-mark puzzle, for jobs (and engines) that take them;
    /// `None` makes the record `invalid`, saying the command does not.
    fn run_marks(&self, _worker: &mut Self::Worker, _marks: &Marks) -> Option<Answer<Self::Extra>> {
        None
    }
}

/// A fresh engine on `budget`.
pub(crate) fn engine<E: Engine>(budget: Budget) -> Box<E> {
    let mut engine = E::boxed();
    engine.set_budget(budget);
    engine
}

/// A fresh board engine for `variant` on `budget`.
pub(crate) fn board_engine<B: BoardEngine>(variant: Variant, budget: Budget) -> B {
    let mut engine = B::new(variant);
    engine.set_budget(budget);
    engine
}

/// A job's answer for one record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer<E> {
    /// The row's status.
    pub status: Status,
    /// A solution, when one was found.
    pub solution: Option<Grid>,
    /// The clash that makes the record `invalid`, if that is why.
    pub clash: Option<Clash>,
    /// The job's own columns.
    pub extra: E,
}

/// A job's answer for a variant board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardAnswer<E = ()> {
    /// The row's status.
    pub status: Status,
    /// A solution, when one was found.
    pub solution: Option<Board>,
    /// Why the board is `invalid`: clashing givens, or rules that do not exist at its
    /// size.
    pub problem: Option<Result<BoardClash, GeometryError>>,
    /// The job's own columns.
    pub extra: E,
}

impl BoardAnswer {
    /// The answer for what [`BoardEngine::count`] said, with `found` naming the status
    /// of a board with at least one solution (`solved`, or by count `unique`/`multiple`);
    /// a count that spent its budget is `undecided`.
    pub fn from_count(
        counted: Result<Result<BoardCount, BoardClash>, GeometryError>,
        found: impl Fn(u64) -> Status,
    ) -> BoardAnswer {
        let invalid = |problem| BoardAnswer {
            status: Status::Invalid,
            solution: None,
            problem: Some(problem),
            extra: (),
        };
        match counted {
            Err(e) => invalid(Err(e)),
            Ok(Err(clash)) => invalid(Ok(clash)),
            // A search stops at its limit before it spends its budget, so a spent one
            // never reached it.
            Ok(Ok(count)) if count.spent => BoardAnswer {
                status: Status::Undecided,
                solution: count.first,
                problem: None,
                extra: (),
            },
            Ok(Ok(count)) if count.solutions == 0 => BoardAnswer {
                status: Status::Unsolvable,
                solution: None,
                problem: None,
                extra: (),
            },
            Ok(Ok(count)) => BoardAnswer {
                status: found(count.solutions),
                solution: count.first,
                problem: None,
                extra: (),
            },
        }
    }
}

/// Columns a job adds after `line,puzzle,solution,status,reason,mismatch`; the default
/// value is what a malformed record's row holds.
pub trait Columns: Copy + Send + Default {
    /// Column names, in order.
    const NAMES: &'static [&'static str];
    /// The value of column `index` (an index into [`Columns::NAMES`]).
    fn value(&self, index: usize) -> Value<'_>;

    /// Adds this row to the run's breakdown by difficulty and givens (jobs that grade
    /// or make puzzles); nothing by default.
    fn count(&self, _breakdown: &mut Breakdown) {}

    /// For a record classified by two engines (`--cross-check`): whether they agreed;
    /// `None` otherwise.
    fn cross_check(&self) -> Option<bool> {
        None
    }
}

/// No columns of its own.
impl Columns for () {
    const NAMES: &'static [&'static str] = &[];
    fn value(&self, _: usize) -> Value<'_> {
        Value::Empty
    }
}

/// One value of a job's own column, typed so that each row format can write it its way
/// (digits in CSV, a number or string in JSON) without allocating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value<'a> {
    /// No value (an empty CSV field, `null` in JSON).
    Empty,
    /// A grid, written as 81 characters with `.` for empty cells.
    Grid(&'a Grid),
    /// A whole number.
    Count(u64),
    /// Text of ASCII digits (a canonical form: `0` for empty), written as it is.
    Digits(&'a [u8]),
    /// A short word or phrase.
    Text(&'static str),
    /// A number in tenths, written with one decimal (`62` is `6.2`).
    Tenths(u16),
    /// Counts per name, written as `name=count` for the nonzero ones (CSV: separated by
    /// spaces), in the order given.
    Uses(&'a [u16], &'static [&'static str]),
}
