//! Chains of n strong links on one digit (Sukaku Explainer's `StrongLinks(n)`, n = 2,
//! 3, 4): skyscraper, 2-string kite, turbot and empty rectangle for n = 2, their longer
//! kin and X-loops. A region gives a link when the digit has 2 places in it, or 3 to 6
//! places split in two groups around an empty area (a grouped link). Links join end to
//! end through weak links (both ends in one column, row or block).
//!
//! Every non-decreasing sequence of region types, every digit, every choice of
//! regions, every ordering and orientation is tried; the hint kept is the lowest by
//! rating, then the most eliminations, then the smallest suffix, the first among equals.

use super::board::{
    bits, region_type, CellSet, Pencilmarks, CELL_REGIONS, REGION_CELLS, REGION_SETS,
};
use super::hint::{Hint, HintKind};

#[derive(Clone, Copy, Debug, Default)]
struct Link {
    region: usize,
    places: CellSet,
    groups: [CellSet; 2],
    grouped: bool,
    /// The digit's holders that see every cell of each end group (set once the
    /// digit's links are all known).
    sees: [CellSet; 2],
    /// The link's number among the digit's links, and the numbers of the links one of
    /// whose ends shares a region with one of its ends.
    id: u8,
    joins: u64,
    /// The regions holding every cell of each end group, as bits by region number (set
    /// with `sees`).
    regions: [u32; 2],
}

fn set_of(cells: &[u8], mask: u16) -> CellSet {
    bits(mask).fold(CellSet::EMPTY, |s, i| s.with(cells[i] as usize))
}

/// The links `region` gives for candidate bit `v` (none, one, or two pairings of a
/// 2x2), written into `out`; returns how many.
fn links_of(b: &Pencilmarks, region: usize, v: usize, out: &mut [Link; 2]) -> usize {
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
            sees: [CellSet::EMPTY; 2],
            id: 0,
            joins: 0,
            regions: [0; 2],
        };
        return 1;
    }
    let link = |a: CellSet, bb: CellSet| Link {
        region,
        places,
        groups: [a, bb],
        grouped: true,
        sees: [CellSet::EMPTY; 2],
        id: 0,
        joins: 0,
        regions: [0; 2],
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
        // A blade of one cell is one end and the other blade with the heart the
        // other (the heart is added whether or not it holds the digit). With one cell
        // in each blade the heart goes with the row's blade: the spec's reading of
        // dropping it made 3-link chains serate does not take (measured on the bank
        // sample), this one gives serate's path there.
        out[0] = match (na, nb) {
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

/// The regions holding every cell of `cells` (not empty), as bits by region number.
fn regions_holding(cells: CellSet) -> u32 {
    cells.iter().fold(!0, |m, c| {
        let [block, row, col] = CELL_REGIONS[c];
        m & (1 << block | 1 << row | 1 << col)
    })
}

/// The column, else the row, else the block among `regions` (bits by region number:
/// columns above rows above blocks), or `NO`.
fn first_region(regions: u32) -> u8 {
    if regions == 0 {
        NO
    } else {
        (31 - regions.leading_zeros()) as u8
    }
}

/// A region's number for the ring rule: block b is b + 1, row r 11 + r, column c 21 + c.
fn number(region: usize) -> usize {
    match region_type(region) {
        0 => region + 1,
        1 => region - 9 + 11,
        _ => region - 18 + 21,
    }
}

/// The lowest chain so far: its sort key and what it removes. The hint is built once,
/// at the end, from the winner.
#[derive(Clone, Copy)]
struct BestLinks {
    found: Option<(HintKind, usize, CellSet)>,
    key: (f64, u32, [u8; 5]),
    /// Rate as the puzzle bank's version did ([`rating`]).
    bank: bool,
    /// Pass over the orderings whose end links can give nothing (off only to test it).
    screening: bool,
}

impl BestLinks {
    /// None yet.
    fn new(bank: bool) -> BestLinks {
        BestLinks {
            found: None,
            key: (0.0, 0, [0; 5]),
            bank,
            screening: true,
        }
    }

    /// True when a chain rated `rating` could still be kept.
    fn admits(&self, rating: f64) -> bool {
        self.found.is_none() || rating <= self.key.0
    }

    fn offer(&mut self, t: HintKind, v: usize, elims: CellSet, key: (f64, u32, [u8; 5])) {
        let better = self.found.is_none()
            || key.0 < self.key.0
            || (key.0 == self.key.0
                && (key.1 > self.key.1 || (key.1 == self.key.1 && key.2 < self.key.2)));
        if better {
            self.found = Some((t, v, elims));
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

/// The technique of n links and its base rating.
fn base(n: usize) -> (HintKind, f64) {
    match n {
        2 => (HintKind::TwoStrongLinks, 4.0),
        3 => (HintKind::ThreeStrongLinks, 5.4),
        _ => (HintKind::FourStrongLinks, 5.8),
    }
}

/// The rating of links of these region types, grouped or not: the base for lines of one
/// orientation, +0.2 for a block with rows and columns, +0.1 otherwise, +0.3 when
/// grouped. With `bank` (the puzzle bank's version, for 3 links and more) rows and
/// columns without a block take +0.2 and with one +0.1, as the bank's ratings show.
fn rating(n: usize, types: &[usize], grouped: bool, bank: bool) -> f64 {
    let b = base(n).1;
    let has = |ty: usize| types.contains(&ty);
    if grouped {
        b + 0.3
    } else if !has(0) && has(1) != has(2) {
        b
    } else if has(1) && has(2) && (has(0) != (n >= 3 && bank)) {
        b + 0.2
    } else {
        b + 0.1
    }
}

/// One digit's links in every region, made anew when its candidates change.
struct Digit {
    v: usize,
    /// The links by number, numbered in region order.
    links: [Link; MAX_LINKS],
    /// The junction region of end group g of link x and end group h of link y (`NO`
    /// for none), at `[x * MAX_LINKS + y][2 * g + h]`.
    joint: [[u8; 4]; MAX_LINKS * MAX_LINKS],
    /// For each link, the links with which it could make an elimination: a cell
    /// outside both link regions that sees an end group of each.
    victims: [u64; MAX_LINKS],
    /// The links of regions of each type.
    of_type: [u64; 3],
    /// For each link, the links in regions after its own (links are numbered in
    /// region order).
    after: [u64; MAX_LINKS],
    /// For each link, the links whose places meet none of its own.
    disjoint: [u64; MAX_LINKS],
}

/// The most links one digit can have: two in each region.
const MAX_LINKS: usize = 54;

impl Digit {
    fn empty() -> Digit {
        Digit {
            v: 0,
            links: [Link::default(); MAX_LINKS],
            joint: [[NO; 4]; MAX_LINKS * MAX_LINKS],
            victims: [0; MAX_LINKS],
            of_type: [0; 3],
            after: [0; MAX_LINKS],
            disjoint: [0; MAX_LINKS],
        }
    }

    /// The links of candidate bit `v` on the board (only the table entries of the
    /// links found are written).
    fn fill(&mut self, b: &Pencilmarks, v: usize) {
        let holders = b.all_with(v);
        self.v = v;
        let mut n = 0;
        self.of_type = [0; 3];
        for region in 0..27 {
            let mut found = [Link::default(); 2];
            let k = links_of(b, region, v, &mut found);
            let first = n;
            for mut link in found.into_iter().take(k) {
                link.sees = link.groups.map(|g| g.seeing_all().and(holders));
                link.regions = link.groups.map(regions_holding);
                link.id = n as u8;
                link.joins = 0;
                self.of_type[region_type(region)] |= 1 << n;
                self.links[n] = link;
                self.victims[n] = 0;
                self.disjoint[n] = 0;
                n += 1;
            }
            // The links of later regions get the numbers from `n` on.
            self.after[first..n].fill(!0 << n);
        }
        for x in 0..n {
            for y in x + 1..n {
                let (l, m) = (&self.links[x], &self.links[y]);
                let outside = REGION_SETS[l.region].or(REGION_SETS[m.region]);
                let apart = l.places.and(m.places).is_empty();
                let mut joined = false;
                let mut victims = false;
                for g in 0..2 {
                    for h in 0..2 {
                        let r = first_region(l.regions[g] & m.regions[h]);
                        self.joint[x * MAX_LINKS + y][2 * g + h] = r;
                        self.joint[y * MAX_LINKS + x][2 * h + g] = r;
                        joined |= r != NO;
                        victims |= !l.sees[g].and(m.sees[h]).minus(outside).is_empty();
                    }
                }
                if joined {
                    self.links[x].joins |= 1 << y;
                    self.links[y].joins |= 1 << x;
                }
                if victims {
                    self.victims[x] |= 1 << y;
                    self.victims[y] |= 1 << x;
                }
                if apart {
                    self.disjoint[x] |= 1 << y;
                    self.disjoint[y] |= 1 << x;
                }
            }
        }
    }
}

/// The links of one choice, with what the orderings need of them.
struct Chosen {
    n: usize,
    /// The links' numbers and regions.
    ids: [usize; 4],
    regions: [usize; 4],
    /// `sees` of each link's end groups, index `2 * link + group`.
    sees: [CellSet; 8],
    /// The cells of every link region.
    cells: CellSet,
    rating: f64,
    technique: HintKind,
    grouped: u32,
}

impl Chosen {
    /// The junction region of end groups `i` and `j` (index `2 * link + group`) of two
    /// different links (`NO` for none).
    fn joint(&self, d: &Digit, i: usize, j: usize) -> u8 {
        let (x, y) = (self.ids[i / 2], self.ids[j / 2]);
        d.joint[x * MAX_LINKS + y][2 * (i % 2) + j % 2]
    }
}

const NO: u8 = u8::MAX;

/// True when the links `members` (bits by number), joined wherever an end of one
/// shares a region with an end of another, connect every link, and two of them could
/// make an elimination: a chain through all of them needs both.
fn worth_ordering(d: &Digit, members: u64) -> bool {
    let start = members & members.wrapping_neg();
    let (mut reached, mut frontier) = (start, start);
    let mut victims = false;
    while frontier != 0 {
        let id = frontier.trailing_zeros() as usize;
        frontier &= frontier - 1;
        let new = d.links[id].joins & members & !reached;
        reached |= new;
        frontier |= new;
        victims |= d.victims[id] & members != 0;
    }
    reached == members && victims
}

/// Every ordering (QuickPerm order) and orientation of the chosen links (`chosen`,
/// by number).
fn evaluate(d: &Digit, chosen: &[u8], best: &mut BestLinks) {
    let n = chosen.len();
    let links: [&Link; 4] = std::array::from_fn(|k| &d.links[chosen[k.min(n - 1)] as usize]);
    let types: [usize; 4] = std::array::from_fn(|k| {
        if k < n {
            region_type(links[k].region)
        } else {
            3
        }
    });
    let grouped = links[..n].iter().filter(|l| l.grouped).count() as u32;
    let r = rating(n, &types[..n], grouped > 0, best.bank);
    if !best.admits(r) {
        return;
    }
    let mut c = Chosen {
        n,
        ids: [0; 4],
        regions: [0; 4],
        sees: [CellSet::EMPTY; 8],
        cells: CellSet::EMPTY,
        rating: r,
        technique: base(n).0,
        grouped,
    };
    for (i, l) in links[..n].iter().enumerate() {
        c.ids[i] = l.id as usize;
        c.regions[i] = l.region;
        c.cells = c.cells.or(REGION_SETS[l.region]);
        c.sees[2 * i] = l.sees[0];
        c.sees[2 * i + 1] = l.sees[1];
    }
    // Every elimination sees an end group of one link and one of another, outside
    // the link regions: with no such cell the links give no hint in any order.
    let any_victim = (0..2 * n).any(|i| {
        (2 * (i / 2 + 1)..2 * n).any(|j| !c.sees[i].and(c.sees[j]).minus(c.cells).is_empty())
    });
    if !any_victim {
        return;
    }
    // Which links join which, in some orientation.
    let adjacent: [u8; 4] = std::array::from_fn(|a| {
        (0..n).fold(0u8, |m, b| {
            m | u8::from(b != a && links[a].joins >> c.ids[b] & 1 != 0) << b
        })
    });
    // An ordering whose neighbours cannot join in any orientation gives no chain; one
    // whose first and last links neither join (closing a loop) nor see a cell in
    // common outside their regions (an open chain's eliminations) removes nothing.
    let joins = |order: &[usize]| order.windows(2).all(|w| adjacent[w[0]] >> w[1] & 1 != 0);
    let (orders, count) = &ORDERS[n - 2];
    for order in &orders[..*count] {
        let order = &order[..n];
        let (first, last) = (order[0], order[n - 1]);
        let ends = !best.screening
            || adjacent[first] >> last & 1 != 0
            || d.victims[c.ids[first]] >> c.ids[last] & 1 != 0;
        if ends && joins(order) {
            orientations(d, &c, order, best);
        }
    }
}

/// For 2, 3 and 4 links, the orderings tried: every permutation in QuickPerm order
/// that is not after its own reverse (a chain read backwards is the same chain), and
/// how many.
static ORDERS: [([[usize; 4]; 24], usize); 3] = [orders(2), orders(3), orders(4)];

const fn orders(n: usize) -> ([[usize; 4]; 24], usize) {
    /// True when `a[..n]` is not after its reverse.
    const fn kept(a: &[usize; 4], n: usize) -> bool {
        let mut k = 0;
        while k < n {
            let (x, y) = (a[k], a[n - 1 - k]);
            if x != y {
                return x < y;
            }
            k += 1;
        }
        true
    }
    let mut out = [[0usize; 4]; 24];
    let mut count = 0;
    let mut a = [0usize, 1, 2, 3];
    let mut p = [0usize, 1, 2, 3, 4];
    let mut i = 1;
    loop {
        if kept(&a, n) {
            out[count] = a;
            count += 1;
        }
        if i >= n {
            break;
        }
        p[i] -= 1;
        let j = if i % 2 == 1 { p[i] } else { 0 };
        let t = a[j];
        a[j] = a[i];
        a[i] = t;
        i = 1;
        while i < n && p[i] == 0 {
            p[i] = i;
            i += 1;
        }
        if i >= n {
            if kept(&a, n) {
                out[count] = a;
                count += 1;
            }
            break;
        }
    }
    (out, count)
}

fn orientations(d: &Digit, c: &Chosen, order: &[usize], best: &mut BestLinks) {
    let n = c.n;
    'o: for o in 0..1usize << n {
        let flip = |k: usize| o >> (n - 1 - k) & 1;
        let near = |k: usize| 2 * order[k] + flip(k);
        let far = |k: usize| 2 * order[k] + (1 - flip(k));
        let mut junctions = CellSet::EMPTY;
        for k in 0..n - 1 {
            match c.joint(d, far(k), near(k + 1)) {
                NO => continue 'o,
                region => junctions = junctions.or(REGION_SETS[region as usize]),
            }
        }
        let (start, end) = (near(0), far(n - 1));
        let ends = c.sees[start].and(c.sees[end]);
        let (elims, total) = if c.joint(d, start, end) == NO {
            let e = ends.minus(c.cells).minus(junctions);
            (e, e.len())
        } else {
            let smallest = c.regions[..n].iter().map(|&r| number(r)).min();
            if Some(number(c.regions[order[0]])) != smallest || flip(0) != 0 {
                continue;
            }
            let mut e = ends.minus(c.cells);
            let mut total = e.len();
            for k in 0..n - 1 {
                let both = c.sees[far(k)].and(c.sees[near(k + 1)]).minus(c.cells);
                total += both.len();
                e = e.or(both);
            }
            (e, total)
        };
        if !elims.is_empty() {
            let mut types = [0u8; 4];
            for (k, &li) in order.iter().enumerate() {
                types[k] = region_type(c.regions[li]) as u8;
            }
            let suffix = suffix(&types[..n], c.grouped);
            best.offer(c.technique, d.v, elims, (c.rating, total, suffix));
        }
    }
}

/// The choice of links for `seq` from depth `depth` on, each in a region after the
/// previous one of its type and on cells no chosen link holds, and one at least among
/// `fresh`: `chosen` holds the numbers of the links chosen so far, `members` the same
/// as bits, and `free` the links whose places meet no chosen link's.
#[allow(clippy::too_many_arguments)]
fn choose(
    d: &Digit,
    seq: &[usize],
    depth: usize,
    chosen: &mut [u8; 4],
    members: u64,
    free: u64,
    fresh: u64,
    best: &mut BestLinks,
) {
    let n = seq.len();
    if depth == n {
        if worth_ordering(d, members) {
            evaluate(d, &chosen[..n], best);
        }
        return;
    }
    let t = seq[depth];
    let mut candidates = d.of_type[t] & free;
    if depth + 1 == n && members & fresh == 0 {
        candidates &= fresh;
    }
    if depth > 0 && seq[depth - 1] == t {
        candidates &= d.after[chosen[depth - 1] as usize];
    }
    // Links of the later positions' types: a chosen link that no other chosen link
    // joins must be joined by one of those, or no chain goes through it; so must the
    // link chosen here.
    let later = seq[depth + 1..].iter().fold(0u64, |m, &t| m | d.of_type[t]);
    // With no fresh link chosen yet, one of the positions from here on must take one.
    if members & fresh == 0 && (d.of_type[t] | later) & free & fresh == 0 {
        return;
    }
    let around = members | later;
    for &c in &chosen[..depth] {
        let joins = d.links[c as usize].joins;
        if joins & around == 0 {
            candidates &= joins;
        }
    }
    while candidates != 0 {
        let id = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        if d.links[id].joins & around == 0 {
            continue;
        }
        chosen[depth] = id as u8;
        choose(
            d,
            seq,
            depth + 1,
            chosen,
            members | 1 << id,
            free & d.disjoint[id],
            fresh,
            best,
        );
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

/// Where each n's type sequences start among a digit's results (6 sequences of 2
/// links, 10 of 3, 15 of 4).
const SEQ_AT: [usize; 4] = [0, 6, 16, 31];

/// The strong-link searches' tables and results, kept from search to search. A chain
/// of strong links is on one digit and removes only that digit, so its search depends
/// on that digit's candidates alone: each digit's links and its lowest chain of each type
/// sequence are kept until its candidates change (most steps change a few digits), and
/// the three searches of a step (2, 3 and 4 links) share the links.
pub struct StrongLinks {
    digits: Box<[Digit; 9]>,
    /// The candidates (and rules) each digit's tables and results were made for.
    made_for: [Option<(CellSet, bool)>; 9],
    /// The candidates (and rules) each digit's results for n links (at n - 2) were
    /// worked out for.
    made: [[Option<(CellSet, bool)>; 3]; 9],
    /// The lowest chain of each digit and type sequence (sequences numbered from
    /// `SEQ_AT[n - 2]` in the order [`sequences`] gives them).
    results: Box<[[BestLinks; SEQ_AT[3]]; 9]>,
    /// Whether orderings are screened by their end links (off only to test it).
    screening: bool,
}

impl Default for StrongLinks {
    fn default() -> Self {
        StrongLinks::new()
    }
}

impl StrongLinks {
    /// Empty tables.
    pub fn new() -> StrongLinks {
        StrongLinks {
            digits: Box::new(std::array::from_fn(|_| Digit::empty())),
            made_for: [None; 9],
            made: [[None; 3]; 9],
            results: Box::new([[BestLinks::new(false); SEQ_AT[3]]; 9]),
            screening: true,
        }
    }

    /// The lowest chain of n strong links (n = 2, 3 or 4), if any; `bank` rates it as
    /// the puzzle bank's version did.
    ///
    /// The searches run by type sequence, then digit; the lowest of each digit and
    /// sequence is kept, and the first lowest in that order wins, as when one search
    /// ran through them all. Within one, a choice that cannot beat the best so far is
    /// not looked at, nor links that no weak link could join into one chain.
    pub fn best(&mut self, b: &Pencilmarks, n: usize, bank: bool) -> Option<Hint> {
        let holders = b.holders();
        for v in 0..9 {
            let now = Some((holders[v], bank));
            if self.made_for[v] != now {
                self.digits[v].fill(b, v);
                self.made_for[v] = now;
            }
            let made = &mut self.made[v][n - 2];
            if *made == now {
                continue;
            }
            let d = &self.digits[v];
            // When the last results were made under the same rules for places of which
            // these are a part, a chain of old links, which removed nothing then,
            // removes nothing now (its eliminations only shrink): where a type
            // sequence found nothing, only choices with a link of a region whose places
            // changed need a look.
            let fresh = match *made {
                Some((old, same)) if same == bank && holders[v].minus(old).is_empty() => {
                    let gone = old.minus(holders[v]);
                    let all = d.of_type[0] | d.of_type[1] | d.of_type[2];
                    (0..64)
                        .filter(|&id| all >> id & 1 != 0)
                        .fold(0u64, |m, id| {
                            let moved = !REGION_SETS[d.links[id].region].and(gone).is_empty();
                            m | u64::from(moved) << id
                        })
                }
                _ => !0,
            };
            *made = now;
            let screening = self.screening;
            let results = &mut self.results[v];
            let mut at = SEQ_AT[n - 2];
            sequences(n, &mut |seq| {
                let fresh = if results[at].found.is_none() {
                    fresh
                } else {
                    !0
                };
                let types = seq.iter().fold(0u64, |m, &t| m | d.of_type[t]);
                if fresh == !0 || fresh & types != 0 {
                    let mut best = BestLinks::new(bank);
                    best.screening = screening;
                    let mut chosen = [0u8; 4];
                    choose(d, seq, 0, &mut chosen, 0, !0, fresh, &mut best);
                    results[at] = best;
                }
                at += 1;
            });
        }
        let mut best = BestLinks::new(bank);
        for at in SEQ_AT[n - 2]..SEQ_AT[n - 1] {
            for results in self.results.iter() {
                if let Some((t, v, elims)) = results[at].found {
                    best.offer(t, v, elims, results[at].key);
                }
            }
        }
        let (t, v, elims) = best.found?;
        let mut h = Hint::new(t, best.key.0);
        for c in elims.iter() {
            h.remove(b, c, v);
        }
        Some(h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::explainer::testing::{on_rating_paths, outcome};

    #[test]
    fn orderings_are_each_chain_once() {
        // Every permutation of n links is kept either as itself or as its reverse,
        // never both and never twice.
        for n in 2..=4 {
            let (orders, count) = &ORDERS[n - 2];
            let kept = &orders[..*count];
            let factorial: usize = (1..=n).product();
            assert_eq!(kept.len(), factorial / 2, "{n} links");
            for (i, o) in kept.iter().enumerate() {
                let mut seen = [false; 4];
                for &x in &o[..n] {
                    assert!(x < n && !seen[x], "{n} links: {o:?}");
                    seen[x] = true;
                }
                let reverse: Vec<usize> = o[..n].iter().rev().copied().collect();
                assert!(o[..n] < reverse[..], "{n} links: {o:?}");
                assert!(!kept[..i].contains(o), "{n} links: {o:?} twice");
            }
        }
    }

    #[test]
    fn orderings_screened_by_their_end_links_give_what_every_ordering_gives() {
        // An ordering is passed over when its first and last links neither join nor
        // see a cell in common outside their regions; against the search that tries
        // every ordering, for each n and both rules, along the rater's paths.
        let mut screened = StrongLinks::new();
        let mut every = StrongLinks::new();
        every.screening = false;
        let mut found = [0; 3];
        on_rating_paths("se-reference-expert.txt", 60, |puzzle, b| {
            for bank in [false, true] {
                for n in 2..=4 {
                    let expected = every.best(b, n, bank);
                    found[n - 2] += usize::from(expected.is_some());
                    assert_eq!(
                        outcome(screened.best(b, n, bank)),
                        outcome(expected),
                        "{puzzle}: {n} links"
                    );
                }
            }
        });
        assert!(
            found.iter().all(|&f| f > 100),
            "{found:?} chains of 2, 3, 4"
        );
    }

    #[test]
    fn kept_results_give_what_a_fresh_search_gives_along_rating_paths() {
        // Searches kept from board to board and from puzzle to puzzle (in both rules,
        // kept apart, and in turn by one) against fresh tables at every step of the
        // rater's own path.
        let mut apart = [StrongLinks::new(), StrongLinks::new()];
        let mut kept = StrongLinks::new();
        let mut found = 0;
        let boards = on_rating_paths("se-reference-expert.txt", 40, |puzzle, b| {
            for bank in [false, true] {
                for n in 2..=4 {
                    let fresh = StrongLinks::new().best(b, n, bank);
                    found += usize::from(fresh.is_some());
                    assert_eq!(
                        outcome(apart[usize::from(bank)].best(b, n, bank)),
                        outcome(fresh),
                        "{puzzle}: {n} links apart"
                    );
                    assert_eq!(
                        outcome(kept.best(b, n, bank)),
                        outcome(fresh),
                        "{puzzle}: {n} links"
                    );
                }
            }
        });
        assert!(
            boards > 1000 && found > 50,
            "{boards} boards, {found} chains"
        );
    }
}
