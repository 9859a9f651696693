//! The engine a run uses and the boards it reads.

use clap::{Args, ValueEnum};

/// Solving engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// The band-bitboard solver (the default).
    Fast,
    /// Dancing links (Knuth's Algorithm X): independent of the fast engine, slower.
    Dlx,
}

/// Rules beyond rows, columns and boxes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    /// Rows, columns and boxes.
    Classic,
    /// Also both main diagonals (X-Sudoku).
    Diagonal,
    /// Also four extra 3x3 windows (9x9 only).
    Windoku,
}

impl VariantArg {
    /// The value as written on the command line.
    pub fn name(self) -> &'static str {
        match self {
            VariantArg::Classic => "classic",
            VariantArg::Diagonal => "diagonal",
            VariantArg::Windoku => "windoku",
        }
    }
}

/// Options for boards other than classic 9x9 (`solve`, `classify`, `grade`, `bench`, `generate`).
#[derive(Debug, Args)]
pub struct BoardArgs {
    /// Side of every board: 4, 9, 16 or 25 (default: from each record's length, 16, 81,
    /// 256 or 625 cells).
    #[arg(help_heading = "Boards", long, value_name = "N", value_parser = ["4", "9", "16", "25"])]
    pub size: Option<String>,
    /// Rules: classic, diagonal (both main diagonals hold every symbol once) or windoku.
    #[arg(help_heading = "Boards", long, value_enum, default_value_t = VariantArg::Classic)]
    pub variant: VariantArg,
    /// Symbols of values 1..N, in order (default: 1-9 then A-G for 16x16, A-P for
    /// 25x25); `.` is always empty, and `0`, `-`, `_` where they are not symbols.
    #[arg(help_heading = "Boards", long, value_name = "STRING")]
    pub symbols: Option<String>,
}
