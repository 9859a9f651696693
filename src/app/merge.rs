//! `merge`: the reports of a run's parts added up.

use super::config::given;
use super::error::{render, AppError, ReportProblem};
use crate::cli;
use crate::pipeline::output;
use crate::pipeline::output::Output;
use crate::reports::{write_hgrm, RunReport};
use std::path::Path;
use std::process::ExitCode;

/// The prefix of `--report-line`'s line (a `#` comment to this tool's readers).
pub const REPORT_LINE: &str = "#sudoku-batch-report ";

pub(super) fn run_merge(args: &cli::MergeArgs) -> Result<ExitCode, AppError> {
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
        let text = std::fs::read_to_string(path).map_err(|e| AppError::Report {
            path: path.clone(),
            problem: ReportProblem::Read(e),
        })?;
        // A report file, or rows ending in --report-line lines.
        let jsons: Vec<&str> = if text.trim_start().starts_with('{') {
            vec![text.as_str()]
        } else {
            text.lines()
                .filter_map(|l| l.strip_prefix(REPORT_LINE))
                .collect()
        };
        if jsons.is_empty() {
            return Err(AppError::Report {
                path: path.clone(),
                problem: ReportProblem::Empty,
            });
        }
        for json in jsons {
            let report: RunReport = serde_json::from_str(json).map_err(|e| AppError::Report {
                path: path.clone(),
                problem: ReportProblem::NotReport(e),
            })?;
            reports.push(report);
        }
    }
    let (report, histogram) = crate::reports::merge::merge(&reports).map_err(AppError::Merge)?;
    let json = serde_json::to_vec_pretty(&report).map_err(AppError::Encode)?;
    let mut out = Output::open(args.output.as_deref())?;
    out.write_all(&json)?;
    out.write_all(b"\n")?;
    out.finish()?;
    if let Some(path) = &args.histogram {
        let mut text = Vec::new();
        write_hgrm(&histogram, &mut text).map_err(render)?;
        output::write_file(path, &text)?;
    }
    if !args.quiet {
        let _ = report.write_summary(&mut std::io::stderr());
    }
    Ok(ExitCode::SUCCESS)
}
