//! `show`'s options.

use std::path::PathBuf;

use clap::Args;

use super::LayoutArgs;

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
    /// Draw the puzzles alone, without their solutions (spoiler-free, for printing).
    #[arg(long)]
    pub no_solution: bool,
}
