//! `--top N`: the N highest-rated rows of a run, kept as they pass the ordered writer
//! and written in input order at its end.
//!
//! The rows wait in a heap whose root is the weakest kept row (the lowest rating, and of
//! equal ratings the later record), so a new row either replaces the root in place (its
//! buffer reused) or is dropped: at most N rows are held, whatever the input's size.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// One kept row.
#[derive(Debug)]
struct Kept {
    /// Its rating, in tenths.
    rating: u64,
    /// Its record's index in the input.
    index: u64,
    /// The row as written.
    row: Vec<u8>,
}

impl Kept {
    /// True when a row rated `rating` of a later record would push this one out.
    fn loses_to(&self, rating: u64) -> bool {
        rating > self.rating
    }
}

// The heap's greatest element is the weakest row: the lowest rating, then the latest
// record (of equal ratings the earlier record is kept).
impl Ord for Kept {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .rating
            .cmp(&self.rating)
            .then(self.index.cmp(&other.index))
    }
}

impl PartialOrd for Kept {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Kept {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Kept {}

/// The highest-rated rows seen so far, at most `limit` of them.
#[derive(Debug)]
pub struct TopRows {
    limit: usize,
    heap: BinaryHeap<Kept>,
    /// Rows offered.
    offered: u64,
}

impl TopRows {
    /// Keeps the `limit` highest-rated rows.
    pub fn new(limit: std::num::NonZeroU64) -> TopRows {
        TopRows {
            limit: usize::try_from(limit.get()).unwrap_or(usize::MAX),
            heap: BinaryHeap::new(),
            offered: 0,
        }
    }

    /// Offers the row of record `index` (records come in input order), rated `rating`.
    pub fn offer(&mut self, rating: u64, index: u64, row: &[u8]) {
        self.offered += 1;
        if self.heap.len() < self.limit {
            self.heap.push(Kept {
                rating,
                index,
                row: row.to_vec(),
            });
        } else if let Some(mut weakest) = self.heap.peek_mut() {
            if weakest.loses_to(rating) {
                // Sifted back into place when `weakest` is dropped.
                weakest.rating = rating;
                weakest.index = index;
                weakest.row.clear();
                weakest.row.extend_from_slice(row);
            }
        }
    }

    /// Rows offered so far.
    pub fn offered(&self) -> u64 {
        self.offered
    }

    /// The kept rows, in input order.
    pub fn into_rows(self) -> impl Iterator<Item = Vec<u8>> {
        let mut kept = self.heap.into_vec();
        kept.sort_unstable_by_key(|k| k.index);
        kept.into_iter().map(|k| k.row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `n` highest of `ratings` (ties to the earlier), in input order, the simple way.
    fn by_sorting(ratings: &[u64], n: usize) -> Vec<u64> {
        let mut order: Vec<usize> = (0..ratings.len()).collect();
        order.sort_by(|&a, &b| ratings[b].cmp(&ratings[a]).then(a.cmp(&b)));
        order.truncate(n);
        order.sort_unstable();
        order.into_iter().map(|i| i as u64).collect()
    }

    #[test]
    fn keeps_the_highest_in_input_order_ties_to_the_earlier() {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        for n in 1..12usize {
            for len in [0usize, 1, 5, 11, 40] {
                let ratings: Vec<u64> = (0..len)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        state % 6
                    })
                    .collect();
                let mut top = TopRows::new(std::num::NonZeroU64::new(n as u64).unwrap());
                for (i, &r) in ratings.iter().enumerate() {
                    top.offer(r, i as u64, format!("{i}\n").as_bytes());
                }
                assert_eq!(top.offered(), len as u64);
                let got: Vec<u64> = top
                    .into_rows()
                    .map(|row| String::from_utf8(row).unwrap().trim().parse().unwrap())
                    .collect();
                assert_eq!(got, by_sorting(&ratings, n), "{ratings:?} top {n}");
            }
        }
    }
}
