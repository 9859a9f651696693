//! `split`: a dataset cut into a training and a test part with every class of
//! equivalent puzzles ([`crate::datasets::classes`]) wholly on one side, so that no test puzzle
//! has an equivalent in training.
//!
//! Which classes go to test depends on the seed and the classes' keys only: classes are
//! ranked by [`Key::rank`] and taken, best rank first, while the test side holds fewer
//! than `fraction` of the records. The test side so overshoots by less than one class,
//! the same seed gives the same split of the same data in any order, and records keep
//! their input order (and their bytes) on both sides.
//!
//! Two passes over the input: the first keys every record and keeps one class number
//! per record (4 bytes) and one rank and size per class; the second writes each record
//! to its side.

use std::collections::HashMap;
use std::io::{self, Write};

use serde::Serialize;

use crate::datasets::classes::{for_each_keyed_window, for_each_span_window, Key, KeyBy};
use crate::datasets::dedupe::by_name;
use crate::pipeline::input::Layout;
use crate::pipeline::progress::Progress;
use crate::pipeline::windows::{Window, Windows, WindowsError};

/// What `split` did.
#[derive(Clone, Debug, Serialize)]
pub struct SplitReport {
    /// Always `split`.
    pub command: &'static str,
    /// The input's name.
    pub input: String,
    /// `canonical` or `text`.
    pub by: &'static str,
    /// The seed.
    pub seed: u64,
    /// The share of records asked for on the test side.
    pub test_fraction: f64,
    /// Records read.
    pub records: u64,
    /// Classes among them.
    pub classes: u64,
    /// Records written to the training side.
    pub train_records: u64,
    /// Classes on the training side.
    pub train_classes: u64,
    /// Records written to the test side.
    pub test_records: u64,
    /// Classes on the test side.
    pub test_classes: u64,
    /// Malformed records (each keyed by its text, split like any other).
    pub malformed: u64,
    /// Wall time in seconds, up to the outputs committed (their fsync and rename).
    pub wall_seconds: f64,
}

/// Why a split cannot be made.
#[derive(Debug)]
pub enum SplitError {
    /// The test fraction is not strictly between 0 and 1.
    Fraction(f64),
    /// More classes than a class number holds (2^32).
    TooManyClasses,
    /// Writing a side failed.
    Write {
        /// True for the test side, false for training.
        test: bool,
        /// What failed.
        source: io::Error,
    },
    /// The input could not be read again as it was the first time.
    Input(crate::pipeline::input::InputError),
}

impl std::fmt::Display for SplitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SplitError::Fraction(x) => {
                write!(f, "--test {x}: expected a fraction above 0 and below 1")
            }
            SplitError::TooManyClasses => f.write_str("more than 2^32 classes"),
            SplitError::Write { test, source } => {
                let side = if *test { "test" } else { "training" };
                write!(f, "writing the {side} side: {source}")
            }
            SplitError::Input(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SplitError {}

/// Refuses a test fraction that is not strictly between 0 and 1.
pub fn check_fraction(fraction: f64) -> Result<(), SplitError> {
    if fraction > 0.0 && fraction < 1.0 {
        Ok(())
    } else {
        Err(SplitError::Fraction(fraction))
    }
}

/// Writes `bytes` to a side, naming the side on failure.
fn put(w: &mut dyn Write, bytes: &[u8], test: bool) -> Result<(), SplitError> {
    w.write_all(bytes)
        .map_err(|source| SplitError::Write { test, source })
}

/// How a split is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SplitBy {
    /// What makes records one class (kept whole on one side).
    pub by: KeyBy,
    /// About this share of the records goes to the test side.
    pub fraction: f64,
    /// The seed of the draw (the same seed, the same split).
    pub seed: u64,
}

/// Splits the records of `data` (read with `layout`) into `train` and `test`, each
/// after the bytes that come before the first record (a CSV header, comments), with
/// about `how.fraction` of the records, by whole classes of `how.by`, on the test side.
pub fn split(
    data: &[u8],
    layout: &Layout,
    how: SplitBy,
    train: &mut dyn Write,
    test: &mut dyn Write,
    progress: &Progress,
) -> Result<SplitReport, SplitError> {
    let start = layout.data_start.min(data.len());
    let whole = || {
        move |each: &mut dyn FnMut(Window<'_>) -> io::Result<()>| {
            each(Window {
                bytes: &data[start..],
                first_line: layout.first_line,
            })
            .map_err(WindowsError::Write)
        }
    };
    let input = (&data[..start], layout);
    split_in(input, (whole(), whole()), how, (train, test), progress)
}

/// [`split`] of a dataset read twice, a window at a time: `first` for the first pass,
/// `reopen` gives it afresh for the second (a compressed file decoded twice, never held
/// whole).
pub fn split_windows(
    first: &mut Windows,
    reopen: &mut dyn FnMut() -> Result<Windows, crate::pipeline::input::InputError>,
    how: SplitBy,
    (train, test): (&mut dyn Write, &mut dyn Write),
    progress: &Progress,
) -> Result<SplitReport, SplitError> {
    let (head, layout) = (first.head().to_vec(), first.layout().clone());
    let one = |each: &mut dyn FnMut(Window<'_>) -> io::Result<()>| first.each(each);
    let two = |each: &mut dyn FnMut(Window<'_>) -> io::Result<()>| reopen()?.each(each);
    split_in((&head, &layout), (one, two), how, (train, test), progress)
}

/// [`split`] of the windows each pass hands on, after `head`.
fn split_in<P, Q>(
    (head, layout): (&[u8], &Layout),
    (pass_one, pass_two): (P, Q),
    how: SplitBy,
    (train, test): (&mut dyn Write, &mut dyn Write),
    progress: &Progress,
) -> Result<SplitReport, SplitError>
where
    P: FnOnce(&mut dyn FnMut(Window<'_>) -> io::Result<()>) -> Result<(), WindowsError>,
    Q: FnOnce(&mut dyn FnMut(Window<'_>) -> io::Result<()>) -> Result<(), WindowsError>,
{
    let SplitBy { by, fraction, seed } = how;
    check_fraction(fraction)?;
    let start = std::time::Instant::now();
    let windows_error = |e: WindowsError| match e {
        WindowsError::Input(e) => SplitError::Input(e),
        // The first pass writes nothing; the second names its side itself.
        WindowsError::Write(source) => SplitError::Write {
            test: false,
            source,
        },
    };
    // Pass 1: each record's class number; each class's rank and size.
    let mut numbers: HashMap<Key, u32> = HashMap::new();
    let mut classes: Vec<(u64, u64)> = Vec::new();
    let mut of_record: Vec<u32> = Vec::new();
    let (mut malformed, mut too_many) = (0u64, false);
    let mut offset = head.len() as u64;
    pass_one(&mut |window: Window<'_>| {
        for_each_keyed_window(window, layout, by, &progress.from(offset), |r| {
            malformed += u64::from(r.puzzle.is_none());
            let number = match numbers.get(r.key) {
                Some(&n) => n,
                None => {
                    let Ok(n) = u32::try_from(classes.len()) else {
                        too_many = true;
                        return;
                    };
                    numbers.insert(r.key.clone(), n);
                    classes.push((r.key.rank(seed), 0));
                    n
                }
            };
            classes[number as usize].1 += 1;
            of_record.push(number);
        });
        offset += window.bytes.len() as u64;
        Ok(())
    })
    .map_err(windows_error)?;
    if too_many {
        return Err(SplitError::TooManyClasses);
    }
    drop(numbers);
    let records = of_record.len() as u64;
    // Best rank first; ties (practically never) by first appearance.
    let mut order: Vec<u32> = (0..classes.len() as u32).collect();
    order.sort_unstable_by_key(|&n| (classes[n as usize].0, n));
    let target = (fraction * records as f64).round() as u64;
    let mut to_test = vec![false; classes.len()];
    let (mut test_records, mut test_classes) = (0u64, 0u64);
    for &n in &order {
        if test_records >= target {
            break;
        }
        to_test[n as usize] = true;
        test_records += classes[n as usize].1;
        test_classes += 1;
    }
    // Pass 2: every record to its side, after the prelude on both.
    let mut index = 0usize;
    let mut failed: Option<SplitError> = None;
    let mut head_out = false;
    pass_two(&mut |window: Window<'_>| {
        let data = window.bytes;
        let before = index;
        for_each_span_window(window, layout, |_, span| {
            // A second read that finds more records than the first: stop, named below.
            let Some(&class) = of_record.get(index) else {
                index += 1;
                return;
            };
            let in_test = to_test[class as usize];
            index += 1;
            if failed.is_some() {
                return;
            }
            let mut write = || {
                if index == 1 {
                    let before = &data[..span.start];
                    if !std::mem::replace(&mut head_out, true) {
                        put(train, head, false)?;
                        put(test, head, true)?;
                    }
                    put(train, before, false)?;
                    put(test, before, true)?;
                }
                let side: &mut dyn Write = if in_test { &mut *test } else { &mut *train };
                let bytes = &data[span.clone()];
                put(side, bytes, in_test)?;
                if !bytes.ends_with(b"\n") {
                    put(side, b"\n", in_test)?;
                }
                Ok(())
            };
            if let Err(e) = write() {
                failed = Some(e);
            }
        });
        if index == before && index == 0 && failed.is_none() {
            // No record yet: both sides get what the input holds (a header, comments).
            let was_out = std::mem::replace(&mut head_out, true);
            let mut write = || {
                if !was_out {
                    put(train, head, false)?;
                    put(test, head, true)?;
                }
                put(train, data, false)?;
                put(test, data, true)
            };
            if let Err(e) = write() {
                failed = Some(e);
            }
        }
        Ok(())
    })
    .map_err(windows_error)?;
    if let Some(e) = failed {
        return Err(e);
    }
    if index as u64 != records {
        return Err(SplitError::Input(crate::pipeline::input::InputError::Io {
            path: std::path::PathBuf::from("the input"),
            source: io::Error::other(format!(
                "{records} records on the first read, {index} on the second: it changed"
            )),
        }));
    }
    if !head_out {
        // No window at all: the head is all there is, on both sides.
        put(train, head, false)?;
        put(test, head, true)?;
    }
    let all = classes.len() as u64;
    Ok(SplitReport {
        command: "split",
        input: String::new(),
        by: by_name(by),
        seed,
        test_fraction: fraction,
        records,
        classes: all,
        train_records: records - test_records,
        train_classes: all - test_classes,
        test_records,
        test_classes,
        malformed,
        wall_seconds: start.elapsed().as_secs_f64(),
    })
}

impl SplitReport {
    /// The summary for stderr.
    pub fn write_summary(&self, w: &mut dyn Write) -> io::Result<()> {
        let share = |n: u64| {
            if self.records == 0 {
                0.0
            } else {
                100.0 * n as f64 / self.records as f64
            }
        };
        writeln!(
            w,
            "{}: {} records in {} classes by {} (seed {}): train {} records ({:.1}%, {} \
             classes), test {} records ({:.1}%, {} classes); no class on both sides",
            self.input,
            self.records,
            self.classes,
            self.by,
            self.seed,
            self.train_records,
            share(self.train_records),
            self.train_classes,
            self.test_records,
            share(self.test_records),
            self.test_classes
        )?;
        writeln!(w, "  {:.3} s wall", self.wall_seconds)
    }
}
