//! The techniques that hold on any geometry, written once: hidden and naked singles,
//! pointing and claiming, naked and hidden subsets. They read and change a position
//! through [`Pencil`], which the 9x9 grader's [`Candidates`](super::candidates) and the
//! board grader's view of a variant board implement; the 9x9-only techniques (fish,
//! wings, uniqueness, chains) are a layer on top of these in `techniques.rs`.
//!
//! Every technique makes one step (a placement, or the eliminations of one pattern) and
//! says whether it made progress. The search order is fixed, units in unit order, values
//! and positions lowest first, so a grade is the same on every run.

/// A pencil-mark position on some geometry: its units, and the candidates of each cell
/// as bit `v - 1` for value `v`.
pub trait Pencil {
    /// Symbols per unit.
    fn side(&self) -> usize;
    /// Cells of the grid.
    fn cells(&self) -> usize;
    /// Units of the geometry.
    fn unit_count(&self) -> usize;
    /// The cell at position `k` of `unit`.
    fn cell_at(&self, unit: usize, k: usize) -> usize;
    /// The units `cell` belongs to, in unit order.
    fn units_of(&self, cell: usize) -> &[u8];
    /// True for boxes and windows, false for lines (rows, columns, diagonals).
    fn is_box(&self, unit: usize) -> bool;
    /// The candidates of `cell` (0 once it is filled).
    fn candidates(&self, cell: usize) -> u32;
    /// Places `value` (1-based) in `cell`, removing it from the cell's peers.
    fn place(&mut self, cell: usize, value: u8);
    /// Removes the candidates `bits` from `cell`; true when any was there.
    fn eliminate(&mut self, cell: usize, bits: u32) -> bool;

    /// The positions in `unit` (bit `k` for its `k`-th cell) where the value of `bit`
    /// is a candidate.
    #[inline]
    fn positions(&self, unit: usize, bit: u32) -> u32 {
        let mut positions = 0;
        for k in 0..self.side() {
            if self.candidates(self.cell_at(unit, k)) & bit != 0 {
                positions |= 1 << k;
            }
        }
        positions
    }

    /// True when `cell` is in `unit`.
    #[inline]
    fn in_unit(&self, unit: usize, cell: usize) -> bool {
        self.units_of(cell).contains(&(unit as u8))
    }

    /// The positions in `unit` of the cells that `other` holds too.
    #[inline]
    fn shared(&self, unit: usize, other: usize) -> u32 {
        (0..self.side())
            .filter(|&k| self.in_unit(other, self.cell_at(unit, k)))
            .fold(0, |m, k| m | 1 << k)
    }
}

/// Places one hidden single: the first unit of the kind asked for (boxes and windows,
/// or lines) with a value that has one place left, its lowest such value.
pub fn hidden_single(p: &mut impl Pencil, boxes: bool) -> bool {
    for unit in 0..p.unit_count() {
        if p.is_box(unit) != boxes {
            continue;
        }
        let (mut once, mut twice) = (0u32, 0u32);
        for k in 0..p.side() {
            let m = p.candidates(p.cell_at(unit, k));
            twice |= once & m;
            once |= m;
        }
        let singles = once & !twice;
        if singles != 0 {
            let bit = singles & singles.wrapping_neg();
            let k = p.positions(unit, bit).trailing_zeros() as usize;
            p.place(p.cell_at(unit, k), bit.trailing_zeros() as u8 + 1);
            return true;
        }
    }
    false
}

/// Places one naked single: the first cell with one candidate left.
pub fn naked_single(p: &mut impl Pencil) -> bool {
    for cell in 0..p.cells() {
        let m = p.candidates(cell);
        if m != 0 && m & (m - 1) == 0 {
            p.place(cell, m.trailing_zeros() as u8 + 1);
            return true;
        }
    }
    false
}

/// Locked candidates from the side of `from` units (boxes when `pointing`, else lines):
/// when a value's places in such a unit all lie in one unit of the other kind, the
/// value leaves the rest of that unit.
pub fn locked(p: &mut impl Pencil, pointing: bool) -> bool {
    for unit in 0..p.unit_count() {
        if p.is_box(unit) != pointing {
            continue;
        }
        for v in 0..p.side() {
            let bit = 1u32 << v;
            let positions = p.positions(unit, bit);
            // A box with one place left is a hidden single, found first in a grade; the
            // chains' propagation may still meet one here, and takes its line.
            if positions == 0 || (!pointing && positions.count_ones() < 2) {
                continue;
            }
            let first = p.cell_at(unit, positions.trailing_zeros() as usize);
            // The units of the other kind through the first place, in unit order: the
            // first that holds every place is the one the value is locked in.
            let mut through = [0u8; crate::values::geometry::UNITS_PER_CELL];
            let count = p.units_of(first).len();
            through[..count].copy_from_slice(p.units_of(first));
            for &other in &through[..count] {
                let other = usize::from(other);
                if p.is_box(other) == pointing {
                    continue;
                }
                if positions & !p.shared(unit, other) != 0 {
                    continue;
                }
                let crossing = p.shared(other, unit);
                let mut progress = false;
                for k in (0..p.side()).filter(|k| crossing >> k & 1 == 0) {
                    progress |= p.eliminate(p.cell_at(other, k), bit);
                }
                if progress {
                    return true;
                }
                break;
            }
        }
    }
    false
}

/// The set bits of `mask`, lowest first, as positions.
#[inline]
fn bits(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let k = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            k
        })
    })
}

/// The mask of `side` values or positions.
#[inline]
fn every(side: usize) -> u32 {
    if side >= 32 {
        u32::MAX
    } else {
        (1u32 << side) - 1
    }
}

/// Calls `each` with every `n`-subset (as a bit mask) of the set bits of `items`, in
/// lexicographic order of their bits, stopping when it returns true.
#[inline]
pub fn subsets<F: FnMut(u32) -> bool>(items: u32, n: u32, each: &mut F) -> bool {
    fn go<F: FnMut(u32) -> bool>(items: u32, n: u32, chosen: u32, each: &mut F) -> bool {
        if n == 0 {
            return each(chosen);
        }
        let mut rest = items;
        while rest.count_ones() >= n {
            let low = rest & rest.wrapping_neg();
            rest &= !low;
            if go(rest, n - 1, chosen | low, each) {
                return true;
            }
        }
        false
    }
    go(items, n, 0, each)
}

/// A naked subset: `n` cells of a unit whose candidates number `n` between them leave
/// those values to the unit's other cells.
pub fn naked_subset<P: Pencil>(p: &mut P, n: u32) -> bool {
    for unit in 0..p.unit_count() {
        let side = p.side();
        let (mut open, mut empty) = (0u32, 0u32);
        for k in 0..side {
            let count = p.candidates(p.cell_at(unit, k)).count_ones();
            if (2..=n).contains(&count) {
                open |= 1 << k;
            }
            empty += u32::from(count != 0);
        }
        if empty <= n {
            continue;
        }
        let mut masks = [0u32; crate::values::geometry::MAX_SIDE];
        for (k, mask) in masks.iter_mut().enumerate().take(side) {
            *mask = p.candidates(p.cell_at(unit, k));
        }
        let found = subsets(open, n, &mut |chosen| {
            let values = bits(chosen).fold(0, |m, k| m | masks[k]);
            if values.count_ones() != n {
                return false;
            }
            let mut progress = false;
            for k in bits(every(side) & !chosen) {
                progress |= p.eliminate(p.cell_at(unit, k), values);
            }
            progress
        });
        if found {
            return true;
        }
    }
    false
}

/// A hidden subset: `n` values of a unit confined to the same `n` cells leave those
/// cells no other candidate.
pub fn hidden_subset<P: Pencil>(p: &mut P, n: u32) -> bool {
    let side = p.side();
    let all = every(side);
    for unit in 0..p.unit_count() {
        let mut positions = [0u32; crate::values::geometry::MAX_SIDE];
        let (mut open, mut unsolved) = (0u32, 0u32);
        for (v, pos) in positions.iter_mut().enumerate().take(side) {
            *pos = p.positions(unit, 1 << v);
            if (2..=n).contains(&pos.count_ones()) {
                open |= 1 << v;
            }
            unsolved += u32::from(*pos != 0);
        }
        if unsolved <= n {
            continue;
        }
        let found = subsets(open, n, &mut |values| {
            let used = bits(values).fold(0, |m, v| m | positions[v]);
            if used.count_ones() != n {
                return false;
            }
            let mut progress = false;
            for k in bits(used) {
                progress |= p.eliminate(p.cell_at(unit, k), all & !values);
            }
            progress
        });
        if found {
            return true;
        }
    }
    false
}
