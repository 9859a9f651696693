//! Flags turned into the library's settings: board rules, formats, columns, threads,
//! outputs to check, statuses to keep. Shared by every command.

use super::error::{AppError, Usage};
use crate::cli;
use crate::cli::{LayoutArgs, OutputArgs, OutputFormatArg};
use crate::jobs::Job;
use crate::pipeline::input::Choice;
use crate::pipeline::output::name::Named;
use crate::pipeline::output::Encoding;
use crate::pipeline::progress::{Progress, ProgressUnit};
use crate::pipeline::rows::OutputFormat;
use crate::pipeline::settings::Asked;
use crate::reports::StatusSet;
use crate::values::rules::BoardRules;
use crate::values::status::Status;
use std::io::IsTerminal;
use std::path::Path;

/// The flags as written, for the library's one check of a run's settings
/// ([`Asked`]), as a query string's parameters and Python's keywords are.
pub(super) fn asked<'a>(
    layout: Option<&'a LayoutArgs>,
    boards: Option<&'a cli::BoardArgs>,
    threads: Option<u16>,
) -> Asked<'a> {
    Asked {
        threads: threads.map(usize::from),
        format: layout.map(|l| l.format.name()),
        column: layout.and_then(|l| l.column.as_deref()),
        delimiter: layout.and_then(|l| l.delimiter.as_deref()),
        size: boards
            .and_then(|b| b.size.as_deref())
            .and_then(|s| s.parse().ok()),
        variant: boards.map(|b| b.variant.name()),
        symbols: boards.and_then(|b| b.symbols.as_deref()),
    }
}

/// The board rules of `--size`, `--variant` and `--symbols`, checked.
pub(super) fn board_rules(args: &cli::BoardArgs) -> Result<BoardRules, AppError> {
    Ok(asked(None, Some(args), None).boards()?)
}

/// What the user said of an input's layout, checked, as the library takes it.
pub(super) fn layout_choice(args: &LayoutArgs) -> Result<Choice, AppError> {
    Ok(asked(Some(args), None, None).input()?)
}

pub(super) fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A progress bar only for a person watching: stderr a terminal, neither `-q` nor
/// `--no-progress`.
pub(super) fn progress_shown(quiet: bool, no_progress: bool) -> bool {
    !quiet && !no_progress && std::io::stderr().is_terminal()
}

/// [`progress_shown`] for the record commands' output options.
pub(super) fn show_progress(out: &OutputArgs) -> bool {
    progress_shown(out.quiet, out.no_progress)
}

/// A progress bar over `total` input bytes for a dataset command, drawn only for a
/// person watching ([`progress_shown`]).
pub(super) fn dataset_progress(total: u64, what: &str, quiet: bool, no_progress: bool) -> Progress {
    Progress::new(
        total,
        ProgressUnit::Bytes,
        what,
        progress_shown(quiet, no_progress),
    )
}

/// The progress bar of datasets read a window at a time: up to their sizes when each is
/// one window, else a count of the bytes decoded.
pub(super) fn windows_progress(
    windows: &[&crate::pipeline::windows::Windows],
    what: &str,
    quiet: bool,
    no_progress: bool,
) -> Progress {
    let sizes: Option<u64> = windows
        .iter()
        .map(|w| w.whole().map(|b| b.len() as u64))
        .sum();
    match sizes {
        Some(total) => dataset_progress(total, what, quiet, no_progress),
        None => Progress::counting_bytes(what, progress_shown(quiet, no_progress)),
    }
}

/// Writes the report and histogram files asked for, and the summary on stderr.
/// The outputs named by `out` (with `-o`), as (path, option) pairs for
/// [`output::check_outputs`].
pub(super) fn named_outputs(out: &OutputArgs) -> Vec<(&Path, &'static str)> {
    given(&[
        (out.output.as_deref(), "-o"),
        (out.report.as_deref(), "--report"),
        (out.histogram.as_deref(), "--histogram"),
        (out.plot.as_deref(), "--plot"),
    ])
}

/// The (path, option) pairs whose option was given.
pub(super) fn given<'a>(
    options: &[(Option<&'a Path>, &'static str)],
) -> Vec<(&'a Path, &'static str)> {
    options
        .iter()
        .filter_map(|&(p, what)| p.map(|p| (p, what)))
        .collect()
}

/// The statuses `--only` keeps (all when not given); a status the job never writes is
/// refused, so that `solve --only unique` is not an empty file by mistake.
pub(super) fn only_statuses<J: Job>(
    job: &J,
    only: &[cli::StatusArg],
) -> Result<StatusSet, AppError> {
    if only.is_empty() {
        return Ok(StatusSet::ALL);
    }
    let statuses: Vec<Status> = only
        .iter()
        .filter_map(|s| match s {
            cli::StatusArg::Unique => Some(Status::Unique),
            cli::StatusArg::Multiple => Some(Status::Multiple),
            cli::StatusArg::Solved => Some(Status::Solved),
            cli::StatusArg::Unsolvable => Some(Status::Unsolvable),
            cli::StatusArg::Invalid => Some(Status::Invalid),
            cli::StatusArg::Undecided => Some(Status::Undecided),
            cli::StatusArg::Mismatch => None,
        })
        .collect();
    let mismatches = only.contains(&cli::StatusArg::Mismatch);
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
        return Err(Usage::OnlyNever {
            status: *never,
            command: job.name(),
            writes,
        }
        .into());
    }
    let set = StatusSet::of(&statuses);
    Ok(if mismatches {
        set.with_mismatches()
    } else {
        set
    })
}

/// The row format asked for, else the one the output's name says: NDJSON for `.ndjson`
/// and `.jsonl`, else CSV (the contract; a Parquet output is made from CSV rows).
pub(super) fn row_format(asked: Option<OutputFormatArg>, output: Option<&Path>) -> OutputFormat {
    match asked {
        Some(OutputFormatArg::Csv | OutputFormatArg::Parquet) => OutputFormat::Csv,
        Some(OutputFormatArg::Lines) => OutputFormat::Lines,
        Some(OutputFormatArg::Grid) => OutputFormat::Grid,
        Some(OutputFormatArg::Ndjson) => OutputFormat::Ndjson,
        Some(OutputFormatArg::Tsv) => OutputFormat::Tsv,
        Some(OutputFormatArg::Pairs) => OutputFormat::Pairs,
        None => format_of_name(output),
    }
}

pub(super) fn format_of_name(output: Option<&Path>) -> OutputFormat {
    match Named::of(output).format.as_deref() {
        Some("ndjson" | "jsonl") => OutputFormat::Ndjson,
        Some("tsv" | "tab") => OutputFormat::Tsv,
        _ => OutputFormat::Csv,
    }
}

/// The output's encoding: Parquet when asked, or when `-o` ends in `.parquet` and no
/// other format is asked; compressed where its name ends in `.gz` or `.zst`; `typed`
/// is how many leading columns are the run's own. A name that asks for what is not
/// written (`.xlsx`, `.tsv`, `.parquet.gz`) is refused.
pub(super) fn encoding(
    asked: Option<OutputFormatArg>,
    output: Option<&Path>,
    typed: usize,
) -> Result<Encoding, AppError> {
    let named = Named::of(output);
    if let Some(refused) = output.and_then(|p| named.refusal(p)) {
        return Err(refused.into());
    }
    let parquet = match asked {
        Some(asked) => asked == OutputFormatArg::Parquet,
        None => named.format.as_deref() == Some("parquet"),
    };
    Ok(match (parquet, named.codec) {
        (true, None) => Encoding::Parquet { typed },
        (true, Some(_)) => {
            let path = output.unwrap_or(Path::new("-"));
            return Err(crate::pipeline::output::name::compressed_parquet(path).into());
        }
        (false, Some(codec)) => Encoding::Compressed(codec),
        (false, None) => Encoding::Plain,
    })
}

pub(super) fn key_by(by: cli::ByArg) -> crate::datasets::classes::KeyBy {
    match by {
        cli::ByArg::Canonical => crate::datasets::classes::KeyBy::Canonical,
        cli::ByArg::Text => crate::datasets::classes::KeyBy::Text,
    }
}

/// A rayon pool of `threads` (default: all cores).
pub(super) fn pool(threads: Option<u16>) -> Result<rayon::ThreadPool, AppError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(asked(None, None, threads).threads()?)
        .build()
        .map_err(|source| AppError::Threads {
            count: None,
            source,
        })
}
