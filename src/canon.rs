//! Canonical (minlex) forms of 9x9 puzzles, and their automorphism counts.
//!
//! Two puzzles are equivalent when one becomes the other by the validity-preserving
//! transforms: transposition, band order, row order inside each band, stack order,
//! column order inside each stack (2 x 6^8 = 3,359,232 geometric transforms), and a
//! renaming of the digits. The canonical form of a puzzle is the smallest 81-character
//! string (`0` for empty, row by row) over all geometric transforms, each followed by the
//! renaming that makes it smallest: digits named `1`, `2`, ... in order of first
//! appearance. This is the forum's minlex form (a 17-clue puzzle's starts `000000001`).
//! It is defined for every puzzle, whatever its solution count, clashing givens included.
//!
//! The automorphism count is how many geometric transforms (each with its renaming) map
//! the puzzle to itself: the transforms that reach the minimum are one coset of that
//! group, so their number is counted along the way. It is at least 1; the empty grid's is
//! 3,359,232.
//!
//! # Search
//!
//! A depth-first branch and bound builds the result row by row. Choosing result row `d`
//! means choosing a source row (any unused row at a band's start, else an unused row of
//! the band in hand). The column permutation is chosen at the first row that holds a
//! given: only the permutations that put that row's givens as far right as possible can
//! lead to the minimum (a `0` beats any digit), so just those (at most 1,296, usually 24
//! to 144) are listed. Every later row is then a fixed string under the digit names so
//! far. At each row the children are evaluated first and only those equal to the
//! smallest go on, and only if that is not above the best result's row; a smaller one
//! becomes the new best. Where the permutations are listed, most (row, permutation)
//! pairs tie, so each is also ranked by its best next row of the band before any is
//! followed (one breadth step). Empty rows of one band are interchangeable, so one of
//! them is followed and counted as many. Work is bounded: at most 18 first rows x 1,296 column
//! permutations x 144 row orders leaves.
//!
//! A [`Canonicalizer`] holds its buffers and is reused for every puzzle: a call never
//! allocates.

use crate::grid::{Grid, CELLS};

/// Number of column permutations that keep stacks: 3! stack orders x (3!)^3.
pub const COLUMN_PERMUTATIONS: u64 = 1296;
/// Number of geometric transforms: transposition x row permutations x column permutations.
pub const TRANSFORMS: u64 = 2 * COLUMN_PERMUTATIONS * COLUMN_PERMUTATIONS;

/// A puzzle's canonical form and how many transforms map it to itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Canonical {
    /// The minlex form: 81 ASCII digits, `b'0'` for empty.
    pub form: [u8; CELLS],
    /// Geometric transforms (with their renaming) that map the puzzle to itself, at least 1.
    pub automorphisms: u64,
}

impl Canonical {
    /// The form as a [`Grid`] (the same cells, `0` for empty).
    pub fn grid(&self) -> Grid {
        let mut cells = [0u8; CELLS];
        for (c, &b) in cells.iter_mut().zip(&self.form) {
            *c = b - b'0';
        }
        Grid::from_cells(cells).expect("a canonical form holds digits only")
    }

    /// The form as text.
    pub fn as_str(&self) -> &str {
        std::str::from_utf8(&self.form).expect("ASCII digits")
    }
}

/// The smallest pattern (bit 8 = first cell) of a row whose givens stand at the columns
/// of the 9-bit mask (bit `c` = column `c`), over all column permutations: stacks in
/// increasing order of givens, each stack's givens to its right.
const MIN_PATTERN: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut g = [
            (m & 7u32).count_ones(),
            ((m >> 3) & 7u32).count_ones(),
            ((m >> 6) & 7u32).count_ones(),
        ];
        // Sort three counts.
        if g[0] > g[1] {
            let t = g[0];
            g[0] = g[1];
            g[1] = t;
        }
        if g[1] > g[2] {
            let t = g[1];
            g[1] = g[2];
            g[2] = t;
        }
        if g[0] > g[1] {
            let t = g[0];
            g[0] = g[1];
            g[1] = t;
        }
        table[m as usize] = (seg(g[0]) << 6) | (seg(g[1]) << 3) | seg(g[2]);
        m += 1;
    }
    table
};

/// A stack's smallest pattern with `k` givens: `k` ones at its right.
const fn seg(k: u32) -> u16 {
    (1u16 << k) - 1
}

/// The six orders of three things.
const ORDERS: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// Largest number of (first row, column permutation) pairs listed at once: 18 rows
/// (both orientations) x 1,296 permutations.
const MAX_PAIRS: usize = 18 * COLUMN_PERMUTATIONS as usize;

/// A column permutation as shifts: source column `c` goes to result column `j`, whose
/// nibble in a row's code is at bit `shifts[c] = 4 * (8 - j)`. Bytes 9 to 15 are zero
/// (16 bytes, so that permutations are put together by or-ing words).
type Shifts = [u8; 16];

/// Digit names so far: `names[d]` is the name given to digit `d` (0 = none yet).
#[derive(Clone, Copy)]
struct Names {
    names: [u8; 10],
    next: u8,
}

impl Names {
    const NONE: Names = Names {
        names: [0; 10],
        next: 1,
    };
}

/// One partial transform: the rows chosen so far and what they fixed.
#[derive(Clone, Copy)]
struct Node {
    /// 0: rows are the puzzle's rows; 1: its columns.
    t: u8,
    /// Source rows used (bit `r`).
    used: u16,
    /// The band of the row chosen last.
    band: u8,
    /// The column permutation, once chosen, as the shift of each source column's nibble
    /// in a row's code.
    perm: Option<Shifts>,
    names: Names,
    /// How many interchangeable transforms this node stands for.
    weight: u64,
}

/// A child row: its source row, its string's code, and how many it stands for.
#[derive(Clone, Copy, Default)]
struct Child {
    row: u8,
    t: u8,
    code: u64,
    weight: u64,
}

/// Reusable minlex search state for one thread.
pub struct Canonicalizer {
    /// `rows[t][r][c]`: the puzzle (t = 0) and its transpose (t = 1).
    rows: [[[u8; 9]; 9]; 2],
    /// `masks[t][r]`: bit `c` set where `rows[t][r][c]` holds a given.
    masks: [[u16; 9]; 2],
    /// The best result's rows so far, as codes (a nibble a cell, first cell highest).
    best: [u64; 9],
    /// Transforms reaching `best`.
    count: u64,
    /// (child, column permutation) pairs at the row where permutations are chosen.
    pairs: Vec<(Child, Shifts)>,
    /// For each pair, its best next row's code (`u64::MAX` when not looked at).
    next_codes: Vec<u64>,
}

impl Default for Canonicalizer {
    fn default() -> Self {
        Self::new()
    }
}

impl Canonicalizer {
    /// A canonicalizer with its buffers made (about 300 KiB).
    pub fn new() -> Self {
        Canonicalizer {
            rows: [[[0; 9]; 9]; 2],
            masks: [[0; 9]; 2],
            best: [u64::MAX; 9],
            count: 0,
            pairs: Vec::with_capacity(MAX_PAIRS),
            next_codes: Vec::with_capacity(MAX_PAIRS),
        }
    }

    /// The canonical form and automorphism count of `puzzle`.
    pub fn canonical(&mut self, puzzle: &Grid) -> Canonical {
        let cells = puzzle.cells();
        self.masks = [[0; 9]; 2];
        for r in 0..9 {
            for c in 0..9 {
                let d = cells[r * 9 + c];
                self.rows[0][r][c] = d;
                self.rows[1][c][r] = d;
                let given = u16::from(d != 0);
                self.masks[0][r] |= given << c;
                self.masks[1][c] |= given << r;
            }
        }
        self.best = [u64::MAX; 9];
        self.count = 0;
        let root = Node {
            t: 0,
            used: 0,
            band: 0,
            perm: None,
            names: Names::NONE,
            weight: 1,
        };
        self.step(0, &root);
        let mut form = [b'0'; CELLS];
        for (r, &code) in self.best.iter().enumerate() {
            for c in 0..9 {
                form[r * 9 + c] = b'0' + ((code >> (4 * (8 - c))) & 0xF) as u8;
            }
        }
        Canonical {
            form,
            automorphisms: self.count,
        }
    }

    /// The code of source row `row` (orientation `t`) under the column permutation
    /// `shifts`, naming new digits. Only the row's givens are visited: their digits are
    /// placed first, then named from the first cell on (the order names are given in).
    #[inline]
    fn code(&self, t: u8, row: u8, shifts: &Shifts, names: &mut Names) -> u64 {
        let src = &self.rows[t as usize][row as usize];
        let mut givens = self.masks[t as usize][row as usize];
        let mut raw = 0u64;
        while givens != 0 {
            let c = givens.trailing_zeros() as usize;
            givens &= givens - 1;
            raw |= u64::from(src[c]) << shifts[c];
        }
        let mut code = 0u64;
        while raw != 0 {
            let shift = (63 - raw.leading_zeros()) & !3;
            let d = ((raw >> shift) & 0xF) as usize;
            raw ^= (d as u64) << shift;
            if names.names[d] == 0 {
                names.names[d] = names.next;
                names.next += 1;
            }
            code |= u64::from(names.names[d]) << shift;
        }
        code
    }

    /// Compares the smallest child code at depth `d` with the best: `false` prunes, and
    /// a smaller code becomes the best's row (and forgets what was counted).
    #[inline]
    fn admit(&mut self, d: usize, min: u64) -> bool {
        if min > self.best[d] {
            return false;
        }
        if min < self.best[d] {
            self.best[d] = min;
            for b in &mut self.best[d + 1..] {
                *b = u64::MAX;
            }
            self.count = 0;
        }
        true
    }

    /// The source rows that may come at depth `d` below `node`, one per group of
    /// interchangeable empty rows (its weight the group's size).
    fn candidates(&self, d: usize, node: &Node, out: &mut [Child; 18]) -> usize {
        let mut n = 0;
        let orientations: &[u8] = if d == 0 { &[0, 1] } else { &[node.t][..] };
        let band_start = d % 3 == 0;
        for &t in orientations {
            for band in 0..3u8 {
                let begun = node.used & (0b111 << (band * 3)) != 0;
                // At a band's start only untouched bands; else only the band in hand.
                if (band_start && begun) || (!band_start && band != node.band) {
                    continue;
                }
                let mut empty_at: Option<usize> = None;
                for row in band * 3..band * 3 + 3 {
                    if node.used & (1 << row) != 0 {
                        continue;
                    }
                    if self.masks[t as usize][row as usize] == 0 {
                        if let Some(i) = empty_at {
                            out[i].weight += 1;
                            continue;
                        }
                        empty_at = Some(n);
                    }
                    out[n] = Child {
                        row,
                        t,
                        code: 0,
                        weight: 1,
                    };
                    n += 1;
                }
            }
        }
        n
    }

    /// The node below `node` for `child`, with `perm` and `names` after its row.
    #[inline]
    fn child_node(node: &Node, child: &Child, perm: Option<Shifts>, names: Names) -> Node {
        Node {
            t: child.t,
            used: node.used | 1 << child.row,
            band: child.row / 3,
            perm,
            names,
            weight: node.weight * child.weight,
        }
    }

    fn step(&mut self, d: usize, node: &Node) {
        if d == 9 {
            let perms = if node.perm.is_some() {
                1
            } else {
                COLUMN_PERMUTATIONS
            };
            self.count += node.weight * perms;
            return;
        }
        let mut children = [Child::default(); 18];
        let n = self.candidates(d, node, &mut children);
        let children = &mut children[..n];
        match node.perm {
            Some(perm) => {
                let mut min = u64::MAX;
                for child in children.iter_mut() {
                    let mut names = node.names;
                    child.code = self.code(child.t, child.row, &perm, &mut names);
                    min = min.min(child.code);
                }
                if !self.admit(d, min) {
                    return;
                }
                for child in children.iter() {
                    if child.code == min {
                        let mut names = node.names;
                        self.code(child.t, child.row, &perm, &mut names);
                        let next = Self::child_node(node, child, Some(perm), names);
                        self.step(d + 1, &next);
                    }
                }
            }
            None if children.iter().any(|c| self.mask(c) == 0) => {
                // Empty rows give an all-zero row, below any row with a given.
                if !self.admit(d, 0) {
                    return;
                }
                for child in children.iter() {
                    if self.mask(child) == 0 {
                        let next = Self::child_node(node, child, None, node.names);
                        self.step(d + 1, &next);
                    }
                }
            }
            None => self.choose_columns(d, node, children),
        }
    }

    /// The smallest code the row after `child` (from the rest of its band) can have
    /// under `perm`, with `names` the digit names after `child`'s row.
    fn next_row_min(&self, used: u16, child: &Child, perm: &Shifts, names: Names) -> u64 {
        let used = used | 1 << child.row;
        let band = child.row / 3;
        let mut min = u64::MAX;
        for row in band * 3..band * 3 + 3 {
            if used & (1 << row) == 0 {
                let mut after = names;
                min = min.min(self.code(child.t, row, perm, &mut after));
            }
        }
        min
    }

    #[inline]
    fn mask(&self, child: &Child) -> u16 {
        self.masks[child.t as usize][child.row as usize]
    }

    /// The first row with givens: lists the column permutations that put them rightmost,
    /// for the children whose pattern is smallest, and goes on with the smallest codes.
    fn choose_columns(&mut self, d: usize, node: &Node, children: &[Child]) {
        let min_pattern = children
            .iter()
            .map(|c| MIN_PATTERN[self.mask(c) as usize])
            .min()
            .expect("a row always has candidates");
        self.pairs.clear();
        self.next_codes.clear();
        // Most pairs tie on this row. When the next row comes from the same band, each
        // pair that may be smallest is ranked by its best next row too (one breadth
        // step), so that only the pairs reaching the smallest go deeper: a depth-first
        // walk would search some of the others' subtrees before a better pair cut them.
        let look_ahead = d % 3 != 2;
        let mut min = u64::MAX;
        for child in children {
            let mask = self.mask(child);
            if MIN_PATTERN[mask as usize] != min_pattern {
                continue;
            }
            let start = self.pairs.len();
            push_rightmost_perms(mask, child, &mut self.pairs);
            for i in start..self.pairs.len() {
                let (mut c, perm) = self.pairs[i];
                let mut names = node.names;
                c.code = self.code(c.t, c.row, &perm, &mut names);
                // Only pairs at the smallest code so far can end up followed.
                let next = if look_ahead && c.code <= min {
                    self.next_row_min(node.used, &c, &perm, names)
                } else {
                    u64::MAX
                };
                min = min.min(c.code);
                self.pairs[i].0 = c;
                self.next_codes.push(next);
            }
        }
        if !self.admit(d, min) {
            return;
        }
        let mut min2 = u64::MAX;
        if look_ahead {
            for (pair, &next) in self.pairs.iter().zip(&self.next_codes) {
                if pair.0.code == min {
                    min2 = min2.min(next);
                }
            }
            if !self.admit(d + 1, min2) {
                return;
            }
        }
        // Deeper rows never list permutations again (the node carries one), so the
        // list stays as it is while its entries are followed.
        for i in 0..self.pairs.len() {
            let (child, perm) = self.pairs[i];
            if child.code != min || (look_ahead && self.next_codes[i] != min2) {
                continue;
            }
            let mut names = node.names;
            self.code(child.t, child.row, &perm, &mut names);
            let next = Self::child_node(node, &child, Some(perm), names);
            self.step(d + 1, &next);
        }
    }
}

/// Appends every column permutation that puts the givens of a row with `mask` as far
/// right as possible: stacks in increasing order of givens (ties in every order), inside
/// each stack its empty columns (in every order) before its givens (in every order).
fn push_rightmost_perms(mask: u16, child: &Child, out: &mut Vec<(Child, Shifts)>) {
    let counts = [0, 1, 2].map(|s| ((mask >> (3 * s)) & 7).count_ones());
    // Inside-stack orders that keep empties first.
    let mut inner = [[[0u8; 3]; 6]; 3];
    let mut inner_n = [0usize; 3];
    for s in 0..3 {
        for order in ORDERS {
            let cols = order.map(|k| 3 * s as u8 + k);
            let filled = cols.map(|c| mask & (1 << c) != 0);
            // Non-decreasing: no given before an empty column.
            if (filled[0] && !filled[1]) || (filled[1] && !filled[2]) {
                continue;
            }
            inner[s][inner_n[s]] = cols;
            inner_n[s] += 1;
        }
    }
    // `part[s][i][p]`: the shifts of stack `s`'s columns in its `i`-th order when the
    // stack lands at result stack `p` (zero for the other columns), to be or-ed.
    let mut part = [[[0u128; 3]; 6]; 3];
    for s in 0..3 {
        for (i, cols) in inner[s][..inner_n[s]].iter().enumerate() {
            for (p, slot) in part[s][i].iter_mut().enumerate() {
                let mut shifts: Shifts = [0; 16];
                for (k, &c) in cols.iter().enumerate() {
                    shifts[c as usize] = 4 * (8 - (3 * p + k) as u8);
                }
                *slot = u128::from_le_bytes(shifts);
            }
        }
    }
    for stacks in ORDERS {
        let g = stacks.map(|s| counts[s as usize]);
        if g[0] > g[1] || g[1] > g[2] {
            continue;
        }
        let [a, b, c] = stacks.map(usize::from);
        for x in &part[a][..inner_n[a]] {
            for y in &part[b][..inner_n[b]] {
                let xy = x[0] | y[1];
                for z in &part[c][..inner_n[c]] {
                    out.push((*child, (xy | z[2]).to_le_bytes()));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(text: &str) -> Canonical {
        Canonicalizer::new().canonical(&Grid::parse(text.as_bytes()).unwrap())
    }

    #[test]
    fn empty_grid_is_fixed_by_every_transform() {
        let c = Canonicalizer::new().canonical(&Grid::EMPTY);
        assert_eq!(c.form, [b'0'; CELLS]);
        assert_eq!(c.automorphisms, TRANSFORMS);
    }

    #[test]
    fn one_given_goes_to_the_last_cell() {
        let mut text = [b'.'; CELLS];
        text[40] = b'7';
        let c = canon(std::str::from_utf8(&text).unwrap());
        let mut want = [b'0'; CELLS];
        want[80] = b'1';
        assert_eq!(c.form, want);
        // The transforms that fix one cell: all of them over 81 cells.
        assert_eq!(c.automorphisms, TRANSFORMS / 81);
    }

    #[test]
    fn min_pattern_sorts_stacks_and_pushes_givens_right() {
        assert_eq!(MIN_PATTERN[0], 0);
        assert_eq!(MIN_PATTERN[0b1], 0b1);
        assert_eq!(MIN_PATTERN[0b111_000_000], 0b111);
        assert_eq!(MIN_PATTERN[0b001_011_000], 0b000_001_011);
        assert_eq!(MIN_PATTERN[0x1FF], 0x1FF);
    }

    #[test]
    fn rightmost_perms_count() {
        let child = Child::default();
        let mut out = Vec::new();
        for (mask, want) in [
            (0u16, 1296),
            (1, 144),
            (0b11, 144),
            (0b1001, 48),
            (0x1FF, 1296),
        ] {
            out.clear();
            push_rightmost_perms(mask, &child, &mut out);
            assert_eq!(out.len(), want, "mask {mask:b}");
        }
    }
}
