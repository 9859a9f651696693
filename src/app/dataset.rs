//! The dataset commands (`dedupe`, `split`, `overlap`): records grouped by class.

use super::config::{given, key_by, pool, windows_progress};
use super::error::{AppError, Usage, EXIT_NOT_UNIQUE};
use super::inputs::{open_dataset, windows_error, Spool};
use super::outputs::{write_json_report, written_error, CopyOutput};
use crate::cli;
use crate::datasets::dedupe::{DEDUPE_COLUMNS, OVERLAP_COLUMNS};
use crate::datasets::rows::RowsShape;
use crate::datasets::split::SplitBy;
use crate::pipeline::input;
use crate::pipeline::input::is_stdin;
use crate::pipeline::output;
use crate::pipeline::output::tabular::Tabular;
use crate::pipeline::output::Output;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

pub(super) fn run_dedupe(args: &cli::DedupeArgs) -> Result<ExitCode, AppError> {
    let outputs = given(&[
        (args.output.as_deref(), "-o"),
        (args.rows.as_deref(), "--rows"),
        (args.report.as_deref(), "--report"),
    ]);
    output::check_outputs(&[(&args.input.input, "the input")], &outputs)?;
    let rows_encoding = args
        .rows
        .as_deref()
        .map(|p| {
            Tabular::rows_encoding(
                None,
                Some(p),
                DEDUPE_COLUMNS.len() + usize::from(args.record_index),
            )
        })
        .transpose()?;
    let input = &args.input;
    let mut windows = open_dataset(
        &input.input,
        input.no_mmap,
        input.member.as_deref(),
        &input.layout,
    )?;
    let layout = windows.layout().clone();
    let mut out = CopyOutput::open(args.output.as_deref(), &layout, tabular(args.output_format))?;
    let mut rows = match (args.rows.as_deref(), rows_encoding) {
        (Some(path), Some(encoding)) => Some(Output::open_as(Some(path), encoding)?),
        _ => None,
    };
    let shape = RowsShape {
        numbered: args.record_index,
        keep_fields: false,
    };
    let pool = pool(args.input.threads)?;
    let progress = windows_progress(&[&windows], "dedupe", args.quiet, args.no_progress);
    let mut report = pool
        .install(|| {
            crate::datasets::dedupe::dedupe_windows(
                &mut windows,
                key_by(args.by),
                &mut out,
                rows.as_mut().map(|r| (r as &mut dyn Write, shape)),
                &progress,
            )
        })
        .map_err(|e| windows_error(args.output.as_deref(), e))?;
    progress.finish();
    report.input = args.input.input.display().to_string();
    windows.check_unchanged(&args.input.input)?;
    report.wall_seconds += out.finish_timed(args.output.as_deref())?;
    if let Some(rows) = rows {
        report.wall_seconds += rows.finish_timed()?;
    }
    if let Some(path) = &args.report {
        write_json_report(path, &report)?;
    }
    if !args.quiet {
        let _ = report.write_summary(&mut std::io::stderr());
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn run_split(args: &cli::SplitArgs) -> Result<ExitCode, AppError> {
    let input = &args.input.input;
    crate::datasets::split::check_fraction(args.fraction).map_err(AppError::Split)?;
    let side = |given: &Option<PathBuf>, part: &'static str| -> Result<PathBuf, AppError> {
        if let Some(path) = given {
            return Ok(path.clone());
        }
        if is_stdin(input) {
            return Err(Usage::SplitNeedsOut(part).into());
        }
        let name = output::copied::side_name(input, part, tabular(args.output_format));
        Ok(name.file_name().map_or(name.clone(), PathBuf::from))
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
    // The input is read twice, a window at a time (a compressed file decoded twice);
    // stdin and other streams, which cannot be read again, are first copied as read to
    // a temporary file.
    let again = !is_stdin(input) && std::fs::metadata(input).is_ok_and(|m| m.is_file());
    let a = &args.input;
    let spool = match again {
        true => None,
        false => Some(Spool::of(input)?),
    };
    let open = || match &spool {
        None => open_dataset(input, a.no_mmap, a.member.as_deref(), &a.layout),
        Some(spool) => spool.open(input, &a.layout),
    };
    let mut windows = open()?;
    let layout = windows.layout().clone();
    let asked = tabular(args.output_format);
    let mut train = CopyOutput::open(Some(&train_path), &layout, asked)?;
    let mut test = CopyOutput::open(Some(&test_path), &layout, asked)?;
    let pool = pool(args.input.threads)?;
    let progress = windows_progress(&[&windows], "split", args.quiet, args.no_progress);
    let how = SplitBy {
        by: key_by(args.by),
        fraction: args.fraction,
        seed: args.seed,
    };
    let report = pool.install(|| match windows.whole() {
        // Held whole (mapped or read): both passes over the same bytes.
        Some(data) => {
            crate::datasets::split::split(data, &layout, how, &mut train, &mut test, &progress)
        }
        None => {
            let mut reopen = || {
                open().map_err(|e| input::InputError::Io {
                    path: input.clone(),
                    source: std::io::Error::other(e.to_string()),
                })
            };
            crate::datasets::split::split_windows(
                &mut windows,
                &mut reopen,
                how,
                (&mut train, &mut test),
                &progress,
            )
        }
    });
    progress.finish();
    let mut report = report.map_err(|e| match e {
        crate::datasets::split::SplitError::Write { test, source } => {
            written_error(Some(if test { &test_path } else { &train_path }), source)
        }
        other => AppError::Split(other),
    })?;
    report.input = input.display().to_string();
    windows.check_unchanged(input)?;
    report.wall_seconds += train.finish_timed(Some(&train_path))?;
    report.wall_seconds += test.finish_timed(Some(&test_path))?;
    if let Some(path) = &args.report {
        write_json_report(path, &report)?;
    }
    if !args.quiet {
        let _ = report.write_summary(&mut std::io::stderr());
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn run_overlap(args: &cli::OverlapArgs) -> Result<ExitCode, AppError> {
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
    let encoding = Tabular::rows_encoding(
        tabular(args.output_format),
        args.output.as_deref(),
        OVERLAP_COLUMNS.len() + usize::from(args.record_index),
    )?;
    // Each file read with its own column where one is given; an error names the file.
    let layout_of = |column: &Option<String>| cli::LayoutArgs {
        column: column.clone().or_else(|| args.layout.column.clone()),
        ..args.layout.clone()
    };
    let train_args = layout_of(&args.train_column);
    let test_args = layout_of(&args.test_column);
    let mut train = open_dataset(
        &args.train,
        false,
        args.train_member.as_deref(),
        &train_args,
    )?;
    let mut test = open_dataset(&args.test, false, args.test_member.as_deref(), &test_args)?;
    let test_layout = test.layout().clone();
    if args.keep_columns && test_layout.format == input::Format::Blocks {
        return Err(AppError::Layout {
            path: args.test.clone(),
            source: input::InputError::NoFieldsToKeep,
        });
    }
    let shape = RowsShape {
        numbered: args.record_index,
        keep_fields: args.keep_columns,
    };
    let mut out = Output::open_as(args.output.as_deref(), encoding)?;
    let pool = pool(args.threads)?;
    let progress = match (train.whole(), test.whole()) {
        (Some(_), Some(_)) => {
            windows_progress(&[&train, &test], "overlap", args.quiet, args.no_progress)
        }
        _ => windows_progress(&[&test], "overlap", args.quiet, args.no_progress),
    };
    let report = pool.install(|| {
        crate::datasets::dedupe::overlap(
            &mut train,
            &mut test,
            key_by(args.by),
            (&mut out, shape),
            &progress,
        )
    });
    progress.finish();
    let mut report = report.map_err(|e| windows_error(args.output.as_deref(), e))?;
    train.check_unchanged(&args.train)?;
    test.check_unchanged(&args.test)?;
    report.train = args.train.display().to_string();
    report.test = args.test.display().to_string();
    report.wall_seconds += out.finish_timed()?;
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

/// The table format `--output-format` asks for.
fn tabular(asked: Option<cli::TableFormatArg>) -> Option<Tabular> {
    asked.map(|f| match f {
        cli::TableFormatArg::Csv => Tabular::Csv,
        cli::TableFormatArg::Tsv => Tabular::Tsv,
        cli::TableFormatArg::Ndjson => Tabular::Ndjson,
        cli::TableFormatArg::Parquet => Tabular::Parquet,
    })
}
