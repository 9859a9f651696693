//! The options of the record commands (`solve`, `classify`, `grade`, `minimize`,
//! `canon`): the run every one of them shares, and `grade`'s and `classify`'s own.

use clap::{Args, ValueEnum};

use crate::engines::grader::Levels;
use crate::values::search::Budget;

use super::{BoardArgs, EngineArg, InputArgs, OutputArgs, OutputFormatArg};

/// Options of `solve` (and, flattened, `classify`, `grade`, `minimize`).
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Input selection.
    #[command(flatten)]
    pub input: InputArgs,
    /// Engine family: fast (band solver, mask engine for boards) or dancing links.
    #[arg(help_heading = "Engines", long, value_enum, default_value_t = EngineArg::Fast)]
    pub engine: EngineArg,
    /// Branches of search one record may take before it is given up as `undecided`
    /// (the default is far past any 9x9 puzzle and stops a hard 25x25 board within
    /// about a second).
    #[arg(help_heading = "Engines", long, value_name = "N", default_value_t = Budget::DEFAULT.get(),
          value_parser = clap::value_parser!(u64).range(1..))]
    pub budget: u64,
    /// Longest record in bytes; a longer one is one `invalid` row, and on a stream it is
    /// skipped to its end without being held in memory.
    #[arg(help_heading = "Input", long, value_name = "BYTES", default_value_t = crate::pipeline::input::DEFAULT_MAX_RECORD,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1024..))]
    pub max_record_bytes: usize,
    /// Geometry and rules of the boards.
    #[command(flatten)]
    pub boards: BoardArgs,
    /// Row format (default: from the name of `-o`, `.ndjson` or `.jsonl` for NDJSON, else
    /// CSV).
    #[arg(help_heading = "Output", long, value_enum)]
    pub output_format: Option<OutputFormatArg>,
    /// Only the records starting in the I-th of N equal byte ranges of the file (cut at
    /// record boundaries; of a Parquet file, the I-th N-th of its row groups); line
    /// numbers stay those of the whole file.
    #[arg(help_heading = "Distribution", long, value_name = "I/N", value_parser = parse_shard)]
    pub shard: Option<(u32, u32)>,
    /// Write no header, so that parts' outputs concatenate to the whole's.
    #[arg(help_heading = "Output", long)]
    pub no_header: bool,
    /// Line number of the input's first line (for a part of a larger input on stdin);
    /// at most 2^62, so that line numbers never wrap.
    #[arg(help_heading = "Distribution", long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=(1 << 62)))]
    pub first_line: u64,
    /// Write only the rows of records with these statuses (the others are counted in the
    /// summary and report, not written), e.g. `--only unique`; `mismatch` adds the rows
    /// whose given solution is not the puzzle's.
    #[arg(
        help_heading = "Output",
        long,
        value_enum,
        value_delimiter = ',',
        value_name = "STATUS[,STATUS]"
    )]
    pub only: Vec<StatusArg>,
    /// Exit with status 1 when a record's given solution is not its puzzle's (column
    /// `mismatch` true), naming the first such lines.
    #[arg(help_heading = "Output", long)]
    pub require_match: bool,
    /// Write the input's own fields after ours (the header's names, with `input_` in
    /// front of a name we use; `input_1`.. without a header; `input`, the whole line,
    /// for one puzzle per line), so that results join back to the input's columns.
    #[arg(help_heading = "Output", long)]
    pub keep_columns: bool,
    /// Add a column `record`: the record's 0-based index among the input's records
    /// (comments, blank lines and headers not counted), for joins by position.
    #[arg(help_heading = "Output", long)]
    pub record_index: bool,
    /// Write the puzzle column exactly as read (`004300209...` stays so) instead of
    /// the usual `.` for empty cells.
    #[arg(help_heading = "Output", long)]
    pub puzzle_as_read: bool,
    /// Write no solution (spoiler-free, for printing): the `solution` field empty,
    /// `grid` output with the puzzle alone, `lines` and `pairs` with `-`.
    #[arg(help_heading = "Output", long)]
    pub no_solution: bool,
    /// After the rows, write the JSON report as one line `#sudoku-batch-report {...}`
    /// (for pipes such as Spark's RDD.pipe, where stdout is the only channel back).
    #[arg(help_heading = "Output", long)]
    pub report_line: bool,
    /// Output selection.
    #[command(flatten)]
    pub out: OutputArgs,
}

/// A record's status, as written in the `status` column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StatusArg {
    /// Exactly one solution.
    Unique,
    /// Two or more solutions.
    Multiple,
    /// Solved (`solve`: uniqueness not checked).
    Solved,
    /// No solution.
    Unsolvable,
    /// Malformed, or clashing givens.
    Invalid,
    /// Search budget spent before an answer (`--budget`).
    Undecided,
    /// A given solution that is not the puzzle's (column `mismatch`), whatever the status.
    Mismatch,
}

/// Whose rules a Sukaku Explainer rating follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RatingArg {
    /// Sukaku Explainer 1.18.1's default set, as its `serate` rates with no options.
    Sukaku,
    /// The version the Sudoku Exchange puzzle bank was rated with (without 4 strong
    /// links and the UVWXYZ- and TUVWXYZ-Wings; 3 strong links rated as it did then).
    Bank,
    /// Sudoku Explainer 1.2.1's techniques (no strong links, no wings of four cells or
    /// more), as the forum's older lists were rated.
    Se121,
}

/// How `grade` rates (and `generate --grade`).
#[derive(Debug, Args)]
pub struct RatingArgs {
    /// Whose rules the ratings (ER, EP, ED) follow.
    #[arg(help_heading = "Rating", long, value_enum, default_value_t = RatingArg::Sukaku)]
    pub rating: RatingArg,
    /// Chain steps (potentials followed) a puzzle's rating may take; past them the
    /// ratings so far are given as lower bounds (`bound` = `lower`, counted in the
    /// summary). The default lets every puzzle of the forum's hardest-1106 list finish
    /// (the longest in under 20 s); every bundled puzzle takes under a second.
    #[arg(help_heading = "Rating", long, value_name = "N",
          default_value_t = crate::engines::explainer::Rater::DEFAULT_BUDGET,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub rating_budget: u64,
}

/// Options of `grade`.
#[derive(Debug, Args)]
pub struct GradeArgs {
    /// Rating options (shown first: they are grade's own).
    #[command(flatten)]
    pub rating: RatingArgs,
    /// Write only the rows rated at least R (ER, e.g. 7.0); the others are counted in
    /// the summary, not written, and rows without a rating are left out.
    #[arg(help_heading = "Rating", long, value_name = "R", value_parser = rating_value)]
    pub min_rating: Option<f64>,
    /// Write only the rows rated at most R (ER).
    #[arg(help_heading = "Rating", long, value_name = "R", value_parser = rating_value)]
    pub max_rating: Option<f64>,
    /// Write only the rows of these levels: easy, medium, hard, expert, extreme.
    #[arg(help_heading = "Rating", long, value_name = "LEVEL[,LEVEL]",
          value_parser = levels_value)]
    pub difficulty: Option<Levels>,
    /// Write only the N highest-rated rows (ER; of equal ratings the earlier record),
    /// in input order, from those the filters above keep. The N rows wait in memory
    /// until the input's end.
    #[arg(help_heading = "Rating", long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "shard")]
    pub top: Option<u64>,
    /// Shared options.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Options of `classify`.
#[derive(Debug, Args)]
pub struct ClassifyArgs {
    /// Exit with status 1 when any record is not `unique`, listing the first such lines.
    #[arg(long)]
    pub require_unique: bool,
    /// Classify every record with a second, independent engine too (dancing links, or
    /// the band solver under `--engine dlx`); column `engines` says `agree` or
    /// `disagree`, and any disagreement is counted, listed and ends with exit status 3.
    #[arg(long)]
    pub cross_check: bool,
    /// Shared options.
    #[command(flatten)]
    pub run: RunArgs,
}

/// `I/N` with 1 <= I <= N.
fn parse_shard(text: &str) -> Result<(u32, u32), String> {
    let (i, n) = text
        .split_once('/')
        .ok_or_else(|| format!("{text}: expected I/N, e.g. 3/8"))?;
    let i: u32 = i
        .trim()
        .parse()
        .map_err(|_| format!("{text}: I is not a number"))?;
    let n: u32 = n
        .trim()
        .parse()
        .map_err(|_| format!("{text}: N is not a number"))?;
    if n == 0 || i == 0 || i > n {
        return Err(format!("{text}: need 1 <= I <= N"));
    }
    Ok((i, n))
}

/// A rating on Sukaku Explainer's scale (0 to 20, one decimal).
fn rating_value(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(r) if (0.0..=20.0).contains(&r) => Ok(r),
        _ => Err(format!(
            "{text:?}: expected a rating from 0 to 20, e.g. 7.2"
        )),
    }
}

/// Levels by name, comma-separated.
fn levels_value(text: &str) -> Result<Levels, String> {
    Levels::parse(text)
        .ok_or_else(|| format!("{text:?}: expected easy, medium, hard, expert or extreme"))
}
