//! Batch processing: record-aligned chunks solved on a rayon pool, written in input order.
//!
//! ```text
//! chunk source ──▶ in_place_scope.spawn(chunk) ──▶ worker: one Solver + histogram per
//! (map or stdin)     at most 4 x threads            thread, rows into a recycled buffer
//!                    chunks in flight                         │ channel
//! output ◀── ordered writer (main thread: reorders by chunk index, recycles buffers)
//! ```
//!
//! Memory is bounded by the in-flight limit, not by the input size.

use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::{mpsc, Mutex};
use std::time::Instant;

use hdrhistogram::Histogram;

use crate::grid::{Grid, CELLS};
use crate::input::{
    chunk_end, detect_layout, for_each_record, ColumnChoice, Format, InputBytes, InputError,
    Layout, Record, RecordError, RecordScratch, CHUNK_BYTES,
};
use crate::output::{Output, OutputError};
use crate::report::{new_histogram, Latency, RunReport, Status, StatusCounts};
use crate::solver::{Classification, Outcome, Solver};

/// The CSV header of `solve` and `classify` output.
pub const HEADER: &[u8] = b"line,puzzle,solution,status,reason,mismatch\n";

/// Longest raw text copied into an `invalid` row's `puzzle` field.
const RAW_KEEP: usize = 100;

/// Most line numbers of non-unique records kept for `--require-unique` messages.
const KEEP_NOT_UNIQUE: usize = 10;

/// What to compute for each record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// First solution only.
    Solve,
    /// Solutions counted up to two.
    Classify,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::Solve => "solve",
            Mode::Classify => "classify",
        }
    }
}

/// Settings for one run.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Solve or classify.
    pub mode: Mode,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Forced format, or `None` to detect.
    pub format: Option<Format>,
    /// Which CSV column holds puzzles.
    pub column: ColumnChoice,
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

/// Per-thread state, reused for every chunk that thread processes.
pub struct Worker {
    solver: Box<Solver>,
    histogram: Histogram<u64>,
    scratch: RecordScratch,
}

impl Default for Worker {
    fn default() -> Self {
        Worker {
            solver: Box::new(Solver::new()),
            histogram: new_histogram(),
            scratch: RecordScratch::default(),
        }
    }
}

/// Counts produced by processing one chunk.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    /// Records per status.
    pub counts: StatusCounts,
    /// Records whose given solution differs from the computed one.
    pub mismatches: u64,
    /// Line numbers of the first records that are not `unique` (classify only).
    pub not_unique: [u64; KEEP_NOT_UNIQUE],
    /// How many of `not_unique` are set.
    pub not_unique_len: usize,
}

/// Processes every record of one chunk, appending one output row per record to `out`.
///
/// This is the whole per-puzzle path: parse in place, solve with the worker's solver,
/// record the latency, format the row. Nothing here allocates once `out` has grown to
/// the chunk's size.
pub fn process_chunk(
    bytes: &[u8],
    first_line: u64,
    layout: &Layout,
    mode: Mode,
    worker: &mut Worker,
    out: &mut Vec<u8>,
    tally: &mut Tally,
) {
    let Worker {
        solver,
        histogram,
        scratch,
    } = worker;
    for_each_record(bytes, first_line, layout, scratch, |record| {
        let (status, solution, problem) = match record.puzzle {
            Err(e) => (Status::Invalid, None, Problem::Record(e)),
            Ok(grid) => {
                let start = Instant::now();
                let result = run_solver(solver, &grid, mode);
                let ns = start.elapsed().as_nanos() as u64;
                histogram.saturating_record(ns.max(1));
                result
            }
        };
        let mismatch = match (&record.expected, &solution) {
            (None, _) => false,
            (Some(Ok(expected)), Some(found)) => expected != found,
            (Some(_), _) => true,
        };
        tally.counts.add(status);
        tally.mismatches += mismatch as u64;
        if mode == Mode::Classify
            && status != Status::Unique
            && tally.not_unique_len < KEEP_NOT_UNIQUE
        {
            tally.not_unique[tally.not_unique_len] = record.line;
            tally.not_unique_len += 1;
        }
        write_row(
            out,
            &record,
            solution.as_ref(),
            status,
            problem,
            mismatch,
            layout,
        );
    });
}

/// Why a record is `invalid`, for the `reason` column.
#[derive(Clone, Copy)]
enum Problem {
    None,
    Record(RecordError),
    Clash(crate::grid::Clash),
}

#[inline]
fn run_solver(solver: &mut Solver, grid: &Grid, mode: Mode) -> (Status, Option<Grid>, Problem) {
    match mode {
        Mode::Solve => match solver.solve(grid) {
            Outcome::Solved(s) => (Status::Solved, Some(s), Problem::None),
            Outcome::Unsolvable => (Status::Unsolvable, None, Problem::None),
            Outcome::Invalid(c) => (Status::Invalid, None, Problem::Clash(c)),
        },
        Mode::Classify => match solver.classify(grid) {
            Classification::Unique(s) => (Status::Unique, Some(s), Problem::None),
            Classification::Multiple(s) => (Status::Multiple, Some(s), Problem::None),
            Classification::Unsolvable => (Status::Unsolvable, None, Problem::None),
            Classification::Invalid(c) => (Status::Invalid, None, Problem::Clash(c)),
        },
    }
}

/// Appends one CSV row: `line,puzzle,solution,status,reason,mismatch`.
fn write_row(
    out: &mut Vec<u8>,
    record: &Record<'_>,
    solution: Option<&Grid>,
    status: Status,
    problem: Problem,
    mismatch: bool,
    layout: &Layout,
) {
    write_u64(out, record.line);
    out.push(b',');
    match &record.puzzle {
        Ok(grid) => {
            let mut line = [0u8; CELLS];
            grid.write_line(&mut line);
            out.extend_from_slice(&line);
        }
        Err(_) => write_raw_puzzle(out, record.raw),
    }
    out.push(b',');
    if let Some(s) = solution {
        let mut line = [0u8; CELLS];
        s.write_line(&mut line);
        out.extend_from_slice(&line);
    }
    out.push(b',');
    out.extend_from_slice(status.word().as_bytes());
    out.push(b',');
    let start = out.len();
    // Writing to a Vec cannot fail.
    let _ = match problem {
        Problem::None => Ok(()),
        Problem::Clash(c) => write!(out, "{c}"),
        Problem::Record(RecordError::Parse(e)) if layout.format == Format::Csv => {
            write!(out, "{}: {e}", layout.puzzle_name)
        }
        Problem::Record(RecordError::Parse(e)) => write!(out, "{e}"),
        Problem::Record(RecordError::NoGrid) => write!(out, "no puzzle on the line"),
        Problem::Record(RecordError::MissingField(n)) => {
            write!(out, "row has {n} fields, no {} column", layout.puzzle_name)
        }
    };
    quote_tail(out, start);
    out.push(b',');
    if mismatch {
        out.extend_from_slice(b"true");
    }
    out.push(b'\n');
}

/// Appends a malformed record's text for the `puzzle` column: at most [`RAW_KEEP`]
/// bytes (then `...`), bytes outside printable ASCII shown as `?`, quoted as needed.
fn write_raw_puzzle(out: &mut Vec<u8>, raw: &[u8]) {
    let start = out.len();
    for &b in &raw[..raw.len().min(RAW_KEEP)] {
        out.push(if (0x20..=0x7e).contains(&b) { b } else { b'?' });
    }
    if raw.len() > RAW_KEEP {
        out.extend_from_slice(b"...");
    }
    quote_tail(out, start);
}

/// Quotes `out[start..]` as a CSV field if it holds a comma or quote, doubling quotes.
/// Works in place from the back: no allocation beyond the buffer's growth.
fn quote_tail(out: &mut Vec<u8>, start: usize) {
    let field = &out[start..];
    if !field.iter().any(|&b| b == b',' || b == b'"') {
        return;
    }
    let quotes = field.iter().filter(|&&b| b == b'"').count();
    let end = out.len();
    out.resize(end + quotes + 2, 0);
    let mut w = out.len() - 1;
    out[w] = b'"';
    for r in (start..end).rev() {
        let b = out[r];
        w -= 1;
        out[w] = b;
        if b == b'"' {
            w -= 1;
            out[w] = b'"';
        }
    }
    out[w - 1] = b'"';
}

/// Appends the decimal digits of `n`.
#[inline]
fn write_u64(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// A chunk of input: bytes (borrowed from a map or owned from a stream) and where it starts.
pub struct Chunk<'a> {
    /// 1-based line number of the chunk's first byte.
    pub first_line: u64,
    /// The chunk's bytes.
    pub bytes: ChunkBytes<'a>,
}

/// The bytes of a chunk.
pub enum ChunkBytes<'a> {
    /// A slice of a mapped or fully read input.
    Borrowed(&'a [u8]),
    /// Bytes read from a stream.
    Owned(Vec<u8>),
}

impl ChunkBytes<'_> {
    fn as_slice(&self) -> &[u8] {
        match self {
            ChunkBytes::Borrowed(b) => b,
            ChunkBytes::Owned(v) => v,
        }
    }
}

/// Splits in-memory input into record-aligned chunks.
pub struct SliceChunks<'a> {
    data: &'a [u8],
    pos: usize,
    line: u64,
    format: Format,
    in_quotes: bool,
}

impl<'a> SliceChunks<'a> {
    /// Chunks of `data` from `layout.data_start`.
    pub fn new(data: &'a [u8], layout: &Layout) -> Self {
        SliceChunks {
            data,
            pos: layout.data_start.min(data.len()),
            line: layout.first_line,
            format: layout.format,
            in_quotes: false,
        }
    }
}

impl<'a> Iterator for SliceChunks<'a> {
    type Item = Chunk<'a>;

    fn next(&mut self) -> Option<Chunk<'a>> {
        if self.pos >= self.data.len() {
            return None;
        }
        let rest = &self.data[self.pos..];
        let len = chunk_end(rest, CHUNK_BYTES, self.format, &mut self.in_quotes);
        let bytes = &rest[..len];
        let chunk = Chunk {
            first_line: self.line,
            bytes: ChunkBytes::Borrowed(bytes),
        };
        self.line += count_newlines(bytes);
        self.pos += len;
        Some(chunk)
    }
}

fn count_newlines(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| b == b'\n').count() as u64
}

/// Reads a stream in blocks and yields record-aligned chunks (stdin, pipes).
pub struct StreamChunks<R: Read> {
    reader: R,
    carry: Vec<u8>,
    line: u64,
    format: Format,
    in_quotes: bool,
    eof: bool,
}

impl<R: Read> StreamChunks<R> {
    /// Reads the first block, detects the layout, and positions after any header.
    pub fn start(
        mut reader: R,
        format: Option<Format>,
        column: &ColumnChoice,
    ) -> io::Result<Result<(Self, Layout), InputError>> {
        let mut carry = Vec::with_capacity(2 * CHUNK_BYTES);
        let mut eof = false;
        // Enough to see the header and first record: a full block holding a newline.
        while !eof && (carry.len() < CHUNK_BYTES || !carry.contains(&b'\n')) {
            eof = fill(&mut reader, &mut carry)?;
        }
        let layout = match detect_layout(&carry, format, column) {
            Ok(l) => l,
            Err(e) => return Ok(Err(e)),
        };
        carry.drain(..layout.data_start.min(carry.len()));
        let chunks = StreamChunks {
            reader,
            carry,
            line: layout.first_line,
            format: layout.format,
            in_quotes: false,
            eof,
        };
        Ok(Ok((chunks, layout)))
    }

    /// The next chunk, or `None` at the end of the stream.
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk<'static>>> {
        loop {
            if self.carry.is_empty() && self.eof {
                return Ok(None);
            }
            if self.carry.len() >= CHUNK_BYTES || self.eof {
                // Look for a boundary without committing quote state until one is found.
                let mut quotes = self.in_quotes;
                let end = chunk_end(&self.carry, CHUNK_BYTES, self.format, &mut quotes);
                if end < self.carry.len() || self.eof {
                    self.in_quotes = quotes;
                    let rest = self.carry.split_off(end);
                    let bytes = std::mem::replace(&mut self.carry, rest);
                    let chunk = Chunk {
                        first_line: self.line,
                        bytes: ChunkBytes::Owned(bytes),
                    };
                    if let ChunkBytes::Owned(b) = &chunk.bytes {
                        self.line += count_newlines(b);
                    }
                    return Ok(Some(chunk));
                }
            }
            self.eof = fill(&mut self.reader, &mut self.carry)?;
        }
    }
}

/// Reads one block onto the end of `buf`; true at end of stream.
fn fill<R: Read>(reader: &mut R, buf: &mut Vec<u8>) -> io::Result<bool> {
    let old = buf.len();
    buf.resize(old + CHUNK_BYTES, 0);
    loop {
        match reader.read(&mut buf[old..]) {
            Ok(n) => {
                buf.truncate(old + n);
                return Ok(n == 0);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                buf.truncate(old);
                return Err(e);
            }
        }
    }
}

/// Result of one chunk, sent from a worker to the writer.
struct Done {
    index: u64,
    out: Vec<u8>,
    tally: Tally,
    input_len: usize,
}

/// Where chunks come from.
pub enum Source<'a, R: Read> {
    /// In-memory input (mapped file or fully read).
    Slice(SliceChunks<'a>),
    /// A stream read in blocks.
    Stream(StreamChunks<R>),
}

impl<'a, R: Read> Source<'a, R> {
    fn next_chunk(&mut self) -> io::Result<Option<Chunk<'a>>> {
        match self {
            Source::Slice(s) => Ok(s.next()),
            Source::Stream(s) => s.next_chunk(),
        }
    }
}

/// Runs `solve` or `classify` over an opened file.
pub fn run_file(
    path: &Path,
    input: &InputBytes,
    options: &RunOptions,
    output: &mut Output,
) -> Result<(RunReport, Histogram<u64>), RunError> {
    let started = Instant::now();
    let layout = detect_layout(input.bytes(), options.format, &options.column)?;
    let total = input.bytes().len() as u64;
    let mut source: Source<'_, io::Empty> = Source::Slice(SliceChunks::new(input.bytes(), &layout));
    let report = run_source(&mut source, &layout, options, output, Some(total), started)?;
    input.check_unchanged(path)?;
    Ok(report)
}

/// Runs `solve` or `classify` over a stream (stdin), read in blocks.
pub fn run_stream<R: Read>(
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
    run_source(&mut source, &layout, options, output, None, started)
}

/// The core loop: spawn chunks, reorder results, write them, merge statistics.
fn run_source<R: Read>(
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
    let workers: Vec<Mutex<Worker>> = (0..threads).map(|_| Mutex::default()).collect();
    let progress = match (options.progress, total_bytes) {
        (true, Some(total)) => Some(progress_bar(total)),
        _ => None,
    };
    let max_in_flight = 4 * threads;
    let mode = options.mode;

    output.write_all(HEADER)?;
    let mut writer = OrderedWriter {
        output,
        progress,
        pending: BTreeMap::new(),
        next: 0,
        spare: Vec::new(),
        records: 0,
        rows: 0,
        tally: Tally::default(),
        error: None,
    };

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
                    bytes,
                    chunk.first_line,
                    layout,
                    mode,
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
    if let Some(bar) = &writer.progress {
        bar.finish_and_clear();
    }
    if let Some(e) = writer.error {
        return Err(e);
    }
    let OrderedWriter {
        records,
        rows,
        tally,
        ..
    } = writer;
    let mut histogram = new_histogram();
    for w in &workers {
        let w = w.lock().unwrap_or_else(|p| p.into_inner());
        // Same bounds everywhere, so adding cannot fail.
        let _ = histogram.add(&w.histogram);
    }
    let wall = started.elapsed().as_secs_f64();
    let report = RunReport {
        command: mode.name().to_string(),
        input: String::new(),
        records,
        rows_written: rows,
        counts: tally.counts,
        mismatches: tally.mismatches,
        wall_seconds: wall,
        puzzles_per_sec: if wall > 0.0 {
            records as f64 / wall
        } else {
            0.0
        },
        threads,
        latency_ns: Latency::from_histogram(&histogram),
        first_not_unique: tally.not_unique[..tally.not_unique_len].to_vec(),
    };
    Ok((report, histogram))
}

/// Writes chunk results strictly in input order as they arrive out of order, recycles
/// their buffers, and counts what it wrote: records (from the workers' tallies) and rows
/// (newlines actually written), so the two can be checked against each other.
struct OrderedWriter<'o> {
    output: &'o mut Output,
    progress: Option<indicatif::ProgressBar>,
    /// Results that arrived before the chunks ahead of them.
    pending: BTreeMap<u64, Done>,
    /// Index of the next chunk to write.
    next: u64,
    /// Written buffers, cleared, for the next chunks.
    spare: Vec<Vec<u8>>,
    records: u64,
    rows: u64,
    tally: Tally,
    /// The first write error; later results are still drained but not written.
    error: Option<RunError>,
}

impl OrderedWriter<'_> {
    /// An output buffer for the next chunk: a recycled one when there is one.
    fn buffer(&mut self) -> Vec<u8> {
        self.spare
            .pop()
            .unwrap_or_else(|| Vec::with_capacity(3 * CHUNK_BYTES))
    }

    /// Takes one chunk's result and writes every result that is now next in order.
    fn accept(&mut self, done: Done) {
        self.pending.insert(done.index, done);
        while let Some(done) = self.pending.remove(&self.next) {
            self.next += 1;
            if self.error.is_none() {
                if let Err(e) = self.output.write_all(&done.out) {
                    self.error = Some(e.into());
                }
            }
            self.rows += count_newlines(&done.out);
            self.records += done.tally.counts.total();
            merge_tally(&mut self.tally, &done.tally);
            if let Some(bar) = &self.progress {
                bar.inc(done.input_len as u64);
                bar.set_message(format!("{} records", self.records));
            }
            let mut buf = done.out;
            buf.clear();
            self.spare.push(buf);
        }
    }
}

fn merge_tally(total: &mut Tally, part: &Tally) {
    total.counts.merge(&part.counts);
    total.mismatches += part.mismatches;
    for &line in &part.not_unique[..part.not_unique_len] {
        if total.not_unique_len < KEEP_NOT_UNIQUE {
            total.not_unique[total.not_unique_len] = line;
            total.not_unique_len += 1;
        }
    }
}

fn progress_bar(total: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(total),
        indicatif::ProgressDrawTarget::stderr(),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {bytes}/{total_bytes} {msg} {bytes_per_sec} eta {eta}",
    ) {
        bar.set_style(style);
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_text_is_made_safe() {
        let mut out = b"x,".to_vec();
        write_raw_puzzle(&mut out, b"a,\"b\xff");
        assert_eq!(out, b"x,\"a,\"\"b?\"");
        let mut out = Vec::new();
        write_raw_puzzle(&mut out, &[b'.'; 150]);
        assert_eq!(out.len(), 103);
        assert!(out.ends_with(b"..."));
    }

    #[test]
    fn quoting_is_in_place_and_only_when_needed() {
        let mut out = b"1,plain".to_vec();
        quote_tail(&mut out, 2);
        assert_eq!(out, b"1,plain");
        let mut out = b"1,too short: 80, \"x\"".to_vec();
        quote_tail(&mut out, 2);
        assert_eq!(out, b"1,\"too short: 80, \"\"x\"\"\"");
    }
}
