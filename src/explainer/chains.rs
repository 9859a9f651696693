//! Sukaku Explainer's static chains (its producer `Chaining(false, false, false, 0)`):
//! bidirectional cycles and forcing chains over X links (a value's last two places in a
//! region), Y links (a cell's last two values) or both, with no length limit. Every
//! start is tried; the hint kept is the lowest by (rating, complexity, kind), the first
//! found among equals, as its stable sort then takes the first.
//!
//! A potential is (cell, value, on/off), numbered `(cell * 9 + v) * 2 + on`. Chains are
//! kept as nodes in an arena, each pointing at its parent, so a search allocates
//! nothing once the buffers have grown.

use super::board::{Board, Cells, CELL_REGIONS, PEER_SETS, REGION_CELLS};
use super::hint::{Hint, Technique};
use super::potential::{cell_of, is_on, length_bonus, pot, value_of};

use super::potential::POTENTIALS;

const NONE: u32 = u32::MAX;

/// A potential and the node it came from.
#[derive(Clone, Copy, Debug)]
struct Node {
    pot: u16,
    parent: u32,
}

/// A set of potentials with the node stored for each.
struct PotSet {
    node: Vec<u32>,
    stamp: Vec<u32>,
    now: u32,
}

impl PotSet {
    fn new() -> PotSet {
        PotSet {
            node: vec![NONE; POTENTIALS],
            stamp: vec![0; POTENTIALS],
            now: 0,
        }
    }

    fn clear(&mut self) {
        self.now = self.now.wrapping_add(1);
        if self.now == 0 {
            self.stamp.fill(0);
            self.now = 1;
        }
    }

    fn has(&self, p: u16) -> bool {
        self.stamp[p as usize] == self.now
    }

    /// Adds `p` stored as `node` unless present; true when added.
    fn add(&mut self, p: u16, node: u32) -> bool {
        if self.has(p) {
            return false;
        }
        self.stamp[p as usize] = self.now;
        self.node[p as usize] = node;
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

/// The best hint so far and its sort key.
struct Best {
    hint: Option<Hint>,
    key: (f64, usize, u8),
}

impl Best {
    fn offer(&mut self, hint: Hint, complexity: usize, kind: u8) {
        let key = (hint.rating, complexity, kind);
        let better = match &self.hint {
            None => true,
            Some(_) => {
                key.0 < self.key.0
                    || (key.0 == self.key.0 && (key.1, key.2) < (self.key.1, self.key.2))
            }
        };
        if better {
            self.hint = Some(hint);
            self.key = key;
        }
    }
}

/// The buffers of the static chain search, reused from step to step.
pub struct Chains {
    nodes: Vec<Node>,
    todo: Vec<u32>,
    next: Vec<u32>,
    pending_on: Vec<u32>,
    pending_off: Vec<u32>,
    found: Vec<u32>,
    seen_on: PotSet,
    seen_off: PotSet,
    counted: PotSet,
    succ: Vec<u16>,
    /// Potentials expanded since the budget was last read.
    pub work: u64,
}

impl Default for Chains {
    fn default() -> Self {
        Chains::new()
    }
}

impl Chains {
    /// Empty buffers.
    pub fn new() -> Chains {
        Chains {
            nodes: Vec::new(),
            todo: Vec::new(),
            next: Vec::new(),
            pending_on: Vec::new(),
            pending_off: Vec::new(),
            found: Vec::new(),
            seen_on: PotSet::new(),
            seen_off: PotSet::new(),
            counted: PotSet::new(),
            succ: Vec::with_capacity(32),
            work: 0,
        }
    }

    fn push(&mut self, pot: u16, parent: u32) -> u32 {
        self.nodes.push(Node { pot, parent });
        (self.nodes.len() - 1) as u32
    }

    /// True when `p` is `node` or one of its ancestors.
    fn on_path(&self, mut node: u32, p: u16) -> bool {
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
            if self.counted.add(nd.pot, 0) {
                n += 1;
            }
            node = nd.parent;
        }
        n
    }

    /// The offs an on potential implies, in Sukaku Explainer's order: the cell's other
    /// values (Y links), then the value's other places in the block, row and column.
    fn on_to_off(&mut self, b: &Board, p: u16, y: bool) {
        self.succ.clear();
        let (cell, v) = (cell_of(p), value_of(p));
        if y {
            let mut others = b.cands[cell] & !(1 << v);
            while others != 0 {
                let w = others.trailing_zeros() as usize;
                others &= others - 1;
                self.succ.push(pot(cell, w, false));
            }
        }
        let mut listed = Cells::EMPTY.with(cell);
        for &r in &CELL_REGIONS[cell] {
            for &c in &REGION_CELLS[r as usize] {
                let c = c as usize;
                if !listed.has(c) && b.cands[c] >> v & 1 != 0 {
                    listed = listed.with(c);
                    self.succ.push(pot(c, v, false));
                }
            }
        }
    }

    /// The ons an off potential implies: the cell's other value when it has two (Y
    /// links), then for block, row and column the value's one other place (X links).
    fn off_to_on(&mut self, b: &Board, p: u16, x: bool, y: bool) {
        self.succ.clear();
        let (cell, v) = (cell_of(p), value_of(p));
        if y && b.cands[cell].count_ones() == 2 {
            let w = (b.cands[cell] & !(1 << v)).trailing_zeros() as usize;
            self.succ.push(pot(cell, w, true));
        }
        if x {
            for &r in &CELL_REGIONS[cell] {
                let mut only = None;
                let mut n = 0;
                for &c in &REGION_CELLS[r as usize] {
                    let c = c as usize;
                    if c != cell && b.cands[c] >> v & 1 != 0 {
                        n += 1;
                        only = Some(c);
                    }
                }
                if let (1, Some(c)) = (n, only) {
                    let q = pot(c, v, true);
                    if !self.succ.contains(&q) {
                        self.succ.push(q);
                    }
                }
            }
        }
    }

    /// Cycles through `start` (on): a layered search, offs re-queued unless already on
    /// their own chain, ons only when new; a cycle is the start reached again after at
    /// least four links. Their end nodes go to `found`.
    fn cycles(&mut self, b: &Board, start: u16, pass: Pass) {
        self.found.clear();
        self.seen_on.clear();
        let s = self.push(start, NONE);
        self.seen_on.add(start, s);
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
                self.on_to_off(b, p, pass.y());
                for j in 0..self.succ.len() {
                    let q = self.succ[j];
                    if !self.on_path(n, q) {
                        let m = self.push(q, n);
                        self.next.push(m);
                    }
                }
            }
            std::mem::swap(&mut self.todo, &mut self.next);
            length += 1;
            self.next.clear();
            for i in 0..self.todo.len() {
                let n = self.todo[i];
                let p = self.nodes[n as usize].pot;
                self.work += 1;
                self.off_to_on(b, p, pass.x(), pass.y());
                for j in 0..self.succ.len() {
                    let q = self.succ[j];
                    if length >= 4 && q == start {
                        let m = self.push(q, n);
                        self.found.push(m);
                    }
                    if !self.seen_on.has(q) {
                        let m = self.push(q, n);
                        self.seen_on.add(q, m);
                        self.next.push(m);
                    }
                }
            }
            std::mem::swap(&mut self.todo, &mut self.next);
        }
    }

    /// Forcing chains from `source` (on or off): everything it implies, ons before offs;
    /// the chains that reach the source's opposite go to `found`.
    fn forcing(&mut self, b: &Board, source: u16, y: bool) {
        self.found.clear();
        self.seen_on.clear();
        self.seen_off.clear();
        self.pending_on.clear();
        self.pending_off.clear();
        let opposite = source ^ 1;
        let s = self.push(source, NONE);
        if is_on(source) {
            self.seen_on.add(source, s);
            self.pending_on.push(s);
        } else {
            self.seen_off.add(source, s);
            self.pending_off.push(s);
        }
        let (mut on_head, mut off_head) = (0, 0);
        let mut reached = false;
        while on_head < self.pending_on.len() || off_head < self.pending_off.len() {
            self.work += 1;
            if on_head < self.pending_on.len() {
                let n = self.pending_on[on_head];
                on_head += 1;
                let p = self.nodes[n as usize].pot;
                self.on_to_off(b, p, y);
                for j in 0..self.succ.len() {
                    let q = self.succ[j];
                    if q == opposite && !reached {
                        reached = true;
                        let m = self.push(q, n);
                        self.found.push(m);
                    }
                    if !self.seen_off.has(q) && !self.on_path(n, q) {
                        let m = self.push(q, n);
                        self.seen_off.add(q, m);
                        self.pending_off.push(m);
                    }
                }
            } else {
                let n = self.pending_off[off_head];
                off_head += 1;
                let p = self.nodes[n as usize].pot;
                self.off_to_on(b, p, true, y);
                for j in 0..self.succ.len() {
                    let q = self.succ[j];
                    if q == opposite && !reached {
                        reached = true;
                        let m = self.push(q, n);
                        self.found.push(m);
                    }
                    if !self.seen_on.has(q) {
                        let m = self.push(q, n);
                        self.seen_on.add(q, m);
                        self.pending_on.push(m);
                    }
                }
            }
        }
    }

    /// The eliminations of the cycle ending at `end`: each value's candidates outside
    /// the cycle that see both an on and an off node of that value.
    fn cycle_hint(&self, b: &Board, end: u32, technique: Technique, rating: f64) -> Hint {
        let mut cells = Cells::EMPTY;
        let mut node = end;
        while node != NONE {
            let n = self.nodes[node as usize];
            cells = cells.with(cell_of(n.pot));
            node = n.parent;
        }
        let mut on_side = [Cells::EMPTY; 9];
        let mut off_side = [Cells::EMPTY; 9];
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
    pub fn best(&mut self, b: &Board) -> Option<Hint> {
        let mut best = Best {
            hint: None,
            key: (0.0, 0, 0),
        };
        for pass in [Pass::X, Pass::Y, Pass::XY] {
            let (cycle_t, chain_t, cycle_base, chain_base, kind) = match pass {
                Pass::X => (Technique::XCycle, Technique::ForcingXChain, 6.5, 6.6, 2),
                Pass::Y => (Technique::YCycle, Technique::ForcingXYChain, 6.5, 7.0, 3),
                Pass::XY => (Technique::XYCycle, Technique::ForcingXYChain, 7.0, 7.0, 4),
            };
            for cell in 0..81 {
                let n = b.cands[cell].count_ones();
                if n < 2 {
                    continue;
                }
                for v in 0..9 {
                    if b.cands[cell] >> v & 1 == 0 {
                        continue;
                    }
                    let start = pot(cell, v, true);
                    self.nodes.clear();
                    if pass.x() || n == 2 {
                        self.cycles(b, start, pass);
                        for i in 0..self.found.len() {
                            let end = self.found[i];
                            let complexity = self.complexity(end);
                            let rating = cycle_base + length_bonus(complexity);
                            let h = self.cycle_hint(b, end, cycle_t, rating);
                            if h.is_worth() {
                                best.offer(h, complexity, kind);
                            }
                        }
                    }
                    if pass.x() {
                        for source in [start, start ^ 1] {
                            self.nodes.clear();
                            self.forcing(b, source, pass.y());
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
                                best.offer(h, complexity, kind);
                            }
                        }
                    }
                }
            }
        }
        best.hint
    }
}
