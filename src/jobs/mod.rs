//! Jobs: what is computed for one record. One trait, record in, answer out.
//!
//! A job sees only a parsed [`Puzzle`] of a shape it takes: where records come from (a mapped file, stdin, a
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
pub use cross_check::{Agreement, CrossCheck};
pub use generate::{Generate, GenerateError, Generated, MadeRecord, Maker, MAX_ATTEMPTS};
pub use grade::{Grade, Graded};
pub use minimize::{is_minimal, minimize, Minimal, Minimize};
pub use solve::Solve;

pub use crate::values::puzzle::Answer;

use crate::reports::Breakdown;
use crate::values::geometry::Variant;
use crate::values::grid::Grid;
use crate::values::puzzle::{Puzzle, Shapes};
use crate::values::search::Budget;

/// One kind of work done for every record of a run.
pub trait Job: Sync {
    /// Per-worker state, made once per thread by [`Job::worker`].
    type Worker: Send;
    /// What the job adds to a row beyond status and solution.
    type Extra: Columns;

    /// The command's name (`solve`, `classify`, ...), as in reports.
    fn name(&self) -> &'static str;

    /// The shapes of puzzle the job takes. A record of another shape is `invalid`,
    /// saying so, without reaching [`Job::run`]; a run asked for by flags to read
    /// only such records (`--size 16` on a job that takes only grids) is refused.
    fn takes(&self) -> Shapes;

    /// True when the job counts solutions, so that records not `unique` are worth
    /// listing (`classify --require-unique`).
    fn checks_uniqueness(&self) -> bool;

    /// True when two engines answer every record (`classify --cross-check`), so that
    /// the report counts their disagreements.
    fn cross_checks(&self) -> bool {
        false
    }

    /// A fresh worker state whose engines read variant boards by the rules of
    /// `variant` and give up on a record after `budget` branches.
    fn worker(&self, variant: Variant, budget: Budget) -> Self::Worker;

    /// The answer for one well-formed puzzle of a shape the job takes.
    fn run(&self, worker: &mut Self::Worker, puzzle: Puzzle<'_>) -> Answer<Self::Extra>;

    /// The same job, for a caller who sets `cancel` when it no longer wants the
    /// answers: records not started are skipped by the pipeline either way; a job
    /// whose one record can take long (`grade`) also stops that record soon after.
    /// By default a record runs to its end.
    fn cancelled_by(self, cancel: std::sync::Arc<std::sync::atomic::AtomicBool>) -> Self
    where
        Self: Sized,
    {
        let _ = cancel;
        self
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

    /// For a graded record: its rating in tenths (the `rating` column) and its level;
    /// `None` otherwise.
    fn rated(&self) -> Option<(u16, crate::values::level::Level)> {
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
    /// Cells as ASCII digits with `0` for empty (a canonical form), written as a grid is:
    /// `.` for empty, so that every grid column reads in one alphabet.
    Digits(&'a [u8]),
    /// A short word or phrase.
    Text(&'static str),
    /// A number in tenths, written with one decimal (`62` is `6.2`).
    Tenths(u16),
    /// Counts per name, written as `name=count` for the nonzero ones (CSV: separated by
    /// spaces), in the order given.
    Uses(&'a [u16], &'static [&'static str]),
}

/// Appends cells given as digits (`0` for empty) as a grid is written: `.` for empty.
pub(crate) fn write_digits(out: &mut Vec<u8>, digits: &[u8]) {
    out.extend(digits.iter().map(|&d| if d == b'0' { b'.' } else { d }));
}
