//! The per-record path, shared by every job and every source: parse in place, run the
//! job with the worker's state, record the latency, write the row.
//!
//! Nothing here allocates once a chunk's output buffer has grown to the chunk's size
//! (proven by `tests/zero_alloc.rs` with a counting allocator).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use hdrhistogram::Histogram;

use crate::jobs::{Columns, Job};
use crate::pipeline::input::{for_each_record, too_long_record, Layout, Record, RecordScratch};
use crate::pipeline::parsed::{BoardSetup, Parsed};
use crate::pipeline::rows::{BoardTexts, Cells, Reason, Row, RowWriter, Slot};
use crate::reports::{new_histogram, Breakdown, StatusCounts};
use crate::values::geometry::{Variant, MAX_CELLS};
use crate::values::puzzle::{Answer, Problem, Puzzle};
use crate::values::search::Budget;
use crate::values::status::Status;

/// Most line numbers of non-unique records kept for `--require-unique` messages.
pub(crate) const KEEP_NOT_UNIQUE: usize = 10;

/// Per-thread state, reused for every chunk that thread processes.
pub struct Worker<J: Job> {
    state: J::Worker,
    histogram: Histogram<u64>,
    scratch: RecordScratch,
    /// Where a variant board's puzzle and solution are written as text for its row.
    texts: Box<BoardTexts>,
    /// Branches each record may take.
    budget: Budget,
    /// Where the chunk's record numbers go (`--record-index`) and its rows end (`--top`),
    /// reused chunk after chunk.
    slots: Vec<Slot>,
    /// Whether [`Worker::answer`] times each puzzle into the histogram.
    timed: bool,
}

impl<J: Job> Worker<J> {
    /// Ends a work item (a chunk, a Parquet piece) whose rows are in `out`: the record
    /// numbers of its rows (`--record-index`), gathered by [`process_chunk`] and
    /// [`unread_row`] however many times they were called for it, go after them.
    pub fn close_item(&mut self, out: &mut Vec<u8>, tally: &mut Tally) {
        Slot::append(&self.slots, out);
        tally.slots = self.slots.len();
        self.slots.clear();
    }

    /// A fresh worker for `job`, reading variant boards by the rules of `variant`,
    /// whose engines give up on a record after `budget` branches.
    pub fn new(job: &J, variant: Variant, budget: Budget) -> Self {
        Worker {
            state: job.worker(variant, budget),
            histogram: new_histogram(),
            scratch: RecordScratch::default(),
            texts: Box::new(([0; MAX_CELLS], [0; MAX_CELLS])),
            budget,
            slots: Vec::new(),
            timed: true,
        }
    }

    /// The worker with [`Worker::answer`] not timing puzzles (two clock reads each), for
    /// a front end that reports no latencies; the histogram stays empty.
    pub fn untimed(mut self) -> Self {
        self.timed = false;
        self
    }

    /// The latencies this worker has recorded (nanoseconds per puzzle).
    pub fn histogram(&self) -> &Histogram<u64> {
        &self.histogram
    }

    /// The job's answer for one record read under `boards`' rules, timed when it is a
    /// puzzle; a record that is none is `invalid` with the reason, without reaching
    /// the job.
    #[inline]
    pub fn answer(
        &mut self,
        job: &J,
        puzzle: Result<Puzzle<'_>, Reason>,
        boards: &BoardSetup,
    ) -> (Answer<J::Extra>, Option<Reason>) {
        let on = On {
            job,
            budget: self.budget,
            symbols: boards,
        };
        let histogram = self.timed.then_some(&mut self.histogram);
        answer(on, &mut self.state, histogram, puzzle)
    }
}

/// What a record is answered with.
struct On<'a, J> {
    job: &'a J,
    budget: Budget,
    /// The alphabets of board sizes, to name a clashing symbol as written.
    symbols: &'a BoardSetup,
}

/// The job's answer for a puzzle (timed into `histogram` when there is one) or for why
/// a record is none, with the reason its row gives.
#[inline]
fn answer<J: Job>(
    on: On<'_, J>,
    state: &mut J::Worker,
    histogram: Option<&mut Histogram<u64>>,
    puzzle: Result<Puzzle<'_>, Reason>,
) -> (Answer<J::Extra>, Option<Reason>) {
    let invalid = |reason| {
        let answer = Answer {
            status: Status::Invalid,
            solution: None,
            problem: None,
            extra: Default::default(),
        };
        (answer, Some(reason))
    };
    let puzzle = match puzzle {
        Err(reason) => return invalid(reason),
        Ok(puzzle) => puzzle,
    };
    let shape = puzzle.shape();
    if !on.job.takes().contains(shape) {
        return invalid(Reason::Refused(shape));
    }
    let answer = match histogram {
        Some(histogram) => {
            let start = Instant::now();
            let answer = on.job.run(state, puzzle);
            let ns = start.elapsed().as_nanos() as u64;
            histogram.saturating_record(ns.max(1));
            answer
        }
        None => on.job.run(state, puzzle),
    };
    let reason = match (answer.status, answer.problem) {
        (Status::Undecided, _) => Some(Reason::Budget(on.budget.get())),
        (_, None) => None,
        (_, Some(Problem::Clash(clash))) => Some(Reason::Clash(clash)),
        (_, Some(Problem::BoardClash(clash))) => {
            let side = match puzzle {
                Puzzle::Board(board) => board.side(),
                _ => 9,
            };
            Some(Reason::BoardClash {
                symbol: on.symbols.symbols(side).symbol(clash.value),
                kind: clash.kind,
                number: clash.number,
            })
        }
        (_, Some(Problem::Geometry(e))) => Some(Reason::Geometry(e)),
        (_, Some(Problem::Refused(shape))) => Some(Reason::Refused(shape)),
    };
    (answer, reason)
}

/// Counts produced by processing one chunk.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    /// Records per status.
    pub counts: StatusCounts,
    /// Records whose given solution is not the puzzle's.
    pub mismatches: u64,
    /// Line numbers of the first of them.
    pub first_mismatch_lines: [u64; KEEP_NOT_UNIQUE],
    /// How many of `first_mismatch_lines` are set.
    pub first_mismatch_lines_len: usize,
    /// Line numbers of the first records that are not `unique` (jobs that count
    /// solutions only).
    pub not_unique: [u64; KEEP_NOT_UNIQUE],
    /// How many of `not_unique` are set.
    pub not_unique_len: usize,
    /// Records by difficulty and givens (jobs that grade or make puzzles).
    pub breakdown: Breakdown,
    /// Rows formatted.
    pub rows: u64,
    /// Records whose rows `--only` left out.
    pub left_out: u64,
    /// Records classified by two engines (`--cross-check`).
    pub checked: u64,
    /// Records on which two engines disagreed (`--cross-check`).
    pub disagree: u64,
    /// Line numbers of the first of them.
    pub disagree_lines: [u64; KEEP_NOT_UNIQUE],
    /// How many of `disagree_lines` are set.
    pub disagree_lines_len: usize,
    /// Record-number slots after the chunk's rows in its buffer (see [`Slot`]); not
    /// merged.
    pub slots: usize,
}

impl Tally {
    /// Counts one record.
    #[inline]
    fn add(&mut self, line: u64, status: Status, mismatch: Option<bool>, uniqueness: bool) {
        self.counts.add(status);
        if mismatch == Some(true) {
            self.mismatches += 1;
            self.keep_mismatch(line);
        }
        if uniqueness && status != Status::Unique {
            self.keep_not_unique(line);
        }
    }

    /// Counts what a job's own columns add: difficulty levels, engine agreement.
    #[inline]
    fn count_extra<E: Columns>(&mut self, line: u64, extra: &E) {
        extra.count(&mut self.breakdown);
        if let Some(agree) = extra.cross_check() {
            self.checked += 1;
            if !agree {
                self.add_disagreement(line);
            }
        }
    }

    /// Counts a record two engines disagreed on.
    fn add_disagreement(&mut self, line: u64) {
        self.disagree += 1;
        if self.disagree_lines_len < KEEP_NOT_UNIQUE {
            self.disagree_lines[self.disagree_lines_len] = line;
            self.disagree_lines_len += 1;
        }
    }

    /// The kept line numbers of records two engines disagreed on.
    pub fn disagreements(&self) -> &[u64] {
        &self.disagree_lines[..self.disagree_lines_len]
    }

    fn keep_mismatch(&mut self, line: u64) {
        if self.first_mismatch_lines_len < KEEP_NOT_UNIQUE {
            self.first_mismatch_lines[self.first_mismatch_lines_len] = line;
            self.first_mismatch_lines_len += 1;
        }
    }

    /// The kept line numbers of records whose given solution is not the puzzle's.
    pub fn mismatch_lines(&self) -> &[u64] {
        &self.first_mismatch_lines[..self.first_mismatch_lines_len]
    }

    fn keep_not_unique(&mut self, line: u64) {
        if self.not_unique_len < KEEP_NOT_UNIQUE {
            self.not_unique[self.not_unique_len] = line;
            self.not_unique_len += 1;
        }
    }

    /// Adds a later chunk's counts (its lines come after this one's).
    pub fn merge(&mut self, part: &Tally) {
        self.counts.merge(&part.counts);
        self.mismatches += part.mismatches;
        for &line in part.mismatch_lines() {
            self.keep_mismatch(line);
        }
        self.breakdown.merge(&part.breakdown);
        self.rows += part.rows;
        self.left_out += part.left_out;
        for &line in &part.not_unique[..part.not_unique_len] {
            self.keep_not_unique(line);
        }
        let kept = part.disagreements().len() as u64;
        for &line in part.disagreements() {
            self.add_disagreement(line);
        }
        self.disagree += part.disagree - kept;
        self.checked += part.checked;
    }

    /// The kept line numbers of records that are not `unique`.
    pub fn not_unique(&self) -> &[u64] {
        &self.not_unique[..self.not_unique_len]
    }
}

/// What stays fixed for a whole run: the job, how records are found, how rows are written.
pub struct Setup<'a, J> {
    /// The job.
    pub job: &'a J,
    /// How records are found in the input.
    pub layout: &'a Layout,
    /// How rows are written.
    pub rows: &'a RowWriter,
    /// How records are read as variant boards.
    pub boards: &'a BoardSetup,
    /// Set when the run is to stop: the records left are skipped (and the run fails).
    pub cancel: Option<&'a AtomicBool>,
}

// Not derived: a derive would ask `J: Copy`, and only the references are copied.
impl<J> Clone for Setup<'_, J> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<J> Copy for Setup<'_, J> {}

/// Processes every record of one chunk (`bytes`, whose first byte is on line
/// `first_line`), appending one row per record to `out`.
pub fn process_chunk<J: Job>(
    setup: Setup<'_, J>,
    bytes: &[u8],
    first_line: u64,
    worker: &mut Worker<J>,
    out: &mut Vec<u8>,
    tally: &mut Tally,
) {
    let Setup {
        job,
        layout,
        rows,
        boards,
        cancel,
    } = setup;
    let uniqueness = job.checks_uniqueness();
    let Worker {
        state,
        histogram,
        scratch,
        texts,
        budget,
        slots,
        timed: _,
    } = worker;
    let on = || On {
        job,
        budget: *budget,
        symbols: boards,
    };
    for_each_record(bytes, first_line, layout, scratch, |record| {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return;
        }
        let parsed = Parsed::of_record(&record, boards);
        let unfit = rows.unfit(record.raw, &record.fields);
        let puzzle = match unfit {
            Some(reason) => Err(reason),
            None => parsed.puzzle(),
        };
        let (answer, reason) = answer(on(), state, Some(&mut *histogram), puzzle);
        let index = tally.counts.total();
        let mismatch = match (parsed.is_board(), answer.status) {
            // No puzzle to hold a given solution against.
            (_, Status::Invalid) => None,
            (false, _) => mismatch(&record),
            (true, _) => boards.mismatch(&record, answer.solution.as_ref()),
        };
        tally.add(record.line, answer.status, mismatch, uniqueness);
        tally.count_extra(record.line, &answer.extra);
        if !rows.keeps(answer.status, mismatch, answer.extra.rated()) {
            tally.left_out += 1;
            return;
        }
        let (puzzle, solution) = parsed.cells(record.raw, answer.solution.as_ref(), boards, texts);
        let puzzle = match rows.writes_as_read() && unfit.is_none() {
            true => Cells::AsRead(record.raw),
            false => puzzle,
        };
        let at = rows.row(
            &Row {
                line: record.line,
                puzzle,
                solution,
                status: answer.status,
                reason,
                mismatch,
                extra: &answer.extra,
                fields: record.fields,
            },
            out,
        );
        if rows.needs_slots() {
            slots.push(Slot {
                at: at as u64,
                record: index,
                end: out.len() as u64,
                rating: answer
                    .extra
                    .rated()
                    .map_or(0, |(tenths, _)| u64::from(tenths)),
            });
        }
        tally.rows += 1;
    });
}

/// The row of a stream's record over the length limit, from its first bytes: `invalid`,
/// never parsed.
pub fn too_long_row<J: Job>(
    setup: Setup<'_, J>,
    echo: &[u8],
    line: u64,
    length: u64,
    worker: &mut Worker<J>,
    out: &mut Vec<u8>,
    tally: &mut Tally,
) {
    let record = too_long_record(echo, line, length, setup.layout.max_record);
    unread_row(setup, record, worker, out, tally)
}

/// The `invalid` row of a record the input layer found no puzzle in (too long, a null
/// or empty value), never parsed.
pub fn unread_row<J: Job>(
    setup: Setup<'_, J>,
    record: Record<'_>,
    worker: &mut Worker<J>,
    out: &mut Vec<u8>,
    tally: &mut Tally,
) {
    let line = record.line;
    let reason = record.puzzle.err().map(Reason::Record);
    tally.add(line, Status::Invalid, None, setup.job.checks_uniqueness());
    if !setup.rows.keeps(Status::Invalid, None, None) {
        tally.left_out += 1;
        return;
    }
    let at = setup.rows.row(
        &Row {
            line,
            puzzle: Cells::Raw(record.raw),
            status: Status::Invalid,
            solution: None,
            reason,
            mismatch: None,
            extra: &J::Extra::default(),
            fields: record.fields,
        },
        out,
    );
    tally.rows += 1;
    if setup.rows.needs_slots() {
        worker.slots.push(Slot {
            at: at as u64,
            record: tally.counts.total() - 1,
            end: out.len() as u64,
            rating: 0,
        });
    }
}

/// Whether the solution the input gave is not a solution of the record's puzzle (not a
/// full valid grid keeping its givens; malformed); `None` when it gave none or the
/// record holds no 9x9 puzzle to hold it against.
#[inline]
fn mismatch(record: &Record<'_>) -> Option<bool> {
    match (&record.expected, &record.puzzle) {
        (None, _) | (_, Err(_)) => None,
        (Some(Ok(given)), Ok(puzzle)) => {
            Some(!(given.is_valid_solution() && given.keeps_givens_of(puzzle)))
        }
        (Some(Err(())), Ok(_)) => Some(true),
    }
}
