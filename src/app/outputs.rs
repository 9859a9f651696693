//! Writing what a run made besides its rows: reports, histograms, charts.

use super::*;

pub(super) fn write_results(
    report: &RunReport,
    histogram: &Histogram<u64>,
    out: &OutputArgs,
) -> Result<(), AppError> {
    if let Some(path) = &out.report {
        write_json_report(path, report)?;
    }
    if let Some(path) = &out.histogram {
        let mut text = Vec::new();
        write_hgrm(histogram, &mut text).map_err(render)?;
        output::write_file(path, &text)?;
    }
    if let Some(path) = &out.plot {
        let title = format!("sudoku-batch {}: {}", report.command, report.input);
        let svg = plot::latency_svg(&title, &[(report.command.clone(), histogram)])?;
        output::write_file(path, svg.as_bytes())?;
    }
    if !out.quiet {
        let _ = report.write_summary(&mut std::io::stderr());
    }
    Ok(())
}

/// `lat.hgrm` for 2 threads becomes `lat.t2.hgrm`.
pub(super) fn per_thread_path(path: &Path, threads: usize) -> PathBuf {
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

/// Writes `report` as pretty JSON to the file `path`, atomically.
pub(super) fn write_json_report<T: serde::Serialize>(
    path: &Path,
    report: &T,
) -> Result<(), AppError> {
    let json = serde_json::to_vec_pretty(report).map_err(AppError::Encode)?;
    output::write_file(path, &json)?;
    Ok(())
}

/// A write error of a dataset command's outputs, named by the main output.
pub(super) fn written_error(output: Option<&Path>, source: std::io::Error) -> AppError {
    AppError::Output(OutputError::Write {
        path: output.map_or_else(|| PathBuf::from("stdout"), Path::to_path_buf),
        source,
    })
}
