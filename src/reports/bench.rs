//! What `bench` measured, as plain data (serialised to JSON), and its text and markdown
//! tables. The measuring itself is the dataset layer's `bench`.

use serde::Serialize;

use crate::reports::Latency;

/// What a pass computes per puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BenchMode {
    /// First solution.
    Solve,
    /// Solutions counted up to two.
    Count,
}

impl BenchMode {
    /// The mode's name, as `--mode` takes it.
    pub fn name(self) -> &'static str {
        match self {
            BenchMode::Solve => "solve",
            BenchMode::Count => "count",
        }
    }
}

/// Throughput across rounds.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Rate {
    /// Median of the rounds' puzzles/s.
    pub median: f64,
    /// Mean of the rounds' puzzles/s.
    pub mean: f64,
    /// Sample standard deviation of the rounds' puzzles/s (0 for one round).
    pub stddev: f64,
    /// Slowest round.
    pub min: f64,
    /// Fastest round.
    pub max: f64,
}

/// Results for one thread count.
#[derive(Clone, Debug, Serialize)]
pub struct ThreadResult {
    /// Worker threads.
    pub threads: usize,
    /// Puzzles per second over the timed rounds.
    pub puzzles_per_sec: Rate,
    /// Median rate relative to the first thread count's median rate.
    pub speedup: f64,
    /// `speedup` divided by the thread ratio.
    pub efficiency: f64,
    /// Per-puzzle latency in nanoseconds over all timed rounds.
    pub latency_ns: Latency,
}

/// Search effort per puzzle (independent of thread count).
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Effort {
    /// Mean guesses per puzzle.
    pub guesses_per_puzzle: f64,
    /// Percentage of puzzles solved without any guess.
    pub no_guess_percent: f64,
}

/// Everything `bench --json` writes.
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    /// The input path.
    pub input: String,
    /// Records in the input (timed plus invalid).
    pub records: u64,
    /// Records timed.
    pub timed: u64,
    /// Records excluded from timing as invalid.
    pub invalid: u64,
    /// Seconds spent parsing, before any timing.
    pub parse_seconds: f64,
    /// What was timed.
    pub mode: BenchMode,
    /// Untimed passes per thread count.
    pub warmup: u32,
    /// Timed passes per thread count.
    pub rounds: u32,
    /// Search effort.
    pub effort: Effort,
    /// One entry per thread count, in the order asked.
    pub results: Vec<ThreadResult>,
}

/// Median, mean, standard deviation, min and max of per-round rates.
pub fn summarise(rates: &[f64]) -> Rate {
    let mut sorted = rates.to_vec();
    sorted.sort_by(|a, b| a.total_cmp(b));
    let n = sorted.len();
    let median = if n == 0 {
        0.0
    } else if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    };
    let mean = if n == 0 {
        0.0
    } else {
        sorted.iter().sum::<f64>() / n as f64
    };
    let stddev = if n < 2 {
        0.0
    } else {
        (sorted.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt()
    };
    Rate {
        median,
        mean,
        stddev,
        min: sorted.first().copied().unwrap_or(0.0),
        max: sorted.last().copied().unwrap_or(0.0),
    }
}

/// `1 thread`, `2 threads`.
pub fn threads_label(threads: usize) -> String {
    if threads == 1 {
        "1 thread".into()
    } else {
        format!("{threads} threads")
    }
}

/// The readable table printed by `bench`.
pub fn table(report: &BenchReport) -> String {
    let mut s = format!(
        "{}: {} records ({} timed, {} invalid excluded), parsed in {:.3} s; mode {}, \
         {} warmup + {} timed rounds\n\
         guesses/puzzle {:.2}, solved without guessing {:.1}%\n\n",
        report.input,
        report.records,
        report.timed,
        report.invalid,
        report.parse_seconds,
        report.mode.name(),
        report.warmup,
        report.rounds,
        report.effort.guesses_per_puzzle,
        report.effort.no_guess_percent,
    );
    s.push_str(
        "            puzzles/s: median     mean ± σ             min …       max  speedup  \
         effic.  p50 us  p90 us  p99 us  p99.9 us   max us\n",
    );
    for r in &report.results {
        let l = &r.latency_ns;
        let rate = &r.puzzles_per_sec;
        // One round has no spread to show.
        let stddev = if report.rounds > 1 {
            format!("{:>8.0}", rate.stddev)
        } else {
            format!("{:>8}", "-")
        };
        s.push_str(&format!(
            "{:>10}  {:>11.0}  {:>11.0} ± {stddev}  {:>9.0} … {:>9.0}  {:>7.2}  {:>6.2}  \
             {:>6.2}  {:>6.2}  {:>6.2}  {:>8.2}  {:>7.1}\n",
            threads_label(r.threads),
            rate.median,
            rate.mean,
            rate.min,
            rate.max,
            r.speedup,
            r.efficiency,
            l.p50 as f64 / 1e3,
            l.p90 as f64 / 1e3,
            l.p99 as f64 / 1e3,
            l.p999 as f64 / 1e3,
            l.max as f64 / 1e3,
        ));
    }
    s.push_str("\nspeedup and efficiency are of the medians, against the first thread count.\n");
    s
}

/// The shortest timed round worth trusting (as hyperfine warns under 5 ms).
pub const SHORTEST_ROUND_SECONDS: f64 = 0.005;

/// A warning when `report`'s rounds were too short to time well: the seconds a round
/// took at the fastest thread count, when under [`SHORTEST_ROUND_SECONDS`].
pub fn short_rounds(report: &BenchReport) -> Option<f64> {
    let fastest = report
        .results
        .iter()
        .map(|r| r.puzzles_per_sec.max)
        .fold(0.0f64, f64::max);
    let seconds = report.timed as f64 / fastest.max(1e-9);
    (fastest > 0.0 && seconds < SHORTEST_ROUND_SECONDS).then_some(seconds)
}

/// Header of the markdown table printed by `bench --markdown`.
pub const MARKDOWN_HEADER: &str = "| dataset | records | mode | threads | puzzles/s | speedup \
    | us/puzzle p50 | us/puzzle p99 | guesses/puzzle | no guess |\n\
    |---|---:|---|---:|---:|---:|---:|---:|---:|---:|\n";

/// The results as markdown table rows, one per thread count, after [`MARKDOWN_HEADER`].
pub fn markdown(report: &BenchReport) -> String {
    let name = std::path::Path::new(&report.input).file_name().map_or_else(
        || report.input.clone(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut s = String::from(MARKDOWN_HEADER);
    for r in &report.results {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {:.0} | {:.2} | {:.2} | {:.2} | {:.2} | {:.1}% |\n",
            name,
            report.timed,
            match report.mode {
                BenchMode::Solve => "solve",
                BenchMode::Count => "count",
            },
            r.threads,
            r.puzzles_per_sec.median,
            r.speedup,
            r.latency_ns.p50 as f64 / 1e3,
            r.latency_ns.p99 as f64 / 1e3,
            report.effort.guesses_per_puzzle,
            report.effort.no_guess_percent,
        ));
    }
    s
}

/// The columns of [`rows`].
pub const ROW_COLUMNS: [&str; 19] = [
    "dataset",
    "records",
    "mode",
    "threads",
    "puzzles_per_sec",
    "puzzles_per_sec_mean",
    "puzzles_per_sec_stddev",
    "puzzles_per_sec_min",
    "puzzles_per_sec_max",
    "speedup",
    "efficiency",
    "latency_us_p50",
    "latency_us_p90",
    "latency_us_p99",
    "latency_us_p999",
    "latency_us_max",
    "guesses_per_puzzle",
    "no_guess_percent",
    "rounds",
];

/// The results as CSV rows under [`ROW_COLUMNS`], one per thread count: the numbers of
/// the readable table at full precision (`puzzles_per_sec` is the median; `records`
/// those timed; the standard deviation empty for one round).
pub fn rows(report: &BenchReport) -> String {
    let mut s = ROW_COLUMNS.join(",");
    s.push('\n');
    let mut dataset = Vec::new();
    dataset.extend_from_slice(report.input.as_bytes());
    crate::pipeline::rows::quote_tail(&mut dataset, 0, b',');
    let dataset = String::from_utf8_lossy(&dataset);
    for r in &report.results {
        let (l, rate) = (&r.latency_ns, &r.puzzles_per_sec);
        let stddev = match report.rounds > 1 {
            true => rate.stddev.to_string(),
            false => String::new(),
        };
        let us = |ns: u64| ns as f64 / 1e3;
        s.push_str(&format!(
            "{dataset},{},{},{},{},{},{stddev},{},{},{},{},{},{},{},{},{},{},{},{}\n",
            report.timed,
            report.mode.name(),
            r.threads,
            rate.median,
            rate.mean,
            rate.min,
            rate.max,
            r.speedup,
            r.efficiency,
            us(l.p50),
            us(l.p90),
            us(l.p99),
            us(l.p999),
            us(l.max),
            report.effort.guesses_per_puzzle,
            report.effort.no_guess_percent,
            report.rounds,
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_even_and_odd() {
        assert_eq!(summarise(&[3.0, 1.0, 2.0]).median, 2.0);
        let r = summarise(&[4.0, 1.0, 2.0, 3.0]);
        assert_eq!((r.median, r.min, r.max), (2.5, 1.0, 4.0));
    }

    #[test]
    fn mean_and_sample_deviation() {
        let r = summarise(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]);
        assert_eq!(r.mean, 5.0);
        // Sum of squares 32 over n - 1 = 7.
        assert!((r.stddev - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        assert_eq!(summarise(&[3.0]).stddev, 0.0);
        assert_eq!(
            (threads_label(1), threads_label(4)),
            ("1 thread".into(), "4 threads".into())
        );
    }
}
