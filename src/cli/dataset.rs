//! The dataset commands' options: `dedupe`, `overlap`, `split` and `corpus`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::{InputArgs, LayoutArgs};

/// What makes two records the same for `dedupe` and `overlap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ByArg {
    /// Equivalent puzzles (the same canonical form): relabelled, shuffled or transposed
    /// copies are duplicates.
    Canonical,
    /// The same cells as read (`.` and `0` alike).
    Text,
}
/// The formats of the dataset commands' outputs: tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TableFormatArg {
    /// Comma-separated, a header first.
    Csv,
    /// Tab-separated, a header first.
    Tsv,
    /// One JSON object per row (an empty field `null`).
    Ndjson,
    /// A Parquet file (the command's own line columns as integers, the rest text).
    Parquet,
}

/// Options of `dedupe`.
#[derive(Debug, Args)]
pub struct DedupeArgs {
    /// Input, threads and input format.
    #[command(flatten)]
    pub input: InputArgs,
    /// What makes two records duplicates.
    #[arg(long, value_enum, default_value_t = ByArg::Canonical)]
    pub by: ByArg,
    /// Output file for the kept records (default: stdout), in the input's format unless
    /// its name or --output-format asks for another.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Write the kept records as this table instead of as read (a CSV input's own
    /// columns; `puzzle,solution` for one puzzle per line).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<TableFormatArg>,
    /// Write one row per input record, `line,duplicate_of` (the line of the first record
    /// of its class; empty for that first one), as CSV or the format its name says
    /// (.tsv, .ndjson, .parquet, .gz/.zst after it).
    #[arg(long, value_name = "FILE.csv")]
    pub rows: Option<PathBuf>,
    /// Add a `record` column to the --rows file: the record's 0-based index in the
    /// input (`df.iloc[record]`).
    #[arg(long, requires = "rows")]
    pub record_index: bool,
    /// Write a JSON summary (records, classes, duplicates, largest classes) here.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Print no summary on stderr (and no progress bar).
    #[arg(short, long)]
    pub quiet: bool,
    /// Never show a progress bar (one is drawn on a terminal only).
    #[arg(long)]
    pub no_progress: bool,
}
/// Options of `overlap`.
#[derive(Debug, Args)]
pub struct OverlapArgs {
    /// The training set.
    pub train: PathBuf,
    /// The test set: each of its records is looked up in the training set.
    pub test: PathBuf,
    /// The member of TRAIN to read when it is a zip archive (default: its only file).
    #[arg(long, value_name = "NAME")]
    pub train_member: Option<String>,
    /// The member of TEST to read when it is a zip archive (default: its only file).
    #[arg(long, value_name = "NAME")]
    pub test_member: Option<String>,
    /// What makes two records the same.
    #[arg(long, value_enum, default_value_t = ByArg::Canonical)]
    pub by: ByArg,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Format, column and delimiter (of both files).
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// The CSV column holding TRAIN's puzzles, where it is not --column's.
    #[arg(help_heading = "Input", long, value_name = "NAME|INDEX")]
    pub train_column: Option<String>,
    /// The CSV column holding TEST's puzzles, where it is not --column's.
    #[arg(help_heading = "Input", long, value_name = "NAME|INDEX")]
    pub test_column: Option<String>,
    /// Output file for the rows `line,train_line,test_duplicate_of`, one per test record
    /// (default: stdout), as CSV or the format its name says (.tsv, .ndjson, .parquet,
    /// .gz/.zst after it).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// The rows' format, whatever the output's name.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<TableFormatArg>,
    /// Add a `record` column: the test record's 0-based index in TEST.
    #[arg(long)]
    pub record_index: bool,
    /// Add the test record's own fields after the columns (a CSV's columns by their
    /// header's names; `input` for a whole line).
    #[arg(long)]
    pub keep_columns: bool,
    /// Write a JSON summary (records, leaks, duplicates inside the test set) here.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Exit with status 1 when a test record has an equivalent in the training set.
    #[arg(long)]
    pub require_disjoint: bool,
    /// Print no summary on stderr (and no progress bar).
    #[arg(short, long)]
    pub quiet: bool,
    /// Never show a progress bar (one is drawn on a terminal only).
    #[arg(long)]
    pub no_progress: bool,
}
/// Options of `split`.
#[derive(Debug, Args)]
pub struct SplitArgs {
    /// Input, threads and input format.
    #[command(flatten)]
    pub input: InputArgs,
    /// Share of the records to put on the test side, above 0 and below 1.
    #[arg(long = "test", value_name = "FRACTION")]
    pub fraction: f64,
    /// Random seed: the same seed splits the same classes the same way.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// What makes two records the same class.
    #[arg(long, value_enum, default_value_t = ByArg::Canonical)]
    pub by: ByArg,
    /// Training output (default: the input's name with `.train` before its extension,
    /// in the current directory).
    #[arg(long, value_name = "FILE")]
    pub train_out: Option<PathBuf>,
    /// Test output (default: the input's name with `.test` before its extension, in the
    /// current directory).
    #[arg(long, value_name = "FILE")]
    pub test_out: Option<PathBuf>,
    /// Write both sides as this table instead of as read (a CSV input's own columns;
    /// `puzzle,solution` for one puzzle per line).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub output_format: Option<TableFormatArg>,
    /// Write a JSON summary (records and classes on each side) here.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Print no summary on stderr (and no progress bar).
    #[arg(short, long)]
    pub quiet: bool,
    /// Never show a progress bar (one is drawn on a terminal only).
    #[arg(long)]
    pub no_progress: bool,
}
