//! Where records come from: the input and how its records are laid out.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

/// Input format choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Detect from the first record line: CSV when it holds a comma, blocks when it is
    /// a row of nine cells (or a title over one), else one puzzle per line.
    Auto,
    /// One puzzle per line.
    Lines,
    /// CSV with a puzzle column.
    Csv,
    /// A puzzle drawn over nine lines (Project Euler 96, .sdk, .ss, printed grids).
    Blocks,
}

impl FormatArg {
    /// The value as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            FormatArg::Auto => "auto",
            FormatArg::Lines => "lines",
            FormatArg::Csv => "csv",
            FormatArg::Blocks => "blocks",
        }
    }
}

/// How records lie in an input: every command that reads puzzles takes these.
#[derive(Clone, Debug, Args)]
pub struct LayoutArgs {
    /// Input format.
    #[arg(help_heading = "Input", long, value_enum, default_value_t = FormatArg::Auto)]
    pub format: FormatArg,
    /// CSV column holding puzzles: a header name or a 1-based index (default: a column
    /// named puzzle/quizzes/grid, else the first whose values are 81-cell grids).
    #[arg(help_heading = "Input", long, value_name = "NAME|INDEX")]
    pub column: Option<String>,
    /// CSV field delimiter: a character, or `tab` (default: a comma, or a tab or
    /// semicolon where the first line is a header split by one, or `grid;...`); implies
    /// CSV.
    #[arg(help_heading = "Input", long, value_name = "CHAR")]
    pub delimiter: Option<String>,
}

/// Options shared by `solve`, `classify` and `bench` for reading input.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Input file, or `-` for stdin.
    pub input: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(help_heading = "Distribution", long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Format, column and delimiter.
    #[command(flatten)]
    pub layout: LayoutArgs,
    /// Read the file instead of memory-mapping it (for files that may change while read).
    #[arg(help_heading = "Input", long)]
    pub no_mmap: bool,
    /// The member of a zip archive to read (default: its only file).
    #[arg(help_heading = "Input", long, value_name = "NAME")]
    pub member: Option<String>,
}
