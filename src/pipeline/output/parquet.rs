//! Rows as a Parquet file: the contract's CSV rows, as the ordered writer writes them,
//! read back field by field and written as typed columns, a row group at a time.
//!
//! The header names the columns. Of the first `typed` (the run's own columns), `line`,
//! `record`, `givens`, `minimal_givens` and `automorphisms` are unsigned 64-bit integers,
//! `rating` a double and `mismatch` a boolean; every other column, and every input field carried after them
//! (`--keep-columns`), is UTF-8 text. An empty field is null, as pandas reads the CSV.
//! Text columns are dictionary-encoded where that is smaller (`status`, `difficulty`),
//! except the grid columns, and pages are compressed with zstd (level 1).
//!
//! Memory is bounded whatever the number of columns: rows are parsed as they come and a
//! row group is written every [`GROUP_ROWS`] rows, or sooner at [`GROUP_BYTES`] of text
//! or [`GROUP_CELLS`] fields (about 10 bytes each held), so only one group is held.

use std::io::{self, Write};
use std::sync::Arc;

use super::csv_records::{CsvRecords, Fields};
use parquet::basic::{Compression, IntType, LogicalType, Repetition, Type as Physical, ZstdLevel};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;
use parquet::schema::types::Type;

/// A Parquet writer's error as the I/O error it wraps where it wraps one (a closed pipe
/// stays a closed pipe, which ends a run quietly), else as an I/O error of its own.
fn parquet_io(e: parquet::errors::ParquetError) -> io::Error {
    match e {
        parquet::errors::ParquetError::External(inner) => match inner.downcast::<io::Error>() {
            Ok(io) => *io,
            Err(other) => io::Error::other(other),
        },
        other => io::Error::other(other),
    }
}

/// Rows per row group.
pub const GROUP_ROWS: usize = 1 << 17;
/// Text bytes (all columns) after which a row group is written early.
pub const GROUP_BYTES: usize = 32 << 20;
/// Fields (rows times columns) after which a row group is written early.
pub const GROUP_CELLS: usize = 1 << 24;

/// Columns typed as unsigned integers, by name.
pub(super) const UNSIGNED: &[&str] = &[
    "line",
    "record",
    "duplicate_of",
    "train_line",
    "test_duplicate_of",
    "records",
    "threads",
    "rounds",
    "givens",
    "minimal_givens",
    "automorphisms",
];
/// Columns of grids, written without a dictionary.
const GRIDS: &[&str] = &["puzzle", "solution", "canonical", "minimal"];
/// Columns typed as booleans, by name.
pub(super) const BOOLEAN: &[&str] = &["mismatch"];
/// Columns typed as doubles, by name.
pub(super) const DOUBLE: &[&str] = &[
    "rating",
    "pearl",
    "diamond",
    "puzzles_per_sec",
    "puzzles_per_sec_mean",
    "puzzles_per_sec_stddev",
    "puzzles_per_sec_min",
    "puzzles_per_sec_max",
    "speedup",
    "efficiency",
    "latency_us_p50",
    "latency_us_p90",
    "latency_us_p99",
    "latency_us_p999",
    "latency_us_max",
    "guesses_per_puzzle",
    "no_guess_percent",
];

/// What a column holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ColumnKind {
    Unsigned,
    Double,
    Boolean,
    Text,
}

/// One column, with the row group's values of a typed one (a text column's are held
/// by [`TextCells`]).
struct ColumnValues {
    name: String,
    kind: ColumnKind,
    /// 1 for a value, 0 for null, a row each.
    defs: Vec<i16>,
    numbers: Vec<i64>,
    doubles: Vec<f64>,
    booleans: Vec<bool>,
}

/// The row group's text fields, all columns, row by row in one buffer (thousands of
/// kept columns make no thousands of buffers, nor their spare room).
#[derive(Default)]
struct TextCells {
    /// The fields back to back.
    text: Vec<u8>,
    /// Where each field ends (a null one, empty, ends where the one before does).
    ends: Vec<u32>,
    /// Text columns a row.
    columns: usize,
}

enum State<W: Write + Send> {
    /// Before the header: the writer to be.
    Header(W),
    /// Writing row groups.
    Body(Box<SerializedFileWriter<W>>),
    /// Footer written; the writer, for the caller to commit.
    Done(W),
    /// A failure left nothing usable.
    Failed,
}

/// A [`Write`] that takes CSV rows (a header first) and writes a Parquet file into `W`.
pub struct ParquetRows<W: Write + Send> {
    /// The rows written, read back.
    csv: CsvRecords,
    table: Table<W>,
}

/// The Parquet file being written.
struct Table<W: Write + Send> {
    state: State<W>,
    /// How many leading columns are typed by name.
    typed: usize,
    columns: Vec<ColumnValues>,
    cells: TextCells,
    /// A text column's values as slices of the cells, and its definition levels, as it
    /// is written.
    values: Vec<ByteArray>,
    text_defs: Vec<i16>,
    rows: usize,
    /// Rows per row group.
    group_rows: usize,
    /// Rows read so far, to name a bad one (the header is row 0).
    read: u64,
}

impl<W: Write + Send> ParquetRows<W> {
    /// Parquet rows into `sink`, the first `typed` columns typed by name.
    pub fn new(sink: W, typed: usize) -> Self {
        ParquetRows {
            csv: CsvRecords::default(),
            table: Table {
                state: State::Header(sink),
                typed,
                columns: Vec::new(),
                cells: TextCells::default(),
                values: Vec::new(),
                text_defs: Vec::new(),
                rows: 0,
                group_rows: GROUP_ROWS,
                read: 0,
            },
        }
    }

    /// The same with `rows` rows per row group (at least 1).
    pub fn with_group_rows(mut self, rows: usize) -> Self {
        self.table.group_rows = rows.max(1);
        self
    }

    /// The writer once [`ParquetRows::finish`] has written the footer.
    pub fn inner_mut(&mut self) -> Option<&mut W> {
        match &mut self.table.state {
            State::Done(w) => Some(w),
            _ => None,
        }
    }

    /// Reads what was written, writes the last row group and the footer.
    pub fn finish(&mut self) -> io::Result<()> {
        self.read_records(true)?;
        self.table.finish()
    }

    /// Takes every whole record written (and, at the end, the last one).
    fn read_records(&mut self, at_end: bool) -> io::Result<()> {
        while let Some(fields) = self.csv.next_record(at_end)? {
            self.table.take_record(fields)?;
        }
        Ok(())
    }
}

impl<W: Write + Send> Table<W> {
    /// Writes the last row group and the footer.
    fn finish(&mut self) -> io::Result<()> {
        if let State::Header(_) = self.state {
            // No header came (nothing was written): a file without columns.
            self.start(&[])?;
        }
        if self.rows > 0 {
            self.write_group()?;
        }
        match std::mem::replace(&mut self.state, State::Failed) {
            State::Body(writer) => {
                let inner = writer.into_inner().map_err(parquet_io)?;
                self.state = State::Done(inner);
                Ok(())
            }
            other => {
                self.state = other;
                Ok(())
            }
        }
    }

    /// Takes the record just read: the header, or a row into the columns.
    fn take_record(&mut self, record: Fields<'_>) -> io::Result<()> {
        let fields = record.len();
        let field = |i: usize| record.get(i);
        if let State::Header(_) = self.state {
            let names: Vec<String> = (0..fields)
                .map(|i| String::from_utf8_lossy(field(i)).into_owned())
                .collect();
            self.start(&names)?;
        } else {
            self.read += 1;
            if fields != self.columns.len() {
                return Err(io::Error::other(format!(
                    "row {} has {fields} fields, the header {}",
                    self.read,
                    self.columns.len()
                )));
            }
            for (i, column) in self.columns.iter_mut().enumerate() {
                let value = field(i);
                let pushed = match column.kind {
                    ColumnKind::Text => self.cells.push(value),
                    _ => column.push(value),
                };
                pushed.map_err(|what| {
                    io::Error::other(format!(
                        "row {}: column {}: {what}: {:?}",
                        self.read,
                        column.name,
                        String::from_utf8_lossy(value)
                    ))
                })?;
            }
            self.rows += 1;
            if self.rows == self.group_rows
                || self.cells.text.len() >= GROUP_BYTES
                || self.rows * self.columns.len() >= GROUP_CELLS
            {
                self.write_group()?;
            }
        }
        Ok(())
    }

    /// Makes the schema from the header's names and starts the file.
    fn start(&mut self, names: &[String]) -> io::Result<()> {
        self.columns = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let kind = match name.as_str() {
                    n if i < self.typed && UNSIGNED.contains(&n) => ColumnKind::Unsigned,
                    n if i < self.typed && DOUBLE.contains(&n) => ColumnKind::Double,
                    n if i < self.typed && BOOLEAN.contains(&n) => ColumnKind::Boolean,
                    _ => ColumnKind::Text,
                };
                ColumnValues::new(name, kind)
            })
            .collect();
        self.cells.columns = self
            .columns
            .iter()
            .filter(|c| c.kind == ColumnKind::Text)
            .count();
        let fields = self
            .columns
            .iter()
            .map(|c| c.schema().map(Arc::new))
            .collect::<Result<Vec<_>, _>>()
            .map_err(parquet_io)?;
        let schema = Type::group_type_builder("rows")
            .with_fields(fields)
            .build()
            .map_err(parquet_io)?;
        let mut properties = WriterProperties::builder()
            .set_compression(Compression::ZSTD(
                ZstdLevel::try_new(1).map_err(parquet_io)?,
            ))
            .set_created_by(format!("sudoku-batch {}", env!("CARGO_PKG_VERSION")))
            // Statistics a column chunk, no page indexes: the footer's metadata is held
            // until the end, and pages' would grow with the rows.
            .set_statistics_enabled(EnabledStatistics::Chunk)
            .set_offset_index_disabled(true);
        // Grids are nearly all distinct: a dictionary would be built and dropped. The
        // input's fields carried after ours get no statistics: with thousands of
        // columns, the footer's statistics held until the end would be most of the
        // memory.
        for (i, column) in self.columns.iter().enumerate() {
            let path = || ColumnPath::from(column.name.as_str());
            if GRIDS.contains(&column.name.as_str()) {
                properties = properties.set_column_dictionary_enabled(path(), false);
            }
            if i >= self.typed {
                properties =
                    properties.set_column_statistics_enabled(path(), EnabledStatistics::None);
            }
        }
        let properties = properties.build();
        let State::Header(sink) = std::mem::replace(&mut self.state, State::Failed) else {
            unreachable!("the header comes once");
        };
        let writer = SerializedFileWriter::new(sink, Arc::new(schema), Arc::new(properties))
            .map_err(parquet_io)?;
        self.state = State::Body(Box::new(writer));
        Ok(())
    }

    /// Writes the rows in hand as one row group.
    fn write_group(&mut self) -> io::Result<()> {
        let State::Body(writer) = &mut self.state else {
            return Ok(());
        };
        let mut group = writer.next_row_group().map_err(parquet_io)?;
        let all = ByteArray::from(std::mem::take(&mut self.cells.text));
        let mut text_column = 0;
        for column in &mut self.columns {
            let Some(mut out) = group.next_column().map_err(parquet_io)? else {
                break;
            };
            let defs = if column.kind == ColumnKind::Text {
                self.cells
                    .column(&all, text_column, &mut self.values, &mut self.text_defs);
                text_column += 1;
                Some(&self.text_defs[..])
            } else {
                Some(&column.defs[..])
            };
            match column.kind {
                ColumnKind::Unsigned => {
                    out.typed::<Int64Type>()
                        .write_batch(&column.numbers, defs, None)
                }
                ColumnKind::Double => {
                    out.typed::<DoubleType>()
                        .write_batch(&column.doubles, defs, None)
                }
                ColumnKind::Boolean => {
                    out.typed::<BoolType>()
                        .write_batch(&column.booleans, defs, None)
                }
                ColumnKind::Text => {
                    out.typed::<ByteArrayType>()
                        .write_batch(&self.values, defs, None)
                }
            }
            .map_err(parquet_io)?;
            out.close().map_err(parquet_io)?;
            column.clear();
            self.values.clear();
        }
        group.close().map_err(parquet_io)?;
        self.cells.ends.clear();
        self.rows = 0;
        Ok(())
    }
}

impl<W: Write + Send> Write for ParquetRows<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.csv.feed(buf);
        self.read_records(false)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        // Rows are written a group at a time; the footer by `finish`.
        Ok(())
    }
}

impl ColumnValues {
    fn new(name: &str, kind: ColumnKind) -> ColumnValues {
        ColumnValues {
            name: name.to_string(),
            kind,
            defs: Vec::new(),
            numbers: Vec::new(),
            doubles: Vec::new(),
            booleans: Vec::new(),
        }
    }

    fn schema(&self) -> parquet::errors::Result<Type> {
        let (physical, logical) = match self.kind {
            ColumnKind::Unsigned => (
                Physical::INT64,
                Some(LogicalType::Integer(IntType {
                    bit_width: 64,
                    is_signed: false,
                })),
            ),
            ColumnKind::Double => (Physical::DOUBLE, None),
            ColumnKind::Boolean => (Physical::BOOLEAN, None),
            ColumnKind::Text => (Physical::BYTE_ARRAY, Some(LogicalType::String)),
        };
        Type::primitive_type_builder(&self.name, physical)
            .with_repetition(Repetition::OPTIONAL)
            .with_logical_type(logical)
            .build()
    }

    /// Adds one row's field: null when empty.
    fn push(&mut self, value: &[u8]) -> Result<(), &'static str> {
        if value.is_empty() {
            self.defs.push(0);
            return Ok(());
        }
        match self.kind {
            ColumnKind::Unsigned => {
                let text = std::str::from_utf8(value).map_err(|_| "not a number")?;
                let n: u64 = text.parse().map_err(|_| "not an unsigned integer")?;
                // Parquet keeps UINT_64 in INT64's bits.
                self.numbers.push(n as i64);
            }
            ColumnKind::Double => {
                let text = std::str::from_utf8(value).map_err(|_| "not a number")?;
                self.doubles
                    .push(text.parse().map_err(|_| "not a decimal number")?);
            }
            ColumnKind::Boolean => self.booleans.push(match value {
                b"true" => true,
                b"false" => false,
                _ => return Err("not true or false"),
            }),
            ColumnKind::Text => return Err("a text column's values are cells"),
        }
        self.defs.push(1);
        Ok(())
    }

    fn clear(&mut self) {
        self.defs.clear();
        self.numbers.clear();
        self.doubles.clear();
        self.booleans.clear();
    }
}

impl TextCells {
    /// Adds a row's next text field (UTF-8, or refused).
    fn push(&mut self, value: &[u8]) -> Result<(), &'static str> {
        std::str::from_utf8(value).map_err(|_| "not UTF-8")?;
        self.text.extend_from_slice(value);
        // A group holds GROUP_BYTES of text and one row more.
        let end = u32::try_from(self.text.len()).map_err(|_| "over 4 GiB of text")?;
        self.ends.push(end);
        Ok(())
    }

    /// Text column `index`'s values as slices of `all` (the cells' text, no copy per
    /// value) into `values`, and their definition levels into `defs` (an empty value is
    /// null).
    fn column(
        &self,
        all: &ByteArray,
        index: usize,
        values: &mut Vec<ByteArray>,
        defs: &mut Vec<i16>,
    ) {
        values.clear();
        defs.clear();
        for at in (index..self.ends.len()).step_by(self.columns.max(1)) {
            let start = if at == 0 {
                0
            } else {
                self.ends[at - 1] as usize
            };
            let end = self.ends[at] as usize;
            defs.push(i16::from(end > start));
            if end > start {
                values.push(all.slice(start, end - start));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    use parquet::record::Field;

    /// Writes `csv` into a Parquet file `write` bytes at a time, and reads it back.
    fn round_trip(
        csv: &[u8],
        typed: usize,
        write: usize,
        group: usize,
    ) -> (Vec<Vec<Field>>, usize) {
        let path = std::env::temp_dir().join(format!(
            "sudoku-batch-parquet-{}-{write}-{group}.parquet",
            std::process::id()
        ));
        let file = std::fs::File::create(&path).unwrap();
        let mut rows = ParquetRows::new(file, typed).with_group_rows(group);
        for piece in csv.chunks(write) {
            rows.write_all(piece).unwrap();
        }
        rows.finish().unwrap();
        let reader = SerializedFileReader::new(std::fs::File::open(&path).unwrap()).unwrap();
        let groups = reader.metadata().num_row_groups();
        let read = reader
            .get_row_iter(None)
            .unwrap()
            .map(|row| {
                row.unwrap()
                    .get_column_iter()
                    .map(|(_, f)| f.clone())
                    .collect()
            })
            .collect();
        std::fs::remove_file(&path).unwrap();
        (read, groups)
    }

    const CSV: &[u8] = b"line,puzzle,status,reason,rating,record,extra\n\
        2,1..,unique,,2.5,0,\"a,b\"\n\
        3,x,invalid,\"bad byte, \"\"x\"\"\",,1,\"two\nlines\"\n\
        4,..1,unique,,10,2,\n";

    #[test]
    fn rows_come_back_typed_whatever_the_writes_and_groups() {
        for (write, group) in [(1, 1), (3, 2), (CSV.len(), GROUP_ROWS)] {
            let (rows, groups) = round_trip(CSV, 6, write, group);
            assert_eq!(groups, 3usize.div_ceil(group), "{write} {group}");
            assert_eq!(rows.len(), 3);
            assert_eq!(rows[0][0], Field::ULong(2));
            assert_eq!(rows[0][1], Field::Str("1..".into()));
            assert_eq!(rows[0][3], Field::Null);
            assert_eq!(rows[0][4], Field::Double(2.5));
            assert_eq!(rows[0][6], Field::Str("a,b".into()));
            assert_eq!(rows[1][3], Field::Str("bad byte, \"x\"".into()));
            assert_eq!(rows[1][4], Field::Null);
            assert_eq!(rows[1][5], Field::ULong(1));
            assert_eq!(rows[1][6], Field::Str("two\nlines".into()));
            assert_eq!(rows[2][6], Field::Null);
        }
    }

    #[test]
    fn a_last_row_without_a_line_end_is_read() {
        let (rows, _) = round_trip(b"line,puzzle\n2,1..\n3,..1", 2, 4, 10);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1][1], Field::Str("..1".into()));
    }

    #[test]
    fn columns_past_the_typed_ones_are_text() {
        // `rating` as the seventh column, a kept input field: text, even if numeric.
        let csv = b"line,puzzle,solution,status,reason,mismatch,rating\n2,1,,unique,,,high\n";
        let (rows, _) = round_trip(csv, 6, 7, 10);
        assert_eq!(rows[0][6], Field::Str("high".into()));
        let path =
            std::env::temp_dir().join(format!("sudoku-batch-bad-{}.parquet", std::process::id()));
        let mut rows = ParquetRows::new(std::fs::File::create(&path).unwrap(), 7);
        let err = rows.write_all(csv).unwrap_err().to_string();
        std::fs::remove_file(&path).unwrap();
        assert!(
            err.contains("row 1: column rating: not a decimal number"),
            "{err}"
        );
    }

    #[test]
    fn a_row_of_the_wrong_width_is_an_error() {
        let path =
            std::env::temp_dir().join(format!("sudoku-batch-width-{}.parquet", std::process::id()));
        let mut rows = ParquetRows::new(std::fs::File::create(&path).unwrap(), 2);
        let err = rows
            .write_all(b"line,puzzle\n2,1,3\n")
            .unwrap_err()
            .to_string();
        std::fs::remove_file(&path).unwrap();
        assert!(err.contains("row 1 has 3 fields, the header 2"), "{err}");
    }
}
