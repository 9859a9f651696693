//! Input: mapping files, detecting the format, splitting into record-aligned chunks, and
//! finding records inside a chunk without copying.
//!
//! Three formats are understood:
//! - *lines*: one puzzle per line; the puzzle is the first whitespace-separated token of
//!   81 cells, with any text around it (`<hash> <grid> <rating>`, `<grid> <solution>`,
//!   `<grid> # note`). A second complete 81-digit token is taken as the expected solution.
//!   `#` comment lines, blank lines and a lone DOS end-of-file byte (0x1A) are skipped.
//! - *CSV*: a header row (optional), quoted fields, CRLF; the puzzle column is found by
//!   name (`puzzle`, `quizzes`, ...) or as the first column holding 81-cell grids, and a
//!   `solution`/`solutions` column, when present, gives expected solutions.
//! - *blocks*: a puzzle drawn over nine lines (`blocks` says which
//!   layouts), one record per block.
//!
//! The rooms: `mapping` gets the bytes, `detect` works out the [`Layout`], and `lines`,
//! `csv` and `blocks` find the records of their layout; `compressed` and `npy` turn
//! other files into lines. This file holds the types they share and the two dispatchers,
//! [`for_each_record`] and [`chunk_end`].

use std::io;
use std::path::PathBuf;

mod blocks;
pub mod compressed;
mod csv;
mod detect;
mod lines;
mod mapping;
pub mod npy;
pub mod open;
pub mod parquet;
mod parquet_pages;

pub use blocks::BlockError;
pub use csv::unclosed_quote_line;
pub use detect::{detect_layout, detect_layout_as, rows_as_lines};
pub use mapping::{cr_to_lf, lone_cr_line_ends, open_file, InputBytes};
pub use open::{
    is_special, is_stdin, open, open_bytes, open_stream, HowToOpen, OpenError, Opened, Reader,
};

use crate::values::grid::{Grid, ParseError};
use crate::values::marks::{Marks, MarksError};

/// Target chunk size; chunks end at the first record boundary after this many bytes.
pub const CHUNK_BYTES: usize = 128 * 1024;

/// Errors at the input edge: opening, reading or making sense of the file as a whole.
#[derive(Debug)]
pub enum InputError {
    /// The input could not be opened or read.
    Io {
        /// The path, or `-` for stdin.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// The input is a directory.
    IsDirectory(PathBuf),
    /// `--column` names no column of the CSV header.
    NoSuchColumn {
        /// What the user asked for.
        column: String,
        /// The header's column names.
        header: Vec<String>,
    },
    /// No column of the CSV holds puzzles and `--column` was not given.
    NoPuzzleColumn,
    /// `--column` was given but the input is one puzzle per line.
    ColumnWithoutCsv,
    /// `--delimiter` was given with a `--format` other than CSV.
    DelimiterWithoutCsv,
    /// `--keep-columns` on grids drawn over nine lines, which have no fields.
    NoFieldsToKeep,
    /// The input changed size while it was mapped.
    Changed(PathBuf),
    /// A CSV quote opened on `line` is never closed, so the rest of the input would be
    /// one field.
    UnclosedQuote {
        /// The path, or `-` for stdin.
        path: PathBuf,
        /// The line the quote opened on.
        line: u64,
    },
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            InputError::IsDirectory(path) => write!(f, "{}: is a directory", path.display()),
            InputError::UnclosedQuote { path, line } => write!(
                f,
                "{}: line {line}: a quote opened here is never closed (the rest of the file \
                 would be one field); fix or remove the stray `\"`",
                path.display()
            ),
            InputError::NoSuchColumn { column, header } if column == "0" => write!(
                f,
                "--column 0: columns count from 1 (or name one); the header has: {}",
                header.join(", ")
            ),
            InputError::NoSuchColumn { column, header } => write!(
                f,
                "--column {column}: no such column; the header has: {}",
                header.join(", ")
            ),
            InputError::NoPuzzleColumn => write!(
                f,
                "no CSV column holds 81-cell puzzles; name one with --column NAME|INDEX"
            ),
            InputError::ColumnWithoutCsv => write!(
                f,
                "--column applies to CSV input, but this input holds one puzzle per line \
                 (no comma in its first record); add --format csv to read it as CSV"
            ),
            InputError::NoFieldsToKeep => write!(
                f,
                "--keep-columns: grids drawn over nine lines have no fields to keep; `line` \
                 names each record's first line"
            ),
            InputError::DelimiterWithoutCsv => write!(
                f,
                "--delimiter applies to CSV input; drop it or use --format csv"
            ),
            InputError::Changed(path) => write!(
                f,
                "{}: the file changed size while it was being read; results would be wrong",
                path.display()
            ),
        }
    }
}

impl std::error::Error for InputError {}

/// The record format of an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One puzzle per line.
    Lines,
    /// Comma-separated values.
    Csv,
    /// A puzzle drawn over nine lines (Project Euler 96, `.sdk`, `.ss`, printed grids).
    Blocks,
}

/// Which CSV column to read puzzles from, as given by `--column`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColumnChoice {
    /// Find it by header name or content.
    Auto,
    /// A header name, compared without case.
    Name(String),
    /// A 1-based field index.
    Index(usize),
}

/// What the user said about an input's layout; what is `None` (or `Auto`) is detected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The record format (`--format`).
    pub format: Option<Format>,
    /// The CSV column holding puzzles (`--column`).
    pub column: ColumnChoice,
    /// The CSV field delimiter (`--delimiter`); giving one implies CSV.
    pub delimiter: Option<u8>,
}

impl Default for Choice {
    fn default() -> Self {
        Choice {
            format: None,
            column: ColumnChoice::Auto,
            delimiter: None,
        }
    }
}

/// A CSV delimiter as a user writes it: one ASCII character other than a quote, a line
/// end or a cell symbol (`.`, `-`, `_`, digits, letters), or the word `tab`.
pub fn parse_delimiter(text: &str) -> Result<u8, String> {
    let byte = match text {
        "tab" | "\\t" | "\t" => b'\t',
        _ if text.len() == 1 => text.as_bytes()[0],
        _ => return Err(format!("{text:?}: give one character, or `tab`")),
    };
    if !byte.is_ascii() || byte.is_ascii_alphanumeric() || b"\"\r\n._-".contains(&byte) {
        return Err(format!(
            "{text:?} cannot separate fields: it is a quote, a line end or a cell symbol"
        ));
    }
    Ok(byte)
}

/// How to find records in the data: fixed once for the whole input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Lines or CSV.
    pub format: Format,
    /// The CSV field delimiter (`,` unless detected or given otherwise).
    pub delimiter: u8,
    /// 0-based CSV field holding the puzzle.
    pub puzzle_field: usize,
    /// 0-based CSV field holding the expected solution, if any.
    pub solution_field: Option<usize>,
    /// Name of the puzzle column for messages (`field N` when there is no header).
    pub puzzle_name: String,
    /// Byte offset where records start (after a BOM and a CSV header).
    pub data_start: usize,
    /// 1-based line number of the line at `data_start`.
    pub first_line: u64,
    /// Longest record in bytes (`--max-record-bytes`, not counting its line end); a
    /// longer one is `invalid` without being parsed (lines and CSV layouts).
    pub max_record: usize,
    /// The line of the CSV header, when the first record line was taken as one.
    pub header_line: Option<u64>,
    /// Name of the solution column, when there is one (`field N` without a header).
    pub solution_name: Option<String>,
    /// The CSV header's names, when there is a header.
    pub header_names: Vec<String>,
    /// Fields in the header, or in the first record without one (1 for lines).
    pub field_count: usize,
    /// Every line is a record, blank and `#` ones too: lines made from an array's rows,
    /// where each row is a value of its own.
    pub every_line: bool,
}

impl Layout {
    /// The row of a whole line over the record limit, if `line` is one.
    #[inline]
    fn too_long<'a>(&self, line: &'a [u8], line_no: u64) -> Option<Record<'a>> {
        (line.len() > self.max_record)
            .then(|| too_long_record(line, line_no, line.len() as u64, self.max_record))
    }

    /// How the input is read, for the summary: `one puzzle per line`, `CSV with a
    /// header on line 1: puzzles in "quizzes" (column 1), solutions in "solutions"
    /// (column 2)`.
    pub fn describe(&self) -> String {
        match self.format {
            Format::Lines => "one puzzle per line".to_string(),
            Format::Blocks => "grids drawn over nine lines".to_string(),
            Format::Csv => {
                let column = |name: &str, field: usize| match self.header_line {
                    Some(_) => format!("\"{name}\" (column {})", field + 1),
                    None => format!("column {}", field + 1),
                };
                let separated = match self.delimiter {
                    b',' => String::new(),
                    b'\t' => " (tab-separated)".to_string(),
                    b';' => " (semicolon-separated)".to_string(),
                    other => format!(" (separated by {:?})", other as char),
                };
                let mut text = match self.header_line {
                    Some(line) => format!("CSV{separated} with a header on line {line}: "),
                    None => format!("CSV{separated} without a header: "),
                };
                text.push_str("puzzles in ");
                text.push_str(&column(&self.puzzle_name, self.puzzle_field));
                if let (Some(field), Some(name)) = (self.solution_field, &self.solution_name) {
                    text.push_str(", solutions in ");
                    text.push_str(&column(name, field));
                }
                text
            }
        }
    }
}

/// The default longest record: 1 MiB, four thousand times a 9x9 CSV row.
pub const DEFAULT_MAX_RECORD: usize = 1 << 20;

/// Where a record's puzzle went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The puzzle text is not an 81-cell grid; `column` is 1-based within the line
    /// (lines format) or within the field (CSV).
    Parse(ParseError),
    /// The line has no token at all that could be a grid.
    NoGrid,
    /// A CSV row with fewer fields than the puzzle column needs.
    MissingField(usize),
    /// A block (block layouts) that is not nine rows of nine cells.
    Block(BlockError),
    /// A 729-character pencil-mark record that is not well formed.
    Marks(MarksError),
    /// A record longer than the limit (`--max-record-bytes`): never parsed, and on a
    /// stream skipped to its end without being held.
    TooLong {
        /// Its length in bytes, without its line end.
        bytes: u64,
        /// The limit.
        limit: usize,
    },
    /// A columnar input's value that is null (`true`) or empty (`false`).
    NoValue {
        /// Null, not empty.
        null: bool,
    },
}

/// The row of a columnar input's null or empty value.
pub fn no_value_record(line: u64, null: bool) -> Record<'static> {
    Record {
        line,
        puzzle: Err(RecordError::NoValue { null }),
        raw: b"",
        expected: None,
        expected_text: None,
        marks: None,
        fields: Fields::None,
    }
}

/// The row of a record over the length limit: its first bytes are echoed.
pub fn too_long_record(raw: &[u8], line: u64, bytes: u64, limit: usize) -> Record<'_> {
    Record {
        line,
        puzzle: Err(RecordError::TooLong { bytes, limit }),
        raw: &raw[..raw.len().min(100)],
        expected: None,
        expected_text: None,
        marks: None,
        fields: Fields::None,
    }
}

/// A record's own fields as read, for `--keep-columns`.
#[derive(Clone, Copy, Debug)]
pub enum Fields<'a> {
    /// None kept: blocks, and records over the length limit (never held whole).
    None,
    /// The whole line of the lines layout, as one field.
    Line(&'a [u8]),
    /// A CSV line without quotes, split at `delimiter`.
    Split {
        /// The line, without its line end.
        line: &'a [u8],
        /// The field delimiter.
        delimiter: u8,
    },
    /// A CSV row read by the csv crate (quotes removed).
    Read(&'a ::csv::ByteRecord),
}

impl<'a> Fields<'a> {
    /// Calls `each` with every field, in order.
    #[inline]
    pub fn for_each(&self, mut each: impl FnMut(&'a [u8])) {
        match *self {
            Fields::None => {}
            Fields::Line(line) => each(line),
            Fields::Split { line, delimiter } => line.split(|&b| b == delimiter).for_each(each),
            Fields::Read(record) => record.iter().for_each(each),
        }
    }
}

/// One record found in a chunk, borrowing its text from the chunk.
#[derive(Debug)]
pub struct Record<'a> {
    /// 1-based line number of the record in the input.
    pub line: u64,
    /// The puzzle, or why the text is not one.
    pub puzzle: Result<Grid, RecordError>,
    /// The puzzle text as it appears in the input (for `invalid` rows).
    pub raw: &'a [u8],
    /// The expected solution given in the input, if any (`Err` when it is malformed).
    pub expected: Option<Result<Grid, ()>>,
    /// The expected solution's text as it appears in the input, if any (variant boards
    /// read it by their own rules).
    pub expected_text: Option<&'a [u8]>,
    /// For a pencil-mark record (729 characters): its candidates. `puzzle` then holds
    /// the cells that have a single candidate, as givens.
    pub marks: Option<Marks>,
    /// The record's fields as read (its whole line for the lines layout).
    pub fields: Fields<'a>,
}

/// Scratch space reused across chunks by one worker (CSV parsing needs a record buffer).
#[derive(Default)]
pub struct RecordScratch {
    record: ::csv::ByteRecord,
}

/// Calls `each` for every record of a whole input `data` read with `layout`.
pub fn for_each_record_of<F: FnMut(Record<'_>)>(data: &[u8], layout: &Layout, each: F) {
    let mut scratch = RecordScratch::default();
    let start = layout.data_start.min(data.len());
    for_each_record(
        &data[start..],
        layout.first_line,
        layout,
        &mut scratch,
        each,
    );
}
/// Calls `each` for every record in `chunk`, in order.
///
/// `first_line` is the 1-based line number of the chunk's first byte. No allocation
/// happens per record: lines are scanned in place and CSV fields are read into the
/// reused `scratch` record.
pub fn for_each_record<F>(
    chunk: &[u8],
    first_line: u64,
    layout: &Layout,
    scratch: &mut RecordScratch,
    each: F,
) where
    F: FnMut(Record<'_>),
{
    match layout.format {
        Format::Blocks => blocks::for_each_block(chunk, first_line, each),
        Format::Lines => lines::for_each_line(chunk, first_line, layout, each),
        Format::Csv if !chunk.contains(&b'"') => {
            csv::for_each_plain_row(chunk, first_line, layout, each)
        }
        Format::Csv => {
            csv::for_each_quoted_row(chunk, first_line, layout, &mut scratch.record, each)
        }
    }
}

/// Finds the end of the chunk that starts at the beginning of `data`: just past the
/// first record boundary at or after `target` bytes, or the end of `data`.
///
/// For CSV a newline inside a quoted field is not a boundary; `in_quotes` carries the
/// quoting state from the end of the previous chunk and is updated.
pub fn chunk_end(data: &[u8], target: usize, format: Format, in_quotes: &mut bool) -> usize {
    match format {
        Format::Blocks => blocks::chunk_end(data, target),
        Format::Lines => lines::chunk_end(data, target),
        Format::Csv => csv::chunk_end(data, target, in_quotes),
    }
}

#[cfg(test)]
mod tests {
    use super::lines::line_record;
    use super::*;
    use crate::values::grid::ParseErrorKind;

    const P: &str =
        "....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3";

    fn records(data: &[u8], layout: &Layout) -> Vec<(u64, bool)> {
        let mut out = Vec::new();
        let mut scratch = RecordScratch::default();
        for_each_record(
            &data[layout.data_start..],
            layout.first_line,
            layout,
            &mut scratch,
            |r| out.push((r.line, r.puzzle.is_ok())),
        );
        out
    }

    #[test]
    fn lines_skip_comments_blanks_and_eof_byte() {
        let data = format!("# c\r\n\r\n{P}\r\n  \n{P} 7.2\n\x1a");
        let layout = detect_layout(data.as_bytes(), None, &ColumnChoice::Auto).unwrap();
        assert_eq!(layout.format, Format::Lines);
        assert_eq!(
            records(data.as_bytes(), &layout),
            vec![(3, true), (5, true)]
        );
    }

    #[test]
    fn csv_header_and_columns_are_found() {
        let data = format!("id,Puzzle,solution\r\n1,{P},\r\n2,\"{P}\",x\r\n");
        let layout = detect_layout(data.as_bytes(), None, &ColumnChoice::Auto).unwrap();
        assert_eq!(layout.format, Format::Csv);
        assert_eq!(layout.puzzle_field, 1);
        assert_eq!(layout.solution_field, Some(2));
        assert_eq!(layout.first_line, 2);
        assert_eq!(
            records(data.as_bytes(), &layout),
            vec![(2, true), (3, true)]
        );
    }

    #[test]
    fn bad_column_is_an_error() {
        let data = format!("a,b\n{P},1\n");
        let err = detect_layout(data.as_bytes(), None, &ColumnChoice::Name("nope".into()));
        assert!(matches!(err, Err(InputError::NoSuchColumn { .. })));
    }

    #[test]
    fn parse_error_columns_are_line_relative() {
        let line = format!("abc {}x", &P[..80]);
        let r = line_record(line.as_bytes(), 7);
        let Err(RecordError::Parse(e)) = r.puzzle else {
            panic!("{:?}", r.puzzle)
        };
        assert_eq!(e.column, 5 + 80);
        assert_eq!(e.kind, ParseErrorKind::BadByte(b'x'));
    }

    #[test]
    fn csv_chunks_do_not_split_quoted_newlines() {
        let data = b"a,\"x\ny\"\nb,c\n";
        let mut q = false;
        assert_eq!(chunk_end(data, 1, Format::Csv, &mut q), 8);
        assert!(!q);
    }
}
