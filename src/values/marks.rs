//! Pencil-mark ("Sukaku") puzzles: 729 characters, nine per cell in row-major order, the
//! candidate digit `d` at position `d` of its cell's nine (`1........` is a cell that may
//! only hold 1) and `.` (or `0`) where that digit is ruled out, as tdoku reads them.

use std::fmt;

use crate::values::grid::{Grid, CELLS};

/// Characters in a pencil-mark record.
pub const MARKS_LEN: usize = CELLS * 9;

/// The candidates of every cell: bit `d - 1` set when digit `d` may go there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Marks {
    candidates: [u16; CELLS],
}

/// Why 729 characters are not a pencil-mark puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarksError {
    /// A character that is neither the digit of its position nor `.`/`0`; `column` is
    /// 1-based within the record.
    BadByte {
        /// 1-based column.
        column: usize,
        /// The byte.
        byte: u8,
    },
    /// A cell has no candidate at all.
    NoCandidates {
        /// 0-based cell.
        cell: usize,
    },
}

impl fmt::Display for MarksError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MarksError::BadByte { column, byte } if byte.is_ascii_graphic() => {
                write!(f, "bad pencil mark '{}' at column {column}", byte as char)
            }
            MarksError::BadByte { column, byte } => {
                write!(f, "bad pencil mark 0x{byte:02x} at column {column}")
            }
            MarksError::NoCandidates { cell } => {
                write!(
                    f,
                    "cell r{}c{} has no candidates",
                    cell / 9 + 1,
                    cell % 9 + 1
                )
            }
        }
    }
}

impl Marks {
    /// Parses exactly [`MARKS_LEN`] bytes.
    pub fn parse(bytes: &[u8]) -> Result<Marks, MarksError> {
        let mut candidates = [0u16; CELLS];
        for (i, &b) in bytes.iter().take(MARKS_LEN).enumerate() {
            let digit = (i % 9) as u8 + 1;
            match b {
                b'.' | b'0' => {}
                b if b == b'0' + digit => candidates[i / 9] |= 1 << (digit - 1),
                byte => {
                    return Err(MarksError::BadByte {
                        column: i + 1,
                        byte,
                    })
                }
            }
        }
        if let Some(cell) = candidates.iter().position(|&c| c == 0) {
            return Err(MarksError::NoCandidates { cell });
        }
        Ok(Marks { candidates })
    }

    /// The marks of a puzzle: each given alone in its cell, every digit in the others.
    pub fn of_grid(grid: &Grid) -> Marks {
        let mut candidates = [0x1ffu16; CELLS];
        for (cell, c) in candidates.iter_mut().enumerate() {
            if grid.get(cell) != 0 {
                *c = 1 << (grid.get(cell) - 1);
            }
        }
        Marks { candidates }
    }

    /// Candidates of `cell` (bit `d - 1` for digit `d`).
    #[inline]
    pub fn candidates(&self, cell: usize) -> u16 {
        self.candidates[cell]
    }

    /// Removes digit `d` (1..=9) from `cell`'s candidates.
    pub fn remove(&mut self, cell: usize, d: u8) {
        self.candidates[cell] &= !(1 << (d - 1));
    }

    /// The cells with a single candidate, as givens.
    pub fn singles(&self) -> Grid {
        let mut cells = [0u8; CELLS];
        for (cell, &c) in self.candidates.iter().enumerate() {
            if c.count_ones() == 1 {
                cells[cell] = c.trailing_zeros() as u8 + 1;
            }
        }
        Grid::from_cells(cells).unwrap_or(Grid::EMPTY)
    }

    /// The 729-character text.
    pub fn write_line(&self, out: &mut [u8; MARKS_LEN]) {
        for (i, slot) in out.iter_mut().enumerate() {
            let d = (i % 9) as u16;
            *slot = if self.candidates[i / 9] >> d & 1 == 1 {
                b'1' + d as u8
            } else {
                b'.'
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_writes_back() {
        let mut text = [0u8; MARKS_LEN];
        let grid = Grid::parse(
            b"....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3",
        )
        .unwrap();
        let marks = Marks::of_grid(&grid);
        marks.write_line(&mut text);
        assert_eq!(Marks::parse(&text), Ok(marks));
        assert_eq!(marks.singles(), grid);
        let mut bad = text;
        bad[1] = b'3';
        assert_eq!(
            Marks::parse(&bad),
            Err(MarksError::BadByte {
                column: 2,
                byte: b'3'
            })
        );
        let empty = [b'.'; MARKS_LEN];
        assert_eq!(
            Marks::parse(&empty),
            Err(MarksError::NoCandidates { cell: 0 })
        );
    }
}
