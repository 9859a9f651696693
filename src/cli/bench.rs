//! `bench`'s options.

use std::path::PathBuf;

use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};

use super::{BoardArgs, EngineArg, LayoutArgs};

pub use crate::reports::bench::BenchMode;

/// `--mode`'s words: the report's own value, read by clap.
impl ValueEnum for BenchMode {
    fn value_variants<'a>() -> &'a [Self] {
        &[BenchMode::Solve, BenchMode::Count]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            BenchMode::Solve => PossibleValue::new("solve").help("First solution"),
            BenchMode::Count => {
                PossibleValue::new("count").help("Solutions counted up to two (uniqueness check)")
            }
        })
    }
}

/// Options of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Print no warning or note on stderr (the table still goes to stdout: it is the
    /// result; `--report`, `--plot` and `--histogram` write files besides).
    #[arg(short, long)]
    pub quiet: bool,
    /// Never show a progress bar (one counts the passes on a terminal only, between
    /// passes, outside the timed work).
    #[arg(long)]
    pub no_progress: bool,
    /// Input file, or `-` for stdin (read whole: records are loaded once and reused).
    pub input: PathBuf,
    /// The member of a zip archive to read (default: its only file).
    #[arg(long, value_name = "NAME")]
    pub member: Option<String>,
    /// What to time.
    #[arg(long, value_enum, default_value_t = BenchMode::Count)]
    pub mode: BenchMode,
    /// Engine to time.
    #[arg(long, value_enum, default_value_t = EngineArg::Fast)]
    pub engine: EngineArg,
    /// Geometry and rules of the boards (variant boards are timed on the variant engine).
    #[command(flatten)]
    pub boards: BoardArgs,
    /// Untimed passes before timing.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub warmup: u32,
    /// Timed passes; their median, mean ± σ and min … max are reported, speedups are of
    /// the medians.
    #[arg(long, default_value_t = 5, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub rounds: u32,
    /// Thread counts to sweep, comma-separated (default: 1 and all cores).
    #[arg(long, value_delimiter = ',', value_name = "N,N,...",
          value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Vec<u16>,
    /// Format, column and delimiter.
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// Write the results as JSON here (`--json` is the same).
    #[arg(long, visible_alias = "json", value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Write one .hgrm latency file per thread count: FILE with `.tN` before the extension.
    #[arg(long, value_name = "FILE.hgrm")]
    pub histogram: Option<PathBuf>,
    /// Draw puzzles/s against threads (with the ideal linear line) and the latency
    /// percentiles per thread count as an SVG chart.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Print a markdown table (dataset, records, mode, threads, puzzles/s, speedup,
    /// us/puzzle p50, us/puzzle p99, guesses/puzzle, no guess) instead of the readable
    /// table (the same as --output-format markdown).
    #[arg(long, conflicts_with = "output_format")]
    pub markdown: bool,
    /// How the results are written: the readable table, markdown, or one row per thread
    /// count as a table (`dataset`, `records`, `mode`, `threads`, `puzzles_per_sec` and its
    /// `_mean`, `_stddev`, `_min`, `_max`, `speedup`, `efficiency`, `latency_us_p50` ..
    /// `_max`, `guesses_per_puzzle`, `no_guess_percent`). Default: by -o's name, else text.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<BenchFormatArg>,
    /// Write the results here instead of stdout (a table format by its name: .csv,
    /// .tsv, .ndjson, .parquet; .gz or .zst after it to compress).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
}

/// How `bench` writes its results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchFormatArg {
    /// The readable table.
    Text,
    /// A markdown table.
    Markdown,
    /// CSV rows, a header first.
    Csv,
    /// Tab-separated rows.
    Tsv,
    /// One JSON object per thread count.
    Ndjson,
    /// A Parquet file.
    Parquet,
}
