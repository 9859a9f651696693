//! The one batch pipeline: record-aligned chunks run through a job on a rayon pool and
//! written in input order, whatever the job, the engine or the row format.
//!
//! ```text
//! chunks.rs ──▶ in_place_scope.spawn(chunk) ──▶ worker.rs: one Worker (job state +
//! (map or stdin)  at most 4 x threads             histogram) per thread; rows into a
//!                 chunks in flight                 recycled buffer by the RowWriter
//!                                                          │ channel
//! output ◀── ordered.rs (main thread: reorders by chunk index, recycles buffers)
//! ```
//!
//! Memory is bounded by the in-flight limit, not by the input size.

pub mod batch;
pub(crate) mod chunks;
pub mod input;
mod ordered;
pub mod output;
pub mod parsed;
pub mod progress;
pub mod records;
pub mod rows;
pub mod settings;
mod top;
pub mod windows;
mod worker;

pub use chunks::{shard_bounds, Chunk, ChunkBytes, Shard, SliceChunks, Source, StreamChunks};
pub use parsed::BoardSetup;
pub use worker::{process_chunk, too_long_row, unread_row, Setup, Tally, Worker};

use std::io::{self, Read};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Instant;

use hdrhistogram::Histogram;
use rayon::ThreadPool;

use crate::engines::Engine;
use crate::jobs::{Columns, Generate, GenerateError, Generated, Job, MadeRecord, Maker};
use crate::pipeline::input::parquet::{ParquetFile, Piece, Scratch, Segment};
use crate::pipeline::input::{
    detect_layout_as, no_value_record, Choice, Format, InputBytes, InputError, Layout, Opened,
};
use crate::pipeline::output::{Output, OutputError};
use crate::pipeline::rows::{kept_names, BoardTexts, Cells, OutputFormat, Row, RowWriter, Slot};
use crate::reports::{encode_histogram, new_histogram, Latency, RunReport, StatusSet};
use crate::values::board::Symbols;
use crate::values::geometry::{Variant, MAX_CELLS};
use crate::values::rules::BoardRules;
use crate::values::search::Budget;
use crate::values::status::Status;
use chunks::count_newlines;
use ordered::{Done, OrderedWriter};
use progress::ProgressUnit;

/// Settings for one run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// What the user said of the input's layout (format, CSV column, delimiter); the
    /// rest is detected.
    pub input: Choice,
    /// What rows carry to join back to the input.
    pub joins: Joins,
    /// How rows are written.
    pub output_format: OutputFormat,
    /// Show a progress bar (the caller decides whether stderr is a terminal).
    pub progress: bool,
    /// Only this part of a file's records.
    pub shard: Option<Shard>,
    /// Write the header (CSV); off so that parts' outputs concatenate to the whole's.
    pub header: bool,
    /// Line number of the input's first line (for parts of a larger input).
    pub first_line: u64,
    /// A pool to run on (a server's, shared by its requests) instead of a pool of
    /// `threads` made for this run.
    pub pool: Option<Arc<ThreadPool>>,
    /// How records are read as variant boards (`--size`, `--variant`, `--symbols`).
    pub boards: BoardRules,
    /// Statuses whose rows are written (`--only`); the others are counted, not written.
    pub only: StatusSet,
    /// Graded rows written (`--min-rating`, `--max-rating`, `--difficulty`); the others
    /// are counted, not written.
    pub rated: Option<crate::pipeline::rows::RatingFilter>,
    /// Branches each record may take before it is `undecided` (`--budget`).
    pub budget: Budget,
    /// Longest record in bytes (`--max-record-bytes`); a longer one is one `invalid`
    /// row, and a stream skips it without holding it.
    pub max_record: usize,
    /// Set by the caller to stop the run early (a server whose client went away): the
    /// records not yet started are skipped and the run fails with
    /// [`RunError::Cancelled`].
    pub cancel: Option<Arc<AtomicBool>>,
}

impl RunOptions {
    /// Defaults for `threads` workers: detect the format, CSV rows with a header.
    pub fn new(threads: usize) -> RunOptions {
        RunOptions {
            threads,
            input: Choice::default(),
            joins: Joins::default(),
            output_format: OutputFormat::Csv,
            progress: false,
            shard: None,
            header: true,
            first_line: 1,
            pool: None,
            boards: BoardRules::default(),
            only: StatusSet::ALL,
            rated: None,
            budget: Budget::DEFAULT,
            max_record: crate::pipeline::input::DEFAULT_MAX_RECORD,
            cancel: None,
        }
    }
}

/// What rows carry beyond the contract's columns so that they join back to the input
/// (CSV and NDJSON rows).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Joins {
    /// The input's own fields after ours (`--keep-columns`).
    pub keep_columns: bool,
    /// A `record` column numbering records from 0 (`--record-index`).
    pub record_index: bool,
    /// The puzzle written exactly as read (`--puzzle-as-read`).
    pub puzzle_as_read: bool,
    /// No solution written (`--no-solution`).
    pub no_solution: bool,
    /// The rows become typed columns (a Parquet output): a record whose kept fields or
    /// puzzle as read such a file cannot carry is `invalid` (see [`RowWriter::unfit`]).
    pub typed_rows: bool,
}

/// Errors that stop a run.
#[derive(Debug)]
pub enum RunError {
    /// Reading or interpreting the input failed.
    Input(InputError),
    /// Writing the output failed.
    Output(OutputError),
    /// The thread pool could not be started.
    Threads(String),
    /// A record could not be made (`generate`).
    Generate(GenerateError),
    /// The caller stopped the run ([`RunOptions::cancel`]).
    Cancelled,
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Input(e) => e.fmt(f),
            RunError::Output(e) => e.fmt(f),
            RunError::Threads(e) => write!(f, "cannot start worker threads: {e}"),
            RunError::Generate(e) => e.fmt(f),
            RunError::Cancelled => f.write_str("the run was cancelled"),
        }
    }
}

impl std::error::Error for RunError {}

impl From<InputError> for RunError {
    fn from(e: InputError) -> Self {
        RunError::Input(e)
    }
}

impl From<OutputError> for RunError {
    fn from(e: OutputError) -> Self {
        RunError::Output(e)
    }
}

/// Runs `job` over any opened input (`crate::pipeline::input::open`, `open_stream` or
/// `open_bytes`): the one entry point of every front end. `path` names the input in the
/// report and in errors; the report's `input` says what was found beyond plain text
/// (`data.gz (gzip)`).
pub fn run<J: Job>(
    job: &J,
    path: &Path,
    opened: Opened,
    options: &RunOptions,
    output: &mut Output,
) -> Result<(RunReport, Histogram<u64>), RunError> {
    let found = opened.found();
    let (mut report, histogram) = match opened {
        Opened::Mapped(bytes) => run_file(job, path, &bytes, options, output)?,
        Opened::Stream {
            reader, array_rows, ..
        } => run_stream(job, reader, array_rows, options, output)
            .map_err(|e| named_stream_error(e, path))?,
        Opened::Parquet { file, pieces } => run_parquet(job, &file, &pieces, options, output)
            .map_err(|e| named_stream_error(e, path))?,
    };
    report.input = if found.is_empty() {
        path.display().to_string()
    } else {
        format!("{} ({})", path.display(), found.join(", "))
    };
    Ok((report, histogram))
}

/// A stream's read error names the path the user gave, not `-`.
fn named_stream_error(e: RunError, path: &Path) -> RunError {
    match e {
        RunError::Input(InputError::Io { source, .. }) => RunError::Input(InputError::Io {
            path: path.to_path_buf(),
            source,
        }),
        other => other,
    }
}

/// Runs `job` over an opened file.
pub fn run_file<J: Job>(
    job: &J,
    path: &Path,
    input: &InputBytes,
    options: &RunOptions,
    output: &mut Output,
) -> Result<(RunReport, Histogram<u64>), RunError> {
    let started = Instant::now();
    let mut layout = detect_layout_as(input.bytes(), &options.input)?;
    layout.first_line += options.first_line.saturating_sub(1);
    layout.max_record = options.max_record;
    let data = input.bytes();
    let chunks = match options.shard {
        None => SliceChunks::new(data, &layout),
        Some(shard) => {
            let (start, end) = shard_bounds(data, &layout, shard);
            SliceChunks::within(data, &layout, start, end)
        }
    };
    let threads = options
        .pool
        .as_deref()
        .map_or(options.threads, ThreadPool::current_num_threads);
    let chunks = chunks.spread(threads);
    let total = data.len() as u64;
    let mut source: Source<'_, io::Empty> = Source::Slice(chunks);
    let report = run_source(
        job,
        &mut source,
        &layout,
        options,
        output,
        Some(total),
        started,
    )?;
    input.check_unchanged(path)?;
    closed_quotes(&source, path)?;
    Ok(report)
}

/// Runs `job` over a stream (stdin), read in blocks; with `array_rows`, every line is a
/// record (an array's rows, blank ones included).
pub fn run_stream<J: Job, R: Read>(
    job: &J,
    reader: R,
    array_rows: bool,
    options: &RunOptions,
    output: &mut Output,
) -> Result<(RunReport, Histogram<u64>), RunError> {
    let started = Instant::now();
    let (mut chunks, mut layout) = StreamChunks::start(reader, &options.input, options.max_record)
        .map_err(|source| InputError::Io {
            path: "-".into(),
            source,
        })??;
    let offset = options.first_line.saturating_sub(1);
    layout.first_line += offset;
    layout.every_line = array_rows;
    chunks.shift_lines(offset);
    let mut source = Source::Stream(chunks);
    let report = run_source(job, &mut source, &layout, options, output, None, started)?;
    closed_quotes(&source, Path::new("-"))?;
    Ok(report)
}

/// The error for a CSV quote `source` (every chunk read) left open, naming `path`.
fn closed_quotes<R: Read>(source: &Source<'_, R>, path: &Path) -> Result<(), RunError> {
    match source.unclosed_quote() {
        None => Ok(()),
        Some(line) => Err(InputError::UnclosedQuote {
            path: path.to_path_buf(),
            line,
        }
        .into()),
    }
}

/// Runs a record job over chunks from `source`.
fn run_source<J: Job, R: Read>(
    job: &J,
    source: &mut Source<'_, R>,
    layout: &Layout,
    options: &RunOptions,
    output: &mut Output,
    total_bytes: Option<u64>,
    started: Instant,
) -> Result<(RunReport, Histogram<u64>), RunError> {
    let progress = total_bytes
        .filter(|_| options.progress)
        .map(|total| (total, ProgressUnit::Bytes));
    run_work(
        job,
        layout,
        options,
        output,
        (progress, started),
        || match source.next_chunk() {
            Ok(Some(chunk)) => {
                let len = chunk.bytes.as_slice().len() as u64;
                Ok(Some((chunk, len)))
            }
            Ok(None) => Ok(None),
            Err(source) => Err(InputError::Io {
                path: "-".into(),
                source,
            }
            .into()),
        },
        |chunk: Chunk<'_>, setup, worker, out, tally| {
            let bytes = chunk.bytes.as_slice();
            match chunk.too_long {
                None => process_chunk(setup, bytes, chunk.first_line, worker, out, tally),
                Some(length) => {
                    too_long_row(setup, bytes, chunk.first_line, length, worker, out, tally)
                }
            }
            Ok(())
        },
    )
}

/// Runs `job` over the pieces of a Parquet file (from [`ParquetFile::pieces`]), each
/// decoded by the worker that processes it, so that decoding runs on every worker;
/// `line` is the row number.
pub fn run_parquet<J: Job>(
    job: &J,
    file: &ParquetFile,
    pieces: &[Piece],
    options: &RunOptions,
    output: &mut Output,
) -> Result<(RunReport, Histogram<u64>), RunError> {
    let started = Instant::now();
    let lines = Choice {
        format: Some(Format::Lines),
        ..Choice::default()
    };
    let mut layout = detect_layout_as(b"", &lines)?;
    layout.max_record = options.max_record;
    let threads = options
        .pool
        .as_deref()
        .map_or(options.threads, ThreadPool::current_num_threads)
        .max(1);
    let scratch: Vec<Mutex<Scratch>> = (0..threads).map(|_| Mutex::default()).collect();
    let total: u64 = pieces.iter().map(|p| p.rows as u64).sum();
    let progress = options.progress.then_some((total, ProgressUnit::Records));
    let mut next = pieces.iter();
    let (mut report, histogram) = run_work(
        job,
        &layout,
        options,
        output,
        (progress, started),
        || Ok(next.next().map(|piece| (piece, piece.rows as u64))),
        |piece: &Piece, setup, worker, out, tally| {
            let slot = rayon::current_thread_index().unwrap_or(0) % scratch.len();
            let mut scratch = lock(&scratch[slot]);
            file.decode(
                piece,
                setup.layout.max_record,
                &mut scratch,
                |segment| match segment {
                    Segment::Lines { bytes, first_row } if !bytes.is_empty() => {
                        process_chunk(setup, bytes, first_row, worker, out, tally)
                    }
                    Segment::Lines { .. } => {}
                    Segment::TooLong { echo, row, length } => {
                        too_long_row(setup, echo, row, length, worker, out, tally)
                    }
                    Segment::NoValue { row, null } => {
                        unread_row(setup, no_value_record(row, null), worker, out, tally)
                    }
                },
            )
            .map_err(|source| {
                RunError::Input(InputError::Io {
                    path: "-".into(),
                    source,
                })
            })
        },
    )?;
    report.layout = file.described.clone();
    Ok((report, histogram))
}

/// Runs a record job over work items from `next` (with the amount of progress each
/// makes), each turned into rows by `process` on a worker.
fn run_work<J, W, N, P>(
    job: &J,
    layout: &Layout,
    options: &RunOptions,
    output: &mut Output,
    (progress, started): (Option<(u64, ProgressUnit)>, Instant),
    mut next: N,
    process: P,
) -> Result<(RunReport, Histogram<u64>), RunError>
where
    J: Job,
    W: Send,
    N: FnMut() -> Result<Option<(W, u64)>, RunError>,
    P: Fn(W, Setup<'_, J>, &mut Worker<J>, &mut Vec<u8>, &mut Tally) -> Result<(), RunError> + Sync,
{
    let pool = options.pool.as_deref();
    let threads = pool
        .map_or(options.threads, ThreadPool::current_num_threads)
        .max(1);
    let workers: Vec<Mutex<Worker<J>>> = (0..threads)
        .map(|_| Mutex::new(Worker::new(job, options.boards.variant, options.budget)))
        .collect();
    let rows = row_writer::<J>(options, layout)?;
    let boards = BoardSetup::new(options.boards.clone());
    let cancel = options.cancel.as_deref();
    let cancelled = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let setup = Setup {
        job,
        layout,
        rows: &rows,
        boards: &boards,
        cancel,
    };
    let mut header = Vec::new();
    if options.header {
        rows.header::<J::Extra>(&mut header);
    }
    let driven = drive(
        (&workers, pool),
        &rows,
        &header,
        output,
        progress,
        || {
            if cancelled() {
                return Err(RunError::Cancelled);
            }
            next()
        },
        |work: W, worker: &mut Worker<J>, out: &mut Vec<u8>, tally: &mut Tally| {
            let processed = process(work, setup, worker, out, tally);
            worker.close_item(out, tally);
            processed?;
            if cancelled() {
                return Err(RunError::Cancelled);
            }
            Ok(())
        },
    )?;
    let histogram = merged(workers.iter().map(|w| lock(w).histogram().clone()));
    let (mut report, histogram) =
        driven.report(job.name(), threads, histogram, started, job.cross_checks());
    report.layout = layout.describe();
    Ok((report, histogram))
}

/// The row writer of a run over input read with `layout`.
fn row_writer<J: Job>(options: &RunOptions, layout: &Layout) -> Result<RowWriter, RunError> {
    let Joins {
        keep_columns,
        record_index,
        puzzle_as_read,
        no_solution,
        typed_rows,
    } = options.joins;
    let mut rows = RowWriter::new(options.output_format, Some(layout)).only(options.only);
    if keep_columns {
        if layout.format == Format::Blocks {
            return Err(InputError::NoFieldsToKeep.into());
        }
        rows = rows.keeping(kept_names(layout, <J::Extra as Columns>::NAMES));
    }
    if record_index {
        rows = rows.numbered();
    }
    if puzzle_as_read {
        rows = rows.as_read();
    }
    if typed_rows {
        rows = rows.typed();
    }
    if no_solution {
        rows = rows.without_solutions();
    }
    if let Some(filter) = options.rated {
        rows = rows.rated(filter);
    }
    Ok(rows)
}

/// Settings for a `generate` run.
#[derive(Clone, Debug)]
pub struct MakeOptions {
    /// Records to make.
    pub count: u64,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// How rows are written.
    pub output_format: OutputFormat,
    /// Show a progress bar.
    pub progress: bool,
    /// The alphabet of made variant boards (`None` for classic 9x9 runs).
    pub symbols: Option<Symbols>,
    /// Write the puzzles without their solutions (`--no-solution`).
    pub no_solution: bool,
}

/// Makes `options.count` records with `generate` on engine `E`, in record order,
/// through the same driver as the record jobs: ranges of record numbers are the work
/// items.
pub fn generate_records<E: Engine>(
    generate: &Generate,
    options: &MakeOptions,
    output: &mut Output,
) -> Result<(RunReport, Histogram<u64>), RunError> {
    let started = Instant::now();
    let threads = options.threads.max(1);
    let variant = generate
        .board_plan()
        .map_or(Variant::Classic, |plan| plan.variant());
    let workers: Vec<Mutex<MakeWorker<E>>> = (0..threads)
        .map(|_| {
            Mutex::new(MakeWorker {
                maker: Maker::new(variant),
                histogram: new_histogram(),
                texts: Box::new(([0; MAX_CELLS], [0; MAX_CELLS])),
            })
        })
        .collect();
    let mut rows = RowWriter::new(options.output_format, None);
    if options.no_solution {
        rows = rows.without_solutions();
    }
    let mut header = Vec::new();
    rows.header::<Generated>(&mut header);
    // Small ranges keep every thread busy and the output flowing; large ones cost less.
    let batch = (options.count / (threads as u64 * 16)).clamp(1, 256);
    let mut next = 0u64;
    let progress = options
        .progress
        .then_some((options.count, ProgressUnit::Records));
    let symbols = options.symbols.unwrap_or_else(|| Symbols::default_for(9));
    let driven = drive(
        (&workers, None),
        &rows,
        &header,
        output,
        progress,
        || {
            let range = next..(next + batch).min(options.count);
            next = range.end;
            Ok((!range.is_empty()).then(|| (range.clone(), range.end - range.start)))
        },
        |range: Range<u64>, worker: &mut MakeWorker<E>, out: &mut Vec<u8>, tally: &mut Tally| {
            for index in range {
                let start = Instant::now();
                let (made, extra) = generate
                    .record(&mut worker.maker, index)
                    .map_err(RunError::Generate)?;
                rows.row(
                    &made_row(index, &made, &extra, &symbols, &mut worker.texts),
                    out,
                );
                extra.count(&mut tally.breakdown);
                let ns = start.elapsed().as_nanos() as u64;
                worker.histogram.saturating_record(ns.max(1));
                tally.counts.add(Status::Unique);
                tally.rows += 1;
            }
            Ok(())
        },
    )?;
    let histogram = merged(workers.iter().map(|w| lock(w).histogram.clone()));
    Ok(driven.report("generate", threads, histogram, started, false))
}

/// One `generate` worker's state.
struct MakeWorker<E> {
    maker: Maker<E>,
    histogram: Histogram<u64>,
    /// Where a made board's texts are written for its row.
    texts: Box<BoardTexts>,
}

/// The row of made record `index` (0-based); a variant board is written in `symbols`
/// into `texts`.
pub fn made_row<'a>(
    index: u64,
    made: &'a MadeRecord,
    extra: &'a Generated,
    symbols: &Symbols,
    texts: &'a mut BoardTexts,
) -> Row<'a, Generated> {
    let (puzzle, solution) = match made {
        MadeRecord::Grid(made) => (Cells::Grid(&made.puzzle), Some(Cells::Grid(&made.solution))),
        MadeRecord::Board(made) => Cells::board(&made.puzzle, Some(&made.solution), symbols, texts),
    };
    Row {
        line: index + 1,
        puzzle,
        status: Status::Unique,
        solution,
        reason: None,
        mismatch: None,
        extra,
        fields: crate::pipeline::input::Fields::None,
    }
}

/// What the driver counted.
pub(crate) struct Driven {
    records: u64,
    rows: u64,
    tally: Tally,
}

impl Driven {
    /// The run's report.
    pub(crate) fn report(
        self,
        command: &str,
        threads: usize,
        histogram: Histogram<u64>,
        started: Instant,
        cross_checked: bool,
    ) -> (RunReport, Histogram<u64>) {
        let (records, wall) = (self.records, started.elapsed().as_secs_f64());
        let disagree = self.tally.disagree;
        let report = RunReport {
            command: command.to_string(),
            input: String::new(),
            layout: String::new(),
            records,
            rows_written: self.rows,
            left_out: self.tally.left_out,
            counts: self.tally.counts,
            mismatches: self.tally.mismatches,
            wall_seconds: wall,
            puzzles_per_sec: if wall > 0.0 {
                records as f64 / wall
            } else {
                0.0
            },
            threads,
            latency_ns: Latency::from_histogram(&histogram),
            first_not_unique: self.tally.not_unique().to_vec(),
            first_mismatches: self.tally.mismatch_lines().to_vec(),
            disagree: cross_checked.then_some(disagree),
            cross_checked: cross_checked.then_some(self.tally.checked),
            first_disagree: self.tally.disagreements().to_vec(),
            difficulty: self.tally.breakdown.level_counts(),
            givens: self.tally.breakdown.givens_counts(),
            lower_bounds: self.tally.breakdown.lower_bounds,
            histogram: encode_histogram(&histogram),
        };
        (report, histogram)
    }
}

/// A poisoned lock still holds usable per-thread state (a panicking worker aborts the
/// run anyway), so take it.
pub fn lock<S>(m: &Mutex<S>) -> std::sync::MutexGuard<'_, S> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// One histogram from the workers' histograms.
pub(crate) fn merged(parts: impl Iterator<Item = Histogram<u64>>) -> Histogram<u64> {
    let mut histogram = new_histogram();
    for part in parts {
        // Same bounds everywhere, so adding cannot fail.
        let _ = histogram.add(&part);
    }
    histogram
}

/// The one driver: takes work items from `next` (with how much progress each is),
/// spawns them on `pool` (or a pool of `workers.len()` threads made for the run) with at
/// most 4 per worker in flight, runs `process` on each with that thread's state, and writes the results in
/// the order the items came, after `header`.
pub(crate) fn drive<S, W, N, P>(
    (workers, pool): (&[Mutex<S>], Option<&ThreadPool>),
    rows: &RowWriter,
    header: &[u8],
    output: &mut Output,
    progress: Option<(u64, ProgressUnit)>,
    mut next: N,
    process: P,
) -> Result<Driven, RunError>
where
    S: Send,
    W: Send,
    N: FnMut() -> Result<Option<(W, u64)>, RunError>,
    P: Fn(W, &mut S, &mut Vec<u8>, &mut Tally) -> Result<(), RunError> + Sync,
{
    let threads = workers.len().max(1);
    let owned;
    let pool = match pool {
        Some(pool) => pool,
        None => {
            owned = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("sudoku-worker-{i}"))
                .build()
                .map_err(|e| RunError::Threads(e.to_string()))?;
            &owned
        }
    };
    let max_in_flight = 4 * threads;
    let one_line_rows = rows.one_line_rows();
    output.write_all(header)?;
    // With a worker for every core, a regular file takes each chunk's rows at its
    // offset, written by the pool: the writer's one thread then only hands out offsets,
    // where its copies into the page cache were the largest serial part of a run. With
    // a core to spare, that thread writes them itself, beside the workers (through the
    // pool, one worker on two cores ran 13% slower).
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let positional = match threads >= cores && rows.top().is_none() {
        true => output.positional()?,
        false => None,
    };
    let file = positional.as_ref().map(|(file, _)| file);
    let mut writer = OrderedWriter::new(
        output,
        rows,
        progress,
        positional.as_ref().map(|(file, at)| (file, *at)),
    );
    let process = &process;
    pool.in_place_scope(|scope| {
        let (tx, rx) = mpsc::channel::<Done>();
        let (written_tx, written_rx) = mpsc::channel::<(Vec<u8>, io::Result<()>)>();
        let mut writing = 0usize;
        // Has the writer's queued chunks written at their offsets, and takes back what
        // was written; waits while more than `max_in_flight` writes are out (a slow
        // disk holds the run back, not memory).
        let mut flush = |writer: &mut OrderedWriter<'_>, wait: usize| {
            if let Some(file) = file {
                for (buf, at) in writer.queued.drain(..) {
                    writing += 1;
                    let written_tx = written_tx.clone();
                    scope.spawn(move |_| {
                        let written = ordered::write_at(file, &buf, at);
                        let _ = written_tx.send((buf, written));
                    });
                }
            }
            while writing > 0 {
                let back = if writing > wait {
                    written_rx.recv().ok()
                } else {
                    written_rx.try_recv().ok()
                };
                let Some((buf, written)) = back else { break };
                writing -= 1;
                writer.recycle(buf, written);
            }
        };
        let mut next_index = 0u64;
        let mut in_flight = 0usize;
        while writer.error.is_none() {
            while in_flight >= max_in_flight {
                // This thread holds a sender, so `recv` waits for a worker's result.
                let Ok(done) = rx.recv() else { break };
                in_flight -= 1;
                writer.accept(done);
                flush(&mut writer, max_in_flight);
            }
            let (work, amount) = match next() {
                Ok(Some(item)) => item,
                Ok(None) => break,
                Err(e) => {
                    writer.error = Some(e);
                    break;
                }
            };
            let mut out = writer.buffer();
            let tx = tx.clone();
            let index = next_index;
            next_index += 1;
            in_flight += 1;
            // Owned work moves into the task; borrowed work (mapped chunks) borrows
            // data that outlives this scope.
            scope.spawn(move |_| {
                let slot = rayon::current_thread_index().unwrap_or(0) % workers.len();
                let mut state = lock(&workers[slot]);
                let mut tally = Tally::default();
                let failed = process(work, &mut state, &mut out, &mut tally).err();
                // The rows' line ends counted here, on the worker, not by the writer's
                // one thread (a pass over every output byte).
                let lines = if one_line_rows {
                    count_newlines(Slot::split(&out, tally.slots).0)
                } else {
                    tally.rows
                };
                let _ = tx.send(Done {
                    index,
                    out,
                    tally,
                    lines,
                    amount,
                    failed,
                });
            });
        }
        drop(tx);
        for done in rx {
            writer.accept(done);
            flush(&mut writer, max_in_flight);
        }
        flush(&mut writer, 0);
    });
    writer.finish_top();
    writer.finish_progress();
    let end = writer.end();
    let driven = match writer.error {
        Some(e) => Err(e),
        None => Ok(Driven {
            records: writer.records,
            rows: writer.rows,
            tally: writer.tally,
        }),
    };
    // Whatever is written next (even after an error) goes after the rows.
    if let Some(end) = end {
        let resumed = output.resume_at(end);
        if driven.is_ok() {
            resumed?;
        }
    }
    driven
}
