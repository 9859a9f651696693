//! `bench`: timed in-memory passes for a sweep of thread counts.

use super::config::{board_rules, default_threads, given};
use super::error::{render, AppError};
use super::inputs::load_puzzles;
use super::outputs::{per_thread_path, write_json_report};
use crate::cli;
use crate::cli::EngineArg;
use crate::engines::dlx::Dlx;
use crate::engines::Bitboards;
use crate::pipeline::output;
use crate::pipeline::output::{Encoding, Output, OutputError};
use crate::pipeline::progress::{Progress, ProgressUnit};
use crate::reports::bench::{BenchReport, ThreadResult};
use crate::reports::plot;
use crate::reports::plot::ThreadPoint;
use crate::reports::{write_hgrm, Latency};
use hdrhistogram::Histogram;
use std::process::ExitCode;

pub(super) fn run_bench(args: &cli::BenchArgs) -> Result<ExitCode, AppError> {
    let outputs = given(&[
        (args.output.as_deref(), "-o"),
        (args.report.as_deref(), "--report"),
        (args.plot.as_deref(), "--plot"),
    ]);
    output::check_outputs(&[(&args.input, "the input")], &outputs)?;
    let (format, encoding) = results_output(args)?;
    let rules = board_rules(&args.boards)?;
    let loaded = load_puzzles(&args.input, args.member.as_deref(), &args.layout, &rules)?;
    let boards = !loaded.boards.is_empty();
    let mode = args.mode;
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
                crate::reports::bench::threads_label(over)
            );
        }
    }
    if loaded.puzzles.is_empty() && !boards {
        return Err(AppError::NoPuzzles {
            path: args.input.clone(),
            doing: "time",
            invalid: Some(loaded.invalid),
        });
    }
    let rounds = (args.warmup, args.rounds);
    let shown = super::config::progress_shown(args.quiet, args.no_progress);
    let progress = Progress::new(
        crate::datasets::bench::passes(&threads, rounds),
        ProgressUnit::Passes,
        "",
        shown,
    );
    let (variant, bench) = (rules.variant, &threads);
    let timed = match args.engine {
        EngineArg::Fast => crate::datasets::bench::run::<Bitboards>(
            &loaded, variant, mode, bench, rounds, &progress,
        ),
        EngineArg::Dlx => {
            crate::datasets::bench::run::<Dlx>(&loaded, variant, mode, bench, rounds, &progress)
        }
    };
    progress.finish();
    let (effort, timed) = timed.map_err(|(t, source)| AppError::Threads {
        count: Some(t),
        source,
    })?;
    let mut results: Vec<ThreadResult> = Vec::new();
    let mut histograms: Vec<Histogram<u64>> = Vec::new();
    for (t, rates, histogram) in timed {
        let rate = crate::reports::bench::summarise(&rates);
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
            write_hgrm(&histogram, &mut text).map_err(render)?;
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
        let svg = plot::bench_svg(&name, &points)?;
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
    if let (Some(seconds), false) = (crate::reports::bench::short_rounds(&report), args.quiet) {
        eprintln!(
            "warning: a timed round took {:.2} ms, under {} ms: too short to time well (the \
             clock and the pool's start weigh in); time a larger file",
            seconds * 1e3,
            crate::reports::bench::SHORTEST_ROUND_SECONDS * 1e3
        );
    }
    {
        let mut out = Output::open_as(args.output.as_deref(), encoding)?;
        let text = match format {
            cli::BenchFormatArg::Text => crate::reports::bench::table(&report),
            cli::BenchFormatArg::Markdown => crate::reports::bench::markdown(&report),
            _ => crate::reports::bench::rows(&report),
        };
        out.write_all(text.as_bytes())?;
        out.finish()?;
    }
    if let Some(path) = &args.report {
        write_json_report(path, &report)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// How `bench` writes its results, and the output's encoding: the format asked for
/// (`--markdown` is markdown), else the table format -o's name says, else the readable
/// table; the table formats are CSV rows the encoding writes as asked.
fn results_output(args: &cli::BenchArgs) -> Result<(cli::BenchFormatArg, Encoding), AppError> {
    use crate::pipeline::output::name::Named;
    use crate::pipeline::output::tabular::Tabular;
    let path = args.output.as_deref();
    let named = Tabular::of_name(&Named::of(path));
    let format = match (args.output_format, args.markdown, named) {
        (Some(format), ..) => format,
        (None, true, _) => cli::BenchFormatArg::Markdown,
        (None, false, Some(Tabular::Csv)) => cli::BenchFormatArg::Csv,
        (None, false, Some(Tabular::Tsv)) => cli::BenchFormatArg::Tsv,
        (None, false, Some(Tabular::Ndjson)) => cli::BenchFormatArg::Ndjson,
        (None, false, Some(Tabular::Parquet)) => cli::BenchFormatArg::Parquet,
        (None, false, None) => cli::BenchFormatArg::Text,
    };
    let table = match format {
        cli::BenchFormatArg::Text | cli::BenchFormatArg::Markdown => None,
        cli::BenchFormatArg::Csv => Some(Tabular::Csv),
        cli::BenchFormatArg::Tsv => Some(Tabular::Tsv),
        cli::BenchFormatArg::Ndjson => Some(Tabular::Ndjson),
        cli::BenchFormatArg::Parquet => Some(Tabular::Parquet),
    };
    let columns = crate::reports::bench::ROW_COLUMNS.len();
    let encoding = match (table, named, path) {
        (Some(table), ..) => Tabular::rows_encoding(Some(table), path, columns)?,
        // A table's name for text or markdown: refused, never a different format.
        (None, Some(named), Some(path)) => {
            return Err(OutputError::Unwritable {
                path: path.to_path_buf(),
                what: format!("a text or markdown table under a {} name", named.name()),
            }
            .into())
        }
        // Text and markdown as written, compressed where the name says.
        (None, ..) => Tabular::rows_encoding(None, path, 0)?,
    };
    Ok((format, encoding))
}
