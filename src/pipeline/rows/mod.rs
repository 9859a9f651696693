//! Row writers: one output row per record, in the format the user chose.
//!
//! A row writer turns a [`Row`] (plain data: the record's line, the puzzle as read, the
//! job's answer) into bytes appended to a chunk's buffer. It never solves and never
//! allocates per row. Each format lives in its own file; CSV is the default and the
//! contract (`line,puzzle,solution,status,reason,mismatch`, then the job's own columns).

mod csv;
mod grid;
mod lines;
mod ndjson;

pub(crate) use csv::quote_tail;
pub use grid::band_line;
pub(crate) use ndjson::string as json_string;

use std::fmt;

use crate::jobs::Columns;
use crate::pipeline::input::{Fields, Format, Layout, RecordError};
use crate::reports::StatusSet;
use crate::values::board::{Board, BoardError, Symbols};
use crate::values::geometry::{GeometryError, UnitKind, MAX_CELLS};
use crate::values::grid::{Clash, Grid};
use crate::values::puzzle::Shape;
use crate::values::status::Status;

/// The columns every job writes, in order, before its own.
pub const COLUMNS: &[&str] = &["line", "puzzle", "solution", "status", "reason", "mismatch"];

/// Output formats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputFormat {
    /// CSV with a header row: the contract.
    #[default]
    Csv,
    /// `puzzle solution` per line, no header (`generate --format lines`).
    Pairs,
    /// `puzzle solution status` (then the job's values) per line, no header.
    Lines,
    /// Printed grids, puzzle and solution side by side, under a header line.
    Grid,
    /// One JSON object per line with the CSV's fields.
    Ndjson,
    /// The CSV's header and rows with tabs for commas (a field holding a tab, a quote
    /// or a line end quoted as in CSV).
    Tsv,
}

impl OutputFormat {
    /// The field separator of the formats with a header: `,` or a tab.
    fn separator(self) -> u8 {
        match self {
            OutputFormat::Tsv => b'\t',
            _ => b',',
        }
    }
}

/// Why a record is `invalid`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The record is not a well-formed puzzle.
    Record(RecordError),
    /// Two givens clash.
    Clash(Clash),
    /// The record is not a board of the size, symbols or rules asked for (variants).
    Board(BoardError),
    /// The rules asked for do not exist at the record's size.
    Geometry(GeometryError),
    /// Two givens of a variant board clash: the symbol and the unit.
    BoardClash {
        /// The repeated symbol, as written.
        symbol: u8,
        /// The kind of unit.
        kind: UnitKind,
        /// Its 1-based number among units of its kind.
        number: u8,
    },
    /// The command (or its engine) does not take puzzles of this shape.
    Refused(Shape),
    /// The search spent its budget of this many branches (`undecided`).
    Budget(u64),
    /// The record's own text does not fit a typed (Parquet) output.
    Unfit(Unfit),
}

/// What of a record's own text a typed (Parquet) output cannot carry: its text columns
/// hold UTF-8, and a row is as wide as the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unfit {
    /// Kept field `field` (from 1) is not UTF-8.
    NotUtf8 {
        /// Which field.
        field: u32,
    },
    /// The record has `fields` fields, past the header's `header`.
    TooWide {
        /// The record's fields.
        fields: u32,
        /// The header's.
        header: u32,
    },
    /// The puzzle as read (`--puzzle-as-read`) is not UTF-8.
    PuzzleNotUtf8,
}

impl Reason {
    /// The reason as text; `csv_column` names the input's puzzle column when the input
    /// is CSV, so that positions read as `puzzle: bad byte 'x' at column 3`.
    pub fn describe<'a>(&'a self, csv_column: Option<&'a str>) -> impl fmt::Display + 'a {
        Described {
            reason: self,
            csv_column,
        }
    }
}

struct Described<'a> {
    reason: &'a Reason,
    csv_column: Option<&'a str>,
}

impl fmt::Display for Described<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.reason, self.csv_column) {
            (Reason::Clash(c), _) => write!(f, "{c}"),
            (Reason::Board(e), Some(column)) => write!(f, "{column}: {e}"),
            (Reason::Board(e), None) => write!(f, "{e}"),
            (Reason::Geometry(e), _) => write!(f, "{e}"),
            (
                Reason::BoardClash {
                    symbol,
                    kind,
                    number,
                },
                _,
            ) => {
                write!(f, "{} given twice in ", *symbol as char)?;
                match kind {
                    UnitKind::Row => write!(f, "row {number}"),
                    UnitKind::Column => write!(f, "column {number}"),
                    UnitKind::Box => write!(f, "box {number}"),
                    UnitKind::Diagonal => f.write_str("the main diagonal"),
                    UnitKind::AntiDiagonal => f.write_str("the anti-diagonal"),
                    UnitKind::Window => write!(f, "window {number}"),
                }
            }
            (Reason::Budget(n), _) => write!(f, "search budget of {n} branches spent"),
            (Reason::Unfit(Unfit::NotUtf8 { field }), _) => write!(
                f,
                "field {field} is not UTF-8, which a Parquet text column holds (kept with \
                 U+FFFD for the bad bytes)"
            ),
            (Reason::Unfit(Unfit::TooWide { fields, header }), _) => write!(
                f,
                "row has {fields} fields, the header {header}: a Parquet row holds no more \
                 (fields past {header} left out)"
            ),
            (Reason::Unfit(Unfit::PuzzleNotUtf8), _) => {
                f.write_str("the puzzle as read is not UTF-8, which a Parquet text column holds")
            }
            (Reason::Refused(Shape::Board), _) => {
                f.write_str("only solve, classify and grade take boards other than classic 9x9")
            }
            (Reason::Refused(Shape::Marks), _) => {
                f.write_str("pencil-mark records are read by solve and classify only")
            }
            (Reason::Refused(Shape::Grid), _) => {
                f.write_str("the command does not take classic 9x9 puzzles")
            }
            (Reason::Record(RecordError::Parse(e)), Some(column)) => write!(f, "{column}: {e}"),
            (Reason::Record(RecordError::Parse(e)), None) => write!(f, "{e}"),
            (Reason::Record(RecordError::NoGrid), _) => f.write_str("no puzzle on the line"),
            (Reason::Record(RecordError::Block(e)), _) => write!(f, "{e}"),
            (Reason::Record(RecordError::Marks(e)), _) => write!(f, "{e}"),
            (Reason::Record(RecordError::TooLong { bytes, limit }), _) => write!(
                f,
                "record of {bytes} bytes, over the limit of {limit} (--max-record-bytes)"
            ),
            (Reason::Record(RecordError::NoValue { null: true }), _) => {
                f.write_str("null value: no puzzle")
            }
            (Reason::Record(RecordError::NoValue { null: false }), _) => {
                f.write_str("empty value: no puzzle")
            }
            (Reason::Record(RecordError::MissingField(n)), column) => write!(
                f,
                "row has {n} fields, no {} column",
                column.unwrap_or("puzzle")
            ),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.describe(None).fmt(f)
    }
}

/// Everything written for one record.
#[derive(Clone, Copy, Debug)]
pub struct Row<'a, E> {
    /// 1-based line number of the record in its input.
    pub line: u64,
    /// The puzzle as read.
    pub puzzle: Cells<'a>,
    /// A solution, when there is one.
    pub solution: Option<Cells<'a>>,
    /// The status.
    pub status: Status,
    /// Why the record is `invalid`.
    pub reason: Option<Reason>,
    /// Whether the input's own solution is not the puzzle's; `None` when the input gave
    /// none (or there is no puzzle to hold it against).
    pub mismatch: Option<bool>,
    /// The job's own columns.
    pub extra: &'a E,
    /// The input's own fields, written after ours with `--keep-columns`.
    pub fields: Fields<'a>,
}

/// A puzzle's or solution's cells, as a row writes them.
#[derive(Clone, Copy, Debug)]
pub enum Cells<'a> {
    /// A classic 9x9 grid, written as 81 characters with `.` for empty cells.
    Grid(&'a Grid),
    /// A variant board's text in its alphabet (`.` for empty cells).
    Board {
        /// The text, a symbol a cell.
        text: &'a [u8],
        /// Symbols per unit (4, 9, 16 or 25).
        side: usize,
    },
    /// A pencil-mark record: its marks as read (written in full), and the grid of its
    /// cells with a single candidate (drawn by printed grids).
    Marks {
        /// The 729 marks.
        text: &'a [u8],
        /// The cells with one candidate.
        singles: &'a Grid,
    },
    /// A malformed record's text as read (shortened and made safe by each format).
    Raw(&'a [u8]),
    /// A puzzle's text exactly as read (`--puzzle-as-read`), quoted or escaped as the
    /// format needs but never shortened.
    AsRead(&'a [u8]),
}

/// Text buffers for a board row's puzzle and solution.
pub type BoardTexts = ([u8; MAX_CELLS], [u8; MAX_CELLS]);

impl<'a> Cells<'a> {
    /// The cells of variant board `puzzle` and of its `solution`, written in `symbols`
    /// into `texts`.
    pub fn board(
        puzzle: &Board,
        solution: Option<&Board>,
        symbols: &Symbols,
        texts: &'a mut BoardTexts,
    ) -> (Cells<'a>, Option<Cells<'a>>) {
        let side = puzzle.side();
        let (puzzle_text, solution_text) = (&mut texts.0, &mut texts.1);
        (
            Cells::Board {
                text: puzzle.write(symbols, puzzle_text),
                side,
            },
            solution.map(|s| Cells::Board {
                text: s.write(symbols, solution_text),
                side,
            }),
        )
    }
}

/// The name of the column that numbers records from 0 (`--record-index`).
pub const RECORD_COLUMN: &str = "record";

/// One row of a chunk as the writer of the whole output needs to know it: where its
/// record number goes (the writer adds the records before the chunk, which a worker
/// cannot know, and writes it there), where the row ends and what it was rated (for
/// `--top`, which keeps whole rows by rating).
///
/// A chunk's slots travel after its rows in the same buffer, [`Slot::BYTES`] each (see
/// [`Slot::append`]), so that numbering records costs no buffer of its own. Slots are
/// made only when a run needs them ([`RowWriter::needs_slots`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Byte offset in the chunk's rows where the record number goes.
    pub at: u64,
    /// The record's 0-based index among the chunk's records.
    pub record: u64,
    /// Byte offset in the chunk's rows where the row ends.
    pub end: u64,
    /// The row's rating in tenths (0 for a row without one).
    pub rating: u64,
}

impl Slot {
    /// Bytes a slot takes after the rows.
    pub const BYTES: usize = 32;

    /// Appends `slots` after the rows in `out`.
    pub fn append(slots: &[Slot], out: &mut Vec<u8>) {
        for slot in slots {
            for value in [slot.at, slot.record, slot.end, slot.rating] {
                out.extend_from_slice(&value.to_le_bytes());
            }
        }
    }

    /// The rows of a buffer that ends with `count` slots, and the slots.
    pub fn split(buffer: &[u8], count: usize) -> (&[u8], impl Iterator<Item = Slot> + '_) {
        let (rows, slots) = buffer.split_at(buffer.len() - count * Slot::BYTES);
        let word = |s: &[u8], i: usize| {
            u64::from_le_bytes(s[8 * i..8 * i + 8].try_into().unwrap_or_default())
        };
        let slots = slots.chunks_exact(Slot::BYTES).map(move |s| Slot {
            at: word(s, 0),
            record: word(s, 1),
            end: word(s, 2),
            rating: word(s, 3),
        });
        (rows, slots)
    }
}

/// Writes rows of one run in one format.
#[derive(Clone, Debug)]
pub struct RowWriter {
    format: OutputFormat,
    /// The input's puzzle column name when the input is CSV (used in reasons).
    csv_column: Option<String>,
    /// Statuses whose rows are written (`--only`); every status by default.
    only: StatusSet,
    /// `--keep-columns`: the names the input's fields are written under, after ours.
    kept: Option<Vec<String>>,
    /// `--record-index`: a `record` column after the job's (see [`Slot`]).
    numbered: bool,
    /// `--puzzle-as-read`: the puzzle column holds the text as read.
    as_read: bool,
    /// The rows become typed columns (Parquet): text UTF-8, rows as wide as the header.
    typed: bool,
    /// `--no-solution`: no solution is written (for printing puzzles).
    hide_solutions: bool,
    /// `--min-rating`, `--max-rating`, `--difficulty`: rows of graded records within.
    rated: Option<RatingFilter>,
}

/// Which graded rows are written: a rating from `min` to `max` (tenths, both kept) and,
/// when given, a level among `levels`; of those, with `top`, only the `top` highest
/// rated (ties to the earlier record), still in input order. Rows without a rating are
/// left out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RatingFilter {
    /// The least rating kept, in tenths.
    pub min: u16,
    /// The greatest rating kept, in tenths.
    pub max: u16,
    /// The levels kept (`None`: every level).
    pub levels: Option<crate::engines::grader::Levels>,
    /// Keep only this many rows, the highest rated (`--top`).
    pub top: Option<std::num::NonZeroU64>,
}

impl RatingFilter {
    /// True when a row rated `rated` (tenths and level) is kept.
    #[inline]
    pub fn keeps(&self, rated: Option<(u16, crate::values::level::Level)>) -> bool {
        rated.is_some_and(|(tenths, level)| {
            (self.min..=self.max).contains(&tenths)
                && self.levels.is_none_or(|levels| levels.contains(level))
        })
    }
}

/// The names the input's fields are written under with `--keep-columns`: the header's,
/// `input_1`.. without one, `input` for a whole line; a name that one of `ours`
/// already has (compared without case) gets `input_` in front.
pub fn kept_names(layout: &Layout, ours: &[&str]) -> Vec<String> {
    let names: Vec<String> = match layout.format {
        Format::Csv if !layout.header_names.is_empty() => layout.header_names.clone(),
        Format::Csv => (1..=layout.field_count)
            .map(|i| format!("input_{i}"))
            .collect(),
        Format::Lines | Format::Blocks => vec!["input".to_string()],
    };
    let taken = |name: &str| {
        COLUMNS
            .iter()
            .chain(ours)
            .chain(&[RECORD_COLUMN])
            .any(|c| c.eq_ignore_ascii_case(name))
    };
    names
        .into_iter()
        .map(|n| if taken(&n) { format!("input_{n}") } else { n })
        .collect()
}

impl RowWriter {
    /// A writer for rows read with `layout` (`None` for records that come from no file).
    pub fn new(format: OutputFormat, layout: Option<&Layout>) -> RowWriter {
        RowWriter {
            format,
            csv_column: layout
                .filter(|l| l.format == Format::Csv)
                .map(|l| l.puzzle_name.clone()),
            only: StatusSet::ALL,
            kept: None,
            numbered: false,
            as_read: false,
            typed: false,
            hide_solutions: false,
            rated: None,
        }
    }

    /// True when rows of `format` can carry the input's fields, a record number and
    /// the puzzle as read: CSV and NDJSON.
    pub fn carries_input_fields(format: OutputFormat) -> bool {
        matches!(
            format,
            OutputFormat::Csv | OutputFormat::Tsv | OutputFormat::Ndjson
        )
    }

    /// The same writer, writing the input's fields after ours under `names` (see
    /// [`kept_names`]).
    pub fn keeping(self, names: Vec<String>) -> RowWriter {
        RowWriter {
            kept: Some(names),
            ..self
        }
    }

    /// The same writer, with a `record` column numbering the input's records from 0.
    pub fn numbered(self) -> RowWriter {
        RowWriter {
            numbered: true,
            ..self
        }
    }

    /// The same writer, writing only the rows of graded records that `filter` keeps.
    pub fn rated(self, filter: RatingFilter) -> RowWriter {
        RowWriter {
            rated: Some(filter),
            ..self
        }
    }

    /// The same writer, writing no solution: the `solution` field empty, grids and
    /// lines with the puzzle alone (`--no-solution`).
    pub fn without_solutions(self) -> RowWriter {
        RowWriter {
            hide_solutions: true,
            ..self
        }
    }

    /// The same writer, with puzzles written exactly as read.
    pub fn as_read(self) -> RowWriter {
        RowWriter {
            as_read: true,
            ..self
        }
    }

    /// The same writer, for rows that become typed columns (a Parquet output): see
    /// [`RowWriter::unfit`].
    pub fn typed(self) -> RowWriter {
        RowWriter {
            typed: true,
            ..self
        }
    }

    /// For rows that become typed columns: why the record's own text (kept fields, the
    /// puzzle as read) cannot be carried, which makes the record `invalid`; its row then
    /// carries the fields as far as the header goes, bad bytes as U+FFFD. `None` for
    /// the other outputs.
    #[inline]
    pub fn unfit(&self, raw: &[u8], fields: &Fields<'_>) -> Option<Reason> {
        if !self.typed {
            return None;
        }
        if let Some(names) = &self.kept {
            let (mut count, mut bad) = (0u32, None);
            fields.for_each(|field| {
                count += 1;
                if bad.is_none() && std::str::from_utf8(field).is_err() {
                    bad = Some(count);
                }
            });
            let header = names.len() as u32;
            if count > header {
                return Some(Reason::Unfit(Unfit::TooWide {
                    fields: count,
                    header,
                }));
            }
            if let Some(field) = bad {
                return Some(Reason::Unfit(Unfit::NotUtf8 { field }));
            }
        }
        if self.as_read && std::str::from_utf8(raw).is_err() {
            return Some(Reason::Unfit(Unfit::PuzzleNotUtf8));
        }
        None
    }

    /// True when puzzles are written as read (`--puzzle-as-read`).
    #[inline]
    pub fn writes_as_read(&self) -> bool {
        self.as_read
    }

    /// True when rows get a record number (`--record-index`): [`RowWriter::row`]'s
    /// answer is then where it goes, written by [`RowWriter::write_numbered`].
    #[inline]
    pub fn numbers_records(&self) -> bool {
        self.numbered
    }

    /// How many of the highest-rated rows are kept (`--top`), if not all.
    #[inline]
    pub fn top(&self) -> Option<std::num::NonZeroU64> {
        self.rated.and_then(|f| f.top)
    }

    /// True when each row's [`Slot`] goes to the writer of the whole output: for record
    /// numbers and for `--top`.
    #[inline]
    pub fn needs_slots(&self) -> bool {
        self.numbered || self.top().is_some()
    }

    /// Appends a chunk's `rows` to `to` with the record numbers of `slots` put in,
    /// counted from `first` (the records before the chunk).
    pub fn write_numbered(
        &self,
        rows: &[u8],
        slots: impl Iterator<Item = Slot>,
        first: u64,
        to: &mut Vec<u8>,
    ) {
        let prefix: &[u8] = match self.format {
            OutputFormat::Ndjson => b",\"record\":",
            OutputFormat::Tsv => b"\t",
            _ => b",",
        };
        let mut from = 0;
        for slot in slots {
            let at = (slot.at as usize).clamp(from, rows.len());
            to.extend_from_slice(&rows[from..at]);
            to.extend_from_slice(prefix);
            write_u64(to, first + slot.record);
            from = at;
        }
        to.extend_from_slice(&rows[from..]);
    }

    /// The same writer, writing only rows of `statuses` (`--only`).
    pub fn only(self, statuses: StatusSet) -> RowWriter {
        RowWriter {
            only: statuses,
            ..self
        }
    }

    /// True when a row of `status`, whose given solution is `mismatch` and whose grade
    /// is `rated`, is written (`--only`, then the rating filter); the others are counted
    /// as left out.
    #[inline]
    pub fn keeps(
        &self,
        status: Status,
        mismatch: Option<bool>,
        rated: Option<(u16, crate::values::level::Level)>,
    ) -> bool {
        self.only.takes(status, mismatch) && self.rated.is_none_or(|f| f.keeps(rated))
    }

    /// True when every row is exactly one line: all formats but printed grids; and in
    /// CSV and TSV not with the input's fields kept or the puzzle as read, as a quoted
    /// field may hold line ends (NDJSON escapes them).
    pub fn one_line_rows(&self) -> bool {
        match self.format {
            OutputFormat::Grid => false,
            OutputFormat::Csv | OutputFormat::Tsv => self.kept.is_none() && !self.as_read,
            _ => true,
        }
    }

    /// Appends what comes before the first row (the CSV header).
    pub fn header<E: Columns>(&self, out: &mut Vec<u8>) {
        match self.format {
            OutputFormat::Csv | OutputFormat::Tsv => {
                let record: &[&str] = if self.numbered { &[RECORD_COLUMN] } else { &[] };
                let kept = self.kept.as_deref().unwrap_or(&[]);
                csv::header(self.format.separator(), E::NAMES, record, kept, out)
            }
            OutputFormat::Pairs | OutputFormat::Lines | OutputFormat::Grid => {}
            OutputFormat::Ndjson => {}
        }
    }

    /// Appends one row; answers where in `out` its record number goes (see
    /// [`RowWriter::numbers_records`]).
    #[inline]
    pub fn row<E: Columns>(&self, row: &Row<'_, E>, out: &mut Vec<u8>) -> usize {
        if self.hide_solutions && row.solution.is_some() {
            let hidden = Row {
                solution: None,
                line: row.line,
                puzzle: row.puzzle,
                status: row.status,
                reason: row.reason,
                mismatch: row.mismatch,
                extra: row.extra,
                fields: row.fields,
            };
            return self.row(&hidden, out);
        }
        match self.format {
            OutputFormat::Csv | OutputFormat::Tsv => {
                let sep = self.format.separator();
                csv::row(sep, row, self.csv_column.as_deref(), out);
                let at = out.len();
                if self.kept.is_some() {
                    let count = self.kept.as_ref().map_or(0, Vec::len);
                    csv::fields(sep, &row.fields, count, self.typed, out);
                }
                out.push(b'\n');
                at
            }
            OutputFormat::Pairs => {
                lines::pair(row, out);
                out.len()
            }
            OutputFormat::Lines => {
                lines::line(row, out);
                out.len()
            }
            OutputFormat::Grid => {
                grid::row(row, |out| self.write_reason(row, out), out);
                out.len()
            }
            OutputFormat::Ndjson => {
                ndjson::row(row, |out| self.write_reason(row, out), out);
                let at = out.len();
                if let Some(names) = &self.kept {
                    ndjson::fields(&row.fields, names, out);
                }
                out.extend_from_slice(b"}\n");
                at
            }
        }
    }

    /// Appends the row's reason as text (nothing when it has none).
    fn write_reason<E>(&self, row: &Row<'_, E>, out: &mut Vec<u8>) {
        if let Some(reason) = &row.reason {
            // Writing to a Vec cannot fail.
            let _ = std::io::Write::write_fmt(
                out,
                format_args!("{}", reason.describe(self.csv_column.as_deref())),
            );
        }
    }
}

/// Appends `name=count` for the nonzero counts, separated by `separator`; false when
/// there were none.
pub(crate) fn write_uses(out: &mut Vec<u8>, counts: &[u16], names: &[&str], separator: u8) -> bool {
    let mut any = false;
    for (&n, name) in counts.iter().zip(names).filter(|(&n, _)| n > 0) {
        if any {
            out.push(separator);
        }
        any = true;
        out.extend_from_slice(name.as_bytes());
        out.push(b'=');
        write_u64(out, u64::from(n));
    }
    any
}

/// Appends a number given in tenths with one decimal (`62` as `6.2`).
pub(crate) fn write_tenths(out: &mut Vec<u8>, tenths: u16) {
    write_u64(out, u64::from(tenths / 10));
    out.push(b'.');
    out.push(b'0' + (tenths % 10) as u8);
}

/// Appends the decimal digits of `n`.
#[inline]
pub(crate) fn write_u64(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}
