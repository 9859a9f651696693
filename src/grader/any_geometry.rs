//! Grading variant boards (4x4 to 25x25, diagonal, windoku) with the techniques that
//! carry over unchanged to any set of units: hidden singles (in boxes and windows, then
//! in rows, columns and diagonals), naked singles, pointing and claiming (a value's
//! places in one unit all inside a second unit clear the rest of the second), naked and
//! hidden pairs; past those, the step is a guess. Ratings and levels are the 9x9
//! grader's, so a board that needs fish, wings or chains there rates as a guess here
//! (extreme): an upper bound for those, exact for boards that fall to the listed steps.
//!
//! The geometry (units, peers, crossing units) is made once per size; grading a board
//! allocates nothing.

use super::{Grade, Level, Technique, TECHNIQUES};
use crate::variant::{Board, Geometry, GeometryError, PerSize, UnitKind, Variant, MAX_CELLS};

/// True for boxes and windows, false for lines (rows, columns, diagonals).
fn is_box(geometry: &Geometry, unit: usize) -> bool {
    matches!(
        geometry.units()[unit].kind,
        UnitKind::Box | UnitKind::Window
    )
}

/// The pencil-mark state of one board being graded.
struct BoardCandidates {
    values: [u8; MAX_CELLS],
    /// Candidates per cell, bit `v - 1`.
    candidates: [u32; MAX_CELLS],
    empty: usize,
}

impl BoardCandidates {
    fn place(&mut self, geometry: &Geometry, cell: usize, value: u8) {
        self.values[cell] = value;
        self.candidates[cell] = 0;
        self.empty -= 1;
        let bit = 1u32 << (value - 1);
        for &peer in geometry.peers(cell) {
            self.candidates[usize::from(peer)] &= !bit;
        }
    }

    /// Removes the candidates `bits` from `cells`; true when any cell had one.
    fn remove(&mut self, cells: impl IntoIterator<Item = u16>, bits: u32) -> bool {
        let mut removed = false;
        for c in cells {
            let c = usize::from(c);
            removed |= self.candidates[c] & bits != 0;
            self.candidates[c] &= !bits;
        }
        removed
    }

    /// Cells of `unit` that may take the value of `bit`, as positions in the unit.
    fn places(&self, geometry: &Geometry, unit: usize, bit: u32) -> u32 {
        let mut places = 0;
        for (k, &c) in geometry.units()[unit].cells.iter().enumerate() {
            if self.candidates[usize::from(c)] & bit != 0 {
                places |= 1 << k;
            }
        }
        places
    }

    /// A hidden single in a box (`boxes`) or a line.
    fn hidden_single(&mut self, geometry: &Geometry, boxes: bool) -> bool {
        for unit in (0..geometry.units().len()).filter(|&u| is_box(geometry, u) == boxes) {
            for v in 0..geometry.side() {
                let places = self.places(geometry, unit, 1 << v);
                if places.count_ones() == 1 {
                    let cell = geometry.units()[unit].cells[places.trailing_zeros() as usize];
                    self.place(geometry, usize::from(cell), v as u8 + 1);
                    return true;
                }
            }
        }
        false
    }

    fn naked_single(&mut self, geometry: &Geometry) -> bool {
        let cells = geometry.cells();
        let found =
            (0..cells).find(|&c| self.values[c] == 0 && self.candidates[c].count_ones() == 1);
        if let Some(cell) = found {
            let value = self.candidates[cell].trailing_zeros() as u8 + 1;
            self.place(geometry, cell, value);
        }
        found.is_some()
    }

    /// A value's places in `a` all inside `b`, with `b` (first unit a box: pointing;
    /// a line: claiming).
    fn locked(&mut self, geometry: &Geometry, pointing: bool) -> bool {
        for &(a, b) in geometry.crossings() {
            let (a, b) = (usize::from(a), usize::from(b));
            if is_box(geometry, a) != pointing || is_box(geometry, b) == pointing {
                continue;
            }
            for v in 0..geometry.side() {
                let bit = 1u32 << v;
                let places = self.places(geometry, a, bit);
                let inside = geometry.units()[a]
                    .cells
                    .iter()
                    .enumerate()
                    .all(|(k, &c)| places & 1 << k == 0 || geometry.shares(b, c));
                if places == 0 || !inside {
                    continue;
                }
                let outside = geometry.units()[b]
                    .cells
                    .iter()
                    .filter(|&&c| !geometry.shares(a, c));
                if self.remove(outside.copied(), bit) {
                    return true;
                }
            }
        }
        false
    }

    fn naked_pair(&mut self, geometry: &Geometry) -> bool {
        for unit in geometry.units().iter().map(|u| &u.cells[..]) {
            for (i, &x) in unit.iter().enumerate() {
                let m = self.candidates[usize::from(x)];
                if m.count_ones() != 2 {
                    continue;
                }
                let Some(&y) = unit[i + 1..]
                    .iter()
                    .find(|&&y| self.candidates[usize::from(y)] == m)
                else {
                    continue;
                };
                let others = unit.iter().filter(|&&c| c != x && c != y);
                if self.remove(others.copied(), m) {
                    return true;
                }
            }
        }
        false
    }

    fn hidden_pair(&mut self, geometry: &Geometry) -> bool {
        for unit in 0..geometry.units().len() {
            for v in 0..geometry.side() {
                let pv = self.places(geometry, unit, 1 << v);
                if pv.count_ones() != 2 {
                    continue;
                }
                for w in v + 1..geometry.side() {
                    if self.places(geometry, unit, 1 << w) != pv {
                        continue;
                    }
                    let keep = (1u32 << v) | (1 << w);
                    let pair = [pv.trailing_zeros(), 31 - pv.leading_zeros()]
                        .map(|k| geometry.units()[unit].cells[k as usize]);
                    if self.remove(pair, !keep) {
                        return true;
                    }
                }
            }
        }
        false
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
    pub fn grade(&mut self, board: &Board) -> Result<Grade, GeometryError> {
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
        for (cell, &v) in board.values().iter().enumerate().take(cells) {
            if v != 0 {
                marks.place(geometry, cell, v);
            }
        }
        let mut grade = Grade {
            rating: 0,
            level: Level::Easy,
            uses: [0; TECHNIQUES],
        };
        while marks.empty > 0 {
            let step = if marks.hidden_single(geometry, true) {
                Some(Technique::HiddenSingleBox)
            } else if marks.hidden_single(geometry, false) {
                Some(Technique::HiddenSingleLine)
            } else if marks.naked_single(geometry) {
                Some(Technique::NakedSingle)
            } else if marks.locked(geometry, true) {
                Some(Technique::Pointing)
            } else if marks.locked(geometry, false) {
                Some(Technique::Claiming)
            } else if marks.naked_pair(geometry) {
                Some(Technique::NakedPair)
            } else if marks.hidden_pair(geometry) {
                Some(Technique::HiddenPair)
            } else {
                None
            };
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
    use crate::variant::VariantSolver;

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
}
