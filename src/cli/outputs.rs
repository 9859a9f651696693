//! Where rows go: the output, its format, reports, histograms and charts.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

/// Where results go, shared by the commands that write rows.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Output file (default: stdout). Regular files are replaced atomically.
    #[arg(help_heading = "Output", short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Write a JSON summary (counts, wall time, rate, latency percentiles) here.
    #[arg(help_heading = "Output", long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Write the per-puzzle latency distribution (HdrHistogram .hgrm text, microseconds).
    #[arg(help_heading = "Output", long, value_name = "FILE.hgrm")]
    pub histogram: Option<PathBuf>,
    /// Draw the latency distribution by percentile as an SVG chart.
    #[arg(help_heading = "Output", long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Print no summary on stderr.
    #[arg(help_heading = "Output", short, long)]
    pub quiet: bool,
    /// Never show a progress bar.
    #[arg(help_heading = "Output", long)]
    pub no_progress: bool,
}

/// Row formats of the record commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormatArg {
    /// CSV with a header: line,puzzle,solution,status,reason,mismatch (+ the command's).
    Csv,
    /// `puzzle solution status` per line (`-` for none), then the command's values.
    Lines,
    /// Printed grids: puzzle and solution side by side under a header line.
    Grid,
    /// One JSON object per record with the CSV's fields.
    Ndjson,
    /// The CSV's columns separated by tabs; `-o NAME.tsv` picks it too.
    Tsv,
    /// `puzzle solution` per line (`-` for none), the layout of most published corpora.
    Pairs,
    /// The CSV's columns as a typed Parquet file (`line` and counts as unsigned
    /// integers, `rating` as a double, `status` dictionary-encoded); `-o NAME.parquet`
    /// picks it too.
    Parquet,
}
