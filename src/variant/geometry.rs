//! Geometries: n²×n² grids for n = 2..5 (4x4, 9x9, 16x16, 25x25) under a rule set
//! (`classic`, `diagonal`, `windoku`), as lists of units (groups of cells that hold every
//! symbol once).

use std::fmt;

/// Largest side (25x25).
pub const MAX_SIDE: usize = 25;
/// Most cells (25x25).
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;

/// The rules beyond rows, columns and boxes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Rows, columns and boxes.
    #[default]
    Classic,
    /// Also both main diagonals (X-Sudoku).
    Diagonal,
    /// Also four extra 3x3 windows (9x9 only).
    Windoku,
}

impl Variant {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::Diagonal => "diagonal",
            Variant::Windoku => "windoku",
        }
    }

    /// The variant of a command-line name.
    pub fn parse(name: &str) -> Option<Variant> {
        match name.to_ascii_lowercase().as_str() {
            "classic" => Some(Variant::Classic),
            "diagonal" | "x" => Some(Variant::Diagonal),
            "windoku" => Some(Variant::Windoku),
            _ => None,
        }
    }
}

/// A geometry that does not exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GeometryError {
    /// The side is not 4, 9, 16 or 25.
    Size(usize),
    /// Windoku is defined on 9x9 only.
    Windoku(usize),
}

impl fmt::Display for GeometryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GeometryError::Size(n) => write!(f, "size {n}: expected 4, 9, 16 or 25"),
            GeometryError::Windoku(n) => {
                write!(f, "windoku is a 9x9 variant; size {n} has no windows")
            }
        }
    }
}

impl std::error::Error for GeometryError {}

/// Sides of the geometries, smallest first.
pub const SIDES: [usize; 4] = [4, 9, 16, 25];

/// Something made once per size of one variant (an engine's tables), when the first
/// board of that size arrives, and kept.
pub struct PerSize<T> {
    variant: Variant,
    slots: [Option<Box<T>>; 4],
}

impl<T> PerSize<T> {
    /// Nothing made yet, for boards of `variant`.
    pub fn new(variant: Variant) -> PerSize<T> {
        PerSize {
            variant,
            slots: [None, None, None, None],
        }
    }

    /// The rules.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The value for boards of `side`, made from its geometry by `make` the first time;
    /// `Err` when the geometry does not exist.
    pub fn get(
        &mut self,
        side: usize,
        make: impl FnOnce(&Geometry) -> T,
    ) -> Result<&mut T, GeometryError> {
        let slot = SIDES
            .iter()
            .position(|&s| s == side)
            .ok_or(GeometryError::Size(side))?;
        Ok(match &mut self.slots[slot] {
            Some(value) => value,
            empty => empty.insert(Box::new(make(&Geometry::new(side, self.variant)?))),
        })
    }
}

/// What kind of group a unit is (for messages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnitKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box.
    Box,
    /// The main diagonal (top left to bottom right).
    Diagonal,
    /// The anti-diagonal (top right to bottom left).
    AntiDiagonal,
    /// A windoku window.
    Window,
}

/// One unit: its kind, 1-based number among units of that kind, and its cells.
#[derive(Clone, Debug)]
pub struct UnitCells {
    /// The kind.
    pub kind: UnitKind,
    /// 1-based number among units of its kind.
    pub number: usize,
    /// Its cells, row-major indexes.
    pub cells: Vec<u16>,
}

impl fmt::Display for UnitCells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            UnitKind::Row => write!(f, "row {}", self.number),
            UnitKind::Column => write!(f, "column {}", self.number),
            UnitKind::Box => write!(f, "box {}", self.number),
            UnitKind::Diagonal => f.write_str("the main diagonal"),
            UnitKind::AntiDiagonal => f.write_str("the anti-diagonal"),
            UnitKind::Window => write!(f, "window {}", self.number),
        }
    }
}

/// A grid shape and its rules. Built once per run (it allocates); engines copy its tables
/// into their own fixed storage.
#[derive(Clone, Debug)]
pub struct Geometry {
    box_side: usize,
    variant: Variant,
    units: Vec<UnitCells>,
}

impl Geometry {
    /// The `side`x`side` geometry (`side` 4, 9, 16 or 25) under `variant`.
    pub fn new(side: usize, variant: Variant) -> Result<Geometry, GeometryError> {
        let box_side = match side {
            4 => 2,
            9 => 3,
            16 => 4,
            25 => 5,
            other => return Err(GeometryError::Size(other)),
        };
        if variant == Variant::Windoku && side != 9 {
            return Err(GeometryError::Windoku(side));
        }
        let mut units = Vec::new();
        let unit = |kind, number, cells: Vec<usize>| UnitCells {
            kind,
            number,
            cells: cells.into_iter().map(|c| c as u16).collect(),
        };
        for r in 0..side {
            units.push(unit(
                UnitKind::Row,
                r + 1,
                (0..side).map(|c| r * side + c).collect(),
            ));
        }
        for c in 0..side {
            units.push(unit(
                UnitKind::Column,
                c + 1,
                (0..side).map(|r| r * side + c).collect(),
            ));
        }
        for b in 0..side {
            let (top, left) = (b / box_side * box_side, b % box_side * box_side);
            let cells = (0..side)
                .map(|k| (top + k / box_side) * side + left + k % box_side)
                .collect();
            units.push(unit(UnitKind::Box, b + 1, cells));
        }
        match variant {
            Variant::Classic => {}
            Variant::Diagonal => {
                units.push(unit(
                    UnitKind::Diagonal,
                    1,
                    (0..side).map(|k| k * side + k).collect(),
                ));
                units.push(unit(
                    UnitKind::AntiDiagonal,
                    1,
                    (0..side).map(|k| k * side + side - 1 - k).collect(),
                ));
            }
            Variant::Windoku => {
                for (w, (top, left)) in [(1, 1), (1, 5), (5, 1), (5, 5)].into_iter().enumerate() {
                    let cells = (0..9).map(|k| (top + k / 3) * 9 + left + k % 3).collect();
                    units.push(unit(UnitKind::Window, w + 1, cells));
                }
            }
        }
        Ok(Geometry {
            box_side,
            variant,
            units,
        })
    }

    /// The geometry whose grids have `cells` cells, if any (16, 81, 256, 625).
    pub fn for_cells(cells: usize, variant: Variant) -> Result<Geometry, GeometryError> {
        let side = (1..=MAX_SIDE).find(|s| s * s == cells).unwrap_or(cells);
        Geometry::new(side, variant)
    }

    /// Symbols per unit (4, 9, 16 or 25).
    pub fn side(&self) -> usize {
        self.box_side * self.box_side
    }

    /// Side of a box (2..=5).
    pub fn box_side(&self) -> usize {
        self.box_side
    }

    /// Cells of a grid.
    pub fn cells(&self) -> usize {
        self.side() * self.side()
    }

    /// The rules.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Every unit: rows, columns, boxes, then the variant's.
    pub fn units(&self) -> &[UnitCells] {
        &self.units
    }

    /// `4x4 classic`, `9x9 diagonal`, ...
    pub fn name(&self) -> String {
        format!("{0}x{0} {1}", self.side(), self.variant.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_counts_and_every_unit_is_a_set_of_side_cells() {
        for (side, variant, count) in [
            (4, Variant::Classic, 12),
            (9, Variant::Classic, 27),
            (9, Variant::Diagonal, 29),
            (9, Variant::Windoku, 31),
            (16, Variant::Diagonal, 50),
            (25, Variant::Classic, 75),
        ] {
            let g = Geometry::new(side, variant).unwrap();
            assert_eq!(g.units().len(), count, "{}", g.name());
            for u in g.units() {
                let mut cells = u.cells.clone();
                cells.sort_unstable();
                cells.dedup();
                assert_eq!(cells.len(), side, "{u}");
                assert!(cells.iter().all(|&c| usize::from(c) < side * side));
            }
        }
        let g = Geometry::new(9, Variant::Windoku).unwrap();
        assert_eq!(g.units()[27].cells[..3], [10, 11, 12]);
        assert_eq!(g.units()[30].cells[8], 70);
        assert_eq!(
            Geometry::new(16, Variant::Classic).unwrap().units()[33].cells[..5],
            [4, 5, 6, 7, 20]
        );
    }

    #[test]
    fn bad_geometries_say_why() {
        assert_eq!(
            Geometry::new(12, Variant::Classic).unwrap_err(),
            GeometryError::Size(12)
        );
        assert_eq!(
            Geometry::new(16, Variant::Windoku).unwrap_err(),
            GeometryError::Windoku(16)
        );
        assert_eq!(
            Geometry::for_cells(256, Variant::Classic).unwrap().side(),
            16
        );
        assert_eq!(
            Geometry::for_cells(100, Variant::Classic).unwrap_err(),
            GeometryError::Size(10)
        );
        assert_eq!(
            Geometry::for_cells(99, Variant::Classic).unwrap_err(),
            GeometryError::Size(99)
        );
    }
}
