//! The ordered writer: chunk results arrive from the workers in any order and leave in
//! input order, their buffers recycled for the next chunks.

use std::collections::BTreeMap;
use std::fs::File;
use std::io;

use super::progress::{Progress, ProgressUnit};
use super::top::TopRows;
use super::worker::Tally;
use super::RunError;
use crate::pipeline::input::CHUNK_BYTES;
use crate::pipeline::output::Output;
use crate::pipeline::rows::{RowWriter, Slot};

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
    /// `--top`: the rows kept so far, written at the end ([`OrderedWriter::finish_top`]).
    top: Option<TopRows>,
    progress: Progress,
    /// Results that arrived before the chunks ahead of them.
    pending: BTreeMap<u64, Done>,
    /// Index of the next chunk to write.
    next: u64,
    /// Written buffers, cleared, for the next chunks.
    spare: Vec<Vec<u8>>,
    /// Positional writes: a handle to the output file and the offset of the next
    /// chunk's rows. Chunks then leave in order as offsets, written by the pool.
    positional: Option<(&'o File, u64)>,
    /// Chunks given their offsets, for the driver to have written ([`write_at`]); their
    /// buffers come back through [`OrderedWriter::recycle`].
    pub queued: Vec<(Vec<u8>, u64)>,
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
        progress: Option<(u64, ProgressUnit)>,
        positional: Option<(&'o File, u64)>,
    ) -> Self {
        OrderedWriter {
            output,
            rows_writer,
            numbered: Vec::new(),
            top: rows_writer.top().map(TopRows::new),
            progress: progress.map_or_else(Progress::hidden, |(total, unit)| {
                Progress::new(total, unit, "", true)
            }),
            pending: BTreeMap::new(),
            next: 0,
            spare: Vec::new(),
            positional,
            queued: Vec::new(),
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
            let count = done.tally.slots;
            let buf = done.out;
            // The buffer to reuse now, unless the pool is to write it.
            let written = match self.positional {
                // The rows as they are: the pool writes them at their offset.
                Some((_, ref mut at)) if count == 0 && self.error.is_none() => {
                    let len = buf.len() as u64;
                    self.queued.push((buf, *at));
                    self.output.positional_write(*at, len);
                    *at += len;
                    None
                }
                _ => {
                    let (rows, slots) = Slot::split(&buf, count);
                    self.write(rows, slots, count);
                    Some(buf)
                }
            };
            if self.top.is_none() {
                self.rows += done.lines;
            }
            self.records += done.tally.counts.total();
            self.tally.merge(&done.tally);
            if self.progress.is_shown() {
                self.progress.advance(done.amount);
                self.progress.say(&format!("{} records", self.records));
            }
            if let Some(mut buf) = written {
                buf.clear();
                self.spare.push(buf);
            }
        }
    }

    /// Takes back a buffer the pool wrote at its offset, with how the write went.
    pub fn recycle(&mut self, mut buf: Vec<u8>, written: io::Result<()>) {
        if let Err(e) = written {
            if self.error.is_none() {
                self.error = Some(self.output.write_error(e).into());
            }
        }
        buf.clear();
        self.spare.push(buf);
    }

    /// Where positional writes end: the output goes on from there.
    pub fn end(&self) -> Option<u64> {
        self.positional.map(|(_, at)| at)
    }

    /// Writes a chunk's rows, with record numbers put in at its `count` slots, unless
    /// an earlier write failed; under `--top` the rows are offered to the kept ones.
    fn write(&mut self, rows: &[u8], slots: impl Iterator<Item = Slot>, count: usize) {
        if let Some(top) = &mut self.top {
            let mut from = 0;
            for slot in slots {
                let end = (slot.end as usize).clamp(from, rows.len());
                let row = &rows[from..end];
                let row = match self.rows_writer.numbers_records() {
                    false => row,
                    true => {
                        self.numbered.clear();
                        let slot = Slot {
                            at: slot.at.saturating_sub(from as u64),
                            ..slot
                        };
                        self.rows_writer.write_numbered(
                            row,
                            std::iter::once(slot),
                            self.records,
                            &mut self.numbered,
                        );
                        &self.numbered
                    }
                };
                top.offer(slot.rating, self.records + slot.record, row);
                from = end;
            }
            return;
        }
        if self.error.is_none() {
            let written = match count {
                0 => self.output.write_all(rows),
                _ => {
                    self.numbered.clear();
                    self.rows_writer
                        .write_numbered(rows, slots, self.records, &mut self.numbered);
                    match &mut self.positional {
                        Some((file, at)) => {
                            let written = write_at(file, &self.numbered, *at);
                            let len = self.numbered.len() as u64;
                            self.output.positional_write(*at, len);
                            *at += len;
                            written.map_err(|e| self.output.write_error(e))
                        }
                        None => self.output.write_all(&self.numbered),
                    }
                }
            };
            if let Err(e) = written {
                self.error = Some(e.into());
            }
        }
    }

    /// Writes the rows `--top` kept, in input order, once every chunk is in: the rows
    /// written are those, the others offered are counted as left out.
    pub fn finish_top(&mut self) {
        let Some(top) = self.top.take() else { return };
        self.tally.left_out += top.offered();
        for row in top.into_rows() {
            self.tally.left_out -= 1;
            self.rows += 1;
            if self.error.is_none() {
                if let Err(e) = self.output.write_all(&row) {
                    self.error = Some(e.into());
                }
            }
        }
    }

    /// Clears the progress bar at the end of the run.
    pub fn finish_progress(&self) {
        self.progress.finish();
    }
}

/// Writes all of `bytes` at offset `at` of `file`, leaving its cursor where it was.
pub(super) fn write_at(file: &File, bytes: &[u8], at: u64) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        file.write_all_at(bytes, at)?;
        crate::pipeline::output::start_writeback(file, at, bytes.len() as u64);
        Ok(())
    }
    #[cfg(not(unix))]
    {
        // `Output::positional` gives no handle off Unix.
        let _ = (file, bytes, at);
        Err(io::Error::from(io::ErrorKind::Unsupported))
    }
}
