//! Loading a puzzle onto the board: givens (all their eliminations in one batch per
//! digit) or pencil marks.

#[cfg(target_arch = "x86_64")]
use super::lanes;
use super::propagate::fold_columns;
use super::tables::{column_cells, BAND_ALL, BOX_CELLS, SHRINK};
use super::{Solver, SPARSE_GIVENS};
use crate::values::grid::{Grid, CELLS};
use crate::values::marks::Marks;

impl Solver {
    /// Resets the board to pencil marks: every cell unsolved with exactly its marked
    /// candidates; propagation then places the cells that have one.
    #[inline(always)]
    pub(super) fn load_marks(&mut self, marks: &Marks) {
        for digit in 0..9 {
            for band in 0..3 {
                let mut mask = 0u32;
                for bit in 0..27 {
                    if marks.candidates(band * 27 + bit) >> digit & 1 == 1 {
                        mask |= 1 << bit;
                    }
                }
                self.board.candidates[digit * 3 + band] = mask;
            }
        }
        self.board.unsolved = [BAND_ALL; 3];
        self.seen = [u32::MAX; 28];
        self.sparse = false;
        // Marks are no givens: no rectangle is taken as a second solution.
        self.givens = [BAND_ALL; 3];
    }

    /// Resets the board to the givens with all their eliminations, in one batch per
    /// digit; false when two givens of a digit share a row, column or box.
    #[inline(always)]
    pub(super) fn load(&mut self, puzzle: &Grid) -> bool {
        let givens = &given_masks(puzzle.cells());
        let mut filled = [0u32; 3];
        for digit in 0..9 {
            for band in 0..3 {
                filled[band] |= givens[digit * 3 + band];
            }
        }
        for digit in 0..9 {
            let g = [
                givens[digit * 3],
                givens[digit * 3 + 1],
                givens[digit * 3 + 2],
            ];
            let all = g[0] | g[1] | g[2];
            let columns = fold_columns(all);
            // n givens of one digit need n distinct columns, rows and boxes.
            if columns.count_ones() != g[0].count_ones() + g[1].count_ones() + g[2].count_ones() {
                return false;
            }
            let taken = column_cells(columns);
            for band in 0..3 {
                let mask = g[band];
                let rows = [mask & 0x1ff, (mask >> 9) & 0x1ff, (mask >> 18) & 0x1ff];
                let row_cells = ((rows[0] != 0) as u32 * 0x1ff)
                    | ((rows[1] != 0) as u32 * (0x1ff << 9))
                    | ((rows[2] != 0) as u32 * (0x1ff << 18));
                let boxes = (SHRINK[rows[0] as usize]
                    | SHRINK[rows[1] as usize]
                    | SHRINK[rows[2] as usize]) as usize
                    & 7;
                let count = mask.count_ones();
                if row_cells.count_ones() != 9 * count || boxes.count_ones() != count {
                    return false;
                }
                self.board.candidates[digit * 3 + band] =
                    (BAND_ALL & !(row_cells | BOX_CELLS[boxes] | taken | filled[band])) | mask;
            }
        }
        let givens = filled[0].count_ones() + filled[1].count_ones() + filled[2].count_ones();
        self.sparse = givens <= SPARSE_GIVENS;
        self.givens = filled;
        self.board.unsolved = [
            BAND_ALL & !filled[0],
            BAND_ALL & !filled[1],
            BAND_ALL & !filled[2],
        ];
        // No 27-bit mask equals u32::MAX: every mask gets a first update.
        self.seen = [u32::MAX; 28];
        true
    }
}

/// The givens as band masks: `masks[digit * 3 + band]` (digit 0-based), bit `i` where
/// cell `band * 27 + i` holds `digit + 1`.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
pub(super) fn given_masks_scalar(cells: &[u8; CELLS]) -> [u32; 27] {
    // Slot `value * 3 + band`, branch-free: empty cells (value 0) land in slots 0..3,
    // which are ignored. Masking the index with 31 keeps it provably in bounds.
    let mut slots = [0u32; 32];
    for (band, cells) in cells.chunks_exact(27).enumerate() {
        for (bit, &value) in cells.iter().enumerate() {
            slots[(value as usize * 3 + band) & 31] |= 1 << bit;
        }
    }
    let mut masks = [0u32; 27];
    masks.copy_from_slice(&slots[3..30]);
    masks
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(super) fn given_masks(cells: &[u8; CELLS]) -> [u32; 27] {
    given_masks_scalar(cells)
}

/// `given_masks_scalar` by SSE2 byte compares (`lanes::given_masks_sse2`).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn given_masks(cells: &[u8; CELLS]) -> [u32; 27] {
    let masks = lanes::given_masks_sse2(cells);
    #[cfg(test)]
    assert_eq!(masks, given_masks_scalar(cells));
    masks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_masks_match_the_scalar_pass() {
        let solved =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let mut cells = [0u8; CELLS];
        for (i, b) in solved.bytes().enumerate() {
            cells[i] = b - b'0';
        }
        // Full, empty, and every cell emptied in turn down to one given (cell 80, read
        // only by the last load, and the band edges 26/27 and 53/54 among them).
        for keep in 0..=CELLS {
            let mut grid = cells;
            grid[..CELLS - keep].fill(0);
            assert_eq!(given_masks(&grid), given_masks_scalar(&grid), "{keep}");
            let mut reversed = cells;
            reversed[keep.min(CELLS)..].fill(0);
            assert_eq!(
                given_masks(&reversed),
                given_masks_scalar(&reversed),
                "{keep}"
            );
        }
    }
}
