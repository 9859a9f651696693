//! Propagation to a fixed point: the band updates (triads, claimed columns, row
//! singles) in unrolled passes, placements, and naked singles; the sweep
//! ([`super::sweep`]) runs once these are stable.

#[cfg(target_arch = "x86_64")]
use super::lanes;
use super::tables::{
    BAND_ALL, CLAIMED_COLUMNS, COLUMN, PEERS_IN_BAND, TRIAD_KEEP, TRIAD_KEEP_HASHED, TRIAD_MAGIC,
};
use super::{Solver, AVX2, PEXT};

impl Solver {
    /// Places `digit` in cell `bit` of `band`: removes it from the cell's peers and
    /// every other digit from the cell, and marks the cell solved.
    #[inline(always)]
    pub(super) fn place(&mut self, digit: usize, band: usize, bit: u32) {
        let cell = 1u32 << bit;
        #[cfg(test)]
        assert!(self.board.candidates[digit * 3 + band] & cell != 0);
        // Every digit loses the cell, then the placed one gets it back alone among its
        // peers: no branch on the digit (the callers pass one of the cell's candidates).
        for d in 0..9 {
            self.clear(d * 3 + band, cell);
        }
        let own = digit * 3 + band;
        self.board.candidates[own] =
            (self.board.candidates[own] & !PEERS_IN_BAND[bit as usize]) | cell;
        let column = COLUMN[(bit % 9) as usize];
        self.clear(digit * 3 + (band + 1) % 3, column);
        self.clear(digit * 3 + (band + 2) % 3, column);
        self.board.unsolved[band] &= !cell;
    }

    /// Removes `cells` from mask `index`; the next pass sees the change.
    #[inline(always)]
    pub(super) fn clear(&mut self, index: usize, cells: u32) {
        self.board.candidates[index] &= !cells;
    }

    /// Runs propagation to a fixed point; false on a contradiction.
    #[inline(always)]
    pub(super) fn propagate<const KIT: u8>(&mut self) -> bool {
        loop {
            if !self.band_passes::<KIT>() {
                return false;
            }
            self.stats.rounds += 1;
            match self.naked_singles::<KIT>() {
                Sweep::Contradiction => return false,
                Sweep::Placed => continue,
                Sweep::Stable if self.board.unsolved == [0; 3] => return true,
                Sweep::Stable if self.light() => return true,
                Sweep::Stable => {}
            }
            match self.sweep_sets::<KIT>() {
                Sweep::Contradiction => return false,
                Sweep::Placed => continue,
                Sweep::Stable => return true,
            }
        }
    }

    /// The band updates to their fixed point: false at a dead end. At the root, in the
    /// copies with AVX2, a band's masks at once ([`Solver::band_passes_in_lanes`]).
    #[inline(always)]
    pub(super) fn band_passes<const KIT: u8>(&mut self) -> bool {
        #[cfg(target_arch = "x86_64")]
        if KIT & AVX2 != 0 && self.stats.guesses == 0 {
            // SAFETY: the copies with `AVX2` run only where the CPU has it and the bit
            // instructions, all `band_passes_in_lanes` is compiled for
            // (`copy_for_this_cpu`).
            // Called through a pointer the optimiser cannot see through, so that it stays
            // out of line: inlined (as LLVM does even with `#[inline(never)]`), it cost
            // the hard sets 1-3% on AMD Zen 2.
            let passes: unsafe fn(&mut Solver) -> bool = Solver::band_passes_in_lanes::<KIT>;
            return unsafe { std::hint::black_box(passes)(self) };
        }
        // Unrolled passes over the 27 masks until none changed; each update is
        // specialised for its (digit, band): constant indices, no bounds checks.
        // Band by band: a band's columns claimed from the next bands are seen in the
        // same pass (measured 4-6% faster than digit by digit on the hard sets).
        // The fence before each check (it emits no instruction) stops LLVM from
        // keeping the masks a pass has read in registers for later updates' clears:
        // with 27 of them live through the pass it spilled some on every check that
        // found its mask unchanged (about 10k extra instructions a top95 puzzle).
        // Measured: top95 +3-6%, forum-hardest +0.5%, Kaggle -0.6%, others level.
        // Only in the copy with `pext`, where it was measured: on AMD Zen 2 (the AVX2
        // copy) it cost 3-4% on every hard set and on puzzles with many solutions.
        macro_rules! pass {
            ($changed:ident; $($i:literal)*) => {
                $(
                    if KIT & PEXT != 0 {
                        std::sync::atomic::compiler_fence(std::sync::atomic::Ordering::SeqCst);
                    }
                    if self.board.candidates[$i] != self.seen[$i] {
                        $changed = true;
                        if !self.update_mask::<KIT>($i) {
                            return false;
                        }
                    }
                )*
            };
        }
        loop {
            let mut changed = false;
            pass!(changed;
                0 3 6 9 12 15 18 21 24 1 4 7 10 13 16 19 22 25 2 5 8 11 14 17 20 23 26);
            if !changed {
                break;
            }
        }
        true
    }

    /// Narrows the digit's mask in band `b` to `keep[b]` (`BAND_ALL` leaves it as it is)
    /// for a branch, and updates the masks it narrows at once: false at a dead end. Run
    /// before the passes, these updates cost no mispredicted check "changed since its
    /// update" (measured on Zen 2: +2-4% on puzzles with many solutions, level on the
    /// hardest).
    #[inline(always)]
    pub(super) fn narrow<const KIT: u8>(&mut self, digit: usize, keep: [u32; 3]) -> bool {
        let digit = digit % 9;
        for (band, &kept) in keep.iter().enumerate() {
            self.board.candidates[digit * 3 + band] &= kept;
        }
        (keep[0] == BAND_ALL || self.update_mask::<KIT>(digit * 3))
            && (keep[1] == BAND_ALL || self.update_mask::<KIT>(digit * 3 + 1))
            && (keep[2] == BAND_ALL || self.update_mask::<KIT>(digit * 3 + 2))
    }

    /// Applies the triad rule, column claiming and row hidden singles to mask `index`
    /// (0..27), straight-line (no data-dependent branches but the dead end).
    ///
    /// The triad rule keeps only triads on a feasible permutation; a row confined to
    /// one triad thereby takes that box, so a cell alone in its row has no box peers
    /// left. A box where the digit is left in one column claims that column: the other
    /// two bands lose it. Cells alone in their row are placed: the other digits lose them.
    ///
    /// The passes call it with constant indices, so each call is specialised; a branch
    /// calls it with the masks it narrowed ([`Solver::narrow`]).
    #[inline(always)]
    pub(super) fn update_mask<const KIT: u8>(&mut self, index: usize) -> bool {
        let index = index % 27;
        let (digit, band) = (index / 3, index % 3);
        let (next, last) = (digit * 3 + (band + 1) % 3, digit * 3 + (band + 2) % 3);
        let mut mask = self.board.candidates[index];
        let keep = triad_keep::<KIT>(mask);
        mask &= keep as u32;
        if mask == 0 {
            return false;
        }
        self.board.candidates[index] = mask;
        self.seen[index] = mask;
        let columns = fold_columns(mask);
        self.board.shapes[index] = (keep >> 32) as u32 | columns << 9;
        let claimed = CLAIMED_COLUMNS[columns as usize];
        self.clear(next, claimed);
        // Where `next` and `last` are adjacent (bands 0 and 2), LLVM otherwise merges the
        // two clears into one 8-byte read-modify-write, whose load spans two earlier
        // 4-byte stores and so cannot be served from the store buffer: it waits for
        // them to reach the cache. The fence emits no instruction; it only keeps the
        // two clears apart (measured: top95 +1.5%, top1465 +2.5%, Kaggle -0.6% to +1%).
        // As the fence in the passes, only in the copy with `pext`: on AMD Zen 2 the
        // AVX2 copy is 0.5-2.6% faster without it.
        if KIT & PEXT != 0 {
            std::sync::atomic::compiler_fence(std::sync::atomic::Ordering::Release);
        }
        self.clear(last, claimed);
        // Cells placed before come back as singles of their row every time: removing
        // them again changes nothing, and not masking them with `unsolved` keeps these
        // stores off the chain of `unsolved` updates through the band (measured: top95
        // +2-4%, top1465 +2%, forum-hardest +1-2%).
        let singles = row_singles(mask);
        self.board.unsolved[band] &= !singles;
        // Every digit loses the singles, then this mask is stored again whole: no
        // branch on the digit where the index is not a constant (measured with the
        // constant too: level to +1.7%).
        for d in 0..9 {
            self.clear(d * 3 + band, singles);
        }
        self.board.candidates[index] = mask;
        true
    }

    /// Places every unsolved cell with a single candidate; fails on a cell with none.
    #[inline(always)]
    pub(super) fn naked_singles<const KIT: u8>(&mut self) -> Sweep {
        let mut placed = false;
        // Counted once for all bands: a placement below can only take candidates away,
        // so a cell it leaves with one is found next round, one it empties below.
        let (any, two) = self.cell_counts();
        for band in 0..3 {
            let unsolved = self.board.unsolved[band];
            if unsolved & !any[band] != 0 {
                return Sweep::Contradiction;
            }
            let mut singles = unsolved & !two[band];
            while singles != 0 {
                let bit = singles.trailing_zeros();
                singles &= singles - 1;
                let digits = self.digits_at(band, bit);
                if digits == 0 {
                    // An earlier placement in this sweep took the cell's last candidate.
                    return Sweep::Contradiction;
                }
                let digit = digits.trailing_zeros() as usize;
                self.place(digit, band, bit);
                // The placed digit's mask in this band changed: updated at once, not
                // found by a pass's check (a likely mispredicted branch).
                if !self.update_mask::<KIT>(digit * 3 + band) {
                    return Sweep::Contradiction;
                }
                placed = true;
            }
        }
        if placed {
            Sweep::Placed
        } else {
            Sweep::Stable
        }
    }

    /// Each band's cells with at least one candidate, and with at least two.
    #[cfg(any(test, not(target_arch = "x86_64")))]
    #[inline(always)]
    pub(super) fn cell_counts_scalar(&self) -> ([u32; 3], [u32; 3]) {
        let (mut any, mut two) = ([0; 3], [0; 3]);
        for band in 0..3 {
            (any[band], two[band], _) = self.candidate_counts(band);
        }
        (any, two)
    }

    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    pub(super) fn cell_counts(&self) -> ([u32; 3], [u32; 3]) {
        self.cell_counts_scalar()
    }

    /// `Solver::cell_counts_scalar` with SSE2, the three bands in three lanes.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn cell_counts(&self) -> ([u32; 3], [u32; 3]) {
        let (one, two) = lanes::cell_counts_sse2(&self.board.candidates);
        let counts = ([one[0], one[1], one[2]], [two[0], two[1], two[2]]);
        #[cfg(test)]
        assert_eq!(counts, self.cell_counts_scalar());
        counts
    }

    /// The candidate digits of cell `bit` of `band`, as bits 0..9 (branch-free).
    #[inline(always)]
    pub(super) fn digits_at(&self, band: usize, bit: u32) -> u32 {
        let mut digits = 0;
        for d in 0..9 {
            digits |= ((self.board.candidates[d * 3 + band] >> bit) & 1) << d;
        }
        digits
    }

    /// Bit-sliced candidate counts for a band's cells: (at least 1, at least 2, at least 3).
    #[inline(always)]
    pub(super) fn candidate_counts(&self, band: usize) -> (u32, u32, u32) {
        let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
        for digit in 0..9 {
            let m = self.board.candidates[digit * 3 + band];
            three |= two & m;
            two |= one & m;
            one |= m;
        }
        (one, two, three)
    }
}

pub(super) enum Sweep {
    Contradiction,
    Placed,
    Stable,
}

/// [`TRIAD_KEEP`] for a mask's triad pattern (bit `row * 3 + box` where the triad has a
/// cell). The mask is folded onto each triad's first bit; in the copy with [`PEXT`] one
/// `pext` gathers those nine bits into the pattern, elsewhere one multiply hashes them
/// into [`TRIAD_KEEP_HASHED`] (three `SHRINK` lookups, one per row, before).
#[inline(always)]
pub(super) fn triad_keep<const KIT: u8>(mask: u32) -> u64 {
    const FIRSTS: u32 = 0x124_9249;
    let folded = mask | mask >> 1 | mask >> 2;
    #[cfg(target_arch = "x86_64")]
    if KIT & PEXT != 0 {
        // SAFETY: `PEXT` code runs only inside `search_fast`, chosen where the CPU has
        // BMI2 (`copy_for_this_cpu`). `pext` takes only the first bits: no mask first.
        let pattern = unsafe { std::arch::x86_64::_pext_u32(folded, FIRSTS) };
        return TRIAD_KEEP[pattern as usize & 0x1ff];
    }
    TRIAD_KEEP_HASHED[(((folded & FIRSTS) as u64).wrapping_mul(TRIAD_MAGIC) >> 55) as usize]
}

/// The 9-bit set of columns a band mask has cells in.
#[inline(always)]
pub(super) fn fold_columns(mask: u32) -> u32 {
    (mask | mask >> 9 | mask >> 18) & 0x1ff
}

/// Cells that are alone in their row of the band.
///
/// Every row of `mask` must be non-empty. That holds after the triad rule leaves a
/// mask alive: it keeps only triads on some permutation, which covers every row. Then
/// subtracting 1 from each 9-bit row at once cannot borrow across rows, and
/// `mask & (mask - 1 per row)` drops each row's lowest cell: a row is a single exactly
/// when nothing of it is left. The rest's first bit in each row is clear (it either
/// held the row's lowest cell, now dropped, or was empty), so shifted down one, each
/// row's other eight bits sit below a clear bit: adding 0xff to each carries into that
/// bit exactly where the row had a second cell. Branch-free, no per-row tests.
#[inline(always)]
pub(super) fn row_singles(mask: u32) -> u32 {
    const LOW_EIGHT: u32 = 0xff | 0xff << 9 | 0xff << 18;
    const CARRY: u32 = 1 << 8 | 1 << 17 | 1 << 26;
    let rest = mask & mask.wrapping_sub(0x40201);
    let lone = !((rest >> 1) + LOW_EIGHT) & CARRY;
    let rows = lone >> 8;
    mask & ((rows << 9) - rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The triad hash and `pext` find the same table entry as the plain pattern, for
    /// every pattern and several masks drawing it (first, last or all cells of each
    /// triad, or one cell varying by triad).
    #[test]
    fn triad_keep_matches_the_plain_pattern() {
        for (pattern, &want) in TRIAD_KEEP.iter().enumerate() {
            for choice in 0..4u32 {
                let mut mask = 0u32;
                for triad in 0..9u32 {
                    if pattern >> triad & 1 == 1 {
                        let (row, box_) = (triad / 3, triad % 3);
                        let cells = match choice {
                            0 => 1,
                            1 => 4,
                            2 => 7,
                            _ => 1 << ((triad + pattern as u32) % 3),
                        };
                        mask |= cells << (row * 9 + box_ * 3);
                    }
                }
                // The plain pattern, triad by triad.
                let plain = (0..9).fold(0, |p, t| {
                    p | (((mask >> ((t / 3) * 9 + (t % 3) * 3)) & 7 != 0) as usize) << t
                });
                assert_eq!(plain, pattern);
                assert_eq!(triad_keep::<0>(mask), want, "{mask:#x}");
                #[cfg(target_arch = "x86_64")]
                if std::is_x86_feature_detected!("bmi2") {
                    assert_eq!(triad_keep::<PEXT>(mask), want, "{mask:#x}");
                }
            }
        }
    }

    #[test]
    fn row_singles_finds_rows_with_one_cell() {
        // Row 0: one cell (bit 4); row 1: two cells; row 2: one cell (bit 26).
        let mask = (1 << 4) | (1 << 9) | (1 << 12) | (1 << 26);
        assert_eq!(row_singles(mask), (1 << 4) | (1 << 26));
        assert_eq!(row_singles(0x7ff_ffff), 0);
        // Against a row-by-row count: every non-empty content of one row, the other two
        // rows each one cell, two cells or full.
        for row in 1..0x200u32 {
            for r in 0..3 {
                for other in [0x008, 0x081, 0x1ff] {
                    let rows: [u32; 3] = std::array::from_fn(|k| if k == r { row } else { other });
                    let mask = rows[0] | rows[1] << 9 | rows[2] << 18;
                    let expect = (0..3)
                        .filter(|&k| rows[k].count_ones() == 1)
                        .fold(0, |acc, k| acc | rows[k] << (9 * k));
                    assert_eq!(row_singles(mask), expect, "{mask:#x}");
                }
            }
        }
    }
}
