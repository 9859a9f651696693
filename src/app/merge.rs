//! `merge`: the reports of a run's parts added up.

use super::config::given;
use super::error::{render, AppError, ReportProblem};
use crate::cli;
use crate::pipeline::output;
use crate::pipeline::output::Output;
use crate::reports::audit::AuditReport;
use crate::reports::audit_merge::merge_audits as merge_audits_of;
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
        if reports.is_empty() && is_audit(jsons[0]) {
            return merge_audits(args);
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

/// True when `json` is an `audit` report (it has a verdict; a run's report has none).
fn is_audit(json: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(json).is_ok_and(|v| v.get("verdict").is_some())
}

/// `merge` of `audit` reports of a file's shards: the numbers that add up exactly, as
/// JSON (or the page, for `-o NAME.html`), naming those that do not.
fn merge_audits(args: &cli::MergeArgs) -> Result<ExitCode, AppError> {
    if args.histogram.is_some() {
        return Err(crate::app::error::Usage::HistogramOfAudits.into());
    }
    let mut reports = Vec::with_capacity(args.reports.len());
    for path in &args.reports {
        let problem = |problem| AppError::Report {
            path: path.clone(),
            problem,
        };
        let text = std::fs::read_to_string(path).map_err(|e| problem(ReportProblem::Read(e)))?;
        let report: AuditReport =
            serde_json::from_str(&text).map_err(|e| problem(ReportProblem::NotReport(e)))?;
        reports.push(report);
    }
    let mut merged = merge_audits_of(&reports).map_err(AppError::Merge)?;
    merged.provenance.command_line = std::env::args().collect();
    merged.provenance.made_at = crate::reports::audit::utc_now();
    let page = args
        .output
        .as_deref()
        .and_then(|p| p.extension())
        .is_some_and(|e| e.eq_ignore_ascii_case("html"));
    let bytes = if page {
        merged.page().into_bytes()
    } else {
        let mut json = serde_json::to_vec_pretty(&merged).map_err(AppError::Encode)?;
        json.push(b'\n');
        json
    };
    let mut out = Output::open(args.output.as_deref())?;
    out.write_all(&bytes)?;
    out.finish()?;
    if !args.quiet {
        let _ = merged.write_summary(&mut std::io::stderr());
    }
    Ok(ExitCode::SUCCESS)
}
