//! The board as Sukaku Explainer sees it: values, candidates, and its fixed orders of
//! cells, regions and peers (the orders decide which hint comes first, so they are part
//! of the rating).
//!
//! ```text
//! cell  = 9 * row + col                      candidates: bit v-1 for value v
//! region 0..9   blocks (type 0), cells row-major inside the 3x3
//! region 9..18  rows   (type 1), cells by column
//! region 18..27 columns(type 2), cells by row
//! ```

use crate::values::grid::Grid;

/// Every candidate of a cell.
pub const ALL: u16 = 0x1ff;

/// The cells of each region, in the region's own order.
pub static REGION_CELLS: [[u8; 9]; 27] = region_cells();

/// The three regions of each cell: block, row, column.
pub static CELL_REGIONS: [[u8; 3]; 81] = cell_regions();

/// The 20 peers of each cell, ascending.
pub static PEERS: [[u8; 20]; 81] = peers();

/// Each cell's peers as a set.
pub static PEER_SETS: [CellSet; 81] = peer_sets();

/// Each region's cells as a set.
pub static REGION_SETS: [CellSet; 27] = region_sets();

/// Regions by Sukaku Explainer's scan order for most rules: blocks, columns, rows.
pub const SCAN_ORDER: [u8; 27] = scan_order();

const fn region_cells() -> [[u8; 9]; 27] {
    let mut r = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            r[i][j] = ((i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3) as u8;
            r[9 + i][j] = (i * 9 + j) as u8;
            r[18 + i][j] = (j * 9 + i) as u8;
            j += 1;
        }
        i += 1;
    }
    r
}

const fn cell_regions() -> [[u8; 3]; 81] {
    let mut r = [[0u8; 3]; 81];
    let mut c = 0;
    while c < 81 {
        let (row, col) = (c / 9, c % 9);
        r[c] = [
            (row / 3 * 3 + col / 3) as u8,
            (9 + row) as u8,
            (18 + col) as u8,
        ];
        c += 1;
    }
    r
}

const fn sees(a: usize, b: usize) -> bool {
    a != b && (a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3))
}

const fn peers() -> [[u8; 20]; 81] {
    let mut p = [[0u8; 20]; 81];
    let mut c = 0;
    while c < 81 {
        let (mut o, mut n) = (0, 0);
        while o < 81 {
            if sees(c, o) {
                p[c][n] = o as u8;
                n += 1;
            }
            o += 1;
        }
        c += 1;
    }
    p
}

const fn peer_sets() -> [CellSet; 81] {
    let mut s = [CellSet::EMPTY; 81];
    let mut c = 0;
    while c < 81 {
        let mut o = 0;
        while o < 81 {
            if sees(c, o) {
                s[c] = s[c].with(o);
            }
            o += 1;
        }
        c += 1;
    }
    s
}

const fn region_sets() -> [CellSet; 27] {
    let cells = region_cells();
    let mut s = [CellSet::EMPTY; 27];
    let mut r = 0;
    while r < 27 {
        let mut j = 0;
        while j < 9 {
            s[r] = s[r].with(cells[r][j] as usize);
            j += 1;
        }
        r += 1;
    }
    s
}

const fn scan_order() -> [u8; 27] {
    let mut o = [0u8; 27];
    let mut i = 0;
    while i < 9 {
        o[i] = i as u8;
        o[9 + i] = (18 + i) as u8;
        o[18 + i] = (9 + i) as u8;
        i += 1;
    }
    o
}

/// The type of a region: 0 block, 1 row, 2 column.
pub const fn region_type(region: usize) -> usize {
    region / 9
}

/// A set of cells, iterated in ascending order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CellSet(pub u128);

impl CellSet {
    /// No cells.
    pub const EMPTY: CellSet = CellSet(0);

    /// All 81 cells.
    pub const ALL: CellSet = CellSet(!0 >> 47);

    /// The set with `cell` added.
    pub const fn with(self, cell: usize) -> CellSet {
        CellSet(self.0 | 1 << cell)
    }

    /// True when `cell` is in the set.
    pub const fn has(self, cell: usize) -> bool {
        self.0 >> cell & 1 != 0
    }

    /// The number of cells.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// CellSet in both sets.
    pub const fn and(self, o: CellSet) -> CellSet {
        CellSet(self.0 & o.0)
    }

    /// CellSet in either set.
    pub const fn or(self, o: CellSet) -> CellSet {
        CellSet(self.0 | o.0)
    }

    /// CellSet of this set not in `o`.
    pub const fn minus(self, o: CellSet) -> CellSet {
        CellSet(self.0 & !o.0)
    }

    /// The cells that see every cell of this set (all 81 for an empty set).
    pub fn seeing_all(self) -> CellSet {
        self.iter().fold(CellSet::ALL, |s, c| s.and(PEER_SETS[c]))
    }

    /// The cells, ascending.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let c = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                c
            })
        })
    }
}

/// The bits of a small mask, ascending.
pub fn bits(mut mask: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let b = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            b
        })
    })
}

/// Values and candidates of every cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pencilmarks {
    /// 1-9, or 0 when empty.
    pub value: [u8; 81],
    /// Candidates of an empty cell (bit v-1 for v); 0 for a filled one.
    pub cands: [u16; 81],
}

impl Pencilmarks {
    /// The board of a puzzle: every empty cell gets 1-9 less its peers' givens. No
    /// validity check, as Sukaku Explainer makes none.
    pub fn new(puzzle: &Grid) -> Pencilmarks {
        let mut b = Pencilmarks {
            value: [0; 81],
            cands: [ALL; 81],
        };
        for c in 0..81 {
            b.value[c] = puzzle.get(c);
        }
        for c in 0..81 {
            if b.value[c] != 0 {
                b.cands[c] = 0;
                for &p in &PEERS[c] {
                    b.cands[p as usize] &= !(1 << (b.value[c] - 1));
                }
            }
        }
        for c in 0..81 {
            if b.value[c] != 0 {
                b.cands[c] = 0;
            }
        }
        b
    }

    /// Sets `cell` to `value` (1-9) and removes the value from its peers.
    pub fn place(&mut self, cell: usize, value: u8) {
        self.value[cell] = value;
        self.cands[cell] = 0;
        for &p in &PEERS[cell] {
            self.cands[p as usize] &= !(1 << (value - 1));
        }
    }

    /// The positions (indices in the region's order) of candidate bit `v` in `region`.
    pub fn positions(&self, region: usize, v: usize) -> u16 {
        let mut m = 0;
        for (i, &c) in REGION_CELLS[region].iter().enumerate() {
            m |= (self.cands[c as usize] >> v & 1) << i;
        }
        m
    }

    /// The cells of `region` holding candidate bit `v`.
    pub fn cells_with(&self, region: usize, v: usize) -> CellSet {
        let mut s = CellSet::EMPTY;
        for &c in &REGION_CELLS[region] {
            if self.cands[c as usize] >> v & 1 != 0 {
                s = s.with(c as usize);
            }
        }
        s
    }

    /// Every cell holding candidate bit `v`.
    pub fn all_with(&self, v: usize) -> CellSet {
        let mut s = CellSet::EMPTY;
        for c in 0..81 {
            if self.cands[c] >> v & 1 != 0 {
                s = s.with(c);
            }
        }
        s
    }

    /// The cells with exactly `n` candidates (1: a single left, 2: bivalue).
    pub fn with_count(&self, n: u32) -> CellSet {
        CellSet((0..81).fold(0u128, |m, c| {
            m | u128::from(self.cands[c].count_ones() == n) << c
        }))
    }

    /// The cells holding each candidate bit, in one pass over the board.
    pub fn holders(&self) -> [CellSet; 9] {
        let mut h = [CellSet::EMPTY; 9];
        for c in 0..81 {
            for v in bits(self.cands[c]) {
                h[v] = h[v].with(c);
            }
        }
        h
    }

    /// Empty cells of `region`.
    pub fn empties(&self, region: usize) -> u32 {
        REGION_CELLS[region]
            .iter()
            .filter(|&&c| self.value[c as usize] == 0)
            .count() as u32
    }

    /// True when every cell holds a value.
    pub fn is_full(&self) -> bool {
        self.value.iter().all(|&v| v != 0)
    }
}

/// Every k-subset of {0..n-1} as a bit mask, in numeric order (Sukaku Explainer's
/// `Permutations` order: {0,1}, {0,2}, {1,2}, {0,3}, ...), for n <= 9.
pub fn subsets(k: u32, n: u32) -> impl Iterator<Item = u16> {
    let k = k as usize;
    SUBSETS[SUBSET_STARTS[k]..SUBSET_STARTS[k + 1]]
        .iter()
        .copied()
        .take_while(move |&m| m < 1 << n)
}

/// The 512 subsets of {0..8} by size, each size in numeric order.
static SUBSETS: [u16; 512] = subsets_by_size().0;
/// Where each size starts in [`SUBSETS`] (and where the last ends).
static SUBSET_STARTS: [usize; 11] = subsets_by_size().1;

const fn subsets_by_size() -> ([u16; 512], [usize; 11]) {
    let mut out = [0u16; 512];
    let mut starts = [0usize; 11];
    let mut n = 0;
    let mut k = 0;
    while k <= 9 {
        starts[k] = n;
        let mut m = 0u16;
        while m < 512 {
            if m.count_ones() as usize == k {
                out[n] = m;
                n += 1;
            }
            m += 1;
        }
        k += 1;
    }
    starts[10] = n;
    (out, starts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_come_in_numeric_order_by_size() {
        for k in 0..=9u32 {
            for n in [4u32, 9] {
                let want: Vec<u16> = (0u16..1 << n).filter(|m| m.count_ones() == k).collect();
                assert_eq!(subsets(k, n).collect::<Vec<_>>(), want, "k {k} n {n}");
            }
        }
    }
}
