//! The 81-cell value type: parsing from bytes, formatting, and given-clash detection.
//!
//! A [`Grid`] holds digits `1..=9` for filled cells and `0` for empty ones, row-major.
//! Parsing works on raw bytes (never assumes UTF-8) and reports errors as data, never
//! by panicking, because every malformed record must become an `invalid` output row.

use std::fmt;

/// Number of cells in a grid.
pub const CELLS: usize = 81;

/// An 81-cell Sudoku grid, row-major; `0` is an empty cell, `1..=9` a digit.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    cells: [u8; CELLS],
}

/// Why a byte slice is not an 81-cell grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// Fewer than 81 cells; holds how many there were.
    TooShort(usize),
    /// More than 81 cells; holds how many there were.
    TooLong(usize),
    /// A byte that is neither a digit nor an empty-cell mark.
    BadByte(u8),
}

/// A grid parse error: what went wrong and at which 1-based column of the parsed slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based byte column within the slice handed to [`Grid::parse`].
    pub column: usize,
    /// What went wrong.
    pub kind: ParseErrorKind,
}

/// A row, column or box, each numbered `1..=9` when displayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Row index `0..9`, top to bottom.
    Row(u8),
    /// Column index `0..9`, left to right.
    Column(u8),
    /// Box index `0..9`, row-major.
    Box(u8),
}

/// Two givens with the same digit in one unit: the puzzle is invalid before any search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clash {
    /// The unit holding the duplicate.
    pub unit: Unit,
    /// The duplicated digit, `1..=9`.
    pub digit: u8,
}

/// Marks a byte that is not a cell in [`CELL_TABLE`].
const BAD: u8 = 0x80;

/// Cell value of every byte, [`BAD`] for bytes that are not cells.
static CELL_TABLE: [u8; 256] = {
    let mut table = [BAD; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = match b as u8 {
            d @ b'1'..=b'9' => d - b'0',
            b'0' | b'.' | b'_' | b'*' | b'-' => 0,
            _ => BAD,
        };
        b += 1;
    }
    table
};

/// Maps a byte to its cell value: `Some(0)` for empty marks, `Some(1..=9)` for digits.
#[inline]
pub fn cell_value(byte: u8) -> Option<u8> {
    let v = CELL_TABLE[byte as usize];
    (v != BAD).then_some(v)
}

impl Grid {
    /// The grid with every cell empty.
    pub const EMPTY: Grid = Grid { cells: [0; CELLS] };

    /// Builds a grid from cell values, checking each is `0..=9`.
    pub fn from_cells(cells: [u8; CELLS]) -> Option<Grid> {
        cells.iter().all(|&v| v <= 9).then_some(Grid { cells })
    }

    /// A grid from cell values the solver produced (always `0..=9`).
    #[inline]
    pub(crate) fn from_solver_cells(cells: [u8; CELLS]) -> Grid {
        debug_assert!(cells.iter().all(|&v| v <= 9));
        Grid { cells }
    }

    /// Parses exactly 81 cells: `1`-`9` givens; `.`, `0`, `_`, `*` or `-` empty.
    #[inline]
    pub fn parse(bytes: &[u8]) -> Result<Grid, ParseError> {
        // Fast path: one table lookup per byte, errors located afterwards.
        if let Ok(bytes) = <&[u8; CELLS]>::try_from(bytes) {
            let mut cells = [0u8; CELLS];
            let mut bad = 0u8;
            for (cell, &byte) in cells.iter_mut().zip(bytes) {
                let v = CELL_TABLE[byte as usize];
                bad |= v;
                *cell = v;
            }
            if bad & BAD != 0 {
                return Err(Self::locate_error(bytes));
            }
            return Ok(Grid { cells });
        }
        Err(Self::locate_error(bytes))
    }

    /// The first problem in bytes that are not a valid 81-cell grid.
    #[cold]
    fn locate_error(bytes: &[u8]) -> ParseError {
        for (i, &byte) in bytes.iter().enumerate() {
            if cell_value(byte).is_none() {
                return ParseError {
                    column: i + 1,
                    kind: ParseErrorKind::BadByte(byte),
                };
            }
            if i == CELLS {
                return ParseError {
                    column: CELLS + 1,
                    kind: ParseErrorKind::TooLong(bytes.len()),
                };
            }
        }
        ParseError {
            column: bytes.len() + 1,
            kind: ParseErrorKind::TooShort(bytes.len()),
        }
    }

    /// The cell values, row-major, `0` for empty.
    #[inline]
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// The value at `index` (`0..81`), `0` for empty.
    #[inline]
    pub fn get(&self, index: usize) -> u8 {
        self.cells[index]
    }

    /// Sets the value at `index`; `value` must be `0..=9`.
    #[inline]
    pub fn set(&mut self, index: usize, value: u8) {
        debug_assert!(value <= 9);
        self.cells[index] = value;
    }

    /// Number of givens (filled cells).
    pub fn given_count(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// True when no cell is empty.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// Finds the first unit (rows, then columns, then boxes) where a digit is given twice.
    pub fn find_clash(&self) -> Option<Clash> {
        let mut rows = [0u16; 9];
        let mut cols = [0u16; 9];
        let mut boxes = [0u16; 9];
        let mut first: Option<(u8, Clash)> = None;
        for (i, &v) in self.cells.iter().enumerate() {
            if v == 0 {
                continue;
            }
            let bit = 1u16 << v;
            let (r, c) = (i / 9, i % 9);
            let b = r / 3 * 3 + c / 3;
            // Rank clashes rows < columns < boxes so the report is stable and predictable.
            let found = [
                (rows[r] & bit != 0).then_some((0, Unit::Row(r as u8))),
                (cols[c] & bit != 0).then_some((1, Unit::Column(c as u8))),
                (boxes[b] & bit != 0).then_some((2, Unit::Box(b as u8))),
            ];
            for (rank, unit) in found.into_iter().flatten() {
                if first.is_none_or(|(best, _)| rank < best) {
                    first = Some((rank, Clash { unit, digit: v }));
                }
            }
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
        }
        first.map(|(_, clash)| clash)
    }

    /// True when this is a complete grid obeying every Sudoku constraint.
    pub fn is_valid_solution(&self) -> bool {
        self.is_full() && self.find_clash().is_none()
    }

    /// True when every given of `puzzle` has the same value here.
    pub fn keeps_givens_of(&self, puzzle: &Grid) -> bool {
        puzzle
            .cells
            .iter()
            .zip(&self.cells)
            .all(|(&p, &s)| p == 0 || p == s)
    }

    /// Writes the 81-character line form into `out`: digits, `.` for empty.
    #[inline]
    pub fn write_line(&self, out: &mut [u8; CELLS]) {
        for (o, &v) in out.iter_mut().zip(&self.cells) {
            *o = if v == 0 { b'.' } else { b'0' + v };
        }
    }

    /// The 81-character line form as an array.
    pub fn to_line(&self) -> [u8; CELLS] {
        let mut out = [0u8; CELLS];
        self.write_line(&mut out);
        out
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = self.to_line();
        // The line holds only ASCII digits and '.'.
        f.write_str(std::str::from_utf8(&line).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({self})")
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Unit::Row(i) => write!(f, "row {}", i + 1),
            Unit::Column(i) => write!(f, "column {}", i + 1),
            Unit::Box(i) => write!(f, "box {}", i + 1),
        }
    }
}

impl fmt::Display for Clash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "digit {} given twice in {}", self.digit, self.unit)
    }
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ParseErrorKind::TooShort(n) => write!(f, "too short: {n} cells, need 81"),
            ParseErrorKind::TooLong(n) => write!(f, "too long: {n} cells, need 81"),
            ParseErrorKind::BadByte(b) if b.is_ascii_graphic() => {
                write!(f, "bad byte '{}'", b as char)
            }
            ParseErrorKind::BadByte(b) => write!(f, "bad byte 0x{b:02x}"),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at column {}", self.kind, self.column)
    }
}

impl std::error::Error for ParseError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_formats_round_trip() {
        let line =
            b"....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3";
        let grid = Grid::parse(line).unwrap();
        assert_eq!(&grid.to_line(), line);
        assert_eq!(grid.given_count(), 23);
    }

    #[test]
    fn empty_marks_are_equivalent() {
        let dots = Grid::parse(&[b'.'; 81]).unwrap();
        for mark in [b'0', b'_', b'*', b'-'] {
            assert_eq!(Grid::parse(&[mark; 81]).unwrap(), dots);
        }
    }

    #[test]
    fn errors_name_the_column_and_kind() {
        let err = Grid::parse(&[b'.'; 80]).unwrap_err();
        assert_eq!(err.kind, ParseErrorKind::TooShort(80));
        let err = Grid::parse(&[b'.'; 82]).unwrap_err();
        assert_eq!(err.kind, ParseErrorKind::TooLong(82));
        assert_eq!(err.column, 82);
        let mut bytes = [b'.'; 81];
        bytes[4] = b'x';
        let err = Grid::parse(&bytes).unwrap_err();
        assert_eq!(
            err,
            ParseError {
                column: 5,
                kind: ParseErrorKind::BadByte(b'x')
            }
        );
        assert_eq!(err.to_string(), "bad byte 'x' at column 5");
    }

    #[test]
    fn finds_clashes_by_unit() {
        let mut g = Grid::EMPTY;
        g.set(0, 5);
        g.set(8, 5);
        assert_eq!(
            g.find_clash(),
            Some(Clash {
                unit: Unit::Row(0),
                digit: 5
            })
        );
        let mut g = Grid::EMPTY;
        g.set(1, 7);
        g.set(73, 7);
        assert_eq!(
            g.find_clash(),
            Some(Clash {
                unit: Unit::Column(1),
                digit: 7
            })
        );
        let mut g = Grid::EMPTY;
        g.set(0, 3);
        g.set(20, 3);
        assert_eq!(
            g.find_clash(),
            Some(Clash {
                unit: Unit::Box(0),
                digit: 3
            })
        );
        assert_eq!(Grid::EMPTY.find_clash(), None);
    }
}
