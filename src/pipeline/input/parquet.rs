//! Parquet input: the file mapped, its row groups cut into pieces of whole pages, and
//! each piece's puzzle column (and solution column, when there is one) decoded by the
//! worker that processes it into lines, `puzzle` or `puzzle solution`, one per row, so
//! that the record pipeline reads them as it reads lines and `line` is the row number
//! counted from 1. The solution is left out of a row whose puzzle is malformed, where it
//! could be taken for the puzzle.
//!
//! A puzzle column is a string (`BYTE_ARRAY`) column, a fixed-size binary column of 81
//! bytes (digits, or cell values 0-9), or a list of 81 integers (0 empty). A null or
//! empty puzzle is handed on apart ([`Segment::NoValue`]), a row the pipeline answers
//! `invalid` saying so, so every row yields one output row; white space and control bytes in a value, and a `#` starting it, are
//! shown as `?`, for the same reason.

use std::fs::File;
use std::io;
use std::path::Path;

use bytes::Bytes;
use parquet::basic::Type as Physical;
use parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use parquet::data_type::{ByteArray, DataType, FixedLenByteArray};
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::schema::types::ColumnDescPtr;

use super::detect::{PUZZLE_NAMES, SOLUTION_NAMES};
use super::parquet_pages::{self, PageKind};
use super::ColumnChoice;
use crate::values::grid::{cell_value, CELLS};

/// The first (and last) four bytes of a Parquet file.
pub const MAGIC: &[u8] = b"PAR1";

/// Rows decoded at a time.
const BATCH: usize = 4096;

/// Lines gathered before they are handed on, whatever the batch.
const LINES_HANDED: usize = 1 << 20;

/// The most a page may declare once decompressed (the Parquet library allocates it
/// whole), unless `--max-record-bytes` asks for more: writers cut pages at about 1 MiB.
const PAGE_LIMIT: u64 = 16 << 20;

/// The most values (levels) a page of a list column may declare: each is decoded into
/// 16 bytes, and a row's values are held together.
const LIST_PAGE_VALUES: u64 = 4 << 20;

/// A dictionary larger than this is decoded once for its column chunk: the row group
/// is not cut into pieces, each of which would decode it again.
const DICTIONARY_SHARED: u64 = 1 << 20;

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
enum CellText {
    /// Strings, as they are.
    Text,
    /// Fixed-size binary: digits as they are, bytes 0-9 as digits.
    Fixed,
    /// A list of integers, one a cell.
    List,
}

/// A column read for puzzles or solutions.
#[derive(Clone, Debug)]
struct ReadColumn {
    index: usize,
    name: String,
    cells: CellText,
    descr: ColumnDescPtr,
}

/// A Parquet file opened for reading puzzles: which columns, and the file's bytes
/// (mapped), which every worker reads its pieces from at once.
pub struct ParquetFile {
    reader: SerializedFileReader<Bytes>,
    /// The file's bytes, whose page headers are read before the pages are decoded.
    bytes: Bytes,
    puzzle: ReadColumn,
    solution: Option<ReadColumn>,
    /// How the file is read, for the summary: `Parquet: puzzles in "question",
    /// solutions in "answer", 1000 rows in 4 row groups`.
    pub described: String,
}

/// Rows of a row group decoded as one piece at least (whole pages of the puzzle column
/// make up a piece, so that no page is decoded by two); more with a solution column,
/// whose pages lie elsewhere and are decoded in part by both pieces they straddle.
const PIECE_ROWS: usize = 8192;

/// With a solution column.
const PIECE_ROWS_SOLVED: usize = 32768;

/// A run of rows of one row group, decoded on its own by one worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    group: usize,
    /// Rows of the row group before the piece.
    skip: usize,
    /// Rows in the piece.
    pub rows: usize,
    /// The row number of the piece's first row, counted from 1 in the file.
    pub first_row: u64,
    /// Decoded a row at a time: its values are copied out one by one (not sliced
    /// from their page), so that a batch of long ones would not fit.
    one_by_one: bool,
}

/// What [`ParquetFile::decode`] hands on: lines, a row each, or a row over the
/// record limit, which is not copied.
#[derive(Debug)]
pub enum Segment<'a> {
    /// Whole lines, the first one row `first_row`.
    Lines {
        /// The lines, each ended by `\n`.
        bytes: &'a [u8],
        /// The row number of the first line.
        first_row: u64,
    },
    /// A row whose puzzle is null (`null`) or empty.
    NoValue {
        /// Its row number.
        row: u64,
        /// Null, not empty.
        null: bool,
    },
    /// A row whose value is longer than the limit.
    TooLong {
        /// Its first bytes (at most 100).
        echo: &'a [u8],
        /// Its row number.
        row: u64,
        /// Its length.
        length: u64,
    },
}

/// A worker's buffers for decoding pieces, reused piece after piece.
#[derive(Default)]
pub struct Scratch {
    puzzles: Values,
    solutions: Values,
    out: Vec<u8>,
}

/// What a column chunk's page headers declare.
#[derive(Debug, Default)]
struct ChunkPages {
    /// Rows (levels, for a list column) of each data page.
    rows: Vec<usize>,
    /// Bytes of its dictionary once decompressed.
    dictionary: u64,
    /// Dictionary pages read so far.
    dictionary_pages: u32,
    /// Some page's values are copied one by one as they are decoded.
    copied: bool,
}

/// Bytes of a value over the record limit kept for its row.
const TOO_LONG_ECHO: usize = 100;

/// Opens the Parquet file `path` (mapped) for reading the puzzle column `choice` (by
/// default the one named as a CSV's would be, else the first string column).
pub fn open(path: &Path, choice: &ColumnChoice) -> Result<ParquetFile, ParquetError> {
    let unreadable = |e: io::Error| ParquetError::Unreadable(e.to_string());
    let file = File::open(path).map_err(unreadable)?;
    // SAFETY: the map is read only; a file changed under it while it is read gives
    // wrong rows or a decoding error (the same contract as the plain mapped inputs,
    // which check the file's length and time afterwards), not unsound memory use, as
    // the bytes are only ever read as plain data.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(unreadable)?;
    open_from(Bytes::from_owner(map), choice)
}

/// [`open`] on Parquet bytes in memory.
pub fn open_from(bytes: Bytes, choice: &ColumnChoice) -> Result<ParquetFile, ParquetError> {
    let reader = SerializedFileReader::new(bytes.clone())
        .map_err(|e| ParquetError::Unreadable(e.to_string()))?;
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
    Ok(ParquetFile {
        reader,
        bytes,
        puzzle,
        solution,
        described,
    })
}

/// A decoding error, naming the row group (counted from 1).
fn in_group(group: usize) -> impl Fn(parquet::errors::ParquetError) -> io::Error {
    move |e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("Parquet row group {}: {e}", group + 1),
        )
    }
}

impl ParquetFile {
    /// The row groups, or those of shard `index` of `count` (1-based: the row groups
    /// are shared out in order, as evenly as their number allows), cut into pieces of
    /// whole pages of the puzzle column. Reads the pages' headers, not their data, and
    /// checks what they declare: the footer's row count, and each page's size once
    /// decompressed (at most 16 MiB, or twice `max_record`).
    pub fn pieces(&self, shard: Option<(u32, u32)>, max_record: usize) -> io::Result<Vec<Piece>> {
        let metadata = self.reader.metadata();
        let groups = self.reader.num_row_groups();
        let (from, to) = match shard {
            None => (0, groups),
            Some((index, count)) => {
                let part = |i: u32| (groups as u64 * u64::from(i) / u64::from(count)) as usize;
                (part(index - 1), part(index))
            }
        };
        let mut first_row: u64 = (0..from)
            .map(|g| metadata.row_group(g).num_rows().max(0) as u64)
            .sum();
        let page_limit = PAGE_LIMIT.max(2 * max_record as u64);
        let target = if self.solution.is_some() {
            PIECE_ROWS_SOLVED
        } else {
            PIECE_ROWS
        };
        let mut pieces = Vec::new();
        for group in from..to {
            let named = |what: String| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("Parquet row group {}: {what}", group + 1),
                )
            };
            let rows = metadata.row_group(group).num_rows().max(0) as usize;
            let mut columns = vec![(
                &self.puzzle,
                self.chunk_pages(group, &self.puzzle, page_limit),
            )];
            if let Some(solution) = &self.solution {
                columns.push((solution, self.chunk_pages(group, solution, page_limit)));
            }
            let (mut whole, mut one_by_one) = (false, false);
            for (column, pages) in &columns {
                let pages = pages.as_ref().map_err(|e| named(e.clone()))?;
                // Pages of a list column hold no row counts (the decoder checks those).
                let repeated = column.descr.max_rep_level() > 0;
                whole |= repeated || pages.dictionary > DICTIONARY_SHARED;
                one_by_one |= pages.copied;
                let held: usize = pages.rows.iter().sum();
                if !repeated && held != rows {
                    return Err(named(format!(
                        "the footer declares {rows} rows, the \"{}\" column's pages hold \
                         {held}",
                        column.name
                    )));
                }
            }
            let pages = match (&columns[0].1, whole) {
                (Ok(pages), false) => pages.rows.clone(),
                _ => vec![rows],
            };
            let mut skip = 0;
            let mut piece = 0;
            let cut = |skip: usize, rows: usize| Piece {
                group,
                skip,
                rows,
                first_row: first_row + skip as u64 + 1,
                one_by_one,
            };
            for page in pages {
                piece += page;
                if piece >= target {
                    pieces.push(cut(skip, piece));
                    skip += piece;
                    piece = 0;
                }
            }
            if skip < rows {
                pieces.push(cut(skip, rows - skip));
            }
            first_row += rows as u64;
        }
        Ok(pieces)
    }

    /// What the page headers of `column`'s chunk in row group `group` declare, checked
    /// against `page_limit` bytes a page.
    fn chunk_pages(
        &self,
        group: usize,
        column: &ReadColumn,
        page_limit: u64,
    ) -> Result<ChunkPages, String> {
        let name = &column.name;
        let chunk = self.reader.metadata().row_group(group).column(column.index);
        // Where the chunk starts and how long it is, as the footer says (checked here:
        // the library's own `byte_range` panics on negative values).
        let start = chunk
            .dictionary_page_offset()
            .unwrap_or(chunk.data_page_offset());
        let bytes = usize::try_from(start)
            .ok()
            .zip(usize::try_from(chunk.compressed_size()).ok())
            .and_then(|(start, length)| self.bytes.get(start..start.checked_add(length)?))
            .ok_or_else(|| format!("the \"{name}\" column chunk lies outside the file"))?;
        let heads = parquet_pages::heads(bytes).map_err(|e| format!("column \"{name}\": {e}"))?;
        let repeated = column.descr.max_rep_level() > 0;
        let mut pages = ChunkPages::default();
        for (i, head) in heads.iter().enumerate() {
            if head.uncompressed > page_limit {
                return Err(format!(
                    "column \"{name}\": page {} declares {} bytes once decompressed, over \
                     the {} MiB a page may hold here (writers cut pages at about 1 MiB: \
                     write the file with smaller pages, or raise --max-record-bytes)",
                    i + 1,
                    head.uncompressed,
                    page_limit >> 20
                ));
            }
            if repeated && head.values > LIST_PAGE_VALUES {
                return Err(format!(
                    "column \"{name}\": page {} declares {} values, over the {} a page of \
                     a list column may hold here",
                    i + 1,
                    head.values,
                    LIST_PAGE_VALUES
                ));
            }
            let by_dictionary = matches!(head.encoding, Some(2 | 8));
            if head.kind == PageKind::Data && by_dictionary && pages.dictionary_pages == 0 {
                return Err(format!(
                    "column \"{name}\": page {} is dictionary-encoded, but no dictionary \
                     page comes before it",
                    i + 1
                ));
            }
            match head.kind {
                PageKind::Dictionary => {
                    pages.dictionary += head.uncompressed;
                    pages.dictionary_pages += 1;
                }
                PageKind::Data => {
                    pages.rows.push(head.rows.unwrap_or(head.values) as usize);
                    pages.copied |= head.encoding == Some(parquet_pages::DELTA_BYTE_ARRAY);
                }
                PageKind::Other => {}
            }
        }
        Ok(pages)
    }

    /// Decodes `piece` into lines, `puzzle` or `puzzle solution` a row, handed to
    /// `each` a batch at a time, with a value over `max_record` bytes handed on as
    /// [`Segment::TooLong`] alone, and a null or empty puzzle as [`Segment::NoValue`].
    ///
    /// The page headers were checked when the pieces were cut; a malformed page the
    /// Parquet library still panics on fails the piece with its message, as an
    /// unreadable one does.
    pub fn decode(
        &self,
        piece: &Piece,
        max_record: usize,
        scratch: &mut Scratch,
        each: impl FnMut(Segment<'_>),
    ) -> io::Result<()> {
        let decoded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.decode_piece(piece, max_record, scratch, each)
        }));
        decoded.unwrap_or_else(|panic| {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "Parquet row group {}: malformed: {message}",
                    piece.group + 1
                ),
            ))
        })
    }

    fn decode_piece(
        &self,
        piece: &Piece,
        max_record: usize,
        scratch: &mut Scratch,
        mut each: impl FnMut(Segment<'_>),
    ) -> io::Result<()> {
        let named = in_group(piece.group);
        let row_group = self.reader.get_row_group(piece.group).map_err(&named)?;
        let (puzzle, solution) = (&self.puzzle, &self.solution);
        let mut puzzle_reader = row_group.get_column_reader(puzzle.index).map_err(&named)?;
        let mut solution_reader = match solution {
            Some(s) => Some(row_group.get_column_reader(s.index).map_err(&named)?),
            None => None,
        };
        skip(&mut puzzle_reader, piece.skip).map_err(&named)?;
        if let Some(reader) = &mut solution_reader {
            skip(reader, piece.skip).map_err(&named)?;
        }
        let Scratch {
            puzzles,
            solutions,
            out,
        } = scratch;
        let mut left = piece.rows;
        let mut row = piece.first_row;
        let batch = if piece.one_by_one { 1 } else { BATCH };
        while left > 0 {
            let read = puzzles
                .read(&mut puzzle_reader, puzzle, left.min(batch))
                .map_err(&named)?;
            if read == 0 {
                let done = piece.skip + piece.rows - left;
                return Err(named(parquet::errors::ParquetError::General(format!(
                    "the puzzle column ends after {done} of the row group's {} rows",
                    piece.skip + piece.rows
                ))));
            }
            if let (Some(reader), Some(column)) = (&mut solution_reader, solution) {
                solutions.read(reader, column, read).map_err(&named)?;
            }
            out.clear();
            let mut first = row;
            for i in 0..read {
                let start = out.len();
                if let Some(null) = puzzles.missing(i, puzzle.cells) {
                    each(Segment::Lines {
                        bytes: &out[..start],
                        first_row: first,
                    });
                    each(Segment::NoValue {
                        row: row + i as u64,
                        null,
                    });
                    out.clear();
                    first = row + i as u64 + 1;
                    continue;
                }
                puzzles.write(i, puzzle.cells, out);
                if let Some(column) = solution {
                    let at = out.len();
                    if solutions.missing(i, column.cells).is_none() {
                        out.push(b' ');
                        solutions.write(i, column.cells, out);
                        if !solution_fits(&out[start..at], &out[at + 1..]) {
                            out.truncate(at);
                        }
                    }
                }
                let length = out.len() - start;
                if length > max_record {
                    each(Segment::Lines {
                        bytes: &out[..start],
                        first_row: first,
                    });
                    each(Segment::TooLong {
                        echo: &out[start..start + TOO_LONG_ECHO.min(length)],
                        row: row + i as u64,
                        length: length as u64,
                    });
                    out.clear();
                    first = row + i as u64 + 1;
                    continue;
                }
                out.push(b'\n');
                if out.len() >= LINES_HANDED {
                    each(Segment::Lines {
                        bytes: out,
                        first_row: first,
                    });
                    out.clear();
                    first = row + i as u64 + 1;
                }
            }
            each(Segment::Lines {
                bytes: out,
                first_row: first,
            });
            row += read as u64;
            left -= read;
        }
        // A row group's last piece: the column must end with the rows its footer declares
        // (a list column's pages do not say how many rows they hold).
        let declared = row_group.metadata().num_rows().max(0) as usize;
        if piece.skip + piece.rows == declared
            && puzzles
                .read(&mut puzzle_reader, puzzle, 1)
                .map_err(&named)?
                > 0
        {
            return Err(named(parquet::errors::ParquetError::General(format!(
                "the footer declares {declared} rows, the puzzle column holds more"
            ))));
        }
        Ok(())
    }
}

/// Skips the first `rows` rows of a column chunk (whole pages by their headers).
fn skip(reader: &mut ColumnReader, rows: usize) -> parquet::errors::Result<()> {
    if rows == 0 {
        return Ok(());
    }
    let skipped = match reader {
        ColumnReader::ByteArrayColumnReader(r) => r.skip_records(rows)?,
        ColumnReader::FixedLenByteArrayColumnReader(r) => r.skip_records(rows)?,
        ColumnReader::Int64ColumnReader(r) => r.skip_records(rows)?,
        ColumnReader::Int32ColumnReader(r) => r.skip_records(rows)?,
        _ => 0,
    };
    if skipped < rows {
        return Err(parquet::errors::ParquetError::General(format!(
            "the column chunk ends after {skipped} of the {rows} rows its row group has"
        )));
    }
    Ok(())
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
fn cells_of(column: &ColumnDescPtr) -> Result<CellText, String> {
    match (column.physical_type(), column.max_rep_level()) {
        (Physical::BYTE_ARRAY, 0) => Ok(CellText::Text),
        (Physical::FIXED_LEN_BYTE_ARRAY, 0) => Ok(CellText::Fixed),
        (Physical::INT32 | Physical::INT64, 1) => Ok(CellText::List),
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
) -> Result<(ReadColumn, Option<ReadColumn>), ParquetError> {
    let names: Vec<String> = columns.iter().map(top_name).collect();
    let column = |index: usize| -> Result<ReadColumn, String> {
        Ok(ReadColumn {
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
        column: &ReadColumn,
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

    /// `Some(true)` when row `row` is null (or an empty list), `Some(false)` when its
    /// value is empty, `None` when it has one.
    fn missing(&self, row: usize, cells: CellText) -> Option<bool> {
        let Some((from, to)) = self.rows.get(row).copied().flatten() else {
            return Some(true);
        };
        let empty = match cells {
            CellText::Text => self.texts.get(from).is_none_or(|t| t.data().is_empty()),
            CellText::Fixed => self.fixed[from..to].iter().all(|f| f.data().is_empty()),
            CellText::List => from == to,
        };
        empty.then_some(false)
    }

    /// Appends row `row`'s text, its values read as `cells`: the value, white space,
    /// control bytes and a leading `#` shown as `?` (a row without one, see
    /// [`Values::missing`], appends nothing).
    fn write(&self, row: usize, cells: CellText, out: &mut Vec<u8>) {
        let Some((from, to)) = self.rows.get(row).copied().flatten() else {
            return;
        };
        let start = out.len();
        match cells {
            CellText::Text => {
                if let Some(text) = self.texts.get(from) {
                    out.extend_from_slice(text.data());
                }
            }
            CellText::Fixed => {
                for fixed in &self.fixed[from..to] {
                    out.extend(
                        fixed
                            .data()
                            .iter()
                            .map(|&b| if b <= 9 { b'0' + b } else { b }),
                    );
                }
            }
            CellText::List => {
                for &n in &self.numbers[from..to] {
                    out.push(match n {
                        0..=9 => b'0' + n as u8,
                        _ => b'?',
                    });
                }
            }
        }
        if out.len() == start {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::input::DEFAULT_MAX_RECORD;
    use parquet::data_type::ByteArrayType;
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;
    use std::sync::Arc;

    /// `rows` puzzles in row groups of `group`, pages of 250 rows.
    fn file(rows: usize, group: usize) -> (ParquetFile, Vec<u8>) {
        let schema = parse_message_type("message m { required binary puzzle (UTF8); }").unwrap();
        let properties = WriterProperties::builder()
            .set_data_page_row_count_limit(250)
            .set_write_batch_size(50)
            .set_dictionary_enabled(false)
            .build();
        let mut bytes = Vec::new();
        let mut writer =
            SerializedFileWriter::new(&mut bytes, Arc::new(schema), Arc::new(properties)).unwrap();
        let mut text = Vec::new();
        for start in (0..rows).step_by(group) {
            let values: Vec<ByteArray> = (start..rows.min(start + group))
                .map(|i| ByteArray::from(format!("{i:081}").as_str()))
                .collect();
            for v in &values {
                text.extend_from_slice(v.data());
                text.push(b'\n');
            }
            let mut row_group = writer.next_row_group().unwrap();
            let mut column = row_group.next_column().unwrap().unwrap();
            column
                .typed::<ByteArrayType>()
                .write_batch(&values, None, None)
                .unwrap();
            column.close().unwrap();
            row_group.close().unwrap();
        }
        writer.close().unwrap();
        let file = open_from(Bytes::from(bytes), &ColumnChoice::Auto).unwrap();
        (file, text)
    }

    /// The lines of `pieces`, decoded one by one, checking each one's first row.
    fn decoded(file: &ParquetFile, pieces: &[Piece]) -> Vec<u8> {
        let mut scratch = Scratch::default();
        let mut all = Vec::new();
        for piece in pieces {
            let mut next = piece.first_row;
            file.decode(piece, usize::MAX, &mut scratch, |segment| {
                let Segment::Lines { bytes, first_row } = segment else {
                    panic!("no row is too long")
                };
                assert_eq!(first_row, next);
                next += bytes.iter().filter(|&&b| b == b'\n').count() as u64;
                all.extend_from_slice(bytes);
            })
            .unwrap();
            assert_eq!(next, piece.first_row + piece.rows as u64);
        }
        all
    }

    #[test]
    fn a_row_group_is_cut_at_page_boundaries_and_its_pieces_give_its_rows() {
        let (file, text) = file(30_000, 20_000);
        let pieces = file.pieces(None, DEFAULT_MAX_RECORD).unwrap();
        // 20,000 rows in pages of 250: two pieces of 8,250 and the rest; then 10,000.
        let rows: Vec<(usize, u64)> = pieces.iter().map(|p| (p.rows, p.first_row)).collect();
        assert_eq!(
            rows,
            [
                (8250, 1),
                (8250, 8251),
                (3500, 16501),
                (8250, 20001),
                (1750, 28251)
            ]
        );
        assert_eq!(decoded(&file, &pieces), text);
    }

    #[test]
    fn shards_take_whole_row_groups_in_order() {
        let (file, text) = file(5_000, 1_000);
        let mut joined = Vec::new();
        for index in 1..=3 {
            let pieces = file.pieces(Some((index, 3)), DEFAULT_MAX_RECORD).unwrap();
            let groups: Vec<usize> = pieces.iter().map(|p| p.group).collect();
            let want: Vec<usize> = (5 * (index as usize - 1) / 3..5 * index as usize / 3).collect();
            assert_eq!(groups, want, "shard {index}");
            joined.extend(decoded(&file, &pieces));
        }
        assert_eq!(joined, text);
    }

    #[test]
    fn a_value_over_the_limit_comes_alone_and_cut_short() {
        let (file, _) = file(600, 600);
        let pieces = file.pieces(None, DEFAULT_MAX_RECORD).unwrap();
        let mut seen = Vec::new();
        file.decode(&pieces[0], 80, &mut Scratch::default(), |segment| {
            if let Segment::TooLong { echo, row, length } = segment {
                seen.push((echo.len(), row, length));
            }
        })
        .unwrap();
        assert_eq!(seen.len(), 600);
        assert_eq!(seen[0], (81, 1, 81));
        assert_eq!(seen[599].1, 600);
    }
}
