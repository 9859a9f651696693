//! Where the search branches: a digit's triad permutations in the band or stack with
//! the fewest open, else a cell; a light node ([`Solver::light`]) on a cell alone.

use super::tables::{
    column_cells, BAND_ALL, BOX_CELLS, PERMS_CELLS, PERMS_COLUMNS, PERMS_IN, PERMS_OPEN,
    TURNED_COLUMNS,
};
use super::{Frame, Solver, LIGHT_UNSOLVED, NO_CELL, PEXT};

impl Solver {
    /// Whether this node is light: on the search's first descent (it has not
    /// backtracked), below the root, with at most [`LIGHT_UNSOLVED`] cells left (or
    /// anywhere on the first descent of a sparse puzzle, below). A light
    /// node skips the sweep and branches on the first cell with two candidates, the
    /// cheapest choice, instead of choosing among the digits' permutations.
    ///
    /// On a puzzle with many solutions the search is one straight descent (almost no
    /// guess there meets a dead end), where what the sweep and the permutation choice
    /// save in guesses costs more than it saves; on a unique puzzle the first dead end
    /// comes early, and from then on every node is full. The root stays full: a puzzle
    /// that the sweep finishes there needs no guess (Royle's 17-clue list: 0.60 guesses
    /// a puzzle, 0.74 with a light root, 0.56 with no light nodes).
    ///
    /// A puzzle of at most [`SPARSE_GIVENS`](super::SPARSE_GIVENS) givens cannot be
    /// unique: it has no solution or several, and the sweep cannot finish it at the root.
    /// Its first descent is light from the root, however many cells are left (Royle's
    /// 17-clue puzzles less one given: 14.5 guesses a puzzle against 14.2, 13% faster).
    ///
    /// Every branch pushes a frame and every backtrack pops one, so the search has not
    /// backtracked exactly while its depth equals its branches taken.
    #[inline(always)]
    pub(super) fn light(&self) -> bool {
        let left = self.board.unsolved[0].count_ones()
            + self.board.unsolved[1].count_ones()
            + self.board.unsolved[2].count_ones();
        (self.sparse || (self.depth > 0 && left <= LIGHT_UNSOLVED))
            && self.depth == self.stats.guesses as usize
    }

    /// Branches: on the placement of a digit in a band when one is down to two or three
    /// triad permutations (the first, then the others), else on a cell (its lowest
    /// candidate, then the rest); at a light node ([`Solver::light`]) on a cell alone.
    /// Saves the node with what the other branch keeps, then takes the first: false
    /// when the masks it narrows are a dead end at once, else the caller propagates it.
    #[inline(always)]
    pub(super) fn guess<const KIT: u8>(&mut self) -> bool {
        // Before counting this branch: `light` compares the branches taken with the depth.
        let light = self.light();
        self.stats.guesses += 1;
        let permutation = if light {
            None
        } else {
            self.pick_permutation::<KIT>()
        };
        if let Some((digit, unit, perms)) = permutation {
            let first = perms.trailing_zeros() as usize;
            let rest = perms & (perms - 1);
            let keep = [
                unit_keep(unit, 0, rest),
                unit_keep(unit, 1, rest),
                unit_keep(unit, 2, rest),
            ];
            self.stack[self.depth] = Frame {
                board: self.board,
                digit: digit as u8,
                second: NO_CELL,
                keep,
            };
            self.depth += 1;
            let taken = [0, 1, 2].map(|band| unit_keep(unit, band, 1 << first));
            return self.narrow::<KIT>(digit, taken);
        }
        let (band, bit) = if light {
            self.pick_first_pair()
        } else {
            self.pick_cell()
        };
        // The picked cell is unsolved and alive, so it has a candidate.
        let digits = self.digits_at(band, bit);
        let digit = (digits.trailing_zeros() as usize).min(8);
        // The cell's highest candidate: at a cell with two, the other branch's digit.
        let second = (31 - (digits | 1).leading_zeros()) as usize;
        // Depth stays below MAX_DEPTH: every frame below this one placed at least one
        // of the 81 cells or fixed a mask's permutation, and this cell is unsolved.
        self.stack[self.depth] = Frame {
            board: self.board,
            digit: digit as u8,
            second: second as u8,
            keep: [
                if band == 0 { !(1 << bit) } else { BAND_ALL },
                if band == 1 { !(1 << bit) } else { BAND_ALL },
                if band == 2 { !(1 << bit) } else { BAND_ALL },
            ],
        };
        self.depth += 1;
        self.place(digit, band, bit);
        // The two masks of the band that the placement surely changed (the digit's, and
        // the other digit's that lost the cell), updated at once as `narrow` does.
        self.update_mask::<KIT>(digit * 3 + band) && self.update_mask::<KIT>(second * 3 + band)
    }

    /// A digit whose triads in a band or stack (unit 0..3 a band, 3..6 a stack, whose
    /// permutations are how the digit's three bands sit in its three columns) fit two
    /// permutations (else three), in the unit with the fewest open permutations over all
    /// digits (as tdoku picks its branch): the digit, the unit and its permutations (bit
    /// `p`). Measured before the triple rules, count to 2 (guesses a puzzle, top1465 /
    /// forum-hardest): bands only 14.2 / 166, against 13.6 / 218 branching on cells only;
    /// preferring a two-candidate cell when there is one gave 13.5 / 235, a
    /// two-permutation digit from any band 17.2 / 231, the band's such digit with the
    /// fewest cells 13.3 / 160 (5-9% slower for first solutions); bands and stacks 13.7 /
    /// 147, then 1-6% slower. With the triple rules, bands only 9.4 / 126, bands and
    /// stacks 8.9 / 111 (tdoku 8.9 / 110) and 5% faster on the hardest.
    #[inline(always)]
    pub(super) fn pick_permutation<const KIT: u8>(&self) -> Option<(usize, usize, u8)> {
        let mut totals = [0u32; 6];
        for digit in 0..9 {
            let shape = self.digit_shapes(digit);
            // A band's count comes with its shape; a stack's needs all three bands.
            for band in 0..3 {
                totals[band] += shape[band] >> 18;
            }
        }
        totals[3..].copy_from_slice(&stack_totals::<KIT>(&self.board.shapes));
        // The unit with the fewest open permutations above nine (every digit placed
        // there is down to one), the first such on ties; and in it the first digit
        // with two permutations, else three. Branch-free: as searches over the units
        // and digits, these branches took 13% of the simulated mispredictions on
        // puzzles with many solutions.
        let mut best = u32::MAX;
        for (unit, &total) in totals.iter().enumerate() {
            let key = if total > 9 {
                total << 3 | unit as u32
            } else {
                u32::MAX
            };
            best = best.min(key);
        }
        if best == u32::MAX {
            return None;
        }
        let unit = (best & 7) as usize;
        let mut patterns = [0usize; 9];
        let (mut twos, mut threes) = (0u32, 0u32);
        for (digit, pattern) in patterns.iter_mut().enumerate() {
            *pattern = self.unit_pattern(digit, unit) & 0x1ff;
            let open = PERMS_OPEN[*pattern];
            twos |= ((open == 2) as u32) << digit;
            threes |= ((open == 3) as u32) << digit;
        }
        let digits = if twos != 0 { twos } else { threes };
        if digits == 0 {
            return None;
        }
        let digit = digits.trailing_zeros() as usize % 9;
        Some((digit, unit, PERMS_IN[patterns[digit]]))
    }

    /// The 3x3 pattern of a digit in unit 0..3 (a band: bit `row * 3 + box`) or 3..6 (a
    /// stack: bit `band * 3 + column in the stack`).
    #[inline(always)]
    pub(super) fn unit_pattern(&self, digit: usize, unit: usize) -> usize {
        if unit < 3 {
            return self.board.shapes[digit * 3 + unit] as usize & 0x1ff;
        }
        let shape = self.digit_shapes(digit);
        stack_pattern(shape, unit - 3)
    }

    /// The unsolved cell to branch on: a cell with two candidates, in the band with the
    /// most such cells and that band's row with the most (measured on top1465, counting
    /// to 2: 16.0 guesses per puzzle, against 19.9 for the first such cell found), else
    /// the cell with the fewest candidates.
    #[inline(always)]
    pub(super) fn pick_cell(&self) -> (usize, u32) {
        let mut pair: Option<(usize, u32, u32)> = None;
        for band in 0..3 {
            let (_, two, three) = self.candidate_counts(band);
            let pairs = self.board.unsolved[band] & two & !three;
            let n = pairs.count_ones();
            if n > pair.map_or(0, |p| p.2) {
                // Within the band, the row holding the most such cells.
                let rows = [pairs & 0x1ff, pairs & (0x1ff << 9), pairs & (0x1ff << 18)];
                let row = rows
                    .into_iter()
                    .max_by_key(|r| r.count_ones())
                    .unwrap_or(pairs);
                pair = Some((band, row.trailing_zeros(), n));
            }
        }
        if let Some((band, bit, _)) = pair {
            return (band, bit);
        }
        let mut best = (0usize, 0u32, u32::MAX);
        for band in 0..3 {
            let mut rest = self.board.unsolved[band];
            while rest != 0 {
                let bit = rest.trailing_zeros();
                rest &= rest - 1;
                let n = self.digits_at(band, bit).count_ones();
                if n < best.2 {
                    best = (band, bit, n);
                }
            }
        }
        (best.0, best.1)
    }

    /// The first unsolved cell with two candidates, in band and cell order, else as
    /// [`Solver::pick_cell`]: the light nodes' branch, which needs no count of pairs.
    #[inline(always)]
    pub(super) fn pick_first_pair(&self) -> (usize, u32) {
        for band in 0..3 {
            let (_, two, three) = self.candidate_counts(band);
            let pairs = self.board.unsolved[band] & two & !three;
            if pairs != 0 {
                return (band, pairs.trailing_zeros());
            }
        }
        self.pick_cell()
    }
}

/// The cells of `band` a digit keeps when unit 0..3 (a band) or 3..6 (a stack) takes one
/// of the permutations in `perms`: by table, where a loop over the set's bits cost about
/// 190 instructions and a data-dependent exit a guess.
#[inline(always)]
pub(super) fn unit_keep(unit: usize, band: usize, perms: u8) -> u32 {
    let perms = perms as usize & 63;
    if unit < 3 {
        return if unit == band {
            PERMS_CELLS[perms]
        } else {
            BAND_ALL
        };
    }
    let stack = (unit - 3) % 3;
    let columns = (PERMS_COLUMNS[band % 3][perms] as u32) << (3 * stack);
    (BAND_ALL & !BOX_CELLS[1 << stack]) | column_cells(columns)
}

/// Each stack's open placements summed over the digits (`PERMS_OPEN` of every digit's
/// pattern there, bit `band * 3 + column in the stack`), from the band shapes. In the
/// copy with [`PEXT`], one `pext` gathers each pattern for its lookup. Elsewhere, per
/// digit, its band-0 columns ANDed with its band-1 and band-2 columns turned
/// (`TURNED_COLUMNS`) leave one bit per open placement, three digits' bits go side by
/// side in one word, and a count per stack sums them (measured on AMD Zen 2 against
/// patterns by shifts and three lookups a digit: see `docs/performance.md`).
#[inline(always)]
pub(super) fn stack_totals<const KIT: u8>(shapes: &[u32; 28]) -> [u32; 3] {
    let mut totals = [0u32; 3];
    #[cfg(target_arch = "x86_64")]
    if KIT & PEXT != 0 {
        let columns = |stack: u64| (7u64 << (9 + 3 * stack)) * (1 | 1 << 21 | 1 << 42);
        for digit in 0..9 {
            let x = shapes[digit * 3] as u64
                | (shapes[digit * 3 + 1] as u64) << 21
                | (shapes[digit * 3 + 2] as u64) << 42;
            for (stack, total) in totals.iter_mut().enumerate() {
                // SAFETY: as in `triad_keep`: only reached inside `search_fast`.
                let pattern = unsafe { std::arch::x86_64::_pext_u64(x, columns(stack as u64)) };
                *total += PERMS_OPEN[pattern as usize & 0x1ff] as u32;
            }
        }
        return totals;
    }
    /// A stack's six placement bits in each of three digits' 18-bit fields.
    const STACK: [u64; 3] = {
        let mut masks = [0u64; 3];
        let mut stack = 0;
        while stack < 3 {
            let bits = (7u64 << (3 * stack)) | (7u64 << (9 + 3 * stack));
            masks[stack] = bits | bits << 18 | bits << 36;
            stack += 1;
        }
        masks
    };
    for group in 0..3 {
        let mut open = 0u64;
        for k in 0..3 {
            let digit = group * 3 + k;
            let columns = |band: usize| (shapes[digit * 3 + band] >> 9) & 0x1ff;
            let first = columns(0);
            let placements = (first | first << 9)
                & TURNED_COLUMNS[0][columns(1) as usize]
                & TURNED_COLUMNS[1][columns(2) as usize];
            open |= (placements as u64) << (18 * k);
        }
        for stack in 0..3 {
            totals[stack] += (open & STACK[stack]).count_ones();
        }
    }
    totals
}

/// One stack's pattern from a digit's three band shapes, by shifts.
#[inline(always)]
pub(super) fn stack_pattern(shape: [u32; 3], stack: usize) -> usize {
    let c = |band: usize| (shape[band] >> (9 + 3 * stack)) & 7;
    (c(0) | c(1) << 3 | c(2) << 6) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::solver::tables;
    use crate::engines::solver::tables::{COLUMN, PERMUTATIONS, PERM_CELLS};

    /// The stacks' totals equal the placements counted by trying all six column orders,
    /// for every pattern of one stack and for mixed shapes.
    #[test]
    fn stack_totals_count_each_stacks_placements() {
        // Placements of one digit in one stack, by trying the six column orders.
        let open = |columns: [u32; 3], stack: usize| -> u32 {
            tables::PERMUTATIONS
                .iter()
                .filter(|order| (0..3).all(|b| columns[b] >> (3 * stack + order[b]) & 1 == 1))
                .count() as u32
        };
        let check = |shapes: &[u32; 28]| {
            let mut want = [0u32; 3];
            for digit in 0..9 {
                let columns = [0, 1, 2].map(|b| (shapes[digit * 3 + b] >> 9) & 0x1ff);
                for (stack, total) in want.iter_mut().enumerate() {
                    *total += open(columns, stack);
                }
            }
            assert_eq!(stack_totals::<0>(shapes), want, "{shapes:x?}");
        };
        // Every pattern of one stack for one digit (the other stacks and digits with
        // every column open, and the triad and count bits set to catch a missed mask).
        for pattern in 0..512u32 {
            for stack in 0..3 {
                for digit in [0, 4, 8] {
                    let mut shapes = [0x1ff << 9 | 0x1ff | 7 << 18; 28];
                    for band in 0..3 {
                        let bits = (pattern >> (3 * band)) & 7;
                        let columns = 0x1ff & !(7 << (3 * stack)) | bits << (3 * stack);
                        shapes[digit * 3 + band] = 0x1ff | columns << 9 | 7 << 18;
                    }
                    check(&shapes);
                }
            }
        }
        // Mixed shapes, drawn by a fixed linear congruential sequence.
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            let mut shapes = [0u32; 28];
            for shape in shapes.iter_mut().take(27) {
                x = x
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                *shape = (x >> 32) as u32 & 0x1f_ffff;
            }
            check(&shapes);
        }
    }

    #[test]
    fn unit_keep_is_the_union_of_its_permutations() {
        for unit in 0..6 {
            for band in 0..3 {
                for perms in 0..64u8 {
                    // A band unit keeps its permutations' triads; the other bands are
                    // whole. A stack keeps, in each band, the columns its permutations
                    // use there, and the band's other boxes whole.
                    let mut want = if unit < 3 && unit != band {
                        BAND_ALL
                    } else {
                        0
                    };
                    if unit >= 3 {
                        want = BAND_ALL & !BOX_CELLS[1 << (unit - 3)];
                    }
                    for p in (0..6).filter(|p| perms >> p & 1 == 1) {
                        if unit == band {
                            want |= PERM_CELLS[p];
                        } else if unit >= 3 {
                            want |= COLUMN[3 * (unit - 3) + PERMUTATIONS[p][band]];
                        }
                    }
                    assert_eq!(unit_keep(unit, band, perms), want, "{unit} {band} {perms}");
                }
            }
        }
    }
}
