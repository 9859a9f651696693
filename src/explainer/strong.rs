//! Chains of n strong links on one digit (Sukaku Explainer's `StrongLinks(n)`, n = 2,
//! 3, 4): skyscraper, 2-string kite, turbot and empty rectangle for n = 2, their longer
//! kin and X-loops. A region gives a link when the digit has 2 places in it, or 3 to 6
//! places split in two groups around an empty area (a grouped link). Links join end to
//! end through weak links (both ends in one column, row or block).
//!
//! Every non-decreasing sequence of region types, every digit, every choice of
//! regions, every ordering and orientation is tried; the hint kept is the lowest by
//! rating, then the most eliminations, then the smallest suffix, the first among equals.

use super::board::{region_type, Board, Cells, PEER_SETS, REGION_CELLS, REGION_SETS};
use super::hint::{Hint, Technique};

#[derive(Clone, Copy, Debug, Default)]
struct Link {
    region: usize,
    places: Cells,
    groups: [Cells; 2],
    grouped: bool,
}

fn set_of(cells: &[u8], mask: u16) -> Cells {
    let mut s = Cells::EMPTY;
    for (i, &c) in cells.iter().enumerate() {
        if mask >> i & 1 != 0 {
            s = s.with(c as usize);
        }
    }
    s
}

/// The links `region` gives for candidate bit `v` (none, one, or two pairings of a
/// 2x2), written into `out`; returns how many.
fn links_of(b: &Board, region: usize, v: usize, out: &mut [Link; 2]) -> usize {
    let cells = &REGION_CELLS[region];
    let p = b.positions(region, v);
    let n = p.count_ones();
    if !(2..=6).contains(&n) {
        return 0;
    }
    let places = set_of(cells, p);
    let block = region_type(region) == 0;
    if n == 2 {
        let first = p.trailing_zeros();
        let second = 15 - p.leading_zeros();
        if block && (first / 3 == second / 3 || first % 3 == second % 3) {
            return 0;
        }
        let groups = [set_of(cells, 1 << first), set_of(cells, 1 << second)];
        out[0] = Link {
            region,
            places,
            groups,
            grouped: false,
        };
        return 1;
    }
    let link = |a: Cells, bb: Cells| Link {
        region,
        places,
        groups: [a, bb],
        grouped: true,
    };
    if !block {
        for e in 0..3 {
            let segment = 0b111u16 << (3 * e);
            if p & segment != 0 {
                continue;
            }
            let (sa, sb) = match e {
                0 => (0b111 << 3, 0b111 << 6),
                1 => (0b111, 0b111 << 6),
                _ => (0b111, 0b111 << 3),
            };
            let (a, bb) = (p & sa, p & sb);
            if a == 0 || bb == 0 {
                return 0;
            }
            out[0] = link(set_of(cells, a), set_of(cells, bb));
            return 1;
        }
        return 0;
    }
    let row_mask = |r: u32| 0b111u16 << (3 * r);
    let col_mask = |c: u32| 0b1001001u16 << c;
    for e in 0..9u32 {
        let (hr, hc) = (e / 3, e % 3);
        let cross = row_mask(hr) | col_mask(hc);
        if p & !cross != 0 {
            continue;
        }
        let h = 1u16 << e;
        let (a, bb) = (p & col_mask(hc) & !h, p & row_mask(hr) & !h);
        if a == 0 || bb == 0 {
            return 0;
        }
        let (na, nb) = (a.count_ones(), bb.count_ones());
        let hs = set_of(cells, h);
        out[0] = match (na, nb) {
            // With the heart holding the digit too, neither blade's cell alone is one
            // end: Sukaku Explainer's results show no link here (measured against
            // serate on the diabolical bank sample), not the two single-cell ends.
            (1, 1) if p & h != 0 => return 0,
            (1, 1) => link(set_of(cells, a), set_of(cells, bb)),
            (1, _) => link(set_of(cells, a), set_of(cells, bb).or(hs)),
            (_, 1) => link(set_of(cells, bb), set_of(cells, a).or(hs)),
            _ => link(set_of(cells, a), set_of(cells, bb)),
        };
        return 1;
    }
    if n < 4 {
        return 0;
    }
    for e in 9..15u32 {
        let by_rows = e < 12;
        let k = if by_rows { 11 - e } else { 14 - e };
        let line = |x: u32| if by_rows { row_mask(x) } else { col_mask(x) };
        let across = |x: u32| if by_rows { col_mask(x) } else { row_mask(x) };
        let (o1, o2) = match k {
            0 => (1, 2),
            1 => (0, 2),
            _ => (0, 1),
        };
        if p & line(k) != 0 {
            continue;
        }
        let (a, bb) = (p & line(o1), p & line(o2));
        if a == 0 || bb == 0 {
            return 0;
        }
        out[0] = link(set_of(cells, a), set_of(cells, bb));
        if n == 4 && a.count_ones() == 2 && bb.count_ones() == 2 {
            let spread = |m: u16| {
                (0..3u32)
                    .filter(|&x| m & across(x) != 0)
                    .fold(0u16, |s, x| s | 1 << x)
            };
            if spread(a) == spread(bb) {
                let xs = spread(a);
                let (x1, x2) = (xs.trailing_zeros(), 15 - xs.leading_zeros());
                out[1] = link(set_of(cells, p & across(x1)), set_of(cells, p & across(x2)));
                return 2;
            }
        }
        return 1;
    }
    0
}

/// The column, else the row, else the block holding every cell of `cells`.
fn shared_region(cells: Cells) -> Option<usize> {
    let first = cells.iter().next()?;
    let (row, col) = (first / 9, first % 9);
    let block = row / 3 * 3 + col / 3;
    if cells.iter().all(|c| c % 9 == col) {
        Some(18 + col)
    } else if cells.iter().all(|c| c / 9 == row) {
        Some(9 + row)
    } else if cells.iter().all(|c| c / 27 * 3 + c % 9 / 3 == block) {
        Some(block)
    } else {
        None
    }
}

/// Cells seeing every cell of `group`.
fn seeing(group: Cells) -> Cells {
    group
        .iter()
        .fold(Cells(!0 >> 47), |s, c| s.and(PEER_SETS[c]))
}

/// A region's number for the ring rule: block b is b + 1, row r 11 + r, column c 21 + c.
fn number(region: usize) -> usize {
    match region_type(region) {
        0 => region + 1,
        1 => region - 9 + 11,
        _ => region - 18 + 21,
    }
}

struct Best {
    hint: Option<Hint>,
    key: (f64, u32, [u8; 5]),
}

impl Best {
    fn offer(&mut self, h: Hint, total: u32, suffix: [u8; 5]) {
        let key = (h.rating, total, suffix);
        let better = match self.hint {
            None => true,
            Some(_) => {
                key.0 < self.key.0
                    || (key.0 == self.key.0
                        && (key.1 > self.key.1 || (key.1 == self.key.1 && key.2 < self.key.2)))
            }
        };
        if better {
            self.hint = Some(h);
            self.key = key;
        }
    }
}

/// The sort suffix: grouped links, then the type string in its canonical form.
fn suffix(types: &[u8], grouped: u32) -> [u8; 5] {
    let n = types.len();
    let mut forms = [[0u8; 4]; 4];
    for i in 0..n {
        forms[0][i] = types[i];
        forms[1][i] = types[n - 1 - i];
        forms[2][i] = [0, 2, 1][types[i] as usize];
        forms[3][i] = [0, 2, 1][types[n - 1 - i] as usize];
    }
    let rows = types.contains(&1);
    let mut best = if forms[1] < forms[0] {
        forms[1]
    } else {
        forms[0]
    };
    if rows {
        for f in &forms[2..] {
            if *f < best {
                best = *f;
            }
        }
    } else {
        for t in best.iter_mut().take(n) {
            if *t == 2 {
                *t = 1;
            }
        }
    }
    let mut out = [0u8; 5];
    out[0] = b'0' + grouped as u8;
    for i in 0..n {
        out[1 + i] = b'0' + best[i];
    }
    out
}

fn rating(links: &[Link]) -> (Technique, f64) {
    let n = links.len();
    let (t, base) = match n {
        2 => (Technique::TwoStrongLinks, 4.0),
        3 => (Technique::ThreeStrongLinks, 5.4),
        _ => (Technique::FourStrongLinks, 5.8),
    };
    let has = |ty: usize| links.iter().any(|l| region_type(l.region) == ty);
    let r = if links.iter().any(|l| l.grouped) {
        base + 0.3
    } else if !has(0) && has(1) != has(2) {
        base
    } else if has(0) && has(1) && has(2) {
        base + 0.2
    } else {
        base + 0.1
    };
    (t, r)
}

/// Every ordering (QuickPerm order) and orientation of the chosen links.
fn evaluate(b: &Board, v: usize, links: &[Link], best: &mut Best) {
    let n = links.len();
    let mut a = [0usize; 4];
    let mut p = [0usize; 5];
    for i in 0..n {
        a[i] = i;
    }
    for (i, x) in p.iter_mut().enumerate() {
        *x = i;
    }
    let mut i = 1;
    loop {
        let mut rev = [0usize; 4];
        for k in 0..n {
            rev[k] = a[n - 1 - k];
        }
        if a[..n] <= rev[..n] {
            orientations(b, v, links, &a[..n], best);
        }
        if i >= n {
            break;
        }
        p[i] -= 1;
        let j = if i % 2 == 1 { p[i] } else { 0 };
        a.swap(j, i);
        i = 1;
        while i < n && p[i] == 0 {
            p[i] = i;
            i += 1;
        }
        if i >= n {
            let mut rev = [0usize; 4];
            for k in 0..n {
                rev[k] = a[n - 1 - k];
            }
            if a[..n] <= rev[..n] {
                orientations(b, v, links, &a[..n], best);
            }
            break;
        }
    }
}

fn orientations(b: &Board, v: usize, links: &[Link], order: &[usize], best: &mut Best) {
    let n = links.len();
    let holders = b.all_with(v);
    let mut link_cells = Cells::EMPTY;
    for l in links {
        link_cells = link_cells.or(REGION_SETS[l.region]);
    }
    let smallest = links.iter().map(|l| number(l.region)).min().unwrap_or(0);
    let mut types = [0u8; 4];
    for (k, &li) in order.iter().enumerate() {
        types[k] = region_type(links[li].region) as u8;
    }
    let grouped = links.iter().filter(|l| l.grouped).count() as u32;
    let (t, r) = rating(links);
    'o: for o in 0..1usize << n {
        let flip = |k: usize| o >> (n - 1 - k) & 1 != 0;
        let near = |k: usize| links[order[k]].groups[flip(k) as usize];
        let far = |k: usize| links[order[k]].groups[!flip(k) as usize];
        let mut junctions = Cells::EMPTY;
        for k in 0..n - 1 {
            match shared_region(far(k).or(near(k + 1))) {
                Some(region) => junctions = junctions.or(REGION_SETS[region]),
                None => continue 'o,
            }
        }
        let (start, end) = (near(0), far(n - 1));
        let mut h = Hint::new(t, r);
        let mut total = 0;
        let ends = seeing(start).and(seeing(end)).and(holders);
        if shared_region(start.or(end)).is_none() {
            for c in ends.minus(link_cells).minus(junctions).iter() {
                h.remove(b, c, v);
                total += 1;
            }
        } else {
            if number(links[order[0]].region) != smallest || flip(0) {
                continue;
            }
            for c in ends.minus(link_cells).iter() {
                h.remove(b, c, v);
                total += 1;
            }
            for k in 0..n - 1 {
                let both = seeing(far(k)).and(seeing(near(k + 1))).and(holders);
                for c in both.minus(link_cells).iter() {
                    h.remove(b, c, v);
                    total += 1;
                }
            }
        }
        if h.is_worth() {
            best.offer(h, total, suffix(&types[..n], grouped));
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn choose(
    b: &Board,
    seq: &[usize],
    v: usize,
    depth: usize,
    chosen: &mut [Link; 4],
    used: Cells,
    best: &mut Best,
) {
    let n = seq.len();
    if depth == n {
        evaluate(b, v, &chosen[..n], best);
        return;
    }
    let t = seq[depth];
    let from = if depth > 0 && seq[depth - 1] == t {
        chosen[depth - 1].region % 9 + 1
    } else {
        0
    };
    let mut variants = [Link::default(); 2];
    for idx in from..9 {
        let region = t * 9 + idx;
        let k = links_of(b, region, v, &mut variants);
        for variant in &variants[..k] {
            if !variant.places.and(used).is_empty() {
                continue;
            }
            chosen[depth] = *variant;
            choose(b, seq, v, depth + 1, chosen, used.or(variant.places), best);
        }
    }
}

/// Non-decreasing type sequences of length n in colex order, each passed to `f`.
fn sequences(n: usize, f: &mut dyn FnMut(&[usize])) {
    fn rec(seq: &mut [usize; 4], pos: usize, max: usize, n: usize, f: &mut dyn FnMut(&[usize])) {
        for t in 0..=max {
            seq[pos] = t;
            if pos == 0 {
                f(&seq[..n]);
            } else {
                rec(seq, pos - 1, t, n, f);
            }
        }
    }
    let mut seq = [0usize; 4];
    rec(&mut seq, n - 1, 2, n, f);
}

/// The lowest chain of n strong links (n = 2, 3 or 4), if any.
pub fn strong_links(b: &Board, n: usize) -> Option<Hint> {
    let mut best = Best {
        hint: None,
        key: (0.0, 0, [0; 5]),
    };
    sequences(n, &mut |seq| {
        for v in 0..9 {
            let mut chosen = [Link::default(); 4];
            choose(b, seq, v, 0, &mut chosen, Cells::EMPTY, &mut best);
        }
    });
    best.hint
}
