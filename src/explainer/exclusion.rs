//! Aligned pair exclusion: two cells sharing at least two bivalue peers (excluders); a
//! combination of their values is impossible when the values clash (equal in cells that
//! see each other) or would empty an excluder. A value of either cell that takes part in
//! no possible combination is removed.

use super::board::{bits, Board, Cells, PEER_SETS};
use super::hint::{Hint, Technique};

/// The first aligned pair exclusion, pairs in `Twomutations` order over the base cells.
pub fn aligned_pair(b: &Board) -> Option<Hint> {
    let mut bivalue = Cells::EMPTY;
    let mut single = Cells::EMPTY;
    for c in 0..81 {
        match b.cands[c].count_ones() {
            1 => single = single.with(c),
            2 => bivalue = bivalue.with(c),
            _ => {}
        }
    }
    let mut base = [0usize; 81];
    let mut n = 0;
    for c in 0..81 {
        if b.cands[c].count_ones() >= 2
            && PEER_SETS[c].and(single).is_empty()
            && !PEER_SETS[c].and(bivalue).is_empty()
        {
            base[n] = c;
            n += 1;
        }
    }
    for j in 1..n {
        for i in 0..j {
            let (c1, c2) = (base[i], base[j]);
            let excluders = PEER_SETS[c1].and(PEER_SETS[c2]).and(bivalue);
            if excluders.len() < 2 {
                continue;
            }
            let sees = PEER_SETS[c1].has(c2);
            let (mut keep1, mut keep2) = (0u16, 0u16);
            for v1 in bits(b.cands[c1]) {
                for v2 in bits(b.cands[c2]) {
                    if v1 == v2 && sees {
                        continue;
                    }
                    let pair = 1 << v1 | 1 << v2;
                    if excluders.iter().any(|e| b.cands[e] & !pair == 0) {
                        continue;
                    }
                    keep1 |= 1 << v1;
                    keep2 |= 1 << v2;
                }
            }
            let mut h = Hint::new(Technique::AlignedPairExclusion, 6.2);
            h.elims[c1] = b.cands[c1] & !keep1;
            h.elims[c2] = b.cands[c2] & !keep2;
            if h.is_worth() {
                return Some(h);
            }
        }
    }
    None
}
