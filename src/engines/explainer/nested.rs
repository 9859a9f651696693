//! The hints of a chaining rule run inside a nested forcing chain (Sukaku Explainer's
//! levels 2 and 3): every hint of the rule on the reduced board, sorted as the rule
//! sorts them (rating, complexity, kind, then the order found), those whose
//! eliminations repeat an earlier one's dropped. Each keeps the chains it rests on, so
//! that the forcing chain using it can work out which of its removals it needs (the
//! rule parents) and count its complexity once however often it is used.
//!
//! ```text
//! found     [hint | key | order found | links: range of `links`]
//! links     (potential, rule): every "on" potential of the hint's chains with the
//!           rule that made it true (its cell, or a region), in breadth-first order
//! ```

use super::board::{Pencilmarks, CELL_REGIONS, REGION_SETS};
use super::chains::{Chain, Sink};
use super::hint::{Hint, HintKind};
use super::potential::{cell_of, is_on, value_of};

/// The rule that made an "on" potential true: the cell's last value.
pub const CELL_RULE: u8 = u8::MAX;

/// One hint found.
#[derive(Clone, Copy)]
pub struct Found {
    /// What it removes: a placement is given as the removal of the cell's other values.
    pub elims: [u16; 81],
    /// Its complexity, which it adds once to a chain that uses it.
    pub complexity: u32,
    /// The rating's bits (positive doubles order as their bits do).
    pub rating: u64,
    kind: u8,
    /// Its range in [`Every::links`].
    pub(super) links: (u32, u32),
    /// A hash of its eliminations, to find repeats quickly.
    elims_hash: u64,
    /// A hash of its chains' potentials and targets: two uses of one hint (the same
    /// chains to the same targets) count once.
    pub signature: u64,
}

/// Every hint of a nested rule, and their order.
pub struct Every {
    /// The board the rule runs on (for a placement's other values).
    cands: [u16; 81],
    found: Vec<Found>,
    links: Vec<(u16, u8)>,
    /// Indices into `found`: sorted, without repeated eliminations.
    order: Vec<u32>,
}

impl Default for Every {
    fn default() -> Self {
        Every::new()
    }
}

/// FNV-1a style mixing of one more value into a hash.
pub fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(5)
}

impl Every {
    /// Empty buffers, large enough for the hints of most boards (they grow, and are
    /// then kept, on the rare board with more).
    pub fn new() -> Every {
        Every {
            cands: [0; 81],
            found: Vec::with_capacity(4096),
            links: Vec::with_capacity(64 * 1024),
            order: Vec::with_capacity(4096),
        }
    }

    /// Starts a new board.
    pub fn clear(&mut self, b: &Pencilmarks) {
        self.cands = b.cands;
        self.found.clear();
        self.links.clear();
        self.order.clear();
    }

    /// Adds a link of the next hint's chains: an "on" potential and the rule that
    /// made it true, in breadth-first order from the hint's targets.
    pub fn push_link(&mut self, p: u16, rule: u8) {
        self.links.push((p, rule));
    }

    /// Records a hint with its eliminations (or placement) and the links pushed since
    /// the last; `complexity` as the rule counts it.
    pub fn record(&mut self, hint: &Hint, complexity: usize, kind: u8, signature: u64) {
        let mut elims = hint.elims;
        if let Some((cell, value)) = hint.place {
            let c = cell as usize;
            elims[c] |= self.cands[c] & !(1 << (value - 1));
        }
        let from = self.found.last().map_or(0, |f| f.links.1);
        let elims_hash = elims
            .iter()
            .fold(0xcbf2_9ce4_8422_2325, |h, &m| mix(h, m as u64));
        self.found.push(Found {
            elims,
            complexity: complexity as u32,
            rating: hint.rating.to_bits(),
            kind,
            links: (from, self.links.len() as u32),
            elims_hash,
            signature,
        });
    }

    /// Sorts what was found (rating, complexity, kind, order found) and drops the
    /// hints whose eliminations an earlier one has.
    pub fn sort(&mut self) {
        self.order.clear();
        self.order.extend(0..self.found.len() as u32);
        let found = &self.found;
        self.order.sort_unstable_by_key(|&i| {
            let f = &found[i as usize];
            (f.rating, f.complexity, f.kind, i)
        });
        let mut kept = 0;
        for k in 0..self.order.len() {
            let f = &self.found[self.order[k] as usize];
            let repeat = self.order[..kept].iter().any(|&j| {
                let g = &self.found[j as usize];
                g.elims_hash == f.elims_hash && g.elims == f.elims
            });
            if !repeat {
                self.order[kept] = self.order[k];
                kept += 1;
            }
        }
        self.order.truncate(kept);
    }

    /// Appends a hint kept by an earlier [`Every::sort`] and its links after the hints
    /// kept so far, in that order (for a board whose hints were kept).
    pub fn push_kept(&mut self, f: &Found, links: &[(u16, u8)]) {
        let mut f = *f;
        let from = self.links.len() as u32;
        self.links.extend_from_slice(links);
        f.links = (from, self.links.len() as u32);
        self.order.push(self.found.len() as u32);
        self.found.push(f);
    }

    /// The number of hints kept by [`Every::sort`].
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// The `k`th hint kept, in order.
    pub fn get(&self, k: usize) -> &Found {
        &self.found[self.order[k] as usize]
    }

    /// The "on" potentials of a hint's chains, each with the rule that made it true.
    pub fn links_of(&self, f: &Found) -> &[(u16, u8)] {
        &self.links[f.links.0 as usize..f.links.1 as usize]
    }
}

/// The rule by which `parent` (off) made `p` (on) true on the board with holders
/// `holders`: the cell when they share it, else the first of the block, row and column
/// of `parent`'s cell in which `p`'s cell is the value's one other place.
pub fn rule_of(holders: &[super::board::CellSet; 9], p: u16, parent: u16) -> u8 {
    let (cell, from) = (cell_of(p), cell_of(parent));
    if cell == from {
        return CELL_RULE;
    }
    let v = value_of(p);
    for r in CELL_REGIONS[from] {
        let places = REGION_SETS[r as usize].and(holders[v]);
        if places.len() == 2 && places.has(cell) {
            return r;
        }
    }
    unreachable!("an on potential made by a link of its off parent")
}

/// The cell or region that links "on" potential `on` to "off" potential `off`: their
/// cell when they share it, else the first of the block, row and column of `on`'s cell
/// holding `off`'s cell in which the value has those two places only, else the first
/// holding it.
pub fn pair_of(holders: &[super::board::CellSet; 9], on: u16, off: u16) -> u8 {
    let (cell, to) = (cell_of(on), cell_of(off));
    if cell == to {
        return CELL_RULE;
    }
    let v = value_of(on);
    let shared = CELL_REGIONS[cell]
        .into_iter()
        .filter(|&r| REGION_SETS[r as usize].has(to));
    shared
        .clone()
        .find(|&r| REGION_SETS[r as usize].and(holders[v]).len() == 2)
        .or_else(|| shared.clone().next())
        .expect("an off potential linked to an on one shares its cell or a region")
}

/// Collects every static chain hint ([`super::chains::Chains::every`]) into an
/// [`Every`].
pub struct StaticSink<'a> {
    /// Where they go.
    pub every: &'a mut Every,
    /// The cells holding each value on the board searched.
    pub holders: [super::board::CellSet; 9],
}

impl Sink for StaticSink<'_> {
    fn reach(&self, _: f64, _: u8) -> usize {
        usize::MAX
    }

    fn offer(&mut self, hint: Hint, complexity: usize, kind: u8, chain: Chain<'_>) {
        let mut signature = 0xcbf2_9ce4_8422_2325u64;
        for (p, _) in chain.links() {
            signature = mix(signature, p as u64);
        }
        let cycle = matches!(
            hint.technique,
            HintKind::XCycle | HintKind::YCycle | HintKind::XYCycle
        );
        for (p, parent) in chain.links() {
            match (is_on(p), parent) {
                (true, Some(parent)) => {
                    self.every.push_link(p, rule_of(&self.holders, p, parent));
                }
                // A cycle rests on its weak links being pairs too (its "on" read
                // with the cell or region that links it to the next "off").
                (false, Some(on)) if cycle => {
                    self.every.push_link(on, pair_of(&self.holders, on, p));
                }
                _ => {}
            }
        }
        self.every.record(&hint, complexity, kind, signature);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::explainer::board::bits;
    use crate::engines::explainer::chains::Chains;
    use crate::engines::explainer::testing::{below, on_rating_paths};

    #[test]
    fn a_weak_link_rests_on_the_region_where_it_is_a_pair() {
        use crate::engines::explainer::board::CellSet;
        use crate::engines::explainer::potential::pot;
        // Value 4 (bit 3): cells 0 and 1 share block 1 and row 1.
        let (block, row) = (CELL_REGIONS[0][0], CELL_REGIONS[0][1]);
        let link = |holders: &[CellSet; 9]| pair_of(holders, pot(0, 3, true), pot(1, 3, false));
        let mut holders = [CellSet::EMPTY; 9];
        holders[3] = CellSet::EMPTY.with(0).with(1);
        assert_eq!(link(&holders), block, "a pair in both: the block");
        holders[3] = holders[3].with(9);
        assert_eq!(link(&holders), row, "a pair in the row only");
        holders[3] = holders[3].with(2);
        assert_eq!(link(&holders), block, "a pair in neither: the first shared");
        assert_eq!(
            pair_of(&holders, pot(0, 3, true), pot(0, 5, false)),
            CELL_RULE
        );
    }

    /// Every hint kept, as (rating bits, complexity, kind, eliminations, links,
    /// signature), in order.
    /// A hint kept: rating bits, complexity, kind, eliminations, links, signature.
    type Kept = (u64, u32, u8, Vec<u16>, Vec<(u16, u8)>, u64);

    fn kept(every: &Every) -> Vec<Kept> {
        (0..every.len())
            .map(|k| {
                let f = every.get(k);
                let links = every.links_of(f).to_vec();
                (
                    f.rating,
                    f.complexity,
                    f.kind,
                    f.elims.to_vec(),
                    links,
                    f.signature,
                )
            })
            .collect()
    }

    fn static_hints(chains: &mut Chains, every: &mut Every, b: &Pencilmarks) {
        static_hints_within(chains, every, b, None);
    }

    fn static_hints_within(
        chains: &mut Chains,
        every: &mut Every,
        b: &Pencilmarks,
        within: Option<&Pencilmarks>,
    ) {
        every.clear(b);
        let mut sink = StaticSink {
            every,
            holders: b.holders(),
        };
        chains.every(b, within, &mut sink);
        every.sort();
    }

    #[test]
    fn the_screen_of_a_reduced_boards_new_links_drops_no_chain() {
        // The boards of the rater's path with no static chain hint, each with a few
        // candidates removed at random, as a nested propagation removes them: screened
        // by the links the removals made, the enumeration gives what the unscreened one
        // gives, hint for hint.
        let (mut screened, mut all, mut best) = (Chains::new(), Chains::new(), Chains::new());
        all.screening = false;
        let (mut a, mut b_) = (Every::new(), Every::new());
        let mut next = below(0x9e37_79b9_7f4a_7c15);
        let (mut boards, mut hints) = (0, 0);
        on_rating_paths("se-reference-extreme.txt", 8, |puzzle, w| {
            if best.best(w).is_some() {
                return;
            }
            for round in 0..6 {
                let mut b = *w;
                for _ in 0..1 + round * 2 {
                    let cell = next(81) as usize;
                    if b.cands[cell].count_ones() > 2 {
                        let v = bits(b.cands[cell]).nth(next(2) as usize).expect("a value");
                        b.cands[cell] &= !(1 << v);
                    }
                }
                static_hints_within(&mut screened, &mut a, &b, Some(w));
                static_hints_within(&mut all, &mut b_, &b, Some(w));
                let got = kept(&a);
                assert_eq!(got, kept(&b_), "{puzzle} round {round}");
                boards += 1;
                hints += got.len();
            }
        });
        assert!(
            boards > 200 && hints > 200,
            "{boards} boards, {hints} hints"
        );
    }

    #[test]
    fn every_static_chain_comes_in_order_and_screening_drops_none() {
        // On the rater's path through hard references: the screened enumeration gives
        // what the unscreened one gives, hint for hint; the first kept is the hint the
        // static chain producer itself chooses; every hint's chains rest on links of
        // the board (each "on" link's rule is its cell or a region of its parent).
        let (mut screened, mut all, mut best) = (Chains::new(), Chains::new(), Chains::new());
        all.screening = false;
        let (mut a, mut b_) = (Every::new(), Every::new());
        let (mut boards, mut hints) = (0, 0);
        on_rating_paths("se-reference-extreme.txt", 8, |puzzle, b| {
            static_hints(&mut screened, &mut a, b);
            static_hints(&mut all, &mut b_, b);
            let got = kept(&a);
            assert_eq!(got, kept(&b_), "{puzzle}");
            boards += 1;
            hints += got.len();
            match best.best(b) {
                Some(h) => {
                    let first = a.get(0);
                    assert_eq!(first.rating, h.rating.to_bits(), "{puzzle}");
                    let mut elims = h.elims;
                    if let Some((c, v)) = h.place {
                        elims[c as usize] |= b.cands[c as usize] & !(1 << (v - 1));
                    }
                    assert_eq!(first.elims, elims, "{puzzle}");
                }
                None => assert_eq!(a.len(), 0, "{puzzle}"),
            }
            for (_, _, _, elims, _, _) in &got {
                assert!(elims.iter().zip(&b.cands).all(|(e, c)| e & !c == 0));
                assert!(elims.iter().any(|&e| e != 0));
            }
        });
        assert!(
            boards > 200 && hints > 1000,
            "{boards} boards, {hints} hints"
        );
    }

    #[test]
    fn repeated_eliminations_are_dropped_after_sorting() {
        let b = Pencilmarks::new(&crate::values::grid::Grid::parse(&[b'.'; 81]).unwrap());
        let mut every = Every::new();
        every.clear(&b);
        let mut h = Hint::new(super::super::hint::HintKind::XCycle, 7.0);
        h.elims[3] = 0b10;
        every.record(&h, 9, 4, 1);
        h.rating = 6.6;
        every.record(&h, 9, 2, 2);
        h.elims[4] = 1;
        every.record(&h, 5, 2, 3);
        every.sort();
        // The 6.6 with more removals first (rating), then the 6.6 with one removal;
        // the 7.0 repeats its removals and is dropped.
        assert_eq!(every.len(), 2);
        assert_eq!((every.get(0).signature, every.get(1).signature), (3, 2));
    }
}
