//! Lookup tables for the band bitboards, built at compile time.
//!
//! A band is three rows of the grid. For one digit, its candidates in one band are a
//! 27-bit mask, bit `row_in_band * 9 + column`:
//!
//! ```text
//!            box 0       box 1       box 2
//!  row 0:  b0  b1  b2 | b3  b4  b5 | b6  b7  b8
//!  row 1:  b9  b10 b11| b12 b13 b14| b15 b16 b17
//!  row 2:  b18 b19 b20| b21 b22 b23| b24 b25 b26
//! ```
//!
//! A *triad* is the three cells where one row of the band crosses one box. Squashing
//! each triad to one bit gives a 3x3 "triad pattern" (bit `row * 3 + box`). In any
//! solution the digit occupies exactly one triad per row and one per box, so its
//! triad pattern is one of the six 3x3 permutation matrices. Keeping only the triads
//! that belong to some permutation inside the current pattern applies pointing and
//! claiming (locked candidates) and box-line reasoning for the band in one lookup.

/// Mask of all 27 cells of a band.
pub const BAND_ALL: u32 = (1 << 27) - 1;

/// `SHRINK[row_bits]`: for 9 column bits of one row, which of the 3 boxes are non-empty.
pub static SHRINK: [u8; 512] = build_shrink();

/// `TRIAD_KEEP[pattern]`: the 27-bit cell mask of triads that lie on some permutation
/// contained in `pattern` (bits 0..27; 0 when no permutation fits: the digit cannot be
/// placed), those triads as a 9-bit pattern (bits 32..41) and how many permutations they
/// hold (bits 50..53, as `PERMS_OPEN`): one lookup for all three.
pub static TRIAD_KEEP: [u64; 512] = build_triad_keep();

/// The multiplier of the triad hash: a mask folded onto each triad's first bit (bits
/// `3 * t`, the triad pattern's nine bits spread three apart) times this, shifted right
/// by 55, gives a different 9-bit value for each of the 512 patterns (found by a search
/// over sparse multipliers; `build_triad_keep_hashed` checks it at compile time). One
/// multiply where three `SHRINK` lookups and their shifts stood, on CPUs without a fast
/// `pext`.
pub const TRIAD_MAGIC: u64 = 0x0080_8080_0821_220a;

/// [`TRIAD_KEEP`] indexed by the triad hash (see [`TRIAD_MAGIC`]) instead of the pattern.
pub static TRIAD_KEEP_HASHED: [u64; 512] = build_triad_keep_hashed();

/// `PERMS_IN[pattern]`: the set (bit `p`) of the six triad permutations contained in a
/// 9-bit triad pattern: the placements of a digit in a band still open at triad level.
pub static PERMS_IN: [u8; 512] = build_perms_in();

/// `PERMS_OPEN[pattern]`: how many permutations `PERMS_IN[pattern]` holds (the build
/// targets baseline x86-64, where counting bits has no single instruction).
pub static PERMS_OPEN: [u8; 512] = build_perms_open();

/// `TURNED_COLUMNS[band - 1][columns]`, for band 1 or 2 and a digit's 9-bit column set
/// there: each stack's three columns turned by `band` places (bits 0..9: bit `c` of a
/// stack takes its column `(c + band) % 3`) and by `-band` places (bits 9..18: column
/// `(c - band) % 3`). A digit's band-0 columns `c0` (both halves as they are) and these
/// for bands 1 and 2, all three ANDed, hold one bit for each of the stacks' six placements
/// (a column per band, all different) still open: bit `c` of a stack for the one taking
/// columns `c, c + 1, c + 2` down the bands, bit `9 + c` for `c, c - 1, c - 2`. Their
/// count per stack is `PERMS_OPEN` of its pattern, in two lookups and a count a digit
/// instead of three patterns and three lookups.
pub static TURNED_COLUMNS: [[u32; 512]; 2] = build_turned_columns();

/// `PERM_CELLS[p]`: the 27-bit cell mask of permutation `p`'s three triads.
pub static PERM_CELLS: [u32; 6] = build_perm_cells();

/// `PERMS_CELLS[perms]`: the 27-bit cell mask of the triads of the permutations in the
/// 6-bit set `perms` (what a digit keeps in a band that takes one of them).
pub static PERMS_CELLS: [u32; 64] = build_perms_cells();

/// `PERMS_COLUMNS[band][perms]`: the columns (3 bits, within the stack) that band `band`
/// uses under the permutations in the 6-bit set `perms` of a stack's placements.
pub static PERMS_COLUMNS: [[u8; 64]; 3] = build_perms_columns();

/// `PEERS_IN_BAND[bit]`: cells of the same band that share a row, column or box with
/// cell `bit`, excluding the cell itself.
pub static PEERS_IN_BAND: [u32; 27] = build_peers_in_band();

/// `BOX_CELLS[boxes]`: the 27-bit mask of the boxes set in the 3-bit `boxes`.
pub static BOX_CELLS: [u32; 8] = build_box_cells();

/// `CLAIMED_COLUMNS[columns]`: for a band's 9-bit column occupancy of one digit, the
/// 27-bit mask of the columns that are alone in their box (the band's occurrence of the
/// digit in that box must be in that column, so other bands cannot use it).
pub static CLAIMED_COLUMNS: [u32; 512] = build_claimed_columns();

/// `STACK_KEEP[only]`: for the 9-bit set of columns where one band alone still holds a
/// digit, the 27-bit mask of cells the band keeps: in a box holding such a column, only
/// that column's cells (the column's occurrence of the digit is in this box, so the
/// box's is in that column: locked candidates in the stack direction); other boxes whole.
pub static STACK_KEEP: [u32; 512] = build_stack_keep();

/// `COLUMN[col]`: the 27-bit mask of column `col` across a band's three rows.
pub static COLUMN: [u32; 9] = build_columns();

/// `TRIAD_CELLS[triads]`: the 27-bit cell mask of a 9-bit triad mask (bit `row * 3 + box`).
pub static TRIAD_CELLS: [u32; 512] = build_triad_cells();

/// `ROW_KEEP[triads]`: for a 9-bit triad mask, the 27-bit mask of cells a digit keeps when
/// it must occupy those triads: in a row holding such a triad only its cells, other rows
/// whole (the row's occurrence of the digit is in that triad).
pub static ROW_KEEP: [u32; 512] = build_row_keep();

const fn build_shrink() -> [u8; 512] {
    let mut table = [0u8; 512];
    let mut v = 0;
    while v < 512 {
        let mut out = 0u8;
        let mut b = 0;
        while b < 3 {
            if (v >> (3 * b)) & 7 != 0 {
                out |= 1 << b;
            }
            b += 1;
        }
        table[v] = out;
        v += 1;
    }
    table
}

/// The six triad permutations: `PERMUTATIONS[p][row]` is the box (of a band) or the
/// column within the stack (of a stack, rows read as bands) that permutation `p` uses.
pub const PERMUTATIONS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

const fn build_triad_keep() -> [u64; 512] {
    let perms = build_perms_in();
    let mut table = [0u64; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut keep_triads = 0u32;
        let mut p = 0;
        while p < 6 {
            if perms[pattern] & (1 << p) != 0 {
                keep_triads |= perm_triads(p);
            }
            p += 1;
        }
        table[pattern] = triad_cells(keep_triads) as u64
            | (keep_triads as u64) << 32
            | (perms[pattern].count_ones() as u64) << 50;
        pattern += 1;
    }
    table
}

/// The triad hash of a 9-bit triad pattern: its bits spread three apart, times
/// [`TRIAD_MAGIC`], the top nine bits.
const fn triad_hash_of_pattern(pattern: usize) -> usize {
    let mut spread = 0u64;
    let mut t = 0;
    while t < 9 {
        spread |= ((pattern as u64 >> t) & 1) << (3 * t);
        t += 1;
    }
    (spread.wrapping_mul(TRIAD_MAGIC) >> 55) as usize
}

const fn build_triad_keep_hashed() -> [u64; 512] {
    let keep = build_triad_keep();
    let mut table = [0u64; 512];
    let mut taken = [false; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let hash = triad_hash_of_pattern(pattern);
        assert!(!taken[hash], "TRIAD_MAGIC gives two patterns one hash");
        taken[hash] = true;
        table[hash] = keep[pattern];
        pattern += 1;
    }
    table
}

/// The 27-bit cell mask of the columns in a 9-bit column set, across the band's rows.
#[inline(always)]
pub const fn column_cells(columns: u32) -> u32 {
    columns | columns << 9 | columns << 18
}

/// The 27-bit cell mask of a 9-bit triad mask.
const fn triad_cells(triads: u32) -> u32 {
    let mut cells = 0u32;
    let mut t = 0;
    while t < 9 {
        if triads & (1 << t) != 0 {
            let (row, bx) = (t / 3, t % 3);
            cells |= 0b111 << (row * 9 + bx * 3);
        }
        t += 1;
    }
    cells
}

/// The triad mask (bit `row * 3 + box`) of permutation `p`.
const fn perm_triads(p: usize) -> u32 {
    let perm = PERMUTATIONS[p];
    let mut mask = 0u32;
    let mut row = 0;
    while row < 3 {
        mask |= 1 << (row * 3 + perm[row]);
        row += 1;
    }
    mask
}

const fn build_perms_in() -> [u8; 512] {
    let mut table = [0u8; 512];
    let mut pattern = 0;
    while pattern < 512 {
        let mut p = 0;
        while p < 6 {
            let triads = perm_triads(p);
            if triads & pattern as u32 == triads {
                table[pattern] |= 1 << p;
            }
            p += 1;
        }
        pattern += 1;
    }
    table
}

const fn build_perms_open() -> [u8; 512] {
    let perms = build_perms_in();
    let mut table = [0u8; 512];
    let mut pattern = 0;
    while pattern < 512 {
        table[pattern] = perms[pattern].count_ones() as u8;
        pattern += 1;
    }
    table
}

/// Each 3-bit group of `columns` turned so bit `c` takes bit `(c + by) % 3`.
const fn turn_stacks(columns: u32, by: u32) -> u32 {
    let mut turned = 0;
    let mut bit = 0;
    while bit < 9 {
        let from = bit / 3 * 3 + (bit % 3 + by) % 3;
        turned |= (columns >> from & 1) << bit;
        bit += 1;
    }
    turned
}

const fn build_turned_columns() -> [[u32; 512]; 2] {
    let mut table = [[0u32; 512]; 2];
    let mut band = 1;
    while band < 3 {
        let mut columns = 0;
        while columns < 512 {
            table[band as usize - 1][columns as usize] =
                turn_stacks(columns, band) | turn_stacks(columns, 3 - band) << 9;
            columns += 1;
        }
        band += 1;
    }
    table
}

const fn build_perm_cells() -> [u32; 6] {
    let mut table = [0u32; 6];
    let mut p = 0;
    while p < 6 {
        table[p] = triad_cells(perm_triads(p));
        p += 1;
    }
    table
}

const fn build_perms_cells() -> [u32; 64] {
    let cells = build_perm_cells();
    let mut table = [0u32; 64];
    let mut set = 0;
    while set < 64 {
        let mut p = 0;
        while p < 6 {
            if set & (1 << p) != 0 {
                table[set] |= cells[p];
            }
            p += 1;
        }
        set += 1;
    }
    table
}

const fn build_perms_columns() -> [[u8; 64]; 3] {
    let mut table = [[0u8; 64]; 3];
    let mut band = 0;
    while band < 3 {
        let mut set = 0;
        while set < 64 {
            let mut p = 0;
            while p < 6 {
                if set & (1 << p) != 0 {
                    table[band][set] |= 1 << PERMUTATIONS[p][band];
                }
                p += 1;
            }
            set += 1;
        }
        band += 1;
    }
    table
}

const fn build_peers_in_band() -> [u32; 27] {
    let mut table = [0u32; 27];
    let mut cell = 0;
    while cell < 27 {
        let (row, col) = (cell / 9, cell % 9);
        let mut mask = 0u32;
        let mut other = 0;
        while other < 27 {
            let (r, c) = (other / 9, other % 9);
            if other != cell && (r == row || c == col || c / 3 == col / 3) {
                mask |= 1 << other;
            }
            other += 1;
        }
        table[cell] = mask;
        cell += 1;
    }
    table
}

const fn build_box_cells() -> [u32; 8] {
    let mut table = [0u32; 8];
    let mut boxes = 0;
    while boxes < 8 {
        let mut b = 0;
        while b < 3 {
            if boxes & (1 << b) != 0 {
                table[boxes] |= (0b111 << (3 * b)) * ((1 << 0) | (1 << 9) | (1 << 18));
            }
            b += 1;
        }
        boxes += 1;
    }
    table
}

const fn build_claimed_columns() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut cols = 0;
    while cols < 512 {
        let mut b = 0;
        while b < 3 {
            let group = (cols >> (3 * b)) & 7;
            if group == 1 || group == 2 || group == 4 {
                table[cols] |= column_cells((group << (3 * b)) as u32);
            }
            b += 1;
        }
        cols += 1;
    }
    table
}

const fn build_stack_keep() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut only = 0;
    while only < 512 {
        let mut keep = 0u32;
        let mut b = 0;
        while b < 3 {
            let group = only & (7 << (3 * b));
            let cols = if group == 0 { 7 << (3 * b) } else { group };
            keep |= column_cells(cols as u32);
            b += 1;
        }
        table[only] = keep;
        only += 1;
    }
    table
}

const fn build_triad_cells() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut triads = 0;
    while triads < 512 {
        table[triads] = triad_cells(triads as u32);
        triads += 1;
    }
    table
}

const fn build_row_keep() -> [u32; 512] {
    let mut table = [0u32; 512];
    let mut triads = 0;
    while triads < 512 {
        let mut keep = 0u32;
        let mut row = 0;
        while row < 3 {
            let group = (triads >> (3 * row)) & 7;
            keep |= if group == 0 {
                0x1ff << (9 * row)
            } else {
                triad_cells((group << (3 * row)) as u32)
            };
            row += 1;
        }
        table[triads] = keep;
        triads += 1;
    }
    table
}

const fn build_columns() -> [u32; 9] {
    let mut table = [0u32; 9];
    let mut c = 0;
    while c < 9 {
        table[c] = column_cells(1 << c);
        c += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutation_and_stack_tables() {
        // Every triad open: all six permutations; the identity's triads alone: one.
        assert_eq!(PERMS_IN[0x1ff], 0b11_1111);
        assert_eq!(PERMS_IN[0b100_010_001].count_ones(), 1);
        assert_eq!(PERMS_IN[0b000_010_001], 0);
        let all = PERM_CELLS.iter().fold(0, |m, &c| m | c);
        assert_eq!(all, BAND_ALL);
        assert!(PERM_CELLS.iter().all(|c| c.count_ones() == 9));
        // No column held alone: keep everything. Column 0 alone: box 0 keeps column 0.
        assert_eq!(STACK_KEEP[0], BAND_ALL);
        assert_eq!(
            STACK_KEEP[1],
            BAND_ALL & !(0b110 | 0b110 << 9 | 0b110 << 18)
        );
        // Columns 1 and 5 alone: box 0 keeps column 1, box 1 column 5, box 2 all.
        let keep = STACK_KEEP[(1 << 1) | (1 << 5)];
        assert_eq!(keep & 0x1ff, 0b111_100_010);
    }

    #[test]
    fn set_tables() {
        // Triads (row 0, box 1) and (row 2, box 0): their six cells.
        assert_eq!(TRIAD_CELLS[0b001_000_010], 0b111 << 3 | 0b111 << 18);
        // Forced into (row 0, box 1): row 0 keeps that triad, rows 1 and 2 all.
        assert_eq!(ROW_KEEP[0b000_000_010], 0b111 << 3 | 0x3ffff << 9);
        assert_eq!(ROW_KEEP[0], BAND_ALL);
    }

    #[test]
    fn full_band_keeps_everything() {
        assert_eq!(TRIAD_KEEP[511], BAND_ALL as u64 | 511 << 32 | 6 << 50);
    }

    #[test]
    fn impossible_pattern_keeps_nothing() {
        // Rows 0 and 1 both confined to box 0: no permutation fits.
        let pattern = 0b111_001_001;
        assert_eq!(TRIAD_KEEP[pattern], 0);
    }

    #[test]
    fn locked_candidates_are_removed() {
        // Row 0 confined to box 0, others free: box 0 is taken, so rows 1 and 2 lose it.
        let pattern = 0b111_111_001;
        let keep = TRIAD_KEEP[pattern] as u32;
        assert_eq!(TRIAD_KEEP[pattern] >> 32, 0b110_110_001 | 2 << 18);
        assert_eq!(keep & 0b111, 0b111);
        assert_eq!(keep & (0b111 << 9), 0);
        assert_eq!(keep & (0b111 << 18), 0);
    }

    #[test]
    fn peers_cover_row_box_and_column() {
        // Cell 0: row 0 (8 others), box 0 rows 1-2 (6 cells); column 0 is inside box 0.
        assert_eq!(PEERS_IN_BAND[0].count_ones(), 8 + 6);
        assert_eq!(PEERS_IN_BAND[0] & 1, 0);
    }
}
