//! `merge`'s options.

use std::path::PathBuf;

use clap::Args;

/// Options of `merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Reports written by --report (or --report-line), in input order; or `audit --json`
    /// reports of a file's shards, whose exact sums are kept and the rest named (duplicates
    /// across shards are not known from them).
    #[arg(required = true, value_name = "REPORT.json")]
    pub reports: Vec<PathBuf>,
    /// Write the merged report here (default: stdout); audit reports merged into a name
    /// ending in .html are written as the page.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Write the merged latency distribution (.hgrm) here.
    #[arg(long, value_name = "FILE.hgrm")]
    pub histogram: Option<PathBuf>,
    /// Print no summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}
