//! The options every record command shares: input, output, boards, engine and the run.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::engine::Budget;

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

/// How records lie in an input: every command that reads puzzles takes these.
#[derive(Debug, Args)]
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
    #[arg(help_heading = "Input", long, value_name = "CHAR", value_parser = crate::input::parse_delimiter)]
    pub delimiter: Option<u8>,
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

/// Where results go, shared by the commands that write rows.
#[derive(Debug, Args)]
pub struct OutputArgs {
    /// Output file (default: stdout). Regular files are replaced atomically.
    #[arg(help_heading = "Output", short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Write a JSON summary (counts, wall time, rate, latency percentiles) here.
    #[arg(help_heading = "Output", long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Write the per-puzzle latency distribution (HdrHistogram .hgrm text, microseconds).
    #[arg(help_heading = "Output", long, value_name = "FILE.hgrm")]
    pub histogram: Option<PathBuf>,
    /// Draw the latency distribution by percentile as an SVG chart.
    #[arg(help_heading = "Output", long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Print no summary on stderr.
    #[arg(help_heading = "Output", short, long)]
    pub quiet: bool,
    /// Never show a progress bar.
    #[arg(help_heading = "Output", long)]
    pub no_progress: bool,
}

/// Row formats of the record commands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormatArg {
    /// CSV with a header: line,puzzle,solution,status,reason,mismatch (+ the command's).
    Csv,
    /// `puzzle solution status` per line (`-` for none), then the command's values.
    Lines,
    /// Printed grids: puzzle and solution side by side under a header line.
    Grid,
    /// One JSON object per record with the CSV's fields.
    Ndjson,
    /// `puzzle solution` per line (`-` for none), the layout of most published corpora.
    Pairs,
    /// The CSV's columns as a typed Parquet file (`line` and counts as unsigned
    /// integers, `rating` as a double, `status` dictionary-encoded); `-o NAME.parquet`
    /// picks it too.
    Parquet,
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
    #[arg(help_heading = "Input", long, value_name = "BYTES", default_value_t = crate::input::DEFAULT_MAX_RECORD,
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
    /// summary and report, not written), e.g. `--only unique`.
    #[arg(
        help_heading = "Output",
        long,
        value_enum,
        value_delimiter = ',',
        value_name = "STATUS[,STATUS]"
    )]
    pub only: Vec<StatusArg>,
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
    /// summary). The default keeps every bundled puzzle under about a second.
    #[arg(help_heading = "Rating", long, value_name = "N",
          default_value_t = crate::explainer::Rater::DEFAULT_BUDGET,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub rating_budget: u64,
}

/// Options of `grade`.
#[derive(Debug, Args)]
pub struct GradeArgs {
    /// Shared options.
    #[command(flatten)]
    pub run: RunArgs,
    /// Rating options.
    #[command(flatten)]
    pub rating: RatingArgs,
}

/// Options of `classify`.
#[derive(Debug, Args)]
pub struct ClassifyArgs {
    /// Shared options.
    #[command(flatten)]
    pub run: RunArgs,
    /// Exit with status 1 when any record is not `unique`, listing the first such lines.
    #[arg(long)]
    pub require_unique: bool,
    /// Classify every record with a second, independent engine too (dancing links, or
    /// the band solver under `--engine dlx`); column `engines` says `agree` or
    /// `disagree`, and any disagreement is counted, listed and ends with exit status 3.
    #[arg(long)]
    pub cross_check: bool,
}
