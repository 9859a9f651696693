//! The solved board read back into a grid, branch-free.

#[cfg(target_arch = "x86_64")]
use super::lanes;
use super::Solver;
use crate::values::grid::{Grid, CELLS};

impl Solver {
    /// Reads the solved board back into a grid, branch-free: each band's cells as four
    /// bit planes of their digit (1-9), spread into bytes ([`band_digits`]). A loop over
    /// each mask's set bits cost a likely mispredicted exit per mask, 27 a solution: 3%
    /// of the samples on puzzles that take few guesses.
    #[inline(always)]
    pub(super) fn solution(&self) -> Grid {
        let c = &self.board.candidates;
        let mut cells = [0u8; CELLS];
        for band in 0..3 {
            let m = |digit: usize| c[digit * 3 + band];
            // Plane k holds the cells whose digit (1-9) has bit k set.
            let planes = [
                m(0) | m(2) | m(4) | m(6) | m(8),
                m(1) | m(2) | m(5) | m(6),
                m(3) | m(4) | m(5) | m(6),
                m(7) | m(8),
            ];
            let bytes = band_digits(planes);
            cells[band * 27..band * 27 + 27].copy_from_slice(&bytes[..27]);
        }
        Grid::from_solver_cells(cells)
    }
}

/// A band's cells as bytes from its four digit planes (27-bit masks): byte `j` has
/// bit `k` set where plane `k` has bit `j`; bytes 27..32 are zero. Each plane is spread
/// eight cells at a time ([`spread_bits`]).
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
pub(super) fn band_digits_scalar(planes: [u32; 4]) -> [u8; 32] {
    let mut bytes = [0u8; 32];
    for (chunk, out) in bytes.chunks_exact_mut(8).enumerate() {
        let mut value = 0u64;
        for (k, plane) in planes.iter().enumerate() {
            value |= spread_bits(plane >> (8 * chunk) & 0xff) << k;
        }
        out.copy_from_slice(&value.to_le_bytes());
    }
    bytes
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(super) fn band_digits(planes: [u32; 4]) -> [u8; 32] {
    band_digits_scalar(planes)
}

/// `band_digits_scalar` in SSE2: sixteen cells a vector instead of eight a word.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn band_digits(planes: [u32; 4]) -> [u8; 32] {
    let bytes = lanes::band_digits_sse2(planes);
    #[cfg(test)]
    assert_eq!(bytes, band_digits_scalar(planes));
    bytes
}

/// Eight bits (`bits` < 256) as eight bytes, byte `j` holding bit `j` (0 or 1).
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
pub(super) fn spread_bits(bits: u32) -> u64 {
    // Byte j of the product keeps bit j of `bits` in place (0 or 2^j, at most 0x80);
    // adding 0x7f to each byte then sets its top bit exactly when that bit was set,
    // with no carry into the next byte.
    let isolated = u64::from(bits).wrapping_mul(0x0101_0101_0101_0101) & 0x8040_2010_0804_0201;
    ((isolated + 0x7f7f_7f7f_7f7f_7f7f) >> 7) & 0x0101_0101_0101_0101
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::solver::tables::BAND_ALL;
    use crate::engines::solver::tests::{bundled, grid};

    #[test]
    fn spread_bits_puts_each_bit_in_its_own_byte() {
        for bits in 0..256u32 {
            let expect = (0..8).fold(0u64, |acc, j| acc | u64::from(bits >> j & 1) << (8 * j));
            assert_eq!(spread_bits(bits), expect, "{bits:#x}");
        }
    }

    #[test]
    fn band_digits_put_each_cells_plane_bits_in_its_byte() {
        // Planes from a fixed xorshift stream, and the four single-bit planes.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x as u32) & BAND_ALL
        };
        let mut cases: Vec<[u32; 4]> = (0..27).map(|j| [1 << j, 0, 1 << j, 0]).collect();
        cases.extend((0..10_000).map(|_| [next(), next(), next(), next()]));
        for planes in cases {
            let bytes = band_digits(planes);
            for (j, &byte) in bytes.iter().enumerate() {
                let expect = (0..4).fold(0u8, |acc, k| acc | ((planes[k] >> j & 1) as u8) << k);
                assert_eq!(byte, expect, "{planes:x?} cell {j}");
            }
        }
    }

    /// The board read back cell by cell, as the branch-free planes must agree with, on
    /// the 2,000 solution grids of `data/quizzes.csv` loaded as givens.
    #[test]
    fn a_solved_board_reads_back_as_its_grid() {
        let text = bundled("quizzes.csv");
        let mut solver = Solver::new();
        let mut n = 0;
        for line in text.lines().skip(1) {
            let solution = grid(line.split(',').nth(1).unwrap());
            assert!(solver.load(&solution));
            let mut cells = [0u8; CELLS];
            for (i, cell) in cells.iter_mut().enumerate() {
                let (band, bit) = (i / 27, i % 27);
                let digits: Vec<usize> = (0..9)
                    .filter(|d| solver.board.candidates[d * 3 + band] >> bit & 1 == 1)
                    .collect();
                assert_eq!(digits.len(), 1);
                *cell = digits[0] as u8 + 1;
            }
            assert_eq!(solver.solution().cells(), &cells);
            assert_eq!(solver.solution(), solution);
            n += 1;
        }
        assert_eq!(n, 2_000);
    }
}
