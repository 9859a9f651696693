//! Sukaku Explainer's static chains (its producer `Chaining(false, false, false, 0)`):
//! bidirectional cycles and forcing chains over X links (a value's last two places in a
//! region), Y links (a cell's last two values) or both, with no length limit. Every
//! start is tried; the hint kept is the lowest by (rating, complexity, kind), the first
//! found among equals, as its stable sort then takes the first.
//!
//! A potential is (cell, value, on/off), numbered `(cell * 9 + v) * 2 + on`. Chains are
//! kept as nodes in an arena, each pointing at its parent, so a search allocates
//! nothing once the buffers have grown.

use super::board::{bits, CellSet, Pencilmarks, CELL_REGIONS, PEER_SETS, REGION_SETS};
use super::hint::{Hint, HintKind};
use super::potential::{cell_of, conjugate, is_on, length_bonus, pot, value_of};

use super::potential::POTENTIALS;
use super::reach::Reach;

const NONE: u32 = u32::MAX;

/// A potential, the node it came from, and a filter of the potentials on its chain
/// (a bit per potential's hash: a potential whose bit is clear is not on the chain).
#[derive(Clone, Copy, Debug)]
struct ChainNode {
    pot: u16,
    /// Links from the root.
    depth: u16,
    parent: u32,
    bloom: u64,
}

/// A potential's bit in a chain's filter.
const fn bloom_bit(p: u16) -> u64 {
    1 << ((p as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 58)
}

/// The most successors a potential has: 8 other values of its cell, 20 peers.
const STRIDE: usize = 32;

/// True when every link of `nodes` leads to a potential of `within`.
#[cfg(test)]
fn links_stay_in(nodes: &[u16], links: &[u16], lengths: &[u8], within: &PotSet) -> bool {
    nodes.iter().all(|&p| {
        let at = p as usize * STRIDE;
        links[at..at + lengths[p as usize] as usize]
            .iter()
            .all(|&q| within.has(q))
    })
}

/// A set of potentials (a stamp per potential, so clearing it is one increment).
pub(super) struct PotSet {
    stamp: Vec<u32>,
    now: u32,
}

impl PotSet {
    pub(super) fn new() -> PotSet {
        PotSet {
            stamp: vec![0; POTENTIALS],
            now: 0,
        }
    }

    pub(super) fn clear(&mut self) {
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.stamp.fill(0);
            self.now = 1;
        }
    }

    fn has(&self, p: u16) -> bool {
        self.stamp[p as usize] == self.now
    }

    /// Adds `p` unless present; true when added.
    pub(super) fn add(&mut self, p: u16) -> bool {
        if self.has(p) {
            return false;
        }
        self.stamp[p as usize] = self.now;
        true
    }
}

/// Which links a pass follows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    X,
    Y,
    XY,
}

impl Pass {
    fn x(self) -> bool {
        self != Pass::Y
    }
    fn y(self) -> bool {
        self != Pass::X
    }
}

/// A hint's sort key: rating, complexity, kind (X, Y or XY pass).
type SortKey = (f64, usize, u8);

/// The best hint so far and its sort key.
struct BestChain {
    hint: Option<Hint>,
    key: SortKey,
}

/// Where a search's hints go: the lowest one kept ([`Chains::best`]), or every one
/// ([`Chains::every`]).
pub(super) trait Sink {
    /// The largest complexity a hint rated `base` plus its length bonus, of `kind`, may
    /// have and still be taken (0 when none can).
    fn reach(&self, base: f64, kind: u8) -> usize;
    /// Takes a hint worth giving, of `complexity` and `kind` (2, 3, 4: the X, Y or XY
    /// pass), found by `chain`.
    fn offer(&mut self, hint: Hint, complexity: usize, kind: u8, chain: Chain<'_>);
}

/// The chain of a hint: its nodes from its end back to its start.
pub(super) struct Chain<'a> {
    nodes: &'a [ChainNode],
    end: u32,
}

impl Chain<'_> {
    /// The potentials from the end (the hint's target, or a cycle's start reached
    /// again) back to the start, each with the one before it (`None` at the start).
    pub fn links(&self) -> impl Iterator<Item = (u16, Option<u16>)> + '_ {
        let mut node = self.end;
        std::iter::from_fn(move || {
            if node == NONE {
                return None;
            }
            let n = self.nodes[node as usize];
            node = n.parent;
            let parent = (n.parent != NONE).then(|| self.nodes[n.parent as usize].pot);
            Some((n.pot, parent))
        })
    }
}

impl BestChain {
    /// True when a hint of this key would replace the best.
    fn beaten_by(&self, key: SortKey) -> bool {
        self.hint.is_none()
            || key.0 < self.key.0
            || (key.0 == self.key.0 && (key.1, key.2) < (self.key.1, self.key.2))
    }
}

impl Sink for BestChain {
    fn offer(&mut self, hint: Hint, complexity: usize, kind: u8, _: Chain<'_>) {
        let key = (hint.rating, complexity, kind);
        if self.beaten_by(key) {
            self.hint = Some(hint);
            self.key = key;
        }
    }

    fn reach(&self, base: f64, kind: u8) -> usize {
        if self.hint.is_none() {
            return usize::MAX;
        }
        let mut c = 0;
        while self.beaten_by((base + length_bonus(c + 1), c + 1, kind)) {
            c += 1;
        }
        c
    }
}

/// The buffers of the static chain search, reused from step to step.
pub struct Chains {
    nodes: Vec<ChainNode>,
    todo: Vec<u32>,
    next: Vec<u32>,
    pending_on: Vec<u32>,
    pending_off: Vec<u32>,
    found: Vec<u32>,
    seen_on: PotSet,
    seen_off: PotSet,
    counted: PotSet,
    /// Each potential's successors in the current pass, `STRIDE` slots apiece, with
    /// their number and the pass they were worked out in.
    table: Vec<u16>,
    lengths: Vec<u8>,
    listed: Vec<u32>,
    listed_now: u32,
    /// The cells holding each value, on the board being searched.
    holders: [CellSet; 9],
    /// Its bivalue cells.
    bivalue: CellSet,
    /// For each value, the places (and those that are their cell's last candidate) its
    /// X-pass result was worked out for, and that result: the lowest hint, its sort key
    /// and the cell of its start.
    x_made_for: [Option<(CellSet, CellSet)>; 9],
    x_best: [Option<(Hint, SortKey, usize)>; 9],
    /// What each potential reaches over the XY pass's links: a forcing chain from a
    /// source that cannot reach its opposite finds nothing, so it is not searched.
    reach: Reach,
    /// The ons (the starts) some link of the pass screened leads to: a cycle through a
    /// start that nothing leads to cannot close. Only an off's links lead to an on.
    entered: PotSet,
    /// For each component of `reach`, whether a cycle inside it could remove anything:
    /// a cycle's potentials all lie in one component, and it removes a value only from
    /// a cell that sees both an on and an off of that value on it.
    removable: Vec<bool>,
    /// The potentials a source implies within a few links ([`Chains::may_close`]).
    near: PotSet,
    /// The potentials the last screen followed; a search starts only from one of them.
    screened_in: PotSet,
    /// The candidates of the board whose XY-pass links `reach` was last worked out
    /// for ([`Chains::xy_reach`]).
    xy_reach_for: Option<[u16; 81]>,
    /// Whether the Y and XY passes are screened by `reach` and `entered` (off only to
    /// test it).
    pub(super) screening: bool,
    /// The potentials of the board's candidates.
    active: Vec<u16>,
    /// Potentials expanded since the budget was last read.
    pub work: u64,
}

impl Default for Chains {
    fn default() -> Self {
        Chains::new()
    }
}

impl Chains {
    /// Empty buffers, each made as large as a search of one board can fill it (each
    /// potential is reached once a pass), so that rating allocates nothing.
    pub fn new() -> Chains {
        Chains {
            nodes: Vec::with_capacity(2 * POTENTIALS),
            todo: Vec::with_capacity(POTENTIALS),
            next: Vec::with_capacity(POTENTIALS),
            pending_on: Vec::with_capacity(POTENTIALS),
            pending_off: Vec::with_capacity(POTENTIALS),
            found: Vec::with_capacity(POTENTIALS),
            seen_on: PotSet::new(),
            seen_off: PotSet::new(),
            counted: PotSet::new(),
            table: vec![0; POTENTIALS * STRIDE],
            lengths: vec![0; POTENTIALS],
            listed: vec![0; POTENTIALS],
            listed_now: 0,
            holders: [CellSet::EMPTY; 9],
            bivalue: CellSet::EMPTY,
            x_made_for: [None; 9],
            x_best: [None; 9],
            reach: Reach::new(),
            entered: PotSet::new(),
            near: PotSet::new(),
            screened_in: PotSet::new(),
            removable: Vec::with_capacity(POTENTIALS),
            xy_reach_for: None,
            screening: true,
            active: Vec::with_capacity(POTENTIALS),
            work: 0,
        }
    }

    fn push(&mut self, pot: u16, parent: u32) -> u32 {
        let (above, depth) = match parent {
            NONE => (0, 0),
            n => {
                let up = self.nodes[n as usize];
                (up.bloom, up.depth + 1)
            }
        };
        self.nodes.push(ChainNode {
            pot,
            depth,
            parent,
            bloom: above | bloom_bit(pot),
        });
        (self.nodes.len() - 1) as u32
    }

    /// True when `p` is `node` or one of its ancestors.
    fn on_path(&self, mut node: u32, p: u16) -> bool {
        if self.nodes[node as usize].bloom & bloom_bit(p) == 0 {
            return false;
        }
        while node != NONE {
            let n = self.nodes[node as usize];
            if n.pot == p {
                return true;
            }
            node = n.parent;
        }
        false
    }

    /// The number of distinct potentials on the chain ending at `node`.
    fn complexity(&mut self, mut node: u32) -> usize {
        self.counted.clear();
        let mut n = 0;
        while node != NONE {
            let nd = self.nodes[node as usize];
            if self.counted.add(nd.pot) {
                n += 1;
            }
            node = nd.parent;
        }
        n
    }

    /// What potential `p` implies on the board in `pass`, as a range of `table`: for
    /// an on, the offs of the cell's other values (Y links), then of the value's other
    /// places in the block, row and column; for an off, the on of the cell's other value
    /// when it has two (Y links), then for block, row and column the value's one other
    /// place (X links). Worked out once a pass.
    #[inline]
    fn successors(&mut self, b: &Pencilmarks, p: u16, pass: Pass) -> std::ops::Range<usize> {
        let at = p as usize * STRIDE;
        if self.listed[p as usize] == self.listed_now {
            return at..at + self.lengths[p as usize] as usize;
        }
        self.list_successors(b, p, pass)
    }

    /// Works out [`Chains::successors`] of `p` in `pass` (the first time it is asked
    /// for in a pass).
    #[inline(never)]
    fn list_successors(&mut self, b: &Pencilmarks, p: u16, pass: Pass) -> std::ops::Range<usize> {
        let at = p as usize * STRIDE;
        let (cell, v) = (cell_of(p), value_of(p));
        let mut n = 0;
        let mut put = |table: &mut Vec<u16>, q: u16| {
            table[at + n] = q;
            n += 1;
        };
        if is_on(p) {
            if pass.y() {
                for w in bits(b.cands[cell] & !(1 << v)) {
                    put(&mut self.table, pot(cell, w, false));
                }
            }
            // An off leads on only over an X link or, in a bivalue cell, a Y link: in
            // the Y pass, offs elsewhere lead nowhere, and only its cycles search.
            let mut listed = CellSet::EMPTY.with(cell);
            if pass == Pass::Y {
                listed = listed.or(CellSet(!self.bivalue.0));
            }
            for r in CELL_REGIONS[cell] {
                let places = REGION_SETS[r as usize].and(self.holders[v]).minus(listed);
                listed = listed.or(places);
                for c in places.iter() {
                    put(&mut self.table, pot(c, v, false));
                }
            }
        } else {
            if pass.y() && b.cands[cell].count_ones() == 2 {
                let w = (b.cands[cell] & !(1 << v)).trailing_zeros() as usize;
                put(&mut self.table, pot(cell, w, true));
            }
            if pass.x() {
                let mut found = [0u16; 3];
                let mut k = 0;
                for r in CELL_REGIONS[cell] {
                    if let Some(q) = conjugate(&self.holders, cell, v, r as usize) {
                        if !found[..k].contains(&q) {
                            found[k] = q;
                            k += 1;
                            put(&mut self.table, q);
                        }
                    }
                }
            }
        }
        self.lengths[p as usize] = n as u8;
        self.listed[p as usize] = self.listed_now;
        at..at + n
    }

    /// Cycles through `start` (on): a layered search, offs re-queued unless already on
    /// their own chain, ons only when new; a cycle is the start reached again after at
    /// least four links. Their end nodes go to `found`; the search stops before cycles
    /// longer than `reach`.
    fn cycles(&mut self, b: &Pencilmarks, start: u16, pass: Pass, reach: usize) {
        self.found.clear();
        self.seen_on.clear();
        let s = self.push(start, NONE);
        self.seen_on.add(start);
        self.todo.clear();
        self.todo.push(s);
        let mut length = 0;
        while !self.todo.is_empty() {
            length += 1;
            self.next.clear();
            for i in 0..self.todo.len() {
                let n = self.todo[i];
                let p = self.nodes[n as usize].pot;
                self.work += 1;
                for j in self.successors(b, p, pass) {
                    let q = self.table[j];
                    if !self.on_path(n, q) {
                        let m = self.push(q, n);
                        self.next.push(m);
                    }
                }
            }
            std::mem::swap(&mut self.todo, &mut self.next);
            length += 1;
            if length > reach {
                // A cycle closed from here on has `length` distinct potentials, more
                // than any that could still be kept.
                return;
            }
            self.next.clear();
            for i in 0..self.todo.len() {
                let n = self.todo[i];
                let p = self.nodes[n as usize].pot;
                self.work += 1;
                for j in self.successors(b, p, pass) {
                    let q = self.table[j];
                    if length >= 4 && q == start {
                        let m = self.push(q, n);
                        self.found.push(m);
                    }
                    if !self.seen_on.has(q) {
                        let m = self.push(q, n);
                        self.seen_on.add(q);
                        self.next.push(m);
                    }
                }
            }
            std::mem::swap(&mut self.todo, &mut self.next);
        }
    }

    /// A forcing chain from `source` (on or off): what it implies, ons before offs,
    /// until the source's opposite is reached; that chain's end goes to `found`. The
    /// search gives up once no chain of at most `limit` potentials can be found.
    ///
    /// Both queues rise in depth (ons are made by offs and offs by ons, each queue in
    /// the order of the other's expansions), and a chain ending at a link of a node
    /// `d` links deep has `d + 2` potentials, all different (each potential enters the
    /// search once, and the opposite ends it). So when both heads are too deep, every
    /// chain the search could still find is too long: it would be the first found,
    /// and rejected, so stopping there changes nothing but the work.
    fn forcing(&mut self, b: &Pencilmarks, source: u16, pass: Pass, limit: usize) {
        self.found.clear();
        self.seen_on.clear();
        self.seen_off.clear();
        self.pending_on.clear();
        self.pending_off.clear();
        let opposite = source ^ 1;
        let s = self.push(source, NONE);
        if is_on(source) {
            self.seen_on.add(source);
            self.pending_on.push(s);
        } else {
            self.seen_off.add(source);
            self.pending_off.push(s);
        }
        let (mut on_head, mut off_head) = (0, 0);
        let deepest = limit.saturating_sub(2).min(u16::MAX as usize) as u16;
        let too_deep = |queue: &[u32], head: usize, nodes: &[ChainNode]| {
            queue
                .get(head)
                .is_none_or(|&n| nodes[n as usize].depth > deepest)
        };
        while on_head < self.pending_on.len() || off_head < self.pending_off.len() {
            if too_deep(&self.pending_on, on_head, &self.nodes)
                && too_deep(&self.pending_off, off_head, &self.nodes)
            {
                return;
            }
            self.work += 1;
            if on_head < self.pending_on.len() {
                let n = self.pending_on[on_head];
                on_head += 1;
                let p = self.nodes[n as usize].pot;
                for j in self.successors(b, p, pass) {
                    let q = self.table[j];
                    if q == opposite {
                        let m = self.push(q, n);
                        self.found.push(m);
                        return;
                    }
                    // Every off on the chain so far is in `seen_off`.
                    if !self.seen_off.has(q) {
                        let m = self.push(q, n);
                        self.seen_off.add(q);
                        self.pending_off.push(m);
                    }
                }
            } else {
                let n = self.pending_off[off_head];
                off_head += 1;
                let p = self.nodes[n as usize].pot;
                for j in self.successors(b, p, pass) {
                    let q = self.table[j];
                    if q == opposite {
                        let m = self.push(q, n);
                        self.found.push(m);
                        return;
                    }
                    if !self.seen_on.has(q) {
                        let m = self.push(q, n);
                        self.seen_on.add(q);
                        self.pending_on.push(m);
                    }
                }
            }
        }
    }

    /// False when no forcing chain of at most `limit` potentials (`limit - 1` links)
    /// leads from `source` to its opposite.
    ///
    /// The links are their own contrapositives (`p` leads to `q` exactly when `q`'s
    /// opposite leads to `p`'s: an on to the offs it sees and back, an off to the other
    /// value or place of a pair and back), so a chain of `k` links read backwards with
    /// every potential turned over is again a chain from the source to its opposite. Its
    /// potential `m` halfway along is at most `ceil(k / 2)` links from the source on the
    /// one, and `m`'s opposite on the other. So when no potential within that many links
    /// of the source has its opposite there too, there is no such chain; finding that
    /// out expands only the potentials of half the depth the search would.
    fn may_close(&mut self, b: &Pencilmarks, source: u16, pass: Pass, limit: usize) -> bool {
        let depth = limit / 2;
        self.near.clear();
        self.near.add(source);
        self.todo.clear();
        self.todo.push(source as u32);
        for _ in 0..depth {
            self.next.clear();
            for i in 0..self.todo.len() {
                let p = self.todo[i] as u16;
                self.work += 1;
                for j in self.successors(b, p, pass) {
                    let q = self.table[j];
                    if self.near.add(q) {
                        if self.near.has(q ^ 1) {
                            return true;
                        }
                        self.next.push(q as u32);
                    }
                }
            }
            if self.next.is_empty() {
                return false;
            }
            std::mem::swap(&mut self.todo, &mut self.next);
        }
        false
    }

    /// The eliminations of the cycle ending at `end`: each value's candidates outside
    /// the cycle that see both an on and an off node of that value.
    fn cycle_hint(&self, b: &Pencilmarks, end: u32, technique: HintKind, rating: f64) -> Hint {
        let mut cells = CellSet::EMPTY;
        let mut node = end;
        while node != NONE {
            let n = self.nodes[node as usize];
            cells = cells.with(cell_of(n.pot));
            node = n.parent;
        }
        let mut on_side = [CellSet::EMPTY; 9];
        let mut off_side = [CellSet::EMPTY; 9];
        let mut node = end;
        while node != NONE {
            let n = self.nodes[node as usize];
            let (c, v) = (cell_of(n.pot), value_of(n.pot));
            let side = if is_on(n.pot) {
                &mut on_side[v]
            } else {
                &mut off_side[v]
            };
            *side = side.or(PEER_SETS[c].minus(cells));
            node = n.parent;
        }
        let mut h = Hint::new(technique, rating);
        for v in 0..9 {
            for c in on_side[v].and(off_side[v]).iter() {
                h.remove(b, c, v);
            }
        }
        h
    }

    /// The lowest static chain hint on the board, if any.
    ///
    /// The X pass follows one value's links only, so what it finds from the starts of a
    /// value depends on that value's places alone (and on which of them are the last
    /// candidate of their cell, which no start uses): each value's lowest X-pass hint
    /// is kept until those change, and the first lowest in (cell, value) order taken,
    /// as one pass through every start did. The Y and XY passes run from every start.
    pub fn best(&mut self, b: &Pencilmarks) -> Option<Hint> {
        self.holders = b.holders();
        self.bivalue = b.with_count(2);
        self.next_pass();
        let lone = b.with_count(1);
        let mut best = BestChain {
            hint: None,
            key: (0.0, 0, 0),
        };
        // The cell of the best X-pass hint's start, for ties between values.
        let mut best_at = usize::MAX;
        for v in 0..9 {
            let now = (self.holders[v], self.holders[v].and(lone));
            if self.x_made_for[v] != Some(now) {
                let mut own = BestChain {
                    hint: None,
                    key: (0.0, 0, 0),
                };
                let mut at = 0;
                for cell in self.holders[v].minus(lone).iter() {
                    let before = own.hint.is_some().then_some(own.key);
                    self.search_start(b, cell, v, Pass::X, false, &mut own);
                    if own.hint.is_some() && Some(own.key) != before {
                        at = cell;
                    }
                }
                self.x_best[v] = own.hint.map(|h| (h, own.key, at));
                self.x_made_for[v] = Some(now);
            }
            if let Some((h, key, at)) = self.x_best[v] {
                if best.beaten_by(key) || (key == best.key && at < best_at) {
                    best.hint = Some(h);
                    best.key = key;
                    best_at = at;
                }
            }
        }
        for pass in [Pass::Y, Pass::XY] {
            self.next_pass();
            let screened = self.screening;
            if screened {
                self.screen(b, pass, 0x1ff, None);
            }
            // A Y-pass search starts in a bivalue cell.
            let starts = if pass == Pass::Y {
                self.bivalue
            } else {
                CellSet::ALL.minus(lone)
            };
            for cell in starts.iter() {
                if b.cands[cell].count_ones() < 2 {
                    continue;
                }
                for v in bits(b.cands[cell]) {
                    self.search_start(b, cell, v, pass, screened, &mut best);
                }
            }
        }
        best.hint
    }

    /// Works out what each potential of `values` reaches over the links of `pass`,
    /// and which potentials a link leads to (listing every candidate's successors,
    /// which the searches then reuse). Only the X pass may leave values out: its links
    /// never leave a value.
    ///
    /// `within`: a board with no static chain hint at all, of which `b` is a part
    /// ([`Chains::every`]). A chain of `b` whose links are all links of `within` is a
    /// chain there, and removes nothing: every chain worth finding takes a link `b` has
    /// and `within` has not. Such a link leads from an off to an on (an on's links are
    /// its cell's other values and its value's other places, there on both boards): to
    /// the other value of a cell that became bivalue, or the other place of a value
    /// whose places in a region fell to two. Those ons are the new links' heads, and
    /// the links' contrapositives are new links too. So every potential after the new
    /// link on such a chain is reached from a head, and the opposite of every one before
    /// it is: the screen follows only those potentials (the heads' closure and the
    /// opposites of its members), and the searches start only from them.
    fn screen(&mut self, b: &Pencilmarks, pass: Pass, values: u16, within: Option<&Pencilmarks>) {
        self.active.clear();
        self.entered.clear();
        self.screened_in.clear();
        self.xy_reach_for = None;
        match within {
            None => {
                // The Y pass's links lead from bivalue cells to bivalue cells only.
                let cells = if pass == Pass::Y {
                    self.bivalue
                } else {
                    CellSet::ALL
                };
                for cell in cells.iter() {
                    for v in bits(b.cands[cell] & values) {
                        for on in [false, true] {
                            let p = pot(cell, v, on);
                            self.active.push(p);
                            self.screened_in.add(p);
                        }
                    }
                }
            }
            Some(w) => self.new_links_closure(b, w, pass, values),
        }
        // Without `within` the screen follows every potential of the cells it looks at,
        // and every link leads to one of them (the Y pass's from bivalue cells to
        // bivalue cells, the X pass's within a value): nothing to test link by link.
        let whole = within.is_none();
        for i in 0..self.active.len() {
            let p = self.active[i];
            // Every potential's links are listed (the closure below reads them); only
            // an off's lead to ons.
            let links = self.successors(b, p, pass);
            if is_on(p) {
                continue;
            }
            for j in links {
                let q = self.table[j];
                if whole || self.screened_in.has(q) {
                    self.entered.add(q);
                }
            }
        }
        let screened_in = &self.screened_in;
        let (nodes, links, lengths) = (&self.active, &self.table, &self.lengths);
        if whole {
            self.reach.compute(nodes, links, lengths, STRIDE, |_| true);
        } else {
            self.reach
                .compute(nodes, links, lengths, STRIDE, |q| screened_in.has(q));
        }
        self.removable.clear();
        for id in 0..self.reach.components() {
            let members = self.reach.members(id);
            // A cycle has at least four potentials.
            let mut removable = false;
            if members.len() >= 4 {
                let mut seen = [[CellSet::EMPTY; 9]; 2];
                for &p in members {
                    let side = &mut seen[is_on(p) as usize][value_of(p)];
                    *side = side.or(PEER_SETS[cell_of(p)]);
                }
                removable =
                    (0..9).any(|v| !seen[0][v].and(seen[1][v]).and(self.holders[v]).is_empty());
            }
            self.removable.push(removable);
        }
        // The closure visits each potential once, as a search expanding it would.
        self.work += self.active.len() as u64;
        if pass == Pass::XY && within.is_none() {
            self.xy_reach_for = Some(b.cands);
        }
    }

    /// The potentials [`Chains::screen`] follows on `b`, a part of `within`, into
    /// `active` and `screened_in`: the closure of the heads of the links of `pass` that
    /// `b` has and `within` has not, and the opposites of its members.
    fn new_links_closure(
        &mut self,
        b: &Pencilmarks,
        within: &Pencilmarks,
        pass: Pass,
        values: u16,
    ) {
        self.todo.clear();
        if pass.y() {
            let was_bivalue = within.with_count(2);
            for cell in self.bivalue.minus(was_bivalue).iter() {
                for v in bits(b.cands[cell]) {
                    let p = pot(cell, v, true);
                    if self.screened_in.add(p) {
                        self.todo.push(p as u32);
                    }
                }
            }
        }
        if pass.x() {
            let was = within.holders();
            for v in bits(values) {
                for region in REGION_SETS {
                    let places = region.and(self.holders[v]);
                    if places.len() == 2 && region.and(was[v]).len() > 2 {
                        for c in places.iter() {
                            let p = pot(c, v, true);
                            if self.screened_in.add(p) {
                                self.todo.push(p as u32);
                            }
                        }
                    }
                }
            }
        }
        let mut head = 0;
        while head < self.todo.len() {
            let p = self.todo[head] as u16;
            head += 1;
            for j in self.successors(b, p, pass) {
                let q = self.table[j];
                if self.screened_in.add(q) {
                    self.todo.push(q as u32);
                }
            }
        }
        for i in 0..self.todo.len() {
            let p = self.todo[i] as u16;
            self.active.push(p);
            if self.screened_in.add(p ^ 1) {
                self.active.push(p ^ 1);
            }
        }
    }

    /// What each potential reaches over the links of the XY pass (every link of a
    /// static propagation) on board `b`, when [`Chains::every`] last worked it out
    /// for `b`.
    pub(super) fn xy_reach(&self, b: &Pencilmarks) -> Option<&Reach> {
        (self.xy_reach_for == Some(b.cands)).then_some(&self.reach)
    }

    /// Works out what each potential reaches over the links of the XY pass on board
    /// `b` ([`Chains::xy_reach`]) unless [`Chains::every`] or [`Chains::best`] last did
    /// (a screen of a reduced board by its new links leaves the rest out).
    pub(super) fn screen_xy(&mut self, b: &Pencilmarks) {
        if self.xy_reach_for != Some(b.cands) {
            self.holders = b.holders();
            self.bivalue = b.with_count(2);
            self.next_pass();
            self.screen(b, Pass::XY, 0x1ff, None);
        }
    }

    /// A new pass: successor lists worked out before are stale.
    fn next_pass(&mut self) {
        self.listed_now = self.listed_now.wrapping_add(1);
        if self.listed_now == 0 {
            self.listed.fill(0);
            self.listed_now = 1;
        }
    }

    /// The cycles and forcing chains of `pass` from `v` on in `cell`, offered to `best`;
    /// when `screened`, only those [`Chains::screen`] leaves a chance of finding one.
    fn search_start(
        &mut self,
        b: &Pencilmarks,
        cell: usize,
        v: usize,
        pass: Pass,
        screened: bool,
        best: &mut impl Sink,
    ) {
        let (cycle_t, chain_t, cycle_base, chain_base, kind) = match pass {
            Pass::X => (HintKind::XCycle, HintKind::ForcingXChain, 6.5, 6.6, 2),
            Pass::Y => (HintKind::YCycle, HintKind::ForcingXYChain, 6.5, 7.0, 3),
            Pass::XY => (HintKind::XYCycle, HintKind::ForcingXYChain, 7.0, 7.0, 4),
        };
        let start = pot(cell, v, true);
        self.nodes.clear();
        let reach = best.reach(cycle_base, kind);
        // (A start's potential is among those screened when a link leads to it.)
        let closable = |c: &Chains| {
            !screened || (c.entered.has(start) && c.removable[c.reach.component(start)])
        };
        if screened && !self.screened_in.has(start) {
            // Neither a cycle through it nor a chain from it or its opposite (which
            // the screen would then hold too) is worth finding.
            return;
        }
        if (pass.x() || b.cands[cell].count_ones() == 2) && reach >= 4 && closable(self) {
            self.cycles(b, start, pass, reach);
            for i in 0..self.found.len() {
                let end = self.found[i];
                let complexity = self.complexity(end);
                let rating = cycle_base + length_bonus(complexity);
                let h = self.cycle_hint(b, end, cycle_t, rating);
                if h.is_worth() {
                    let chain = Chain {
                        nodes: &self.nodes,
                        end,
                    };
                    best.offer(h, complexity, kind, chain);
                }
            }
        }
        if pass.x() && best.reach(chain_base, kind) >= 2 {
            for source in [start, start ^ 1] {
                if screened && !self.reach.reaches(source, source ^ 1) {
                    continue;
                }
                self.nodes.clear();
                // Cut in the screened pass only, which the test below checks against
                // the uncut one (the X pass's forcing searches, measured on the
                // diabolical sample, never run with a best found).
                let limit = if screened {
                    best.reach(chain_base, kind)
                } else {
                    usize::MAX
                };
                if limit != usize::MAX && !self.may_close(b, source, pass, limit) {
                    continue;
                }
                self.forcing(b, source, pass, limit);
                if let Some(&end) = self.found.first() {
                    let complexity = self.complexity(end);
                    let rating = chain_base + length_bonus(complexity);
                    let h = if is_on(source) {
                        let mut h = Hint::new(chain_t, rating);
                        h.remove(b, cell, v);
                        h
                    } else {
                        Hint::placing(chain_t, rating, cell, v + 1)
                    };
                    let chain = Chain {
                        nodes: &self.nodes,
                        end,
                    };
                    best.offer(h, complexity, kind, chain);
                }
            }
        }
    }

    /// Every static chain hint on the board, offered to `sink` in Sukaku Explainer's
    /// order of generation: the X, Y and XY passes; in each, cells in order and their
    /// values ascending; from each start its cycles, then the forcing chains from it
    /// taken true and false. No chain is cut for its length.
    ///
    /// `within`: a board with no static chain hint at all, of which `b` is a part (the
    /// board of a nested chain's step, `b` its reduced board). An X-pass chain follows
    /// one value's places, so for a value whose places are those of `within` it is a
    /// chain there too, and removes nothing there, so nothing here: those values are
    /// skipped; so is the Y pass when the bivalue cells are those of `within`.
    pub(super) fn every(
        &mut self,
        b: &Pencilmarks,
        within: Option<&Pencilmarks>,
        sink: &mut impl Sink,
    ) {
        self.holders = b.holders();
        self.bivalue = b.with_count(2);
        let (mut x_values, mut y_pass) = (0x1ffu16, true);
        if let Some(w) = within {
            let outer = w.holders();
            x_values = (0..9)
                .filter(|&v| outer[v] != self.holders[v])
                .fold(0, |m, v| m | 1 << v);
            let outer_bivalue = w.with_count(2);
            y_pass = outer_bivalue != self.bivalue
                || self.bivalue.iter().any(|c| w.cands[c] != b.cands[c]);
        }
        for pass in [Pass::X, Pass::Y, Pass::XY] {
            let values = if pass == Pass::X { x_values } else { 0x1ff };
            if values == 0 || (pass == Pass::Y && !y_pass) {
                continue;
            }
            self.next_pass();
            // The screen skips only searches that find nothing: the sink takes
            // chains of any length, so none is cut.
            let screened = self.screening;
            if screened {
                self.screen(b, pass, values, within);
            }
            for cell in 0..81 {
                let count = b.cands[cell].count_ones();
                if count < 2 || (pass == Pass::Y && count != 2) {
                    continue;
                }
                for v in bits(b.cands[cell] & values) {
                    self.search_start(b, cell, v, pass, screened, sink);
                }
            }
        }
        // The X pass's kept results are for the board `best` last saw.
        self.x_made_for = [None; 9];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::explainer::testing::{on_rating_paths, outcome};

    #[test]
    fn a_forcing_search_limited_to_its_chains_length_finds_it_and_one_shorter_nothing() {
        // The cut-off at `limit` potentials, at its edge: every XY-pass forcing search
        // from every candidate at every step of ten hard references' rating paths.
        let mut chains = Chains::new();
        let (mut searched, mut chained, mut stopped) = (0, 0, 0);
        on_rating_paths("se-reference-extreme.txt", 10, |puzzle, b| {
            chains.holders = b.holders();
            chains.next_pass();
            for cell in (0..81).filter(|&c| b.cands[c].count_ones() >= 2) {
                for v in bits(b.cands[cell]) {
                    for source in [pot(cell, v, true), pot(cell, v, false)] {
                        let mut found = |limit| {
                            chains.nodes.clear();
                            chains.forcing(b, source, Pass::XY, limit);
                            let end = chains.found.first().copied();
                            let chain = end.map(|e| (e, chains.complexity(e)));
                            chain.map(|(e, c)| (chains.nodes[..=e as usize].to_vec(), c))
                        };
                        searched += 1;
                        let Some((nodes, length)) = found(usize::MAX) else {
                            continue;
                        };
                        chained += 1;
                        // A cut search is the uncut one stopped early: at the chain's
                        // length it still finds it; below, it finds it (to be rejected)
                        // or nothing, and at some length nothing.
                        let same = |got: &(Vec<ChainNode>, usize)| {
                            got.1 == length
                                && got.0.len() == nodes.len()
                                && got
                                    .0
                                    .iter()
                                    .zip(&nodes)
                                    .all(|(a, b)| a.pot == b.pot && a.parent == b.parent)
                        };
                        let at = found(length).expect("found at its own length");
                        assert!(same(&at), "{puzzle}: {source}");
                        for limit in [length - 1, length / 2, 2] {
                            if let Some(got) = found(limit) {
                                assert!(same(&got), "{puzzle}: {source} limit {limit}");
                            } else {
                                stopped += 1;
                            }
                        }
                    }
                }
            }
        });
        assert!(
            searched > 10_000 && chained > 1_000 && stopped > 1_000,
            "{searched} searches, {chained} chains, {stopped} stopped"
        );
    }

    #[test]
    fn kept_x_pass_results_give_what_a_fresh_search_gives_along_rating_paths() {
        // X-pass results kept from board to board and puzzle to puzzle against a fresh
        // search at every step of the rater's own path, on the hardest references
        // (where the static chains run most).
        let mut kept = Chains::new();
        let mut fresh = Chains::new();
        let mut found = 0;
        let boards = on_rating_paths("se-reference-extreme.txt", 12, |puzzle, b| {
            fresh.x_made_for = [None; 9];
            let expected = outcome(fresh.best(b));
            found += usize::from(expected.is_some());
            assert_eq!(outcome(kept.best(b)), expected, "{puzzle}");
        });
        assert!(
            boards > 300 && found > 100,
            "{boards} boards, {found} chains"
        );
    }

    #[test]
    fn screened_passes_give_what_every_search_gives_along_rating_paths() {
        // The Y pass screens its cycles as below, over its bivalue cells' links. The
        // XY pass skips forcing searches whose source cannot reach its opposite or
        // not within the length a kept chain may have (a mutation to a depth one short
        // of half that length fails here), stops those that can no longer find a chain
        // short enough to be kept, and skips
        // cycles through starts nothing leads to or whose component holds no cycle that
        // could remove anything; against the pass that runs them all,
        // at every step of the rater's path through the hardest references.
        let mut screened = Chains::new();
        let mut every = Chains::new();
        every.screening = false;
        let (mut xy, mut y) = (0, 0);
        let boards = on_rating_paths("se-reference-extreme.txt", 30, |puzzle, b| {
            let expected = outcome(every.best(b));
            xy += usize::from(
                expected
                    .is_some_and(|o| matches!(o.1, HintKind::ForcingXYChain | HintKind::XYCycle)),
            );
            y += usize::from(expected.is_some_and(|o| o.1 == HintKind::YCycle));
            assert_eq!(outcome(screened.best(b)), expected, "{puzzle}");
            // The last screen (the XY pass's, of the whole board) left no link out.
            let s = &screened;
            assert!(
                links_stay_in(&s.active, &s.table, &s.lengths, &s.screened_in),
                "{puzzle}: a link leaves the screened potentials"
            );
        });
        assert!(
            boards > 500 && xy > 50 && y > 10,
            "{boards} boards, {xy} XY-pass hints, {y} Y-Cycles"
        );
    }
}
