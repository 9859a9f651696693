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

mod chunks;
mod ordered;
mod worker;

pub use chunks::{Chunk, ChunkBytes, SliceChunks, Source, StreamChunks};
pub use worker::{process_chunk, Setup, Tally, Worker};

use std::io::{self, Read};
use std::path::Path;
use std::sync::{mpsc, Mutex};
use std::time::Instant;

use hdrhistogram::Histogram;

use crate::input::{detect_layout, ColumnChoice, Format, InputBytes, InputError, Layout};
use crate::jobs::Job;
use crate::output::{Output, OutputError};
use crate::report::{new_histogram, Latency, RunReport};
use crate::rows::{OutputFormat, RowWriter};
use ordered::{Done, OrderedWriter};

/// Settings for one run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Forced input format, or `None` to detect.
    pub format: Option<Format>,
    /// Which CSV column holds puzzles.
    pub column: ColumnChoice,
    /// How rows are written.
    pub output_format: OutputFormat,
    /// Show a progress bar (the caller decides whether stderr is a terminal).
    pub progress: bool,
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
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Input(e) => e.fmt(f),
            RunError::Output(e) => e.fmt(f),
            RunError::Threads(e) => write!(f, "cannot start worker threads: {e}"),
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

/// Runs `job` over an opened file.
pub fn run_file<J: Job>(
    job: &J,
    path: &Path,
    input: &InputBytes,
    options: &RunOptions,
    output: &mut Output,
) -> Result<(RunReport, Histogram<u64>), RunError> {
    let started = Instant::now();
    let layout = detect_layout(input.bytes(), options.format, &options.column)?;
    let total = input.bytes().len() as u64;
    let mut source: Source<'_, io::Empty> = Source::Slice(SliceChunks::new(input.bytes(), &layout));
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
    Ok(report)
}

/// Runs `job` over a stream (stdin), read in blocks.
pub fn run_stream<J: Job, R: Read>(
    job: &J,
    reader: R,
    options: &RunOptions,
    output: &mut Output,
) -> Result<(RunReport, Histogram<u64>), RunError> {
    let started = Instant::now();
    let (chunks, layout) =
        StreamChunks::start(reader, options.format, &options.column).map_err(|source| {
            InputError::Io {
                path: "-".into(),
                source,
            }
        })??;
    let mut source = Source::Stream(chunks);
    run_source(job, &mut source, &layout, options, output, None, started)
}

/// The core loop: spawn chunks, reorder results, write them, merge statistics.
fn run_source<J: Job, R: Read>(
    job: &J,
    source: &mut Source<'_, R>,
    layout: &Layout,
    options: &RunOptions,
    output: &mut Output,
    total_bytes: Option<u64>,
    started: Instant,
) -> Result<(RunReport, Histogram<u64>), RunError> {
    let threads = options.threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("sudoku-worker-{i}"))
        .build()
        .map_err(|e| RunError::Threads(e.to_string()))?;
    let workers: Vec<Mutex<Worker<J>>> =
        (0..threads).map(|_| Mutex::new(Worker::new(job))).collect();
    let max_in_flight = 4 * threads;
    let rows = RowWriter::new(options.output_format, Some(layout));
    let setup = Setup {
        job,
        layout,
        rows: &rows,
    };

    let mut header = Vec::new();
    rows.header::<J::Extra>(&mut header);
    output.write_all(&header)?;
    let mut writer = OrderedWriter::new(output, options.progress, total_bytes);

    pool.in_place_scope(|scope| {
        let (tx, rx) = mpsc::channel::<Done>();
        let mut next_index = 0u64;
        let mut in_flight = 0usize;
        while writer.error.is_none() {
            while in_flight >= max_in_flight {
                // This thread holds a sender, so `recv` waits for a worker's result.
                let Ok(done) = rx.recv() else { break };
                in_flight -= 1;
                writer.accept(done);
            }
            let chunk = match source.next_chunk() {
                Ok(Some(c)) => c,
                Ok(None) => break,
                Err(source) => {
                    let path = "-".into();
                    writer.error = Some(InputError::Io { path, source }.into());
                    break;
                }
            };
            let mut out = writer.buffer();
            let tx = tx.clone();
            let index = next_index;
            next_index += 1;
            in_flight += 1;
            let workers = &workers;
            // Owned stream chunks move into the job; mapped ones borrow the map, which
            // outlives this scope.
            scope.spawn(move |_| {
                let slot = rayon::current_thread_index().unwrap_or(0) % workers.len();
                let mut worker = workers[slot].lock().unwrap_or_else(|p| p.into_inner());
                let mut tally = Tally::default();
                let bytes = chunk.bytes.as_slice();
                process_chunk(
                    setup,
                    bytes,
                    chunk.first_line,
                    &mut worker,
                    &mut out,
                    &mut tally,
                );
                let _ = tx.send(Done {
                    index,
                    out,
                    tally,
                    input_len: bytes.len(),
                });
            });
        }
        drop(tx);
        for done in rx {
            writer.accept(done);
        }
    });
    writer.finish_progress();
    if let Some(e) = writer.error {
        return Err(e);
    }
    let mut histogram = new_histogram();
    for w in &workers {
        let w = w.lock().unwrap_or_else(|p| p.into_inner());
        // Same bounds everywhere, so adding cannot fail.
        let _ = histogram.add(w.histogram());
    }
    let (records, wall) = (writer.records, started.elapsed().as_secs_f64());
    let report = RunReport {
        command: job.name().to_string(),
        input: String::new(),
        records,
        rows_written: writer.rows,
        counts: writer.tally.counts,
        mismatches: writer.tally.mismatches,
        wall_seconds: wall,
        puzzles_per_sec: if wall > 0.0 {
            records as f64 / wall
        } else {
            0.0
        },
        threads,
        latency_ns: Latency::from_histogram(&histogram),
        first_not_unique: writer.tally.not_unique().to_vec(),
        difficulty: writer.tally.breakdown.level_counts(),
        givens: writer.tally.breakdown.givens_counts(),
    };
    Ok((report, histogram))
}
