//! The root's band passes as vector code (x86-64 with AVX2): a band's nine masks updated
//! at once, digits 0..8 as the eight 32-bit lanes of one AVX2 vector and digit 8 beside
//! them in scalar code, band by band while a band changed since its update.
//!
//! The rules are `update_mask`'s (the triad rule, claimed columns, row singles), applied
//! to the band's digits together instead of one mask after another; the fixed point they
//! reach is the same (each rule only removes candidates, so the order does not change
//! where they stop), and so are the masks' shapes there. Where two digits are each alone
//! in a row on the same cell, one after the other would have emptied a row of the second;
//! together, that is the dead end.
//!
//! Used for the root's propagation only, where every mask is new: there it spares the
//! per-mask checks and their mispredicted branches (Kaggle's puzzles, solved at the root,
//! 1.5x as fast on AMD Zen 2); after a guess, where a few masks change, the scalar passes
//! are faster (this code there cost the hard sets 7-11%).

use super::propagate::{fold_columns, row_singles, triad_keep};
use super::tables::CLAIMED_COLUMNS;
use super::Solver;
use std::arch::x86_64::*;

/// Each triad permutation's first cells (bit `row * 9 + box * 3`): a mask's triads fit
/// the permutation when the mask has a cell in each of those three triads.
const PERMUTATION_FIRSTS: [u32; 6] = {
    let mut firsts = [0u32; 6];
    let mut p = 0;
    while p < 6 {
        let order = super::tables::PERMUTATIONS[p];
        let mut row = 0;
        while row < 3 {
            firsts[p] |= 1 << (row * 9 + order[row] * 3);
            row += 1;
        }
        p += 1;
    }
    firsts
};

/// What `update_mask` finds, for eight masks of one band (lanes).
struct BandRules {
    /// The masks kept by the triad rule (zero in a lane: a dead end).
    kept: __m256i,
    /// The cells each digit's claimed columns take from its other two bands.
    claimed: __m256i,
    /// Each mask's cells alone in their row.
    singles: __m256i,
    /// Each mask's shape word, as `update_mask` stores it.
    shape: __m256i,
}

/// The band rules on eight masks at once (lane by lane what `update_mask` computes with
/// a table for one): a permutation of the triads is feasible when the mask has a cell
/// in each of its three triads, and the triads kept are those of some feasible
/// permutation; a box with one column left claims it; a row with one cell is a single.
///
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
unsafe fn band_rules(masks: __m256i) -> BandRules {
    let all = |x: u32| _mm256_set1_epi32(x as i32);
    let or3 = |a: __m256i, b: __m256i, c: __m256i| _mm256_or_si256(a, _mm256_or_si256(b, c));
    // Each triad's cells folded onto its first cell.
    let firsts = _mm256_and_si256(
        or3(
            masks,
            _mm256_srli_epi32(masks, 1),
            _mm256_srli_epi32(masks, 2),
        ),
        all(0x124_9249),
    );
    let (mut keep, mut open) = (_mm256_setzero_si256(), _mm256_setzero_si256());
    for permutation in PERMUTATION_FIRSTS {
        let p = all(permutation);
        let fits = _mm256_cmpeq_epi32(_mm256_and_si256(firsts, p), p);
        keep = _mm256_or_si256(keep, _mm256_and_si256(fits, p));
        // `fits` is -1 in a lane that fits: counting down adds one.
        open = _mm256_sub_epi32(open, fits);
    }
    let keep_cells = or3(keep, _mm256_slli_epi32(keep, 1), _mm256_slli_epi32(keep, 2));
    let kept = _mm256_and_si256(masks, keep_cells);
    let columns = _mm256_and_si256(
        or3(
            kept,
            _mm256_srli_epi32(kept, 9),
            _mm256_srli_epi32(kept, 18),
        ),
        all(0x1ff),
    );
    // Columns alone in their box (group of three): claimed.
    let c = columns;
    let others = or3(
        _mm256_and_si256(
            _mm256_or_si256(_mm256_srli_epi32(c, 1), _mm256_srli_epi32(c, 2)),
            all(0x49),
        ),
        _mm256_and_si256(
            _mm256_or_si256(_mm256_slli_epi32(c, 1), _mm256_srli_epi32(c, 1)),
            all(0x92),
        ),
        _mm256_and_si256(
            _mm256_or_si256(_mm256_slli_epi32(c, 1), _mm256_slli_epi32(c, 2)),
            all(0x124),
        ),
    );
    let lone = _mm256_andnot_si256(others, c);
    let claimed = or3(
        lone,
        _mm256_slli_epi32(lone, 9),
        _mm256_slli_epi32(lone, 18),
    );
    // `row_singles`, lane by lane (every row of a live kept mask has a cell).
    let rest = _mm256_and_si256(kept, _mm256_sub_epi32(kept, all(0x40201)));
    let carried = _mm256_add_epi32(
        _mm256_srli_epi32(rest, 1),
        all(0xff | 0xff << 9 | 0xff << 18),
    );
    let rows = _mm256_srli_epi32(
        _mm256_andnot_si256(carried, all(1 << 8 | 1 << 17 | 1 << 26)),
        8,
    );
    let singles = _mm256_and_si256(kept, _mm256_sub_epi32(_mm256_slli_epi32(rows, 9), rows));
    // The kept triads as a pattern (bit `row * 3 + box`), by shifts.
    let t = or3(keep, _mm256_srli_epi32(keep, 2), _mm256_srli_epi32(keep, 4));
    let pattern = or3(
        _mm256_and_si256(t, all(7)),
        _mm256_and_si256(_mm256_srli_epi32(t, 6), all(0x38)),
        _mm256_and_si256(_mm256_srli_epi32(t, 12), all(0x1c0)),
    );
    let shape = or3(
        pattern,
        _mm256_slli_epi32(columns, 9),
        _mm256_slli_epi32(open, 18),
    );
    BandRules {
        kept,
        claimed,
        singles,
        shape,
    }
}

/// The bits set in any lane, and in two lanes or more (both in lane 0).
///
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
unsafe fn any_and_twice(x: __m256i) -> (u32, u32) {
    let y = _mm256_permute2x128_si256(x, x, 1);
    let (any, twice) = (_mm256_or_si256(x, y), _mm256_and_si256(x, y));
    let (y, z) = (
        _mm256_shuffle_epi32(any, 0b01_00_11_10),
        _mm256_shuffle_epi32(twice, 0b01_00_11_10),
    );
    let twice = _mm256_or_si256(_mm256_or_si256(twice, z), _mm256_and_si256(any, y));
    let any = _mm256_or_si256(any, y);
    let (y, z) = (
        _mm256_shuffle_epi32(any, 0b10_11_00_01),
        _mm256_shuffle_epi32(twice, 0b10_11_00_01),
    );
    let twice = _mm256_or_si256(_mm256_or_si256(twice, z), _mm256_and_si256(any, y));
    let any = _mm256_or_si256(any, y);
    (
        _mm256_cvtsi256_si32(any) as u32,
        _mm256_cvtsi256_si32(twice) as u32,
    )
}

impl Solver {
    /// The band passes of [`Solver::propagate`] with each band's digits as vector lanes:
    /// false at a dead end, else every mask is at the fixed point of the band rules and
    /// up to date (`seen`, `shapes`), as after the scalar passes.
    ///
    /// Out of line, so that the scalar passes of the search around it compile as they
    /// did without it: inlined, it cost forum-hardest 2.8% on AMD Zen 2, out of line 1%.
    /// LLVM inlined it even so marked, so its caller reaches it through a pointer.
    ///
    /// # Safety
    /// The CPU must have AVX2 and the bit instructions (only the search copies compiled
    /// with them call this).
    #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx,avx2")]
    #[inline(never)]
    pub(super) unsafe fn band_passes_in_lanes<const KIT: u8>(&mut self) -> bool {
        let (c, s) = (&self.board.candidates, &self.seen);
        // Band `b`'s digits 0..8 in lanes; digit 8's mask beside them.
        let lanes = |m: &[u32; 28], b: usize| {
            _mm256_setr_epi32(
                m[b] as i32,
                m[3 + b] as i32,
                m[6 + b] as i32,
                m[9 + b] as i32,
                m[12 + b] as i32,
                m[15 + b] as i32,
                m[18 + b] as i32,
                m[21 + b] as i32,
            )
        };
        let mut masks = [lanes(c, 0), lanes(c, 1), lanes(c, 2)];
        let mut seen = [lanes(s, 0), lanes(s, 1), lanes(s, 2)];
        let (mut last, mut last_seen) = ([c[24], c[25], c[26]], [s[24], s[25], s[26]]);
        let mut shapes = [_mm256_setzero_si256(); 3];
        let mut updated = [false; 3];
        loop {
            let mut changed = false;
            for b in 0..3 {
                let same = _mm256_movemask_epi8(_mm256_cmpeq_epi32(masks[b], seen[b]));
                if same == -1 && last[b] == last_seen[b] {
                    continue;
                }
                changed = true;
                updated[b] = true;
                let rules = band_rules(masks[b]);
                let keep = triad_keep::<KIT>(last[b]);
                let kept = last[b] & keep as u32;
                let dead = _mm256_cmpeq_epi32(rules.kept, _mm256_setzero_si256());
                if _mm256_movemask_epi8(dead) != 0 || kept == 0 {
                    return false;
                }
                let columns = fold_columns(kept);
                self.board.shapes[24 + b] = (keep >> 32) as u32 | columns << 9;
                let claimed = CLAIMED_COLUMNS[columns as usize];
                let singles = row_singles(kept);
                let (any, twice) = any_and_twice(rules.singles);
                // A cell alone in its row for two digits: the dead end.
                if twice | (any & singles) != 0 {
                    return false;
                }
                let placed = any | singles;
                self.board.unsolved[b] &= !placed;
                // Each digit loses the others' singles and keeps its own.
                let others = _mm256_andnot_si256(_mm256_set1_epi32(placed as i32), rules.kept);
                masks[b] = _mm256_or_si256(others, rules.singles);
                seen[b] = rules.kept;
                shapes[b] = rules.shape;
                last[b] = (kept & !placed) | singles;
                last_seen[b] = kept;
                // Claimed columns leave the digit's other two bands (the same lane).
                for other in [(b + 1) % 3, (b + 2) % 3] {
                    masks[other] = _mm256_andnot_si256(rules.claimed, masks[other]);
                    last[other] &= !claimed;
                }
            }
            if !changed {
                break;
            }
        }
        let unpack = |v: __m256i| {
            let mut values = [0u32; 8];
            _mm256_storeu_si256(values.as_mut_ptr() as *mut __m256i, v);
            values
        };
        for b in 0..3 {
            let (m, s, shape) = (unpack(masks[b]), unpack(seen[b]), unpack(shapes[b]));
            for digit in 0..8 {
                self.board.candidates[digit * 3 + b] = m[digit];
                self.seen[digit * 3 + b] = s[digit];
                if updated[b] {
                    self.board.shapes[digit * 3 + b] = shape[digit];
                }
            }
            self.board.candidates[24 + b] = last[b];
            self.seen[24 + b] = last_seen[b];
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::solver::tests::{bundled, grid};
    use crate::engines::solver::AVX2;
    use crate::values::grid::Grid;

    /// The lanes against `update_mask`'s scalar steps, on masks from a fixed xorshift
    /// stream (dense and sparse) and every single-row, single-triad case among them.
    #[test]
    fn band_rules_are_update_masks_rules_lane_by_lane() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let unpack = |v: __m256i| {
            let mut values = [0u32; 8];
            // SAFETY: an unaligned store of 32 bytes into an array of 32 bytes.
            unsafe { _mm256_storeu_si256(values.as_mut_ptr() as *mut __m256i, v) };
            values
        };
        for round in 0..100_000 {
            let mut masks = [0u32; 8];
            for m in masks.iter_mut() {
                let r = next();
                // Dense, sparse and very sparse masks.
                *m = match round % 3 {
                    0 => r as u32 | (r >> 32) as u32,
                    1 => r as u32,
                    _ => r as u32 & (r >> 32) as u32,
                } & 0x7ff_ffff;
            }
            // SAFETY: AVX2 was detected above.
            let rules = unsafe { band_rules(_mm256_loadu_si256(masks.as_ptr() as *const __m256i)) };
            let (kept, claimed, singles, shape) = (
                unpack(rules.kept),
                unpack(rules.claimed),
                unpack(rules.singles),
                unpack(rules.shape),
            );
            for (lane, &mask) in masks.iter().enumerate() {
                let keep = triad_keep::<0>(mask);
                let want = mask & keep as u32;
                assert_eq!(kept[lane], want, "{mask:#x}");
                if want == 0 {
                    continue;
                }
                let columns = fold_columns(want);
                assert_eq!(
                    claimed[lane], CLAIMED_COLUMNS[columns as usize],
                    "{mask:#x}"
                );
                assert_eq!(singles[lane], row_singles(want), "{mask:#x}");
                assert_eq!(shape[lane], (keep >> 32) as u32 | columns << 9, "{mask:#x}");
            }
        }
    }

    /// Two digits each alone in a row on the same cell, found in one band update: a dead
    /// end both ways (one after the other, the second digit's row is left empty).
    #[test]
    fn two_digits_alone_on_one_cell_are_a_dead_end() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        use crate::engines::solver::tables::BAND_ALL;
        // The second digit in a lane (5) and beside the lanes (8).
        for (lanes, other) in [(false, 5), (true, 5), (false, 8), (true, 8)] {
            let mut solver = Solver::new();
            solver.board.candidates = [BAND_ALL; 28];
            // Digit 0 in band 0: cell 0, cell 12 (row 1, box 1), cell 24 (row 2, box 2).
            // The other: cell 0, cell 15 (row 1, box 2), cell 21 (row 2, box 1). Each is a
            // feasible permutation of triads with every row a single, both on cell 0.
            solver.board.candidates[0] = 1 | 1 << 12 | 1 << 24;
            solver.board.candidates[other * 3] = 1 | 1 << 15 | 1 << 21;
            solver.seen = [u32::MAX; 28];
            let alive = if lanes {
                // SAFETY: AVX2 was detected above.
                unsafe { solver.band_passes_avx2() }
            } else {
                solver.band_passes::<0>()
            };
            assert!(!alive, "lanes: {lanes}, digit {other}");
        }
    }

    impl Solver {
        #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx,avx2")]
        unsafe fn band_passes_avx2(&mut self) -> bool {
            self.band_passes_in_lanes::<AVX2>()
        }

        /// The root's propagation: the board loaded and propagated by the baseline
        /// scalar passes, or by the AVX2 copy's lanes.
        fn root(&mut self, puzzle: &Grid, lanes: bool) -> bool {
            self.stats = Default::default();
            self.depth = 0;
            if !self.load(puzzle) {
                return false;
            }
            if lanes {
                // SAFETY: the callers check that the CPU has AVX2.
                unsafe { self.root_avx2() }
            } else {
                self.propagate::<0>()
            }
        }

        #[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt,avx,avx2")]
        unsafe fn root_avx2(&mut self) -> bool {
            self.propagate::<AVX2>()
        }
    }

    /// The same root state both ways: dead ends, masks, shapes, unsolved cells, on
    /// the bundled puzzles with 30 givens (most solved at the root), hard ones and ones
    /// with several solutions.
    #[test]
    fn the_root_propagates_to_the_same_board_in_lanes() {
        if !(std::is_x86_feature_detected!("avx2")
            && crate::engines::solver::copies::bit_instructions())
        {
            return;
        }
        let kaggle = bundled("quizzes.csv");
        let top = bundled("hard.txt");
        let multi = bundled("multiple.txt");
        let puzzles = kaggle
            .lines()
            .skip(1)
            .map(|l| &l[..81])
            .chain(
                top.lines()
                    .filter(|l| l.len() >= 81 && !l.starts_with('#'))
                    .map(|l| &l[..81]),
            )
            .chain(multi.lines().filter(|l| !l.starts_with('#')).step_by(7));
        let (mut scalar, mut lanes) = (Solver::new(), Solver::new());
        let mut n = 0;
        for text in puzzles {
            let puzzle = grid(text);
            let alive = scalar.root(&puzzle, false);
            assert_eq!(lanes.root(&puzzle, true), alive, "{text}");
            if alive {
                let (a, b) = (&scalar.board, &lanes.board);
                assert_eq!(a.candidates[..27], b.candidates[..27], "{text}");
                assert_eq!(a.shapes[..27], b.shapes[..27], "{text}");
                assert_eq!(a.unsolved, b.unsolved, "{text}");
                assert_eq!(scalar.seen[..27], lanes.seen[..27], "{text}");
            }
            n += 1;
        }
        assert!(n > 2500);
        // Dead ends: Kaggle's puzzles with a wrong digit that clashes with no given put
        // in an empty cell, often found out at the root.
        let (mut dead, mut tried) = (0, 0);
        for line in kaggle.lines().skip(1).step_by(5) {
            let (text, solution) = (&line.as_bytes()[..81], &line.as_bytes()[82..163]);
            for cell in (0..81).filter(|&i| text[i] == b'0').step_by(7) {
                let (row, column) = (cell / 9, cell % 9);
                let clashes = |digit: u8| {
                    (0..81).any(|j| {
                        let (r, c) = (j / 9, j % 9);
                        let peer =
                            r == row || c == column || (r / 3, c / 3) == (row / 3, column / 3);
                        peer && text[j] == digit
                    })
                };
                let Some(wrong) = (b'1'..=b'9').find(|&d| d != solution[cell] && !clashes(d))
                else {
                    continue;
                };
                let mut changed = text.to_vec();
                changed[cell] = wrong;
                let changed = std::str::from_utf8(&changed).unwrap();
                let puzzle = grid(changed);
                let alive = scalar.root(&puzzle, false);
                assert_eq!(lanes.root(&puzzle, true), alive, "{changed}");
                dead += !alive as u32;
                tried += 1;
            }
        }
        assert!(dead > tried / 4, "{dead} of {tried} dead at the root");
    }
}
