//! `generate`'s options.

use clap::{Args, ValueEnum};

use super::{BoardArgs, EngineArg, OutputArgs, OutputFormatArg};

/// Options of `generate`.
#[derive(Debug, Args)]
#[command(mut_arg("size", |a| a.help("Side of every board to make: 4, 9, 16 or 25 (default: 9)")
    .long_help(None)))]
pub struct GenerateArgs {
    /// Puzzles to make.
    #[arg(long, value_name = "N", value_parser = positive)]
    pub count: u64,
    /// Write the puzzles without their solutions (spoiler-free, for printing).
    #[arg(long)]
    pub no_solution: bool,
    /// Random seed: the same options, seed and count give the same output, whatever
    /// the number of threads.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Dig until at most K givens remain (9x9: 20 to 81, below 20 digging practically
    /// never gets there; other boards: up to their cell count).
    #[arg(long, value_name = "K", conflicts_with = "minimal",
          value_parser = clap::value_parser!(u16).range(1..=625))]
    pub givens: Option<u16>,
    /// Dig until no given (or symmetric group of givens) can be removed (the default).
    #[arg(long)]
    pub minimal: bool,
    /// Pattern of the givens.
    #[arg(long, value_enum, default_value_t = SymmetryArg::None)]
    pub symmetry: SymmetryArg,
    /// Grade every puzzle as `grade` does: `difficulty` and `rating` (Sukaku
    /// Explainer's ER) are filled in (empty otherwise). Grading costs more than making
    /// a minimal puzzle, so it is asked for; 9x9 only.
    #[arg(long)]
    pub grade: bool,
    /// Keep only puzzles graded at one of these levels (`hard,expert`; the levels of
    /// `grade`, from ER); implies `--grade`.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "LEVEL[,LEVEL]")]
    pub difficulty: Vec<LevelArg>,
    /// Row layout.
    #[arg(long, value_enum, hide = true, conflicts_with = "output_format")]
    pub format: Option<MadeFormatArg>,
    /// Row format (default: from the name of `-o`, `.ndjson` or `.jsonl` for NDJSON, else
    /// CSV); `pairs` writes `puzzle solution` only.
    #[arg(long, value_enum)]
    pub output_format: Option<OutputFormatArg>,
    /// Geometry and rules of the boards to make (default: classic 9x9).
    #[command(flatten)]
    pub boards: BoardArgs,
    /// Engine that completes, digs and checks the puzzles (the same seed makes other
    /// puzzles on each engine: each follows its own search order).
    #[arg(long, value_enum, default_value_t = EngineArg::Fast)]
    pub engine: EngineArg,
    /// Output selection.
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Pattern of givens for `generate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SymmetryArg {
    /// Any pattern.
    None,
    /// Unchanged by a half turn.
    Rot180,
    /// Unchanged by a quarter turn.
    Rot90,
    /// Unchanged by a left-right mirror.
    Mirror,
    /// Unchanged by reflection in the main diagonal.
    Diagonal,
}

/// Difficulty levels of the grader.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LevelArg {
    /// Singles only.
    Easy,
    /// Locked candidates, pairs, X-wing.
    Medium,
    /// Triples, fish, wings, unique rectangles, quads, BUG.
    Hard,
    /// Static chains, Nishio.
    Expert,
    /// Dynamic or nested chains.
    Extreme,
}

/// Row layout of `generate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MadeFormatArg {
    /// CSV: line,puzzle,solution,status,reason,mismatch,givens,difficulty,rating.
    Csv,
    /// `puzzle solution` per line.
    Lines,
}

/// A count of at least one.
pub(super) fn positive(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(0) => Err("expected at least 1".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "expected a whole number of at least 1, not {text:?}"
        )),
    }
}
