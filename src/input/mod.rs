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

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

mod blocks;
pub mod compressed;
pub mod npy;

pub use blocks::BlockError;

use crate::grid::{cell_value, Grid, ParseError, ParseErrorKind, CELLS};
use crate::marks::{Marks, MarksError, MARKS_LEN};

/// Target chunk size; chunks end at the first record boundary after this many bytes.
pub const CHUNK_BYTES: usize = 128 * 1024;

/// Header names recognised for the puzzle column, compared without case.
const PUZZLE_NAMES: &[&str] = &["puzzle", "puzzles", "quizzes", "quiz", "grid", "sudoku"];
/// Header names recognised for the expected-solution column, compared without case.
const SOLUTION_NAMES: &[&str] = &["solution", "solutions", "answer"];

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

/// How to find records in the data: fixed once for the whole input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Lines or CSV.
    pub format: Format,
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
                let mut text = match self.header_line {
                    Some(line) => format!("CSV with a header on line {line}: "),
                    None => "CSV without a header: ".to_string(),
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

/// The bytes of an input: a read-only map of a regular file, or bytes read into memory.
pub enum InputBytes {
    /// A memory-mapped regular file.
    Mapped {
        /// The map.
        map: memmap2::Mmap,
        /// The file's size when mapped, to detect changes.
        len: u64,
        /// The open file, to check its size again at the end.
        file: File,
    },
    /// Bytes read in full (non-regular files, or `--no-mmap`).
    Read(Vec<u8>),
}

impl InputBytes {
    /// The whole input.
    pub fn bytes(&self) -> &[u8] {
        match self {
            InputBytes::Mapped { map, .. } => map,
            InputBytes::Read(bytes) => bytes,
        }
    }

    /// Fails when a mapped file's size is no longer what it was when mapped.
    pub fn check_unchanged(&self, path: &Path) -> Result<(), InputError> {
        if let InputBytes::Mapped { len, file, .. } = self {
            let now = file.metadata().map(|m| m.len()).unwrap_or(u64::MAX);
            if now != *len {
                return Err(InputError::Changed(path.to_path_buf()));
            }
        }
        Ok(())
    }
}

/// Opens a file for processing: maps a regular file unless `no_mmap`, else reads it.
pub fn open_file(path: &Path, no_mmap: bool) -> Result<InputBytes, InputError> {
    let io_err = |source| InputError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = File::open(path).map_err(io_err)?;
    let meta = file.metadata().map_err(io_err)?;
    if meta.is_dir() {
        return Err(InputError::IsDirectory(path.to_path_buf()));
    }
    if meta.is_file() && !no_mmap && meta.len() > 0 {
        // SAFETY: the map is read-only and private to this process. The caller promises
        // not to truncate the file while it is mapped; a change of size is detected
        // afterwards by `check_unchanged` and reported as an error rather than results.
        if let Ok(map) = unsafe { memmap2::Mmap::map(&file) } {
            if lone_cr_line_ends(&map) {
                // Old Mac OS line ends: read as lines, in a copy with `\n` for `\r`.
                let mut bytes = map.to_vec();
                cr_to_lf(&mut bytes);
                return Ok(InputBytes::Read(bytes));
            }
            let _ = map.advise(memmap2::Advice::Sequential);
            return Ok(InputBytes::Mapped {
                map,
                len: meta.len(),
                file,
            });
        }
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    let mut file = file;
    file.read_to_end(&mut bytes).map_err(io_err)?;
    if lone_cr_line_ends(&bytes) {
        cr_to_lf(&mut bytes);
    }
    Ok(InputBytes::Read(bytes))
}

/// True when `data` ends its lines with a lone `\r` (classic Mac OS): its first 64 KiB
/// hold a `\r` and no `\n`. Such inputs are read with every `\r` taken as `\n`.
pub fn lone_cr_line_ends(data: &[u8]) -> bool {
    let head = &data[..data.len().min(64 << 10)];
    head.contains(&b'\r') && !head.contains(&b'\n')
}

/// The line on which a quote that `bytes` (starting on line `first_line`, outside
/// quotes) leaves open was opened, if one is left open.
pub fn unclosed_quote_line(bytes: &[u8], first_line: u64) -> Option<u64> {
    let (mut line, mut quoted, mut opened) = (first_line, false, first_line);
    for &b in bytes {
        match b {
            b'"' => {
                quoted = !quoted;
                if quoted {
                    opened = line;
                }
            }
            b'\n' => line += 1,
            _ => {}
        }
    }
    quoted.then_some(opened)
}

/// Turns every `\r` into `\n` (an input with lone-CR line ends).
pub fn cr_to_lf(bytes: &mut [u8]) {
    for b in bytes.iter_mut().filter(|b| **b == b'\r') {
        *b = b'\n';
    }
}

/// Byte length of a UTF-8 byte-order mark at the start of `data`, else 0.
fn bom_len(data: &[u8]) -> usize {
    if data.starts_with(&[0xEF, 0xBB, 0xBF]) {
        3
    } else {
        0
    }
}

/// Strips a trailing `\r`.
#[inline]
fn trim_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// True for lines that hold no record: blank, `#` comments, a lone 0x1A.
#[inline]
fn is_skipped_line(line: &[u8]) -> bool {
    match line.iter().position(|b| !b.is_ascii_whitespace()) {
        None => true,
        Some(i) => line[i] == b'#' || &line[i..] == b"\x1a",
    }
}

/// Works out the layout from the start of the data: format, header, columns.
///
/// `head` must hold at least the first record line (a whole mapped file, or the first
/// block read from stdin with every complete line in it).
pub fn detect_layout(
    head: &[u8],
    format: Option<Format>,
    column: &ColumnChoice,
) -> Result<Layout, InputError> {
    let start = bom_len(head);
    // Find the first line that is not blank or a comment.
    let mut offset = start;
    let mut line_no = 1u64;
    let mut first_record: &[u8] = &[];
    let mut next_line: Option<&[u8]> = None;
    while offset < head.len() {
        let end = head[offset..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(head.len(), |i| offset + i);
        let line = trim_cr(&head[offset..end]);
        if !is_skipped_line(line) {
            first_record = line;
            next_line = head.get(end + 1..).and_then(|rest| {
                rest.split(|&b| b == b'\n')
                    .map(trim_cr)
                    .find(|l| !is_skipped_line(l))
            });
            break;
        }
        offset = end + 1;
        line_no += 1;
    }
    let format = format.unwrap_or_else(|| detect_format(first_record, next_line));
    let mut layout = Layout {
        format,
        puzzle_field: 0,
        solution_field: None,
        puzzle_name: "field 1".to_string(),
        data_start: start,
        first_line: 1,
        max_record: DEFAULT_MAX_RECORD,
        header_line: None,
        solution_name: None,
    };
    if format != Format::Csv && *column != ColumnChoice::Auto {
        return Err(InputError::ColumnWithoutCsv);
    }
    if format != Format::Csv || first_record.is_empty() {
        return Ok(layout);
    }
    let fields = csv_fields(first_record);
    let is_grid = |f: &[u8]| f.len() == CELLS && f.iter().all(|&b| cell_value(b).is_some());
    let has_header = !fields.iter().any(|f| is_grid(f));
    let names: Vec<String> = fields
        .iter()
        .map(|f| String::from_utf8_lossy(f).trim().to_string())
        .collect();
    let find_name = |wanted: &[&str]| {
        names
            .iter()
            .position(|n| wanted.iter().any(|w| n.eq_ignore_ascii_case(w)))
    };
    let puzzle_field = match column {
        ColumnChoice::Index(i) if *i >= 1 && (!has_header || *i <= names.len()) => i - 1,
        ColumnChoice::Index(i) => {
            return Err(InputError::NoSuchColumn {
                column: i.to_string(),
                header: names,
            })
        }
        ColumnChoice::Name(name) => {
            match has_header.then(|| find_name(&[name.as_str()])).flatten() {
                Some(i) => i,
                None => {
                    return Err(InputError::NoSuchColumn {
                        column: name.clone(),
                        header: if has_header { names } else { Vec::new() },
                    })
                }
            }
        }
        ColumnChoice::Auto if has_header => match find_name(PUZZLE_NAMES) {
            Some(i) => i,
            None => first_grid_column(head, offset).ok_or(InputError::NoPuzzleColumn)?,
        },
        ColumnChoice::Auto => fields
            .iter()
            .position(|f| is_grid(f))
            .ok_or(InputError::NoPuzzleColumn)?,
    };
    layout.puzzle_field = puzzle_field;
    layout.puzzle_name = match names.get(puzzle_field) {
        Some(name) if has_header => name.clone(),
        _ => format!("field {}", puzzle_field + 1),
    };
    if has_header {
        layout.header_line = Some(line_no);
        layout.solution_field = find_name(SOLUTION_NAMES).filter(|&i| i != puzzle_field);
        layout.solution_name = layout.solution_field.and_then(|i| names.get(i).cloned());
        let header_end = header_end(head, offset);
        layout.data_start = header_end;
        layout.first_line = line_no
            + head[offset..header_end]
                .iter()
                .filter(|&&b| b == b'\n')
                .count() as u64;
    } else {
        layout.solution_field = fields
            .iter()
            .enumerate()
            .skip(puzzle_field + 1)
            .find(|(_, f)| is_grid(f) && f.iter().all(|b| b.is_ascii_digit() && *b != b'0'))
            .map(|(i, _)| i);
        layout.solution_name = layout.solution_field.map(|i| format!("field {}", i + 1));
    }
    Ok(layout)
}

/// CSV when the first record line has a comma, starts with a quote, or is a lone
/// puzzle-column header name (a one-column CSV); blocks when it is a row of nine cells,
/// a drawn separator, or a title followed by such a row; else one puzzle per line.
fn detect_format(first_record: &[u8], next_line: Option<&[u8]>) -> Format {
    let trimmed = first_record.trim_ascii();
    let is_header_name = PUZZLE_NAMES
        .iter()
        .any(|n| trimmed.eq_ignore_ascii_case(n.as_bytes()));
    // Blocks first: a printed grid's title line may hold commas.
    if blocks::starts_blocks(first_record, next_line) {
        Format::Blocks
    } else if first_record.contains(&b',') || trimmed.starts_with(b"\"") || is_header_name {
        Format::Csv
    } else {
        Format::Lines
    }
}

/// Splits one CSV line into unquoted fields (for detection only).
fn csv_fields(line: &[u8]) -> Vec<Vec<u8>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(line);
    let mut record = csv::ByteRecord::new();
    match reader.read_byte_record(&mut record) {
        Ok(true) => record.iter().map(|f| f.to_vec()).collect(),
        _ => Vec::new(),
    }
}

/// Byte offset just past the CSV header record starting at `offset`.
fn header_end(data: &[u8], offset: usize) -> usize {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(&data[offset..]);
    let mut record = csv::ByteRecord::new();
    let _ = reader.read_byte_record(&mut record);
    let mut end = offset + reader.position().byte() as usize;
    // After a CRLF the reader stops before the `\n`; the header line includes it.
    if data.get(end) == Some(&b'\n') {
        end += 1;
    }
    end
}

/// When no header name matches: the first column whose value in the first data row is a grid.
fn first_grid_column(data: &[u8], header_offset: usize) -> Option<usize> {
    let start = header_end(data, header_offset);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .comment(Some(b'#'))
        .from_reader(&data[start..]);
    let mut record = csv::ByteRecord::new();
    while let Ok(true) = reader.read_byte_record(&mut record) {
        if record.iter().all(|f| f.is_empty()) {
            continue;
        }
        return record
            .iter()
            .position(|f| f.len() == CELLS && f.iter().all(|&b| cell_value(b).is_some()));
    }
    None
}

/// Finds the end of the chunk that starts at the beginning of `data`: just past the
/// first record boundary at or after `target` bytes, or the end of `data`.
///
/// For CSV a newline inside a quoted field is not a boundary; `in_quotes` carries the
/// quoting state from the end of the previous chunk and is updated.
pub fn chunk_end(data: &[u8], target: usize, format: Format, in_quotes: &mut bool) -> usize {
    match format {
        Format::Blocks => blocks::chunk_end(data, target),
        Format::Lines => {
            if target >= data.len() {
                return data.len();
            }
            data[target..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(data.len(), |i| target + i + 1)
        }
        Format::Csv => {
            // Quote parity decides whether a newline ends a record. Counting quotes
            // without an early exit lets the compiler vectorise the scan.
            let quotes = |bytes: &[u8]| bytes.iter().filter(|&&b| b == b'"').count() % 2 == 1;
            let mut quoted = *in_quotes ^ quotes(&data[..target.min(data.len())]);
            let mut pos = target.min(data.len());
            while let Some(i) = data[pos..].iter().position(|&b| b == b'\n') {
                let newline = pos + i;
                quoted ^= quotes(&data[pos..newline]);
                if !quoted {
                    *in_quotes = false;
                    return newline + 1;
                }
                pos = newline + 1;
            }
            *in_quotes = quoted ^ quotes(&data[pos..]);
            data.len()
        }
    }
}

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
}

/// Scratch space reused across chunks by one worker (CSV parsing needs a record buffer).
#[derive(Default)]
pub struct RecordScratch {
    record: csv::ByteRecord,
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
    mut each: F,
) where
    F: FnMut(Record<'_>),
{
    match layout.format {
        Format::Blocks => blocks::for_each_block(chunk, first_line, each),
        Format::Lines => {
            for (line_no, line) in (first_line..).zip(chunk.split(|&b| b == b'\n')) {
                let line = trim_cr(line);
                if let Some(record) = layout.too_long(line, line_no) {
                    each(record);
                } else if !is_skipped_line(line) {
                    each(line_record(line, line_no));
                }
            }
        }
        // Most large CSV files quote nothing: then lines and commas are the whole syntax,
        // and splitting them directly is several times faster than a CSV reader.
        Format::Csv if !chunk.contains(&b'"') => {
            for (line_no, line) in (first_line..).zip(chunk.split(|&b| b == b'\n')) {
                let line = trim_cr(line);
                if line.first().is_none_or(|&b| b == b'#') {
                    continue;
                }
                if let Some(record) = layout.too_long(line, line_no) {
                    each(record);
                    continue;
                }
                let (mut count, mut puzzle, mut solution) = (0, None, None);
                for (i, field) in line.split(|&b| b == b',').enumerate() {
                    if i == layout.puzzle_field {
                        puzzle = Some(field);
                    } else if Some(i) == layout.solution_field {
                        solution = Some(field);
                    }
                    count = i + 1;
                }
                if count == 1 && is_skipped_line(line) {
                    continue;
                }
                each(csv_record(line_no, count, puzzle, solution));
            }
        }
        Format::Csv => {
            let mut reader = csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .comment(Some(b'#'))
                .from_reader(chunk);
            let record = &mut scratch.record;
            // Line numbers are counted here from byte offsets: the csv crate's own
            // line count lags by one after CRLF line ends.
            let (mut counted_to, mut line) = (0usize, first_line);
            loop {
                match reader.read_byte_record(record) {
                    Ok(true) => {}
                    Ok(false) => break,
                    // Byte records only fail on I/O, which a slice cannot produce.
                    Err(_) => break,
                }
                // The reported start can precede blank and `#` comment lines the reader
                // skipped; step over them so their newlines are counted.
                let mut start = record.position().map_or(0, |p| p.byte() as usize);
                loop {
                    match chunk.get(start) {
                        Some(b'\r' | b'\n') => start += 1,
                        Some(b'#') => {
                            start += chunk[start..]
                                .iter()
                                .position(|&b| b == b'\n')
                                .map_or(chunk.len() - start, |i| i + 1)
                        }
                        _ => break,
                    }
                }
                let start = start.min(chunk.len()).max(counted_to);
                line += chunk[counted_to..start]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count() as u64;
                counted_to = start;
                if record.len() == 1 && is_skipped_line(&record[0]) {
                    continue;
                }
                // Fields and their commas (quotes are not kept by the reader).
                let length = record.as_slice().len() + record.len().saturating_sub(1);
                if length > layout.max_record {
                    let raw = record.get(0).unwrap_or(&[]);
                    each(too_long_record(raw, line, length as u64, layout.max_record));
                    continue;
                }
                let solution = layout.solution_field.and_then(|i| record.get(i));
                each(csv_record(
                    line,
                    record.len(),
                    record.get(layout.puzzle_field),
                    solution,
                ));
            }
        }
    }
}

/// A CSV record from its puzzle and solution fields (`None` when the row is too short).
#[inline]
fn csv_record<'a>(
    line: u64,
    field_count: usize,
    puzzle: Option<&'a [u8]>,
    solution: Option<&'a [u8]>,
) -> Record<'a> {
    Record {
        line,
        puzzle: match puzzle {
            None => Err(RecordError::MissingField(field_count)),
            Some(field) => Grid::parse(field).map_err(RecordError::Parse),
        },
        raw: puzzle.unwrap_or(&[]),
        expected: solution
            .filter(|f| !f.is_empty())
            .map(|f| Grid::parse(f).map_err(|_| ())),
        expected_text: solution.filter(|f| !f.is_empty()),
        marks: None,
    }
}

/// Finds the puzzle (and an expected solution) on one line of the lines format.
fn line_record(line: &[u8], line_no: u64) -> Record<'_> {
    // Fast path: the whole line is the grid, as in most large corpora.
    if line.len() == CELLS {
        if let Ok(grid) = Grid::parse(line) {
            return Record {
                line: line_no,
                puzzle: Ok(grid),
                raw: line,
                expected: None,
                expected_text: None,
                marks: None,
            };
        }
    }
    // Text after a `#` that starts a word is a note.
    let end = line
        .iter()
        .enumerate()
        .position(|(i, &b)| b == b'#' && (i == 0 || line[i - 1].is_ascii_whitespace()))
        .unwrap_or(line.len());
    let text = &line[..end];
    let mut puzzle: Option<(usize, &[u8])> = None;
    let mut longest: Option<(usize, &[u8])> = None;
    let mut expected = None;
    let mut expected_text = None;
    // After a token that is not a grid: the next token of its length (a variant board's
    // solution).
    let mut after_longest: Option<&[u8]> = None;
    let mut pos = 0;
    for token in text.split(|b| b.is_ascii_whitespace()) {
        let start = pos;
        pos += token.len() + 1;
        if token.is_empty() {
            continue;
        }
        let is_grid = token.len() == CELLS && token.iter().all(|&b| cell_value(b).is_some());
        if is_grid {
            if puzzle.is_none() {
                puzzle = Some((start, token));
            } else if expected.is_none() && token.iter().all(|&b| (b'1'..=b'9').contains(&b)) {
                expected = Grid::parse(token).ok().map(Ok);
                expected_text = Some(token);
            }
        } else if longest.is_none_or(|(_, t)| t.len() < token.len()) {
            longest = Some((start, token));
            after_longest = None;
        } else if longest.is_some_and(|(_, t)| t.len() == token.len()) && after_longest.is_none() {
            after_longest = Some(token);
        }
    }
    match (puzzle, longest) {
        (Some((_, token)), _) => Record {
            line: line_no,
            puzzle: Grid::parse(token).map_err(RecordError::Parse),
            raw: token,
            expected,
            expected_text,
            marks: None,
        },
        // 729 characters: the nine candidate positions of every cell.
        (None, Some((_, token))) if token.len() == MARKS_LEN => {
            let marks = Marks::parse(token);
            Record {
                line: line_no,
                puzzle: marks.map(|m| m.singles()).map_err(RecordError::Marks),
                raw: token,
                expected: None,
                expected_text: None,
                marks: marks.ok(),
            }
        }
        (None, Some((start, token))) => {
            let err = match Grid::parse(token) {
                Err(e) => e,
                // Unreachable in practice: an 81-cell grid token would have been taken.
                Ok(_) => ParseError {
                    column: 1,
                    kind: ParseErrorKind::TooShort(token.len()),
                },
            };
            Record {
                line: line_no,
                puzzle: Err(RecordError::Parse(ParseError {
                    column: start + err.column,
                    kind: err.kind,
                })),
                raw: token,
                expected: None,
                expected_text: after_longest,
                marks: None,
            }
        }
        (None, None) => Record {
            line: line_no,
            puzzle: Err(RecordError::NoGrid),
            raw: text,
            expected: None,
            expected_text: None,
            marks: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........";

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
