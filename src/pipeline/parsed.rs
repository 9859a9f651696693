//! A record read as a puzzle: the one place where a record the input layer found, or
//! an in-memory text, becomes a 9x9 grid, pencil marks or a variant board by the run's
//! rules, and where that puzzle and a solution become a row's cells. The file pipeline
//! ([`super::process_chunk`]) and the in-memory one ([`super::batch`]) both read
//! records here.

use crate::pipeline::input::{Record, RecordError};
use crate::pipeline::rows::{BoardTexts, Cells, Reason};
use crate::values::board::{Board, BoardError, Symbols};
use crate::values::geometry::{Variant, SIDES};
use crate::values::grid::Grid;
use crate::values::marks::{Marks, MARKS_LEN};
use crate::values::puzzle::{Puzzle, Solution};
use crate::values::rules::BoardRules;

/// Parses one in-memory record as a classic 9x9 grid: the whole text (surrounding
/// whitespace ignored) is the puzzle.
pub fn parse_record(text: &[u8]) -> Result<Grid, RecordError> {
    let text = text.trim_ascii();
    if text.is_empty() {
        return Err(RecordError::NoGrid);
    }
    Grid::parse(text).map_err(RecordError::Parse)
}

/// One record read as a puzzle, or why it holds none. Held inline (a record must not
/// allocate).
#[allow(clippy::large_enum_variant)]
pub enum Parsed {
    /// A 9x9 grid.
    Grid(Grid),
    /// Pencil marks, and the grid of the cells with a single candidate.
    Marks {
        /// The candidates.
        marks: Marks,
        /// The cells with one candidate, as givens.
        singles: Grid,
    },
    /// A variant board.
    Board(Board),
    /// Why the record holds no puzzle.
    Bad(Reason),
}

impl Parsed {
    /// An in-memory `text` read as the command line reads a line holding only it: a
    /// variant board under `boards`' rules (or when it has 16, 256 or 625 cells), pencil
    /// marks when it has 729 characters, else a 9x9 grid.
    pub fn of_text(text: &[u8], boards: &BoardSetup) -> Parsed {
        let trimmed = text.trim_ascii();
        if boards.takes_text(trimmed) {
            return match boards.parse_text(trimmed) {
                Ok(board) => Parsed::Board(board),
                Err(e) => Parsed::Bad(Reason::Board(e)),
            };
        }
        if trimmed.len() == MARKS_LEN {
            return match Marks::parse(trimmed) {
                Ok(marks) => Parsed::Marks {
                    singles: marks.singles(),
                    marks,
                },
                Err(e) => Parsed::Bad(Reason::Record(RecordError::Marks(e))),
            };
        }
        match parse_record(trimmed) {
            Ok(grid) => Parsed::Grid(grid),
            Err(e) => Parsed::Bad(Reason::Record(e)),
        }
    }

    /// A `record` the input layer found (which read 9x9 grids and pencil marks as it
    /// found them), read as a variant board where `boards`' rules say so.
    #[inline]
    pub fn of_record(record: &Record<'_>, boards: &BoardSetup) -> Parsed {
        if boards.takes(record) {
            return match boards.parse(record) {
                Ok(board) => Parsed::Board(board),
                Err(e) => Parsed::Bad(Reason::Board(e)),
            };
        }
        match (&record.puzzle, &record.marks) {
            (Err(e), _) => Parsed::Bad(Reason::Record(*e)),
            (Ok(singles), Some(marks)) => Parsed::Marks {
                marks: *marks,
                singles: *singles,
            },
            (Ok(grid), None) => Parsed::Grid(*grid),
        }
    }

    /// The puzzle, or the reason there is none.
    #[inline]
    pub fn puzzle(&self) -> Result<Puzzle<'_>, Reason> {
        match self {
            Parsed::Grid(grid) => Ok(Puzzle::Grid(grid)),
            Parsed::Marks { marks, .. } => Ok(Puzzle::Marks(marks)),
            Parsed::Board(board) => Ok(Puzzle::Board(board)),
            Parsed::Bad(reason) => Err(*reason),
        }
    }

    /// True when the record was read as a variant board (well formed or not).
    #[inline]
    pub fn is_board(&self) -> bool {
        matches!(self, Parsed::Board(_) | Parsed::Bad(Reason::Board(_)))
    }

    /// The row's cells: the puzzle (`raw`, the text as read, for a record that holds
    /// none, and for pencil marks) and the `solution` found, a board's written in its
    /// alphabet into `texts`.
    #[inline]
    pub fn cells<'a>(
        &'a self,
        raw: &'a [u8],
        solution: Option<&'a Solution>,
        boards: &BoardSetup,
        texts: &'a mut BoardTexts,
    ) -> (Cells<'a>, Option<Cells<'a>>) {
        let grid = || solution.and_then(Solution::grid).map(Cells::Grid);
        match self {
            Parsed::Grid(puzzle) => (Cells::Grid(puzzle), grid()),
            Parsed::Marks { singles, .. } => (Cells::Marks { text: raw, singles }, grid()),
            Parsed::Board(board) => Cells::board(
                board,
                solution.and_then(Solution::board),
                boards.symbols(board.side()),
                texts,
            ),
            Parsed::Bad(_) => (Cells::Raw(raw), None),
        }
    }
}

/// How a run reads variant boards: the rules, and the alphabet of each size made once.
#[derive(Clone, Debug)]
pub struct BoardSetup {
    rules: BoardRules,
    all: bool,
    alphabets: [Symbols; 4],
}

impl BoardSetup {
    /// The setup for `rules` (checked by [`BoardRules::check`] beforehand).
    pub fn new(rules: BoardRules) -> BoardSetup {
        let alphabets = SIDES.map(|side| rules.symbols_for(side));
        BoardSetup {
            all: rules.all_boards(),
            rules,
            alphabets,
        }
    }

    /// The rules' variant.
    pub fn variant(&self) -> Variant {
        self.rules.variant
    }

    /// The alphabet of boards of `side`.
    pub fn symbols(&self, side: usize) -> &Symbols {
        let slot = SIDES.iter().position(|&s| s == side).unwrap_or(3);
        &self.alphabets[slot]
    }

    /// True when `record` is read as a variant board: always under rules other than
    /// classic 9x9, else when its text has 16, 256 or 625 cells.
    #[inline]
    fn takes(&self, record: &Record<'_>) -> bool {
        self.all
            || (matches!(record.puzzle, Err(RecordError::Parse(_)))
                && record.marks.is_none()
                && board_length(record.raw.trim_ascii()))
    }
    /// True when an in-memory record's `text` (trimmed) is read as a variant board:
    /// always under rules other than classic 9x9, else when it has 16, 256 or 625
    /// cells.
    pub fn takes_text(&self, text: &[u8]) -> bool {
        self.all || board_length(text)
    }

    /// An in-memory record's `text` read as a variant board by the run's rules.
    pub fn parse_text(&self, text: &[u8]) -> Result<Board, BoardError> {
        Board::parse(text, self.rules.size, self.rules.symbols.as_ref())
    }

    /// `record` read as a variant board by the run's rules.
    fn parse(&self, record: &Record<'_>) -> Result<Board, BoardError> {
        let rules = &self.rules;
        match (&record.puzzle, &record.marks) {
            (Ok(grid), None) if rules.symbols.is_none() && rules.size.is_none_or(|s| s == 9) => {
                Ok(Board::from_grid(grid))
            }
            _ => Board::parse(record.raw, rules.size, rules.symbols.as_ref()),
        }
    }

    /// Whether the input's solution (read by the run's rules, like the puzzle) is not
    /// the board `found`; `None` when the input gave none.
    pub(super) fn mismatch(&self, record: &Record<'_>, found: Option<&Solution>) -> Option<bool> {
        let found = found.and_then(Solution::board);
        match (record.expected_text, &record.expected, found) {
            (None, None, _) => None,
            (Some(text), _, Some(found)) => Some(
                Board::parse(text, Some(found.side()), self.rules.symbols.as_ref()) != Ok(*found),
            ),
            // Printed grids give a solution but no text of it.
            (None, Some(Ok(expected)), Some(found)) => Some(Board::from_grid(expected) != *found),
            _ => Some(true),
        }
    }
}

/// True when `text` has the cells of a 4x4, 16x16 or 25x25 board (a 9x9 one is a grid).
#[inline]
fn board_length(text: &[u8]) -> bool {
    matches!(text.len(), 16 | 256 | 625)
}

impl Default for BoardSetup {
    fn default() -> Self {
        BoardSetup::new(BoardRules::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::input::{detect_layout_as, for_each_record_of, Choice, Format};

    /// What a parse says, comparable.
    fn said(parsed: &Parsed) -> String {
        match parsed.puzzle() {
            Ok(Puzzle::Grid(g)) => format!("grid {g:?}"),
            Ok(Puzzle::Marks(m)) => format!("marks {m:?}"),
            Ok(Puzzle::Board(b)) => format!("board {b:?}"),
            Err(reason) => format!("bad {reason}"),
        }
    }

    /// A text read in memory and the same text found on a line are the same puzzle, with
    /// the same row cells, under classic and variant rules.
    #[test]
    fn a_text_and_its_line_read_alike() {
        let grid =
            "1...............................................................................9";
        let marks: String = "123456789".repeat(81);
        let texts = [
            grid.to_string(),
            marks,
            "1234341221434321".to_string(),
            "12x4341221434321".to_string(),
            "....".to_string(),
        ];
        // (A line may also hold notes and a solution beside its puzzle, which the input
        // layer sets apart; an in-memory text is the puzzle alone, so `# note` is a bad
        // byte there, not a note. Texts that are one token read alike.)
        for rules in [
            BoardRules::default(),
            BoardRules::parse(Some(4), None, None).unwrap(),
        ] {
            let boards = BoardSetup::new(rules);
            let data = texts.join("\n") + "\n";
            let choice = Choice {
                format: Some(Format::Lines),
                ..Choice::default()
            };
            let mut layout = detect_layout_as(data.as_bytes(), &choice).unwrap();
            layout.every_line = true;
            let mut found = Vec::new();
            for_each_record_of(data.as_bytes(), &layout, |record| {
                let parsed = Parsed::of_record(&record, &boards);
                let mut texts = (
                    [0; crate::values::geometry::MAX_CELLS],
                    [0; crate::values::geometry::MAX_CELLS],
                );
                let cells = format!("{:?}", parsed.cells(record.raw, None, &boards, &mut texts));
                found.push((said(&parsed), parsed.is_board(), cells));
            });
            assert_eq!(found.len(), texts.len());
            for (text, (said_there, board, cells_there)) in texts.iter().zip(&found) {
                let parsed = Parsed::of_text(text.as_bytes(), &boards);
                assert_eq!(&said(&parsed), said_there, "{text}");
                assert_eq!(parsed.is_board(), *board, "{text}");
                let mut texts = (
                    [0; crate::values::geometry::MAX_CELLS],
                    [0; crate::values::geometry::MAX_CELLS],
                );
                let cells = format!(
                    "{:?}",
                    parsed.cells(text.as_bytes(), None, &boards, &mut texts)
                );
                assert_eq!(&cells, cells_there, "{text}");
            }
        }
    }
}
