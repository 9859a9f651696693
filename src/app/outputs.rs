//! Writing what a run made besides its rows: reports, histograms, charts.

use super::error::{render, AppError};
use crate::cli::OutputArgs;
use crate::pipeline::output::tabular::Tabular;
use crate::pipeline::output::{Output, OutputError};
use crate::pipeline::{input, output};
use crate::reports::{plot, write_hgrm, RunReport};
use hdrhistogram::Histogram;
use std::io::Write;
use std::path::{Path, PathBuf};

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

/// An output of a dataset command: its input's records as read (compressed where the
/// name says), or a table of them in the format asked for or named.
pub(super) enum CopyOutput {
    /// Bytes as copied.
    AsRead(Output),
    /// Records turned into rows of a table.
    Table(output::copied::TableRows<Output>),
}

impl CopyOutput {
    /// Opens `path` (stdout for `None` or `-`) for the records of an input laid out as
    /// `layout`, in the format `asked` (`--output-format`), else the one its name says.
    pub(super) fn open(
        path: Option<&Path>,
        layout: &input::Layout,
        asked: Option<Tabular>,
    ) -> Result<Self, AppError> {
        Ok(match output::copied::copy_for(path, layout, asked)? {
            output::copied::CopyAs::AsRead => CopyOutput::AsRead(Output::open(path)?),
            output::copied::CopyAs::Table(encoding) => {
                let out = Output::open_as(path, encoding)?;
                let rows = output::copied::TableRows::new(layout, out)
                    .map_err(|e| written_error(path, e))?;
                CopyOutput::Table(rows)
            }
        })
    }

    /// Commits the output; answers the seconds the commit took.
    pub(super) fn finish_timed(self, path: Option<&Path>) -> Result<f64, AppError> {
        let out = match self {
            CopyOutput::AsRead(out) => out,
            CopyOutput::Table(rows) => rows.into_inner().map_err(|e| written_error(path, e))?,
        };
        Ok(out.finish_timed()?)
    }
}

impl Write for CopyOutput {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            CopyOutput::AsRead(out) => out.write(buf),
            CopyOutput::Table(rows) => rows.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            CopyOutput::AsRead(out) => out.flush(),
            CopyOutput::Table(rows) => rows.flush(),
        }
    }
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
}
