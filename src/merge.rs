//! `merge`: the reports of a run's parts (shards, Spark partitions, Slurm tasks) added
//! up into the report of the whole, exactly: counts are summed and the latency
//! histograms merged, so percentiles are those of all records together (within
//! HdrHistogram's three significant digits), not averages of the parts' percentiles.
//!
//! Times: the parts are assumed to have run side by side, so the merged `wall_seconds`
//! is the slowest part's and `puzzles_per_sec` is all records over that time; `threads`
//! is the parts' threads added up.

use hdrhistogram::Histogram;

use crate::report::{decode_histogram, encode_histogram, new_histogram, Latency, RunReport};

/// Why reports cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MergeError {
    /// No report was given.
    Empty,
    /// Reports of different commands.
    Commands(String, String),
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
            MergeError::Histogram { index, message } => {
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
    merged.counts = Default::default();
    merged.threads = 0;
    merged.wall_seconds = 0.0;
    merged.first_not_unique.clear();
    merged.disagree = None;
    merged.cross_checked = None;
    merged.first_disagree.clear();
    merged.difficulty = None;
    merged.givens = None;
    for (i, r) in reports.iter().enumerate() {
        if r.command != first.command {
            return Err(MergeError::Commands(
                first.command.clone(),
                r.command.clone(),
            ));
        }
        let part = if r.histogram.is_empty() && r.records == 0 {
            new_histogram()
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
        merged.records += r.records;
        merged.rows_written += r.rows_written;
        merged.mismatches += r.mismatches;
        merged.counts.merge(&r.counts);
        merged.threads += r.threads;
        merged.wall_seconds = merged.wall_seconds.max(r.wall_seconds);
        if let Some(n) = r.disagree {
            *merged.disagree.get_or_insert(0) += n;
        }
        if let Some(n) = r.cross_checked {
            *merged.cross_checked.get_or_insert(0) += n;
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
        if let Some(levels) = &r.difficulty {
            let total = merged.difficulty.get_or_insert_with(Default::default);
            total.easy += levels.easy;
            total.medium += levels.medium;
            total.hard += levels.hard;
            total.expert += levels.expert;
            total.extreme += levels.extreme;
        }
        if let Some(givens) = &r.givens {
            let total = merged.givens.get_or_insert_with(Default::default);
            for (&g, &n) in givens {
                *total.entry(g).or_default() += n;
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
