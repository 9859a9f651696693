//! An independent, deliberately simple solution counter used to check the solver
//! (tests and fuzz targets include this file).

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
