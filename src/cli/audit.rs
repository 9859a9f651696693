//! `audit`'s options.

use std::path::PathBuf;

use clap::Args;

use super::{InputArgs, RatingArgs};

/// Options of `audit`.
#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Another file (a training set, or every other split) to look for leaked records
    /// in: records of INPUT with an equivalent there. Repeat for several.
    #[arg(long, value_name = "FILE")]
    pub against: Vec<PathBuf>,
    /// Rate every unique record too (Sukaku Explainer's ER and the level), for their
    /// histograms.
    #[arg(long)]
    pub grade: bool,
    /// Check whether each unique record is minimal (no given can go with the puzzle
    /// staying unique), for the share of minimal puzzles: a solve per given, so off by
    /// default.
    #[arg(long)]
    pub minimality: bool,
    /// Write the report as a self-contained HTML page here (charts inline, no network).
    #[arg(short, long, value_name = "PAGE.html")]
    pub output: Option<PathBuf>,
    /// Write the report as JSON here (`-` for stdout): the page's numbers.
    #[arg(long, value_name = "FILE.json")]
    pub json: Option<PathBuf>,
    /// Exit with status 1 unless the dataset is sound: every record unique, none
    /// repeated or leaked, every given solution its puzzle's.
    #[arg(long)]
    pub require_sound: bool,
    /// Print no summary on stderr (and no progress bar).
    #[arg(short, long)]
    pub quiet: bool,
    /// Never show a progress bar (one is drawn on a terminal only).
    #[arg(long)]
    pub no_progress: bool,
    /// Rating options (with --grade).
    #[command(flatten)]
    pub rating: RatingArgs,
    /// Input, threads and input format.
    #[command(flatten)]
    pub input: InputArgs,
}
