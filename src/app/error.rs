//! The errors a command reports as one line on stderr, and the exit codes.

use crate::engines::generate::MIN_GIVENS;
use crate::pipeline::input;
use crate::pipeline::input::InputError;
use crate::pipeline::output::OutputError;
use crate::pipeline::settings::SettingsError;
use crate::pipeline::RunError;
use crate::serve::ServeError;
use crate::values::rules::RulesError;
use crate::values::status::Status;
use std::path::PathBuf;

/// Exit status for errors (bad input, options, or output).
pub(super) const EXIT_ERROR: u8 = 2;
/// Exit status of `classify --require-unique` when a record is not unique.
pub(super) const EXIT_NOT_UNIQUE: u8 = 1;
/// Exit status of `classify --cross-check` when the engines disagreed on a record.
pub(super) const EXIT_DISAGREE: u8 = 3;

/// Errors reported to the user as one line on stderr (exit status 2).
#[derive(Debug)]
pub enum AppError {
    /// From a record job's or `generate`'s run.
    Run(RunError),
    /// Input edge.
    Input(InputError),
    /// Output edge.
    Output(OutputError),
    /// The server could not start.
    Serve(ServeError),
    /// Options that do not fit together, or do not fit the command or its input.
    Usage(Usage),
    /// Board rules that do not exist (`--size`, `--variant`, `--symbols`).
    Rules(RulesError),
    /// A setting the library refused (`--delimiter`, ...).
    Settings(SettingsError),
    /// A board geometry `generate` cannot make.
    Geometry(crate::values::geometry::GeometryError),
    /// An input with no valid puzzle for the command to work on.
    NoPuzzles {
        /// The input.
        path: PathBuf,
        /// What the command does with them (`time`, `transform`).
        doing: &'static str,
        /// Invalid records seen, where counted.
        invalid: Option<u64>,
    },
    /// An input that cannot be opened as the pipeline reads it.
    Open(input::OpenError),
    /// An input whose records cannot be found as asked (`--column`, `--format`), when
    /// a command reads several: naming which.
    Layout {
        /// The input.
        path: PathBuf,
        /// What is wrong.
        source: InputError,
    },
    /// `show` could not draw a record.
    Show {
        /// The input.
        path: PathBuf,
        /// What is wrong.
        source: crate::datasets::show::ShowError,
    },
    /// A report given to `merge` that cannot be read.
    Report {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: ReportProblem,
    },
    /// Reports that do not add up (`merge`).
    Merge(crate::reports::merge::MergeError),
    /// `split` refused its input or options.
    Split(crate::datasets::split::SplitError),
    /// Worker threads could not be started.
    Threads {
        /// How many were asked for, when known.
        count: Option<usize>,
        /// Why.
        source: rayon::ThreadPoolBuildError,
    },
    /// A report could not be encoded as JSON.
    Encode(serde_json::Error),
    /// A histogram, chart or manual page could not be written into memory.
    Render(String),
    /// A run wrote other than one row per record (a bug, refused rather than committed).
    LostRows {
        /// The input.
        input: String,
        /// Records read.
        records: u64,
        /// Rows written.
        rows: u64,
        /// Rows `--only` left out.
        left_out: u64,
    },
}

/// Options that do not fit together, or do not fit the command or its input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Usage {
    /// Board options on a command that takes classic 9x9 puzzles only.
    BoardsRefused(&'static str),
    /// `--shard` on a stream.
    ShardOfStream,
    /// `--shard` on a file read as a stream (compressed, NumPy).
    ShardOfEncoded {
        /// The file.
        path: PathBuf,
        /// What it was found to be (`gzip`, `NumPy`).
        what: &'static str,
    },
    /// `--only` a status the command never writes.
    OnlyNever {
        /// The status.
        status: Status,
        /// The command.
        command: &'static str,
        /// The statuses it writes.
        writes: &'static str,
    },
    /// `generate --difficulty` or `--grade` with variant boards.
    DifficultyOfBoards,
    /// `generate --givens K` above a board's cells.
    GivensOverCells {
        /// K.
        givens: u16,
        /// The board's side.
        side: usize,
    },
    /// `generate --givens K` outside 20..=81 on 9x9.
    GivensOutOfRange(u16),
    /// `split` of stdin without a name for one side's output.
    SplitNeedsOut(&'static str),
    /// `--keep-columns` on a Parquet file, whose other columns are not read.
    KeepColumnsOfParquet,
    /// An option that adds to rows, with a row format that has no room for it.
    NeedsCsvOrNdjson(&'static str),
    /// `--record-index` with `--shard`: the records before the shard are not read.
    RecordIndexOfShard,
    /// `--report-line` into a Parquet file, which has no lines.
    ReportLineOfParquet,
    /// `merge --histogram` of audit reports, which hold no latencies.
    HistogramOfAudits,
}

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Usage::BoardsRefused(command) => write!(
                f,
                "{command} takes classic 9x9 puzzles only (no --size, --variant or --symbols)"
            ),
            Usage::ShardOfStream => {
                f.write_str("--shard needs a file: a stream has no byte ranges to share out")
            }
            Usage::ShardOfEncoded { path, what } => write!(
                f,
                "--shard needs a plain text file: {} is {what}, read as a stream, which has \
                 no byte ranges to share out",
                path.display()
            ),
            Usage::OnlyNever {
                status,
                command,
                writes,
            } => write!(
                f,
                "--only {}: {command} writes {writes} rows only",
                status.word()
            ),
            Usage::DifficultyOfBoards => f.write_str(
                "--grade and --difficulty grade classic 9x9 puzzles only; rate made boards \
                 with `grade --size/--variant`",
            ),
            Usage::GivensOverCells { givens, side } => write!(
                f,
                "--givens {givens}: a {side}x{side} board has {} cells",
                side * side
            ),
            Usage::GivensOutOfRange(k) => write!(
                f,
                "--givens {k}: expected {MIN_GIVENS} to 81 for 9x9 (below {MIN_GIVENS} \
                 digging practically never gets there)"
            ),
            Usage::SplitNeedsOut(part) => write!(
                f,
                "split of stdin needs --{part}-out: there is no input name to derive it from"
            ),
            Usage::NeedsCsvOrNdjson(flag) => write!(
                f,
                "{flag} adds to CSV and NDJSON rows only; use --output-format csv or ndjson"
            ),
            Usage::HistogramOfAudits => f.write_str(
                "--histogram: audit reports hold no latency histogram; merge them without it",
            ),
            Usage::ReportLineOfParquet => f.write_str(
                "--report-line adds a line after the rows, and a Parquet file has no lines; \
                 use --report FILE for the report",
            ),
            Usage::RecordIndexOfShard => f.write_str(
                "--record-index with --shard: a shard does not read the records before it, \
                 so it cannot number its own; join on `line`, which --shard keeps",
            ),
            Usage::KeepColumnsOfParquet => f.write_str(
                "--keep-columns: a Parquet file's other columns are not read; join on `line`, \
                 its row number counted from 1 (or `record`, from 0)",
            ),
        }
    }
}

/// Why a file given to `merge` is not a report.
#[derive(Debug)]
pub enum ReportProblem {
    /// It cannot be read.
    Read(std::io::Error),
    /// It holds no report.
    Empty,
    /// Its JSON is not a report.
    NotReport(serde_json::Error),
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AppError::Run(e) => e.fmt(f),
            AppError::Input(e) => e.fmt(f),
            AppError::Output(e) => e.fmt(f),
            AppError::Serve(e) => e.fmt(f),
            AppError::Usage(e) => e.fmt(f),
            AppError::Rules(RulesError::Symbols(e)) => write!(f, "--symbols: {e}"),
            AppError::Rules(RulesError::SymbolsSize { symbols, size }) => {
                write!(f, "--symbols has {symbols} symbols but --size is {size}")
            }
            AppError::Rules(e) => e.fmt(f),
            AppError::Settings(e) => write!(f, "--{e}"),
            AppError::Geometry(e) => e.fmt(f),
            AppError::NoPuzzles {
                path,
                doing,
                invalid: Some(n),
            } => write!(
                f,
                "{}: no valid puzzles to {doing} ({n} invalid records)",
                path.display()
            ),
            AppError::NoPuzzles {
                path,
                doing,
                invalid: None,
            } => write!(f, "{}: no valid puzzles to {doing}", path.display()),
            AppError::Open(e) => e.fmt(f),
            AppError::Layout { path, source } => write!(f, "{}: {source}", path.display()),
            AppError::Show { path, source } => write!(f, "{}: {source}", path.display()),
            AppError::Report {
                path,
                problem: ReportProblem::Read(e),
            } => write!(f, "{}: {e}", path.display()),
            AppError::Report {
                path,
                problem: ReportProblem::Empty,
            } => write!(f, "{}: holds no report", path.display()),
            AppError::Report {
                path,
                problem: ReportProblem::NotReport(e),
            } => write!(f, "{}: not a report: {e}", path.display()),
            AppError::Merge(e) => e.fmt(f),
            AppError::Split(e) => e.fmt(f),
            AppError::Threads {
                count: Some(n),
                source,
            } => write!(f, "cannot start {n} threads: {source}"),
            AppError::Threads {
                count: None,
                source,
            } => write!(f, "cannot start worker threads: {source}"),
            AppError::Encode(e) => write!(f, "cannot encode report: {e}"),
            AppError::Render(e) => f.write_str(e),
            AppError::LostRows {
                input,
                records,
                rows,
                left_out,
            } => write!(
                f,
                "{input}: {records} records read but {rows} rows written and {left_out} left out"
            ),
        }
    }
}

impl std::error::Error for AppError {}

impl From<SettingsError> for AppError {
    fn from(e: SettingsError) -> Self {
        match e {
            SettingsError::Rules(e) => AppError::Rules(e),
            e => AppError::Settings(e),
        }
    }
}

impl From<RunError> for AppError {
    fn from(e: RunError) -> Self {
        AppError::Run(e)
    }
}
impl From<input::OpenError> for AppError {
    fn from(e: input::OpenError) -> Self {
        match e {
            input::OpenError::Input(e) => AppError::from(e),
            other => AppError::Open(other),
        }
    }
}

impl From<InputError> for AppError {
    fn from(e: InputError) -> Self {
        AppError::Input(e)
    }
}
impl From<OutputError> for AppError {
    fn from(e: OutputError) -> Self {
        AppError::Output(e)
    }
}
impl From<ServeError> for AppError {
    fn from(e: ServeError) -> Self {
        AppError::Serve(e)
    }
}
impl From<Usage> for AppError {
    fn from(e: Usage) -> Self {
        AppError::Usage(e)
    }
}
impl From<crate::reports::plot::PlotError> for AppError {
    fn from(e: crate::reports::plot::PlotError) -> Self {
        AppError::Render(e.to_string())
    }
}

/// An in-memory rendering that failed (a histogram's text, a manual page).
pub(super) fn render(e: std::io::Error) -> AppError {
    AppError::Render(e.to_string())
}

impl AppError {
    pub(super) fn is_broken_pipe(&self) -> bool {
        match self {
            AppError::Run(RunError::Output(e)) | AppError::Output(e) => e.is_broken_pipe(),
            _ => false,
        }
    }
}
