//! Outputs of the dataset commands (`dedupe`, `split`), which copy their input's
//! records as they are: by default the output keeps the input's format, and a name
//! asking for another is written in that one, never given the input's bytes silently.
//!
//! A record can become a row of a table (CSV, tab-separated, JSON lines, Parquet):
//! [`TableRows`] turns the copied bytes into CSV rows (`puzzle,solution` for one puzzle
//! per line, a Parquet input included, read as such lines; the input's own header and
//! rows for a comma-separated CSV input), which the output's encoding writes in the
//! format asked for, every column text.

use std::io::{self, Write};
use std::path::Path;

use super::name::Named;
use super::tabular::Tabular;
use super::{Encoding, OutputError};
use crate::pipeline::input::{Format, Layout};
use crate::pipeline::rows::quote_tail;

/// How the copied records reach an output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyAs {
    /// The bytes as read (then compressed where the name says `.gz` or `.zst`).
    AsRead,
    /// Rows of a table made from the records ([`TableRows`] before this encoding).
    Table(Encoding),
}

/// How a dataset command writes its input's records to `path` (stdout for `None` or
/// `-`): in the format `asked` (`--output-format`), else the one the name says, else
/// as read. A format the input already has is a copy as read; another is a table of
/// the records, which grids drawn over nine lines and CSV not separated by commas
/// cannot become.
pub fn copy_for(
    path: Option<&Path>,
    layout: &Layout,
    asked: Option<Tabular>,
) -> Result<CopyAs, OutputError> {
    let path = path.filter(|p| *p != Path::new("-"));
    let named = Named::of(path);
    if let Some(refused) = path.and_then(|p| named.refusal(p)) {
        return Err(refused);
    }
    let Some(wanted) = asked.or_else(|| Tabular::of_name(&named)) else {
        return Ok(CopyAs::AsRead);
    };
    let own = match (layout.format, layout.delimiter) {
        (Format::Csv, b',') => Some(Tabular::Csv),
        (Format::Csv, b'\t') => Some(Tabular::Tsv),
        _ => None,
    };
    if own == Some(wanted) {
        return Ok(CopyAs::AsRead);
    }
    let refuse = |what: &str| OutputError::Unwritable {
        path: path.unwrap_or(Path::new("stdout")).to_path_buf(),
        what: format!(
            "{} rows from {what}, which is copied as read",
            wanted.name()
        ),
    };
    match layout.format {
        Format::Blocks => Err(refuse("grids drawn over nine lines")),
        Format::Csv if layout.delimiter != b',' => {
            Err(refuse("a CSV input not separated by commas"))
        }
        _ => Ok(CopyAs::Table(wanted.encoding(named.codec, 0, path)?)),
    }
}

/// The name of one side of `split` when none is given: `train` or `test` put before the
/// input's format extension (`x.csv.gz` -> `x.train.csv.gz`), a compression the tool does
/// not write dropped (`x.csv.xz` -> `x.train.csv`), and NumPy arrays, read as lines,
/// written as text (`x.npy` -> `x.train.txt`); with a table format `asked`, its
/// extension in place of the input's (`x.txt.gz` as JSON lines -> `x.train.ndjson.gz`;
/// Parquet uncompressed).
pub fn side_name(input: &Path, part: &str, asked: Option<Tabular>) -> std::path::PathBuf {
    let name = input
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut pieces: Vec<&str> = name.split('.').collect();
    let stem_len = if pieces.len() > 1 && !pieces[0].is_empty() {
        1
    } else {
        pieces.len().min(2)
    };
    let mut tail: Vec<String> = pieces
        .split_off(stem_len)
        .into_iter()
        .map(str::to_string)
        .collect();
    let lower = |s: &String| s.to_ascii_lowercase();
    if tail
        .last()
        .is_some_and(|e| matches!(lower(e).as_str(), "xz" | "bz2" | "zip" | "lz4"))
    {
        tail.pop();
    }
    if let Some(e) = tail.iter_mut().find(|e| matches!(lower(e).as_str(), "npy")) {
        *e = "txt".into();
    }
    if let Some(asked) = asked {
        let codec = tail
            .last()
            .filter(|e| matches!(lower(e).as_str(), "gz" | "gzip" | "zst" | "zstd"))
            .filter(|_| asked != Tabular::Parquet)
            .cloned();
        let ext = match asked {
            Tabular::Csv => "csv",
            Tabular::Tsv => "tsv",
            Tabular::Ndjson => "ndjson",
            Tabular::Parquet => "parquet",
        };
        tail = std::iter::once(ext.to_string()).chain(codec).collect();
    }
    let mut out = pieces.join(".");
    out.push('.');
    out.push_str(part);
    for e in &tail {
        out.push('.');
        out.push_str(e);
    }
    input.with_file_name(out)
}

/// A writer that takes a dataset command's copied bytes and hands CSV rows to `inner`:
/// the input's bytes for a comma-separated CSV input, `puzzle,solution` rows under that
/// header for one puzzle per line (blank lines and `#` comments are not records and are
/// left out). Partial lines wait in a buffer reused for the whole output.
pub struct TableRows<W: Write> {
    inner: W,
    lines: bool,
    pending: Vec<u8>,
    row: Vec<u8>,
}

impl<W: Write> TableRows<W> {
    /// Rows of records laid out as `layout` says, into `inner`.
    pub fn new(layout: &Layout, mut inner: W) -> io::Result<TableRows<W>> {
        let lines = layout.format != Format::Csv;
        if lines {
            inner.write_all(b"puzzle,solution\n")?;
        }
        Ok(TableRows {
            inner,
            lines,
            pending: Vec::new(),
            row: Vec::new(),
        })
    }

    /// The writer underneath, after the last line (one without a line end) went out.
    pub fn into_inner(mut self) -> io::Result<W> {
        if !self.pending.is_empty() {
            let line = std::mem::take(&mut self.pending);
            self.line(&line)?;
        }
        Ok(self.inner)
    }

    fn line(&mut self, line: &[u8]) -> io::Result<()> {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let text = line.trim_ascii();
        if text.is_empty() || text.starts_with(b"#") {
            return Ok(());
        }
        let split = text
            .iter()
            .position(|b| b.is_ascii_whitespace())
            .unwrap_or(text.len());
        let (puzzle, solution) = (&text[..split], text[split..].trim_ascii());
        self.row.clear();
        self.row.extend_from_slice(puzzle);
        quote_tail(&mut self.row, 0, b',');
        self.row.push(b',');
        let start = self.row.len();
        self.row.extend_from_slice(solution);
        quote_tail(&mut self.row, start, b',');
        self.row.push(b'\n');
        self.inner.write_all(&self.row)
    }
}

impl<W: Write> Write for TableRows<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.lines {
            return self.inner.write(buf);
        }
        let mut rest = buf;
        while let Some(end) = rest.iter().position(|&b| b == b'\n') {
            // A line begun in an earlier write is finished in the buffer kept for it.
            let mut line = std::mem::take(&mut self.pending);
            line.extend_from_slice(&rest[..end]);
            self.line(&line)?;
            line.clear();
            self.pending = line;
            rest = &rest[end + 1..];
        }
        self.pending.extend_from_slice(rest);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::input::{detect_layout_as, Choice};

    fn layout(text: &[u8]) -> Layout {
        detect_layout_as(text, &Choice::default()).unwrap()
    }

    #[test]
    fn lines_become_puzzle_solution_rows_in_any_pieces() {
        let text = b"# a comment\n1.3 123\r\n\n4.6\n7.9   789";
        let mut rows = TableRows::new(&layout(b"123456789\n"), Vec::new()).unwrap();
        for piece in text.chunks(3) {
            rows.write_all(piece).unwrap();
        }
        let out = rows.into_inner().unwrap();
        assert_eq!(out, b"puzzle,solution\n1.3,123\n4.6,\n7.9,789\n");
    }

    #[test]
    fn csv_passes_through() {
        let text = b"quizzes,solutions\n1,2\n";
        let mut rows = TableRows::new(&layout(text), Vec::new()).unwrap();
        rows.write_all(text).unwrap();
        assert_eq!(rows.into_inner().unwrap(), text);
    }

    #[test]
    fn side_names_keep_the_format_and_writable_compression() {
        let name = |n: &str, part: &str| side_name(Path::new(n), part, None);
        assert_eq!(name("d/x.csv", "train"), Path::new("d/x.train.csv"));
        assert_eq!(name("x.csv.gz", "test"), Path::new("x.test.csv.gz"));
        assert_eq!(name("x.parquet", "test"), Path::new("x.test.parquet"));
        assert_eq!(name("x.csv.xz", "test"), Path::new("x.test.csv"));
        assert_eq!(name("x.npy", "test"), Path::new("x.test.txt"));
        assert_eq!(name("x", "test"), Path::new("x.test"));
        assert_eq!(name(".hidden.txt", "test"), Path::new(".hidden.test.txt"));
        let asked = |n: &str, t| side_name(Path::new(n), "train", Some(t));
        assert_eq!(
            asked("x.txt.gz", Tabular::Ndjson),
            Path::new("x.train.ndjson.gz")
        );
        assert_eq!(
            asked("x.csv.zst", Tabular::Parquet),
            Path::new("x.train.parquet")
        );
        assert_eq!(asked("x", Tabular::Tsv), Path::new("x.train.tsv"));
    }
}
