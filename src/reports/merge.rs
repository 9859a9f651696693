//! `merge`: the reports of a run's parts (shards, Spark partitions, Slurm tasks) added
//! up into the report of the whole, exactly: counts are summed and the latency
//! histograms merged, so percentiles are those of all records together (within
//! HdrHistogram's three significant digits), not averages of the parts' percentiles.
//!
//! Times: the parts are assumed to have run side by side, so the merged `wall_seconds`
//! is the slowest part's and `puzzles_per_sec` is all records over that time; `threads`
//! is the parts' threads added up.

use hdrhistogram::Histogram;

use crate::reports::{decode_histogram, encode_histogram, new_histogram, Latency, RunReport};

/// Why reports cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MergeError {
    /// No report was given.
    Empty,
    /// Reports of different commands.
    Commands(String, String),
    /// A sum does not fit in 64 bits (reports edited or not ours).
    Overflow(String),
    /// A report's numbers contradict each other (`index` counts from 1).
    Inconsistent {
        /// Which report.
        index: usize,
        /// What does not add up.
        message: String,
    },
    /// A report's histogram is missing or unreadable (`index` counts from 1).
    Histogram {
        /// Which report.
        index: usize,
        /// What is wrong.
        message: String,
    },
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MergeError::Empty => write!(f, "no reports to merge"),
            MergeError::Commands(a, b) => {
                write!(
                    f,
                    "reports of different commands ({a} and {b}) do not add up"
                )
            }
            MergeError::Overflow(what) => {
                write!(f, "the reports' {what} add up to more than 2^64")
            }
            MergeError::Histogram { index, message }
            | MergeError::Inconsistent { index, message } => {
                write!(f, "report {index}: {message}")
            }
        }
    }
}

impl std::error::Error for MergeError {}

/// Adds up `reports`, given in input order (the first non-unique lines are kept in
/// that order).
pub fn merge(reports: &[RunReport]) -> Result<(RunReport, Histogram<u64>), MergeError> {
    let first = reports.first().ok_or(MergeError::Empty)?;
    let mut merged = first.clone();
    let mut histogram = new_histogram();
    merged.input = reports
        .iter()
        .map(|r| r.input.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    (merged.records, merged.rows_written, merged.mismatches) = (0, 0, 0);
    merged.left_out = 0;
    merged.counts = Default::default();
    merged.threads = 0;
    merged.wall_seconds = 0.0;
    merged.first_not_unique.clear();
    merged.first_mismatches.clear();
    merged.disagree = None;
    merged.cross_checked = None;
    merged.first_disagree.clear();
    merged.difficulty = None;
    merged.givens = None;
    merged.lower_bounds = 0;
    if reports.iter().any(|r| r.layout != first.layout) {
        merged.layout.clear();
    }
    for (i, r) in reports.iter().enumerate() {
        if r.command != first.command {
            return Err(MergeError::Commands(
                first.command.clone(),
                r.command.clone(),
            ));
        }
        let counted: u128 = r.counts.iter().map(|(_, n)| u128::from(n)).sum();
        let accounted = u128::from(r.rows_written) + u128::from(r.left_out);
        if counted != u128::from(r.records) || accounted != u128::from(r.records) {
            return Err(MergeError::Inconsistent {
                index: i + 1,
                message: format!(
                    "{} records, but {counted} counted by status and {accounted} rows \
                     written or left out",
                    r.records
                ),
            });
        }
        let part = if r.histogram.is_empty() && r.records == 0 {
            new_histogram()
        } else if r.histogram.is_empty() {
            return Err(MergeError::Histogram {
                index: i + 1,
                message: format!("{} records but no histogram", r.records),
            });
        } else {
            decode_histogram(&r.histogram).map_err(|message| MergeError::Histogram {
                index: i + 1,
                message,
            })?
        };
        // Same bounds on every side, so adding cannot fail; a foreign histogram with
        // other bounds is reported rather than dropped.
        histogram.add(&part).map_err(|e| MergeError::Histogram {
            index: i + 1,
            message: format!("cannot add: {e:?}"),
        })?;
        add(&mut merged.records, r.records, "records")?;
        add(&mut merged.rows_written, r.rows_written, "rows written")?;
        add(&mut merged.left_out, r.left_out, "rows left out")?;
        add(&mut merged.mismatches, r.mismatches, "mismatches")?;
        add(&mut merged.lower_bounds, r.lower_bounds, "lower bounds")?;
        for (status, n) in r.counts.iter() {
            let total = merged.counts.get_mut(status);
            *total = total
                .checked_add(n)
                .ok_or_else(|| MergeError::Overflow(format!("{} counts", status.word())))?;
        }
        merged.threads = merged
            .threads
            .checked_add(r.threads)
            .ok_or_else(|| MergeError::Overflow("threads".into()))?;
        merged.wall_seconds = merged.wall_seconds.max(r.wall_seconds);
        if let Some(n) = r.disagree {
            add(merged.disagree.get_or_insert(0), n, "disagreements")?;
        }
        if let Some(n) = r.cross_checked {
            add(
                merged.cross_checked.get_or_insert(0),
                n,
                "cross-checked records",
            )?;
        }
        for &line in &r.first_disagree {
            if merged.first_disagree.len() < 10 {
                merged.first_disagree.push(line);
            }
        }
        for &line in &r.first_not_unique {
            if merged.first_not_unique.len() < 10 {
                merged.first_not_unique.push(line);
            }
        }
        for &line in &r.first_mismatches {
            if merged.first_mismatches.len() < 10 {
                merged.first_mismatches.push(line);
            }
        }
        if let Some(levels) = &r.difficulty {
            let total = merged.difficulty.get_or_insert_with(Default::default);
            add(&mut total.easy, levels.easy, "difficulty counts")?;
            add(&mut total.medium, levels.medium, "difficulty counts")?;
            add(&mut total.hard, levels.hard, "difficulty counts")?;
            add(&mut total.expert, levels.expert, "difficulty counts")?;
            add(&mut total.extreme, levels.extreme, "difficulty counts")?;
        }
        if let Some(givens) = &r.givens {
            let total = merged.givens.get_or_insert_with(Default::default);
            for (&g, &n) in givens {
                add(total.entry(g).or_default(), n, "givens counts")?;
            }
        }
    }
    merged.puzzles_per_sec = if merged.wall_seconds > 0.0 {
        merged.records as f64 / merged.wall_seconds
    } else {
        0.0
    };
    merged.latency_ns = Latency::from_histogram(&histogram);
    merged.histogram = encode_histogram(&histogram);
    Ok((merged, histogram))
}

/// `total += n`, or the overflow named `what`.
fn add(total: &mut u64, n: u64, what: &'static str) -> Result<(), MergeError> {
    *total = total
        .checked_add(n)
        .ok_or_else(|| MergeError::Overflow(what.into()))?;
    Ok(())
}
