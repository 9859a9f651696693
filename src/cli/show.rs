//! `show`'s options.

use std::path::PathBuf;

use clap::Args;

use super::{BoardArgs, LayoutArgs};

/// Options of `show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Input file (any format the other commands read), or `-` for stdin.
    pub input: PathBuf,
    /// The member of a zip archive to read (default: its only file).
    #[arg(long, value_name = "NAME")]
    pub member: Option<String>,
    /// Line of a record to show (repeat for more); default: the first record.
    #[arg(long = "line", value_name = "N")]
    pub lines: Vec<u64>,
    /// Number of a record to show, counted from 1 in input order as `generate` numbers
    /// the records it makes (repeat for more).
    #[arg(long = "record", value_name = "N", conflicts_with = "lines")]
    pub records: Vec<u64>,
    /// Format, column and delimiter.
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// Size, variant and symbols of variant boards.
    #[command(flatten)]
    pub boards: BoardArgs,
    /// Draw the grids only, without each record's line, status and grade above them.
    /// (`show` prints no summary, so it has no `-q`.)
    #[arg(long)]
    pub no_titles: bool,
    /// Draw the puzzles alone, without their solutions (spoiler-free, for printing).
    #[arg(long)]
    pub no_solution: bool,
}
