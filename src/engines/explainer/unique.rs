//! The rules that assume a unique solution: unique rectangles and loops (types 1, 2, 4
//! and type 3 with a naked or hidden set) and the bivalue universal grave (types 1 to 4).

use super::board::{bits, subsets, CellSet, Pencilmarks, CELL_REGIONS, REGION_CELLS, REGION_SETS};
use super::hint::{Hint, HintKind};

const MAX_LOOP: usize = 24;

struct Loops<'a> {
    b: &'a Pencilmarks,
    pair: u16,
    path: [usize; MAX_LOOP],
    /// The cells a path may still enter: holding the pair (and something else, or
    /// after the start), not on the path.
    open: CellSet,
    best: Option<(f64, u8, Hint)>,
}

/// A loop's base rating by its length (in cells).
fn loop_base(len: usize) -> f64 {
    match len {
        4 => 4.5,
        6 => 4.5 + 0.1,
        8 => 4.5 + 0.2,
        _ => 4.5 + 0.3 + 0.2,
    }
}

/// The regions of a cell as bits by region number.
fn region_bits(c: usize) -> u32 {
    let [block, row, col] = CELL_REGIONS[c];
    1 << block | 1 << row | 1 << col
}

impl Loops<'_> {
    /// Extends the path of `len` cells (its last reached through region type `last`).
    /// `sides` holds the regions of the path's cells at even and at odd places: a path
    /// with two cells of one parity in a region never closes into a loop (every region
    /// of a loop holds one cell of each), and a loop of `len` cells or more that cannot
    /// rate at or below the best so far is not looked for (a hint rates at least its
    /// length's base).
    fn search(&mut self, len: usize, last: usize, extras: u16, extra_cells: u32, sides: [u32; 2]) {
        if let Some((best, _, _)) = &self.best {
            if loop_base((len + len % 2).max(4)) > *best {
                return;
            }
        }
        let cur = self.path[len - 1];
        let start = self.path[0];
        for t in 0..3 {
            if t == last {
                continue;
            }
            let region = CELL_REGIONS[cur][t] as usize;
            // Loops through a lower cell holding the pair alone were found from there,
            // first: the path leaves those out, and closes on the start in its place
            // in the region's ascending order.
            let closes = cur != start && len >= 4;
            let ends = if closes {
                CellSet::EMPTY.with(start)
            } else {
                CellSet::EMPTY
            };
            for c in REGION_SETS[region].and(self.open.or(ends)).iter() {
                if c == start {
                    // No region holds two path cells of one parity (checked as each
                    // was added), so the path is a loop when the regions of its even
                    // and of its odd cells are the same.
                    if sides[0] == sides[1] {
                        self.found(len);
                    }
                    continue;
                }
                if len == MAX_LOOP {
                    continue;
                }
                let here = region_bits(c);
                if sides[len % 2] & here != 0 {
                    continue;
                }
                let mut next = sides;
                next[len % 2] |= here;
                let cands = self.b.cands[c];
                let ex = cands & !self.pair;
                let union = extras | ex;
                if ex == 0 || union.count_ones() == 1 || extra_cells < 2 {
                    self.path[len] = c;
                    self.open = self.open.minus(CellSet::EMPTY.with(c));
                    self.search(len + 1, t, union, extra_cells + (ex != 0) as u32, next);
                    self.open = self.open.with(c);
                }
            }
        }
    }

    fn offer(&mut self, h: Hint, kind: u8) {
        if !h.is_worth() {
            return;
        }
        let better = match &self.best {
            None => true,
            Some((r, k, _)) => h.rating < *r || (h.rating == *r && kind < *k),
        };
        if better {
            self.best = Some((h.rating, kind, h));
        }
    }

    fn found(&mut self, len: usize) {
        let b = self.b;
        let base = loop_base(len);
        let cells = &self.path[..len];
        let mut extra = CellSet::EMPTY;
        let mut union = 0u16;
        for &c in cells {
            let ex = b.cands[c] & !self.pair;
            if ex != 0 {
                extra = extra.with(c);
                union |= ex;
            }
        }
        let t = HintKind::UniqueRectangle;
        let n = extra.len();
        if n == 1 {
            let c = extra.iter().next().unwrap_or(0);
            let mut h = Hint::new(t, base);
            h.elims[c] = self.pair;
            self.offer(h, 1);
            return;
        }
        if n > 2 || (n == 2 && union.count_ones() == 1) {
            let w = union.trailing_zeros() as usize;
            let mut h = Hint::new(t, base);
            for c in extra.seeing_all().iter() {
                h.remove(b, c, w);
            }
            self.offer(h, 2);
        }
        if n != 2 {
            return;
        }
        let mut it = extra.iter();
        let (c1, c2) = (it.next().unwrap_or(0), it.next().unwrap_or(0));
        let shared = |t: usize| CELL_REGIONS[c1][t] == CELL_REGIONS[c2][t];
        for k in 2..=7u32 {
            for rt in (0..3).filter(|&rt| shared(rt)) {
                let region = CELL_REGIONS[c1][rt] as usize;
                if union.count_ones() >= 2 {
                    if let Some(h) = naked_type3(b, region, c1, c2, union, k, base) {
                        self.offer(h, 3);
                    }
                }
                if let Some(h) = hidden_type3(b, region, (c1, c2), self.pair, k, base) {
                    self.offer(h, 3);
                }
            }
        }
        for rt in 0..3 {
            if !shared(rt) {
                continue;
            }
            let region = CELL_REGIONS[c1][rt] as usize;
            let others = REGION_SETS[region].minus(CellSet::EMPTY.with(c1).with(c2));
            for v in bits(self.pair) {
                if others.iter().all(|c| b.cands[c] >> v & 1 == 0) {
                    let w = (self.pair & !(1 << v)).trailing_zeros() as usize;
                    let mut h = Hint::new(t, base);
                    h.remove(b, c1, w);
                    h.remove(b, c2, w);
                    self.offer(h, 4);
                }
            }
        }
    }
}

/// Type 3 with a naked set: the extras of c1 and c2 as one pseudo-cell plus k - 1 other
/// cells of the region, holding k values between them.
fn naked_type3(
    b: &Pencilmarks,
    region: usize,
    c1: usize,
    c2: usize,
    extras: u16,
    k: u32,
    base: f64,
) -> Option<Hint> {
    if 2 * k > b.empties(region) || k < extras.count_ones() {
        return None;
    }
    let cells = &REGION_CELLS[region];
    let free: u16 = (0..9)
        .filter(|&i| {
            let c = cells[i] as usize;
            c != c1 && c != c2 && b.cands[c].count_ones() >= 2
        })
        .fold(0, |m, i| m | 1 << i);
    for set in subsets(k - 1, 9).filter(|m| m & !free == 0) {
        let union = bits(set).fold(extras, |u, i| u | b.cands[cells[i] as usize]);
        if union.count_ones() != k {
            continue;
        }
        let mut h = Hint::new(HintKind::UniqueRectangle, base + (k - 1) as f64 * 0.1);
        for (i, &c) in cells.iter().enumerate() {
            let c = c as usize;
            if set >> i & 1 == 0 && c != c1 && c != c2 {
                h.elims[c] = b.cands[c] & union;
            }
        }
        if h.is_worth() {
            return Some(h);
        }
    }
    None
}

/// Type 3 with a hidden set: the loop's two values and k - 2 values that neither c1
/// nor c2 holds, confined (c2 left out) to k cells of the region, each value in at
/// least one of them; the other candidates of those cells but c1 go. (c1 and c2 cannot
/// both take loop values, so if one of the k cells took none of the k values, they
/// would have to, in the k cells left.) Which k - 2 values may join is as the bank's
/// ratings show it: with values of c1 or c2 among them the rule is unsound, and takes
/// steps serate does not.
fn hidden_type3(
    b: &Pencilmarks,
    region: usize,
    (c1, c2): (usize, usize),
    pair: u16,
    k: u32,
    base: f64,
) -> Option<Hint> {
    if 2 * k >= b.empties(region) {
        return None;
    }
    let cells = &REGION_CELLS[region];
    let mut pos = [0u16; 9];
    for (i, &c) in cells.iter().enumerate() {
        let c = c as usize;
        if c != c2 {
            for v in bits(b.cands[c]) {
                pos[v] |= 1 << i;
            }
        }
    }
    let unused = !(pair | b.cands[c1] | b.cands[c2]);
    for others in subsets(k - 2, 9).filter(|m| m & !unused == 0) {
        let values = pair | others;
        if bits(values).any(|v| pos[v] == 0) {
            continue;
        }
        let union = bits(values).fold(0, |u, v| u | pos[v]);
        if union.count_ones() != k {
            continue;
        }
        let mut h = Hint::new(HintKind::UniqueRectangle, base + (k - 2) as f64 * 0.1);
        for i in bits(union) {
            let c = cells[i] as usize;
            if c != c1 {
                h.elims[c] = b.cands[c] & !values;
            }
        }
        if h.is_worth() {
            return Some(h);
        }
    }
    None
}

/// The lowest unique rectangle or loop, if any.
pub fn unique_loops(b: &Pencilmarks) -> Option<Hint> {
    loops_from(b, false)
}

/// [`unique_loops`]; with `every_path`, paths from each start also run through the
/// lower cells holding the pair alone (finding again the loops found from those).
fn loops_from(b: &Pencilmarks, every_path: bool) -> Option<Hint> {
    let mut loops = Loops {
        b,
        pair: 0,
        path: [0; MAX_LOOP],
        open: CellSet::EMPTY,
        best: None,
    };
    let holders = b.holders();
    let bivalue = b.with_count(2);
    for s in bivalue.iter() {
        loops.pair = b.cands[s];
        loops.path[0] = s;
        let (x, y) = (loops.pair.trailing_zeros(), 15 - loops.pair.leading_zeros());
        // The cells holding the pair, less the lower ones holding it alone.
        let both = holders[x as usize].and(holders[y as usize]);
        let skipped = if every_path {
            CellSet::EMPTY
        } else {
            both.and(bivalue).and(CellSet((1u128 << s) - 1))
        };
        loops.open = both.minus(skipped).minus(CellSet::EMPTY.with(s));
        loops.search(1, 3, 0, 0, [region_bits(s), 0]);
    }
    loops.best.map(|(_, _, h)| h)
}

/// The bivalue universal grave, types 1 to 4.
pub fn bug(b: &Pencilmarks) -> Option<Hint> {
    let mut scratch = *b;
    let mut bug_cells = CellSet::EMPTY;
    let mut bug_values = [0u16; 81];
    let mut all_values = 0u16;
    let mut many: Option<(usize, CellSet)> = None;
    let mut same_many = true;
    for r in 0..27 {
        for v in 0..9 {
            let places = b.cells_with(r, v);
            let n = places.len();
            if n == 0 || n == 2 {
                continue;
            }
            let wide = CellSet(
                places
                    .iter()
                    .filter(|&c| b.cands[c].count_ones() >= 3)
                    .fold(0u128, |m, c| m | 1 << c),
            );
            match wide.len() {
                0 => return None,
                1 => {
                    let c = wide.iter().next().unwrap_or(0);
                    bug_cells = bug_cells.with(c);
                    bug_values[c] |= 1 << v;
                    all_values |= 1 << v;
                    scratch.cands[c] &= !(1 << v);
                    if bug_cells.len() > 1
                        && all_values.count_ones() > 1
                        && bug_cells.seeing_all().minus(bug_cells).is_empty()
                    {
                        return None;
                    }
                }
                _ => match many {
                    None => many = Some((v, wide)),
                    Some((w, cells)) if w == v => many = Some((v, cells.or(wide))),
                    Some(_) => same_many = false,
                },
            }
        }
    }
    // Values found in two or more 3+-candidate cells of a region make BUG cells only
    // when every value off its count is that one value; otherwise the other regions
    // decide, and the check below.
    let one_value = |w: usize| same_many && all_values & !(1 << w) == 0;
    if let Some((w, cells)) = many.filter(|&(w, _)| one_value(w)) {
        for c in cells.iter() {
            bug_cells = bug_cells.with(c);
            bug_values[c] |= 1 << w;
            all_values |= 1 << w;
            scratch.cands[c] &= !(1 << w);
        }
    }
    for c in 0..81 {
        if scratch.value[c] == 0 && scratch.cands[c].count_ones() != 2 {
            return None;
        }
    }
    for r in 0..27 {
        for v in 0..9 {
            let n = scratch.cells_with(r, v).len();
            if n != 0 && n != 2 {
                return None;
            }
        }
    }
    let t = HintKind::BivalueUniversalGrave;
    if bug_cells.len() == 1 {
        let c = bug_cells.iter().next().unwrap_or(0);
        let mut h = Hint::new(t, 5.6);
        h.elims[c] = b.cands[c] & !bug_values[c];
        return h.is_worth().then_some(h);
    }
    let common = bug_cells.seeing_all().minus(bug_cells);
    let type4 = || {
        let mut it = bug_cells.iter();
        let (c1, c2) = (it.next().unwrap_or(0), it.next().unwrap_or(0));
        let u = (b.cands[c1] & !bug_values[c1]) & (b.cands[c2] & !bug_values[c2]);
        if u.count_ones() != 1 {
            return None;
        }
        let mut h = Hint::new(t, 5.7);
        for rt in 0..3 {
            if CELL_REGIONS[c1][rt] == CELL_REGIONS[c2][rt] {
                h.elims[c1] |= b.cands[c1] & !bug_values[c1] & !u;
                h.elims[c2] |= b.cands[c2] & !bug_values[c2] & !u;
            }
        }
        h.is_worth().then_some(h)
    };
    if all_values.count_ones() == 1 {
        let v = all_values.trailing_zeros() as usize;
        let mut h = Hint::new(t, 5.7);
        for c in common.iter() {
            h.remove(b, c, v);
        }
        if h.is_worth() {
            return Some(h);
        }
        if bug_cells.len() == 2 {
            return type4();
        }
    } else if !common.is_empty() {
        if bug_cells.len() == 2 {
            if let Some(h) = type4() {
                return Some(h);
            }
        }
        return bug_type3(b, bug_cells, all_values);
    }
    None
}

/// BUG type 3: in a region every BUG cell lies in, `k - 1` of its other cells whose
/// values, with the BUG values as one more cell, are `k` in all form a naked set; those
/// values go from the region's other cells. Sizes 2 to 6 (outer), blocks, columns and
/// rows (inner), the cells taken in subset order; rated 5.7 + (k - 1) tenths.
fn bug_type3(b: &Pencilmarks, bug_cells: CellSet, bug_values: u16) -> Option<Hint> {
    let first = bug_cells.iter().next()?;
    for k in 2..=6usize {
        // CELL_REGIONS holds block, row, column: in Sukaku Explainer's order of types.
        for rt in [0, 2, 1] {
            let r = CELL_REGIONS[first][rt] as usize;
            if !bug_cells.iter().all(|c| CELL_REGIONS[c][rt] as usize == r) {
                continue;
            }
            let mut cells = [0usize; 9];
            let mut n = 0;
            for &c in &REGION_CELLS[r] {
                let c = c as usize;
                if b.value[c] == 0 && !bug_cells.has(c) {
                    cells[n] = c;
                    n += 1;
                }
            }
            if n < k {
                continue;
            }
            for set in subsets(k as u32 - 1, n as u32) {
                let values = bits(set).fold(bug_values, |u, i| u | b.cands[cells[i]]);
                if values.count_ones() as usize != k {
                    continue;
                }
                let mut h = Hint::new(HintKind::BivalueUniversalGrave, 5.7 + (k - 1) as f64 * 0.1);
                for (i, &c) in cells[..n].iter().enumerate() {
                    if set >> i & 1 == 0 {
                        h.elims[c] |= b.cands[c] & values;
                    }
                }
                if h.is_worth() {
                    return Some(h);
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::explainer::testing::{on_rating_paths, outcome};

    #[test]
    fn loops_found_once_give_what_every_path_gives_along_rating_paths() {
        // Paths that leave out the lower cells holding the pair alone against paths
        // through every cell holding it, at every step of the rater's path.
        let mut found = 0;
        let boards = on_rating_paths("se-reference-expert.txt", 80, |puzzle, b| {
            let expected = outcome(loops_from(b, true));
            found += usize::from(expected.is_some());
            assert_eq!(outcome(unique_loops(b)), expected, "{puzzle}");
        });
        assert!(
            boards > 2000 && found > 50,
            "{boards} boards, {found} loops"
        );
    }
}
