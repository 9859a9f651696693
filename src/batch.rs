//! In-memory entry point for front ends other than the command line (an HTTP server, a
//! Python module): puzzle texts in, typed results or rows out, in input order, through
//! the same jobs and per-record path as the file pipeline, with no file and no CSV.
//!
//! ```
//! use sudoku_batch::batch::run_puzzles;
//! use sudoku_batch::jobs::Classify;
//! use sudoku_batch::report::Status;
//!
//! let puzzles = [
//!     "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
//!     "not a puzzle",
//! ];
//! let results = run_puzzles(&Classify::new(), &puzzles);
//! assert_eq!(results[0].status, Status::Unique);
//! assert_eq!(results[1].status, Status::Invalid);
//! assert_eq!(results[1].reason.unwrap().to_string(), "bad byte 'n' at column 1");
//! ```

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use crate::engine::Budget;
use crate::grid::Grid;
use crate::input::RecordError;
use crate::jobs::Job;
use crate::pipeline::Worker;
use crate::puzzle::Solution;
use crate::report::Status;
use crate::rows::{Cells, Reason, Row, RowWriter};
use crate::variant::Variant;

/// Puzzles handed to a worker at a time.
const BATCH: usize = 256;

/// A job's typed result for one in-memory puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordResult<E> {
    /// The status.
    pub status: Status,
    /// A solution, when one was found.
    pub solution: Option<Grid>,
    /// Why the record is `invalid`.
    pub reason: Option<Reason>,
    /// The job's own columns.
    pub extra: E,
}

/// Parses one in-memory record: the whole text (surrounding whitespace ignored) is the
/// puzzle.
pub fn parse_record(text: &[u8]) -> Result<Grid, RecordError> {
    let text = text.trim_ascii();
    if text.is_empty() {
        return Err(RecordError::NoGrid);
    }
    Grid::parse(text).map_err(RecordError::Parse)
}

/// Runs `job` on every puzzle on the current rayon pool (the global one, or the one a
/// caller entered with `ThreadPool::install`), results in input order.
pub fn run_puzzles<J, P>(job: &J, puzzles: &[P]) -> Vec<RecordResult<J::Extra>>
where
    J: Job,
    P: AsRef<[u8]> + Sync,
{
    // One worker per pool thread (a worker holds an engine and a latency histogram of
    // a few hundred KiB: made per batch, they would cost more than small batches' work).
    let workers = workers(job, rayon::current_num_threads());
    run_puzzles_with(job, &workers, puzzles)
}

/// `count` fresh workers for `job` on the default budget, for [`run_puzzles_with`] (a
/// server keeps one set per job for its whole life).
pub fn workers<J: Job>(job: &J, count: usize) -> Vec<Mutex<Worker<J>>> {
    (0..count.max(1))
        .map(|_| Mutex::new(Worker::new(job, Variant::Classic, Budget::DEFAULT)))
        .collect()
}

/// [`run_puzzles`] with workers kept by the caller: pool thread `i` uses
/// `workers[i % workers.len()]`, so one worker per pool thread means no waiting.
pub fn run_puzzles_with<J, P>(
    job: &J,
    workers: &[Mutex<Worker<J>>],
    puzzles: &[P],
) -> Vec<RecordResult<J::Extra>>
where
    J: Job,
    P: AsRef<[u8]> + Sync,
{
    run_puzzles_until(job, workers, puzzles, &AtomicBool::new(false)).expect("never cancelled")
}

/// [`run_puzzles_with`], stopping early when `cancel` is set (a server whose request timed
/// out): the puzzles not yet started are skipped, and the answer is `None`.
pub fn run_puzzles_until<J, P>(
    job: &J,
    workers: &[Mutex<Worker<J>>],
    puzzles: &[P],
    cancel: &AtomicBool,
) -> Option<Vec<RecordResult<J::Extra>>>
where
    J: Job,
    P: AsRef<[u8]> + Sync,
{
    let unset = RecordResult {
        status: Status::Invalid,
        solution: None,
        reason: None,
        extra: Default::default(),
    };
    let mut results = vec![unset; puzzles.len()];
    // Each batch writes its own slice of `results`: no allocation per record or batch.
    results
        .par_chunks_mut(BATCH)
        .zip(puzzles.par_chunks(BATCH))
        .for_each(|(results, batch)| {
            let slot = rayon::current_thread_index().unwrap_or(0) % workers.len();
            let mut worker = crate::pipeline::lock(&workers[slot]);
            for (result, text) in results.iter_mut().zip(batch) {
                if cancel.load(Ordering::Relaxed) {
                    return;
                }
                let (answer, reason) = worker.answer(job, &parse_record(text.as_ref()));
                *result = RecordResult {
                    status: answer.status,
                    solution: answer.solution.as_ref().and_then(Solution::grid).copied(),
                    reason,
                    extra: answer.extra,
                };
            }
        });
    (!cancel.load(Ordering::Relaxed)).then_some(results)
}

/// Appends the rows for `puzzles` and their `results` (from [`run_puzzles`]) to `out`
/// (no header: [`RowWriter::header`] writes it); `line` counts from `first_line` for
/// the first of `puzzles` (1 for a whole list, more for a later slice of one).
pub fn write_rows<E, P>(
    rows: &RowWriter,
    puzzles: &[P],
    results: &[RecordResult<E>],
    first_line: u64,
    out: &mut Vec<u8>,
) where
    E: crate::jobs::Columns,
    P: AsRef<[u8]>,
{
    for (i, (text, result)) in puzzles.iter().zip(results).enumerate() {
        let parsed = parse_record(text.as_ref());
        rows.row(
            &Row {
                line: first_line + i as u64,
                puzzle: match &parsed {
                    Ok(grid) => Cells::Grid(grid),
                    Err(_) => Cells::Raw(text.as_ref().trim_ascii()),
                },
                status: result.status,
                solution: result.solution.as_ref().map(Cells::Grid),
                reason: result.reason,
                mismatch: false,
                extra: &result.extra,
            },
            out,
        );
    }
}
