//! The hints a nested rule found on a reduced board, kept for the next time a nested
//! propagation stalls on the same board.
//!
//! What a rule finds inside a nested chain depends on the reduced board alone (its
//! candidates, the rule, and for level 4 the nesting limit): the board the step starts
//! from only lets the search skip chains that remove nothing. A propagation from one
//! source stalls on the same reduced board from step to step as long as the steps
//! between removed nothing it reaches, so most stalls repeat one seen a step or two
//! before (on record 41 of the nested-chains sample: 23,311 static searches on 6,358
//! distinct boards). Nothing is allocated after [`NestedCache::new`]: the boards, the
//! hints and their links go into buffers of fixed size, and when one is full the
//! whole cache starts again empty.
//!
//! ```text
//! slots     open addressing by a hash of the board: an entry's number, or EMPTY
//! entries   [board | rule | nesting | range of `found`]
//! found     the hints kept by Every::sort, in its order, links rebased on `links`
//! ```

use super::board::Pencilmarks;
use super::nested::{mix, Every, Found};

/// Boards kept at most.
const ENTRIES: usize = 2048;
/// Hash slots (a power of two, twice the entries).
const SLOTS: usize = 2 * ENTRIES;
/// Hints kept at most, over all boards.
const FOUND: usize = 4096;
/// Links of those hints kept at most.
const LINKS: usize = 64 * 1024;
/// A slot with no entry.
const EMPTY: u32 = u32::MAX;

/// One board's hints.
struct Entry {
    cands: [u16; 81],
    rule: u8,
    nesting: u8,
    found: (u32, u32),
}

/// The hints of the nested rules by reduced board; see the module notes.
pub struct NestedCache {
    slots: Vec<u32>,
    entries: Vec<Entry>,
    found: Vec<Found>,
    links: Vec<(u16, u8)>,
    /// Searches answered from the cache.
    pub hits: u64,
}

impl Default for NestedCache {
    fn default() -> Self {
        NestedCache::new()
    }
}

impl NestedCache {
    /// An empty cache with all its buffers (about 1.5 MB).
    pub fn new() -> NestedCache {
        NestedCache {
            slots: vec![EMPTY; SLOTS],
            entries: Vec::with_capacity(ENTRIES),
            found: Vec::with_capacity(FOUND),
            links: Vec::with_capacity(LINKS),
            hits: 0,
        }
    }

    /// Forgets every board.
    pub fn clear(&mut self) {
        if !self.entries.is_empty() {
            self.slots.fill(EMPTY);
            self.entries.clear();
            self.found.clear();
            self.links.clear();
        }
    }

    /// The slot of board `cands` for `rule` and `nesting`: the one holding it, or the
    /// empty one where it would go.
    fn slot(&self, cands: &[u16; 81], rule: u8, nesting: u8) -> usize {
        let mut h = mix(0xcbf2_9ce4_8422_2325, (rule as u64) << 8 | nesting as u64);
        for pair in cands.chunks_exact(3) {
            h = mix(
                h,
                pair[0] as u64 | (pair[1] as u64) << 16 | (pair[2] as u64) << 32,
            );
        }
        let mut at = (h ^ h >> 29) as usize & (SLOTS - 1);
        loop {
            let e = self.slots[at];
            if e == EMPTY {
                return at;
            }
            let entry = &self.entries[e as usize];
            if entry.rule == rule && entry.nesting == nesting && entry.cands == *cands {
                return at;
            }
            at = (at + 1) & (SLOTS - 1);
        }
    }

    /// Fills `every` (cleared for `b`) with the hints kept for `b`, in their order,
    /// when the cache holds them; false when it does not.
    pub fn restore(&mut self, b: &Pencilmarks, rule: u8, nesting: u8, every: &mut Every) -> bool {
        let e = self.slots[self.slot(&b.cands, rule, nesting)];
        if e == EMPTY {
            return false;
        }
        let (from, to) = self.entries[e as usize].found;
        for f in &self.found[from as usize..to as usize] {
            let (a, z) = f.links;
            every.push_kept(f, &self.links[a as usize..z as usize]);
        }
        self.hits += 1;
        true
    }

    /// Keeps the hints `every` holds (sorted) for `b`.
    pub fn store(&mut self, b: &Pencilmarks, rule: u8, nesting: u8, every: &Every) {
        let links: usize = (0..every.len())
            .map(|k| every.links_of(every.get(k)).len())
            .sum();
        if every.len() > FOUND || links > LINKS {
            return;
        }
        if self.entries.len() == ENTRIES
            || self.found.len() + every.len() > FOUND
            || self.links.len() + links > LINKS
        {
            self.clear();
        }
        let at = self.slot(&b.cands, rule, nesting);
        if self.slots[at] != EMPTY {
            return;
        }
        let from = self.found.len() as u32;
        for k in 0..every.len() {
            let mut f = *every.get(k);
            let start = self.links.len() as u32;
            self.links.extend_from_slice(every.links_of(&f));
            f.links = (start, self.links.len() as u32);
            self.found.push(f);
        }
        self.slots[at] = self.entries.len() as u32;
        self.entries.push(Entry {
            cands: b.cands,
            rule,
            nesting,
            found: (from, self.found.len() as u32),
        });
    }
}
