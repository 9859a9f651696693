//! Block layouts: a puzzle drawn over nine lines, as people and many sites keep them.
//!
//! Understood: Project Euler 96's `sudoku.txt` (`Grid 01` then nine lines of nine
//! digits), SadMan `.sdk` and Simple Sudoku `.ss` files (nine lines, `.` empty, `|` and
//! `-` separators), plain nine-line blocks separated by blank lines, grids drawn with
//! `|`, `-`, `+` and spaces, and this tool's own `--output-format grid` (puzzle and
//! solution side by side: eighteen cells a line, the right nine taken as the expected
//! solution). `#` lines are comments.
//!
//! A block starts at a header line (any line with a letter: `Grid 01`, `line 3: unique`),
//! after a blank line, or, for blocks without a title, after nine rows of cells; a
//! record's line is its block's first line. A block that does not have nine rows of nine
//! cells is one `invalid` record (a titled block runs to the next title or blank line,
//! so ten rows there are one bad block).

use super::lines::{is_skipped_line, trim_cr};
use super::{Record, RecordError};
use crate::values::grid::{cell_value, Grid, CELLS};

/// What is wrong with a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockError {
    /// The block has this many rows of cells instead of nine.
    Rows(usize),
    /// A row has the wrong number of cells.
    Width {
        /// 1-based line of the row.
        line: u64,
        /// Cells found on it.
        cells: usize,
    },
}

impl std::fmt::Display for BlockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BlockError::Rows(n) => write!(f, "block has {n} rows of cells, need 9"),
            BlockError::Width { line, cells } => {
                write!(f, "row on line {line} has {cells} cells, need 9")
            }
        }
    }
}

/// One line of a block layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BlockLine {
    /// Nothing on it (or a comment).
    Blank,
    /// Only drawing characters: `-`, `+`, `|`, `=`, spaces.
    Separator,
    /// Text with a letter: a block's title.
    Header,
    /// Cells: `cells[..n]` hold their values (0 for empty).
    Row { cells: [u8; 18], n: usize },
}

/// Classifies one line (without its line end).
pub(super) fn classify(line: &[u8]) -> BlockLine {
    if is_skipped_line(line) {
        return BlockLine::Blank;
    }
    if line.iter().any(|b| b.is_ascii_alphabetic()) {
        return BlockLine::Header;
    }
    if line
        .iter()
        .all(|b| matches!(b, b'-' | b'+' | b'|' | b'=' | b' ' | b'\t'))
    {
        return BlockLine::Separator;
    }
    let mut cells = [0u8; 18];
    let mut n = 0;
    for &b in line {
        if matches!(b, b' ' | b'\t' | b'|' | b'+') {
            continue;
        }
        // Anything else counts as a cell; bytes that are not cells make a row too wide
        // or too narrow to be read, which its block reports.
        if n < cells.len() {
            cells[n] = cell_value(b).unwrap_or(0);
        }
        n += 1;
    }
    BlockLine::Row { cells, n }
}

/// True when `line` opens a block layout: a row of 9 or 18 cells, or a separator.
pub(super) fn starts_blocks(line: &[u8], next: Option<&[u8]>) -> bool {
    let row = |l: &[u8]| matches!(classify(l), BlockLine::Row { n: 9 | 18, .. });
    match classify(line) {
        BlockLine::Row { .. } => row(line),
        BlockLine::Separator => line.iter().filter(|&&b| b == b'-').count() >= 3,
        BlockLine::Header => next.is_some_and(row),
        BlockLine::Blank => false,
    }
}

/// A block being read.
struct Block<'a> {
    line: u64,
    /// Started at a title: then only the next title or blank line ends it, so a block
    /// of ten rows is one bad block rather than a good one and a one-row one.
    titled: bool,
    raw: &'a [u8],
    puzzle: [u8; CELLS],
    solution: [u8; CELLS],
    rows: usize,
    solved_rows: usize,
    error: Option<BlockError>,
}

impl<'a> Block<'a> {
    fn new(line: u64, raw: &'a [u8], titled: bool) -> Self {
        Block {
            line,
            titled,
            raw,
            puzzle: [0; CELLS],
            solution: [0; CELLS],
            rows: 0,
            solved_rows: 0,
            error: None,
        }
    }

    fn add(&mut self, cells: &[u8; 18], n: usize, line: u64) {
        if self.rows < 9 && (n == 9 || n == 18) {
            let r = self.rows * 9;
            self.puzzle[r..r + 9].copy_from_slice(&cells[..9]);
            if n == 18 {
                self.solution[r..r + 9].copy_from_slice(&cells[9..]);
                self.solved_rows += 1;
            }
        } else if n != 9 && n != 18 && self.error.is_none() {
            self.error = Some(BlockError::Width { line, cells: n });
        }
        self.rows += 1;
    }

    fn record(self) -> Record<'a> {
        let error = self
            .error
            .or((self.rows != 9).then_some(BlockError::Rows(self.rows)));
        let puzzle = match error {
            Some(e) => Err(RecordError::Block(e)),
            None => Grid::from_cells(self.puzzle).ok_or(RecordError::NoGrid),
        };
        let expected = (puzzle.is_ok() && self.solved_rows == 9)
            .then(|| Grid::from_cells(self.solution).ok_or(()));
        Record {
            line: self.line,
            puzzle,
            raw: self.raw,
            expected,
            expected_text: None,
            marks: None,
            fields: super::Fields::None,
        }
    }
}

/// Calls `each` for every block record of `chunk`, whose first byte is on `first_line`.
pub(super) fn for_each_block<F: FnMut(Record<'_>)>(chunk: &[u8], first_line: u64, mut each: F) {
    let mut current: Option<Block<'_>> = None;
    for (line_no, line) in (first_line..).zip(chunk.split(|&b| b == b'\n')) {
        let line = trim_cr(line);
        match classify(line) {
            BlockLine::Separator => {}
            BlockLine::Blank => {
                if let Some(block) = current.take_if(|b| b.rows > 0) {
                    each(block.record());
                }
            }
            BlockLine::Header => {
                if let Some(block) = current.take() {
                    each(block.record());
                }
                current = Some(Block::new(line_no, line, true));
            }
            BlockLine::Row { cells, n } => {
                if let Some(block) = current.take_if(|b| b.rows == 9 && !b.titled) {
                    each(block.record());
                }
                current
                    .get_or_insert_with(|| Block::new(line_no, line, false))
                    .add(&cells, n, line_no);
            }
        }
    }
    if let Some(block) = current {
        each(block.record());
    }
}

/// Where the chunk starting at `data[0]` (a block boundary) should end: at the first
/// block start at or after `target` bytes, or the end of `data`.
pub(super) fn chunk_end(data: &[u8], target: usize) -> usize {
    let (mut pos, mut rows, mut open, mut titled) = (0usize, 0usize, false, false);
    while pos < data.len() {
        let end = data[pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(data.len(), |i| pos + i + 1);
        let kind = classify(trim_cr(
            data[pos..end]
                .strip_suffix(b"\n")
                .unwrap_or(&data[pos..end]),
        ));
        let starts = match kind {
            BlockLine::Header => true,
            BlockLine::Row { .. } => !open || (rows == 9 && !titled),
            BlockLine::Blank | BlockLine::Separator => false,
        };
        if starts && pos >= target {
            return pos;
        }
        match kind {
            BlockLine::Header => (open, rows, titled) = (true, 0, true),
            BlockLine::Row { .. } if starts => (open, rows, titled) = (true, 1, false),
            BlockLine::Row { .. } => rows += 1,
            BlockLine::Blank if rows > 0 => (open, rows) = (false, 0),
            _ => {}
        }
        pos = end;
    }
    data.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(text: &str) -> Vec<(u64, Result<Grid, RecordError>, bool)> {
        let mut out = Vec::new();
        for_each_block(text.as_bytes(), 1, |r| {
            out.push((r.line, r.puzzle, r.expected.is_some()))
        });
        out
    }

    const ROWS: &str = "003020600\n900305001\n001806400\n008102900\n700000008\n\
                        006708200\n002609500\n800203009\n005010300\n";

    #[test]
    fn pe96_headers_start_blocks() {
        let text = format!("Grid 01\n{ROWS}Grid 02\n{ROWS}");
        let r = records(&text);
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].0, r[1].0), (1, 11));
        assert!(r.iter().all(|x| x.1.is_ok()));
    }

    #[test]
    fn drawn_grids_and_wrong_shapes() {
        let drawn = "..3|.2.|6..\n9..|3.5|..1\n..1|8.6|4..\n---+---+---\n..8|1.2|9..\n\
                     7..|...|..8\n..6|7.8|2..\n---+---+---\n..2|6.9|5..\n8..|2.3|..9\n\
                     ..5|.1.|3..\n";
        assert!(records(drawn)[0].1.is_ok());
        let short = "003020600\n900305001\n\n";
        assert_eq!(
            records(short)[0].1,
            Err(RecordError::Block(BlockError::Rows(2)))
        );
        let wide = "Grid\n0030206000\n";
        assert_eq!(
            records(wide)[0].1,
            Err(RecordError::Block(BlockError::Width { line: 2, cells: 10 }))
        );
    }

    #[test]
    fn back_to_back_blocks_split_every_nine_rows() {
        let text = format!("{ROWS}{ROWS}");
        assert_eq!(records(&text).len(), 2);
        assert_eq!(chunk_end(text.as_bytes(), 1), ROWS.len());
    }
}
