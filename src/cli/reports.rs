//! The options of the commands that read rows and reports back: `merge` and `show`.

use std::path::PathBuf;

use clap::Args;

use super::LayoutArgs;

/// Options of `merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Reports written by --report (or --report-line), in input order.
    #[arg(required = true, value_name = "REPORT.json")]
    pub reports: Vec<PathBuf>,
    /// Write the merged report here (default: stdout).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Write the merged latency distribution (.hgrm) here.
    #[arg(long, value_name = "FILE.hgrm")]
    pub histogram: Option<PathBuf>,
    /// Print no summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Options of `show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Input file (any format the other commands read), or `-` for stdin.
    pub input: PathBuf,
    /// Line of a record to show (repeat for more); default: the first record.
    #[arg(long = "line", value_name = "N")]
    pub lines: Vec<u64>,
    /// Format, column and delimiter.
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// Draw the grids only, without each record's line, status and grade above them.
    #[arg(short, long)]
    pub quiet: bool,
}
