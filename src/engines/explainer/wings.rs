//! WXYZ-, VWXYZ-, UVWXYZ- and TUVWXYZ-Wing: an almost locked set (m mutually visible
//! cells holding m + 1 values) and a bivalue cell linked to it by a restricted common
//! value. Every (set, cell) is tried; the hint kept is the lowest by rating, then the
//! most eliminations, then the highest suffix (doubly linked, largest cell, candidates),
//! the first among equals in Sukaku Explainer's order (sets by their cells ascending,
//! then the bivalue cell ascending).
//!
//! Mutually visible cells (three or more) always lie in one house, so the sets are
//! found house by house, as subsets of its cells.

use super::board::{bits, subsets, CellSet, Pencilmarks, PEER_SETS, REGION_CELLS, REGION_SETS};
use super::hint::{Hint, HintKind};

struct BestWing {
    hint: Option<Hint>,
    key: (f64, u32, [u8; 4]),
    /// Where the kept hint comes in Sukaku Explainer's search: its set's cells, then
    /// its bivalue cell.
    found_at: [u8; 7],
}

impl BestWing {
    fn offer(&mut self, h: Hint, suffix: [u8; 4], found_at: [u8; 7]) {
        let key = (h.rating, h.eliminations(), suffix);
        let better = match self.hint {
            None => true,
            Some(_) => {
                key.0 < self.key.0
                    || (key.0 == self.key.0
                        && (key.1 > self.key.1
                            || (key.1 == self.key.1
                                && (key.2 > self.key.2
                                    || (key.2 == self.key.2 && found_at < self.found_at)))))
            }
        };
        if better {
            self.hint = Some(h);
            self.key = key;
            self.found_at = found_at;
        }
    }
}

/// The suffix as the digits of its string, so that arrays compare as the strings do.
fn suffix(double: bool, largest: u32, total: u32) -> [u8; 4] {
    let lead = if double { b'2' } else { b'1' };
    let b = b'0' + largest as u8;
    if total >= 10 {
        [
            lead,
            b,
            b'0' + (total / 10) as u8,
            b'0' + (total % 10) as u8,
        ]
    } else {
        [lead, b, b'0' + total as u8, 0]
    }
}

fn rating(m: usize, largest: u32) -> (HintKind, f64) {
    let off = |k: f64| (k - (3.0 - largest as f64).abs()) * 0.1;
    match m {
        3 => (HintKind::WXYZWing, 5.5 + off(1.0)),
        4 => (HintKind::VWXYZWing, 6.2 + off(2.0)),
        5 => (HintKind::UVWXYZWing, 6.6),
        _ => (HintKind::TUVWXYZWing, 7.5),
    }
}

/// CellSet seeing every cell of `cells` holding value `v`, outside `cells`.
fn seeing_all(b: &Pencilmarks, cells: &[usize], v: usize) -> CellSet {
    let mut s = CellSet::ALL;
    for &c in cells {
        if b.cands[c] >> v & 1 != 0 {
            s = s.and(PEER_SETS[c]);
        }
    }
    s
}

/// The wings of the set `als` with a bivalue cell among `pincers`.
fn try_set(b: &Pencilmarks, als: &[usize], union: u16, pincers: CellSet, best: &mut BestWing) {
    let m = als.len();
    let mut in_set = CellSet::EMPTY;
    let mut near = CellSet::EMPTY;
    for &c in als {
        in_set = in_set.with(c);
        near = near.or(PEER_SETS[c]);
    }
    let largest = als
        .iter()
        .map(|&c| b.cands[c].count_ones())
        .max()
        .unwrap_or(0);
    let total: u32 = als.iter().map(|&c| b.cands[c].count_ones()).sum();
    let mut found_at = [u8::MAX; 7];
    for (i, &c) in als.iter().enumerate() {
        found_at[i] = c as u8;
    }
    for yz in near.minus(in_set).and(pincers).iter() {
        let pair = b.cands[yz];
        if pair & !union != 0 {
            continue;
        }
        let restricted = |v: usize| {
            als.iter()
                .all(|&c| b.cands[c] >> v & 1 == 0 || PEER_SETS[c].has(yz))
        };
        let lo = pair.trailing_zeros() as usize;
        let hi = 15 - pair.leading_zeros() as usize;
        let (x, z, mut double) = match (restricted(lo), restricted(hi)) {
            (true, true) => (lo, hi, true),
            (true, false) => (lo, hi, false),
            (false, true) => (hi, lo, false),
            (false, false) => continue,
        };
        let (t, r) = rating(m, largest);
        let outside = |s: CellSet| s.minus(in_set.with(yz));
        let mut h = Hint::new(t, r);
        if double {
            for w in bits(union & !pair) {
                for c in outside(seeing_all(b, als, w)).iter() {
                    h.remove(b, c, w);
                }
            }
            for c in outside(seeing_all(b, als, x).and(PEER_SETS[yz])).iter() {
                h.remove(b, c, x);
            }
            // A double link that removes nothing beyond z is a single link (serate
            // names it so); one that removes x only stays double.
            double = h.is_worth();
        }
        for c in outside(seeing_all(b, als, z).and(PEER_SETS[yz])).iter() {
            h.remove(b, c, z);
        }
        if h.is_worth() {
            found_at[m] = yz as u8;
            best.offer(h, suffix(double, largest, total), found_at);
        }
    }
}

/// The lowest wing of an m-cell set (m = 3 to 6), if any, where the cells `changed`
/// (since the board on which this rule last found nothing) could make one: in a house
/// none of whose cells changed, the sets are as they were, and only a changed bivalue
/// cell can make a new wing with one.
pub fn als_wing(b: &Pencilmarks, m: usize, changed: CellSet) -> Option<Hint> {
    let mut best = BestWing {
        hint: None,
        key: (0.0, 0, [0; 4]),
        found_at: [0; 7],
    };
    let bivalue = b.with_count(2);
    for house in 0..27 {
        let pincers = if REGION_SETS[house].and(changed).is_empty() {
            bivalue.and(changed)
        } else {
            bivalue
        };
        if pincers.is_empty() {
            continue;
        }
        // Each region lists its cells ascending.
        let mut cells = [0usize; 9];
        let mut n = 0;
        // A pincer sees a cell of the set.
        let mut near = CellSet::EMPTY;
        for &c in &REGION_CELLS[house] {
            let count = b.cands[c as usize].count_ones() as usize;
            if (2..=m + 1).contains(&count) {
                cells[n] = c as usize;
                n += 1;
                near = near.or(PEER_SETS[c as usize]);
            }
        }
        if n < m || near.and(pincers).is_empty() {
            continue;
        }
        let mut als = [0usize; 6];
        for set in subsets(m as u32, n as u32) {
            let mut union = 0u16;
            for (k, i) in bits(set).enumerate() {
                als[k] = cells[i];
                union |= b.cands[cells[i]];
            }
            if union.count_ones() as usize != m + 1 {
                continue;
            }
            // Three cells of a block in one row or column: found with that line.
            let (first, last) = (als[0], als[m - 1]);
            if house < 9 && (first / 9 == last / 9 || als[..m].iter().all(|&c| c % 9 == first % 9))
            {
                continue;
            }
            try_set(b, &als[..m], union, pincers, &mut best);
        }
    }
    best.hint
}
