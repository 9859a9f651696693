//! Results as plain data: per-status counts, latency percentiles, and their exporters
//! (human summary, JSON, HdrHistogram `.hgrm` text). Measuring code never formats.

pub mod audit;
pub mod audit_merge;
pub mod bench;
pub mod merge;
pub mod plot;

use std::collections::BTreeMap;
use std::io::{self, Write};

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

use crate::values::geometry::MAX_CELLS;
use crate::values::level::Level;
use crate::values::status::Status;

/// Highest latency the histograms track exactly (60 s); larger values saturate.
pub const MAX_LATENCY_NS: u64 = 60_000_000_000;

/// A latency histogram in nanoseconds, 3 significant digits.
pub fn new_histogram() -> Histogram<u64> {
    // The bounds are constants that satisfy the crate's requirements (low >= 1,
    // high >= 2 * low, sigfig <= 5), so creation cannot fail.
    Histogram::new_with_bounds(1, MAX_LATENCY_NS, 3).expect("valid histogram bounds")
}

/// A set of statuses (`--only unique,multiple`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatusSet(u8);

/// The bit of [`StatusSet`] past the statuses': rows with a mismatched solution.
const MISMATCH_BIT: u8 = 1 << 6;

impl StatusSet {
    /// Every status.
    pub const ALL: StatusSet = StatusSet(0b11_1111);

    /// The set holding `statuses`.
    pub fn of(statuses: &[Status]) -> StatusSet {
        StatusSet(statuses.iter().fold(0, |bits, &s| bits | StatusSet::bit(s)))
    }

    /// True when `status` is in the set.
    #[inline]
    pub fn contains(self, status: Status) -> bool {
        self.0 & StatusSet::bit(status) != 0
    }

    /// The statuses in the set, in [`Status`] order.
    pub fn iter(self) -> impl Iterator<Item = Status> {
        Status::ALL.into_iter().filter(move |&s| self.contains(s))
    }

    /// The same set, also taking rows whose given solution is not the puzzle's
    /// (`--only mismatch`), whatever their status.
    pub fn with_mismatches(self) -> StatusSet {
        StatusSet(self.0 | MISMATCH_BIT)
    }

    /// True when a row of `status` whose given solution is `mismatch` is in the set.
    #[inline]
    pub fn takes(self, status: Status, mismatch: Option<bool>) -> bool {
        self.contains(status) || (mismatch == Some(true) && self.0 & MISMATCH_BIT != 0)
    }

    fn bit(status: Status) -> u8 {
        1 << status as u8
    }
}

/// Records per status.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusCounts {
    /// `unique` records.
    pub unique: u64,
    /// `multiple` records.
    pub multiple: u64,
    /// `solved` records.
    pub solved: u64,
    /// `unsolvable` records.
    pub unsolvable: u64,
    /// `invalid` records.
    pub invalid: u64,
    /// `undecided` records (absent from reports written before this status existed).
    #[serde(default)]
    pub undecided: u64,
}

impl StatusCounts {
    /// Counts one record.
    #[inline]
    pub fn add(&mut self, status: Status) {
        *self.get_mut(status) += 1;
    }

    /// The count of one status.
    pub fn get(&self, status: Status) -> u64 {
        match status {
            Status::Unique => self.unique,
            Status::Multiple => self.multiple,
            Status::Solved => self.solved,
            Status::Unsolvable => self.unsolvable,
            Status::Invalid => self.invalid,
            Status::Undecided => self.undecided,
        }
    }

    /// The count of one status, to change.
    pub fn get_mut(&mut self, status: Status) -> &mut u64 {
        match status {
            Status::Unique => &mut self.unique,
            Status::Multiple => &mut self.multiple,
            Status::Solved => &mut self.solved,
            Status::Unsolvable => &mut self.unsolvable,
            Status::Invalid => &mut self.invalid,
            Status::Undecided => &mut self.undecided,
        }
    }

    /// Each status with its count, in [`Status::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Status, u64)> + '_ {
        Status::ALL.into_iter().map(|s| (s, self.get(s)))
    }

    /// Adds another set of counts.
    pub fn merge(&mut self, other: &StatusCounts) {
        for (status, n) in other.iter() {
            *self.get_mut(status) += n;
        }
    }

    /// All records counted.
    pub fn total(&self) -> u64 {
        self.iter().map(|(_, n)| n).sum()
    }
}

/// Records by difficulty level and by number of givens, for jobs that grade or make
/// puzzles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// Records per [`Level`], in [`Level::ALL`] order.
    pub levels: [u64; 5],
    /// Records per number of givens (0..=625: boards up to 25x25).
    pub givens: [u64; MAX_CELLS + 1],
    /// Records whose ratings are lower bounds (the rater stopped early).
    pub lower_bounds: u64,
}

impl Default for Breakdown {
    fn default() -> Self {
        Breakdown {
            levels: [0; 5],
            givens: [0; MAX_CELLS + 1],
            lower_bounds: 0,
        }
    }
}

impl Breakdown {
    /// Adds another breakdown.
    pub fn merge(&mut self, other: &Breakdown) {
        for (a, b) in self.levels.iter_mut().zip(&other.levels) {
            *a += b;
        }
        for (a, b) in self.givens.iter_mut().zip(&other.givens) {
            *a += b;
        }
        self.lower_bounds += other.lower_bounds;
    }

    /// Records per level, when any record was graded.
    pub fn level_counts(&self) -> Option<LevelCounts> {
        let [easy, medium, hard, expert, extreme] = self.levels;
        (self.levels.iter().sum::<u64>() > 0).then_some(LevelCounts {
            easy,
            medium,
            hard,
            expert,
            extreme,
        })
    }

    /// Records per number of givens (nonzero entries), when any was counted.
    pub fn givens_counts(&self) -> Option<BTreeMap<u16, u64>> {
        (self.givens.iter().sum::<u64>() > 0).then(|| {
            (0u16..)
                .zip(&self.givens)
                .filter(|(_, &n)| n > 0)
                .map(|(g, &n)| (g, n))
                .collect()
        })
    }
}

/// Records per difficulty level, easiest first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelCounts {
    /// `easy` records.
    pub easy: u64,
    /// `medium` records.
    pub medium: u64,
    /// `hard` records.
    pub hard: u64,
    /// `expert` records.
    pub expert: u64,
    /// `extreme` records.
    pub extreme: u64,
}

impl LevelCounts {
    /// (level, count) pairs, easiest first.
    pub fn pairs(&self) -> [(Level, u64); 5] {
        [
            (Level::Easy, self.easy),
            (Level::Medium, self.medium),
            (Level::Hard, self.hard),
            (Level::Expert, self.expert),
            (Level::Extreme, self.extreme),
        ]
    }
}

/// Latency percentiles in nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Latency {
    /// Median.
    pub p50: u64,
    /// 90th percentile.
    pub p90: u64,
    /// 99th percentile.
    pub p99: u64,
    /// 99.9th percentile.
    pub p999: u64,
    /// Largest recorded.
    pub max: u64,
    /// Arithmetic mean.
    pub mean: f64,
}

impl Latency {
    /// Percentiles of a histogram (all zero when it is empty).
    pub fn from_histogram(h: &Histogram<u64>) -> Latency {
        if h.is_empty() {
            return Latency::default();
        }
        Latency {
            p50: h.value_at_quantile(0.50),
            p90: h.value_at_quantile(0.90),
            p99: h.value_at_quantile(0.99),
            p999: h.value_at_quantile(0.999),
            max: h.max(),
            mean: h.mean(),
        }
    }
}

/// Summary of a run, written as JSON by `--report`; `merge` reads these back.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunReport {
    /// `solve` or `classify`.
    pub command: String,
    /// The input path, `-` for stdin.
    pub input: String,
    /// How the input was read: its layout, and for CSV its header and columns.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub layout: String,
    /// Records read from the input.
    pub records: u64,
    /// Rows written to the output (equals `records` less `left_out` on every successful
    /// run).
    pub rows_written: u64,
    /// Records whose rows `--only` or a rating filter left out.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub left_out: u64,
    /// Records per status.
    pub counts: StatusCounts,
    /// Records whose solution given in the input differs from the computed one.
    pub mismatches: u64,
    /// Wall-clock seconds from opening the input to the output committed (a regular
    /// file's rows flushed to disk and renamed into place: [`RunReport::add_commit`]);
    /// in a `--report-line`, written into the output before that, to the last row.
    pub wall_seconds: f64,
    /// Records per second over the wall time.
    pub puzzles_per_sec: f64,
    /// Worker threads used.
    pub threads: usize,
    /// Per-puzzle solver latency in nanoseconds (parse and output excluded).
    pub latency_ns: Latency,
    /// Line numbers of the first records that were not `unique` (classify), at most 10.
    pub first_not_unique: Vec<u64>,
    /// Line numbers of the first records whose given solution is not the puzzle's, at
    /// most 10.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub first_mismatches: Vec<u64>,
    /// Records on which two engines disagreed (`classify --cross-check` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disagree: Option<u64>,
    /// Line numbers of the first of them, at most 10.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub first_disagree: Vec<u64>,
    /// Records both engines classified (`classify --cross-check`; malformed records and
    /// variant boards, which have one engine, are not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cross_checked: Option<u64>,
    /// Records per difficulty level (`grade`, `generate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<LevelCounts>,
    /// Records per number of givens (`generate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub givens: Option<BTreeMap<u16, u64>>,
    /// Records whose ratings are lower bounds (`grade`: the rater's budget ran out, or
    /// no reproduced rule applied).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lower_bounds: u64,
    /// The whole latency histogram (nanoseconds), HdrHistogram V2 with deflate, base64:
    /// what `merge` adds up exactly.
    #[serde(default)]
    pub histogram: String,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A histogram as HdrHistogram's V2 deflate encoding, in base64.
pub fn encode_histogram(h: &Histogram<u64>) -> String {
    use base64::Engine as _;
    use hdrhistogram::serialization::{Serializer, V2DeflateSerializer};
    let mut bytes = Vec::new();
    // Serialising to a Vec only fails for histograms too large to encode, which these
    // bounded latency histograms are not; an empty string then says "not available".
    match V2DeflateSerializer::new().serialize(h, &mut bytes) {
        Ok(_) => base64::engine::general_purpose::STANDARD.encode(bytes),
        Err(_) => String::new(),
    }
}

/// The histogram of [`encode_histogram`].
pub fn decode_histogram(text: &str) -> Result<Histogram<u64>, String> {
    use base64::Engine as _;
    if text.len() > MAX_HISTOGRAM_TEXT {
        return Err(format!(
            "histogram of {} bytes, over the {MAX_HISTOGRAM_TEXT} one of this tool's takes",
            text.len()
        ));
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(text.trim())
        .map_err(|e| format!("histogram is not base64: {e}"))?;
    check_histogram_header(&bytes)?;
    hdrhistogram::serialization::Deserializer::new()
        .deserialize(&mut &bytes[..])
        .map_err(|e| format!("histogram does not decode: {e:?}"))
}

/// The longest histogram text read back: this tool's histograms (1 ns to 60 s, three
/// significant digits) take at most a few hundred KB even when every bucket is used.
const MAX_HISTOGRAM_TEXT: usize = 4 << 20;

/// Checks what a serialised histogram declares before anything is allocated for it:
/// the bounds and precision of this tool's histograms, and a payload no larger than
/// they need, so that a report claiming gigabytes is refused, not believed.
fn check_histogram_header(bytes: &[u8]) -> Result<(), String> {
    use std::io::Read as _;
    const V2: u32 = 0x1c84_9303;
    const V2_DEFLATE: u32 = 0x1c84_9304;
    let word = |b: &[u8], at: usize| -> Option<u32> {
        Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
    };
    let long = |b: &[u8], at: usize| -> Option<u64> {
        Some(u64::from_be_bytes(b.get(at..at + 8)?.try_into().ok()?))
    };
    let short = || "histogram too short".to_string();
    let mut inner = Vec::new();
    // The cookies' bits 4-7 carry a word size (0x10 in this crate's), not the format.
    let cookie = word(bytes, 0).ok_or_else(short)?;
    let header: &[u8] = match cookie & !0xf0 {
        V2 => bytes,
        V2_DEFLATE => {
            // The V2 header is the first 40 bytes of the compressed encoding.
            flate2::read::ZlibDecoder::new(bytes.get(8..).ok_or_else(short)?)
                .take(40)
                .read_to_end(&mut inner)
                .map_err(|e| format!("histogram does not decode: {e}"))?;
            &inner
        }
        _ => return Err(format!("not a histogram (cookie {cookie:#x})")),
    };
    let (payload, sigfigs) = (
        word(header, 4).ok_or_else(short)?,
        word(header, 12).ok_or_else(short)?,
    );
    let (low, high) = (
        long(header, 16).ok_or_else(short)?,
        long(header, 24).ok_or_else(short)?,
    );
    if (low, high, sigfigs) != (1, MAX_LATENCY_NS, 3) {
        return Err(format!(
            "histogram of {low}..{high} ns at {sigfigs} digits: not one of this tool's \
             (1..{MAX_LATENCY_NS} ns at 3 digits)"
        ));
    }
    if payload as usize > MAX_HISTOGRAM_TEXT {
        return Err(format!("histogram declares a payload of {payload} bytes"));
    }
    Ok(())
}

impl RunReport {
    /// Counts `seconds` spent committing the output after the last row (flush, fsync
    /// and rename of a regular file) in the run's wall time and rate: the rows are not
    /// the user's until then, and the wait grows with the output (on a 2-core AMD EPYC,
    /// 1M records' 180 MB took 0.15 s of fsync beside a 1.07 s run on 2 threads).
    pub fn add_commit(&mut self, seconds: f64) {
        self.wall_seconds += seconds;
        if self.wall_seconds > 0.0 {
            self.puzzles_per_sec = self.records as f64 / self.wall_seconds;
        }
    }

    /// Writes the human summary shown on stderr.
    pub fn write_summary(&self, out: &mut dyn Write) -> io::Result<()> {
        let c = &self.counts;
        let accounted = self.rows_written.checked_add(self.left_out);
        writeln!(
            out,
            "{}: {} records in, {} rows out{}{}",
            self.input,
            self.records,
            self.rows_written,
            if self.left_out > 0 {
                format!(" ({} left out by --only or a rating filter)", self.left_out)
            } else {
                String::new()
            },
            if accounted == Some(self.records) {
                ""
            } else {
                " (MISMATCH: records lost)"
            }
        )?;
        if !self.layout.is_empty() {
            writeln!(out, "  read as {}", self.layout)?;
        }
        let mut parts = Vec::new();
        for (status, n) in c.iter() {
            if n > 0 {
                parts.push(format!("{} {n}", status.word()));
            }
        }
        if self.mismatches > 0 {
            parts.push(format!("solution mismatches {}", self.mismatches));
        }
        match self.disagree {
            None => {}
            Some(0) => parts.push(format!(
                "engines agree on all {} records checked",
                self.cross_checked.unwrap_or(0)
            )),
            Some(n) => {
                let lines: Vec<String> = self.first_disagree.iter().map(u64::to_string).collect();
                parts.push(format!(
                    "engines DISAGREE on {n} (lines {})",
                    lines.join(", ")
                ));
            }
        }
        if parts.is_empty() {
            parts.push("no records".to_string());
        }
        writeln!(out, "  {}", parts.join(", "))?;
        if self.records > 0 && c.invalid == self.records {
            writeln!(
                out,
                "  every record is invalid: see the reasons in the rows; check --column, \
                 --format and --delimiter (the line above says how the input was read)"
            )?;
        }
        if let Some(levels) = &self.difficulty {
            let parts: Vec<String> = levels
                .pairs()
                .iter()
                .map(|(l, n)| format!("{} {n}", l.name()))
                .collect();
            writeln!(out, "  difficulty: {}", parts.join(", "))?;
        }
        if self.lower_bounds > 0 {
            writeln!(
                out,
                "  {} ratings are lower bounds (column bound; --rating-budget)",
                self.lower_bounds
            )?;
        }
        if let Some(givens) = &self.givens {
            let parts: Vec<String> = givens.iter().map(|(g, n)| format!("{g}:{n}")).collect();
            writeln!(out, "  givens (count:records): {}", parts.join(" "))?;
        }
        writeln!(
            out,
            "  {:.3} s wall, {:.0} puzzles/s, {}",
            self.wall_seconds,
            self.puzzles_per_sec,
            bench::threads_label(self.threads)
        )?;
        let l = &self.latency_ns;
        writeln!(
            out,
            "  latency us: p50 {:.1}  p90 {:.1}  p99 {:.1}  p99.9 {:.1}  max {:.1}",
            l.p50 as f64 / 1e3,
            l.p90 as f64 / 1e3,
            l.p99 as f64 / 1e3,
            l.p999 as f64 / 1e3,
            l.max as f64 / 1e3
        )
    }
}

/// Writes a histogram in HdrHistogram's percentile-distribution text format (`.hgrm`),
/// values in microseconds, as HdrHistogram's plotters read it.
pub fn write_hgrm(h: &Histogram<u64>, out: &mut dyn Write) -> io::Result<()> {
    const SCALE: f64 = 1000.0;
    writeln!(
        out,
        "{:>12} {:>14} {:>10} {:>14}\n",
        "Value", "Percentile", "TotalCount", "1/(1-Percentile)"
    )?;
    let mut total = 0u64;
    for v in h.iter_quantiles(5) {
        total += v.count_since_last_iteration();
        let q = v.quantile_iterated_to();
        let value = h.highest_equivalent(v.value_iterated_to()) as f64 / SCALE;
        if q < 1.0 {
            writeln!(
                out,
                "{value:12.3} {q:2.12} {total:10} {:14.2}",
                1.0 / (1.0 - q)
            )?;
        } else {
            writeln!(out, "{value:12.3} {q:2.12} {total:10}")?;
        }
    }
    let sub_buckets = 2u64 * 10u64.pow(h.sigfig() as u32);
    writeln!(
        out,
        "#[Mean    = {:12.3}, StdDeviation   = {:12.3}]",
        h.mean() / SCALE,
        h.stdev() / SCALE
    )?;
    writeln!(
        out,
        "#[Max     = {:12.3}, Total count    = {:12}]",
        h.max() as f64 / SCALE,
        h.len()
    )?;
    writeln!(
        out,
        "#[Buckets = {:12}, SubBuckets     = {:12}]",
        h.buckets(),
        sub_buckets.next_power_of_two()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hgrm_has_header_rows_and_footer() {
        let mut h = new_histogram();
        for v in 1..=1000u64 {
            h.record(v * 1000).unwrap();
        }
        let mut out = Vec::new();
        write_hgrm(&h, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("       Value     Percentile TotalCount 1/(1-Percentile)"));
        assert!(text.contains("#[Max     =     1000.447, Total count    =         1000]"));
        let last_row = text.lines().rfind(|l| !l.starts_with('#')).unwrap();
        assert!(last_row.contains("1.000000000000"));
    }

    #[test]
    fn latency_percentiles_are_ordered() {
        let mut h = new_histogram();
        for v in [5u64, 10, 100, 1000, 10_000] {
            h.record(v).unwrap();
        }
        let l = Latency::from_histogram(&h);
        assert!(l.p50 <= l.p90 && l.p90 <= l.p99 && l.p99 <= l.p999 && l.p999 <= l.max);
    }
}
