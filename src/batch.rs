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

use std::sync::Mutex;

use rayon::prelude::*;

use crate::grid::Grid;
use crate::input::RecordError;
use crate::jobs::Job;
use crate::pipeline::Worker;
use crate::report::Status;
use crate::rows::{Reason, Row, RowWriter};

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

/// `count` fresh workers for `job`, for [`run_puzzles_with`] (a server keeps one set per
/// job for its whole life).
pub fn workers<J: Job>(job: &J, count: usize) -> Vec<Mutex<Worker<J>>> {
    (0..count.max(1))
        .map(|_| Mutex::new(Worker::new(job)))
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
                let (answer, reason) = worker.answer(job, &parse_record(text.as_ref()));
                *result = RecordResult {
                    status: answer.status,
                    solution: answer.solution,
                    reason,
                    extra: answer.extra,
                };
            }
        });
    results
}

/// Appends the rows for `puzzles` and their `results` (from [`run_puzzles`]) to `out`,
/// header first; `line` is the 1-based position in `puzzles`.
pub fn write_rows<E, P>(
    rows: &RowWriter,
    puzzles: &[P],
    results: &[RecordResult<E>],
    out: &mut Vec<u8>,
) where
    E: crate::jobs::Columns,
    P: AsRef<[u8]>,
{
    rows.header::<E>(out);
    for (i, (text, result)) in puzzles.iter().zip(results).enumerate() {
        let parsed = parse_record(text.as_ref());
        rows.row(
            &Row {
                line: i as u64 + 1,
                puzzle: parsed.as_ref().map_err(|_| text.as_ref().trim_ascii()),
                board: None,
                puzzle_text: None,
                status: result.status,
                solution: result.solution.as_ref(),
                reason: result.reason,
                mismatch: false,
                extra: &result.extra,
            },
            out,
        );
    }
}
