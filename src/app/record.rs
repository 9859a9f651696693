//! The record commands (`solve`, `classify`, `grade`, `minimize`, `canon`): one job per
//! record through the pipeline.

use super::config::{asked, encoding, named_outputs, only_statuses, row_format, show_progress};
use super::error::{AppError, Usage, EXIT_DISAGREE, EXIT_NOT_UNIQUE};
use super::inputs::open_input;
use super::merge::REPORT_LINE;
use super::outputs::write_results;
use crate::cli::{EngineArg, InputArgs, RunArgs};
use crate::engines::dlx::Dlx;
use crate::engines::{Bitboards, Engine};
use crate::jobs::{Canon, Classify, Columns, Grade, Job, Minimize, Solve};
use crate::pipeline;
use crate::pipeline::input;
use crate::pipeline::input::{is_special, is_stdin};
use crate::pipeline::output;
use crate::pipeline::output::{Encoding, Output};
use crate::pipeline::rows::RatingFilter;
use crate::pipeline::rows::{RowWriter, COLUMNS};
use crate::pipeline::{Joins, RunOptions, Shard};
use crate::values::puzzle::Shape;
use crate::values::search::Budget;
use std::io::Write;
use std::process::ExitCode;

/// A record job of either engine family: `Solve<E>` for any `E`. What makes adding a
/// record command one type (the job) and one line (its arm in [`super::run`]).
pub(super) trait OnEngine {
    /// The job on engine family `E`.
    type With<E: Engine>: Job + Default;
}

impl<E> OnEngine for Solve<E> {
    type With<F: Engine> = Solve<F>;
}
impl<E> OnEngine for Classify<E> {
    type With<F: Engine> = Classify<F>;
}
impl<E> OnEngine for Grade<E> {
    type With<F: Engine> = Grade<F>;
}
impl<E> OnEngine for Minimize<E> {
    type With<F: Engine> = Minimize<F>;
}
impl<E> OnEngine for Canon<E> {
    type With<F: Engine> = Canon<F>;
}

/// Runs record job `J` on the engine family `--engine` names.
pub(super) fn run_record<J: OnEngine>(
    args: &RunArgs,
    require_unique: bool,
) -> Result<ExitCode, AppError> {
    match args.engine {
        EngineArg::Fast => run_job(&J::With::<Bitboards>::default(), args, require_unique, None),
        EngineArg::Dlx => run_job(&J::With::<Dlx>::default(), args, require_unique, None),
    }
}

/// Runs one job over the input through the pipeline, then writes the report, the
/// histogram and the summary.
pub(super) fn run_job<J: Job>(
    job: &J,
    args: &RunArgs,
    require_unique: bool,
    rated: Option<RatingFilter>,
) -> Result<ExitCode, AppError> {
    let InputArgs {
        input,
        threads,
        layout,
        no_mmap,
        member,
    } = &args.input;
    let settings = asked(Some(layout), Some(&args.boards), *threads).settings()?;
    let mut options = RunOptions {
        joins: Joins {
            keep_columns: args.keep_columns,
            record_index: args.record_index,
            puzzle_as_read: args.puzzle_as_read,
            no_solution: args.no_solution,
            typed_rows: false,
        },
        output_format: row_format(args.output_format, args.out.output.as_deref()),
        progress: show_progress(&args.out),
        shard: args.shard.map(|(index, count)| Shard { index, count }),
        header: !args.no_header,
        first_line: args.first_line,
        only: only_statuses(job, &args.only)?,
        rated,
        budget: Budget::guesses(args.budget),
        max_record: args.max_record_bytes,
        ..settings
    };
    if options.boards.all_boards() && !job.takes().contains(Shape::Board) {
        return Err(Usage::BoardsRefused(job.name()).into());
    }
    for (asked, flag) in [
        (args.keep_columns, "--keep-columns"),
        (args.record_index, "--record-index"),
        (args.puzzle_as_read, "--puzzle-as-read"),
    ] {
        if asked && !RowWriter::carries_input_fields(options.output_format) {
            return Err(Usage::NeedsCsvOrNdjson(flag).into());
        }
    }
    // The run's own columns, typed in a Parquet file; kept input fields come after.
    let ours = COLUMNS.len() + <J::Extra as Columns>::NAMES.len() + usize::from(args.record_index);
    let encoding = encoding(args.output_format, args.out.output.as_deref(), ours)?;
    options.joins.typed_rows = matches!(encoding, Encoding::Parquet { .. });
    if args.report_line && encoding != Encoding::Plain {
        return Err(Usage::ReportLineOfParquet.into());
    }
    if args.record_index && options.shard.is_some() {
        return Err(Usage::RecordIndexOfShard.into());
    }
    if options.shard.is_some() && (is_stdin(input) || is_special(input)) {
        return Err(Usage::ShardOfStream.into());
    }
    output::check_outputs(&[(input, "the input")], &named_outputs(&args.out))?;
    // Open the input before the output, so a bad input leaves no output file behind
    // (a Parquet file's row groups, those of the shard, are cut into pieces here).
    let opened = open_input(
        input,
        *no_mmap,
        member.as_deref(),
        &options.input.column,
        options.shard,
        Some(options.max_record),
    )?;
    if options.joins.keep_columns && matches!(opened, input::Opened::Parquet { .. }) {
        return Err(Usage::KeepColumnsOfParquet.into());
    }
    if options.shard.is_some() {
        if let input::Opened::Stream { found, .. } = &opened {
            return Err(match found.first() {
                Some(&what) => Usage::ShardOfEncoded {
                    path: input.to_path_buf(),
                    what,
                },
                None => Usage::ShardOfStream,
            }
            .into());
        }
    }
    let mut out = Output::open_as(args.out.output.as_deref(), encoding)?;
    let (mut report, histogram) = pipeline::run(job, input, opened, &options, &mut out)?;
    if let Some(shard) = options.shard {
        report.input = format!("{} (shard {}/{})", report.input, shard.index, shard.count);
    }
    if report.rows_written.checked_add(report.left_out) != Some(report.records) {
        return Err(AppError::LostRows {
            input: report.input.clone(),
            records: report.records,
            rows: report.rows_written,
            left_out: report.left_out,
        });
    }
    if args.report_line {
        let json = serde_json::to_string(&report).map_err(AppError::Encode)?;
        out.write_all(format!("{REPORT_LINE}{json}\n").as_bytes())?;
    }
    report.add_commit(out.finish_timed()?);
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
    if args.require_match && report.mismatches > 0 {
        let lines: Vec<String> = report.first_mismatches.iter().map(u64::to_string).collect();
        let _ = writeln!(
            std::io::stderr(),
            "sudoku-batch: {} records have a given solution that is not their puzzle's; \
             first at lines {}",
            report.mismatches,
            lines.join(", ")
        );
        return Ok(ExitCode::from(EXIT_NOT_UNIQUE));
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
