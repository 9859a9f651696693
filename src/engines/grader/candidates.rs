//! The grader's pencil-mark board: candidates per cell as a person keeps them, with the
//! unit tables the techniques walk.
//!
//! Cells are numbered row-major 0..81. Units are numbered 0..9 rows, 9..18 columns,
//! 18..27 boxes. A candidate mask has bit `d - 1` set when digit `d` may go in the cell.

use super::pencil::Pencil;
use crate::values::grid::{Grid, CELLS};

/// All nine digits.
pub const ALL: u16 = 0x1ff;

/// The cells of every unit.
pub static UNITS: [[u8; 9]; 27] = {
    let mut units = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut k = 0;
        while k < 9 {
            units[i][k] = (i * 9 + k) as u8;
            units[9 + i][k] = (k * 9 + i) as u8;
            units[18 + i][k] = ((i / 3 * 3 + k / 3) * 9 + i % 3 * 3 + k % 3) as u8;
            k += 1;
        }
        i += 1;
    }
    units
};

/// The row, column and box unit of every cell.
pub static CELL_UNITS: [[u8; 3]; CELLS] = {
    let mut out = [[0u8; 3]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (r, c) = (cell / 9, cell % 9);
        out[cell] = [r as u8, 9 + c as u8, 18 + (r / 3 * 3 + c / 3) as u8];
        cell += 1;
    }
    out
};

/// `SHARED[u][o]`: the positions in unit `u` (bit `k` for its `k`-th cell) of the
/// cells that unit `o` holds too.
pub static SHARED: [[u16; 27]; 27] = {
    let mut out = [[0u16; 27]; 27];
    let mut u = 0;
    while u < 27 {
        let mut o = 0;
        while o < 27 {
            let mut k = 0;
            while k < 9 {
                let mut j = 0;
                while j < 9 {
                    if UNITS[u][k] == UNITS[o][j] {
                        out[u][o] |= 1 << k;
                    }
                    j += 1;
                }
                k += 1;
            }
            o += 1;
        }
        u += 1;
    }
    out
};

/// The 20 peers of every cell (cells sharing a unit with it).
pub static PEERS: [[u8; 20]; CELLS] = {
    let mut out = [[0u8; 20]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (r, c) = (cell / 9, cell % 9);
        let mut n = 0;
        let mut other = 0;
        while other < CELLS {
            let (r2, c2) = (other / 9, other % 9);
            let same_box = r / 3 == r2 / 3 && c / 3 == c2 / 3;
            if other != cell && (r == r2 || c == c2 || same_box) {
                out[cell][n] = other as u8;
                n += 1;
            }
            other += 1;
        }
        cell += 1;
    }
    out
};

/// True when two cells share a unit.
#[inline]
pub fn sees(a: usize, b: usize) -> bool {
    a != b && (a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3))
}

/// A position as a solver by hand sees it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Candidates {
    /// Candidates of each empty cell; 0 for filled cells.
    pub candidates: [u16; CELLS],
    /// Digit of each filled cell, 0 when empty.
    pub values: [u8; CELLS],
    /// Empty cells left.
    pub empty: u8,
}

impl Candidates {
    /// The board after the givens of `puzzle`, with their peers' candidates removed;
    /// `None` when two givens clash.
    pub fn new(puzzle: &Grid) -> Option<Candidates> {
        let mut board = Candidates {
            candidates: [ALL; CELLS],
            values: [0; CELLS],
            empty: CELLS as u8,
        };
        for cell in 0..CELLS {
            let d = puzzle.get(cell);
            if d != 0 {
                if board.candidates[cell] & 1 << (d - 1) == 0 {
                    return None;
                }
                board.place(cell, d);
            }
        }
        Some(board)
    }

    /// Places digit `d` (1..=9) in `cell`, removing it from the peers' candidates.
    #[inline]
    pub fn place(&mut self, cell: usize, d: u8) {
        let bit = 1u16 << (d - 1);
        self.values[cell] = d;
        self.candidates[cell] = 0;
        self.empty -= 1;
        for &p in &PEERS[cell] {
            self.candidates[p as usize] &= !bit;
        }
    }

    /// Removes candidates `mask` from `cell`; true when any was there.
    #[inline]
    pub fn eliminate(&mut self, cell: usize, mask: u16) -> bool {
        let had = self.candidates[cell] & mask;
        self.candidates[cell] &= !mask;
        had != 0
    }

    /// Cells of `unit` (as a 9-bit mask of positions within the unit) where digit bit
    /// `bit` is a candidate.
    #[inline]
    pub fn positions(&self, unit: usize, bit: u16) -> u16 {
        let mut mask = 0;
        for (k, &c) in UNITS[unit].iter().enumerate() {
            if self.candidates[c as usize] & bit != 0 {
                mask |= 1 << k;
            }
        }
        mask
    }

    /// True when some empty cell has no candidate, or some unit has a digit with no
    /// place left.
    pub fn is_broken(&self) -> bool {
        if (0..CELLS).any(|c| self.values[c] == 0 && self.candidates[c] == 0) {
            return true;
        }
        (0..27).any(|unit| {
            let mut seen = 0u16;
            for &c in &UNITS[unit] {
                seen |= self.candidates[c as usize];
                if self.values[c as usize] != 0 {
                    seen |= 1 << (self.values[c as usize] - 1);
                }
            }
            seen != ALL
        })
    }
}

/// The 9x9 position as the techniques that hold on any geometry see it.
impl Pencil for Candidates {
    #[inline]
    fn side(&self) -> usize {
        9
    }
    #[inline]
    fn cells(&self) -> usize {
        CELLS
    }
    #[inline]
    fn unit_count(&self) -> usize {
        27
    }
    #[inline]
    fn cell_at(&self, unit: usize, k: usize) -> usize {
        usize::from(UNITS[unit][k])
    }
    #[inline]
    fn units_of(&self, cell: usize) -> &[u8] {
        &CELL_UNITS[cell]
    }
    #[inline]
    fn is_box(&self, unit: usize) -> bool {
        unit >= 18
    }
    #[inline]
    fn candidates(&self, cell: usize) -> u32 {
        u32::from(self.candidates[cell])
    }
    #[inline]
    fn place(&mut self, cell: usize, value: u8) {
        Candidates::place(self, cell, value);
    }
    #[inline]
    fn eliminate(&mut self, cell: usize, bits: u32) -> bool {
        Candidates::eliminate(self, cell, bits as u16)
    }
    #[inline]
    fn positions(&self, unit: usize, bit: u32) -> u32 {
        u32::from(Candidates::positions(self, unit, bit as u16))
    }
    #[inline]
    fn shared(&self, unit: usize, other: usize) -> u32 {
        u32::from(SHARED[unit][other])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree() {
        for cell in 0..CELLS {
            assert_eq!(PEERS[cell].len(), 20);
            for other in 0..CELLS {
                assert_eq!(sees(cell, other), PEERS[cell].contains(&(other as u8)));
            }
            for &u in &CELL_UNITS[cell] {
                assert!(UNITS[u as usize].contains(&(cell as u8)));
            }
        }
    }

    /// These compile-time tables are the 9x9 classic geometry's, in its order: the
    /// grader's techniques on 9x9 and on any geometry walk the same units.
    #[test]
    fn tables_are_the_classic_geometry() {
        let g =
            crate::values::geometry::Geometry::new(9, crate::values::geometry::Variant::Classic)
                .unwrap();
        for (u, unit) in g.units().iter().enumerate() {
            let cells: Vec<u8> = unit.cells.iter().map(|&c| c as u8).collect();
            assert_eq!(UNITS[u][..], cells[..], "unit {u}");
        }
        for u in 0..27 {
            for o in 0..27 {
                let board = Candidates::new(&Grid::EMPTY).unwrap();
                let plain = (0..9)
                    .filter(|&k| g.shares(o, g.units()[u].cells[k]))
                    .fold(0u32, |m, k| m | 1 << k);
                assert_eq!(Pencil::shared(&board, u, o), plain, "units {u} {o}");
                assert_eq!(g.shared(u, o), plain, "units {u} {o}");
            }
        }
        for cell in 0..CELLS {
            assert_eq!(CELL_UNITS[cell][..], *g.units_of(cell), "cell {cell}");
            let peers: Vec<u16> = PEERS[cell].iter().map(|&p| u16::from(p)).collect();
            assert_eq!(peers[..], *g.peers(cell), "cell {cell}");
        }
    }
}
