//! Parquet input: the puzzle column (and a solution column, when there is one) read row
//! group by row group on a thread of its own and turned into lines, `puzzle` or
//! `puzzle solution`, one per row, so that the record pipeline reads them as it reads a
//! stream and `line` is the row number counted from 1. The solution is left out of a
//! row whose puzzle is malformed, where it could be taken for the puzzle.
//!
//! A puzzle column is a string (`BYTE_ARRAY`) column, a fixed-size binary column of 81
//! bytes (digits, or cell values 0-9), or a list of 81 integers (0 empty). A null or
//! empty value becomes a row the pipeline answers `invalid`, so every row yields one
//! output row; white space and control bytes in a value, and a `#` starting it, are
//! shown as `?`, for the same reason.

use std::fs::File;
use std::io;
use std::path::Path;

use parquet::basic::Type as Physical;
use parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use parquet::data_type::{ByteArray, DataType, FixedLenByteArray};
use parquet::file::reader::{ChunkReader, FileReader, SerializedFileReader};
use parquet::schema::types::ColumnDescPtr;

use super::compressed::{self, Decoded};
use super::detect::{PUZZLE_NAMES, SOLUTION_NAMES};
use super::ColumnChoice;
use crate::grid::{cell_value, CELLS};

/// The first (and last) four bytes of a Parquet file.
pub const MAGIC: &[u8] = b"PAR1";

/// Rows decoded at a time.
const BATCH: usize = 4096;

/// What is wrong with a Parquet input, found before any row is read (reading errors
/// later come through the stream as `io::Error`s naming the row group).
#[derive(Debug)]
pub enum ParquetError {
    /// The file's footer or metadata cannot be read.
    Unreadable(String),
    /// `--column` names no column.
    NoSuchColumn {
        /// What was asked for.
        asked: String,
        /// The columns there are.
        columns: Vec<String>,
    },
    /// No column holds puzzles, or the one chosen cannot.
    NoPuzzleColumn {
        /// Why, naming the columns.
        why: String,
    },
}

impl std::fmt::Display for ParquetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParquetError::Unreadable(e) => write!(f, "not a readable Parquet file: {e}"),
            ParquetError::NoSuchColumn { asked, columns } => write!(
                f,
                "--column {asked}: no such column; the file has: {}",
                columns.join(", ")
            ),
            ParquetError::NoPuzzleColumn { why } => f.write_str(why),
        }
    }
}

impl std::error::Error for ParquetError {}

/// How a column's values become a puzzle's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cells {
    /// Strings, as they are.
    Text,
    /// Fixed-size binary: digits as they are, bytes 0-9 as digits.
    Fixed,
    /// A list of integers, one a cell.
    List,
}

/// A column read for puzzles or solutions.
#[derive(Clone, Debug)]
struct Column {
    index: usize,
    name: String,
    cells: Cells,
    descr: ColumnDescPtr,
}

/// A Parquet file opened for reading puzzles: which columns, and how many rows.
pub struct Opened {
    /// The rows as lines, decoded on their own thread.
    pub lines: Decoded,
    /// How the file is read, for the summary: `Parquet: puzzles in "question",
    /// solutions in "answer", 1000 rows in 4 row groups`.
    pub described: String,
}

/// Opens the Parquet file `path` and starts reading the puzzle column `choice` (by
/// default the one named as a CSV's would be, else the first string column).
pub fn open(path: &Path, choice: &ColumnChoice) -> Result<Opened, ParquetError> {
    let file = File::open(path).map_err(|e| ParquetError::Unreadable(e.to_string()))?;
    open_from(file, choice)
}

/// [`open`] on Parquet bytes from anywhere they can be read at offsets (a file, or
/// bytes in memory).
pub fn open_from<R: ChunkReader + 'static>(
    source: R,
    choice: &ColumnChoice,
) -> Result<Opened, ParquetError> {
    let reader =
        SerializedFileReader::new(source).map_err(|e| ParquetError::Unreadable(e.to_string()))?;
    let metadata = reader.metadata();
    let columns: Vec<ColumnDescPtr> = metadata.file_metadata().schema_descr().columns().to_vec();
    let (puzzle, solution) = choose(&columns, choice)?;
    let rows = metadata.file_metadata().num_rows().max(0) as u64;
    let groups = reader.num_row_groups();
    let mut described = format!("Parquet: puzzles in \"{}\"", puzzle.name);
    if let Some(solution) = &solution {
        described.push_str(&format!(", solutions in \"{}\"", solution.name));
    }
    described.push_str(&format!(
        ", {rows} rows in {groups} row group{}",
        if groups == 1 { "" } else { "s" }
    ));
    let lines = compressed::start(move |send| {
        let mut out = Vec::with_capacity(compressed::BLOCK + 2048);
        let mut puzzles = Values::default();
        let mut solutions = Values::default();
        for group in 0..groups {
            let named = |e: parquet::errors::ParquetError| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("Parquet row group {}: {e}", group + 1),
                )
            };
            let row_group = reader.get_row_group(group).map_err(named)?;
            let mut puzzle_reader = row_group.get_column_reader(puzzle.index).map_err(named)?;
            let mut solution_reader = match &solution {
                Some(s) => Some(row_group.get_column_reader(s.index).map_err(named)?),
                None => None,
            };
            loop {
                let read = puzzles
                    .read(&mut puzzle_reader, &puzzle, BATCH)
                    .map_err(named)?;
                if read == 0 {
                    break;
                }
                if let (Some(reader), Some(column)) = (&mut solution_reader, &solution) {
                    solutions.read(reader, column, read).map_err(named)?;
                }
                for row in 0..read {
                    let start = out.len();
                    puzzles.write(row, puzzle.cells, &mut out);
                    if let Some(column) = &solution {
                        let at = out.len();
                        out.push(b' ');
                        solutions.write(row, column.cells, &mut out);
                        if !solution_fits(&out[start..at], &out[at + 1..]) {
                            out.truncate(at);
                        }
                    }
                    out.push(b'\n');
                }
                if out.len() >= compressed::BLOCK {
                    if send.send(Ok(std::mem::take(&mut out))).is_err() {
                        return Ok(());
                    }
                    out.reserve(compressed::BLOCK + 2048);
                }
            }
        }
        if !out.is_empty() {
            let _ = send.send(Ok(out));
        }
        Ok(())
    });
    Ok(Opened { lines, described })
}

/// True when a line `puzzle solution` reads back as that puzzle with that solution. A
/// line's first 81-cell token is its puzzle, so after one that is not a grid (null,
/// short, a bad byte) the solution would be taken for it; a board (not 81 long) takes
/// only a solution of its own length. Else the solution is left out: a malformed
/// puzzle has nothing to compare it with.
fn solution_fits(puzzle: &[u8], solution: &[u8]) -> bool {
    if puzzle.len() == CELLS {
        puzzle.iter().all(|&b| cell_value(b).is_some())
    } else {
        solution.len() == puzzle.len()
    }
}

/// The top-level name of a column (a list's name, not its `list.element`).
fn top_name(column: &ColumnDescPtr) -> String {
    column
        .path()
        .parts()
        .first()
        .cloned()
        .unwrap_or_else(|| column.name().to_string())
}

/// How a column's values can be read as puzzles, if they can.
fn cells_of(column: &ColumnDescPtr) -> Result<Cells, String> {
    match (column.physical_type(), column.max_rep_level()) {
        (Physical::BYTE_ARRAY, 0) => Ok(Cells::Text),
        (Physical::FIXED_LEN_BYTE_ARRAY, 0) => Ok(Cells::Fixed),
        (Physical::INT32 | Physical::INT64, 1) => Ok(Cells::List),
        (Physical::INT32 | Physical::INT64, 0) => Err(format!(
            "column \"{}\" holds numbers, which lose the leading zeros of empty cells; \
             write puzzles as strings, or as lists of 81 integers",
            top_name(column)
        )),
        (other, _) => Err(format!(
            "column \"{}\" holds {other} values, not puzzles (strings, 81-byte binary or \
             lists of 81 integers)",
            top_name(column)
        )),
    }
}

/// The puzzle column and the solution column (if any).
fn choose(
    columns: &[ColumnDescPtr],
    choice: &ColumnChoice,
) -> Result<(Column, Option<Column>), ParquetError> {
    let names: Vec<String> = columns.iter().map(top_name).collect();
    let column = |index: usize| -> Result<Column, String> {
        Ok(Column {
            index,
            name: names[index].clone(),
            cells: cells_of(&columns[index])?,
            descr: columns[index].clone(),
        })
    };
    let named = |wanted: &[&str]| {
        names
            .iter()
            .position(|n| wanted.iter().any(|w| n.eq_ignore_ascii_case(w)))
    };
    let no_column = |why: String| ParquetError::NoPuzzleColumn { why };
    let puzzle = match choice {
        ColumnChoice::Name(name) => {
            let index = named(&[name.as_str()]).ok_or_else(|| ParquetError::NoSuchColumn {
                asked: name.clone(),
                columns: names.clone(),
            })?;
            column(index).map_err(no_column)?
        }
        ColumnChoice::Index(i) if (1..=columns.len()).contains(i) => {
            column(i - 1).map_err(no_column)?
        }
        ColumnChoice::Index(i) => {
            return Err(ParquetError::NoSuchColumn {
                asked: i.to_string(),
                columns: names,
            })
        }
        ColumnChoice::Auto => match named(PUZZLE_NAMES) {
            Some(index) => column(index).map_err(no_column)?,
            None => (0..columns.len())
                .filter(|&i| named(SOLUTION_NAMES) != Some(i))
                .find_map(|i| column(i).ok())
                .ok_or_else(|| {
                    no_column(format!(
                        "no column holds puzzles (strings, 81-byte binary or lists of 81 \
                         integers); the file has: {}; name one with --column",
                        names.join(", ")
                    ))
                })?,
        },
    };
    let solution = named(SOLUTION_NAMES)
        .filter(|&i| i != puzzle.index)
        .and_then(|i| column(i).ok());
    Ok((puzzle, solution))
}

/// One batch of a column's values, with where each row's value lies.
#[derive(Default)]
struct Values {
    texts: Vec<ByteArray>,
    fixed: Vec<FixedLenByteArray>,
    numbers: Vec<i64>,
    numbers32: Vec<i32>,
    defs: Vec<i16>,
    reps: Vec<i16>,
    /// For each row: the range of its values (texts, fixed or numbers), or `None`
    /// when it is null.
    rows: Vec<Option<(usize, usize)>>,
}

impl Values {
    /// Reads up to `most` rows of `column` from `reader`; answers how many.
    fn read(
        &mut self,
        reader: &mut ColumnReader,
        column: &Column,
        most: usize,
    ) -> parquet::errors::Result<usize> {
        let descr = &column.descr;
        let (defs, reps) = (&mut self.defs, &mut self.reps);
        let read = match reader {
            ColumnReader::ByteArrayColumnReader(r) => {
                read_rows(r, descr, most, defs, reps, &mut self.texts)?
            }
            ColumnReader::FixedLenByteArrayColumnReader(r) => {
                read_rows(r, descr, most, defs, reps, &mut self.fixed)?
            }
            ColumnReader::Int64ColumnReader(r) => {
                read_rows(r, descr, most, defs, reps, &mut self.numbers)?
            }
            ColumnReader::Int32ColumnReader(r) => {
                let read = read_rows(r, descr, most, defs, reps, &mut self.numbers32)?;
                self.numbers.clear();
                self.numbers
                    .extend(self.numbers32.iter().map(|&n| i64::from(n)));
                read
            }
            _ => {
                return Err(parquet::errors::ParquetError::General(
                    "the column is not one of puzzles".to_string(),
                ))
            }
        };
        self.place(read, descr);
        Ok(read)
    }

    /// Works out each of `read` rows' values from the levels.
    fn place(&mut self, read: usize, descr: &ColumnDescPtr) {
        self.rows.clear();
        let (max_def, max_rep) = (descr.max_def_level(), descr.max_rep_level());
        let mut value = 0;
        if max_rep == 0 {
            for row in 0..read {
                let present = max_def == 0 || self.defs.get(row) == Some(&max_def);
                self.rows.push(present.then(|| {
                    value += 1;
                    (value - 1, value)
                }));
            }
            return;
        }
        // A list: a repetition level of 0 starts a row; a definition level below the
        // most is a null or empty list (no value), or a null element (a value slot that
        // holds nothing, shown as a bad cell).
        let mut start: Option<(usize, bool)> = None;
        for (i, &rep) in self.reps.iter().enumerate() {
            let def = self.defs.get(i).copied().unwrap_or(max_def);
            if rep == 0 {
                if let Some((first, any)) = start.take() {
                    self.rows.push(any.then_some((first, value)));
                }
                start = Some((value, false));
            }
            if def == max_def {
                value += 1;
                if let Some((_, any)) = &mut start {
                    *any = true;
                }
            }
        }
        if let Some((first, any)) = start {
            self.rows.push(any.then_some((first, value)));
        }
        self.rows.resize(read, None);
    }

    /// Appends row `row`'s text, its values read as `cells`: the value (white space,
    /// control bytes and a leading `#` shown as `?`), or `null` for none, or `""` for
    /// an empty one.
    fn write(&self, row: usize, cells: Cells, out: &mut Vec<u8>) {
        let Some((from, to)) = self.rows.get(row).copied().flatten() else {
            out.extend_from_slice(b"null");
            return;
        };
        let start = out.len();
        match cells {
            Cells::Text => {
                if let Some(text) = self.texts.get(from) {
                    out.extend_from_slice(text.data());
                }
            }
            Cells::Fixed => {
                for fixed in &self.fixed[from..to] {
                    out.extend(
                        fixed
                            .data()
                            .iter()
                            .map(|&b| if b <= 9 { b'0' + b } else { b }),
                    );
                }
            }
            Cells::List => {
                for &n in &self.numbers[from..to] {
                    out.push(match n {
                        0..=9 => b'0' + n as u8,
                        _ => b'?',
                    });
                }
            }
        }
        if out.len() == start {
            out.extend_from_slice(b"\"\"");
            return;
        }
        // Line ends and white space would split the row (one compare a byte, which
        // vectorises; the control bytes below a space go with them).
        for b in &mut out[start..] {
            *b = if *b <= b' ' { b'?' } else { *b };
        }
        if out[start] == b'#' {
            out[start] = b'?';
        }
    }
}

/// Reads up to `most` whole rows of a column into `values` (non-null values only) and
/// its levels, each cleared first; answers the rows read.
fn read_rows<T: DataType>(
    reader: &mut ColumnReaderImpl<T>,
    descr: &ColumnDescPtr,
    most: usize,
    defs: &mut Vec<i16>,
    reps: &mut Vec<i16>,
    values: &mut Vec<T::T>,
) -> parquet::errors::Result<usize> {
    defs.clear();
    reps.clear();
    values.clear();
    let defs = (descr.max_def_level() > 0).then_some(defs);
    let reps = (descr.max_rep_level() > 0).then_some(reps);
    let (rows, _, _) = reader.read_records(most, defs, reps, values)?;
    Ok(rows)
}
