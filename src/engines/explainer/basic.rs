//! The rules before any chain: singles, the direct rules (a placement found through
//! an intersection or a hidden set), intersections, subsets, fish and the two small
//! wings. Each returns the first hint in Sukaku Explainer's emission order.

use super::board::{bits, region_type, subsets, CellSet, Pencilmarks, PEER_SETS};
use super::board::{CELL_REGIONS, REGION_CELLS, REGION_SETS, SCAN_ORDER};
use super::hint::{Hint, HintKind};

/// Full houses first (a region's last empty cell), then hidden singles; the regions
/// in `skip` (bits by number) are passed over.
pub fn hidden_single(b: &Pencilmarks, skip: u32) -> Option<Hint> {
    let holders = b.holders();
    for full_house in [true, false] {
        for &r in &SCAN_ORDER {
            let r = r as usize;
            if skip >> r & 1 != 0 || (full_house && b.empties(r) != 1) {
                continue;
            }
            for v in 0..9 {
                let places = REGION_SETS[r].and(holders[v]);
                if places.len() == 1 {
                    // Every region lists its cells in ascending order.
                    let cell = places.0.trailing_zeros() as usize;
                    let (t, rating) = match (full_house, region_type(r)) {
                        (true, _) => (HintKind::FullHouse, 1.0),
                        (false, 0) => (HintKind::HiddenSingle, 1.2),
                        (false, _) => (HintKind::HiddenSingle, 1.5),
                    };
                    return Some(Hint::placing(t, rating, cell, v + 1));
                }
            }
        }
    }
    None
}

/// A cell with one candidate left.
pub fn naked_single(b: &Pencilmarks) -> Option<Hint> {
    (0..81).find(|&c| b.cands[c].count_ones() == 1).map(|c| {
        Hint::placing(
            HintKind::NakedSingle,
            2.3,
            c,
            b.cands[c].trailing_zeros() as usize + 1,
        )
    })
}

/// (region1 type, region2 type) in Sukaku Explainer's order: block to column, block to
/// row, column to block, row to block.
const LOCK_PAIRS: [(usize, usize); 4] = [(0, 2), (0, 1), (2, 0), (1, 0)];

/// For each region, the other regions sharing a cell with it, as bits by number.
static CROSSINGS: [u32; 27] = crossings();

const fn crossings() -> [u32; 27] {
    let mut t = [0u32; 27];
    let mut a = 0;
    while a < 27 {
        let mut b = 0;
        while b < 27 {
            if a != b && REGION_SETS[a].and(REGION_SETS[b]).0 != 0 {
                t[a] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    t
}

fn crosses(a: usize, b: usize) -> bool {
    CROSSINGS[a] >> b & 1 != 0
}

/// The region of type `t` holding every cell of `cells` (not empty), if any.
fn holding_region(cells: CellSet, t: usize) -> Option<usize> {
    let r = CELL_REGIONS[cells.0.trailing_zeros() as usize][t] as usize;
    cells.minus(REGION_SETS[r]).is_empty().then_some(r)
}

/// What a hint of the intersection, subset and fish rules rests on: the rule parents
/// of such a step taken inside a dynamic chain are the candidates of these cells that
/// the chain removed.
#[derive(Clone, Copy, Debug)]
pub enum Basis {
    /// Value `v` of region `base` confined to its intersection with `cover`.
    Lock { v: usize, base: usize, cover: usize },
    /// `cells` of one region holding as many values between them.
    Naked { cells: CellSet },
    /// `values` of `region` confined to as many `cells`.
    Hidden {
        region: usize,
        values: u16,
        cells: CellSet,
    },
    /// Value `v` of lines of type `base` (`lines`, a mask of indices) confined to as
    /// many lines of the other type (`covers`).
    Fish {
        v: usize,
        base: usize,
        lines: u16,
        covers: u16,
    },
}

/// A rule's hints in its emission order, each passed to `f` with its basis until `f`
/// returns true.
pub type Visit<'a> = &'a mut dyn FnMut(&Hint, Basis) -> bool;

/// The first hint a visiting rule emits.
fn first(rule: impl FnOnce(Visit)) -> Option<Hint> {
    let mut found = None;
    rule(&mut |h, _| {
        found = Some(*h);
        true
    });
    found
}

/// Pointing and claiming: a value of region1 confined to its intersection with
/// region2. Direct, it places the value where that leaves a third region (of region1's
/// type) a single position; otherwise it removes the value from the rest of region2.
/// The values in `skip` (bits by candidate) are passed over.
pub fn locking(b: &Pencilmarks, direct: bool, skip: u32) -> Option<Hint> {
    if direct {
        direct_locking(b, skip)
    } else {
        first(|f| each_locking(b, skip, f))
    }
}

fn direct_locking(b: &Pencilmarks, skip: u32) -> Option<Hint> {
    let holders = b.holders();
    for (ta, tb) in LOCK_PAIRS {
        for v in (0..9).filter(|v| skip >> v & 1 == 0) {
            for r1 in ta * 9..ta * 9 + 9 {
                let p1 = REGION_SETS[r1].and(holders[v]);
                if p1.len() < 2 {
                    continue;
                }
                // Regions of two types cross where they share a cell.
                if let Some(r2) = holding_region(p1, tb) {
                    if let Some(h) = direct_placement(&holders, (ta, r1), r2, v) {
                        return Some(h);
                    }
                }
            }
        }
    }
    None
}

/// The placement a value confined to where regions `r1` (of type `ta`) and `r2`
/// cross makes: the first other region of r1's type crossing r2 left with a single
/// place of it outside r2.
fn direct_placement(
    holders: &[CellSet; 9],
    (ta, r1): (usize, usize),
    r2: usize,
    v: usize,
) -> Option<Hint> {
    for r3 in ta * 9..ta * 9 + 9 {
        if r3 == r1 || !crosses(r3, r2) {
            continue;
        }
        let p3 = REGION_SETS[r3].and(holders[v]);
        let outside = p3.minus(REGION_SETS[r2]);
        if p3.len() > 1 && outside.len() == 1 {
            let (t, rating) = if ta == 0 {
                (HintKind::DirectPointing, 1.7)
            } else {
                (HintKind::DirectClaiming, 1.9)
            };
            let cell = outside.iter().next().unwrap_or(0);
            return Some(Hint::placing(t, rating, cell, v + 1));
        }
    }
    None
}

/// Every pointing and claiming, in emission order, but of the values in `skip`.
pub fn each_locking(b: &Pencilmarks, skip: u32, f: Visit) {
    let holders = b.holders();
    for (ta, tb) in LOCK_PAIRS {
        for v in (0..9).filter(|v| skip >> v & 1 == 0) {
            for r1 in ta * 9..ta * 9 + 9 {
                let p1 = REGION_SETS[r1].and(holders[v]);
                if p1.len() < 2 {
                    continue;
                }
                if let Some(r2) = holding_region(p1, tb) {
                    let victims = REGION_SETS[r2].and(holders[v]).minus(REGION_SETS[r1]);
                    if victims.is_empty() {
                        continue;
                    }
                    let (t, rating) = if tb == 0 {
                        (HintKind::Claiming, 2.8)
                    } else {
                        (HintKind::Pointing, 2.6)
                    };
                    let mut h = Hint::new(t, rating);
                    for c in victims.iter() {
                        h.remove(b, c, v);
                    }
                    let basis = Basis::Lock {
                        v,
                        base: r1,
                        cover: r2,
                    };
                    if f(&h, basis) {
                        return;
                    }
                }
            }
        }
    }
}

/// k values of a region confined to k cells. Direct (k = 2, 3), it places a value left
/// a single position outside them; otherwise it removes the cells' other candidates.
/// The regions in `skip` (bits by number) are passed over.
pub fn hidden_set(b: &Pencilmarks, k: u32, direct: bool, skip: u32) -> Option<Hint> {
    if direct {
        direct_hidden_set(b, k, skip)
    } else {
        first(|f| each_hidden_set(b, k, skip, f))
    }
}

/// The positions of each value in region `r`, or `None` when the region has too few
/// empty cells for a set of k (`direct`: more than k; else more than 2k).
fn hidden_positions(b: &Pencilmarks, r: usize, k: u32, direct: bool) -> Option<[u16; 9]> {
    let empties = b.empties(r);
    if (direct && empties <= k) || (!direct && empties <= 2 * k) {
        return None;
    }
    let mut pos = [0u16; 9];
    for (i, &c) in REGION_CELLS[r].iter().enumerate() {
        for v in bits(b.cands[c as usize]) {
            pos[v] |= 1 << i;
        }
    }
    Some(pos)
}

/// The union of the positions of values `vs` when it has exactly k positions and each
/// value two to k (`fits`: the values with two to k).
fn hidden_union(pos: &[u16; 9], fits: u16, vs: u16, k: u32) -> Option<u16> {
    if vs & !fits != 0 {
        return None;
    }
    let union = bits(vs).fold(0, |u, v| u | pos[v]);
    (union.count_ones() == k).then_some(union)
}

/// The values with two to k positions: a value with more cannot be in a set of k
/// values on k cells.
fn fitting(pos: &[u16; 9], k: u32) -> u16 {
    (0..9)
        .filter(|&v| (2..=k).contains(&pos[v].count_ones()))
        .fold(0, |m, v| m | 1 << v)
}

fn direct_hidden_set(b: &Pencilmarks, k: u32, skip: u32) -> Option<Hint> {
    for &r in &SCAN_ORDER {
        let r = r as usize;
        if skip >> r & 1 != 0 {
            continue;
        }
        let Some(pos) = hidden_positions(b, r, k, true) else {
            continue;
        };
        let fits = fitting(&pos, k);
        if fits.count_ones() < k {
            continue;
        }
        for vs in subsets(k, 9) {
            let Some(union) = hidden_union(&pos, fits, vs, k) else {
                continue;
            };
            for v in (0..9).filter(|v| vs >> v & 1 == 0) {
                let outside = pos[v] & !union;
                if pos[v].count_ones() > 1 && outside.count_ones() == 1 {
                    let (t, rating) = if k == 2 {
                        (HintKind::DirectHiddenPair, 2.0)
                    } else {
                        (HintKind::DirectHiddenTriplet, 2.5)
                    };
                    let cell = REGION_CELLS[r][outside.trailing_zeros() as usize] as usize;
                    return Some(Hint::placing(t, rating, cell, v + 1));
                }
            }
        }
    }
    None
}

/// Every hidden set of k values that removes something, in emission order, but in the
/// regions in `skip`.
pub fn each_hidden_set(b: &Pencilmarks, k: u32, skip: u32, f: Visit) {
    for &r in &SCAN_ORDER {
        let r = r as usize;
        if skip >> r & 1 != 0 {
            continue;
        }
        let Some(pos) = hidden_positions(b, r, k, false) else {
            continue;
        };
        let fits = fitting(&pos, k);
        if fits.count_ones() < k {
            continue;
        }
        for vs in subsets(k, 9) {
            let Some(union) = hidden_union(&pos, fits, vs, k) else {
                continue;
            };
            let (t, rating) = match k {
                2 => (HintKind::HiddenPair, 3.4),
                3 => (HintKind::HiddenTriplet, 4.0),
                _ => (HintKind::HiddenQuad, 5.4),
            };
            let mut h = Hint::new(t, rating);
            let mut cells = CellSet::EMPTY;
            for i in bits(union) {
                let c = REGION_CELLS[r][i] as usize;
                h.elims[c] = b.cands[c] & !vs;
                cells = cells.with(c);
            }
            let basis = Basis::Hidden {
                region: r,
                values: vs,
                cells,
            };
            if h.is_worth() && f(&h, basis) {
                return;
            }
        }
    }
}

/// k cells of a region holding k values between them; the regions in `skip` are
/// passed over.
pub fn naked_set(b: &Pencilmarks, k: u32, skip: u32) -> Option<Hint> {
    first(|f| each_naked_set(b, k, skip, f))
}

/// Every naked set of k cells that removes something, in emission order, but in the
/// regions in `skip`.
pub fn each_naked_set(b: &Pencilmarks, k: u32, skip: u32, f: Visit) {
    for &r in &SCAN_ORDER {
        let r = r as usize;
        if skip >> r & 1 != 0 || b.empties(r) < 2 * k {
            continue;
        }
        let cells = &REGION_CELLS[r];
        // The cells with two to k candidates: a cell with more cannot be in a set of
        // k cells holding k values.
        let fits = (0..9)
            .filter(|&i| (2..=k).contains(&b.cands[cells[i] as usize].count_ones()))
            .fold(0u16, |m, i| m | 1 << i);
        if fits.count_ones() < k {
            continue;
        }
        for ps in subsets(k, 9) {
            if ps & !fits != 0 {
                continue;
            }
            let union = bits(ps).fold(0, |u, i| u | b.cands[cells[i] as usize]);
            if union.count_ones() != k {
                continue;
            }
            let (t, rating) = match k {
                2 => (HintKind::NakedPair, 3.0),
                3 => (HintKind::NakedTriplet, 3.6),
                _ => (HintKind::NakedQuad, 5.0),
            };
            let mut h = Hint::new(t, rating);
            for i in (0..9).filter(|i| ps >> i & 1 == 0) {
                let c = cells[i] as usize;
                h.elims[c] = b.cands[c] & union;
            }
            let set = bits(ps).fold(CellSet::EMPTY, |s, i| s.with(cells[i] as usize));
            if h.is_worth() && f(&h, Basis::Naked { cells: set }) {
                return;
            }
        }
    }
}

/// Basic fish of k lines: columns as base lines first, then rows; the values in
/// `skip` are passed over.
pub fn fish(b: &Pencilmarks, k: u32, skip: u32) -> Option<Hint> {
    first(|f| each_fish(b, k, skip, f))
}

/// Every basic fish of k lines that removes something, in emission order, but of the
/// values in `skip`.
pub fn each_fish(b: &Pencilmarks, k: u32, skip: u32, f: Visit) {
    let wanted = !skip as u16 & 0x1ff;
    if wanted == 0 {
        return;
    }
    let mut placed = [0u32; 9];
    for &v in &b.value {
        if v != 0 {
            placed[v as usize - 1] += 1;
        }
    }
    // The positions of each value in each row (by column) and column (by row), and
    // the lines where a value has two or more.
    let mut pos = [[[0u16; 9]; 9]; 2];
    for c in 0..81 {
        let (row, col) = (c / 9, c % 9);
        for v in bits(b.cands[c] & wanted) {
            pos[0][v][row] |= 1 << col;
            pos[1][v][col] |= 1 << row;
        }
    }
    // The lines where a value has two to k places (a base line with more cannot be
    // covered by k lines), and the values with k such lines of each type.
    let mut fits = [[0u16; 9]; 2];
    let mut values = [0u16; 2];
    for t in 0..2 {
        for v in 0..9 {
            fits[t][v] = (0..9)
                .filter(|&l| (2..=k).contains(&pos[t][v][l].count_ones()))
                .fold(0, |m, l| m | 1 << l);
            if skip >> v & 1 == 0 && placed[v] + 2 * k <= 9 && fits[t][v].count_ones() >= k {
                values[t] |= 1 << v;
            }
        }
    }
    for (base, cover) in [(2, 1), (1, 2)] {
        if values[base - 1] == 0 {
            continue;
        }
        for lines in subsets(k, 9) {
            for v in bits(values[base - 1]) {
                if lines & !fits[base - 1][v] != 0 {
                    continue;
                }
                let union = bits(lines).fold(0u16, |u, l| u | pos[base - 1][v][l]);
                if union.count_ones() != k {
                    continue;
                }
                let (t, rating) = match k {
                    2 => (HintKind::XWing, 3.2),
                    3 => (HintKind::Swordfish, 3.8),
                    _ => (HintKind::Jellyfish, 5.2),
                };
                let mut h = Hint::new(t, rating);
                let mut base_cells = CellSet::EMPTY;
                for l in bits(lines) {
                    base_cells = base_cells.or(REGION_SETS[base * 9 + l]);
                }
                for i in bits(union) {
                    for c in REGION_SETS[cover * 9 + i].minus(base_cells).iter() {
                        h.remove(b, c, v);
                    }
                }
                let basis = Basis::Fish {
                    v,
                    base,
                    lines,
                    covers: union,
                };
                if h.is_worth() && f(&h, basis) {
                    return;
                }
            }
        }
    }
}

/// XY-Wing (a bivalue pivot) or XYZ-Wing (a pivot of three candidates): two bivalue
/// pincers among the pivot's peers, sharing the value z removed from their common peers.
/// Only pivots of wings with a cell among `changed` are looked at (a wing of cells
/// that did not change since this rule last found nothing removes nothing now).
pub fn xy_wing(b: &Pencilmarks, xyz: bool, changed: CellSet) -> Option<Hint> {
    let size = if xyz { 3 } else { 2 };
    let bivalue = b.with_count(2);
    // The changed cells and their peers: every cell of a wing sees its pivot.
    let pivots = changed.iter().fold(changed, |m, c| m.or(PEER_SETS[c]));
    for pivot in pivots.iter() {
        let p = b.cands[pivot];
        if p.count_ones() != size {
            continue;
        }
        // The wings: bivalue peers sharing one value with the pivot (XY), or holding
        // only its values (XYZ); peers in ascending order, as SE scans them.
        let wings = PEER_SETS[pivot].and(bivalue);
        for c1 in wings.iter() {
            let x = b.cands[c1];
            let wing = if xyz {
                x & !p == 0
            } else {
                (x & p).count_ones() == 1
            };
            if !wing {
                continue;
            }
            for c2 in wings.iter() {
                let y = b.cands[c2];
                if c2 == c1 {
                    continue;
                }
                let fits = if xyz {
                    x | y == p && (x & y).count_ones() == 1
                } else {
                    (p | x | y).count_ones() == 3 && p & x & y == 0
                };
                if !fits {
                    continue;
                }
                let z = (x & y).trailing_zeros() as usize;
                let mut victims = PEER_SETS[c1].and(PEER_SETS[c2]);
                victims = if xyz {
                    victims.and(PEER_SETS[pivot])
                } else {
                    victims.minus(CellSet::EMPTY.with(pivot))
                };
                let (t, rating) = if xyz {
                    (HintKind::XYZWing, 4.4)
                } else {
                    (HintKind::XYWing, 4.2)
                };
                let mut h = Hint::new(t, rating);
                for c in victims.iter() {
                    h.remove(b, c, z);
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
    use crate::engines::explainer::board::PEERS;
    use crate::engines::explainer::testing::{on_rating_paths, outcome};

    /// XY- and XYZ-Wings by a plain scan: every pivot, then every two of its peers in
    /// their listed order, with no mask taken first.
    fn plain_xy_wing(b: &Pencilmarks, xyz: bool) -> Option<Hint> {
        let (t, rating) = if xyz {
            (HintKind::XYZWing, 4.4)
        } else {
            (HintKind::XYWing, 4.2)
        };
        for pivot in 0..81 {
            let p = b.cands[pivot];
            if p.count_ones() != if xyz { 3 } else { 2 } {
                continue;
            }
            for &c1 in &PEERS[pivot] {
                for &c2 in &PEERS[pivot] {
                    let (c1, c2) = (c1 as usize, c2 as usize);
                    let (x, y) = (b.cands[c1], b.cands[c2]);
                    if c1 == c2 || x.count_ones() != 2 || y.count_ones() != 2 {
                        continue;
                    }
                    let shared = x & y;
                    let fits = shared.count_ones() == 1
                        && if xyz {
                            x | y == p
                        } else {
                            x | y == p | shared && p & shared == 0
                        };
                    if !fits {
                        continue;
                    }
                    let z = shared.trailing_zeros() as usize;
                    let mut h = Hint::new(t, rating);
                    for c in 0..81 {
                        let sees_all = PEER_SETS[c1].has(c)
                            && PEER_SETS[c2].has(c)
                            && (!xyz || PEER_SETS[pivot].has(c));
                        if sees_all && c != pivot {
                            h.remove(b, c, z);
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

    /// Pointing and claiming by a plain scan: every two regions of the pair's types
    /// that share a cell (found by intersecting them), the first that confines a value
    /// and leaves something to do.
    fn plain_locking(b: &Pencilmarks, direct: bool) -> Option<Hint> {
        let share = |a: usize, c: usize| a != c && !REGION_SETS[a].and(REGION_SETS[c]).is_empty();
        let holders = b.holders();
        for (ta, tb) in LOCK_PAIRS {
            for v in 0..9 {
                for r1 in ta * 9..ta * 9 + 9 {
                    let p1 = REGION_SETS[r1].and(holders[v]);
                    for r2 in tb * 9..tb * 9 + 9 {
                        if p1.len() < 2 || !share(r1, r2) || !p1.minus(REGION_SETS[r2]).is_empty() {
                            continue;
                        }
                        if direct {
                            // The third region's step is shared: what is checked is
                            // which regions confine a value.
                            if let Some(h) = direct_placement(&holders, (ta, r1), r2, v) {
                                return Some(h);
                            }
                            continue;
                        }
                        let (t, rating) = if tb == 0 {
                            (HintKind::Claiming, 2.8)
                        } else {
                            (HintKind::Pointing, 2.6)
                        };
                        let mut h = Hint::new(t, rating);
                        for c in REGION_SETS[r2]
                            .and(holders[v])
                            .minus(REGION_SETS[r1])
                            .iter()
                        {
                            h.remove(b, c, v);
                        }
                        if h.is_worth() {
                            return Some(h);
                        }
                    }
                }
            }
        }
        None
    }

    /// Hidden sets by a plain scan: every k values of every region with room for them,
    /// each with two or more places, on k places between them.
    fn plain_hidden_set(b: &Pencilmarks, k: u32, direct: bool) -> Option<Hint> {
        for &r in &SCAN_ORDER {
            let r = r as usize;
            let room = if direct { k } else { 2 * k };
            if b.empties(r) <= room {
                continue;
            }
            let places = |v: usize| {
                (0..9).fold(0u16, |m, i| {
                    m | u16::from(b.cands[REGION_CELLS[r][i] as usize] >> v & 1 != 0) << i
                })
            };
            for vs in subsets(k, 9) {
                if bits(vs).any(|v| places(v).count_ones() < 2) {
                    continue;
                }
                let union = bits(vs).fold(0, |u, v| u | places(v));
                if union.count_ones() != k {
                    continue;
                }
                if direct {
                    for v in (0..9).filter(|v| vs >> v & 1 == 0) {
                        let outside = places(v) & !union;
                        if places(v).count_ones() > 1 && outside.count_ones() == 1 {
                            let (t, rating) = if k == 2 {
                                (HintKind::DirectHiddenPair, 2.0)
                            } else {
                                (HintKind::DirectHiddenTriplet, 2.5)
                            };
                            let cell = REGION_CELLS[r][outside.trailing_zeros() as usize];
                            return Some(Hint::placing(t, rating, cell as usize, v + 1));
                        }
                    }
                    continue;
                }
                let t = [
                    HintKind::HiddenPair,
                    HintKind::HiddenTriplet,
                    HintKind::HiddenQuad,
                ];
                let mut h = Hint::new(t[k as usize - 2], [3.4, 4.0, 5.4][k as usize - 2]);
                for i in bits(union) {
                    let c = REGION_CELLS[r][i] as usize;
                    h.elims[c] = b.cands[c] & !vs;
                }
                if h.is_worth() {
                    return Some(h);
                }
            }
        }
        None
    }

    /// Naked sets by a plain scan: every k cells of every region with room for them,
    /// each with two or more candidates, holding k values between them.
    fn plain_naked_set(b: &Pencilmarks, k: u32) -> Option<Hint> {
        for &r in &SCAN_ORDER {
            let cells = &REGION_CELLS[r as usize];
            if b.empties(r as usize) < 2 * k {
                continue;
            }
            for ps in subsets(k, 9) {
                if bits(ps).any(|i| b.cands[cells[i] as usize].count_ones() < 2) {
                    continue;
                }
                let union = bits(ps).fold(0, |u, i| u | b.cands[cells[i] as usize]);
                if union.count_ones() != k {
                    continue;
                }
                let t = [
                    HintKind::NakedPair,
                    HintKind::NakedTriplet,
                    HintKind::NakedQuad,
                ];
                let mut h = Hint::new(t[k as usize - 2], [3.0, 3.6, 5.0][k as usize - 2]);
                for i in (0..9).filter(|i| ps >> i & 1 == 0) {
                    let c = cells[i] as usize;
                    h.elims[c] = b.cands[c] & union;
                }
                if h.is_worth() {
                    return Some(h);
                }
            }
        }
        None
    }

    /// Fish by a plain scan: every k base lines (columns, then rows) and value, each
    /// line with two or more places of it, on k cover lines between them.
    fn plain_fish(b: &Pencilmarks, k: u32) -> Option<Hint> {
        for (base, cover) in [(2, 1), (1, 2)] {
            for lines in subsets(k, 9) {
                for v in 0..9 {
                    let placed = b.value.iter().filter(|&&x| x as usize == v + 1).count();
                    if placed + 2 * k as usize > 9 {
                        continue;
                    }
                    let places = |l: usize| {
                        let line = REGION_SETS[base * 9 + l];
                        (0..9).fold(0u16, |m, i| {
                            let on = !REGION_SETS[cover * 9 + i].and(line).is_empty()
                                && REGION_SETS[cover * 9 + i]
                                    .and(line)
                                    .iter()
                                    .any(|c| b.cands[c] >> v & 1 != 0);
                            m | u16::from(on) << i
                        })
                    };
                    if bits(lines).any(|l| places(l).count_ones() < 2) {
                        continue;
                    }
                    let union = bits(lines).fold(0, |u, l| u | places(l));
                    if union.count_ones() != k {
                        continue;
                    }
                    let t = [HintKind::XWing, HintKind::Swordfish, HintKind::Jellyfish];
                    let mut h = Hint::new(t[k as usize - 2], [3.2, 3.8, 5.2][k as usize - 2]);
                    let base_cells =
                        bits(lines).fold(CellSet::EMPTY, |s, l| s.or(REGION_SETS[base * 9 + l]));
                    for i in bits(union) {
                        for c in REGION_SETS[cover * 9 + i].minus(base_cells).iter() {
                            h.remove(b, c, v);
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

    #[test]
    fn sets_and_fish_match_a_plain_scan_along_rating_paths() {
        let mut found = [0; 4];
        let boards = on_rating_paths("se-reference-expert.txt", 40, |puzzle, b| {
            for k in 2..=4 {
                let hidden = outcome(plain_hidden_set(b, k, false));
                let naked = outcome(plain_naked_set(b, k));
                let fish_k = outcome(plain_fish(b, k));
                found[0] += usize::from(hidden.is_some());
                found[1] += usize::from(naked.is_some());
                found[2] += usize::from(fish_k.is_some());
                assert_eq!(
                    outcome(hidden_set(b, k, false, 0)),
                    hidden,
                    "{puzzle} hidden {k}"
                );
                assert_eq!(outcome(naked_set(b, k, 0)), naked, "{puzzle} naked {k}");
                assert_eq!(outcome(fish(b, k, 0)), fish_k, "{puzzle} fish {k}");
                if k < 4 {
                    let direct = outcome(plain_hidden_set(b, k, true));
                    found[3] += usize::from(direct.is_some());
                    assert_eq!(
                        outcome(hidden_set(b, k, true, 0)),
                        direct,
                        "{puzzle} direct {k}"
                    );
                }
            }
        });
        assert!(
            boards > 1000 && found.iter().all(|&n| n > 30),
            "{boards} boards, found {found:?} (hidden, naked, fish, direct hidden)"
        );
    }

    /// Checks `rule` against `plain` with its flag off and on, at every step of the
    /// rating paths of the first `take` diabolical references; at least `least` hints.
    fn matches_plain(
        rule: fn(&Pencilmarks, bool) -> Option<Hint>,
        plain: fn(&Pencilmarks, bool) -> Option<Hint>,
        take: usize,
        least: usize,
    ) {
        let mut found = 0;
        let boards = on_rating_paths("se-reference-expert.txt", take, |puzzle, b| {
            for flag in [false, true] {
                let expected = outcome(plain(b, flag));
                found += usize::from(expected.is_some());
                assert_eq!(outcome(rule(b, flag)), expected, "{puzzle} flag {flag}");
            }
        });
        assert!(
            boards > 1000 && found > least,
            "{boards} boards, {found} hints"
        );
    }

    #[test]
    fn locking_matches_a_plain_scan_along_rating_paths() {
        // The flag: direct pointing and claiming.
        matches_plain(|b, direct| locking(b, direct, 0), plain_locking, 60, 300);
    }

    #[test]
    fn xy_wings_match_a_plain_scan_along_rating_paths() {
        // The flag: XYZ-Wings.
        matches_plain(
            |b, xyz| xy_wing(b, xyz, CellSet::ALL),
            plain_xy_wing,
            60,
            100,
        );
    }
}
