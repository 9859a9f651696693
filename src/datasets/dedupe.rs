//! `dedupe` and `overlap`: a dataset's duplicates, and a test set's leaks into a
//! training set, up to equivalence ([`crate::datasets::classes`]).

use std::io::{self, Write};

use serde::Serialize;

use crate::datasets::classes::{for_each_keyed_window, Class, Classes, KeyBy};
use crate::datasets::rows::{DatasetRows, RowsShape};
use crate::pipeline::input::Layout;
use crate::pipeline::progress::Progress;
use crate::pipeline::windows::{Window, Windows, WindowsError};

/// How many of the largest classes a report lists.
pub const LARGEST: usize = 10;

/// What `dedupe` found.
#[derive(Clone, Debug, Serialize)]
pub struct DedupeReport {
    /// Always `dedupe`.
    pub command: &'static str,
    /// The input's name.
    pub input: String,
    /// `canonical` or `text`.
    pub by: &'static str,
    /// Records read.
    pub records: u64,
    /// Classes: records written.
    pub classes: u64,
    /// Records dropped as repeats of an earlier one.
    pub duplicates: u64,
    /// Malformed records (each keyed by its text).
    pub malformed: u64,
    /// The largest classes of more than one record.
    pub largest: Vec<ClassEntry>,
    /// Wall time in seconds, up to the outputs committed (their fsync and rename).
    pub wall_seconds: f64,
}

/// One class in a report.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct ClassEntry {
    /// Line of its first record.
    pub first_line: u64,
    /// Records in it.
    pub size: u64,
}

impl From<Class> for ClassEntry {
    fn from(c: Class) -> Self {
        ClassEntry {
            first_line: c.first,
            size: c.size,
        }
    }
}

/// The name of a key choice, as in reports.
pub fn by_name(by: KeyBy) -> &'static str {
    match by {
        KeyBy::Text => "text",
        KeyBy::Canonical => "canonical",
    }
}

/// The columns of `dedupe`'s rows.
pub const DEDUPE_COLUMNS: [&str; 2] = ["line", "duplicate_of"];
/// The columns of `overlap`'s rows.
pub const OVERLAP_COLUMNS: [&str; 3] = ["line", "train_line", "test_duplicate_of"];

/// Writes the bytes before the first record, then the first record of each class in
/// input order, unchanged, to `out`; with `rows`, a CSV row `line,duplicate_of` per
/// record (`duplicate_of` empty for the first of a class), shaped as the second half
/// says ([`DatasetRows`]).
pub fn dedupe(
    data: &[u8],
    layout: &Layout,
    by: KeyBy,
    out: &mut dyn Write,
    rows: Option<(&mut dyn Write, RowsShape)>,
    progress: &Progress,
) -> io::Result<DedupeReport> {
    let start = layout.data_start.min(data.len());
    let whole = |each: &mut dyn FnMut(Window<'_>) -> io::Result<()>| {
        each(Window {
            bytes: &data[start..],
            first_line: layout.first_line,
        })
        .map_err(WindowsError::Write)
    };
    let input = (&data[..start], layout);
    dedupe_in(input, whole, by, (out, rows), progress).map_err(|e| match e {
        WindowsError::Write(e) => e,
        WindowsError::Input(e) => io::Error::other(e.to_string()),
    })
}

/// [`dedupe`] of a dataset read a window at a time: a stream holds one chunk.
pub fn dedupe_windows(
    windows: &mut Windows,
    by: KeyBy,
    out: &mut dyn Write,
    rows: Option<(&mut dyn Write, RowsShape)>,
    progress: &Progress,
) -> Result<DedupeReport, WindowsError> {
    let (head, layout) = (windows.head().to_vec(), windows.layout().clone());
    let each = |f: &mut dyn FnMut(Window<'_>) -> io::Result<()>| windows.each(f);
    dedupe_in((&head, &layout), each, by, (out, rows), progress)
}

/// [`dedupe`] of the windows `each_window` hands on, after `head` (the bytes before
/// the first window).
fn dedupe_in<W>(
    (head, layout): (&[u8], &Layout),
    each_window: W,
    by: KeyBy,
    (out, rows): (&mut dyn Write, Option<(&mut dyn Write, RowsShape)>),
    progress: &Progress,
) -> Result<DedupeReport, WindowsError>
where
    W: FnOnce(&mut dyn FnMut(Window<'_>) -> io::Result<()>) -> Result<(), WindowsError>,
{
    let start = std::time::Instant::now();
    let mut classes = Classes::default();
    let mut malformed = 0;
    // The head went out; a record was seen (the bytes before it went out too).
    let (mut head_out, mut seen) = (false, false);
    let mut rows = match rows {
        Some((out, shape)) => Some(
            DatasetRows::start(out, &DEDUPE_COLUMNS, shape, layout).map_err(WindowsError::Write)?,
        ),
        None => None,
    };
    let mut offset = head.len() as u64;
    each_window(&mut |window: Window<'_>| {
        let data = window.bytes;
        let mut failed: Option<io::Error> = None;
        for_each_keyed_window(window, layout, by, &progress.from(offset), |r| {
            if failed.is_some() {
                return;
            }
            malformed += u64::from(r.puzzle.is_none());
            let first = classes.add(r.key, r.line);
            let result = (|| {
                if !seen {
                    seen = true;
                    if !std::mem::replace(&mut head_out, true) {
                        out.write_all(head)?;
                    }
                    out.write_all(&data[..r.span.start])?;
                }
                if first.is_none() {
                    let bytes = &data[r.span.clone()];
                    out.write_all(bytes)?;
                    if !bytes.ends_with(b"\n") {
                        out.write_all(b"\n")?;
                    }
                }
                if let Some(rows) = rows.as_mut() {
                    let ours = |row: &mut Vec<u8>| {
                        let _ = match first {
                            Some(f) => write!(row, "{},{f}", r.line),
                            None => write!(row, "{},", r.line),
                        };
                    };
                    rows.row(ours, &data[r.span.clone()])?;
                }
                Ok(())
            })();
            if let Err(e) = result {
                failed = Some(e);
            }
        });
        offset += data.len() as u64;
        if !seen && failed.is_none() {
            // No record yet: what the input holds (a header, comments) goes out as is.
            if !std::mem::replace(&mut head_out, true) {
                out.write_all(head)?;
            }
            out.write_all(data)?;
        }
        failed.map_or(Ok(()), Err)
    })?;
    if !head_out {
        // No window at all: the head is all there is.
        out.write_all(head).map_err(WindowsError::Write)?;
    }
    Ok(DedupeReport {
        command: "dedupe",
        input: String::new(),
        by: by_name(by),
        records: classes.records(),
        classes: classes.len(),
        duplicates: classes.records() - classes.len(),
        malformed,
        largest: classes
            .largest(LARGEST)
            .into_iter()
            .map(Into::into)
            .collect(),
        wall_seconds: start.elapsed().as_secs_f64(),
    })
}

impl DedupeReport {
    /// The summary for stderr.
    pub fn write_summary(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "{}: {} records in, {} classes by {} ({} duplicate{} dropped{})",
            self.input,
            self.records,
            self.classes,
            self.by,
            self.duplicates,
            if self.duplicates == 1 { "" } else { "s" },
            if self.malformed > 0 {
                format!(", {} malformed records kept by text", self.malformed)
            } else {
                String::new()
            }
        )?;
        if !self.largest.is_empty() {
            let list: Vec<String> = self
                .largest
                .iter()
                .map(|c| format!("line {} x{}", c.first_line, c.size))
                .collect();
            writeln!(w, "  largest classes: {}", list.join(", "))?;
        }
        writeln!(w, "  {:.3} s wall", self.wall_seconds)
    }
}

/// What `overlap` found.
#[derive(Clone, Debug, Serialize)]
pub struct OverlapReport {
    /// Always `overlap`.
    pub command: &'static str,
    /// The training input's name.
    pub train: String,
    /// The test input's name.
    pub test: String,
    /// `canonical` or `text`.
    pub by: &'static str,
    /// Training records read.
    pub train_records: u64,
    /// Classes among them.
    pub train_classes: u64,
    /// Test records read.
    pub test_records: u64,
    /// Test records with an equivalent training record.
    pub leaks: u64,
    /// Test records repeating an earlier test record.
    pub test_duplicates: u64,
    /// The first leaking test lines (at most [`LARGEST`]).
    pub first_leaks: Vec<u64>,
    /// Wall time in seconds, up to the outputs committed (their fsync and rename).
    pub wall_seconds: f64,
}

impl OverlapReport {
    /// The summary for stderr.
    pub fn write_summary(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(
            w,
            "{}: {} of {} test records have an equivalent (by {}) in {} ({} records, {} classes); \
             {} repeat an earlier test record",
            self.test,
            self.leaks,
            self.test_records,
            self.by,
            self.train,
            self.train_records,
            self.train_classes,
            self.test_duplicates
        )?;
        if !self.first_leaks.is_empty() {
            let list: Vec<String> = self.first_leaks.iter().map(u64::to_string).collect();
            writeln!(w, "  first leaking test lines: {}", list.join(", "))?;
        }
        writeln!(w, "  {:.3} s wall", self.wall_seconds)
    }
}

/// For every test record, a CSV row `line,train_line,test_duplicate_of` to `rows`: the
/// first equivalent training record's line (empty when none) and the first equivalent
/// earlier test record's line (empty when none), shaped as `shape` says (a record's
/// fields are the test record's).
pub fn overlap(
    train: &mut Windows,
    test: &mut Windows,
    by: KeyBy,
    (rows, shape): (&mut dyn Write, RowsShape),
    progress: &Progress,
) -> Result<OverlapReport, WindowsError> {
    let start = std::time::Instant::now();
    let mut known = Classes::default();
    let mut offset = train.head().len() as u64;
    let train_layout = train.layout().clone();
    train.each(|window| {
        let at = progress.from(offset);
        for_each_keyed_window(window, &train_layout, by, &at, |r| {
            known.add(r.key, r.line);
        });
        offset += window.bytes.len() as u64;
        Ok(())
    })?;
    let mut seen = Classes::default();
    let (mut leaks, mut first_leaks) = (0, Vec::new());
    let test_layout = test.layout().clone();
    let mut rows = DatasetRows::start(rows, &OVERLAP_COLUMNS, shape, &test_layout)
        .map_err(WindowsError::Write)?;
    offset += test.head().len() as u64;
    test.each(|window| {
        let mut failed: Option<io::Error> = None;
        let at = progress.from(offset);
        for_each_keyed_window(window, &test_layout, by, &at, |r| {
            let in_train = known.get(r.key).map(|c| c.first);
            let earlier = seen.add(r.key, r.line);
            if in_train.is_some() {
                leaks += 1;
                if first_leaks.len() < LARGEST {
                    first_leaks.push(r.line);
                }
            }
            if failed.is_some() {
                return;
            }
            let ours = |row: &mut Vec<u8>| {
                let _ = write!(row, "{},", r.line);
                if let Some(l) = in_train {
                    let _ = write!(row, "{l}");
                }
                row.push(b',');
                if let Some(l) = earlier {
                    let _ = write!(row, "{l}");
                }
            };
            if let Err(e) = rows.row(ours, &window.bytes[r.span.clone()]) {
                failed = Some(e);
            }
        });
        offset += window.bytes.len() as u64;
        failed.map_or(Ok(()), Err)
    })?;
    Ok(OverlapReport {
        command: "overlap",
        train: String::new(),
        test: String::new(),
        by: by_name(by),
        train_records: known.records(),
        train_classes: known.len(),
        test_records: seen.records(),
        leaks,
        test_duplicates: seen.records() - seen.len(),
        first_leaks,
        wall_seconds: start.elapsed().as_secs_f64(),
    })
}
