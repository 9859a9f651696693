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
//! the band in hand). The column order is not chosen up front but refined row by row,
//! as an ordered partition (`StackGroup`): cells of columns that every row so far has
//! left alike, inside stacks placed at result stacks, and groups of stacks that have
//! been empty so far. Laying out a row sorts each cell (empties, then named digits by
//! name, then new digits), splitting it where the row tells its columns apart. Only two
//! things branch: the order of new digits inside one cell (each names them otherwise),
//! and the order of the stacks of a group that the row reaches, by non-decreasing given
//! count. So a row of one given is one layout, not the 144 column orders that push it
//! right. A prefix above the bound is cut at the end of each cell; once every column
//! is placed a row is coded straight from its givens.
//!
//! At each depth the children's layouts are first walked for the smallest code (each
//! child's own noted), which is admitted against the best result's row (a smaller one
//! becomes the new best and the count restarts), then walked again to follow the
//! layouts that reach it. Empty rows of one band are interchangeable, so one of them is
//! followed and counted as many. At a leaf, each cell and group still whole counts
//! every order of itself.
//!
//! A [`Canonicalizer`] is a few hundred bytes reused for every puzzle: a call never
//! allocates.

use crate::values::grid::{Grid, CELLS};

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

/// Orders of one, two and three things, by count (the first `n` entries of each).
const PERMS: [&[[usize; 3]]; 4] = [
    &[[0, 1, 2]],
    &[[0, 1, 2]],
    &[[0, 1, 2], [1, 0, 2]],
    &crate::engines::solver::tables::PERMUTATIONS,
];

/// `FACTORIAL[n]` = n!.
const FACTORIAL: [u64; 4] = [1, 1, 2, 6];

/// The key of a new (not yet named) digit when a cell is sorted: above every name.
const NEW: u8 = 16;

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

    /// The name of digit `d` (0 for empty), naming it if it is new.
    #[inline]
    fn name(&mut self, d: u8) -> u8 {
        if d == 0 {
            return 0;
        }
        let slot = &mut self.names[d as usize];
        if *slot == 0 {
            *slot = self.next;
            self.next += 1;
        }
        *slot
    }

    /// The sort key of digit `d` in a cell: 0 empty, its name, or [`NEW`].
    #[inline]
    fn key(&self, d: u8) -> u8 {
        match d {
            0 => 0,
            _ if self.names[d as usize] == 0 => NEW,
            _ => self.names[d as usize],
        }
    }
}

/// The column order so far, as an ordered partition: one order that reaches the best
/// rows, and which parts of it may still be reordered.
///
/// ```text
///   result column   0 1 2 | 3 4 5 | 6 7 8
///   order           5 3 4 | 0 1 2 | 8 6 7     source column at each result column
///   cuts            1 0 1 | 1 0 0 | 1 1 1     a cell starts: {5} {3 4} | {0 1 2} | {8} {6} {7}
///   groups          1     | 1     | 0         a group of stacks starts: [stack 1] [stacks 0 2]
/// ```
///
/// The columns of one cell have been alike in every row so far (all empty, or the same
/// digit), so every order of them gives the same rows; so do the stacks of one group,
/// which have been empty in every row so far (and are whole cells).
#[derive(Clone, Copy)]
struct StackGroup {
    /// `order[j]`: the source column at result column `j`.
    order: [u8; 9],
    /// Bit `j`: result column `j` starts a cell. Bits 0, 3 and 6 are always set.
    cuts: u16,
    /// Bit `s`: result stack `s` starts a group of stacks. Bit 0 is always set.
    groups: u8,
}

impl StackGroup {
    /// Nothing chosen yet: one group of three whole stacks.
    const ANY: StackGroup = StackGroup {
        order: [0, 1, 2, 3, 4, 5, 6, 7, 8],
        cuts: 0b001_001_001,
        groups: 0b001,
    };

    /// Puts source stack `stack` at result stack `slot`, as one cell.
    #[inline]
    fn place(&mut self, slot: usize, stack: u8) {
        for k in 0..3 {
            self.order[3 * slot + k] = 3 * stack + k as u8;
        }
        self.cuts = (self.cuts & !(0b111 << (3 * slot))) | 1 << (3 * slot);
    }

    /// How many column orders this stands for: every order inside each cell and of the
    /// stacks inside each group.
    fn orders(&self) -> u64 {
        fn runs(bits: u16, len: usize) -> u64 {
            let (mut n, mut run) = (1, 0);
            for j in 0..len {
                if j > 0 && bits & (1 << j) != 0 {
                    n *= FACTORIAL[run];
                    run = 0;
                }
                run += 1;
            }
            n * FACTORIAL[run]
        }
        runs(self.cuts, 9) * runs(u16::from(self.groups), 3)
    }
}

/// One partial transform: the rows chosen so far and what they fixed.
#[derive(Clone, Copy)]
struct CanonNode {
    /// 0: rows are the puzzle's rows; 1: its columns.
    t: u8,
    /// Source rows used (bit `r`).
    used: u16,
    /// The band of the row chosen last.
    band: u8,
    /// The column order the rows so far allow.
    cols: StackGroup,
    names: Names,
    /// How many interchangeable row orders this node stands for.
    weight: u64,
}

/// A source row that may come next, and how many interchangeable rows it stands for.
#[derive(Clone, Copy, Default)]
struct Child {
    row: u8,
    t: u8,
    weight: u64,
}

/// One child row being laid out under a node's column order.
struct Walk {
    d: usize,
    node: CanonNode,
    child: Child,
    /// The row's digit at each source column.
    digits: [u8; 9],
    /// Bit `c` set where the row has a given.
    mask: u16,
}

/// Where a finished layout of a row goes.
struct RowSink {
    /// Layouts whose code is above this are pruned (their prefixes as soon as they are).
    bound: u64,
    /// The smallest code reached since `own` was reset.
    own: u64,
    /// `false`: only finding the smallest code; `true`: following every layout whose
    /// code is `bound`.
    follow: bool,
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
}

impl Default for Canonicalizer {
    fn default() -> Self {
        Self::new()
    }
}

impl Canonicalizer {
    /// A canonicalizer (a few hundred bytes, no heap).
    pub fn new() -> Self {
        Canonicalizer {
            rows: [[[0; 9]; 9]; 2],
            masks: [[0; 9]; 2],
            best: [u64::MAX; 9],
            count: 0,
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
        let root = CanonNode {
            t: 0,
            used: 0,
            band: 0,
            cols: StackGroup::ANY,
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
    fn candidates(&self, d: usize, node: &CanonNode, out: &mut [Child; 18]) -> usize {
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
                    out[n] = Child { row, t, weight: 1 };
                    n += 1;
                }
            }
        }
        n
    }

    #[inline]
    fn mask(&self, child: &Child) -> u16 {
        self.masks[child.t as usize][child.row as usize]
    }

    /// The node below `node` for `child`, with the column order and names after its row.
    #[inline]
    fn child_node(node: &CanonNode, child: &Child, cols: StackGroup, names: Names) -> CanonNode {
        CanonNode {
            t: child.t,
            used: node.used | 1 << child.row,
            band: child.row / 3,
            cols,
            names,
            weight: node.weight * child.weight,
        }
    }

    fn step(&mut self, d: usize, node: &CanonNode) {
        if d == 9 {
            self.count += node.weight * node.cols.orders();
            return;
        }
        let mut children = [Child::default(); 18];
        let n = self.candidates(d, node, &mut children);
        let children = &children[..n];
        if children.iter().any(|c| self.mask(c) == 0) {
            // Empty rows give an all-zero row, below any row with a given, and change
            // neither the column order nor the names.
            if !self.admit(d, 0) {
                return;
            }
            for child in children {
                if self.mask(child) == 0 {
                    let next = Self::child_node(node, child, node.cols, node.names);
                    self.step(d + 1, &next);
                }
            }
            return;
        }
        // First the smallest code any child's layout reaches, each child's own noted;
        // then the layouts that reach it are followed, from the children that can.
        let mut reached = [u64::MAX; 18];
        let mut sink = RowSink {
            bound: self.best[d],
            own: u64::MAX,
            follow: false,
        };
        for (i, child) in children.iter().enumerate() {
            let walk = self.walk(d, node, child);
            sink.own = u64::MAX;
            self.row(&walk, &mut sink);
            reached[i] = sink.own;
        }
        let min = reached[..n].iter().copied().min().unwrap_or(u64::MAX);
        if min == u64::MAX || !self.admit(d, min) {
            return;
        }
        let mut sink = RowSink {
            bound: min,
            own: u64::MAX,
            follow: true,
        };
        for (i, child) in children.iter().enumerate() {
            if reached[i] == min {
                let walk = self.walk(d, node, child);
                self.row(&walk, &mut sink);
            }
        }
    }

    /// The walk that lays out `child`'s row below `node`.
    #[inline]
    fn walk(&self, d: usize, node: &CanonNode, child: &Child) -> Walk {
        Walk {
            d,
            node: *node,
            child: *child,
            digits: self.rows[child.t as usize][child.row as usize],
            mask: self.mask(child),
        }
    }

    /// Lays out the walk's row in every way its node's column order allows.
    #[inline]
    fn row(&mut self, w: &Walk, sink: &mut RowSink) {
        let (cols, mut names) = (w.node.cols, w.node.names);
        if cols.cuts != 0x1FF {
            return self.slots(w, 0, cols, names, 0, sink);
        }
        // Every column placed: the row's digits go to their nibbles and are named from
        // the first cell on, visiting the givens only.
        let mut shifts = [0u8; 9];
        for (j, &c) in cols.order.iter().enumerate() {
            shifts[c as usize] = 4 * (8 - j as u8);
        }
        let mut givens = w.mask;
        let mut raw = 0u64;
        while givens != 0 {
            let c = givens.trailing_zeros() as usize;
            givens &= givens - 1;
            raw |= u64::from(w.digits[c]) << shifts[c];
        }
        let mut code = 0u64;
        while raw != 0 {
            let shift = (63 - raw.leading_zeros()) & !3;
            let d = ((raw >> shift) & 0xF) as u8;
            raw ^= u64::from(d) << shift;
            code |= u64::from(names.name(d)) << shift;
        }
        if code <= sink.bound {
            self.emit(w, cols, names, code, sink);
        }
    }

    /// Lays out result stacks `s..` of the walk's row, `code` holding the cells before.
    fn slots(
        &mut self,
        w: &Walk,
        s: usize,
        cols: StackGroup,
        names: Names,
        code: u64,
        sink: &mut RowSink,
    ) {
        if s == 3 {
            return self.emit(w, cols, names, code, sink);
        }
        let mut end = s + 1;
        while end < 3 && cols.groups & (1 << end) == 0 {
            end += 1;
        }
        if end == s + 1 {
            return self.cells(w, s, 3 * s, cols, names, code, sink);
        }
        // A group of stacks, empty in every row so far. Those empty in this row too come
        // first and stay a group; the others follow in every order, each on its own.
        let (mut empty, mut ne, mut full, mut nf) = ([0u8; 3], 0, [0u8; 3], 0);
        for k in s..end {
            let stack = cols.order[3 * k] / 3;
            if (w.mask >> (3 * stack)) & 0b111 == 0 {
                empty[ne] = stack;
                ne += 1;
            } else {
                full[nf] = stack;
                nf += 1;
            }
        }
        if nf == 0 {
            return self.slots(w, end, cols, names, code, sink);
        }
        let mut base = cols;
        for (k, &stack) in empty[..ne].iter().enumerate() {
            base.place(s + k, stack);
        }
        for k in s + 1..end {
            base.groups &= !(1 << k);
        }
        for k in s + ne..end {
            base.groups |= 1 << k;
        }
        // A stack with fewer givens starts with more empties, so only orders by
        // non-decreasing given count can be smallest.
        let givens = full.map(|stack| ((w.mask >> (3 * stack)) & 0b111).count_ones());
        for perm in PERMS[nf] {
            if (1..nf).any(|k| givens[perm[k - 1]] > givens[perm[k]]) {
                continue;
            }
            let mut next = base;
            for (k, &i) in perm[..nf].iter().enumerate() {
                next.place(s + ne + k, full[i]);
            }
            self.slots(w, s + ne, next, names, code, sink);
        }
    }

    /// Lays out the cells of result stack `s` (a stack of its own) from result column
    /// `p` on: each cell's empties first, then its named digits by name, then its new
    /// digits in every order (a digit's columns together), cut where the names differ.
    #[allow(clippy::too_many_arguments)]
    fn cells(
        &mut self,
        w: &Walk,
        s: usize,
        p: usize,
        cols: StackGroup,
        names: Names,
        code: u64,
        sink: &mut RowSink,
    ) {
        let stop = 3 * s + 3;
        if p == stop {
            return self.slots(w, s + 1, cols, names, code, sink);
        }
        let mut b = p + 1;
        while b < stop && cols.cuts & (1 << b) == 0 {
            b += 1;
        }
        let n = b - p;
        // The cell's columns sorted by key (insertion sort of at most three).
        let mut cell = [0u8; 3];
        let mut keys = [0u8; 3];
        for i in 0..n {
            let c = cols.order[p + i];
            let k = names.key(w.digits[c as usize]);
            let mut j = i;
            while j > 0 && keys[j - 1] > k {
                cell[j] = cell[j - 1];
                keys[j] = keys[j - 1];
                j -= 1;
            }
            cell[j] = c;
            keys[j] = k;
        }
        let fresh = keys[..n].iter().filter(|&&k| k == NEW).count();
        if fresh < 2 {
            return self.settle(w, s, p, &cell[..n], cols, names, code, sink);
        }
        // Two or more new digits: each order names them differently. StackGroup of one digit
        // (clashing givens) keep their relative order, so no order is listed twice.
        let old = n - fresh;
        'perms: for perm in PERMS[fresh] {
            let mut order = cell;
            for (k, &i) in perm[..fresh].iter().enumerate() {
                order[old + k] = cell[old + i];
            }
            for x in old..n {
                for y in x + 1..n {
                    let (cx, cy) = (order[x], order[y]);
                    if w.digits[cx as usize] == w.digits[cy as usize] && cx > cy {
                        continue 'perms;
                    }
                }
            }
            self.settle(w, s, p, &order[..n], cols, names, code, sink);
        }
    }

    /// Writes `order` as the cell at result columns `p..`, names its digits, cuts it
    /// where they differ, and goes on with the next cell unless the prefix is pruned.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn settle(
        &mut self,
        w: &Walk,
        s: usize,
        p: usize,
        order: &[u8],
        mut cols: StackGroup,
        mut names: Names,
        mut code: u64,
        sink: &mut RowSink,
    ) {
        let mut last = u8::MAX;
        for (i, &c) in order.iter().enumerate() {
            let j = p + i;
            cols.order[j] = c;
            let name = names.name(w.digits[c as usize]);
            code |= u64::from(name) << (4 * (8 - j));
            if i > 0 {
                if name != last {
                    cols.cuts |= 1 << j;
                } else {
                    cols.cuts &= !(1 << j);
                }
            }
            last = name;
        }
        let end = p + order.len();
        let shift = 4 * (9 - end);
        if code >> shift > sink.bound >> shift {
            return;
        }
        self.cells(w, s, end, cols, names, code, sink);
    }

    /// A finished layout of the walk's row: noted, or followed when its code is the
    /// smallest.
    #[inline]
    fn emit(&mut self, w: &Walk, cols: StackGroup, names: Names, code: u64, sink: &mut RowSink) {
        if sink.follow {
            if code == sink.bound {
                let next = Self::child_node(&w.node, &w.child, cols, names);
                self.step(w.d + 1, &next);
            }
        } else {
            sink.own = sink.own.min(code);
            sink.bound = sink.bound.min(code);
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
    fn column_orders_count_cells_and_groups() {
        assert_eq!(StackGroup::ANY.orders(), COLUMN_PERMUTATIONS);
        let mut cols = StackGroup::ANY;
        cols.place(0, 1);
        cols.place(1, 0);
        cols.place(2, 2);
        cols.groups = 0b111;
        cols.cuts |= 0b110_000_010;
        // {c3} {c4 c5} | {c0 c1 c2} | {c6} {c7} {c8}
        assert_eq!(cols.orders(), 2 * 6);
        cols.groups = 0b011;
        assert_eq!(cols.orders(), 2 * 6 * 2);
    }
}
