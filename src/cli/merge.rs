//! `merge`'s options.

use std::path::PathBuf;

use clap::Args;

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
