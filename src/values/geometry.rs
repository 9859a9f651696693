//! Geometries: n²×n² grids for n = 2..5 (4x4, 9x9, 16x16, 25x25) under a rule set
//! (`classic`, `diagonal`, `windoku`), as lists of units (groups of cells that hold every
//! symbol once), with the tables every engine, the generator and the grader walk: the
//! units of each cell, each cell's peers, and the pairs of units that cross.

use std::fmt;

/// Largest side (25x25).
pub const MAX_SIDE: usize = 25;
/// Most cells (25x25).
pub const MAX_CELLS: usize = MAX_SIDE * MAX_SIDE;
/// Most units one cell belongs to: row, column, box, and both diagonals or one window.
pub const UNITS_PER_CELL: usize = 5;

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
/// into their own fixed storage or keep it and read them.
#[derive(Clone, Debug)]
pub struct Geometry {
    box_side: usize,
    variant: Variant,
    units: Vec<UnitCells>,
    /// Units of each cell, in unit order (`of_cell_len[cell]` of them).
    of_cell: Box<[[u8; UNITS_PER_CELL]]>,
    of_cell_len: Box<[u8]>,
    /// `peers[peer_start[c]..peer_start[c + 1]]`: the cells sharing a unit with `c`,
    /// in increasing order.
    peer_start: Box<[u32]>,
    peers: Box<[u16]>,
    /// Pairs of units sharing two or more cells (first, second), each order once.
    crossings: Box<[(u8, u8)]>,
    /// `shared[u * units + o]`: positions in unit `u` of the cells unit `o` holds too.
    shared: Box<[u32]>,
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
        Ok(Geometry::with_units(box_side, variant, units))
    }

    /// The geometry of `units`, with its derived tables.
    fn with_units(box_side: usize, variant: Variant, units: Vec<UnitCells>) -> Geometry {
        let cells = box_side.pow(4);
        debug_assert!(units.len() <= usize::from(u8::MAX));
        let mut of_cell = vec![[0u8; UNITS_PER_CELL]; cells];
        let mut of_cell_len = vec![0u8; cells];
        for (u, unit) in units.iter().enumerate() {
            for &c in &unit.cells {
                let c = usize::from(c);
                of_cell[c][usize::from(of_cell_len[c])] = u as u8;
                of_cell_len[c] += 1;
            }
        }
        let mut peer_start = Vec::with_capacity(cells + 1);
        let mut peers = Vec::new();
        let mut seen = vec![false; cells];
        for cell in 0..cells {
            peer_start.push(peers.len() as u32);
            let start = peers.len();
            for &u in &of_cell[cell][..usize::from(of_cell_len[cell])] {
                for &p in &units[usize::from(u)].cells {
                    if usize::from(p) != cell && !std::mem::replace(&mut seen[usize::from(p)], true)
                    {
                        peers.push(p);
                    }
                }
            }
            peers[start..].sort_unstable();
            for &p in &peers[start..] {
                seen[usize::from(p)] = false;
            }
        }
        peer_start.push(peers.len() as u32);
        let mut crossings = Vec::new();
        for (a, first) in units.iter().enumerate() {
            for b in (0..units.len()).filter(|&b| b != a) {
                let in_b = |c: &&u16| {
                    let c = usize::from(**c);
                    of_cell[c][..usize::from(of_cell_len[c])].contains(&(b as u8))
                };
                if first.cells.iter().filter(in_b).count() >= 2 {
                    crossings.push((a as u8, b as u8));
                }
            }
        }
        let mut shared = vec![0u32; units.len() * units.len()];
        for (u, unit) in units.iter().enumerate() {
            for (k, &c) in unit.cells.iter().enumerate() {
                let c = usize::from(c);
                for &o in &of_cell[c][..usize::from(of_cell_len[c])] {
                    shared[u * units.len() + usize::from(o)] |= 1 << k;
                }
            }
        }
        Geometry {
            box_side,
            variant,
            shared: shared.into(),
            units,
            of_cell: of_cell.into(),
            of_cell_len: of_cell_len.into(),
            peer_start: peer_start.into(),
            peers: peers.into(),
            crossings: crossings.into(),
        }
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

    /// The units `cell` belongs to, as indexes into [`Geometry::units`], in order.
    #[inline]
    pub fn units_of(&self, cell: usize) -> &[u8] {
        &self.of_cell[cell][..usize::from(self.of_cell_len[cell])]
    }

    /// True when `cell` is in unit `unit`.
    #[inline]
    pub fn shares(&self, unit: usize, cell: u16) -> bool {
        self.units_of(usize::from(cell)).contains(&(unit as u8))
    }

    /// The cells sharing a unit with `cell` (not `cell` itself), in increasing order.
    #[inline]
    pub fn peers(&self, cell: usize) -> &[u16] {
        let (from, to) = (self.peer_start[cell], self.peer_start[cell + 1]);
        &self.peers[from as usize..to as usize]
    }

    /// Pairs of units that share two or more cells (a box and a row it crosses, two
    /// windows' rows ...), both orders listed.
    pub fn crossings(&self) -> &[(u8, u8)] {
        &self.crossings
    }

    /// The positions in `unit` (bit `k` for its `k`-th cell) of the cells that unit
    /// `other` holds too.
    #[inline]
    pub fn shared(&self, unit: usize, other: usize) -> u32 {
        self.shared[unit * self.units.len() + other]
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

    /// Every table against a plain reading of the units.
    #[test]
    fn derived_tables_match_the_units() {
        for side in [4, 9, 16, 25] {
            for variant in [Variant::Classic, Variant::Diagonal, Variant::Windoku] {
                let Ok(g) = Geometry::new(side, variant) else {
                    continue;
                };
                let units = g.units();
                for cell in 0..g.cells() {
                    let c = cell as u16;
                    let mine: Vec<u8> = (0..units.len())
                        .filter(|&u| units[u].cells.contains(&c))
                        .map(|u| u as u8)
                        .collect();
                    assert_eq!(g.units_of(cell), &mine[..], "{} cell {cell}", g.name());
                    let mut peers: Vec<u16> = (0..g.cells() as u16)
                        .filter(|&p| {
                            p != c
                                && units
                                    .iter()
                                    .any(|u| u.cells.contains(&p) && u.cells.contains(&c))
                        })
                        .collect();
                    peers.sort_unstable();
                    assert_eq!(g.peers(cell), &peers[..], "{} cell {cell}", g.name());
                }
                let crossings: Vec<(u8, u8)> = (0..units.len())
                    .flat_map(|a| (0..units.len()).map(move |b| (a, b)))
                    .filter(|&(a, b)| {
                        a != b
                            && units[a]
                                .cells
                                .iter()
                                .filter(|c| units[b].cells.contains(c))
                                .count()
                                >= 2
                    })
                    .map(|(a, b)| (a as u8, b as u8))
                    .collect();
                assert_eq!(g.crossings(), &crossings[..], "{}", g.name());
                for (u, unit) in units.iter().enumerate() {
                    for (o, other) in units.iter().enumerate() {
                        let plain = (0..side)
                            .filter(|&k| other.cells.contains(&unit.cells[k]))
                            .fold(0u32, |m, k| m | 1 << k);
                        assert_eq!(g.shared(u, o), plain, "{} {unit} {other}", g.name());
                    }
                }
            }
        }
        let classic = Geometry::new(9, Variant::Classic).unwrap();
        assert_eq!(classic.peers(0).len(), 20);
        // Box 1 crosses rows 1-3 and columns 1-3, and each of them crosses it.
        assert_eq!(classic.crossings().len(), 9 * 6 * 2);
        assert_eq!(
            Geometry::new(9, Variant::Diagonal).unwrap().peers(40).len(),
            20 + 8 + 4
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
