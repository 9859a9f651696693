//! Aligned pair exclusion: two cells sharing at least two bivalue peers (excluders); a
//! combination of their values is impossible when the values clash (equal in cells that
//! see each other) or would empty an excluder. A value of either cell that takes part in
//! no possible combination is removed.

use super::board::{bits, CellSet, Pencilmarks, PEER_SETS};
use super::hint::{Hint, HintKind};

/// The first aligned pair exclusion, pairs in `Twomutations` order over the base cells.
///
/// `changed`: the cells changed since the last board this found nothing on, whose base
/// cells `was_base` holds (set here to this board's). A pair's test reads only its two
/// cells and its excluders (the bivalue cells seeing both: a cell of more values now
/// had more there too, so it was no excluder there either), so a pair of cells that
/// were both base cells there, where none of those changed, found nothing there and
/// finds nothing now: it is not tested.
pub fn aligned_pair(b: &Pencilmarks, changed: CellSet, was_base: &mut CellSet) -> Option<Hint> {
    let mut bivalue = CellSet::EMPTY;
    let mut single = CellSet::EMPTY;
    for c in 0..81 {
        match b.cands[c].count_ones() {
            1 => single = single.with(c),
            2 => bivalue = bivalue.with(c),
            _ => {}
        }
    }
    let mut base = CellSet::EMPTY;
    for c in 0..81 {
        if b.cands[c].count_ones() >= 2
            && PEER_SETS[c].and(single).is_empty()
            && !PEER_SETS[c].and(bivalue).is_empty()
        {
            base = base.with(c);
        }
    }
    let old_base = std::mem::replace(was_base, base);
    // The base cells that were base cells there and did not change.
    let kept = old_base.and(base).minus(changed);
    for c2 in base.iter() {
        // The lower base cells that see two or more of c2's bivalue peers, ascending.
        let (mut once, mut twice) = (CellSet::EMPTY, CellSet::EMPTY);
        for e in PEER_SETS[c2].and(bivalue).iter() {
            twice = twice.or(once.and(PEER_SETS[e]));
            once = once.or(PEER_SETS[e]);
        }
        for c1 in twice.and(base).and(CellSet((1u128 << c2) - 1)).iter() {
            let excluders = PEER_SETS[c1].and(PEER_SETS[c2]).and(bivalue);
            if kept.has(c1) && kept.has(c2) && excluders.and(changed).is_empty() {
                continue;
            }
            let sees = PEER_SETS[c1].has(c2);
            // A bivalue excluder empties when the two cells take its two values:
            // for each value, the values its excluders pair it with.
            let mut partners = [0u16; 9];
            for e in excluders.iter() {
                let pair = b.cands[e];
                for v in bits(pair) {
                    partners[v] |= pair & !(1 << v);
                }
            }
            let (mut keep1, mut keep2) = (0u16, 0u16);
            for v1 in bits(b.cands[c1]) {
                for v2 in bits(b.cands[c2]) {
                    if (v1 == v2 && sees) || partners[v1] >> v2 & 1 != 0 {
                        continue;
                    }
                    keep1 |= 1 << v1;
                    keep2 |= 1 << v2;
                }
            }
            if keep1 != b.cands[c1] || keep2 != b.cands[c2] {
                let mut h = Hint::new(HintKind::AlignedPairExclusion, 6.2);
                h.elims[c1] = b.cands[c1] & !keep1;
                h.elims[c2] = b.cands[c2] & !keep2;
                return Some(h);
            }
        }
    }
    None
}

/// The first aligned triplet exclusion: for each pair of base cells in `Twomutations`
/// order, a third base cell among the two cells' excluders (the first cell's, then the
/// second's, ascending), the three sharing at least two excluders of two or three
/// candidates. The cells need not see each other.
///
/// Each set of three cells is tested the first time it comes only: the test is the same
/// in any order of the cells, so a set that comes again, having found nothing, finds
/// nothing again.
///
/// `changed`: the cells changed since the last board this found nothing on, whose base
/// cells `was_base` holds (set here to this board's). A set's test reads only its three
/// cells and their common excluders (the cells of two or three values seeing all
/// three: a cell of more values now had more there too, so it was none there either);
/// a set of cells that were all base cells there came there too (what else lets a set
/// come is read from those cells), so where none of them changed it found nothing
/// there and finds nothing now: it is not tested.
pub fn aligned_triplet(b: &Pencilmarks, changed: CellSet, was_base: &mut CellSet) -> Option<Hint> {
    let mut excluders = CellSet::EMPTY;
    let mut single = CellSet::EMPTY;
    for c in 0..81 {
        match b.cands[c].count_ones() {
            1 => single = single.with(c),
            2 | 3 => excluders = excluders.with(c),
            _ => {}
        }
    }
    let mut base = [0usize; 81];
    // Each base cell's place in `base`.
    let mut index = [0usize; 81];
    let mut is_base = CellSet::EMPTY;
    let mut n = 0;
    for c in 0..81 {
        if b.cands[c].count_ones() >= 2
            && PEER_SETS[c].and(single).is_empty()
            && !PEER_SETS[c].and(excluders).is_empty()
        {
            base[n] = c;
            index[c] = n;
            is_base = is_base.with(c);
            n += 1;
        }
    }
    let old_base = std::mem::replace(was_base, is_base);
    // The cells a set of three must hold, or have seeing all three, to be tested.
    let fresh = changed.or(CellSet::ALL.minus(old_base));
    let sees = |a: usize, z: usize| PEER_SETS[a].has(z);
    // Whether the cells of base[i], base[j] and a third, at base[k], came before: as the
    // pair (i, k) or (k, i) with base[j] third, or as (k, j) with base[i] third. The
    // third of a pair is an excluder seeing one of the pair.
    let third = |c: usize, x: usize, y: usize| excluders.has(c) && (sees(c, x) || sees(c, y));
    let came = |i: usize, j: usize, k: usize| {
        let (c0, c1, c2) = (base[i], base[j], base[k]);
        k < j && (third(c1, c0, c2) || (k < i && third(c0, c1, c2)))
    };
    for j in 1..n {
        for i in 0..j {
            let (c0, c1) = (base[i], base[j]);
            let both = PEER_SETS[c0].and(PEER_SETS[c1]);
            let pair = both.and(excluders);
            if pair.len() < 2 {
                continue;
            }
            // Where the two cells and their common excluders are as they were, only a
            // third cell that is not makes a set worth testing.
            let two = CellSet::EMPTY.with(c0).with(c1);
            let thirds = if two.and(fresh).or(pair.and(changed)).is_empty() {
                fresh
            } else {
                CellSet::ALL
            };
            let not_pair = |c: usize| c != c0 && c != c1;
            // A third cell needs two excluders in common with the pair: it sees two or
            // more of the pair's.
            let (mut once, mut twice) = (CellSet::EMPTY, CellSet::EMPTY);
            for e in pair.iter() {
                twice = twice.or(once.and(PEER_SETS[e]));
                once = once.or(PEER_SETS[e]);
            }
            let first = PEER_SETS[c0].and(excluders).and(is_base);
            let second = PEER_SETS[c1].and(excluders).and(is_base).minus(first);
            let seeing = thirds.and(twice);
            let (first, second) = (first.and(seeing), second.and(seeing));
            for c2 in first.iter().chain(second.iter()).filter(|&c| not_pair(c)) {
                if came(i, j, index[c2]) {
                    continue;
                }
                let common = pair.and(PEER_SETS[c2]);
                let cells = two.with(c2);
                if old_base.and(cells) == cells && cells.or(common).and(changed).is_empty() {
                    continue;
                }
                if let Some(h) = triplet(b, [c0, c1, c2], common) {
                    return Some(h);
                }
            }
        }
    }
    None
}

/// The values of three cells that take part in no possible combination, as a hint.
fn triplet(b: &Pencilmarks, cells: [usize; 3], common: CellSet) -> Option<Hint> {
    let [c0, c1, c2] = cells;
    let sees = |a: usize, z: usize| PEER_SETS[a].has(z);
    let (s01, s02, s12) = (sees(c0, c1), sees(c0, c2), sees(c1, c2));
    // Only an excluder of three values or fewer can be left empty by three values.
    let mut excluders = [0u16; 81];
    let mut count = 0;
    for e in common.iter() {
        if b.cands[e].count_ones() <= 3 {
            excluders[count] = b.cands[e];
            count += 1;
        }
    }
    let excluders = &excluders[..count];
    let all = [b.cands[c0], b.cands[c1], b.cands[c2]];
    let mut keep = [0u16; 3];
    for v0 in bits(b.cands[c0]) {
        'pairs: for v1 in bits(b.cands[c1]) {
            if v0 == v1 && s01 {
                continue;
            }
            // The third cell's values that, with these two, leave every excluder a
            // value and clash with neither.
            let two = 1u16 << v0 | 1 << v1;
            let mut third = b.cands[c2];
            if s02 {
                third &= !(1 << v0);
            }
            if s12 {
                third &= !(1 << v1);
            }
            for &m in excluders {
                let rest = m & !two;
                if rest == 0 {
                    continue 'pairs;
                }
                if rest & (rest - 1) == 0 {
                    third &= !rest;
                }
            }
            if third == 0 {
                continue;
            }
            keep[0] |= 1 << v0;
            keep[1] |= 1 << v1;
            keep[2] |= third;
            if keep == all {
                // Every value takes part in some combination: nothing to remove.
                return None;
            }
        }
    }
    if keep == all {
        return None;
    }
    let mut h = Hint::new(HintKind::AlignedTripletExclusion, 7.5);
    for (k, &c) in cells.iter().enumerate() {
        h.elims[c] |= b.cands[c] & !keep[k];
    }
    Some(h)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::explainer::quiet::Quiet;
    use crate::engines::explainer::testing::{on_rating_paths, outcome, HintEffect};
    use crate::engines::explainer::Producer;

    /// Aligned pair exclusion by a plain scan: the same base cells and order, each
    /// combination of values tested against every excluder's candidates.
    fn plain_aligned_pair(b: &Pencilmarks) -> Option<Hint> {
        let count = |c: usize| b.cands[c].count_ones();
        let base: Vec<usize> = (0..81)
            .filter(|&c| {
                count(c) >= 2
                    && PEER_SETS[c].iter().all(|p| count(p) != 1)
                    && PEER_SETS[c].iter().any(|p| count(p) == 2)
            })
            .collect();
        for j in 1..base.len() {
            for i in 0..j {
                let (c1, c2) = (base[i], base[j]);
                let excluders: Vec<usize> = (0..81)
                    .filter(|&e| PEER_SETS[c1].has(e) && PEER_SETS[c2].has(e) && count(e) == 2)
                    .collect();
                if excluders.len() < 2 {
                    continue;
                }
                let (mut keep1, mut keep2) = (0u16, 0u16);
                for v1 in bits(b.cands[c1]) {
                    for v2 in bits(b.cands[c2]) {
                        let clash = v1 == v2 && PEER_SETS[c1].has(c2);
                        let emptied = excluders
                            .iter()
                            .any(|&e| b.cands[e] & !(1 << v1 | 1 << v2) == 0);
                        if !clash && !emptied {
                            keep1 |= 1 << v1;
                            keep2 |= 1 << v2;
                        }
                    }
                }
                let mut h = Hint::new(HintKind::AlignedPairExclusion, 6.2);
                h.elims[c1] = b.cands[c1] & !keep1;
                h.elims[c2] = b.cands[c2] & !keep2;
                if h.is_worth() {
                    return Some(h);
                }
            }
        }
        None
    }

    /// Aligned triplet exclusion by a plain scan: the same base cells, pairs and third
    /// cells in the same order, every order of a set of cells tested, and each
    /// combination of values tested against every common excluder of two or three
    /// candidates.
    fn plain_aligned_triplet(b: &Pencilmarks) -> Option<Hint> {
        let count = |c: usize| b.cands[c].count_ones();
        let excluder = |c: usize| count(c) == 2 || count(c) == 3;
        let sees = |a: usize, z: usize| PEER_SETS[a].has(z);
        let base: Vec<usize> = (0..81)
            .filter(|&c| {
                count(c) >= 2
                    && PEER_SETS[c].iter().all(|p| count(p) != 1)
                    && PEER_SETS[c].iter().any(excluder)
            })
            .collect();
        for j in 1..base.len() {
            for i in 0..j {
                let (c0, c1) = (base[i], base[j]);
                let pair = (0..81).filter(|&e| sees(c0, e) && sees(c1, e) && excluder(e));
                if pair.count() < 2 {
                    continue;
                }
                let third = |c: usize, x: usize| base.contains(&c) && excluder(c) && sees(x, c);
                let first: Vec<usize> = (0..81).filter(|&c| third(c, c0)).collect();
                let second = (0..81).filter(|&c| third(c, c1) && !first.contains(&c));
                let thirds: Vec<usize> = first.iter().copied().chain(second).collect();
                for c2 in thirds.into_iter().filter(|&c| c != c0 && c != c1) {
                    let cells = [c0, c1, c2];
                    let common: Vec<usize> = (0..81)
                        .filter(|&e| cells.iter().all(|&c| sees(c, e)) && excluder(e))
                        .collect();
                    if common.len() < 2 {
                        continue;
                    }
                    let mut keep = [0u16; 3];
                    for v0 in bits(b.cands[c0]) {
                        for v1 in bits(b.cands[c1]) {
                            for v2 in bits(b.cands[c2]) {
                                let clash = (v0 == v1 && sees(c0, c1))
                                    || (v0 == v2 && sees(c0, c2))
                                    || (v1 == v2 && sees(c1, c2));
                                let values = 1 << v0 | 1 << v1 | 1 << v2;
                                let emptied = common.iter().any(|&e| b.cands[e] & !values == 0);
                                if !clash && !emptied {
                                    keep[0] |= 1 << v0;
                                    keep[1] |= 1 << v1;
                                    keep[2] |= 1 << v2;
                                }
                            }
                        }
                    }
                    let mut h = Hint::new(HintKind::AlignedTripletExclusion, 7.5);
                    for (k, &c) in cells.iter().enumerate() {
                        h.elims[c] |= b.cands[c] & !keep[k];
                    }
                    if h.is_worth() {
                        return Some(h);
                    }
                }
            }
        }
        None
    }

    /// An exclusion rule run as the rater runs it, board after board: passing over
    /// what did not change since the last board it found nothing on.
    struct Kept {
        producer: Producer,
        rule: fn(&Pencilmarks, CellSet, &mut CellSet) -> Option<Hint>,
        quiet: Quiet,
        base: CellSet,
        /// Boards where only part of the board was looked at.
        passed_over: usize,
    }

    impl Kept {
        fn new(
            producer: Producer,
            rule: fn(&Pencilmarks, CellSet, &mut CellSet) -> Option<Hint>,
        ) -> Kept {
            Kept {
                producer,
                rule,
                quiet: Quiet::new(),
                base: CellSet::EMPTY,
                passed_over: 0,
            }
        }

        /// Checks the rule on `b`, looked at afresh and as kept, against `expected`.
        fn check(&mut self, puzzle: &str, b: &Pencilmarks, expected: Option<HintEffect>) {
            let mut base = CellSet::EMPTY;
            assert_eq!(
                outcome((self.rule)(b, CellSet::ALL, &mut base)),
                expected,
                "{puzzle}"
            );
            self.quiet.settle(b);
            let changed = self.quiet.change(self.producer).cells;
            self.passed_over += usize::from(changed != CellSet::ALL);
            let kept = outcome((self.rule)(b, changed, &mut self.base));
            assert_eq!(kept, expected, "{puzzle}, kept");
            self.quiet.ran(self.producer, kept.is_some());
        }
    }

    #[test]
    fn aligned_triplets_match_a_plain_scan_along_rating_paths() {
        // Looked at afresh at each board, and as the rater does, passing over the sets
        // of cells that did not change since the last board it found nothing on.
        let (mut found, mut boards) = (0, 0);
        let mut kept = Kept::new(Producer::AlignedTriplet, aligned_triplet);
        for (name, take) in [
            ("se-reference-expert.txt", 30),
            ("se-reference-extreme.txt", 10),
        ] {
            boards += on_rating_paths(name, take, |puzzle, b| {
                let expected = outcome(plain_aligned_triplet(b));
                found += usize::from(expected.is_some());
                kept.check(puzzle, b, expected);
            });
        }
        let passed_over = kept.passed_over;
        assert!(
            boards > 2000 && found > 500 && passed_over > 1000,
            "{boards} boards, {found} exclusions, {passed_over} looked at in part"
        );
    }

    #[test]
    fn aligned_pairs_match_a_plain_scan_along_rating_paths() {
        // Looked at afresh at each board, and as the rater does, passing over the pairs
        // of cells that did not change since the last board it found nothing on.
        let mut found = 0;
        let mut kept = Kept::new(Producer::AlignedPair, aligned_pair);
        let boards = on_rating_paths("se-reference-expert.txt", 60, |puzzle, b| {
            let expected = outcome(plain_aligned_pair(b));
            found += usize::from(expected.is_some());
            kept.check(puzzle, b, expected);
        });
        let passed_over = kept.passed_over;
        assert!(
            boards > 1000 && found > 20 && passed_over > 500,
            "{boards} boards, {found} exclusions, {passed_over} looked at in part"
        );
    }
}
