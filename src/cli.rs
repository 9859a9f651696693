//! Command-line definition (clap derive). Only flags and help text live here.

use std::path::PathBuf;

use crate::engine::Budget;
use clap::{Args, Parser, Subcommand, ValueEnum};

/// Solve, classify and benchmark Sudoku puzzle datasets at hardware speed.
///
/// Inputs are one-puzzle-per-line files (81 cells, `.` or `0` for empty, text around the
/// grid allowed) or CSV files with a puzzle column. Output is CSV with the columns
/// line,puzzle,solution,status,reason,mismatch, one row per input record, in input order.
#[derive(Debug, Parser)]
#[command(name = "sudoku-batch", version, arg_required_else_help = true)]
#[command(after_help = "Examples:\n  \
    sudoku-batch solve data/norvig-top95.txt -o solutions.csv\n  \
    sudoku-batch classify data/kaggle-3m-curated5000.csv --require-unique --report r.json\n  \
    cat data/norvig-top95.txt | sudoku-batch classify - --threads 2 | head\n  \
    sudoku-batch bench data/magictour-top1465.txt --mode count --threads 1,2\n  \
    sudoku-batch grade data/sudoku-exchange-hard-with-solutions.txt -o graded.csv\n  \
    sudoku-batch generate --count 1000 --symmetry rot180 --seed 7 -o new.csv\n  \
    sudoku-batch corpus data/royle-17-clue.txt --count 1000000 --seed 1 -o big.txt")]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write the first solution of every record (status `solved`, `unsolvable` or `invalid`).
    #[command(after_help = "Examples:\n  \
        sudoku-batch solve data/norvig-top95.txt -o solutions.csv\n  \
        sudoku-batch solve data/variants/solo-16x16.txt --output-format grid\n\n\
        Exit status: 0 on success, 2 on bad input, options or output (one line on stderr), \
        130, 143 or 129 when stopped by SIGINT, SIGTERM or SIGHUP.")]
    Solve(RunArgs),
    /// Count solutions up to two per record (status `unique`, `multiple`, `unsolvable`,
    /// `invalid`).
    #[command(after_help = "Examples:\n  \
        sudoku-batch classify data/kaggle-3m-curated5000.csv -o classified.csv\n  \
        sudoku-batch classify data/sudopedia-cases.tsv --require-unique -o /dev/null\n  \
        sudoku-batch classify data/variants/solo-16x16.txt --cross-check\n\n\
        Exit status: 0 on success, 1 with --require-unique when a record is not unique, \
        3 with --cross-check when the engines disagree on a record, 2 on bad input, \
        options or output, 130, 143 or 129 when stopped by SIGINT, SIGTERM or SIGHUP.")]
    Classify(ClassifyArgs),
    /// Add up the JSON reports of a run's parts (shards, partitions) into one.
    #[command(after_help = "Examples:\n  \
        sudoku-batch merge part1.json part2.json -o whole.json --histogram whole.hgrm\n\n\
        Exit status: 0 on success, 2 when a report cannot be read or parts do not fit \
        together (another command, or sums past 2^64).")]
    Merge(MergeArgs),
    /// Draw a few records as grids: givens, solution, status and grade.
    #[command(after_help = "Examples:\n  \
        sudoku-batch show data/magictour-top1465.txt --line 4 --line 5\n\n\
        Exit status: 0 on success, 2 on bad input or a --line where no record starts.")]
    Show(ShowArgs),
    /// Make new unique puzzles: random full grids, givens dug out while the puzzle stays
    /// unique (minimal by default), graded.
    #[command(after_help = "Examples:\n  \
        sudoku-batch generate --count 1000 --symmetry rot180 --seed 7 -o new.csv\n  \
        sudoku-batch generate --count 10 --difficulty expert --output-format pairs\n  \
        sudoku-batch generate --count 5 --size 16 --variant diagonal --engine dlx\n\n\
        Exit status: 0 on success, 2 on bad options or output, or when a record cannot be \
        made (a target no puzzle meets), 130, 143 or 129 when stopped by a signal.")]
    Generate(GenerateArgs),
    /// Rate every unique record as a person would solve it (columns `difficulty`,
    /// `rating` on Sukaku Explainer's scale, `techniques` after the usual six).
    #[command(after_help = "Examples:\n  \
        sudoku-batch grade data/sudoku-exchange-hard-with-solutions.txt -o graded.csv\n  \
        sudoku-batch grade data/variants/wpf-gp-diagonal.txt --variant diagonal\n\n\
        Exit status: 0 on success, 2 on bad input, options or output (one line on stderr), \
        130, 143 or 129 when stopped by SIGINT, SIGTERM or SIGHUP.")]
    Grade(RunArgs),
    /// For every unique record, a minimal puzzle with the same solution (columns
    /// `minimal`, `minimal_givens` after the usual six; classic 9x9 only); other records
    /// keep their status.
    #[command(mut_arg("size", |a| a.hide(true)), mut_arg("variant", |a| a.hide(true)),
              mut_arg("symbols", |a| a.hide(true)))]
    #[command(after_help = "Examples:\n  \
        sudoku-batch minimize data/norvig-easy50.txt --output-format lines\n\n\
        Exit status: 0 on success, 2 on bad input, options or output (one line on stderr), \
        130, 143 or 129 when stopped by SIGINT, SIGTERM or SIGHUP.")]
    Minimize(RunArgs),
    /// Add each record's canonical (minlex) form and automorphism count (columns
    /// `canonical`, `automorphisms` after the usual six; classic 9x9 only): equivalent
    /// puzzles, under any relabelling, band, row, stack or column shuffle or
    /// transposition, share one form.
    #[command(after_help = "Examples:\n  \
        sudoku-batch canon data/norvig-top95.txt -o canon.csv\n  \
        sudoku-batch canon data/royle-17-clue.txt --output-format lines --threads 2\n\n\
        Exit status: 0 on success, 2 on bad input, options or output.")]
    #[command(mut_arg("size", |a| a.hide(true)), mut_arg("variant", |a| a.hide(true)),
              mut_arg("symbols", |a| a.hide(true)))]
    Canon(RunArgs),
    /// Write the first record of each class of equivalent puzzles (or of identical
    /// texts, `--by text`), in input order, with the input's own bytes.
    #[command(after_help = "Examples:\n  \
        sudoku-batch dedupe data/norvig-top95.txt -o unique.txt --rows dups.csv\n  \
        sudoku-batch dedupe data/norvig-easy50.txt --by text --report r.json\n\n\
        Exit status: 0 on success, 2 on bad input, options or output.")]
    Dedupe(DedupeArgs),
    /// For every TEST record, the first equivalent record in TRAIN (leakage between
    /// dataset splits), and repeats inside TEST.
    #[command(after_help = "Examples:\n  \
        sudoku-batch overlap data/magictour-top1465.txt data/norvig-top95.txt -o leaks.csv\n\n\
        Exit status: 0 on success, 1 with --require-disjoint when a test record leaks, \
        2 on bad input, options or output.")]
    Overlap(OverlapArgs),
    /// Cut a dataset into training and test files with every class of equivalent puzzles
    /// wholly on one side (leak-free by construction), reproducibly from the seed.
    #[command(after_help = "Examples:\n  \
        sudoku-batch split data/magictour-top1465.txt --test 0.1 --seed 7 \
        --train-out train.txt --test-out test.txt\n\n\
        The test side gets whole classes, in an order drawn from the seed and the classes' \
        canonical forms, until it holds the asked share of records (so it overshoots by less \
        than one class). Records keep their input order and bytes; a CSV header goes to both.\n\n\
        Exit status: 0 on success, 2 on bad input, options or output.")]
    Split(SplitArgs),
    /// Time repeated passes of the solver over the records, for each thread count.
    #[command(after_help = "Examples:\n  \
        sudoku-batch bench data/magictour-top1465.txt --mode count --threads 1,2\n  \
        sudoku-batch bench data/royle-17-clue.txt --engine dlx --report bench.json -q\n\n\
        The spread is given as hyperfine gives it: mean ± σ and min … max over the timed \
        rounds, per thread count.\n\n\
        Exit status: 0 on success, 2 on bad input, options or output, or no valid puzzle \
        to time.")]
    Bench(BenchArgs),
    /// Build a large corpus by validity-preserving random transforms of real puzzles.
    #[command(after_help = "Examples:\n  \
        sudoku-batch corpus data/royle-17-clue.txt --count 1000000 --seed 1 -o big.txt\n\n\
        Exit status: 0 on success, 2 on bad input, options or output.")]
    Corpus(CorpusArgs),
    /// Serve solve, classify, grade, validate and generate over HTTP (JSON for single
    /// boards, streamed rows for whole datasets), with /metrics and a page at /.
    #[command(after_help = "Examples:\n  \
        sudoku-batch serve --listen 127.0.0.1:8080 --threads 4\n  \
        curl -s localhost:8080/v1/classify -H 'content-type: application/json' \
        -d '{\"puzzle\": \"...\"}'\n\n\
        Exit status: 0 after SIGTERM or Ctrl-C (requests in flight finish first), 2 when \
        the address cannot be bound.")]
    Serve(ServeArgs),
    /// Print a shell's completion script on stdout.
    #[command(after_help = "Examples:\n  \
        sudoku-batch completions bash > ~/.local/share/bash-completion/completions/sudoku-batch\n  \
        sudoku-batch completions zsh > ~/.zfunc/_sudoku-batch\n  \
        sudoku-batch completions fish > ~/.config/fish/completions/sudoku-batch.fish\n\n\
        Exit status: 0 on success, 2 when stdout cannot be written.")]
    Completions(CompletionsArgs),
    /// Print the manual page (roff) on stdout.
    #[command(after_help = "Examples:\n  \
        sudoku-batch man > sudoku-batch.1 && man ./sudoku-batch.1\n\n\
        Exit status: 0 on success, 2 when stdout cannot be written.")]
    Man,
}

/// Options of `completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

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

/// Options shared by `solve`, `classify` and `bench` for reading input.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Input file, or `-` for stdin.
    pub input: PathBuf,
    /// Worker threads (default: all cores).
    #[arg(help_heading = "Distribution", long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Input format.
    #[arg(help_heading = "Input", long, value_enum, default_value_t = FormatArg::Auto)]
    pub format: FormatArg,
    /// CSV column holding puzzles: a header name or a 1-based index (default: a column
    /// named puzzle/quizzes/grid, else the first whose values are 81-cell grids).
    #[arg(help_heading = "Input", long, value_name = "NAME|INDEX")]
    pub column: Option<String>,
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
    /// record boundaries); line numbers stay those of the whole file.
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

/// Options of `serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address and port to listen on (port 0: any free port; the address is printed).
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    pub listen: std::net::SocketAddr,
    /// Solving threads (default: all cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Largest request body in bytes; larger ones get 413. Datasets stream through in
    /// bounded memory whatever this is.
    #[arg(long, value_name = "BYTES", default_value_t = 64 * 1024 * 1024)]
    pub max_body: u64,
    /// Largest JSON request body in bytes (JSON is read whole; send larger sets as a
    /// dataset); larger ones get 413.
    #[arg(long, value_name = "BYTES", default_value_t = 4 * 1024 * 1024)]
    pub max_json: u64,
    /// Requests worked on at once; more get 503 with Retry-After.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_inflight: u32,
    /// Connections open at once; more are answered 503 and closed.
    #[arg(long, value_name = "N", default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..))]
    pub max_connections: u32,
    /// Seconds a request may take to arrive and be answered (408 after), and a
    /// connection to send a request's head or stay idle between requests; a streamed
    /// dataset may run longer, but may keep the server waiting (for body data, or to
    /// read rows) this long in all.
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: u64,
    /// Seconds SIGTERM or Ctrl-C waits for requests in flight before closing their
    /// connections and exiting.
    #[arg(long, value_name = "SECS", default_value_t = 10)]
    pub drain_timeout: u64,
}

/// Options of `merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Reports written by --report (or --report-line), in input order.
    #[arg(required = true, value_name = "REPORT.json")]
    pub reports: Vec<PathBuf>,
    /// Write the merged report here (default: stdout).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Write the merged latency distribution (.hgrm) here.
    #[arg(long, value_name = "FILE.hgrm")]
    pub histogram: Option<PathBuf>,
    /// Print no summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Options of `show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Input file (any format the other commands read).
    pub input: PathBuf,
    /// Line of a record to show (repeat for more); default: the first record.
    #[arg(long = "line", value_name = "N")]
    pub lines: Vec<u64>,
    /// Input format.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    pub format: FormatArg,
    /// CSV column holding puzzles.
    #[arg(long, value_name = "NAME|INDEX")]
    pub column: Option<String>,
}

/// Options of `generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Puzzles to make.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub count: u64,
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
    /// Keep only puzzles the grader puts at one of these levels (`hard,expert`).
    #[arg(long, value_enum, value_delimiter = ',', value_name = "LEVEL[,LEVEL]")]
    pub difficulty: Vec<LevelArg>,
    /// Row layout.
    #[arg(long, value_enum, hide = true, conflicts_with = "output_format")]
    pub format: Option<MadeFormatArg>,
    /// Row format (default: from the name of `-o`, `.ndjson` or `.jsonl` for NDJSON, else
    /// CSV); `pairs` writes `puzzle solution` only, ungraded.
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

/// What `bench` times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BenchMode {
    /// First solution.
    Solve,
    /// Solutions counted up to two (uniqueness check).
    Count,
}

/// Options of `bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Print nothing: no table on stdout, no warning on stderr (the results go to
    /// `--report`, `--plot` and `--histogram`).
    #[arg(short, long)]
    pub quiet: bool,
    /// Input file (not stdin: records are loaded once and reused).
    pub input: PathBuf,
    /// What to time.
    #[arg(long, value_enum, default_value_t = BenchMode::Count)]
    pub mode: BenchMode,
    /// Engine to time.
    #[arg(long, value_enum, default_value_t = EngineArg::Fast)]
    pub engine: EngineArg,
    /// Geometry and rules of the boards (variant boards are timed on the variant engine).
    #[command(flatten)]
    pub boards: BoardArgs,
    /// Untimed passes before timing.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub warmup: u32,
    /// Timed passes; the median, min and max are reported.
    #[arg(long, default_value_t = 5, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub rounds: u32,
    /// Thread counts to sweep, comma-separated (default: 1 and all cores).
    #[arg(long, value_delimiter = ',', value_name = "N,N,...",
          value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Vec<u16>,
    /// Input format.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    pub format: FormatArg,
    /// CSV column holding puzzles (as for solve).
    #[arg(long, value_name = "NAME|INDEX")]
    pub column: Option<String>,
    /// Write the results as JSON here (`--json` is the same).
    #[arg(long, visible_alias = "json", value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Write one .hgrm latency file per thread count: FILE with `.tN` before the extension.
    #[arg(long, value_name = "FILE.hgrm")]
    pub histogram: Option<PathBuf>,
    /// Draw puzzles/s against threads (with the ideal linear line) and the latency
    /// percentiles per thread count as an SVG chart.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Print markdown table rows (dataset, records, mode, threads, puzzles/s, us/puzzle
    /// p50/p99, guesses/puzzle) instead of the readable table.
    #[arg(long)]
    pub markdown: bool,
}

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
    /// Output file (default: stdout), one 81-character puzzle per line.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Input format of the source.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    pub format: FormatArg,
    /// CSV column holding puzzles in the source.
    #[arg(long, value_name = "NAME|INDEX")]
    pub column: Option<String>,
    /// Print no summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,
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

/// What makes two records the same for `dedupe` and `overlap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ByArg {
    /// Equivalent puzzles (the same canonical form): relabelled, shuffled or transposed
    /// copies are duplicates.
    Canonical,
    /// The same cells as read (`.` and `0` alike).
    Text,
}

/// Options of `dedupe`.
#[derive(Debug, Args)]
pub struct DedupeArgs {
    /// Input, threads and input format.
    #[command(flatten)]
    pub input: InputArgs,
    /// What makes two records duplicates.
    #[arg(long, value_enum, default_value_t = ByArg::Canonical)]
    pub by: ByArg,
    /// Output file for the kept records (default: stdout).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Write one CSV row per input record, `line,duplicate_of` (the line of the first
    /// record of its class; empty for that first one).
    #[arg(long, value_name = "FILE.csv")]
    pub rows: Option<PathBuf>,
    /// Write a JSON summary (records, classes, duplicates, largest classes) here.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Print no summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Options of `overlap`.
#[derive(Debug, Args)]
pub struct OverlapArgs {
    /// The training set.
    pub train: PathBuf,
    /// The test set: each of its records is looked up in the training set.
    pub test: PathBuf,
    /// What makes two records the same.
    #[arg(long, value_enum, default_value_t = ByArg::Canonical)]
    pub by: ByArg,
    /// Worker threads (default: all cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Input format of both files.
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    pub format: FormatArg,
    /// CSV column holding puzzles in both files.
    #[arg(long, value_name = "NAME|INDEX")]
    pub column: Option<String>,
    /// Output file for the rows `line,train_line,test_duplicate_of`, one per test record
    /// (default: stdout).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Write a JSON summary (records, leaks, duplicates inside the test set) here.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Exit with status 1 when a test record has an equivalent in the training set.
    #[arg(long)]
    pub require_disjoint: bool,
    /// Print no summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}

/// Options of `split`.
#[derive(Debug, Args)]
pub struct SplitArgs {
    /// Input, threads and input format.
    #[command(flatten)]
    pub input: InputArgs,
    /// Share of the records to put on the test side, above 0 and below 1.
    #[arg(long = "test", value_name = "FRACTION")]
    pub fraction: f64,
    /// Random seed: the same seed splits the same classes the same way.
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub seed: u64,
    /// What makes two records the same class.
    #[arg(long, value_enum, default_value_t = ByArg::Canonical)]
    pub by: ByArg,
    /// Training output (default: the input's name with `.train` before its extension,
    /// in the current directory).
    #[arg(long, value_name = "FILE")]
    pub train_out: Option<PathBuf>,
    /// Test output (default: the input's name with `.test` before its extension, in the
    /// current directory).
    #[arg(long, value_name = "FILE")]
    pub test_out: Option<PathBuf>,
    /// Write a JSON summary (records and classes on each side) here.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Print no summary on stderr.
    #[arg(short, long)]
    pub quiet: bool,
}
