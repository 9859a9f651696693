//! In-memory entry point for front ends other than the command line (an HTTP server, a
//! Python module): puzzle texts in, typed results or rows out, in input order, through
//! the same jobs and per-record path as the file pipeline, with no file and no CSV.
//!
//! ```
//! use sudoku_batch::pipeline::batch::run_puzzles;
//! use sudoku_batch::jobs::Classify;
//! use sudoku_batch::values::status::Status;
//!
//! let puzzles = [
//!     "....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3",
//!     "not a puzzle",
//! ];
//! let results = run_puzzles(&Classify::new(), &puzzles);
//! assert_eq!(results[0].status, Status::Unique);
//! assert_eq!(results[1].status, Status::Invalid);
//! assert_eq!(results[1].reason.unwrap().to_string(), "bad byte 'n' at column 1");
//! ```

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use crate::jobs::Job;
use crate::pipeline::parsed::Parsed;
use crate::pipeline::rows::{BoardTexts, Reason, Row, RowWriter};
use crate::pipeline::{BoardSetup, Worker};
use crate::values::geometry::MAX_CELLS;
use crate::values::puzzle::Solution;
use crate::values::search::Budget;
use crate::values::status::Status;

/// Puzzles handed to a worker at a time.
const BATCH: usize = 256;

/// A job's typed result for one in-memory puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordResult<E> {
    /// The status.
    pub status: Status,
    /// A solution, when one was found: a grid, or a variant board.
    pub solution: Option<Solution>,
    /// Why the record is `invalid`.
    pub reason: Option<Reason>,
    /// The job's own columns.
    pub extra: E,
}

/// Runs `job` on every puzzle on the current rayon pool (the global one, or the one a
/// caller entered with `ThreadPool::install`), results in input order. Records of 16,
/// 256 or 625 cells are read as variant boards, as on the command line.
pub fn run_puzzles<J, P>(job: &J, puzzles: &[P]) -> Vec<RecordResult<J::Extra>>
where
    J: Job,
    P: AsRef<[u8]> + Sync,
{
    run_puzzles_in(job, puzzles, &BoardSetup::default())
}

/// [`run_puzzles`] with every record read by `boards`' rules (size, variant, symbols).
pub fn run_puzzles_in<J, P>(
    job: &J,
    puzzles: &[P],
    boards: &BoardSetup,
) -> Vec<RecordResult<J::Extra>>
where
    J: Job,
    P: AsRef<[u8]> + Sync,
{
    // One worker per pool thread (a worker holds an engine and a latency histogram of
    // a few hundred KiB: made per batch, they would cost more than small batches' work).
    let workers = workers(job, rayon::current_num_threads(), boards);
    run_puzzles_until(job, &workers, puzzles, boards, &AtomicBool::new(false))
        .expect("never cancelled")
}

/// `count` fresh workers for `job` on the default budget, with engines for `boards`'
/// variant, for [`run_puzzles_until`] (a server keeps one set per job for its whole
/// life).
pub fn workers<J: Job>(job: &J, count: usize, boards: &BoardSetup) -> Vec<Mutex<Worker<J>>> {
    (0..count.max(1))
        .map(|_| Mutex::new(Worker::new(job, boards.variant(), Budget::DEFAULT)))
        .collect()
}

/// Runs `job` on every puzzle with workers kept by the caller (made for `boards`'
/// variant), stopping early when `cancel` is set (a server whose request timed out):
/// the puzzles not yet started are skipped, and the answer is `None`. Pool thread `i`
/// uses `workers[i % workers.len()]`, so one worker per pool thread means no waiting.
pub fn run_puzzles_until<J, P>(
    job: &J,
    workers: &[Mutex<Worker<J>>],
    puzzles: &[P],
    boards: &BoardSetup,
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
    run_puzzles_into(job, workers, puzzles, boards, cancel, &mut results[..]).then_some(results)
}

/// Where [`run_puzzles_into`] puts each record's result: one slot a puzzle, in a value
/// that splits into two disjoint parts, so that batches on different threads write
/// their own parts of the caller's buffers (a slice of [`RecordResult`]s, or flat
/// columns that a front end hands on as they are).
pub trait ResultSlots<E>: Send + Sized {
    /// The number of slots.
    fn len(&self) -> usize;
    /// True when there are no slots.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The slots before `at` and those from it.
    fn split_at(self, at: usize) -> (Self, Self);
    /// Puts the result of this part's puzzle `i` in its slot.
    fn put(&mut self, i: usize, result: RecordResult<E>);
}

impl<E: Send> ResultSlots<E> for &mut [RecordResult<E>] {
    fn len(&self) -> usize {
        <[RecordResult<E>]>::len(self)
    }
    fn split_at(self, at: usize) -> (Self, Self) {
        self.split_at_mut(at)
    }
    fn put(&mut self, i: usize, result: RecordResult<E>) {
        self[i] = result;
    }
}

/// [`run_puzzles_until`] writing each result into `slots` (as many as `puzzles`) rather
/// than a vector of its own: nothing is allocated. Answers false when `cancel` stopped
/// it, with the slots of the puzzles not run left as they were.
pub fn run_puzzles_into<J, P, S>(
    job: &J,
    workers: &[Mutex<Worker<J>>],
    puzzles: &[P],
    boards: &BoardSetup,
    cancel: &AtomicBool,
    slots: S,
) -> bool
where
    J: Job,
    P: AsRef<[u8]> + Sync,
    S: ResultSlots<J::Extra>,
{
    assert_eq!(slots.len(), puzzles.len(), "one slot a puzzle");
    let run = Run {
        job,
        workers,
        boards,
        cancel,
    };
    run.part(puzzles, slots);
    !cancel.load(Ordering::Relaxed)
}

/// What every part of a [`run_puzzles_into`] shares.
struct Run<'a, J: Job> {
    job: &'a J,
    workers: &'a [Mutex<Worker<J>>],
    boards: &'a BoardSetup,
    cancel: &'a AtomicBool,
}

impl<J: Job> Run<'_, J> {
    /// Halves `puzzles` (and their slots) at a batch boundary until a part is one batch,
    /// which a worker runs alone.
    fn part<P: AsRef<[u8]> + Sync, S: ResultSlots<J::Extra>>(&self, puzzles: &[P], slots: S) {
        if puzzles.len() > BATCH {
            let mid = (puzzles.len() / 2).div_ceil(BATCH) * BATCH;
            let (left, right) = slots.split_at(mid);
            rayon::join(
                || self.part(&puzzles[..mid], left),
                || self.part(&puzzles[mid..], right),
            );
            return;
        }
        let mut slots = slots;
        let slot = rayon::current_thread_index().unwrap_or(0) % self.workers.len();
        let mut worker = crate::pipeline::lock(&self.workers[slot]);
        for (i, text) in puzzles.iter().enumerate() {
            if self.cancel.load(Ordering::Relaxed) {
                return;
            }
            let parsed = Parsed::of_text(text.as_ref(), self.boards);
            let (answer, reason) = worker.answer(self.job, parsed.puzzle(), self.boards);
            slots.put(
                i,
                RecordResult {
                    status: answer.status,
                    solution: answer.solution,
                    reason,
                    extra: answer.extra,
                },
            );
        }
    }
}

/// Appends the rows for `puzzles` and their `results` (from [`run_puzzles`], read by
/// `boards`' rules) to `out` (no header: [`RowWriter::header`] writes it); `line`
/// counts from `first_line` for the first of `puzzles` (1 for a whole list, more for a
/// later slice of one).
pub fn write_rows<E, P>(
    rows: &RowWriter,
    puzzles: &[P],
    results: &[RecordResult<E>],
    boards: &BoardSetup,
    first_line: u64,
    out: &mut Vec<u8>,
) where
    E: crate::jobs::Columns,
    P: AsRef<[u8]>,
{
    let mut texts: BoardTexts = ([0; MAX_CELLS], [0; MAX_CELLS]);
    for (i, (text, result)) in puzzles.iter().zip(results).enumerate() {
        let parsed = Parsed::of_text(text.as_ref(), boards);
        let raw = text.as_ref().trim_ascii();
        let (puzzle, solution) = parsed.cells(raw, result.solution.as_ref(), boards, &mut texts);
        rows.row(
            &Row {
                line: first_line + i as u64,
                puzzle,
                status: result.status,
                solution,
                reason: result.reason,
                mismatch: None,
                extra: &result.extra,
                fields: crate::pipeline::input::Fields::None,
            },
            out,
        );
    }
}
