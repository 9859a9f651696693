//! Runs the parsed command line: turns flags into library calls and errors into exit
//! codes. `main.rs` only calls [`run`].

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::bench::{self, BenchReport, ThreadResult};
use crate::cli::{
    self, Cli, Command, EngineArg, FormatArg, GenerateArgs, InputArgs, LevelArg, MadeFormatArg,
    OutputArgs, OutputFormatArg, RunArgs, SymmetryArg, VariantArg,
};
use crate::corpus;
use crate::dlx::Dlx;
use crate::engine::{Budget, Fast};
use crate::generate::{BoardPlan, Pattern, Spec, Target, MIN_GIVENS};
use crate::grader::{Level, Levels};
use crate::input::compressed::{self, Compression};
use crate::input::{self, ColumnChoice, Format, InputError};
use crate::jobs::Generate;
use crate::jobs::{Canon, Classify, CrossCheck, Grade, Job, Minimize, Solve};
use crate::output::{self, Output, OutputError};
use crate::pipeline::{self, MakeOptions, RunError, RunOptions, Shard};
use crate::plot::{self, ThreadPoint};
use crate::puzzle::Shape;
use crate::report::{write_hgrm, Latency, RunReport, Status, StatusSet};
use crate::rows::OutputFormat;
use crate::serve::{serve, ServeError, ServeOptions};
use crate::variant::{BoardRules, RulesError, Symbols, Variant};
use hdrhistogram::Histogram;

/// Exit status for errors (bad input, options, or output).
const EXIT_ERROR: u8 = 2;
/// Exit status of `classify --require-unique` when a record is not unique.
const EXIT_NOT_UNIQUE: u8 = 1;
/// Exit status of `classify --cross-check` when the engines disagreed on a record.
const EXIT_DISAGREE: u8 = 3;

/// Errors reported to the user as one line on stderr.
#[derive(Debug)]
pub enum AppError {
    /// From a solve/classify run.
    Run(RunError),
    /// Input edge.
    Input(InputError),
    /// Output edge.
    Output(OutputError),
    /// Anything else worth one line.
    Other(String),
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AppError::Run(e) => e.fmt(f),
            AppError::Input(e) => e.fmt(f),
            AppError::Output(e) => e.fmt(f),
            AppError::Other(s) => f.write_str(s),
        }
    }
}

impl From<RunError> for AppError {
    fn from(e: RunError) -> Self {
        AppError::Run(e)
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
        AppError::Other(e.to_string())
    }
}

impl AppError {
    fn is_broken_pipe(&self) -> bool {
        match self {
            AppError::Run(RunError::Output(e)) | AppError::Output(e) => e.is_broken_pipe(),
            _ => false,
        }
    }
}

/// On SIGINT, SIGTERM or SIGHUP (Ctrl-C, `timeout`, systemd, Slurm, a closed terminal):
/// removes the temporary output files, then exits with 128 + the signal's number (130,
/// 143, 129), as a shell reports a process the signal killed.
#[cfg(unix)]
fn remove_outputs_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            output::remove_pending();
            std::process::exit(128 + signal);
        }
    });
}

/// Ctrl-C: removes the temporary output files, then exits as interrupted (130).
#[cfg(not(unix))]
fn remove_outputs_on_signals() {
    let _ = ctrlc::set_handler(|| {
        output::remove_pending();
        std::process::exit(130);
    });
}

/// Runs a parsed command line and returns the process exit code.
pub fn run(cli: Cli) -> ExitCode {
    // The server stops on SIGTERM or Ctrl-C by itself, after requests in flight.
    if let Command::Serve(args) = &cli.command {
        return report_error(run_serve(args));
    }
    remove_outputs_on_signals();
    let result = match cli.command {
        Command::Solve(args) => match args.engine {
            EngineArg::Fast => run_job(&Solve::new(), &args, false),
            EngineArg::Dlx => run_job(&Solve::<Dlx>::default(), &args, false),
        },
        Command::Classify(args) => {
            let unique = args.require_unique;
            match (args.run.engine, args.cross_check) {
                (EngineArg::Fast, false) => run_job(&Classify::new(), &args.run, unique),
                (EngineArg::Dlx, false) => run_job(&Classify::<Dlx>::default(), &args.run, unique),
                (EngineArg::Fast, true) => run_job(&CrossCheck::new(), &args.run, unique),
                (EngineArg::Dlx, true) => {
                    run_job(&CrossCheck::<Dlx, Fast>::default(), &args.run, unique)
                }
            }
        }
        Command::Minimize(args) => match args.engine {
            EngineArg::Fast => run_job(&Minimize::new(), &args, false),
            EngineArg::Dlx => run_job(&Minimize::<Dlx>::default(), &args, false),
        },
        Command::Canon(args) => match args.engine {
            EngineArg::Fast => run_job(&Canon::new(), &args, false),
            EngineArg::Dlx => run_job(&Canon::<Dlx>::default(), &args, false),
        },
        Command::Grade(args) => match args.engine {
            EngineArg::Fast => run_job(&Grade::new(), &args, false),
            EngineArg::Dlx => run_job(&Grade::<Dlx>::default(), &args, false),
        },
        Command::Dedupe(args) => run_dedupe(&args),
        Command::Split(args) => run_split(&args),
        Command::Overlap(args) => run_overlap(&args),
        Command::Generate(args) => run_generate(&args),
        Command::Show(args) => run_show(&args),
        Command::Merge(args) => run_merge(&args),
        Command::Bench(args) => run_bench(&args),
        Command::Corpus(args) => run_corpus(&args),
        Command::Completions(args) => run_completions(&args),
        Command::Man => run_man(),
        Command::Serve(_) => unreachable!("handled above"),
    };
    report_error(result)
}

/// The exit code for a command's result, with the error on stderr.
fn report_error(result: Result<ExitCode, AppError>) -> ExitCode {
    match result {
        Ok(code) => code,
        // The reader of our stdout went away (`| head`): stop quietly, as cat does.
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "sudoku-batch: error: {e}");
            ExitCode::from(EXIT_ERROR)
        }
    }
}

fn run_serve(args: &cli::ServeArgs) -> Result<ExitCode, AppError> {
    let options = ServeOptions {
        listen: args.listen,
        threads: args.threads.map_or_else(default_threads, usize::from),
        max_body: args.max_body,
        max_json: args.max_json,
        max_inflight: args.max_inflight as usize,
        max_connections: args.max_connections as usize,
        timeout: std::time::Duration::from_secs(args.timeout),
        drain_timeout: std::time::Duration::from_secs(args.drain_timeout),
    };
    serve(&options)?;
    Ok(ExitCode::SUCCESS)
}

/// The board rules of `--size`, `--variant` and `--symbols`, checked.
fn board_rules(args: &cli::BoardArgs) -> Result<BoardRules, AppError> {
    let variant = match args.variant {
        VariantArg::Classic => Variant::Classic,
        VariantArg::Diagonal => Variant::Diagonal,
        VariantArg::Windoku => Variant::Windoku,
    };
    BoardRules::parse(
        args.size.as_deref().and_then(|s| s.parse().ok()),
        Some(variant.name()),
        args.symbols.as_deref(),
    )
    .map_err(|e| {
        AppError::Other(match e {
            RulesError::Symbols(e) => format!("--symbols: {e}"),
            RulesError::SymbolsSize { symbols, size } => {
                format!("--symbols has {symbols} symbols but --size is {size}")
            }
            other => other.to_string(),
        })
    })
}

fn format_choice(f: FormatArg) -> Option<Format> {
    match f {
        FormatArg::Auto => None,
        FormatArg::Lines => Some(Format::Lines),
        FormatArg::Csv => Some(Format::Csv),
        FormatArg::Blocks => Some(Format::Blocks),
    }
}

fn column_choice(c: &Option<String>) -> ColumnChoice {
    match c {
        None => ColumnChoice::Auto,
        Some(s) => match s.parse::<usize>() {
            Ok(i) => ColumnChoice::Index(i),
            Err(_) => ColumnChoice::Name(s.clone()),
        },
    }
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

fn is_stdin(path: &Path) -> bool {
    path == Path::new("-")
}

/// A progress bar only for a person watching: stderr a terminal, not asked away.
fn show_progress(out: &OutputArgs) -> bool {
    !out.quiet && !out.no_progress && std::io::stderr().is_terminal()
}

/// Writes the report and histogram files asked for, and the summary on stderr.
/// The outputs named by `out` (with `-o`), as (path, option) pairs for
/// [`output::check_outputs`].
fn named_outputs(out: &OutputArgs) -> Vec<(&Path, &'static str)> {
    given(&[
        (out.output.as_deref(), "-o"),
        (out.report.as_deref(), "--report"),
        (out.histogram.as_deref(), "--histogram"),
        (out.plot.as_deref(), "--plot"),
    ])
}

/// The (path, option) pairs whose option was given.
fn given<'a>(options: &[(Option<&'a Path>, &'static str)]) -> Vec<(&'a Path, &'static str)> {
    options
        .iter()
        .filter_map(|&(p, what)| p.map(|p| (p, what)))
        .collect()
}

fn write_results(
    report: &RunReport,
    histogram: &Histogram<u64>,
    out: &OutputArgs,
) -> Result<(), AppError> {
    if let Some(path) = &out.report {
        write_json_report(path, report)?;
    }
    if let Some(path) = &out.histogram {
        let mut text = Vec::new();
        write_hgrm(histogram, &mut text).map_err(|e| AppError::Other(e.to_string()))?;
        output::write_file(path, &text)?;
    }
    if let Some(path) = &out.plot {
        let title = format!("sudoku-batch {}: {}", report.command, report.input);
        let svg = plot::latency_svg(&title, &[(report.command.clone(), histogram)])
            .map_err(|e| AppError::Other(e.to_string()))?;
        output::write_file(path, svg.as_bytes())?;
    }
    if !out.quiet {
        let _ = report.write_summary(&mut std::io::stderr());
    }
    Ok(())
}

/// The prefix of `--report-line`'s line (a `#` comment to this tool's readers).
pub const REPORT_LINE: &str = "#sudoku-batch-report ";

fn run_merge(args: &cli::MergeArgs) -> Result<ExitCode, AppError> {
    let inputs: Vec<(&Path, &str)> = args
        .reports
        .iter()
        .map(|p| (p.as_path(), "a report read"))
        .collect();
    let outputs = given(&[
        (args.output.as_deref(), "-o"),
        (args.histogram.as_deref(), "--histogram"),
    ]);
    output::check_outputs(&inputs, &outputs)?;
    let mut reports = Vec::new();
    for path in &args.reports {
        let text = std::fs::read_to_string(path)
            .map_err(|e| AppError::Other(format!("{}: {e}", path.display())))?;
        // A report file, or rows ending in --report-line lines.
        let jsons: Vec<&str> = if text.trim_start().starts_with('{') {
            vec![text.as_str()]
        } else {
            text.lines()
                .filter_map(|l| l.strip_prefix(REPORT_LINE))
                .collect()
        };
        if jsons.is_empty() {
            return Err(AppError::Other(format!(
                "{}: holds no report",
                path.display()
            )));
        }
        for json in jsons {
            let report: RunReport = serde_json::from_str(json)
                .map_err(|e| AppError::Other(format!("{}: not a report: {e}", path.display())))?;
            reports.push(report);
        }
    }
    let (report, histogram) =
        crate::merge::merge(&reports).map_err(|e| AppError::Other(e.to_string()))?;
    let json = serde_json::to_vec_pretty(&report)
        .map_err(|e| AppError::Other(format!("cannot encode report: {e}")))?;
    let mut out = Output::open(args.output.as_deref())?;
    out.write_all(&json)?;
    out.write_all(b"\n")?;
    out.finish()?;
    if let Some(path) = &args.histogram {
        let mut text = Vec::new();
        write_hgrm(&histogram, &mut text).map_err(|e| AppError::Other(e.to_string()))?;
        output::write_file(path, &text)?;
    }
    if !args.quiet {
        let _ = report.write_summary(&mut std::io::stderr());
    }
    Ok(ExitCode::SUCCESS)
}

fn run_show(args: &cli::ShowArgs) -> Result<ExitCode, AppError> {
    if is_stdin(&args.input) {
        return Err(AppError::Other("show needs a file, not stdin".into()));
    }
    let bytes = input::open_file(&args.input, false)?;
    let layout = input::detect_layout(
        bytes.bytes(),
        format_choice(args.format),
        &column_choice(&args.column),
    )?;
    let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let text = crate::show::show(
        bytes.bytes(),
        &layout,
        &args.lines,
        crate::show::Style { color },
    )
    .map_err(|e| AppError::Other(format!("{}: {e}", args.input.display())))?;
    let mut out = Output::open(None)?;
    out.write_all(text.as_bytes())?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

fn run_generate(args: &GenerateArgs) -> Result<ExitCode, AppError> {
    let pattern = match args.symmetry {
        SymmetryArg::None => Pattern::None,
        SymmetryArg::Rot180 => Pattern::Rot180,
        SymmetryArg::Rot90 => Pattern::Rot90,
        SymmetryArg::Mirror => Pattern::Mirror,
        SymmetryArg::Diagonal => Pattern::Diagonal,
    };
    let target = args.givens.map_or(Target::Minimal, Target::Givens);
    let levels: Vec<Level> = args
        .difficulty
        .iter()
        .map(|l| match l {
            LevelArg::Easy => Level::Easy,
            LevelArg::Medium => Level::Medium,
            LevelArg::Hard => Level::Hard,
            LevelArg::Expert => Level::Expert,
            LevelArg::Extreme => Level::Extreme,
        })
        .collect();
    let level = (!levels.is_empty()).then(|| Levels::of(&levels));
    let rules = board_rules(&args.boards)?;
    let generate = if rules.all_boards() {
        let side = rules
            .size
            .or(rules.symbols.as_ref().map(Symbols::side))
            .unwrap_or(9);
        if level.is_some() {
            return Err(AppError::Other(
                "--difficulty picks classic 9x9 puzzles only; rate made boards with \
                 `grade --size/--variant`"
                    .into(),
            ));
        }
        if let Some(k) = args.givens.filter(|&k| usize::from(k) > side * side) {
            return Err(AppError::Other(format!(
                "--givens {k}: a {side}x{side} board has {} cells",
                side * side
            )));
        }
        let plan = BoardPlan::new(side, rules.variant, pattern, target)
            .map_err(|e| AppError::Other(e.to_string()))?;
        Generate::boards(plan, args.seed)
    } else {
        if let Some(k) = args.givens.filter(|k| !(MIN_GIVENS..=81).contains(k)) {
            return Err(AppError::Other(format!(
                "--givens {k}: expected {MIN_GIVENS} to 81 for 9x9 (below {MIN_GIVENS} \
                 digging practically never gets there)"
            )));
        }
        // Pairs have no difficulty column to fill.
        let graded = made_format(args) != OutputFormat::Pairs;
        Generate::new(Spec { pattern, target }, args.seed, level, graded)
    };
    let options = MakeOptions {
        count: args.count,
        threads: args.threads.map_or_else(default_threads, usize::from),
        output_format: made_format(args),
        progress: show_progress(&args.out),
        symbols: generate
            .board_plan()
            .map(|plan| rules.symbols_for(plan.side())),
    };
    output::check_outputs(&[], &named_outputs(&args.out))?;
    let mut out = Output::open(args.out.output.as_deref())?;
    let (mut report, histogram) = match args.engine {
        EngineArg::Fast => pipeline::run_generate::<Fast>(&generate, &options, &mut out),
        EngineArg::Dlx => pipeline::run_generate::<Dlx>(&generate, &options, &mut out),
    }?;
    report.input = match generate.board_plan() {
        None => format!("generate (seed {})", args.seed),
        Some(plan) => format!(
            "generate {0}x{0} {1} (seed {2})",
            plan.side(),
            plan.variant().name(),
            args.seed
        ),
    };
    out.finish()?;
    write_results(&report, &histogram, &args.out)?;
    Ok(ExitCode::SUCCESS)
}

/// Runs one job over the input through the pipeline, then writes the report, the
/// histogram and the summary.
fn run_job<J: Job>(job: &J, args: &RunArgs, require_unique: bool) -> Result<ExitCode, AppError> {
    let InputArgs {
        input,
        threads,
        format,
        column,
        no_mmap,
        member,
    } = &args.input;
    let options = RunOptions {
        threads: threads.map_or_else(default_threads, usize::from),
        format: format_choice(*format),
        column: column_choice(column),
        output_format: row_format(args.output_format, args.out.output.as_deref()),
        progress: show_progress(&args.out),
        shard: args.shard.map(|(index, count)| Shard { index, count }),
        header: !args.no_header,
        first_line: args.first_line,
        pool: None,
        boards: board_rules(&args.boards)?,
        only: only_statuses(job, &args.only)?,
        budget: Budget::guesses(args.budget),
        max_record: args.max_record_bytes,
        cancel: None,
    };
    if options.boards.all_boards() && !job.takes().contains(Shape::Board) {
        return Err(AppError::Other(format!(
            "{} takes classic 9x9 puzzles only (no --size, --variant or --symbols)",
            job.name()
        )));
    }
    if options.shard.is_some() && (is_stdin(input) || is_special(input)) {
        return Err(AppError::Other(
            "--shard needs a file: a stream has no byte ranges to share out".into(),
        ));
    }
    output::check_outputs(&[(input, "the input")], &named_outputs(&args.out))?;
    // Open the input before the output, so a bad input leaves no output file behind.
    let opened = open_input(input, *no_mmap, member.as_deref())?;
    if options.shard.is_some() {
        if let Opened::Stream { found, .. } = &opened {
            return Err(AppError::Other(match found.first() {
                Some(what) => format!(
                    "--shard needs a plain text file: {} is {what}, read as a stream, \
                     which has no byte ranges to share out",
                    input.display()
                ),
                None => "--shard needs a file: a stream has no byte ranges to share out".into(),
            }));
        }
    }
    let mut out = Output::open(args.out.output.as_deref())?;
    let (mut report, histogram) = match opened {
        Opened::Mapped(bytes) => {
            let run = pipeline::run_file(job, input, &bytes, &options, &mut out)?;
            report_input(run, input, &[])
        }
        Opened::Stream { reader, found } => {
            let run = pipeline::run_stream(job, reader, &options, &mut out)
                .map_err(|e| named_stream_error(e, input))?;
            report_input(run, input, &found)
        }
    };
    if let Some(shard) = options.shard {
        report.input = format!("{} (shard {}/{})", report.input, shard.index, shard.count);
    }
    if report.rows_written.checked_add(report.left_out) != Some(report.records) {
        return Err(AppError::Other(format!(
            "{}: {} records read but {} rows written and {} left out",
            report.input, report.records, report.rows_written, report.left_out
        )));
    }
    if args.report_line {
        let json = serde_json::to_string(&report)
            .map_err(|e| AppError::Other(format!("cannot encode report: {e}")))?;
        out.write_all(format!("{REPORT_LINE}{json}\n").as_bytes())?;
    }
    out.finish()?;
    write_results(&report, &histogram, &args.out)?;
    if let Some(n @ 1..) = report.disagree {
        let lines: Vec<String> = report.first_disagree.iter().map(u64::to_string).collect();
        let _ = writeln!(
            std::io::stderr(),
            "sudoku-batch: the engines disagree on {n} records; first at lines {} \
             (please report this as a bug, with those records)",
            lines.join(", ")
        );
        return Ok(ExitCode::from(EXIT_DISAGREE));
    }
    let not_unique = report.records - report.counts.unique;
    if require_unique && not_unique > 0 {
        let lines: Vec<String> = report
            .first_not_unique
            .iter()
            .map(|l| l.to_string())
            .collect();
        let _ = writeln!(
            std::io::stderr(),
            "sudoku-batch: {not_unique} records are not unique; first at lines {}",
            lines.join(", ")
        );
        return Ok(ExitCode::from(EXIT_NOT_UNIQUE));
    }
    Ok(ExitCode::SUCCESS)
}

/// The statuses `--only` keeps (all when not given); a status the job never writes is
/// refused, so that `solve --only unique` is not an empty file by mistake.
fn only_statuses<J: Job>(job: &J, only: &[cli::StatusArg]) -> Result<StatusSet, AppError> {
    if only.is_empty() {
        return Ok(StatusSet::ALL);
    }
    let statuses: Vec<Status> = only
        .iter()
        .map(|s| match s {
            cli::StatusArg::Unique => Status::Unique,
            cli::StatusArg::Multiple => Status::Multiple,
            cli::StatusArg::Solved => Status::Solved,
            cli::StatusArg::Unsolvable => Status::Unsolvable,
            cli::StatusArg::Invalid => Status::Invalid,
            cli::StatusArg::Undecided => Status::Undecided,
        })
        .collect();
    let counts = job.checks_uniqueness();
    if let Some(never) = statuses.iter().find(|s| match s {
        Status::Unique | Status::Multiple => !counts,
        Status::Solved => counts,
        _ => false,
    }) {
        let writes = if counts {
            "unique, multiple, unsolvable and invalid"
        } else {
            "solved, unsolvable and invalid"
        };
        return Err(AppError::Other(format!(
            "--only {}: {} writes {writes} rows only",
            never.word(),
            job.name()
        )));
    }
    Ok(StatusSet::of(&statuses))
}

/// The row format an output's name asks for: NDJSON for `.ndjson` and `.jsonl`, else
/// CSV (the contract).
/// The row format asked for, else the one the output's name says.
fn row_format(asked: Option<OutputFormatArg>, output: Option<&Path>) -> OutputFormat {
    match asked {
        Some(OutputFormatArg::Csv) => OutputFormat::Csv,
        Some(OutputFormatArg::Lines) => OutputFormat::Lines,
        Some(OutputFormatArg::Grid) => OutputFormat::Grid,
        Some(OutputFormatArg::Ndjson) => OutputFormat::Ndjson,
        Some(OutputFormatArg::Pairs) => OutputFormat::Pairs,
        None => format_of_name(output),
    }
}

/// `generate`'s row format: `--output-format`, or the older `--format csv|lines`
/// (`lines` then meant pairs), else the output's name.
fn made_format(args: &GenerateArgs) -> OutputFormat {
    match args.format {
        Some(MadeFormatArg::Csv) => OutputFormat::Csv,
        Some(MadeFormatArg::Lines) => OutputFormat::Pairs,
        None => row_format(args.output_format, args.out.output.as_deref()),
    }
}

fn format_of_name(output: Option<&Path>) -> OutputFormat {
    let extension = output
        .and_then(Path::extension)
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("ndjson" | "jsonl") => OutputFormat::Ndjson,
        _ => OutputFormat::Csv,
    }
}

/// An input opened for a record job.
enum Opened {
    /// A plain regular file, mapped (or read whole with `--no-mmap`).
    Mapped(input::InputBytes),
    /// Stdin, a FIFO or other special file, a compressed file or a NumPy array: read
    /// in blocks.
    Stream {
        /// The bytes as text (decoded, NumPy rows made lines).
        reader: Reader,
        /// What was found beyond plain text (`gzip`, `NumPy`), for the summary.
        found: Vec<&'static str>,
    },
}

/// An input read as a stream.
type Reader = Box<dyn std::io::Read + Send>;

/// Opens `input`: stdin, FIFOs, `/dev/stdin` and `<(...)` are streamed in blocks (never
/// read whole), compressed inputs (told by their first bytes) streamed through their
/// decoder, plain files mapped.
fn open_input(input: &Path, no_mmap: bool, member: Option<&str>) -> Result<Opened, AppError> {
    let io_error = |source| InputError::Io {
        path: input.to_path_buf(),
        source,
    };
    let stream: Option<Reader> = if is_stdin(input) {
        Some(Box::new(std::io::stdin()))
    } else if is_special(input) {
        Some(Box::new(std::fs::File::open(input).map_err(io_error)?))
    } else {
        None
    };
    let (reader, compression) = match stream {
        Some(mut reader) => {
            let head = compressed::stream_head(&mut reader).map_err(io_error)?;
            let compression = Compression::detect(head.get_ref());
            let whole = head.chain(reader);
            let reader: Reader = match compression {
                None => Box::new(whole),
                Some(Compression::Zip) => {
                    return Err(AppError::Other(format!(
                        "{}: a zip archive is read from a file (its index is at its end); \
                         save it first, or pipe `unzip -p` instead",
                        input.display()
                    )))
                }
                Some(c) => Box::new(compressed::decode(whole, c)),
            };
            (reader, compression)
        }
        None => {
            if input.is_dir() {
                return Err(InputError::IsDirectory(input.to_path_buf()).into());
            }
            let head = compressed::file_head(input).map_err(io_error)?;
            let compression = Compression::detect(&head);
            let file = || std::fs::File::open(input).map_err(io_error);
            let reader: Reader = match compression {
                None if head.starts_with(input::npy::MAGIC) => Box::new(file()?),
                None => return Ok(Opened::Mapped(input::open_file(input, no_mmap)?)),
                Some(Compression::Zip) => {
                    Box::new(compressed::decode_zip(input, member).map_err(io_error)?)
                }
                Some(c) => Box::new(compressed::decode(file()?, c)),
            };
            (reader, compression)
        }
    };
    let mut found: Vec<&'static str> = compression.iter().map(|c| c.name()).collect();
    // A NumPy array, plain or compressed: its rows become lines.
    let mut reader = reader;
    let head = compressed::stream_head(&mut reader).map_err(io_error)?;
    let is_npy = head.get_ref().starts_with(input::npy::MAGIC);
    let whole = head.chain(reader);
    let reader: Reader = if is_npy {
        found.push("NumPy");
        Box::new(
            input::npy::NpyLines::new(whole)
                .map_err(|e| AppError::Other(format!("{}: {e}", input.display())))?,
        )
    } else {
        Box::new(whole)
    };
    Ok(Opened::Stream { reader, found })
}

/// A run's report naming its input (and what it was found to be beyond plain text).
fn report_input(
    (mut report, histogram): (RunReport, Histogram<u64>),
    input: &Path,
    found: &[&str],
) -> (RunReport, Histogram<u64>) {
    report.input = if found.is_empty() {
        input.display().to_string()
    } else {
        format!("{} ({})", input.display(), found.join(", "))
    };
    (report, histogram)
}

/// True for an input that is neither a regular file nor a directory (a FIFO, a
/// character device, a process substitution).
fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// A stream's read error names the path the user gave, not `-`.
fn named_stream_error(e: RunError, path: &Path) -> RunError {
    match e {
        RunError::Input(InputError::Io { source, .. }) => RunError::Input(InputError::Io {
            path: path.to_path_buf(),
            source,
        }),
        other => other,
    }
}

fn load_puzzles(
    path: &Path,
    format: FormatArg,
    column: &Option<String>,
    rules: &BoardRules,
) -> Result<bench::Loaded, AppError> {
    if is_stdin(path) {
        return Err(AppError::Other(
            "this command needs a file, not stdin: records are loaded once and reused".into(),
        ));
    }
    let bytes = read_input(path, false)?;
    let layout =
        input::detect_layout(bytes.bytes(), format_choice(format), &column_choice(column))?;
    let loaded = bench::load(bytes.bytes(), &layout, rules);
    bytes.check_unchanged(path)?;
    Ok(loaded)
}

fn run_bench(args: &cli::BenchArgs) -> Result<ExitCode, AppError> {
    let outputs = given(&[
        (args.report.as_deref(), "--report"),
        (args.plot.as_deref(), "--plot"),
    ]);
    output::check_outputs(&[(&args.input, "the input")], &outputs)?;
    let rules = board_rules(&args.boards)?;
    let loaded = load_puzzles(&args.input, args.format, &args.column, &rules)?;
    let boards = !loaded.boards.is_empty();
    let mode = match args.mode {
        cli::BenchMode::Solve => bench::BenchMode::Solve,
        cli::BenchMode::Count => bench::BenchMode::Count,
    };
    let mut threads: Vec<usize> = args.threads.iter().map(|&t| usize::from(t)).collect();
    if threads.is_empty() {
        threads.push(1);
        if default_threads() > 1 {
            threads.push(default_threads());
        }
    }
    let cores = default_threads();
    if let Some(&over) = threads.iter().find(|&&t| t > cores) {
        if !args.quiet {
            eprintln!(
                "warning: {} on {cores} cores: threads beyond the cores share them, so their \
                 rates measure contention, not scaling",
                bench::threads_label(over)
            );
        }
    }
    if loaded.puzzles.is_empty() && !boards {
        return Err(AppError::Other(format!(
            "{}: no valid puzzles to time ({} invalid records)",
            args.input.display(),
            loaded.invalid
        )));
    }
    let rounds = (args.warmup, args.rounds);
    let (effort, timed) = match args.engine {
        EngineArg::Fast => bench::run::<Fast>(&loaded, rules.variant, mode, &threads, rounds),
        EngineArg::Dlx => bench::run::<Dlx>(&loaded, rules.variant, mode, &threads, rounds),
    }
    .map_err(|(t, e)| AppError::Other(format!("cannot start {t} threads: {e}")))?;
    let mut results: Vec<ThreadResult> = Vec::new();
    let mut histograms: Vec<Histogram<u64>> = Vec::new();
    for (t, rates, histogram) in timed {
        let rate = bench::summarise(&rates);
        let base = results
            .first()
            .map_or((rate.median, t), |r| (r.puzzles_per_sec.median, r.threads));
        let speedup = rate.median / base.0.max(1e-9);
        results.push(ThreadResult {
            threads: t,
            puzzles_per_sec: rate,
            speedup,
            efficiency: speedup / (t as f64 / base.1 as f64),
            latency_ns: Latency::from_histogram(&histogram),
        });
        if let Some(path) = &args.histogram {
            let mut text = Vec::new();
            write_hgrm(&histogram, &mut text).map_err(|e| AppError::Other(e.to_string()))?;
            output::write_file(&per_thread_path(path, t), &text)?;
        }
        histograms.push(histogram);
    }
    if let Some(path) = &args.plot {
        let points: Vec<ThreadPoint<'_>> = results
            .iter()
            .zip(&histograms)
            .map(|(r, h)| ThreadPoint {
                threads: r.threads,
                rate: r.puzzles_per_sec.mean,
                range: (r.puzzles_per_sec.min, r.puzzles_per_sec.max),
                histogram: h,
            })
            .collect();
        let name = args.input.file_name().map_or_else(
            || args.input.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let svg = plot::bench_svg(&name, &points).map_err(|e| AppError::Other(e.to_string()))?;
        output::write_file(path, svg.as_bytes())?;
    }
    let report = BenchReport {
        input: args.input.display().to_string(),
        records: (loaded.puzzles.len() + loaded.boards.len()) as u64 + loaded.invalid,
        timed: (loaded.puzzles.len() + loaded.boards.len()) as u64,
        invalid: loaded.invalid,
        parse_seconds: loaded.parse_seconds,
        mode,
        warmup: args.warmup,
        rounds: args.rounds,
        effort,
        results,
    };
    if !args.quiet {
        let mut stdout = Output::open(None)?;
        let text = if args.markdown {
            bench::markdown(&report)
        } else {
            bench::table(&report)
        };
        stdout.write_all(text.as_bytes())?;
        stdout.finish()?;
    }
    if let Some(path) = &args.report {
        write_json_report(path, &report)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `lat.hgrm` for 2 threads becomes `lat.t2.hgrm`.
fn per_thread_path(path: &Path, threads: usize) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}.t{threads}.{}", ext.to_string_lossy()),
        None => format!("{stem}.t{threads}"),
    };
    path.with_file_name(name)
}

fn run_corpus(args: &cli::CorpusArgs) -> Result<ExitCode, AppError> {
    let started = std::time::Instant::now();
    let source = args.source();
    if let Some(out) = &args.output {
        output::check_outputs(&[(source, "the input")], &[(out, "-o")])?;
    }
    let loaded = load_puzzles(source, args.format, &args.column, &BoardRules::default())?;
    if loaded.puzzles.is_empty() {
        return Err(AppError::Other(format!(
            "{}: no valid puzzles to transform",
            source.display()
        )));
    }
    let mut out = Output::open(args.output.as_deref())?;
    let mut buf = Vec::with_capacity(1 << 20);
    let mut failed: Option<OutputError> = None;
    corpus::generate(&loaded.puzzles, args.count, args.seed, |g| {
        if failed.is_some() {
            return;
        }
        buf.extend_from_slice(&g.to_line());
        buf.push(b'\n');
        if buf.len() >= 1 << 20 {
            if let Err(e) = out.write_all(&buf) {
                failed = Some(e);
            }
            buf.clear();
        }
    });
    if let Some(e) = failed {
        return Err(e.into());
    }
    out.write_all(&buf)?;
    out.finish()?;
    if !args.quiet {
        eprintln!(
            "corpus: {} records from {} puzzles of {} (seed {}) in {:.2} s",
            args.count,
            loaded.puzzles.len(),
            source.display(),
            args.seed,
            started.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// `completions SHELL`: the script clap_complete makes from the parser's definition.
fn run_completions(args: &cli::CompletionsArgs) -> Result<ExitCode, AppError> {
    let mut text = Vec::new();
    clap_complete::generate(
        args.shell,
        &mut <Cli as clap::CommandFactory>::command(),
        "sudoku-batch",
        &mut text,
    );
    let mut out = Output::open(None)?;
    out.write_all(&text)?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// `man`: the manual page clap_mangen makes from the parser's definition, with a page
/// section per command.
fn run_man() -> Result<ExitCode, AppError> {
    let command = <Cli as clap::CommandFactory>::command();
    let mut text = Vec::new();
    clap_mangen::Man::new(command.clone())
        .render(&mut text)
        .map_err(|e| AppError::Other(e.to_string()))?;
    for sub in command.get_subcommands().filter(|s| s.get_name() != "help") {
        let name = format!("sudoku-batch-{}", sub.get_name());
        let page = sub
            .clone()
            .display_name(name.clone())
            .bin_name(name.replace('-', " "));
        text.extend_from_slice(b"\n");
        clap_mangen::Man::new(page)
            .render(&mut text)
            .map_err(|e| AppError::Other(e.to_string()))?;
    }
    let mut out = Output::open(None)?;
    out.write_all(&text)?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}

fn key_by(by: cli::ByArg) -> crate::classes::KeyBy {
    match by {
        cli::ByArg::Canonical => crate::classes::KeyBy::Canonical,
        cli::ByArg::Text => crate::classes::KeyBy::Text,
    }
}

/// A whole input for the dataset commands: a mapped file, or stdin, a special file or
/// a compressed file read (and decoded) into memory, as these commands hold every
/// record's key anyway.
fn read_input(path: &Path, no_mmap: bool) -> Result<input::InputBytes, AppError> {
    match open_input(path, no_mmap, None)? {
        Opened::Mapped(bytes) => Ok(bytes),
        Opened::Stream { mut reader, .. } => {
            let mut bytes = Vec::new();
            reader
                .read_to_end(&mut bytes)
                .map_err(|source| InputError::Io {
                    path: path.to_path_buf(),
                    source,
                })?;
            Ok(input::InputBytes::Read(bytes))
        }
    }
}

/// A whole input for the dataset commands and how its records are laid out.
fn read_dataset(args: &InputArgs) -> Result<(input::InputBytes, input::Layout), AppError> {
    let bytes = read_input(&args.input, args.no_mmap)?;
    let layout = input::detect_layout(
        bytes.bytes(),
        format_choice(args.format),
        &column_choice(&args.column),
    )?;
    Ok((bytes, layout))
}

/// A rayon pool of `threads` (default: all cores).
fn pool(threads: Option<u16>) -> Result<rayon::ThreadPool, AppError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.map_or_else(default_threads, usize::from))
        .build()
        .map_err(|e| AppError::Other(format!("cannot start worker threads: {e}")))
}

/// Writes `report` as pretty JSON to the file `path`, atomically.
fn write_json_report<T: serde::Serialize>(path: &Path, report: &T) -> Result<(), AppError> {
    let json = serde_json::to_vec_pretty(report)
        .map_err(|e| AppError::Other(format!("cannot encode report: {e}")))?;
    output::write_file(path, &json)?;
    Ok(())
}

fn run_dedupe(args: &cli::DedupeArgs) -> Result<ExitCode, AppError> {
    let outputs = given(&[
        (args.output.as_deref(), "-o"),
        (args.rows.as_deref(), "--rows"),
        (args.report.as_deref(), "--report"),
    ]);
    output::check_outputs(&[(&args.input.input, "the input")], &outputs)?;
    let (bytes, layout) = read_dataset(&args.input)?;
    let mut out = Output::open(args.output.as_deref())?;
    let mut rows = args
        .rows
        .as_deref()
        .map(|p| Output::open(Some(p)))
        .transpose()?;
    let pool = pool(args.input.threads)?;
    let mut report = pool
        .install(|| {
            crate::dedupe::dedupe(
                bytes.bytes(),
                &layout,
                key_by(args.by),
                &mut out,
                rows.as_mut().map(|r| r as &mut dyn Write),
            )
        })
        .map_err(|e| written_error(args.output.as_deref(), e))?;
    report.input = args.input.input.display().to_string();
    bytes.check_unchanged(&args.input.input)?;
    out.finish()?;
    if let Some(rows) = rows {
        rows.finish()?;
    }
    if let Some(path) = &args.report {
        write_json_report(path, &report)?;
    }
    if !args.quiet {
        let _ = report.write_summary(&mut std::io::stderr());
    }
    Ok(ExitCode::SUCCESS)
}

fn run_split(args: &cli::SplitArgs) -> Result<ExitCode, AppError> {
    let input = &args.input.input;
    crate::split::check_fraction(args.fraction).map_err(|e| AppError::Other(e.to_string()))?;
    let side = |given: &Option<PathBuf>, part: &str| -> Result<PathBuf, AppError> {
        if let Some(path) = given {
            return Ok(path.clone());
        }
        if is_stdin(input) {
            return Err(AppError::Other(format!(
                "split of stdin needs --{part}-out: there is no input name to derive it from"
            )));
        }
        let stem = input.file_stem().unwrap_or_default().to_string_lossy();
        Ok(PathBuf::from(match input.extension() {
            Some(ext) => format!("{stem}.{part}.{}", ext.to_string_lossy()),
            None => format!("{stem}.{part}"),
        }))
    };
    let (train_path, test_path) = (
        side(&args.train_out, "train")?,
        side(&args.test_out, "test")?,
    );
    let mut outputs = vec![
        (train_path.as_path(), "--train-out"),
        (test_path.as_path(), "--test-out"),
    ];
    if let Some(report) = &args.report {
        outputs.push((report, "--report"));
    }
    output::check_outputs(&[(input, "the input")], &outputs)?;
    let (bytes, layout) = read_dataset(&args.input)?;
    let mut train = Output::open(Some(&train_path))?;
    let mut test = Output::open(Some(&test_path))?;
    let pool = pool(args.input.threads)?;
    let mut report = pool
        .install(|| {
            crate::split::split(
                bytes.bytes(),
                &layout,
                key_by(args.by),
                args.fraction,
                args.seed,
                &mut train,
                &mut test,
            )
        })
        .map_err(|e| match e {
            crate::split::SplitError::Write { test, source } => {
                written_error(Some(if test { &test_path } else { &train_path }), source)
            }
            other => AppError::Other(other.to_string()),
        })?;
    report.input = input.display().to_string();
    bytes.check_unchanged(input)?;
    train.finish()?;
    test.finish()?;
    if let Some(path) = &args.report {
        write_json_report(path, &report)?;
    }
    if !args.quiet {
        let _ = report.write_summary(&mut std::io::stderr());
    }
    Ok(ExitCode::SUCCESS)
}

fn run_overlap(args: &cli::OverlapArgs) -> Result<ExitCode, AppError> {
    let outputs = given(&[
        (args.output.as_deref(), "-o"),
        (args.report.as_deref(), "--report"),
    ]);
    output::check_outputs(
        &[
            (&args.train, "the training set"),
            (&args.test, "the test set"),
        ],
        &outputs,
    )?;
    let train = read_input(&args.train, false)?;
    let test = read_input(&args.test, false)?;
    let format = format_choice(args.format);
    let column = column_choice(&args.column);
    let train_layout = input::detect_layout(train.bytes(), format, &column)?;
    let test_layout = input::detect_layout(test.bytes(), format, &column)?;
    let mut out = Output::open(args.output.as_deref())?;
    let pool = pool(args.threads)?;
    let mut report = pool
        .install(|| {
            crate::dedupe::overlap(
                (train.bytes(), &train_layout),
                (test.bytes(), &test_layout),
                key_by(args.by),
                &mut out,
            )
        })
        .map_err(|e| written_error(args.output.as_deref(), e))?;
    report.train = args.train.display().to_string();
    report.test = args.test.display().to_string();
    out.finish()?;
    if let Some(path) = &args.report {
        write_json_report(path, &report)?;
    }
    if !args.quiet {
        let _ = report.write_summary(&mut std::io::stderr());
    }
    if args.require_disjoint && report.leaks > 0 {
        return Ok(ExitCode::from(EXIT_NOT_UNIQUE));
    }
    Ok(ExitCode::SUCCESS)
}

/// A write error of a dataset command's outputs, named by the main output.
fn written_error(output: Option<&Path>, source: std::io::Error) -> AppError {
    AppError::Output(OutputError::Write {
        path: output.map_or_else(|| PathBuf::from("stdout"), Path::to_path_buf),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn per_thread_paths() {
        assert_eq!(
            per_thread_path(Path::new("out/lat.hgrm"), 2),
            Path::new("out/lat.t2.hgrm")
        );
        assert_eq!(per_thread_path(Path::new("lat"), 4), Path::new("lat.t4"));
    }

    /// The fast engines, except that they call every puzzle whose first cell is given
    /// `multiple`: a planted engine bug for `--cross-check` to find.
    struct Faulty(Box<Fast>);

    impl crate::engine::Engine for Faulty {
        fn new(variant: Variant) -> Box<Self> {
            Box::new(Faulty(Fast::new(variant)))
        }
        fn solve(&mut self, p: &crate::Grid) -> crate::Outcome {
            self.0.solve(p)
        }
        fn solve_excluding(&mut self, p: &crate::Grid, cell: usize, digit: u8) -> crate::Outcome {
            self.0.solve_excluding(p, cell, digit)
        }
        fn count(&mut self, p: &crate::Grid, limit: u64) -> crate::Count {
            self.0.count(p, limit)
        }
        fn classify(&mut self, p: &crate::Grid) -> crate::Classification {
            match self.0.classify(p) {
                crate::Classification::Unique(s) if p.get(0) != 0 => {
                    crate::Classification::Multiple(s)
                }
                other => other,
            }
        }
        fn count_board(
            &mut self,
            board: &crate::variant::Board,
            limit: u64,
        ) -> Result<
            Result<crate::variant::BoardCount, crate::variant::BoardClash>,
            crate::variant::GeometryError,
        > {
            let mut counted = self.0.count_board(board, limit);
            if let Ok(Ok(count)) = &mut counted {
                if board.get(0) != 0 && count.solutions == 1 && limit > 1 {
                    count.solutions = 2;
                }
            }
            counted
        }
        fn stats(&self) -> crate::SearchStats {
            self.0.stats()
        }
        fn set_budget(&mut self, budget: Budget) {
            self.0.set_budget(budget);
        }
    }

    /// What `classify FILE --cross-check` did with the planted bug as second engine, and
    /// then with dancing links.
    struct Planted {
        /// Lines whose record has r1c1 given (the planted disagreements).
        lines: Vec<u64>,
        /// Records in the file.
        records: u64,
        faulty: (ExitCode, RunReport, String),
        sound: (ExitCode, String),
    }

    fn planted_run(file: &str) -> Planted {
        use clap::Parser;
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let text = std::fs::read_to_string(&data).unwrap();
        let lines: Vec<u64> = (1..)
            .zip(text.lines())
            .filter(|(_, l)| !l.starts_with('.') && !l.starts_with('0'))
            .map(|(n, _)| n)
            .collect();
        assert!(lines.len() > 10, "{file} must hold puzzles with r1c1 given");
        let dir = tempfile::tempdir().unwrap();
        let (rows, report) = (dir.path().join("rows.csv"), dir.path().join("r.json"));
        let cli = Cli::parse_from([
            "sudoku-batch",
            "classify",
            data.to_str().unwrap(),
            "--cross-check",
            "-q",
            "-o",
            rows.to_str().unwrap(),
            "--report",
            report.to_str().unwrap(),
        ]);
        let Command::Classify(args) = cli.command else {
            panic!("not classify")
        };
        let read = |path: &Path| std::fs::read_to_string(path).unwrap();
        let code = run_job(&CrossCheck::<Fast, Faulty>::default(), &args.run, false).unwrap();
        let faulty = (
            code,
            serde_json::from_str(&read(&report)).unwrap(),
            read(&rows),
        );
        let code = run_job(&CrossCheck::new(), &args.run, false).unwrap();
        Planted {
            lines,
            records: text.lines().count() as u64,
            faulty,
            sound: (code, read(&rows)),
        }
    }

    #[test]
    fn a_disagreement_is_counted_listed_and_exits_3() {
        let run = planted_run("data/norvig-top95.txt");
        let (code, report, written) = &run.faulty;
        assert_eq!(*code, ExitCode::from(EXIT_DISAGREE));
        assert_eq!(report.disagree, Some(run.lines.len() as u64));
        assert_eq!(report.first_disagree, run.lines[..10]);
        // The rows are the first engine's; column `engines` marks the planted records.
        let disagreeing: Vec<u64> = written
            .lines()
            .skip(1)
            .filter(|l| l.ends_with(",disagree"))
            .map(|l| l.split(',').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(disagreeing, run.lines);
        assert!(written.lines().skip(1).all(|l| l.contains(",unique,")));
        // Without the planted bug, the same run agrees everywhere and exits 0.
        assert_eq!(run.sound.0, ExitCode::SUCCESS);
    }

    #[test]
    fn a_disagreement_on_variant_boards_is_found_too() {
        let run = planted_run("data/variants/solo-16x16.txt");
        let (code, report, _) = &run.faulty;
        assert_eq!(*code, ExitCode::from(EXIT_DISAGREE));
        assert_eq!(report.disagree, Some(run.lines.len() as u64));
        assert_eq!(report.cross_checked, Some(run.records));
        assert_eq!(report.first_disagree, run.lines[..10]);
        // Variant engine checked by dancing links: all agree.
        let (code, written) = &run.sound;
        assert_eq!(*code, ExitCode::SUCCESS);
        assert!(
            written
                .lines()
                .skip(1)
                .all(|l| l.ends_with(",unique,,,agree")),
            "{written}"
        );
    }
}
