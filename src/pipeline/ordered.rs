//! The ordered writer: chunk results arrive from the workers in any order and leave in
//! input order, their buffers recycled for the next chunks.

use std::collections::BTreeMap;

use super::worker::Tally;
use super::{RunError, Unit};
use crate::input::CHUNK_BYTES;
use crate::output::Output;
use crate::rows::{RowWriter, Slot};

/// Result of one chunk, sent from a worker to the writer.
pub(super) struct Done {
    /// The chunk's position in the input.
    pub index: u64,
    /// Its rows.
    pub out: Vec<u8>,
    /// Its counts.
    pub tally: Tally,
    /// Rows in `out`: the line ends of its rows for one-line-per-row formats, counted
    /// by the worker (not `tally.rows`, so that the two check each other), else the
    /// rows the worker formatted.
    pub lines: u64,
    /// How far it moves the progress bar (input bytes, or records).
    pub amount: u64,
    /// Why the work item failed, if it did.
    pub failed: Option<RunError>,
}

/// Writes chunk results strictly in input order as they arrive out of order, recycles
/// their buffers, and counts what it wrote: records (from the workers' tallies) and rows
/// (for one-line-per-row formats, the newlines in what is written, counted by each
/// worker in its buffer; for printed grids, the rows the workers formatted), so the two
/// can be checked against each other.
pub(super) struct OrderedWriter<'o> {
    output: &'o mut Output,
    /// How rows are written: record numbers are put in here (`--record-index`).
    rows_writer: &'o RowWriter,
    /// A chunk's rows with their record numbers put in, reused.
    numbered: Vec<u8>,
    progress: Option<indicatif::ProgressBar>,
    /// Results that arrived before the chunks ahead of them.
    pending: BTreeMap<u64, Done>,
    /// Index of the next chunk to write.
    next: u64,
    /// Written buffers, cleared, for the next chunks.
    spare: Vec<Vec<u8>>,
    /// Records counted so far.
    pub records: u64,
    /// Rows (lines) written so far.
    pub rows: u64,
    /// Counts merged in input order.
    pub tally: Tally,
    /// The first write error; later results are still drained but not written.
    pub error: Option<RunError>,
}

impl<'o> OrderedWriter<'o> {
    /// A writer onto `output`, with a progress bar up to a total when asked.
    pub fn new(
        output: &'o mut Output,
        rows_writer: &'o RowWriter,
        progress: Option<(u64, Unit)>,
    ) -> Self {
        OrderedWriter {
            output,
            rows_writer,
            numbered: Vec::new(),
            progress: progress.map(|(total, unit)| progress_bar(total, unit)),
            pending: BTreeMap::new(),
            next: 0,
            spare: Vec::new(),
            records: 0,
            rows: 0,
            tally: Tally::default(),
            error: None,
        }
    }

    /// An output buffer for the next chunk: a recycled one when there is one.
    pub fn buffer(&mut self) -> Vec<u8> {
        self.spare
            .pop()
            .unwrap_or_else(|| Vec::with_capacity(3 * CHUNK_BYTES))
    }

    /// Takes one chunk's result and writes every result that is now next in order.
    pub fn accept(&mut self, done: Done) {
        self.pending.insert(done.index, done);
        while let Some(done) = self.pending.remove(&self.next) {
            self.next += 1;
            if self.error.is_none() {
                self.error = done.failed;
            }
            let (rows, slots) = Slot::split(&done.out, done.tally.slots);
            self.write(rows, slots, done.tally.slots);
            self.rows += done.lines;
            self.records += done.tally.counts.total();
            self.tally.merge(&done.tally);
            if let Some(bar) = &self.progress {
                bar.inc(done.amount);
                bar.set_message(format!("{} records", self.records));
            }
            let mut buf = done.out;
            buf.clear();
            self.spare.push(buf);
        }
    }

    /// Writes a chunk's rows, with record numbers put in at its `count` slots, unless
    /// an earlier write failed.
    fn write(&mut self, rows: &[u8], slots: impl Iterator<Item = Slot>, count: usize) {
        if self.error.is_none() {
            let written = match count {
                0 => self.output.write_all(rows),
                _ => {
                    self.numbered.clear();
                    self.rows_writer
                        .write_numbered(rows, slots, self.records, &mut self.numbered);
                    self.output.write_all(&self.numbered)
                }
            };
            if let Err(e) = written {
                self.error = Some(e.into());
            }
        }
    }

    /// Clears the progress bar at the end of the run.
    pub fn finish_progress(&self) {
        if let Some(bar) = &self.progress {
            bar.finish_and_clear();
        }
    }
}

fn progress_bar(total: u64, unit: Unit) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(total),
        indicatif::ProgressDrawTarget::stderr(),
    );
    let template = match unit {
        Unit::Bytes => "{bar:40} {bytes}/{total_bytes} {msg} {bytes_per_sec} eta {eta}",
        Unit::Records => "{bar:40} {pos}/{len} records {per_sec} eta {eta}",
    };
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar
}
