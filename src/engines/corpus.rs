//! Corpus generation: large puzzle sets from real ones by validity-preserving transforms.
//!
//! Each output puzzle is a random source puzzle under a random symmetry of Sudoku:
//! digit relabelling, band and stack permutations, row permutations within bands,
//! column permutations within stacks, and transposition. These map solutions to
//! solutions one-to-one, so every transform keeps the puzzle's solution count (a unique
//! puzzle stays unique). The generator is deterministic for a given seed.

use crate::values::grid::{Grid, CELLS};

/// SplitMix64: a small, well-distributed, seedable generator (no dependency needed).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`), by Lemire's multiply-shift.
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

/// A symmetry of the Sudoku grid: where each row and column comes from, digit map, flip.
#[derive(Clone, Copy, Debug)]
pub struct Symmetry {
    rows: [usize; 9],
    cols: [usize; 9],
    digits: [u8; 10],
    transpose: bool,
}

impl Symmetry {
    /// A uniformly random symmetry.
    pub fn random(rng: &mut Rng) -> Symmetry {
        Symmetry {
            rows: line_permutation(rng),
            cols: line_permutation(rng),
            digits: {
                let mut d = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
                rng.shuffle(&mut d);
                let mut map = [0u8; 10];
                map[1..].copy_from_slice(&d);
                map
            },
            transpose: rng.below(2) == 1,
        }
    }

    /// Applies the symmetry to a grid.
    pub fn apply(&self, grid: &Grid) -> Grid {
        let mut out = Grid::EMPTY;
        for i in 0..CELLS {
            let (r, c) = (i / 9, i % 9);
            let (sr, sc) = (self.rows[r], self.cols[c]);
            let (sr, sc) = if self.transpose { (sc, sr) } else { (sr, sc) };
            out.set(i, self.digits[grid.get(sr * 9 + sc) as usize]);
        }
        out
    }
}

/// A permutation of 9 lines that keeps bands (or stacks) together: permute the three
/// groups, and the three lines inside each group.
fn line_permutation(rng: &mut Rng) -> [usize; 9] {
    let mut groups = [0usize, 1, 2];
    rng.shuffle(&mut groups);
    let mut out = [0usize; 9];
    for (g, &group) in groups.iter().enumerate() {
        let mut lines = [0usize, 1, 2];
        rng.shuffle(&mut lines);
        for (k, &line) in lines.iter().enumerate() {
            out[g * 3 + k] = group * 3 + line;
        }
    }
    out
}

/// Generates `count` puzzles from `sources`, calling `each` for every one in order.
pub fn generate(sources: &[Grid], count: u64, seed: u64, mut each: impl FnMut(&Grid)) {
    if sources.is_empty() {
        return;
    }
    let mut rng = Rng::new(seed);
    for _ in 0..count {
        let source = &sources[rng.below(sources.len() as u64) as usize];
        each(&Symmetry::random(&mut rng).apply(source));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_keep_solutions_valid() {
        let solved = Grid::parse(
            b"123456789456789123789123456312645978645978312978312645231564897564897231897231564",
        )
        .unwrap();
        let mut rng = Rng::new(7);
        for _ in 0..200 {
            assert!(Symmetry::random(&mut rng)
                .apply(&solved)
                .is_valid_solution());
        }
    }

    #[test]
    fn same_seed_same_output() {
        let g = Grid::parse(&[b'.'; 81]).unwrap();
        let mut a = Vec::new();
        let mut b = Vec::new();
        generate(&[g], 5, 3, |x| a.push(*x));
        generate(&[g], 5, 3, |x| b.push(*x));
        assert_eq!(a, b);
    }
}
