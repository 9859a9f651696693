//! Which potentials a potential reaches over a fixed set of links: the links' strongly
//! connected components (Tarjan's algorithm, without recursion) and, for each
//! component, the set of components reachable from it, worked out in the order the
//! components are completed (every component a component reaches is completed before
//! it).
//!
//! A forcing chain from a source that reaches every potential the source implies,
//! each once, finds the source's opposite exactly when the opposite is reachable; the
//! static chains ask this first and skip the searches that would find nothing.

use super::potential::POTENTIALS;

/// Words in a set of components (at most one component per potential).
const WORDS: usize = POTENTIALS.div_ceil(64);

/// A component id not given yet: the potential is on the search stack.
const OPEN: u16 = u16::MAX;

/// The buffers of one reachability computation, reused from board to board.
pub struct Reach {
    /// Visit number of each potential (0: not visited).
    index: Vec<u32>,
    /// The lowest visit number reachable through the search tree and one back link.
    low: Vec<u32>,
    /// Each visited potential's component.
    component: Vec<u16>,
    stack: Vec<u16>,
    /// The search path: a potential and how many of its links were followed.
    calls: Vec<(u16, u8)>,
    /// For each component, the components it reaches (itself included).
    reaches: Vec<[u64; WORDS]>,
    components: usize,
    /// The potentials of every component, each component's together, in the order
    /// the components were completed; `bounds[id]..bounds[id + 1]` are component `id`'s.
    members: Vec<u16>,
    bounds: Vec<u32>,
}

impl Default for Reach {
    fn default() -> Self {
        Reach::new()
    }
}

impl Reach {
    /// Buffers for every potential, so that computing allocates nothing.
    pub fn new() -> Reach {
        Reach {
            index: vec![0; POTENTIALS],
            low: vec![0; POTENTIALS],
            component: vec![OPEN; POTENTIALS],
            stack: Vec::with_capacity(POTENTIALS),
            calls: Vec::with_capacity(POTENTIALS),
            reaches: vec![[0; WORDS]; POTENTIALS],
            components: 0,
            members: Vec::with_capacity(POTENTIALS),
            bounds: Vec::with_capacity(POTENTIALS + 1),
        }
    }

    /// Works out what each of `nodes` reaches, where the links of potential `p` are
    /// `links[p * stride..][..lengths[p]]`, over the links that lead to a potential
    /// `within` holds (each of `nodes` is; the other links are left out, as if absent).
    pub fn compute(
        &mut self,
        nodes: &[u16],
        links: &[u16],
        lengths: &[u8],
        stride: usize,
        within: impl Fn(u16) -> bool + Copy,
    ) {
        self.index.fill(0);
        self.components = 0;
        self.members.clear();
        self.bounds.clear();
        self.bounds.push(0);
        let mut visits = 0u32;
        for &root in nodes {
            if self.index[root as usize] != 0 {
                continue;
            }
            visits += 1;
            self.open(root, visits);
            while let Some(&(p, k)) = self.calls.last() {
                let pi = p as usize;
                if k < lengths[pi] {
                    self.calls.last_mut().expect("a call").1 += 1;
                    let q = links[pi * stride + k as usize];
                    let qi = q as usize;
                    if !within(q) {
                        continue;
                    }
                    if self.index[qi] == 0 {
                        visits += 1;
                        self.open(q, visits);
                    } else if self.component[qi] == OPEN {
                        self.low[pi] = self.low[pi].min(self.index[qi]);
                    }
                    continue;
                }
                self.calls.pop();
                if let Some(&(parent, _)) = self.calls.last() {
                    let pa = parent as usize;
                    self.low[pa] = self.low[pa].min(self.low[pi]);
                }
                if self.low[pi] == self.index[pi] {
                    self.close(p, links, lengths, stride, within);
                }
            }
        }
    }

    fn open(&mut self, p: u16, visit: u32) {
        self.index[p as usize] = visit;
        self.low[p as usize] = visit;
        self.component[p as usize] = OPEN;
        self.stack.push(p);
        self.calls.push((p, 0));
    }

    /// Makes the potentials above `root` on the stack, `root` included, a component,
    /// and gives it what its links reach.
    fn close(
        &mut self,
        root: u16,
        links: &[u16],
        lengths: &[u8],
        stride: usize,
        within: impl Fn(u16) -> bool,
    ) {
        let id = self.components;
        self.components += 1;
        let from = self
            .stack
            .iter()
            .rposition(|&p| p == root)
            .expect("the root is on the stack");
        for &p in &self.stack[from..] {
            self.component[p as usize] = id as u16;
        }
        let mut set = [0u64; WORDS];
        set[id / 64] |= 1 << (id % 64);
        for &p in &self.stack[from..] {
            let pi = p as usize;
            for &q in &links[pi * stride..pi * stride + lengths[pi] as usize] {
                if !within(q) {
                    continue;
                }
                let c = self.component[q as usize] as usize;
                if c != id {
                    // Completed before this one: it holds all it reaches, components
                    // completed before it (numbered below it) and itself.
                    let words = c / 64 + 1;
                    for (w, r) in set[..words].iter_mut().zip(&self.reaches[c][..words]) {
                        *w |= r;
                    }
                }
            }
        }
        self.reaches[id] = set;
        self.members.extend_from_slice(&self.stack[from..]);
        self.bounds.push(self.members.len() as u32);
        self.stack.truncate(from);
    }

    /// The number of components of the last computation.
    pub fn components(&self) -> usize {
        self.components
    }

    /// The component of `p` (one of the last computation's nodes).
    pub fn component(&self, p: u16) -> usize {
        self.component[p as usize] as usize
    }

    /// The potentials of component `id`.
    pub fn members(&self, id: usize) -> &[u16] {
        &self.members[self.bounds[id] as usize..self.bounds[id + 1] as usize]
    }

    /// True when some potential is reachable from every one of `from` (all among the
    /// last computation's nodes; an empty `from` has none).
    pub fn reach_common(&self, from: impl Iterator<Item = u16>) -> bool {
        let words = self.components.div_ceil(64);
        let mut common = [u64::MAX; WORDS];
        let mut any = false;
        for p in from {
            any = true;
            let row = &self.reaches[self.component[p as usize] as usize];
            for w in 0..words {
                common[w] &= row[w];
            }
        }
        any && common[..words].iter().any(|&w| w != 0)
    }

    /// True when `to` is reachable from `from` (both among the last computation's
    /// nodes).
    pub fn reaches(&self, from: u16, to: u16) -> bool {
        let (a, b) = (
            self.component[from as usize] as usize,
            self.component[to as usize] as usize,
        );
        self.reaches[a][b / 64] >> (b % 64) & 1 != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::explainer::testing::below;

    /// Reachability by plain breadth-first search, for comparison.
    fn reachable(n: usize, edges: &[(u16, u16)], from: u16, to: u16) -> bool {
        let mut seen = vec![false; n];
        let mut queue = vec![from];
        seen[from as usize] = true;
        while let Some(p) = queue.pop() {
            if p == to {
                return true;
            }
            for &(a, b) in edges {
                if a == p && !seen[b as usize] {
                    seen[b as usize] = true;
                    queue.push(b);
                }
            }
        }
        false
    }

    #[test]
    fn reach_matches_a_plain_search_on_random_graphs() {
        const STRIDE: usize = 4;
        let mut next = below(0x2545_f491_4f6c_dd1d);
        let mut reach = Reach::new();
        for round in 0..200 {
            let n = 2 + next(60) as usize;
            let mut links = vec![0u16; n * STRIDE];
            let mut lengths = vec![0u8; n];
            let mut edges = Vec::new();
            for p in 0..n {
                let k = next(if round % 2 == 0 { 2 } else { STRIDE as u64 + 1 }) as usize;
                for j in 0..k {
                    let q = next(n as u64) as u16;
                    links[p * STRIDE + j] = q;
                    edges.push((p as u16, q));
                }
                lengths[p] = k as u8;
            }
            // Nodes listed out of order, as the chains list them by cell.
            let mut nodes: Vec<u16> = (0..n as u16).collect();
            nodes.reverse();
            reach.compute(&nodes, &links, &lengths, STRIDE, |_| true);
            for a in 0..n as u16 {
                for b in 0..n as u16 {
                    assert_eq!(
                        reach.reaches(a, b),
                        reachable(n, &edges, a, b),
                        "round {round}: {a} -> {b} in {edges:?}"
                    );
                }
            }
        }
    }
}
