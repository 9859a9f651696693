//! Sukaku Explainer's forcing chains past the static ones, its producers
//! `Chaining(multiple, dynamic, nishio, level)`: Nishio (7.5), multiple (8.0), dynamic
//! (8.5), dynamic plus (9.0) and nested to levels 2 (9.5), 3 (10.0) and 4 (10.5), each
//! plus the length bonus of its chain's complexity.
//!
//! For every candidate of every cell the search follows what it implies when taken as
//! true, and (for contradictions and double implications) as false: a propagation. A
//! dynamic propagation works on a copy of the board from which each implied-false
//! candidate is removed as it is processed, so that later links see the reduced board;
//! an implied-true candidate found that way also rests on the removals that made it
//! single ("hidden parents"). Dynamic plus, whenever a propagation stalls, runs the
//! intersection, hidden and naked pair and X-wing rules on the reduced board, and their
//! eliminations go on with the removals they rest on as parents. Nested chains add,
//! when those find nothing, every static chain (level 2) and then every static multiple
//! chain (level 3) on the reduced board ([`super::nested`]): their eliminations go on
//! the same way, each carrying its chain, whose complexity the hint adds once. Level 4
//! adds instead every dynamic chain of level 0 to 3 (its nesting limit), run by a
//! second set of these buffers on the reduced board; the "on" potentials of those
//! chains (every ancestor of their targets) keep the rule that made them true.
//!
//! Hints: a contradiction (a candidate implied both true and false), a double
//! implication (implied the same by a candidate true and false), a region (implied the
//! same by every place of a value in a region) or a cell (by every value of a cell).
//! The hint kept is the lowest by (rating, complexity, kind), the first found among
//! equals, as Sukaku Explainer's stable sort then takes the first.
//!
//! ```text
//! node arena     [pot | first parent | parents]   parents: indices into the arena
//! slot           a propagation's result: potential -> stored node (stamped table),
//!                its on and off nodes in insertion order (which are also its queues)
//! slots 0..9     a cell's values taken true (kept for the cell's own chains)
//! slot  9        the value taken false
//! slots 10..18   a region's other places of the value taken true
//! ```

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::basic::{self, Basis};
use super::board::{bits, CellSet, Pencilmarks, CELL_REGIONS, REGION_SETS};
use super::chains::{Chains, PotSet};
use super::hint::{Hint, HintKind};
use super::nested::{mix, rule_of, Every, StaticSink, CELL_RULE as INNER_CELL_RULE};
use super::nested_cache::NestedCache;
use super::potential::{cell_of, conjugate, is_on, length_bonus, pot, value_of, POTENTIALS};
use super::reach::Reach;

/// The producers reproduced here, in Sukaku Explainer's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForcingKind {
    /// `Chaining(false, true, true, 0)`: contradictions of one digit's links, 7.5.
    Nishio,
    /// `Chaining(true, false, false, 0)`: region and cell chains on the board as it is, 8.0.
    Multiple,
    /// `Chaining(true, true, false, 0)`: dynamic chains of every kind, 8.5.
    Dynamic,
    /// `Chaining(true, true, false, 1)`: dynamic chains with the simple rules inside, 9.0.
    DynamicPlus,
    /// `Chaining(true, true, false, 2)`: nested forcing chains, with the static chains
    /// inside as well, 9.5.
    NestedChains,
    /// `Chaining(true, true, false, 3)`: nested forcing chains, with the static multiple
    /// chains inside as well, 10.0.
    NestedMultiple,
    /// `Chaining(true, true, false, 4)` with nesting limit 0 to 3: nested forcing
    /// chains with, instead of the static ones, the dynamic chains of level 0 to 3
    /// inside, 10.5.
    NestedDynamic(u8),
}

impl ForcingKind {
    /// The producer of dynamic chains at `level` (0 to 3).
    fn dynamic_at(level: u8) -> ForcingKind {
        match level {
            0 => ForcingKind::Dynamic,
            1 => ForcingKind::DynamicPlus,
            2 => ForcingKind::NestedChains,
            _ => ForcingKind::NestedMultiple,
        }
    }
}

/// What a producer does, from its four arguments.
#[derive(Clone, Copy)]
struct Mode {
    multiple: bool,
    dynamic: bool,
    nishio: bool,
    level: u8,
    /// At level 4: the level of the dynamic chains run inside.
    nesting: u8,
    base: f64,
}

impl Mode {
    fn of(kind: ForcingKind) -> Mode {
        let mut nesting = 0;
        let (multiple, dynamic, nishio, level, base) = match kind {
            ForcingKind::Nishio => (false, true, true, 0, 7.5),
            ForcingKind::Multiple => (true, false, false, 0, 8.0),
            ForcingKind::Dynamic => (true, true, false, 0, 8.5),
            ForcingKind::DynamicPlus => (true, true, false, 1, 9.0),
            ForcingKind::NestedChains => (true, true, false, 2, 9.5),
            ForcingKind::NestedMultiple => (true, true, false, 3, 10.0),
            ForcingKind::NestedDynamic(limit) => {
                nesting = limit.min(3);
                (true, true, false, 4, 10.5)
            }
        };
        Mode {
            multiple,
            dynamic,
            nishio,
            level,
            nesting,
            base,
        }
    }

    /// Whether a candidate taken both ways is checked for contradictions.
    fn contradictions(self) -> bool {
        self.dynamic || self.nishio
    }

    /// Whether a cell of `count` candidates is checked for double implications.
    fn doubles(self, count: u32) -> bool {
        count >= 3 && self.dynamic && !self.nishio
    }
}

/// The hint kinds by their place in the sort among equal ratings and complexities.
const DOUBLE: u8 = 1;
const CELL: u8 = 5;
const REGION: u8 = 6;
const CONTRADICTION: u8 = 7;

const OFF_SLOT: usize = 9;
const REGION_SLOTS: usize = 10;
const SLOTS: usize = 18;
/// The node arena holds this many cells' worth of propagations, so that a cell's
/// propagations can be kept for the cells after it (see [`OnMemo`]).
const KEPT_CELLS: usize = 4;
/// Nested hints one cell's propagations use at most.
const NESTED_PER_CELL: usize = 4096;
const NONE: u32 = u32::MAX;
/// The work counted for a search the caller stopped: past any budget, and far enough
/// from overflow for the searches around it to add their own.
const STOPPED: u64 = u64::MAX / 4;

/// A potential and where its parents lie in the parent list.
#[derive(Clone, Copy, Debug)]
struct ForcingNode {
    pot: u16,
    parents: u32,
    count: u32,
    /// The nested chain hint that removed it (an index into `Forcing::nested`), or
    /// `NONE`.
    nested: u32,
    /// For an "on" potential implied by an off one: the rule that made it true (its
    /// cell, `CELL_RULE`, or a region's number), else `NO_RULE`.
    rule: u8,
}

/// A set of potentials, a bit each.
type PotBits = [u64; POTENTIALS.div_ceil(64)];

/// A branch of a hint: its slot, and the start of the kept "on" propagation that goes
/// there (none for a slot holding its propagation already).
type Branch = (usize, Option<u16>);

/// One propagation's potentials: the node stored for each, and the on and off nodes
/// in the order they were added (each list is also the queue of its kind).
struct PotentialSlot {
    /// Per potential: its node, where `set` holds it.
    stored: Vec<u32>,
    on: Vec<u32>,
    off: Vec<u32>,
    /// The potentials stored, as bits (a candidate's off and on side by side, so that
    /// one word says whether either is stored); where the sets of a hint's branches
    /// share none, the branches imply nothing in common, and their lists need not be
    /// walked.
    set: PotBits,
    /// The start whose kept "on" propagation ([`OnMemo`]) the slot holds, if any.
    holds: Option<u16>,
}

impl PotentialSlot {
    fn new() -> PotentialSlot {
        PotentialSlot {
            stored: vec![NONE; POTENTIALS],
            // Each candidate is set on, or off, once in a propagation.
            on: Vec::with_capacity(POTENTIALS / 2),
            off: Vec::with_capacity(POTENTIALS / 2),
            set: [0; POTENTIALS.div_ceil(64)],
            holds: None,
        }
    }

    fn clear(&mut self) {
        self.on.clear();
        self.off.clear();
        self.set = [0; POTENTIALS.div_ceil(64)];
        self.holds = None;
    }

    fn get(&self, p: u16) -> Option<u32> {
        (self.set[p as usize / 64] >> (p % 64) & 1 != 0).then(|| self.stored[p as usize])
    }

    /// Whether the candidate of `p` is stored off (bit 0) and on (bit 1).
    #[inline(always)]
    fn sides(&self, p: u16) -> u64 {
        self.set[p as usize / 64] >> ((p % 64) & !1) & 3
    }

    #[inline(always)]
    fn add(&mut self, p: u16, node: u32) {
        self.stored[p as usize] = node;
        self.set[p as usize / 64] |= 1 << (p % 64);
        if is_on(p) {
            self.on.push(node);
        } else {
            self.off.push(node);
        }
    }
}

/// The lowest hint so far by (complexity, kind); its rating follows from complexity.
/// With `every`, every hint goes there instead (for a rule run inside nested chains).
struct BestForcing<'e> {
    hint: Option<Hint>,
    complexity: usize,
    kind: u8,
    every: Option<&'e mut Every>,
}

impl BestForcing<'_> {
    /// The largest complexity a hint of `kind` may have and still be kept.
    fn limit(&self, kind: u8) -> usize {
        if self.every.is_some() {
            return usize::MAX;
        }
        match self.hint {
            None => usize::MAX,
            Some(_) if kind < self.kind => self.complexity,
            Some(_) => self.complexity.saturating_sub(1),
        }
    }
}

/// Why a generated implication holds, for its hidden parents: a cell's last two
/// values, or a value's last two places in a region.
const CELL_RULE: u8 = u8::MAX;
/// The rule of a node not made true by an implication.
const NO_RULE: u8 = u8::MAX - 1;

/// The chaining rules run inside nested chains, after the four simple rules (0-3).
const STATIC_CHAINS: u8 = 4;
const MULTIPLE_CHAINS: u8 = 5;
const DYNAMIC_CHAINS: u8 = 6;

/// The buffers of the forcing chain producers, reused from step to step.
pub struct Forcing {
    nodes: Vec<ForcingNode>,
    parents: Vec<u32>,
    slots: Vec<PotentialSlot>,
    /// The board of the step, and the reduced board of the current propagation.
    saved: [u16; 81],
    saved_holders: [CellSet; 9],
    work: [u16; 81],
    holders: [CellSet; 9],
    /// The ancestor count's visited potentials and queue.
    seen: Vec<u32>,
    seen_now: u32,
    queue: Vec<u32>,
    /// Potentials expanded since the budget was last read.
    pub work_done: u64,
    /// Expansions after which a search gives up (it then finds nothing).
    pub limit: u64,
    /// Set by the caller when nobody waits for the rating any more: a search that sees
    /// it set gives up as if its budget had run out.
    stop: Option<Arc<AtomicBool>>,
    /// The static chain search run inside nested chains, the multiple chains' buffers
    /// (for level 3; none in those buffers themselves), and what they find.
    inner: Chains,
    multiple: Option<Box<Forcing>>,
    /// The buffers of the dynamic chains run inside level 4 (none in those buffers
    /// themselves).
    dynamic: Option<Box<Forcing>>,
    every: Every,
    /// What the rules inside found on the reduced boards seen so far (none in the
    /// multiple chains' buffers, which run no nested rule).
    cache: Option<Box<NestedCache>>,
    /// Whether the board of the step has no static chain hint (the rater tried the
    /// static chains there before): the static chains inside nested ones then search
    /// only what the propagation changed ([`Chains::every`]).
    pub no_static_chains: bool,
    /// The nested chain hints used by the current cell's propagations: (signature,
    /// complexity).
    nested: Vec<(u64, u32)>,
    /// The nested hints met by the complexity being counted (their signatures), and
    /// the sum of their complexities.
    met: Vec<u64>,
    met_complexity: usize,
    /// The rule parents listed so far for one nested hint.
    listed: PotSet,
    /// The "on" propagations of the search so far, while their nodes are kept.
    memo: OnMemo,
    /// Per value: its places when its Nishio chains last met no contradiction. A
    /// Nishio chain follows one value's places only (an on takes the value from its
    /// peers, an off leaves a region's last place), so on the same places it meets none
    /// again.
    nishio_clear: [Option<CellSet>; 9],
    /// Whether the branches of a hint are met through their bit sets: passed over when
    /// those share no potential, else only the shared potentials looked up (off only to
    /// test it: every branch's lists are then walked).
    sharing: bool,
    /// The potentials common to the branches of a hint: (off, node in the first
    /// branch, potential).
    shared: Vec<(bool, u32, u16)>,
    /// Branch sets passed over so.
    #[cfg(test)]
    passed_over: usize,
}

/// The "on" propagations of one search, by start: a potential taken true is followed
/// once per search, though its cell's chains, its regions' chains and the chains of
/// the regions whose first place is another cell all start from it. The nodes stay in
/// the arena until it is cleared (at a cell, when it is nearly full), and the memo with
/// it.
struct OnMemo {
    /// Per candidate (cell * 9 + value): the stamp of the search that stored it, and
    /// its entry.
    at: Vec<(u32, u32)>,
    now: u32,
    entries: Vec<MemoEntry>,
    /// The on nodes, then the off nodes, of each entry's propagation.
    lists: Vec<u32>,
    /// The potentials of each entry's propagation, as bits (by entry).
    sets: Vec<PotBits>,
}

/// One kept propagation: its on and off nodes in [`OnMemo::lists`], and the
/// contradiction it stopped at, if any.
#[derive(Clone, Copy)]
struct MemoEntry {
    from: u32,
    len: u32,
    absurd: Option<(u32, u32)>,
}

impl OnMemo {
    fn new() -> OnMemo {
        OnMemo {
            at: vec![(0, 0); POTENTIALS / 2],
            now: 1,
            entries: Vec::with_capacity(POTENTIALS / 2),
            // No more than the arena's nodes, each listed once.
            lists: Vec::with_capacity(KEPT_CELLS * SLOTS * POTENTIALS),
            sets: Vec::with_capacity(POTENTIALS / 2),
        }
    }

    fn clear(&mut self) {
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.at.fill((0, 0));
            self.now = 1;
        }
        self.entries.clear();
        self.lists.clear();
        self.sets.clear();
    }

    fn get(&self, start: u16) -> Option<MemoEntry> {
        let (stamp, entry) = self.at[start as usize >> 1];
        (stamp == self.now).then(|| self.entries[entry as usize])
    }

    /// The potentials of `start`'s kept propagation (one kept this search).
    fn set(&self, start: u16) -> &PotBits {
        let (stamp, entry) = self.at[start as usize >> 1];
        debug_assert_eq!(stamp, self.now, "a kept propagation");
        &self.sets[entry as usize]
    }

    fn save(&mut self, start: u16, slot: &PotentialSlot, absurd: Option<(u32, u32)>) {
        let from = self.lists.len() as u32;
        self.lists.extend_from_slice(&slot.on);
        self.lists.extend_from_slice(&slot.off);
        self.at[start as usize >> 1] = (self.now, self.entries.len() as u32);
        self.entries.push(MemoEntry {
            from,
            len: self.lists.len() as u32 - from,
            absurd,
        });
        self.sets.push(slot.set);
    }
}

/// Where the branches of a cell's or a region's chains start: their cell, or their
/// value and region.
#[derive(Clone, Copy)]
enum ChainsOf {
    Cell(usize),
    Region { v: usize, region: usize },
}

impl Default for Forcing {
    fn default() -> Self {
        Forcing::new()
    }
}

impl Forcing {
    /// Empty buffers, made as large as one cell's propagations fill them (a node per
    /// potential and slot; a cell's or a region's rule gives a node at most 8
    /// parents), so that rating allocates nothing; with the buffers of the multiple
    /// chains run inside nested ones and the hints kept by reduced board.
    pub fn new() -> Forcing {
        Forcing {
            multiple: Some(Box::new(Forcing::plain())),
            cache: Some(Box::new(NestedCache::new())),
            ..Forcing::plain()
        }
    }

    /// Adds the buffers of the dynamic chains run inside level 4 (about 3 MB), unless
    /// there: once, before the first search of that level (the rater makes them with
    /// itself).
    pub fn prepare_level4(&mut self) {
        if self.dynamic.is_none() {
            let mut inner = Forcing::new();
            inner.stop_when(self.stop.as_ref());
            self.dynamic = Some(Box::new(inner));
        }
    }

    /// Searches from now on give up soon after `stop` is set (looked at before each
    /// cell's chains, at every level), as if the budget had run out.
    pub fn stop_when(&mut self, stop: Option<&Arc<AtomicBool>>) {
        if self.stop.as_ref().map(Arc::as_ptr) == stop.map(Arc::as_ptr) {
            return;
        }
        self.stop = stop.cloned();
        for inner in [self.multiple.as_deref_mut(), self.dynamic.as_deref_mut()] {
            inner.into_iter().for_each(|f| f.stop_when(stop));
        }
    }

    /// Whether the budget ran out, or the caller stopped the search (which then counts
    /// as the budget spent, so that the searches around it stop too).
    fn given_up(&mut self) -> bool {
        if self
            .stop
            .as_deref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            self.work_done = STOPPED;
        }
        self.work_done > self.limit
    }

    /// Forgets the reduced boards seen (at a new puzzle: what a puzzle spends of its
    /// budget depends on that puzzle alone).
    pub fn forget_boards(&mut self) {
        if let Some(cache) = self.cache.as_deref_mut() {
            cache.clear();
        }
        if let Some(inner) = self.dynamic.as_deref_mut() {
            inner.forget_boards();
        }
    }

    /// [`Forcing::new`] without the buffers for nested multiple or dynamic chains.
    fn plain() -> Forcing {
        Forcing {
            multiple: None,
            dynamic: None,
            cache: None,
            nodes: Vec::with_capacity(KEPT_CELLS * SLOTS * POTENTIALS),
            parents: Vec::with_capacity(2 * 8 * SLOTS * POTENTIALS),
            slots: (0..SLOTS).map(|_| PotentialSlot::new()).collect(),
            saved: [0; 81],
            saved_holders: [CellSet::EMPTY; 9],
            work: [0; 81],
            holders: [CellSet::EMPTY; 9],
            seen: vec![0; POTENTIALS],
            seen_now: 0,
            queue: Vec::with_capacity(POTENTIALS),
            work_done: 0,
            limit: u64::MAX,
            stop: None,
            inner: Chains::new(),
            every: Every::new(),
            no_static_chains: false,
            nested: Vec::with_capacity(2 * NESTED_PER_CELL),
            met: Vec::with_capacity(64),
            met_complexity: 0,
            listed: PotSet::new(),
            memo: OnMemo::new(),
            nishio_clear: [None; 9],
            sharing: true,
            shared: Vec::with_capacity(POTENTIALS),
            #[cfg(test)]
            passed_over: 0,
        }
    }

    /// A node of `pot` whose parents are pushed next by the caller.
    fn open(&mut self, pot: u16) -> u32 {
        self.nodes.push(ForcingNode {
            pot,
            parents: self.parents.len() as u32,
            count: 0,
            nested: NONE,
            rule: NO_RULE,
        });
        (self.nodes.len() - 1) as u32
    }

    fn parent(&mut self, node: u32, parent: u32) {
        self.parents.push(parent);
        self.nodes[node as usize].count += 1;
    }

    /// A node of `pot` with the one parent `parent`: [`Forcing::open`] and
    /// [`Forcing::parent`] in one push each (the innermost step of a propagation; going
    /// through a shared constructor measured 0.2% more instructions).
    fn child(&mut self, pot: u16, parent: u32) -> u32 {
        self.nodes.push(ForcingNode {
            pot,
            parents: self.parents.len() as u32,
            count: 1,
            nested: NONE,
            rule: NO_RULE,
        });
        self.parents.push(parent);
        (self.nodes.len() - 1) as u32
    }

    /// The stored off node of a candidate the propagation removed.
    fn removed(&self, s: usize, cell: usize, v: usize) -> u32 {
        self.slots[s]
            .get(pot(cell, v, false))
            .expect("a removed candidate was processed as off")
    }

    /// [`Forcing::propagate`] for a potential taken true, or its propagation as this
    /// search first followed it, put back in slot `s`.
    #[cfg(test)]
    fn propagate_on(
        &mut self,
        s: usize,
        b: &Pencilmarks,
        start: u16,
        m: Mode,
    ) -> Option<(u32, u32)> {
        let absurd = self.keep_on(s, b, start, m);
        self.put_back(s, start);
        absurd
    }

    /// Makes sure this search keeps the propagation of `start` taken true (made in slot
    /// `s`, which then holds it, unless kept already); returns its contradiction.
    fn keep_on(&mut self, s: usize, b: &Pencilmarks, start: u16, m: Mode) -> Option<(u32, u32)> {
        if let Some(e) = self.memo.get(start) {
            return e.absurd;
        }
        let absurd = self.propagate(s, b, start, m);
        self.memo.save(start, &self.slots[s], absurd);
        self.slots[s].holds = Some(start);
        absurd
    }

    /// Counts a set of branches passed over for sharing no potential (in tests).
    fn count_passed_over(&mut self) {
        #[cfg(test)]
        {
            self.passed_over += 1;
        }
    }

    /// Puts the kept propagation of `start` in slot `s`, unless there.
    fn put_back(&mut self, s: usize, start: u16) {
        if self.slots[s].holds == Some(start) {
            return;
        }
        let e = self.memo.get(start).expect("a kept propagation");
        let slot = &mut self.slots[s];
        slot.clear();
        let (from, to) = (e.from as usize, (e.from + e.len) as usize);
        for &n in &self.memo.lists[from..to] {
            slot.add(self.nodes[n as usize].pot, n);
        }
        slot.holds = Some(start);
    }

    /// Forgets the propagations kept, and their nodes.
    fn forget_propagations(&mut self) {
        self.nodes.clear();
        self.parents.clear();
        self.nested.clear();
        self.memo.clear();
        for slot in &mut self.slots {
            slot.holds = None;
        }
    }

    /// Before a cell's propagations: forgets those kept unless the arena has room for
    /// the most one cell's propagations can add (a node per potential and slot, up to
    /// 8 parents each), so that it never grows.
    fn make_room(&mut self) {
        if self.nodes.len() + SLOTS * POTENTIALS > self.nodes.capacity()
            || self.parents.len() + 8 * SLOTS * POTENTIALS > self.parents.capacity()
            || self.nested.len() + NESTED_PER_CELL > self.nested.capacity()
        {
            self.forget_propagations();
        }
    }

    /// Follows `start` until nothing new is implied; `Some((on, off))` when a
    /// potential is implied both ways (the propagation stops there).
    fn propagate(&mut self, s: usize, b: &Pencilmarks, start: u16, m: Mode) -> Option<(u32, u32)> {
        self.slots[s].clear();
        self.work = self.saved;
        self.holders = self.saved_holders;
        let n = self.open(start);
        self.slots[s].add(start, n);
        let (mut on_head, mut off_head) = (0, 0);
        loop {
            if self.work_done > self.limit {
                return None;
            }
            if on_head < self.slots[s].on.len() {
                let n = self.slots[s].on[on_head];
                on_head += 1;
                if let Some(pair) = self.on_step(s, n, m) {
                    return Some(pair);
                }
            } else if off_head < self.slots[s].off.len() {
                let n = self.slots[s].off[off_head];
                off_head += 1;
                if let Some(pair) = self.off_step(s, n, m) {
                    return Some(pair);
                }
            } else if m.level == 0 || !self.advanced(s, b, m.level, m.nesting) {
                return None;
            }
        }
    }

    /// The offs of an on potential: the cell's other values (unless Nishio), then the
    /// value's other places in the block, row and column, each cell once.
    fn on_step(&mut self, s: usize, n: u32, m: Mode) -> Option<(u32, u32)> {
        self.work_done += 1;
        let p = self.nodes[n as usize].pot;
        let (cell, v) = (cell_of(p), value_of(p));
        if !m.nishio {
            for w in bits(self.work[cell] & !(1 << v)) {
                if let Some(pair) = self.implied_off(s, n, pot(cell, w, false)) {
                    return Some(pair);
                }
            }
        }
        let mut listed = CellSet::EMPTY.with(cell);
        for r in CELL_REGIONS[cell] {
            let places = REGION_SETS[r as usize].and(self.holders[v]).minus(listed);
            listed = listed.or(places);
            for c in places.iter() {
                if let Some(pair) = self.implied_off(s, n, pot(c, v, false)) {
                    return Some(pair);
                }
            }
        }
        None
    }

    #[inline(always)]
    fn implied_off(&mut self, s: usize, parent: u32, q: u16) -> Option<(u32, u32)> {
        let sides = self.slots[s].sides(q);
        if sides & 2 != 0 {
            let on = self.slots[s].stored[q as usize | 1];
            let off = self.child(q, parent);
            return Some((on, off));
        }
        if sides == 0 {
            let off = self.child(q, parent);
            self.slots[s].add(q, off);
        }
        None
    }

    /// The ons of an off potential: the cell's other value when it has two (unless
    /// Nishio), then for block, row and column the value's one other place. In dynamic
    /// mode the candidate is then removed from the reduced board.
    fn off_step(&mut self, s: usize, n: u32, m: Mode) -> Option<(u32, u32)> {
        self.work_done += 1;
        let p = self.nodes[n as usize].pot;
        let (cell, v) = (cell_of(p), value_of(p));
        // The cell's rule, then block, row and column: four at most.
        let mut generated = [(0u16, 0u8); 4];
        let mut count = 0;
        if !m.nishio && self.work[cell].count_ones() == 2 {
            let w = (self.work[cell] & !(1 << v)).trailing_zeros() as usize;
            generated[0] = (pot(cell, w, true), CELL_RULE);
            count = 1;
        }
        for r in CELL_REGIONS[cell] {
            if let Some(q) = conjugate(&self.holders, cell, v, r as usize) {
                if !generated[..count].iter().any(|&(g, _)| g == q) {
                    generated[count] = (q, r);
                    count += 1;
                }
            }
        }
        if m.dynamic {
            self.work[cell] &= !(1 << v);
            self.holders[v] = self.holders[v].minus(CellSet::EMPTY.with(cell));
        }
        for &(q, rule) in &generated[..count] {
            let sides = self.slots[s].sides(q);
            let off = (sides & 1 != 0).then(|| self.slots[s].stored[q as usize ^ 1]);
            if sides == 2 {
                continue;
            }
            let on = self.child(q, n);
            self.nodes[on as usize].rule = rule;
            if m.dynamic {
                self.hidden_parents(s, on, cell, v, rule);
            }
            if let Some(off) = off {
                return Some((on, off));
            }
            self.slots[s].add(q, on);
        }
        None
    }

    /// The removals that made an implication hold, beside the off potential `(cell,
    /// v)` being processed (already removed from the reduced board, and not counted).
    fn hidden_parents(&mut self, s: usize, on: u32, cell: usize, v: usize, rule: u8) {
        if rule == CELL_RULE {
            for w in bits(self.saved[cell] & !self.work[cell] & !(1 << v)) {
                let off = self.removed(s, cell, w);
                self.parent(on, off);
            }
        } else {
            let gone = REGION_SETS[rule as usize]
                .and(self.saved_holders[v])
                .minus(self.holders[v])
                .minus(CellSet::EMPTY.with(cell));
            for c in gone.iter() {
                let off = self.removed(s, c, v);
                self.parent(on, off);
            }
        }
    }

    /// The simple rules on the reduced board, for a stalled dynamic plus propagation:
    /// the first rule with a hint that rests on a removal gives its eliminations, each
    /// an off potential whose parents are those removals. True when one was added.
    fn advanced(&mut self, s: usize, b: &Pencilmarks, level: u8, nesting: u8) -> bool {
        let reduced = Pencilmarks {
            value: b.value,
            cands: self.work,
        };
        let mut added = false;
        // The simple rules (0-3), then the static chains and the static multiple chains
        // at levels 2 and 3, or the dynamic chains at level 4.
        let nested: &[u8] = match level {
            1 => &[],
            2 => &[STATIC_CHAINS],
            3 => &[STATIC_CHAINS, MULTIPLE_CHAINS],
            _ => &[DYNAMIC_CHAINS],
        };
        for &rule in [0, 1, 2, 3].iter().chain(nested) {
            if rule >= STATIC_CHAINS {
                let (usable, added) = self.nested_rule(s, &reduced, rule, nesting);
                if usable {
                    return added;
                }
                continue;
            }
            let mut usable = false;
            let mut visit = |h: &Hint, basis: Basis| {
                let first = self.parents.len();
                self.rule_parents(s, basis);
                if self.parents.len() == first {
                    return false;
                }
                usable = true;
                let order = elimination_order(h, basis);
                added |= self.eliminations(s, &order.cells[..order.len], &h.elims, first, NONE);
                false
            };
            match rule {
                0 => basic::each_locking(&reduced, 0, &mut visit),
                1 => basic::each_hidden_set(&reduced, 2, 0, &mut visit),
                2 => basic::each_naked_set(&reduced, 2, 0, &mut visit),
                _ => basic::each_fish(&reduced, 2, 0, &mut visit),
            }
            if usable {
                break;
            }
        }
        added
    }

    /// Records into `every` every hint of `rule` (static chains, static multiple chains,
    /// or dynamic chains of level `nesting`) on the reduced board, unsorted.
    fn rule_hints(&mut self, reduced: &Pencilmarks, rule: u8, nesting: u8) {
        if rule != STATIC_CHAINS {
            let (inner, kind, reach) = if rule == DYNAMIC_CHAINS {
                let inner = self.dynamic.as_deref_mut();
                let inner = inner.expect("the level 4 buffers are prepared before its search");
                // The reduced board may hold static chains the step's board did not.
                inner.no_static_chains = false;
                (inner, ForcingKind::dynamic_at(nesting), None)
            } else {
                // What the static links reach tells which chains can have anything in
                // common.
                let before = self.inner.work;
                self.inner.screen_xy(reduced);
                self.work_done += self.inner.work - before;
                let inner = self.multiple.as_deref_mut();
                let inner =
                    inner.expect("nested chains of level 3 have the multiple chains' buffers");
                (inner, ForcingKind::Multiple, self.inner.xy_reach(reduced))
            };
            inner.work_done = 0;
            inner.limit = self.limit.saturating_sub(self.work_done);
            inner.search(reduced, kind, Some(&mut self.every), reach);
            self.work_done += inner.work_done;
        } else {
            let before = self.inner.work;
            let mut sink = StaticSink {
                every: &mut self.every,
                holders: self.holders,
            };
            let saved = Pencilmarks {
                value: reduced.value,
                cands: self.saved,
            };
            let within = self.no_static_chains.then_some(&saved);
            self.inner.every(reduced, within, &mut sink);
            self.work_done += self.inner.work - before;
        }
    }

    /// The chains of `rule` on the reduced board (the static ones, the static multiple
    /// ones, or the dynamic ones of level `nesting`), for a stalled nested propagation
    /// whose simple rules found nothing: every chain hint, in the order the rule sorts
    /// them, whose chains rest on a removal gives its eliminations, each an off
    /// potential whose parents are those removals, and which carries the hint for the
    /// complexity. Returns (whether one was usable, whether one was added).
    fn nested_rule(
        &mut self,
        s: usize,
        reduced: &Pencilmarks,
        rule: u8,
        nesting: u8,
    ) -> (bool, bool) {
        self.every.clear(reduced);
        let known = match self.cache.as_deref_mut() {
            Some(cache) => cache.restore(reduced, rule, nesting, &mut self.every),
            None => false,
        };
        if !known {
            self.rule_hints(reduced, rule, nesting);
            self.every.sort();
            // A search that ran out of budget found only part of them.
            if self.work_done <= self.limit {
                if let Some(cache) = self.cache.as_deref_mut() {
                    cache.store(reduced, rule, nesting, &self.every);
                }
            }
        }
        let (mut usable, mut added) = (false, false);
        for k in 0..self.every.len() {
            let f = *self.every.get(k);
            let first = self.parents.len();
            self.chain_parents(s, &f);
            if self.parents.len() == first {
                continue;
            }
            usable = true;
            let id = self.nested.len() as u32;
            self.nested.push((f.signature, f.complexity));
            let order = hash_order(&f.elims);
            added |= self.eliminations(s, &order.cells[..order.len], &f.elims, first, id);
        }
        (usable, added)
    }

    /// Adds to slot `s` the off potential of each elimination not stored yet, cells in
    /// the order given and values ascending, each resting on the parents pushed since
    /// `first` and carrying nested hint `nested`; true when one was added.
    fn eliminations(
        &mut self,
        s: usize,
        cells: &[u8],
        elims: &[u16; 81],
        first: usize,
        nested: u32,
    ) -> bool {
        let mut added = false;
        for &c in cells {
            let c = c as usize;
            for x in bits(elims[c]) {
                let q = pot(c, x, false);
                if self.slots[s].get(q).is_some() {
                    continue;
                }
                let n = self.nodes.len() as u32;
                self.nodes.push(ForcingNode {
                    pot: q,
                    parents: first as u32,
                    count: (self.parents.len() - first) as u32,
                    nested,
                    rule: NO_RULE,
                });
                self.slots[s].add(q, n);
                added = true;
            }
        }
        added
    }

    /// Pushes the stored off nodes of the removals a nested chain hint rests on: for
    /// each "on" potential of its chains, the values removed from its cell (when the
    /// cell made it true) or the places of its value removed from the region that did,
    /// each once.
    fn chain_parents(&mut self, s: usize, f: &super::nested::Found) {
        self.listed.clear();
        for i in 0..self.every.links_of(f).len() {
            let (p, rule) = self.every.links_of(f)[i];
            let (cell, v) = (cell_of(p), value_of(p));
            if rule == INNER_CELL_RULE {
                for w in bits(self.saved[cell] & !self.work[cell]) {
                    self.rule_parent(s, cell, w);
                }
            } else {
                for c in self.gone(REGION_SETS[rule as usize], v).iter() {
                    self.rule_parent(s, c, v);
                }
            }
        }
    }

    /// Pushes the stored off node of removed candidate `(cell, v)` unless listed.
    fn rule_parent(&mut self, s: usize, cell: usize, v: usize) {
        let q = pot(cell, v, false);
        if self.listed.add(q) {
            let off = self.removed(s, cell, v);
            self.parents.push(off);
        }
    }

    /// The cells of `cells` whose candidate bit `v` the propagation removed.
    fn gone(&self, cells: CellSet, v: usize) -> CellSet {
        cells.and(self.saved_holders[v]).minus(self.holders[v])
    }

    /// Pushes the stored off nodes of the removals a rule's hint rests on.
    fn rule_parents(&mut self, s: usize, basis: Basis) {
        let gone = |f: &Forcing, c: usize| f.saved[c] & !f.work[c];
        match basis {
            Basis::Lock { v, base, cover } => {
                let cells = REGION_SETS[base].minus(REGION_SETS[cover]);
                for c in self.gone(cells, v).iter() {
                    let off = self.removed(s, c, v);
                    self.parents.push(off);
                }
            }
            Basis::Naked { cells } => {
                for c in cells.iter() {
                    for w in bits(gone(self, c)) {
                        let off = self.removed(s, c, w);
                        self.parents.push(off);
                    }
                }
            }
            Basis::Hidden {
                region,
                values,
                cells,
            } => {
                for c in REGION_SETS[region].minus(cells).iter() {
                    for w in bits(gone(self, c) & values) {
                        let off = self.removed(s, c, w);
                        self.parents.push(off);
                    }
                }
            }
            Basis::Fish {
                v,
                base,
                lines,
                covers,
            } => {
                let union = |t: usize, m: u16| {
                    bits(m).fold(CellSet::EMPTY, |u, l| u.or(REGION_SETS[t * 9 + l]))
                };
                let cells = union(base, lines).minus(union(3 - base, covers));
                for c in self.gone(cells, v).iter() {
                    let off = self.removed(s, c, v);
                    self.parents.push(off);
                }
            }
        }
    }

    /// Starts a breadth-first walk: no potential visited yet.
    fn new_visit(&mut self) {
        self.seen_now = self.seen_now.wrapping_add(1);
        if self.seen_now == 0 {
            self.seen.fill(0);
            self.seen_now = 1;
        }
    }

    /// `node`, unless its potential was visited already in this walk (it is now).
    fn first_visit(&mut self, node: u32) -> Option<ForcingNode> {
        let n = self.nodes[node as usize];
        let seen = &mut self.seen[n.pot as usize];
        if *seen == self.seen_now {
            return None;
        }
        *seen = self.seen_now;
        Some(n)
    }

    /// The number of distinct potentials among `node` and all its ancestors, or
    /// `limit + 1` as soon as that is passed.
    fn ancestors(&mut self, node: u32, limit: usize) -> usize {
        self.new_visit();
        self.queue.clear();
        self.queue.push(node);
        let mut count = 0;
        let mut i = 0;
        while i < self.queue.len() {
            i += 1;
            let Some(n) = self.first_visit(self.queue[i - 1]) else {
                continue;
            };
            count += 1;
            self.meet(n.nested);
            if count > limit {
                return count;
            }
            let (from, to) = (n.parents as usize, (n.parents + n.count) as usize);
            self.queue.extend_from_slice(&self.parents[from..to]);
        }
        count
    }

    /// Counts nested hint `nested` (if any) into the complexity being counted, once.
    fn meet(&mut self, nested: u32) {
        if nested != NONE {
            let (signature, complexity) = self.nested[nested as usize];
            if !self.met.contains(&signature) {
                self.met.push(signature);
                self.met_complexity += complexity as usize;
            }
        }
    }

    /// The complexity of a hint resting on these nodes (the sum of their ancestor
    /// counts), or `None` when it is above `limit`.
    fn complexity(&mut self, nodes: &[u32], limit: usize) -> Option<usize> {
        let mut total = 0usize;
        self.met.clear();
        self.met_complexity = 0;
        for &n in nodes {
            total += self.ancestors(n, limit.saturating_sub(total + self.met_complexity));
            if total + self.met_complexity > limit {
                return None;
            }
        }
        Some(total + self.met_complexity)
    }

    /// Offers the hint that `target` holds as it is (set its value, or remove it),
    /// resting on `nodes`.
    /// `starts`: where the branches of a cell's or a region's chains start.
    fn offer(
        &mut self,
        best: &mut BestForcing,
        m: Mode,
        target: u16,
        kind: u8,
        nodes: &[u32],
        starts: Option<ChainsOf>,
    ) {
        // A hint kept for nested chains lists its links (the starts' first); a dynamic
        // one's complexity and signature come with them, in one walk.
        let mut recorded = None;
        if let Some(every) = best.every.as_deref_mut() {
            if let Some(starts) = starts {
                self.start_links(starts, every);
            }
            if m.dynamic {
                recorded = Some(self.dynamic_links(nodes, every));
            }
        }
        let complexity = match recorded {
            Some((complexity, _)) => complexity,
            None => match self.complexity(nodes, best.limit(kind)) {
                Some(complexity) => complexity,
                None => return,
            },
        };
        let technique = match kind {
            DOUBLE => HintKind::DoubleForcingChain,
            CELL => HintKind::CellForcingChains,
            REGION => HintKind::RegionForcingChains,
            _ if m.nishio => HintKind::NishioForcingChain,
            _ => HintKind::ContradictionForcingChain,
        };
        let rating = m.base + length_bonus(complexity);
        let (cell, v) = (cell_of(target), value_of(target));
        let hint = if is_on(target) {
            Hint::placing(technique, rating, cell, v + 1)
        } else {
            let mut h = Hint::new(technique, rating);
            h.elims[cell] = 1 << v;
            h
        };
        if let Some(every) = best.every.as_deref_mut() {
            let signature = match recorded {
                Some((_, signature)) => signature,
                None => self.chain_links(nodes, every),
            };
            every.record(&hint, complexity, kind, signature);
            return;
        }
        best.hint = Some(hint);
        best.complexity = complexity;
        best.kind = kind;
    }

    /// Pushes to `every` the "on" potentials of the chains to `targets` (static
    /// chains: a node has one parent, or none at a start), breadth first from each
    /// target in turn, each with the rule that made it true; returns a hash of the
    /// targets and their chains' potentials in that order.
    fn chain_links(&mut self, targets: &[u32], every: &mut Every) -> u64 {
        let mut signature = 0xcbf2_9ce4_8422_2325u64;
        for &t in targets {
            // A static chain is a path: its breadth-first order is the path's.
            let mut node = t;
            loop {
                let n = self.nodes[node as usize];
                signature = mix(signature, n.pot as u64);
                if n.count == 0 {
                    break;
                }
                let parent = self.parents[n.parents as usize];
                if is_on(n.pot) {
                    let rule = rule_of(&self.saved_holders, n.pot, self.nodes[parent as usize].pot);
                    every.push_link(n.pot, rule);
                }
                node = parent;
            }
            signature = mix(signature, u64::MAX);
        }
        signature
    }

    /// Pushes to `every` the starts of the cell's or region's chains being offered,
    /// with the cell or region that leaves them the only values or places: a hint
    /// resting on them rests on the values or places removed there too.
    fn start_links(&self, starts: ChainsOf, every: &mut Every) {
        match starts {
            ChainsOf::Cell(cell) => {
                for v in bits(self.saved[cell]) {
                    every.push_link(pot(cell, v, true), INNER_CELL_RULE);
                }
            }
            ChainsOf::Region { v, region } => {
                for c in REGION_SETS[region].and(self.saved_holders[v]).iter() {
                    every.push_link(pot(c, v, true), region as u8);
                }
            }
        }
    }

    /// [`Forcing::chain_links`] for dynamic chains, whose nodes have several parents:
    /// every ancestor of the targets, breadth first from each target in turn, each
    /// potential once per target; returns the complexity as
    /// [`Forcing::complexity`] counts it (the same walk) and the signature.
    fn dynamic_links(&mut self, targets: &[u32], every: &mut Every) -> (usize, u64) {
        let mut signature = 0xcbf2_9ce4_8422_2325u64;
        let mut count = 0;
        self.met.clear();
        self.met_complexity = 0;
        for &t in targets {
            // Each branch's chain in full, though the branches share their target.
            self.new_visit();
            self.queue.clear();
            self.queue.push(t);
            let mut i = 0;
            while i < self.queue.len() {
                i += 1;
                let Some(n) = self.first_visit(self.queue[i - 1]) else {
                    continue;
                };
                count += 1;
                self.meet(n.nested);
                signature = mix(signature, n.pot as u64);
                if n.rule != NO_RULE {
                    every.push_link(n.pot, n.rule);
                }
                let (from, to) = (n.parents as usize, (n.parents + n.count) as usize);
                self.queue.extend_from_slice(&self.parents[from..to]);
            }
            signature = mix(signature, u64::MAX);
        }
        (count + self.met_complexity, signature)
    }

    /// The potentials implied the same way in every branch, in the first branch's
    /// order, ons then offs, each offered as a hint of `kind` (`starts`: see
    /// [`Forcing::offer`]). The branches' bit sets are met first: branches sharing no
    /// potential are passed over before any kept propagation is put back in its slot.
    fn common(
        &mut self,
        best: &mut BestForcing,
        m: Mode,
        branches: &[Branch],
        kind: u8,
        starts: Option<ChainsOf>,
    ) {
        let mut set = [!0u64; POTENTIALS.div_ceil(64)];
        if self.sharing {
            for &(s, start) in branches {
                let other = match start {
                    Some(p) => self.memo.set(p),
                    None => &self.slots[s].set,
                };
                for (w, o) in set.iter_mut().zip(other) {
                    *w &= o;
                }
            }
            if set.iter().all(|&w| w == 0) {
                self.count_passed_over();
                return;
            }
        }
        let mut slots = [0usize; 9];
        for (i, &(s, start)) in branches.iter().enumerate() {
            slots[i] = s;
            if let Some(p) = start {
                self.put_back(s, p);
            }
        }
        let branches = &slots[..branches.len()];
        let mut nodes = [0u32; 9];
        if self.sharing {
            // The first branch's lists hold nodes in the order they were made, so its
            // nodes of the shared potentials, ons then offs, each ascending, are in the
            // lists' order.
            self.shared.clear();
            for (i, &word) in set.iter().enumerate() {
                let mut word = word;
                while word != 0 {
                    let p = (i * 64) as u16 + word.trailing_zeros() as u16;
                    word &= word - 1;
                    let first = self.slots[branches[0]].get(p).expect("in the first branch");
                    self.shared.push((!is_on(p), first, p));
                }
            }
            self.shared.sort_unstable();
            for i in 0..self.shared.len() {
                let (_, first, p) = self.shared[i];
                nodes[0] = first;
                for (k, &b) in branches[1..].iter().enumerate() {
                    nodes[k + 1] = self.slots[b].get(p).expect("in every branch");
                }
                self.offer(best, m, p, kind, &nodes[..branches.len()], starts);
            }
            return;
        }
        for on in [true, false] {
            let len = if on {
                self.slots[branches[0]].on.len()
            } else {
                self.slots[branches[0]].off.len()
            };
            for i in 0..len {
                let first = if on {
                    self.slots[branches[0]].on[i]
                } else {
                    self.slots[branches[0]].off[i]
                };
                let p = self.nodes[first as usize].pot;
                nodes[0] = first;
                let everywhere = branches[1..]
                    .iter()
                    .enumerate()
                    .all(|(k, &b)| self.slots[b].get(p).map(|n| nodes[k + 1] = n).is_some());
                if everywhere {
                    self.offer(best, m, p, kind, &nodes[..branches.len()], starts);
                }
            }
        }
    }

    /// The chains of a value's places in the cell's regions, for a region whose first
    /// place is this cell: what every place implies when taken true.
    fn regions(
        &mut self,
        best: &mut BestForcing,
        b: &Pencilmarks,
        cell: usize,
        v: usize,
        m: Mode,
        reach: Option<&Reach>,
    ) {
        for r in CELL_REGIONS[cell] {
            let Some(places) = self.region_chain(cell, v, r as usize, m, reach) else {
                continue;
            };
            let n = places.len();
            let mut branches = [(0, None); 9];
            let mut k = 0;
            for (i, c) in places.iter().enumerate() {
                let slot = if c == cell {
                    v
                } else {
                    k += 1;
                    REGION_SLOTS + k - 1
                };
                let on = pot(c, v, true);
                self.keep_on(slot, b, on, m);
                branches[i] = (slot, Some(on));
            }
            let starts = ChainsOf::Region {
                v,
                region: r as usize,
            };
            self.common(best, m, &branches[..n as usize], REGION, Some(starts));
        }
    }

    /// The places of `v` in region `r` when the region's chains are followed from
    /// `cell` (its first place; two places, or more for multiple chains) and, with
    /// `reach` (a static search's links), some potential is reachable from every place.
    fn region_chain(
        &self,
        cell: usize,
        v: usize,
        r: usize,
        m: Mode,
        reach: Option<&Reach>,
    ) -> Option<CellSet> {
        let places = REGION_SETS[r].and(self.saved_holders[v]);
        let n = places.len();
        if !(n == 2 || (m.multiple && n > 2)) || places.0.trailing_zeros() as usize != cell {
            return None;
        }
        match reach {
            Some(reach) if !reach.reach_common(places.iter().map(|c| pot(c, v, true))) => None,
            _ => Some(places),
        }
    }

    /// The lowest hint of producer `kind` on the board, if any.
    pub fn best(&mut self, b: &Pencilmarks, kind: ForcingKind) -> Option<Hint> {
        self.search(b, kind, None, None)
    }

    /// [`Forcing::best`] for the static multiple chains, given what each potential
    /// reaches over the board's static links (the static chains' last screen of it):
    /// only the cells and regions whose branches can meet are followed.
    pub(super) fn best_multiple(&mut self, b: &Pencilmarks, reach: Option<&Reach>) -> Option<Hint> {
        self.search(b, ForcingKind::Multiple, None, reach)
    }

    /// The lowest hint of producer `kind` on the board, or with `every`, none: every
    /// hint is recorded there.
    ///
    /// `reach`: what each potential reaches over the board's static links, for a static
    /// producer: a cell's or a region's chains are followed only when some potential is
    /// reachable from every branch (else nothing is common to them).
    fn search(
        &mut self,
        b: &Pencilmarks,
        kind: ForcingKind,
        every: Option<&mut Every>,
        reach: Option<&Reach>,
    ) -> Option<Hint> {
        let m = Mode::of(kind);
        debug_assert!(reach.is_none() || !(m.dynamic || m.nishio));
        self.saved = b.cands;
        self.saved_holders = b.holders();
        let mut best = BestForcing {
            hint: None,
            complexity: 0,
            kind: 0,
            every,
        };
        self.forget_propagations();
        // The values a Nishio search looks at: those whose places changed since their
        // chains last met no contradiction, and not after a cell left with one value,
        // which is no start (never the case where the rater runs it: naked singles come
        // first).
        let mut singles = CellSet::EMPTY;
        let mut looked = 0x1ffu16;
        if m.nishio {
            singles = (0..81)
                .filter(|&c| b.cands[c].count_ones() == 1)
                .fold(CellSet::EMPTY, CellSet::with);
            for v in 0..9 {
                let places = self.saved_holders[v];
                if places.and(singles).is_empty() && self.nishio_clear[v] == Some(places) {
                    looked &= !(1 << v);
                }
            }
        }
        let mut absurd_values = 0u16;
        for cell in 0..81 {
            let count = b.cands[cell].count_ones();
            if !(count > 2 || (count == 2 && m.dynamic)) {
                continue;
            }
            if self.given_up() {
                return None;
            }
            self.make_room();
            let cell_chains = !m.nishio
                && (count == 2 || m.multiple)
                && reach.is_none_or(|r| {
                    r.reach_common(bits(b.cands[cell]).map(|v| pot(cell, v, true)))
                });
            for v in bits(b.cands[cell] & looked) {
                let on = pot(cell, v, true);
                // A static search follows a value only for the chains it starts.
                if reach.is_some()
                    && !cell_chains
                    && CELL_REGIONS[cell]
                        .iter()
                        .all(|&r| self.region_chain(cell, v, r as usize, m, reach).is_none())
                {
                    continue;
                }
                let absurd = self.keep_on(v, b, on, m);
                if let (true, Some((x, y))) = (m.contradictions(), absurd) {
                    absurd_values |= 1 << v;
                    self.offer(&mut best, m, on ^ 1, CONTRADICTION, &[x, y], None);
                }
                if m.contradictions() || m.doubles(count) {
                    let absurd = self.propagate(OFF_SLOT, b, on ^ 1, m);
                    if let (true, Some((x, y))) = (m.contradictions(), absurd) {
                        absurd_values |= 1 << v;
                        self.offer(&mut best, m, on, CONTRADICTION, &[x, y], None);
                    }
                    if m.doubles(count) {
                        let branches = [(v, Some(on)), (OFF_SLOT, None)];
                        self.common(&mut best, m, &branches, DOUBLE, None);
                    }
                }
                if !m.nishio {
                    self.regions(&mut best, b, cell, v, m, reach);
                }
            }
            if cell_chains {
                let mut branches = [(0, None); 9];
                for (i, v) in bits(b.cands[cell]).enumerate() {
                    branches[i] = (v, Some(pot(cell, v, true)));
                }
                let starts = Some(ChainsOf::Cell(cell));
                self.common(&mut best, m, &branches[..count as usize], CELL, starts);
            }
        }
        if self.work_done > self.limit {
            return None;
        }
        if m.nishio {
            for v in bits(looked) {
                let places = self.saved_holders[v];
                self.nishio_clear[v] = (absurd_values >> v & 1 == 0
                    && places.and(singles).is_empty())
                .then_some(places);
            }
        }
        best.hint
    }
}

/// The cells of a nested chain hint's eliminations in hash map order (see
/// [`elimination_order`]), inserted by cell.
fn hash_order(elims: &[u16; 81]) -> Order {
    let mut order = Order {
        cells: [0; 81],
        len: 0,
    };
    for c in (0..81).filter(|&c| elims[c] != 0) {
        order.cells[order.len] = c as u8;
        order.len += 1;
    }
    order.in_buckets()
}

/// The cells of a hint's eliminations in the order Sukaku Explainer's hash map of them
/// yields: by cell index modulo the table size (16, doubled while the map is over
/// three quarters full), cells of one bucket in the order the rule inserted them.
struct Order {
    cells: [u8; 81],
    len: usize,
}

impl Order {
    /// The cells in hash map order: by index modulo the table size (16, doubled while
    /// the map is over three quarters full), those of one bucket in insertion order.
    fn in_buckets(mut self) -> Order {
        let mut size = 16;
        while self.len * 4 > size * 3 {
            size *= 2;
        }
        self.cells[..self.len].sort_by_key(|&c| c as usize % size);
        self
    }
}

fn elimination_order(h: &Hint, basis: Basis) -> Order {
    let mut order = Order {
        cells: [0; 81],
        len: 0,
    };
    let mut push = |c: usize| {
        if h.elims[c] != 0 {
            order.cells[order.len] = c as u8;
            order.len += 1;
        }
    };
    match basis {
        // Columns as covers: inserted line by line, so by column first.
        Basis::Fish {
            base: 1, covers, ..
        } => {
            for col in bits(covers) {
                for row in 0..9 {
                    push(row * 9 + col);
                }
            }
        }
        _ => (0..81).for_each(&mut push),
    }
    order.in_buckets()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::explainer::testing::{on_rating_paths, outcome};

    #[test]
    fn hints_kept_by_reduced_board_are_those_a_new_search_finds() {
        // The nested chains of levels 2 and 3 on the boards of the rater's path through
        // hard references where the static chains have nothing, board after board: with
        // one set of buffers, which keeps what the rules inside found on each reduced
        // board and uses it when a propagation stalls there again, and with buffers that
        // keep nothing. The same hints, and the kept ones were used.
        let (mut kept, mut fresh) = (Forcing::new(), Forcing::new());
        fresh.cache = None;
        let mut chains = Chains::new();
        let (mut boards, mut found) = (0, 0);
        on_rating_paths("se-reference-extreme.txt", 3, |puzzle, b| {
            if chains.best(b).is_some() {
                return;
            }
            boards += 1;
            for kind in [ForcingKind::NestedChains, ForcingKind::NestedMultiple] {
                for f in [&mut kept, &mut fresh] {
                    f.no_static_chains = true;
                    f.work_done = 0;
                }
                let got = outcome(kept.best(b, kind));
                assert_eq!(got, outcome(fresh.best(b, kind)), "{puzzle} {kind:?}");
                found += usize::from(got.is_some());
            }
        });
        let hits = kept.cache.as_ref().map_or(0, |c| c.hits);
        assert!(
            boards >= 10 && found >= 10 && hits > 1000,
            "{boards} boards, {found} hints, {hits} searches kept"
        );
    }

    #[test]
    fn branches_are_met_through_their_shared_potentials_without_losing_a_hint() {
        // Along the rater's path through hard references: every hint the forcing chains
        // of levels 0 and 1 record (as for nested chains), and the lowest, with the
        // branches whose potential sets share none passed over and only the shared
        // potentials looked up, and with every branch's lists walked. The same (in the
        // order sorted for nested chains, with their links), and some branches were
        // passed over.
        let (mut sharing, mut walking) = (Forcing::new(), Forcing::new());
        walking.sharing = false;
        let (mut one, mut other) = (Every::new(), Every::new());
        type Recorded = (u64, u32, u64, [u16; 81], Vec<(u16, u8)>);
        let recorded = |e: &Every| -> Vec<Recorded> {
            (0..e.len())
                .map(|k| e.get(k))
                .map(|f| {
                    let links = e.links_of(f).to_vec();
                    (f.rating, f.complexity, f.signature, f.elims, links)
                })
                .collect()
        };
        let kinds = [
            ForcingKind::Nishio,
            ForcingKind::Multiple,
            ForcingKind::Dynamic,
            ForcingKind::DynamicPlus,
        ];
        let mut hints = 0;
        on_rating_paths("se-reference-extreme.txt", 4, |puzzle, b| {
            for kind in kinds {
                for f in [&mut sharing, &mut walking] {
                    f.work_done = 0;
                    f.nishio_clear = [None; 9];
                }
                let got = outcome(sharing.best(b, kind));
                assert_eq!(got, outcome(walking.best(b, kind)), "{puzzle} {kind:?}");
                one.clear(b);
                other.clear(b);
                sharing.search(b, kind, Some(&mut one), None);
                walking.search(b, kind, Some(&mut other), None);
                one.sort();
                other.sort();
                assert_eq!(recorded(&one), recorded(&other), "{puzzle} {kind:?}");
                hints += one.len();
            }
        });
        let passed = sharing.passed_over;
        assert_eq!(walking.passed_over, 0);
        assert!(
            hints > 1000 && passed > 1000,
            "{hints} hints recorded, {passed} sets of branches passed over"
        );
    }

    #[test]
    fn nishio_chains_skip_only_values_whose_places_met_no_contradiction() {
        // Along the rater's path through hard references, board after board: Nishio
        // chains with one set of buffers, which passes over the values whose places are
        // those of a search where they met no contradiction, and with new buffers each
        // time, which look at every value. The same hints, and values were passed over.
        // And each value passed over meets no contradiction from any of its places,
        // taken true or false.
        let (mut kept, mut check) = (Forcing::new(), Forcing::new());
        let m = Mode::of(ForcingKind::Nishio);
        let (mut boards, mut found, mut skipped) = (0, 0, 0);
        on_rating_paths("se-reference-extreme.txt", 25, |puzzle, b| {
            let holders = b.holders();
            check.saved = b.cands;
            check.saved_holders = holders;
            for v in (0..9).filter(|&v| kept.nishio_clear[v] == Some(holders[v])) {
                skipped += 1;
                for cell in holders[v].iter() {
                    check.forget_propagations();
                    let on = pot(cell, v, true);
                    assert!(check.propagate(0, b, on, m).is_none(), "{puzzle} {on}");
                    assert!(check.propagate(1, b, on ^ 1, m).is_none(), "{puzzle} {on}");
                }
            }
            kept.work_done = 0;
            let got = outcome(kept.best(b, ForcingKind::Nishio));
            assert_eq!(
                got,
                outcome(Forcing::new().best(b, ForcingKind::Nishio)),
                "{puzzle}"
            );
            boards += 1;
            found += usize::from(got.is_some());
        });
        assert!(
            boards > 500 && found > 50 && skipped > 2000,
            "{boards} boards, {found} hints, {skipped} values passed over"
        );
    }

    #[test]
    fn a_kept_propagation_is_the_one_a_new_propagation_makes() {
        // Every "on" propagation of the dynamic and dynamic plus chains on the boards of
        // the rater's path through hard references: put back from the memo, it holds the
        // potentials, in the same order and with the same parents, and stops at the same
        // contradiction, as the same propagation made again.
        let mut f = Forcing::new();
        let mut reused = 0;
        let described = |f: &Forcing, s: usize| -> Vec<(u16, Vec<u16>)> {
            let slot = &f.slots[s];
            slot.on
                .iter()
                .chain(&slot.off)
                .map(|&n| {
                    let node = f.nodes[n as usize];
                    let from = node.parents as usize;
                    let parents = &f.parents[from..from + node.count as usize];
                    let pots = parents.iter().map(|&q| f.nodes[q as usize].pot).collect();
                    (node.pot, pots)
                })
                .collect()
        };
        let pots = |f: &Forcing, pair: Option<(u32, u32)>| {
            pair.map(|(x, y)| (f.nodes[x as usize].pot, f.nodes[y as usize].pot))
        };
        on_rating_paths("se-reference-extreme.txt", 7, |puzzle, b| {
            for kind in [ForcingKind::Dynamic, ForcingKind::DynamicPlus] {
                let m = Mode::of(kind);
                f.saved = b.cands;
                f.saved_holders = b.holders();
                f.forget_propagations();
                for cell in (0..81).filter(|&c| b.value[c] == 0) {
                    for v in bits(b.cands[cell]) {
                        let on = pot(cell, v, true);
                        let first = f.propagate_on(0, b, on, m);
                        let kept = f.propagate_on(1, b, on, m);
                        let again = f.propagate(2, b, on, m);
                        assert_eq!(described(&f, 1), described(&f, 2), "{puzzle} {on}");
                        assert_eq!(described(&f, 0), described(&f, 1), "{puzzle} {on}");
                        assert_eq!(pots(&f, kept), pots(&f, again), "{puzzle} {on}");
                        assert_eq!(first, kept);
                        reused += 1;
                    }
                }
            }
        });
        assert!(reused > 1000, "{reused} propagations put back");
    }

    #[test]
    fn every_multiple_chain_hint_is_recorded_and_the_first_is_the_producers() {
        // On the rater's path through hard references: the multiple chains recorded for
        // nested chains, sorted, start with the hint the producer itself gives, and
        // each rests on "on" links of the board.
        // Searched only where the static links let branches meet, they are the same.
        let (mut all, mut best, mut filtered) = (Forcing::new(), Forcing::new(), Forcing::new());
        let (mut every, mut met) = (Every::new(), Every::new());
        let mut chains = Chains::new();
        let (mut boards, mut hints) = (0, 0);
        on_rating_paths("se-reference-extreme.txt", 6, |puzzle, b| {
            every.clear(b);
            all.search(b, ForcingKind::Multiple, Some(&mut every), None);
            every.sort();
            let mut static_hints = Every::new();
            static_hints.clear(b);
            let mut sink = StaticSink {
                every: &mut static_hints,
                holders: b.holders(),
            };
            chains.every(b, None, &mut sink);
            let reach = chains.xy_reach(b).expect("the XY pass screened");
            met.clear(b);
            filtered.search(b, ForcingKind::Multiple, Some(&mut met), Some(reach));
            met.sort();
            assert_eq!(met.len(), every.len(), "{puzzle}");
            for k in 0..every.len() {
                let (x, y) = (every.get(k), met.get(k));
                assert_eq!(
                    (x.elims, x.complexity, x.signature),
                    (y.elims, y.complexity, y.signature)
                );
            }
            boards += 1;
            hints += every.len();
            match best.best(b, ForcingKind::Multiple) {
                Some(h) => {
                    let first = every.get(0);
                    assert_eq!(f64::from_bits(first.rating), h.rating, "{puzzle}");
                    let mut elims = h.elims;
                    if let Some((c, v)) = h.place {
                        elims[c as usize] |= b.cands[c as usize] & !(1 << (v - 1));
                    }
                    assert_eq!(first.elims, elims, "{puzzle}");
                }
                None => assert_eq!(every.len(), 0, "{puzzle}"),
            }
            for k in 0..every.len() {
                let f = every.get(k);
                for &(p, _) in every.links_of(f) {
                    assert!(is_on(p) && b.cands[cell_of(p)] >> value_of(p) & 1 == 1);
                }
            }
        });
        assert!(
            boards > 100 && hints > 100,
            "{boards} boards, {hints} hints"
        );
    }

    #[test]
    fn eliminations_come_in_hash_map_order() {
        let mut h = Hint::new(HintKind::Pointing, 2.6);
        for c in [2, 18, 20, 40] {
            h.elims[c] = 1;
        }
        let basis = Basis::Naked {
            cells: CellSet::EMPTY,
        };
        let o = elimination_order(&h, basis);
        // 18 and 2 share bucket 2 (18 mod 16), in insertion order.
        assert_eq!(&o.cells[..o.len], &[2, 18, 20, 40]);
        let mut h = Hint::new(HintKind::XWing, 3.2);
        for c in [0, 16, 32, 48, 1, 17, 33, 49, 2, 18, 34, 50, 3] {
            h.elims[c] = 1;
        }
        // Thirteen cells: a table of 32.
        let o = elimination_order(&h, basis);
        assert_eq!(
            &o.cells[..o.len],
            &[0, 32, 1, 33, 2, 34, 3, 16, 48, 17, 49, 18, 50]
        );
    }
}
