//! Grading variant boards (4x4 to 25x25, diagonal, windoku) with the techniques that
//! carry over unchanged to any set of units: hidden singles (in boxes and windows, then
//! in rows, columns and diagonals), naked singles, pointing and claiming (a value's
//! places in one unit all inside a second unit clear the rest of the second), naked and
//! hidden pairs; past those, the step is a guess. Ratings and levels are the 9x9
//! grader's, so a board that needs fish, wings or chains there rates as a guess here
//! (extreme): an upper bound for those, exact for boards that fall to the listed steps.
//!
//! The techniques are `pencil`'s, the same code the 9x9 grader runs, here on a view of
//! the board's candidates over its geometry. The geometry is made once per size;
//! grading a board allocates nothing.

use super::pencil::{self, Pencil};
use super::{PatternGrade, Technique, TECHNIQUES};
use crate::values::board::Board;
use crate::values::geometry::{Geometry, GeometryError, PerSize, UnitKind, Variant, MAX_CELLS};
use crate::values::level::Level;

/// The steps tried, easiest first: `pencil`'s singles, locked candidates and pairs, in
/// the 9x9 grader's order (which puts X-wing, 9x9 only, between the two pairs).
const STEPS: [Technique; 7] = [
    Technique::HiddenSingleBox,
    Technique::HiddenSingleLine,
    Technique::NakedSingle,
    Technique::Pointing,
    Technique::Claiming,
    Technique::NakedPair,
    Technique::HiddenPair,
];

/// The pencil-mark state of one board being graded.
struct BoardCandidates {
    values: [u8; MAX_CELLS],
    /// Candidates per cell, bit `v - 1`.
    candidates: [u32; MAX_CELLS],
    empty: usize,
}

/// A board's candidates on its geometry: what the techniques of `pencil` walk.
struct OnGeometry<'a> {
    marks: &'a mut BoardCandidates,
    geometry: &'a Geometry,
}

impl Pencil for OnGeometry<'_> {
    #[inline]
    fn side(&self) -> usize {
        self.geometry.side()
    }
    #[inline]
    fn cells(&self) -> usize {
        self.geometry.cells()
    }
    #[inline]
    fn unit_count(&self) -> usize {
        self.geometry.units().len()
    }
    #[inline]
    fn cell_at(&self, unit: usize, k: usize) -> usize {
        usize::from(self.geometry.units()[unit].cells[k])
    }
    #[inline]
    fn units_of(&self, cell: usize) -> &[u8] {
        self.geometry.units_of(cell)
    }
    #[inline]
    fn is_box(&self, unit: usize) -> bool {
        matches!(
            self.geometry.units()[unit].kind,
            UnitKind::Box | UnitKind::Window
        )
    }
    #[inline]
    fn candidates(&self, cell: usize) -> u32 {
        self.marks.candidates[cell]
    }
    #[inline]
    fn shared(&self, unit: usize, other: usize) -> u32 {
        self.geometry.shared(unit, other)
    }
    fn place(&mut self, cell: usize, value: u8) {
        let marks = &mut *self.marks;
        marks.values[cell] = value;
        marks.candidates[cell] = 0;
        marks.empty -= 1;
        let bit = 1u32 << (value - 1);
        for &peer in self.geometry.peers(cell) {
            marks.candidates[usize::from(peer)] &= !bit;
        }
    }
    #[inline]
    fn eliminate(&mut self, cell: usize, bits: u32) -> bool {
        let had = self.marks.candidates[cell] & bits;
        self.marks.candidates[cell] &= !bits;
        had != 0
    }
}

/// Grades variant boards of one variant, every size; tables made per size on first use.
pub struct BoardGrader {
    /// Geometries per size.
    geometries: PerSize<Geometry>,
    marks: Box<BoardCandidates>,
}

impl BoardGrader {
    /// A grader for boards of `variant`.
    pub fn new(variant: Variant) -> BoardGrader {
        BoardGrader {
            geometries: PerSize::new(variant),
            marks: Box::new(BoardCandidates {
                values: [0; MAX_CELLS],
                candidates: [0; MAX_CELLS],
                empty: 0,
            }),
        }
    }

    /// Grades `board` (meant for unique boards, whose givens do not clash).
    pub fn grade(&mut self, board: &Board) -> Result<PatternGrade, GeometryError> {
        let geometry: &Geometry = self.geometries.get(board.side(), Geometry::clone)?;
        let marks = &mut *self.marks;
        let cells = geometry.cells();
        let full = if geometry.side() == 32 {
            u32::MAX
        } else {
            (1u32 << geometry.side()) - 1
        };
        marks.values[..cells].fill(0);
        marks.candidates[..cells].fill(full);
        marks.empty = cells;
        let mut p = OnGeometry { marks, geometry };
        for (cell, &v) in board.values().iter().enumerate().take(cells) {
            if v != 0 {
                p.place(cell, v);
            }
        }
        let mut grade = PatternGrade {
            rating: 0,
            level: Level::Easy,
            uses: [0; TECHNIQUES],
        };
        while p.marks.empty > 0 {
            let step = STEPS.iter().copied().find(|&t| match t {
                Technique::HiddenSingleBox => pencil::hidden_single(&mut p, true),
                Technique::HiddenSingleLine => pencil::hidden_single(&mut p, false),
                Technique::NakedSingle => pencil::naked_single(&mut p),
                Technique::Pointing => pencil::locked(&mut p, true),
                Technique::Claiming => pencil::locked(&mut p, false),
                Technique::NakedPair => pencil::naked_subset(&mut p, 2),
                Technique::HiddenPair => pencil::hidden_subset(&mut p, 2),
                _ => false,
            });
            let technique = step.unwrap_or(Technique::Guess);
            let uses = &mut grade.uses[technique as usize];
            *uses = uses.saturating_add(1);
            grade.rating = grade.rating.max(technique.rating());
            if step.is_none() {
                break;
            }
        }
        grade.level = Level::of_rating(grade.rating);
        Ok(grade)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::variant::VariantSolver;

    /// Every step keeps the solution: on the bundled variant sets, a board the listed
    /// techniques finish ends on the engine's solution, and one they do not finish
    /// still holds the solution's value among every open cell's candidates.
    #[test]
    fn steps_keep_the_solution_on_bundled_boards() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/variants");
        let mut finished = 0;
        for (file, variant) in [
            ("solo-4x4.txt", Variant::Classic),
            ("solo-diagonal-9x9.txt", Variant::Diagonal),
            ("solo-diagonal-9x9-advanced.txt", Variant::Diagonal),
            ("wpf-gp-diagonal.txt", Variant::Diagonal),
            ("solo-16x16.txt", Variant::Classic),
            ("solo-diagonal-16x16.txt", Variant::Diagonal),
            ("solo-25x25.txt", Variant::Classic),
        ] {
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            let mut grader = BoardGrader::new(variant);
            let mut engine = VariantSolver::new(variant);
            for line in text.lines().take(60) {
                let puzzle = line.split_whitespace().next().unwrap();
                let board = Board::parse(puzzle.as_bytes(), None, None).unwrap();
                let solution = engine.count(&board, 1).unwrap().unwrap().first.unwrap();
                let grade = grader.grade(&board).unwrap();
                let marks = &grader.marks;
                for (cell, &v) in solution.values().iter().enumerate() {
                    match marks.values[cell] {
                        0 => assert!(marks.candidates[cell] & 1 << (v - 1) != 0, "{file}"),
                        placed => assert_eq!(placed, v, "{file}: {puzzle}"),
                    }
                }
                if grade.uses[Technique::Guess as usize] == 0 {
                    assert_eq!(marks.empty, 0);
                    finished += 1;
                }
                assert!(grade.rating >= Technique::HiddenSingleBox.rating());
            }
        }
        assert!(
            finished > 100,
            "{finished} boards finished by the listed techniques"
        );
    }

    /// The two graders run the same techniques: on 9x9 classic puzzles that fall to the
    /// board grader's steps, a puzzle read as a board gets the 9x9 grader's grade, use
    /// for use (past them the board grader guesses, or finds a path without the 9x9
    /// step it lacks).
    #[test]
    fn boards_of_9x9_grade_as_the_9x9_grader_does() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        let mut grader = BoardGrader::new(Variant::Classic);
        let (mut same, mut beyond) = (0, 0);
        for file in [
            "easy-50.txt",
            "pairs-easy.txt",
            "pairs-hard.txt",
            "hard.txt",
        ] {
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            for line in text.lines().filter(|l| !l.starts_with('#')) {
                let puzzle = line.split_whitespace().next().unwrap();
                let grid = crate::values::grid::Grid::parse(puzzle.as_bytes()).unwrap();
                let nine = super::super::grade(&grid).unwrap();
                let board = grader.grade(&Board::from_grid(&grid)).unwrap();
                let within = (0..TECHNIQUES)
                    .filter(|&t| nine.uses[t] > 0)
                    .all(|t| STEPS.iter().any(|&s| s as usize == t));
                if within {
                    assert_eq!(board.uses, nine.uses, "{file}: {puzzle}");
                    assert_eq!(board.rating, nine.rating, "{file}: {puzzle}");
                    same += 1;
                } else {
                    beyond += 1;
                }
            }
        }
        assert!(
            same > 200 && beyond > 100,
            "{same} within the steps, {beyond} beyond"
        );
    }
}
