//! A puzzle of any shape, and what is found for it: the one value that goes through every
//! layer (engines, jobs, rows, front ends).
//!
//! A record is a classic 9x9 [`Grid`], a pencil-mark puzzle ([`Marks`]) or a variant
//! [`Board`] (4x4 to 25x25, diagonal, windoku). Jobs take a [`Puzzle`] and give one
//! [`Answer`]; engines route by shape once per record, so the band solver's hot path
//! stays on `&Grid`.

use crate::values::board::Board;
use crate::values::geometry::GeometryError;
use crate::values::grid::{Clash, Grid};
use crate::values::marks::Marks;
use crate::values::search::{BoardClash, BoardCount, Classification, Outcome};
use crate::values::status::Status;

/// One well-formed puzzle, by shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Puzzle<'a> {
    /// A classic 9x9 grid.
    Grid(&'a Grid),
    /// A classic 9x9 pencil-mark puzzle.
    Marks(&'a Marks),
    /// A variant board.
    Board(&'a Board),
}

impl Puzzle<'_> {
    /// The puzzle's shape.
    pub fn shape(&self) -> Shape {
        match self {
            Puzzle::Grid(_) => Shape::Grid,
            Puzzle::Marks(_) => Shape::Marks,
            Puzzle::Board(_) => Shape::Board,
        }
    }
}

impl<'a> From<&'a Grid> for Puzzle<'a> {
    fn from(grid: &'a Grid) -> Puzzle<'a> {
        Puzzle::Grid(grid)
    }
}

impl<'a> From<&'a Marks> for Puzzle<'a> {
    fn from(marks: &'a Marks) -> Puzzle<'a> {
        Puzzle::Marks(marks)
    }
}

impl<'a> From<&'a Board> for Puzzle<'a> {
    fn from(board: &'a Board) -> Puzzle<'a> {
        Puzzle::Board(board)
    }
}

/// The shape of a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// Classic 9x9 grids.
    Grid,
    /// Pencil-mark puzzles.
    Marks,
    /// Variant boards.
    Board,
}

/// A set of shapes: what a job takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shapes(u8);

impl Shapes {
    /// Classic 9x9 grids only.
    pub const GRIDS: Shapes = Shapes(1);
    /// Grids and variant boards.
    pub const GRIDS_AND_BOARDS: Shapes = Shapes(1 | 4);
    /// Every shape.
    pub const ALL: Shapes = Shapes(1 | 2 | 4);

    const fn bit(shape: Shape) -> u8 {
        match shape {
            Shape::Grid => 1,
            Shape::Marks => 2,
            Shape::Board => 4,
        }
    }

    /// True when `shape` is in the set.
    #[inline]
    pub const fn contains(self, shape: Shape) -> bool {
        self.0 & Shapes::bit(shape) != 0
    }
}

/// A solution, in the puzzle's shape (a pencil-mark puzzle's is a grid).
///
/// Held inline, not boxed: an answer is made for every record and must not allocate.
/// The board variant's size (626 bytes) costs the 9x9 path nothing measurable (classify,
/// 196,632 17-clue records, one thread: 0.37-0.43 s before and after, Intel Xeon,
/// 2026-12).
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solution {
    /// A full 9x9 grid.
    Grid(Grid),
    /// A full variant board.
    Board(Board),
}

impl Solution {
    /// The grid, for a classic 9x9 solution.
    pub fn grid(&self) -> Option<&Grid> {
        match self {
            Solution::Grid(grid) => Some(grid),
            Solution::Board(_) => None,
        }
    }

    /// The board, for a variant solution.
    pub fn board(&self) -> Option<&Board> {
        match self {
            Solution::Board(board) => Some(board),
            Solution::Grid(_) => None,
        }
    }
}

/// Why a well-formed puzzle is `invalid`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Two givens of a 9x9 grid clash.
    Clash(Clash),
    /// Two givens of a variant board clash.
    BoardClash(BoardClash),
    /// The rules do not exist at the board's size (windoku beyond 9x9).
    Geometry(GeometryError),
    /// The job (or its engine) does not take puzzles of this shape.
    Refused(Shape),
}

/// What a job (or an engine) says of one record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer<E = ()> {
    /// The row's status.
    pub status: Status,
    /// A solution, when one was found.
    pub solution: Option<Solution>,
    /// Why the record is `invalid`, when that is for a reason of its own.
    pub problem: Option<Problem>,
    /// The job's own columns.
    pub extra: E,
}

impl Answer {
    /// `invalid`: the shape is not taken.
    pub fn refused(shape: Shape) -> Answer {
        Answer::plain(Status::Invalid, None, Some(Problem::Refused(shape)))
    }

    /// The answer of a first-solution search of a 9x9 grid.
    #[inline]
    pub fn solved(outcome: Outcome) -> Answer {
        match outcome {
            Outcome::Solved(s) => Answer::plain(Status::Solved, Some(Solution::Grid(s)), None),
            Outcome::Unsolvable => Answer::plain(Status::Unsolvable, None, None),
            Outcome::Invalid(c) => Answer::plain(Status::Invalid, None, Some(Problem::Clash(c))),
            Outcome::Undecided => Answer::plain(Status::Undecided, None, None),
        }
    }

    /// The answer of a 9x9 count to two.
    #[inline]
    pub fn classified(class: Classification) -> Answer {
        let grid = |s| Some(Solution::Grid(s));
        match class {
            Classification::Unique(s) => Answer::plain(Status::Unique, grid(s), None),
            Classification::Multiple(s) => Answer::plain(Status::Multiple, grid(s), None),
            Classification::Unsolvable => Answer::plain(Status::Unsolvable, None, None),
            Classification::Invalid(c) => {
                Answer::plain(Status::Invalid, None, Some(Problem::Clash(c)))
            }
            Classification::Undecided(s) => {
                Answer::plain(Status::Undecided, s.map(Solution::Grid), None)
            }
        }
    }

    /// The answer of a variant board's count, with `found` naming the status of a
    /// board with at least one solution (`solved`, or by count `unique`/`multiple`); a
    /// count that spent its budget is `undecided`.
    pub fn counted(
        counted: Result<Result<BoardCount, BoardClash>, GeometryError>,
        found: impl Fn(u64) -> Status,
    ) -> Answer {
        let board = |count: BoardCount| count.first.map(Solution::Board);
        match counted {
            Err(e) => Answer::plain(Status::Invalid, None, Some(Problem::Geometry(e))),
            Ok(Err(clash)) => {
                Answer::plain(Status::Invalid, None, Some(Problem::BoardClash(clash)))
            }
            // A search stops at its limit before it spends its budget, so a spent one
            // never reached it.
            Ok(Ok(count)) if count.spent => Answer::plain(Status::Undecided, board(count), None),
            Ok(Ok(count)) if count.solutions == 0 => Answer::plain(Status::Unsolvable, None, None),
            Ok(Ok(count)) => Answer::plain(found(count.solutions), board(count), None),
        }
    }

    #[inline]
    fn plain(status: Status, solution: Option<Solution>, problem: Option<Problem>) -> Answer {
        Answer {
            status,
            solution,
            problem,
            extra: (),
        }
    }

    /// The same answer with a job's own columns.
    #[inline]
    pub fn with<E>(self, extra: E) -> Answer<E> {
        Answer {
            status: self.status,
            solution: self.solution,
            problem: self.problem,
            extra,
        }
    }
}

impl<E> Answer<E> {
    /// True when two engines' answers for one puzzle say the same: the same status
    /// and, for a unique puzzle, the same solution (a puzzle with several solutions may
    /// show a different one from each).
    pub fn same_class<F>(&self, other: &Answer<F>) -> bool {
        self.status == other.status
            && (self.status != Status::Unique || self.solution == other.solution)
    }
}
