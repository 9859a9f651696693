//! Symbols and boards: the text of a 4x4 to 25x25 puzzle read into cell values and
//! written back, with errors that say what was wrong and where.
//!
//! Default alphabets: `1234`, `123456789`, `123456789ABCDEFG`, `123456789ABCDEFGHIJKLMNOP`;
//! `--symbols` gives another (e.g. `0123456789ABCDEF`). Letters are read in either case.
//! `.` is always an empty cell, and so are `0`, `-` and `_` where they are not symbols.

use std::fmt;

use super::geometry::{Geometry, MAX_CELLS, MAX_SIDE};
use crate::values::grid::Grid;

/// An alphabet: the symbols of values 1..=side, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symbols {
    chars: [u8; MAX_SIDE],
    side: u8,
    /// Byte -> 0 (empty), 1..=side, or [`NOT_A_SYMBOL`].
    value_of: [u8; 256],
}

const NOT_A_SYMBOL: u8 = u8::MAX;
const DEFAULT_ALPHABET: &[u8; MAX_SIDE] = b"123456789ABCDEFGHIJKLMNOP";

/// An alphabet that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SymbolsError {
    /// Its length is not 4, 9, 16 or 25.
    Length(usize),
    /// A symbol appears twice (letters count in either case).
    Repeated(char),
    /// `.`, a space or a byte outside printable ASCII.
    Reserved(char),
}

impl fmt::Display for SymbolsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SymbolsError::Length(n) => {
                write!(f, "{n} symbols: expected 4, 9, 16 or 25 (one per value)")
            }
            SymbolsError::Repeated(c) => write!(f, "symbol {c:?} appears twice"),
            SymbolsError::Reserved(c) => write!(f, "{c:?} cannot be a symbol"),
        }
    }
}

impl std::error::Error for SymbolsError {}

impl Symbols {
    /// The default alphabet for `side` (4, 9, 16 or 25).
    pub fn default_for(side: usize) -> Symbols {
        let side = side.min(MAX_SIDE);
        Symbols::build(&DEFAULT_ALPHABET[..side])
    }

    /// A custom alphabet, one symbol per value.
    pub fn custom(text: &str) -> Result<Symbols, SymbolsError> {
        let bytes = text.as_bytes();
        if ![4, 9, 16, 25].contains(&bytes.len()) || text.chars().count() != bytes.len() {
            return Err(SymbolsError::Length(text.chars().count()));
        }
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'.' || !b.is_ascii_graphic() {
                return Err(SymbolsError::Reserved(b as char));
            }
            if bytes[..i].iter().any(|p| p.eq_ignore_ascii_case(&b)) {
                return Err(SymbolsError::Repeated(b as char));
            }
        }
        Ok(Symbols::build(bytes))
    }

    fn build(alphabet: &[u8]) -> Symbols {
        let mut chars = [0u8; MAX_SIDE];
        chars[..alphabet.len()].copy_from_slice(alphabet);
        let mut value_of = [NOT_A_SYMBOL; 256];
        for (v, &b) in alphabet.iter().enumerate() {
            value_of[usize::from(b)] = v as u8 + 1;
        }
        // The other case of a letter, unless it is a symbol itself.
        for (v, &b) in alphabet.iter().enumerate() {
            let other = if b.is_ascii_uppercase() {
                b.to_ascii_lowercase()
            } else {
                b.to_ascii_uppercase()
            };
            if value_of[usize::from(other)] == NOT_A_SYMBOL {
                value_of[usize::from(other)] = v as u8 + 1;
            }
        }
        for empty in [b'.', b'0', b'-', b'_'] {
            if value_of[usize::from(empty)] == NOT_A_SYMBOL {
                value_of[usize::from(empty)] = 0;
            }
        }
        Symbols {
            chars,
            side: alphabet.len() as u8,
            value_of,
        }
    }

    /// Values per unit.
    pub fn side(&self) -> usize {
        usize::from(self.side)
    }

    /// The symbol of value `v` (1..=side), `.` for 0.
    #[inline]
    pub fn symbol(&self, v: u8) -> u8 {
        if v == 0 {
            b'.'
        } else {
            self.chars[usize::from(v - 1)]
        }
    }

    /// The alphabet as text, in ranges where it runs (`1-9, A-G`).
    pub fn describe(&self) -> String {
        let chars = &self.chars[..self.side()];
        if chars == &DEFAULT_ALPHABET[..self.side()] && self.side > 9 {
            return format!("1-9, A-{}", chars[self.side() - 1] as char);
        }
        String::from_utf8_lossy(chars).into_owned()
    }
}

/// A record that is not a board of the geometry asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// Its length fits no size (or not the size asked for).
    Length {
        /// Cells found.
        found: usize,
        /// The side asked for (`--size`), if any.
        side: Option<u8>,
    },
    /// A byte that is not a symbol of the alphabet, nor an empty cell.
    Symbol {
        /// 1-based column in the puzzle text.
        column: usize,
        /// The byte.
        byte: u8,
        /// The board's side.
        side: u8,
    },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BoardError::Length { found, side: None } => write!(
                f,
                "{found} cells fit no size: 16 (4x4), 81 (9x9), 256 (16x16) or 625 (25x25)"
            ),
            BoardError::Length {
                found,
                side: Some(s),
            } => {
                let s = usize::from(s);
                write!(f, "{found} cells, but size {s} needs {}", s * s)
            }
            BoardError::Symbol { column, byte, side } => {
                let shown = if byte.is_ascii_graphic() {
                    format!("'{}'", byte as char)
                } else {
                    format!("byte 0x{byte:02x}")
                };
                write!(
                    f,
                    "{shown} at column {column} is not a symbol of {side}x{side}"
                )
            }
        }
    }
}

impl std::error::Error for BoardError {}

/// A 4x4 to 25x25 grid: values 1..=side, 0 for empty, row-major.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Board {
    cells: [u8; MAX_CELLS],
    side: u8,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({}x{}: {:?})", self.side, self.side, self.values())
    }
}

impl Board {
    /// An empty board of `side` (4, 9, 16 or 25).
    pub fn empty(side: usize) -> Board {
        Board {
            cells: [0; MAX_CELLS],
            side: side.min(MAX_SIDE) as u8,
        }
    }

    /// Reads `text` (surrounding whitespace ignored) as a board of `side` cells a row, or
    /// of the size its length gives when `side` is `None`, in `alphabet` (a custom one)
    /// or the default alphabet of that size.
    pub fn parse(
        text: &[u8],
        side: Option<usize>,
        alphabet: Option<&Symbols>,
    ) -> Result<Board, BoardError> {
        let text = text.trim_ascii();
        let side_of = |len: usize| [4usize, 9, 16, 25].into_iter().find(|s| s * s == len);
        let want = side.or(alphabet.map(Symbols::side));
        let side = match want {
            Some(s) if s * s == text.len() => s,
            Some(s) => {
                return Err(BoardError::Length {
                    found: text.len(),
                    side: Some(s as u8),
                })
            }
            None => side_of(text.len()).ok_or(BoardError::Length {
                found: text.len(),
                side: None,
            })?,
        };
        let default;
        let symbols = match alphabet {
            Some(a) => a,
            None => {
                default = Symbols::default_for(side);
                &default
            }
        };
        let mut board = Board::empty(side);
        for (i, &b) in text.iter().enumerate() {
            match symbols.value_of[usize::from(b)] {
                NOT_A_SYMBOL => {
                    return Err(BoardError::Symbol {
                        column: i + 1,
                        byte: b,
                        side: side as u8,
                    })
                }
                v => board.cells[i] = v,
            }
        }
        Ok(board)
    }

    /// The 9x9 board of a classic grid.
    pub fn from_grid(grid: &Grid) -> Board {
        let mut board = Board::empty(9);
        board.cells[..81].copy_from_slice(grid.cells());
        board
    }

    /// Values per unit.
    #[inline]
    pub fn side(&self) -> usize {
        usize::from(self.side)
    }

    /// The cell values, row-major (0 empty).
    #[inline]
    pub fn values(&self) -> &[u8] {
        &self.cells[..self.side() * self.side()]
    }

    /// The value of `cell`.
    #[inline]
    pub fn get(&self, cell: usize) -> u8 {
        self.cells[cell]
    }

    /// Sets `cell` to `value` (0 empties it).
    #[inline]
    pub fn set(&mut self, cell: usize, value: u8) {
        self.cells[cell] = value;
    }

    /// Filled cells.
    pub fn givens(&self) -> usize {
        self.values().iter().filter(|&&v| v != 0).count()
    }

    /// The first unit of `geometry` holding a value twice, with the value.
    pub fn find_clash(&self, geometry: &Geometry) -> Option<(usize, u8)> {
        for (u, unit) in geometry.units().iter().enumerate() {
            let mut seen = 0u32;
            for &c in &unit.cells {
                let v = self.cells[usize::from(c)];
                if v != 0 {
                    if seen & (1 << v) != 0 {
                        return Some((u, v));
                    }
                    seen |= 1 << v;
                }
            }
        }
        None
    }

    /// True when every cell is filled and no unit of `geometry` repeats a value.
    pub fn is_solution(&self, geometry: &Geometry) -> bool {
        self.side() == geometry.side()
            && self.values().iter().all(|&v| v != 0)
            && self.find_clash(geometry).is_none()
    }

    /// True when every filled cell of `puzzle` has the same value here.
    pub fn keeps_givens_of(&self, puzzle: &Board) -> bool {
        self.values()
            .iter()
            .zip(puzzle.values())
            .all(|(&s, &p)| p == 0 || s == p)
    }

    /// Writes the board in `symbols` (`.` for empty) into `out`, returning the text.
    pub fn write<'a>(&self, symbols: &Symbols, out: &'a mut [u8; MAX_CELLS]) -> &'a [u8] {
        let n = self.side() * self.side();
        for (o, &v) in out.iter_mut().zip(self.values()) {
            *o = symbols.symbol(v);
        }
        &out[..n]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::geometry::Variant;

    #[test]
    fn default_alphabets_and_case() {
        let b = Board::parse(b"12..3.4.........", None, None).unwrap();
        assert_eq!(b.side(), 4);
        assert_eq!(&b.values()[..5], &[1, 2, 0, 0, 3]);
        let text = format!("g{}A", ".".repeat(254));
        let b = Board::parse(text.as_bytes(), None, None).unwrap();
        assert_eq!((b.side(), b.get(0), b.get(255)), (16, 16, 10));
        assert_eq!(Symbols::default_for(16).describe(), "1-9, A-G");
        assert_eq!(Symbols::default_for(25).describe(), "1-9, A-P");
        let mut out = [0u8; MAX_CELLS];
        assert_eq!(&b.write(&Symbols::default_for(16), &mut out)[..2], b"G.");
    }

    #[test]
    fn custom_alphabets_make_zero_a_symbol() {
        let hex = Symbols::custom("0123456789ABCDEF").unwrap();
        let text = format!("0f{}", ".".repeat(254));
        let b = Board::parse(text.as_bytes(), None, Some(&hex)).unwrap();
        assert_eq!((b.get(0), b.get(1), b.get(2)), (1, 16, 0));
        assert_eq!(
            Symbols::custom("12a4A6789").unwrap_err(),
            SymbolsError::Repeated('A')
        );
        assert_eq!(Symbols::custom("123").unwrap_err(), SymbolsError::Length(3));
        assert_eq!(
            Symbols::custom("1.34").unwrap_err(),
            SymbolsError::Reserved('.')
        );
    }

    #[test]
    fn errors_name_the_sizes_and_the_column() {
        let e = Board::parse(&[b'1'; 80], None, None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "80 cells fit no size: 16 (4x4), 81 (9x9), 256 (16x16) or 625 (25x25)"
        );
        let e = Board::parse(&[b'.'; 81], Some(16), None).unwrap_err();
        assert_eq!(e.to_string(), "81 cells, but size 16 needs 256");
        let e = Board::parse(b"123.5...........", None, None).unwrap_err();
        assert_eq!(e.to_string(), "'5' at column 5 is not a symbol of 4x4");
    }

    #[test]
    fn clashes_on_diagonals_count_only_under_the_diagonal_rule() {
        let mut b = Board::empty(9);
        b.set(0, 7);
        b.set(80, 7);
        let classic = Geometry::new(9, Variant::Classic).unwrap();
        let diagonal = Geometry::new(9, Variant::Diagonal).unwrap();
        assert_eq!(b.find_clash(&classic), None);
        let (unit, value) = b.find_clash(&diagonal).unwrap();
        assert_eq!(value, 7);
        assert_eq!(diagonal.units()[unit].to_string(), "the main diagonal");
    }
}
