//! `corpus`'s options.

use std::path::PathBuf;

use clap::Args;

use super::LayoutArgs;

/// Options of `corpus`.
#[derive(Debug, Args)]
pub struct CorpusArgs {
    /// Source puzzles (any input format the other commands read).
    #[arg(value_name = "INPUT", required_unless_present = "from")]
    pub input: Option<PathBuf>,
    /// The source, as an option (the same as INPUT).
    #[arg(long, value_name = "FILE", conflicts_with = "input", hide = true)]
    pub from: Option<PathBuf>,
    /// Records to write.
    #[arg(long, value_name = "N")]
    pub count: u64,
    /// Random seed; the same seed and source give the same corpus.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// Output file (default: stdout), one 81-character puzzle per line; a table with a
    /// column `puzzle` where its name says .csv, .tsv, .ndjson or .parquet.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Format, column and delimiter.
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// Print no summary on stderr (and no progress bar).
    #[arg(short, long)]
    pub quiet: bool,
    /// Never show a progress bar (one counts the records made, on a terminal only).
    #[arg(long)]
    pub no_progress: bool,
}
impl CorpusArgs {
    /// The source file, given as INPUT or `--from`.
    pub fn source(&self) -> &std::path::Path {
        self.input
            .as_deref()
            .or(self.from.as_deref())
            .expect("clap requires one")
    }
}
