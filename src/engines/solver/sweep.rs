//! The sweep run once the band updates and naked singles are stable: locked candidates
//! in the stack direction, and naked and hidden triples on minirows and minicolumns.

#[cfg(target_arch = "x86_64")]
use super::lanes;
use super::propagate::Sweep;
use super::tables::{column_cells, ROW_KEEP, STACK_KEEP, TRIAD_CELLS};
use super::{Solver, AVX2};

impl Solver {
    /// What the band updates do not see, run once they and naked singles are stable (so
    /// it costs nothing on puzzles that fall to them); `Placed` means something changed.
    ///
    /// - Locked candidates in the stack direction: where one band alone still holds a
    ///   digit in a column, that band's box holds it in that column. A column no band
    ///   holds is a dead end.
    /// - Naked and hidden triples on the three cells of a minirow or minicolumn, each of
    ///   which holds exactly three digits: where only three digits can still go there,
    ///   each must (a digit forced into a minirow keeps only it in its row; into a
    ///   minicolumn, only that column in its box); where three digits can go nowhere else
    ///   in their row (or box column), the other digits lose those cells. Fewer than three
    ///   possible digits, or more than three that must go there, is a dead end.
    #[inline(always)]
    pub(super) fn sweep_sets<const KIT: u8>(&mut self) -> Sweep {
        let Some(Settled {
            naked,
            hidden,
            locks,
        }) = self.triad_counts::<KIT>()
        else {
            return Sweep::Contradiction;
        };
        // `sure` lies within `open`: a minirow or minicolumn with three open digits and
        // three sure is settled; either alone has something to remove.
        if (naked ^ hidden) == 0 && locks == 0 {
            return Sweep::Stable;
        }
        let mut changed = false;
        for digit in 0..9 {
            let (open, sure, only) = self.digit_sets(digit);
            let forced = open & naked;
            let barred = hidden & !sure;
            for band in 0..3 {
                let f = (forced >> (18 * band)) as u32;
                let b = (barred >> (18 * band)) as u32;
                let cols = (b >> 9) & 0x1ff;
                let lock = ((only >> (9 * band)) | f >> 9) & 0x1ff;
                let keep = ROW_KEEP[(f & 0x1ff) as usize]
                    & STACK_KEEP[lock as usize]
                    & !TRIAD_CELLS[(b & 0x1ff) as usize]
                    & !column_cells(cols);
                let index = digit * 3 + band;
                let kept = self.board.candidates[index] & keep;
                changed |= kept != self.board.candidates[index];
                self.board.candidates[index] = kept;
            }
        }
        if changed {
            Sweep::Placed
        } else {
            Sweep::Stable
        }
    }

    /// A digit's minirows and minicolumns, three bands packed 18 bits apart (bits 0..9 of
    /// a band are its minirows, bit `row * 3 + box`; bits 9..18 its minicolumns, bit
    /// `9 + column`): where it may go, where it must (alone in its row's triads or its
    /// box's columns); and, three bands packed 9 bits apart, the columns where that band
    /// alone holds it.
    #[inline(always)]
    pub(super) fn digit_sets(&self, digit: usize) -> (u64, u64, u32) {
        let shape = self.digit_shapes(digit);
        let c = [
            (shape[0] >> 9) & 0x1ff,
            (shape[1] >> 9) & 0x1ff,
            (shape[2] >> 9) & 0x1ff,
        ];
        let open = (shape[0] & 0x3ffff) as u64
            | ((shape[1] & 0x3ffff) as u64) << 18
            | ((shape[2] & 0x3ffff) as u64) << 36;
        let only =
            (c[0] & !(c[1] | c[2])) | (c[1] & !(c[0] | c[2])) << 9 | (c[2] & !(c[0] | c[1])) << 18;
        (open, lone_in_threes(open), only)
    }

    /// A digit's three band shapes.
    #[inline(always)]
    pub(super) fn digit_shapes(&self, digit: usize) -> [u32; 3] {
        [
            self.board.shapes[digit * 3],
            self.board.shapes[digit * 3 + 1],
            self.board.shapes[digit * 3 + 2],
        ]
    }

    /// Counts over the nine digits for [`Solver::sweep_sets`]; `None` at a dead end (a
    /// column no band holds a digit in, a minirow or minicolumn open to fewer than three
    /// digits or sure of more than three).
    #[cfg(any(test, not(target_arch = "x86_64")))]
    #[inline(always)]
    pub(super) fn triad_counts_scalar(&self) -> Option<Settled> {
        let (mut o1, mut o2, mut o3, mut o4) = (0u64, 0u64, 0u64, 0u64);
        let (mut s1, mut s2, mut s3, mut s4) = (0u64, 0u64, 0u64, 0u64);
        let mut locks = 0u32;
        for digit in 0..9 {
            let (x, y, o) = self.digit_sets(digit);
            let c = (x >> 9) as u32 & 0x1ff | (x >> 27) as u32 & 0x1ff | (x >> 45) as u32 & 0x1ff;
            if c != 0x1ff {
                return None;
            }
            locks |= box_locks(x, o);
            o4 |= o3 & x;
            o3 |= o2 & x;
            o2 |= o1 & x;
            o1 |= x;
            s4 |= s3 & y;
            s3 |= s2 & y;
            s2 |= s1 & y;
            s1 |= y;
        }
        if o3 != (1 << 54) - 1 || s4 != 0 {
            return None;
        }
        Some(Settled {
            naked: o3 & !o4,
            hidden: s3,
            locks,
        })
    }

    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    pub(super) fn triad_counts<const KIT: u8>(&self) -> Option<Settled> {
        self.triad_counts_scalar()
    }

    /// `Solver::triad_counts_scalar` with SSE2 (part of every x86-64 CPU), a digit's
    /// three bands in three lanes; in the copies with [`AVX2`], two digits at a time.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub(super) fn triad_counts<const KIT: u8>(&self) -> Option<Settled> {
        let found = if KIT & AVX2 != 0 {
            // SAFETY: `AVX2` code runs only inside `search_fast` or `search_avx2`, chosen
            // where the CPU has AVX2 (`copy_for_this_cpu`).
            unsafe { lanes::triad_counts_avx2(&self.board.shapes) }
        } else {
            lanes::triad_counts_sse2(&self.board.shapes)
        };
        let counts = found.map(|(n, h, l)| Settled {
            naked: n[0] as u64 | (n[1] as u64) << 18 | (n[2] as u64) << 36,
            hidden: h[0] as u64 | (h[1] as u64) << 18 | (h[2] as u64) << 36,
            locks: l[0] | l[1] << 9 | l[2] << 18,
        });
        // Checked in test builds with `assert`: the suite runs `--release`, where
        // `debug_assert` is off.
        #[cfg(test)]
        assert_eq!(counts, self.triad_counts_scalar());
        counts
    }
}

/// What the sweep's counts over the digits found, bands packed as in
/// [`Solver::digit_sets`].
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Settled {
    /// Minirows and minicolumns open to exactly three digits.
    naked: u64,
    /// Minirows and minicolumns three digits are sure of.
    hidden: u64,
    /// Nonzero where a box is confined to a column by the stack-direction rule but has
    /// other columns left.
    locks: u32,
}

/// Where a box holds a column that only its band holds the digit in (`only`, as from
/// [`Solver::digit_sets`]) but other columns as well: those other columns, which it loses
/// (bands packed 9 bits apart); zero when the stack-direction rule removes nothing.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
pub(super) fn box_locks(open: u64, only: u32) -> u32 {
    let boxes = (only | only >> 1 | only >> 2) & 0x124_9249;
    let columns = (open >> 9) as u32 & 0x1ff
        | (open >> 18) as u32 & (0x1ff << 9)
        | (open >> 27) as u32 & (0x1ff << 18);
    (columns & (boxes * 7)) ^ only
}

/// Of bits read in groups of three (from bit 0), those alone in their group.
#[inline(always)]
pub(super) fn lone_in_threes(x: u64) -> u64 {
    const P0: u64 = 0x0009_2492_4924_9249;
    const P1: u64 = P0 << 1;
    const P2: u64 = P0 << 2;
    let others = ((x >> 1 | x >> 2) & P0) | ((x << 1 | x >> 1) & P1) | ((x << 1 | x << 2) & P2);
    x & !others
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lone_in_threes_keeps_bits_alone_in_their_group() {
        // Groups 0b001 (alone), 0b110 (two), 0b100 (alone), 0 (none), top group 0b010.
        let x = 0b001 | 0b110 << 3 | 0b100 << 6 | 0b010 << 51;
        assert_eq!(lone_in_threes(x), 0b001 | 0b100 << 6 | 0b010 << 51);
        assert_eq!(lone_in_threes((1 << 54) - 1), 0);
    }
}
