//! An independent, deliberately simple solution counter used to check the solver
//! (tests and fuzz targets include this file).
#![allow(dead_code)]

use sudoku_batch::Grid;

/// Counts solutions up to `limit` by plain backtracking: row/column/box masks, fewest
/// candidates first, no propagation. Written to share nothing with the real solver.
pub fn reference_count(grid: &Grid, limit: u64) -> u64 {
    let mut cells = *grid.cells();
    let mut rows = [0u16; 9];
    let mut cols = [0u16; 9];
    let mut boxes = [0u16; 9];
    for (i, &v) in cells.iter().enumerate() {
        if v == 0 {
            continue;
        }
        let bit = 1u16 << v;
        let (r, c, b) = (i / 9, i % 9, i / 27 * 3 + i % 9 / 3);
        if (rows[r] | cols[c] | boxes[b]) & bit != 0 {
            return 0;
        }
        rows[r] |= bit;
        cols[c] |= bit;
        boxes[b] |= bit;
    }
    fn go(
        cells: &mut [u8; 81],
        rows: &mut [u16; 9],
        cols: &mut [u16; 9],
        boxes: &mut [u16; 9],
        limit: u64,
    ) -> u64 {
        let mut best: Option<(usize, u16)> = None;
        for (i, &v) in cells.iter().enumerate() {
            if v != 0 {
                continue;
            }
            let (r, c, b) = (i / 9, i % 9, i / 27 * 3 + i % 9 / 3);
            let free = !(rows[r] | cols[c] | boxes[b]) & 0b11_1111_1110;
            if best.is_none_or(|(_, f)| free.count_ones() < f.count_ones()) {
                best = Some((i, free));
            }
        }
        let Some((i, free)) = best else { return 1 };
        let (r, c, b) = (i / 9, i % 9, i / 27 * 3 + i % 9 / 3);
        let mut found = 0;
        for v in 1..=9u8 {
            let bit = 1u16 << v;
            if free & bit == 0 {
                continue;
            }
            cells[i] = v;
            rows[r] |= bit;
            cols[c] |= bit;
            boxes[b] |= bit;
            found += go(cells, rows, cols, boxes, limit - found);
            cells[i] = 0;
            rows[r] &= !bit;
            cols[c] &= !bit;
            boxes[b] &= !bit;
            if found >= limit {
                break;
            }
        }
        found
    }
    go(&mut cells, &mut rows, &mut cols, &mut boxes, limit)
}

/// The units of a `side`x`side` board as lists of cells, computed here from coordinates
/// (rows, columns, boxes, then both diagonals when `diagonal`, the four windoku windows
/// when `windoku`), independently of the library's geometry.
pub fn reference_units(side: usize, diagonal: bool, windoku: bool) -> Vec<Vec<usize>> {
    let n = (1..=5)
        .find(|n| n * n == side)
        .expect("side 4, 9, 16 or 25");
    let mut units: Vec<Vec<usize>> = Vec::new();
    for r in 0..side {
        units.push((0..side).map(|c| r * side + c).collect());
    }
    for c in 0..side {
        units.push((0..side).map(|r| r * side + c).collect());
    }
    for br in 0..n {
        for bc in 0..n {
            let mut cells = Vec::new();
            for r in br * n..br * n + n {
                for c in bc * n..bc * n + n {
                    cells.push(r * side + c);
                }
            }
            units.push(cells);
        }
    }
    if diagonal {
        units.push((0..side).map(|k| k * (side + 1)).collect());
        units.push((1..=side).map(|k| k * (side - 1)).collect());
    }
    if windoku {
        for (top, left) in [(1, 1), (1, 5), (5, 1), (5, 5)] {
            let mut cells = Vec::new();
            for r in top..top + 3 {
                for c in left..left + 3 {
                    cells.push(r * 9 + c);
                }
            }
            units.push(cells);
        }
    }
    units
}

/// Counts solutions of a board (`values`: 0 empty, else 1..=side) up to `limit` by plain
/// backtracking over `units`, branching on whatever has the fewest options: a cell's
/// values, or a (unit, value)'s cells (the exact-cover rule). No propagation.
pub fn reference_count_board(values: &[u8], side: usize, units: &[Vec<usize>], limit: u64) -> u64 {
    let cells = side * side;
    let mut of_cell: Vec<Vec<usize>> = vec![Vec::new(); cells];
    for (u, unit) in units.iter().enumerate() {
        for &c in unit {
            of_cell[c].push(u);
        }
    }
    let mut used = vec![0u32; units.len()];
    let board = values.to_vec();
    for (i, &v) in board.iter().enumerate() {
        if v != 0 {
            for &u in &of_cell[i] {
                if used[u] & (1 << v) != 0 {
                    return 0;
                }
                used[u] |= 1 << v;
            }
        }
    }
    let all: u32 = ((1u64 << (side + 1)) - 2) as u32;
    struct Search<'a> {
        board: Vec<u8>,
        used: Vec<u32>,
        of_cell: Vec<Vec<usize>>,
        units: &'a [Vec<usize>],
        all: u32,
    }
    impl Search<'_> {
        fn free(&self, i: usize) -> u32 {
            self.all & !self.of_cell[i].iter().fold(0, |m, &u| m | self.used[u])
        }
        /// Places `v` in cell `i` (`on`) or takes it out again.
        fn set(&mut self, i: usize, v: u8, on: bool) {
            self.board[i] = if on { v } else { 0 };
            for k in 0..self.of_cell[i].len() {
                let u = self.of_cell[i][k];
                if on {
                    self.used[u] |= 1 << v;
                } else {
                    self.used[u] &= !(1 << v);
                }
            }
        }
        fn go(&mut self, limit: u64) -> u64 {
            // Fewest values for a cell...
            let mut cell: Option<(usize, u32)> = None;
            for i in 0..self.board.len() {
                if self.board[i] == 0 {
                    let free = self.free(i);
                    if cell.is_none_or(|(_, f)| free.count_ones() < f.count_ones()) {
                        cell = Some((i, free));
                    }
                }
            }
            let Some((i, free)) = cell else { return 1 };
            if free == 0 {
                return 0;
            }
            // ... or fewest cells for a value missing from a unit.
            let mut place: Option<(usize, u8, usize)> = None;
            if free.count_ones() > 1 {
                for (u, unit) in self.units.iter().enumerate() {
                    let missing = self.all & !self.used[u];
                    for v in (1..=31u8).filter(|v| missing & (1 << v) != 0) {
                        let n = unit
                            .iter()
                            .filter(|&&c| self.board[c] == 0 && self.free(c) & (1 << v) != 0)
                            .count();
                        if n < free.count_ones() as usize && place.is_none_or(|(_, _, m)| n < m) {
                            place = Some((u, v, n));
                        }
                    }
                }
            }
            let mut found = 0;
            match place {
                Some((_, _, 0)) => return 0,
                Some((u, v, _)) => {
                    let options: Vec<usize> = self.units[u]
                        .iter()
                        .copied()
                        .filter(|&c| self.board[c] == 0 && self.free(c) & (1 << v) != 0)
                        .collect();
                    for c in options {
                        self.set(c, v, true);
                        found += self.go(limit - found);
                        self.set(c, v, false);
                        if found >= limit {
                            break;
                        }
                    }
                }
                None => {
                    for v in (1..=31u8).filter(|v| free & (1 << v) != 0) {
                        self.set(i, v, true);
                        found += self.go(limit - found);
                        self.set(i, v, false);
                        if found >= limit {
                            break;
                        }
                    }
                }
            }
            found
        }
    }
    let mut search = Search {
        board,
        used,
        of_cell,
        units,
        all,
    };
    search.go(limit)
}

/// Cell values of a board written in the default symbols (`.` empty, `1`-`9`, then
/// letters from 10), read independently of the library's parser.
pub fn board_values(text: &str) -> Vec<u8> {
    text.bytes()
        .map(|b| match b {
            b'.' => 0,
            b'1'..=b'9' => b - b'0',
            _ => b.to_ascii_uppercase() - b'A' + 10,
        })
        .collect()
}
