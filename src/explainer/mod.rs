//! Sukaku Explainer's ratings (ER, EP, ED), reproduced from its documented behaviour
//! (`docs/se-rating.md` in the shared design notes): the same producers in the same
//! order, each giving its first hint in the same emission order, applied one step at a
//! time from the easiest producer again.
//!
//! ER is the hardest step's rating, EP the hardest up to the first placement, ED the
//! first step's. Producers not reproduced yet are skipped; a puzzle that needs one past
//! the last reproduced rule ends with the rating so far marked as a lower bound.

// Cells, regions and values are numbered; loops over those numbers read as the spec does.
#![allow(clippy::needless_range_loop)]

mod basic;
mod board;
mod chains;
mod exclusion;
mod hint;
mod strong;
mod unique;
mod wings;

pub use board::Board;
pub use chains::length_bonus;
pub use hint::{Hint, Technique};

use crate::grid::Grid;

/// A puzzle's ratings, in tenths (`floor((r + 0.05) * 10)` of Sukaku Explainer's double).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rating {
    /// ER: the hardest step.
    pub er: u16,
    /// EP: the hardest step up to and including the first placement.
    pub ep: u16,
    /// ED: the first step.
    pub ed: u16,
    /// The technique of the step that set ER (`None` for a solved grid).
    pub technique: Option<Technique>,
    /// False when the rater stopped before the grid was full (no reproduced rule
    /// applied, or the work budget ran out): the ratings are then lower bounds.
    pub complete: bool,
    /// Steps taken.
    pub steps: u16,
}

/// Tenths of a rating as Sukaku Explainer prints it.
pub fn tenths(r: f64) -> u16 {
    ((r + 0.05) * 10.0).floor() as u16
}

/// Rates puzzles; create one per thread and reuse it (its buffers are kept).
pub struct Rater {
    chains: chains::Chains,
    /// The most chain potentials one puzzle may expand before it is given up on.
    pub budget: u64,
}

impl Default for Rater {
    fn default() -> Self {
        Rater::new()
    }
}

impl Rater {
    /// A rater with the default budget.
    pub fn new() -> Rater {
        Rater {
            chains: chains::Chains::new(),
            budget: 50_000_000,
        }
    }

    /// The next step: the first hint of the first producer that has one.
    pub fn next_hint(&mut self, b: &Board) -> Option<Hint> {
        basic::hidden_single(b)
            .or_else(|| basic::locking(b, true))
            .or_else(|| basic::hidden_set(b, 2, true))
            .or_else(|| basic::naked_single(b))
            .or_else(|| basic::hidden_set(b, 3, true))
            .or_else(|| basic::locking(b, false))
            .or_else(|| basic::naked_set(b, 2))
            .or_else(|| basic::fish(b, 2))
            .or_else(|| basic::hidden_set(b, 2, false))
            .or_else(|| basic::naked_set(b, 3))
            .or_else(|| basic::fish(b, 3))
            .or_else(|| basic::hidden_set(b, 3, false))
            .or_else(|| strong::strong_links(b, 2))
            .or_else(|| basic::xy_wing(b, false))
            .or_else(|| basic::xy_wing(b, true))
            .or_else(|| unique::unique_loops(b))
            .or_else(|| basic::naked_set(b, 4))
            .or_else(|| basic::fish(b, 4))
            .or_else(|| basic::hidden_set(b, 4, false))
            .or_else(|| strong::strong_links(b, 3))
            .or_else(|| wings::als_wing(b, 3))
            .or_else(|| unique::bug(b))
            .or_else(|| strong::strong_links(b, 4))
            .or_else(|| wings::als_wing(b, 4))
            .or_else(|| exclusion::aligned_pair(b))
            .or_else(|| wings::als_wing(b, 5))
            .or_else(|| self.chains.best(b))
            .or_else(|| wings::als_wing(b, 6))
    }

    /// Rates a puzzle from its givens.
    pub fn rate(&mut self, puzzle: &Grid) -> Rating {
        let mut b = Board::new(puzzle);
        let (mut er, mut ep, mut ed) = (0.0f64, 0.0f64, 0.0f64);
        let mut technique = None;
        let mut steps = 0u16;
        let mut complete = true;
        self.chains.work = 0;
        while !b.is_full() {
            if self.chains.work > self.budget {
                complete = false;
                break;
            }
            let Some(h) = self.next_hint(&b) else {
                complete = false;
                break;
            };
            h.apply(&mut b);
            steps = steps.saturating_add(1);
            if h.rating > er {
                er = h.rating;
                technique = Some(h.technique);
            }
            if ep == 0.0 {
                if ed == 0.0 {
                    ed = er;
                }
                if h.place.is_some() {
                    ep = er;
                }
            }
        }
        Rating {
            er: tenths(er),
            ep: tenths(ep),
            ed: tenths(ed),
            technique,
            complete,
            steps,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_bonus_steps_at_the_documented_thresholds() {
        let tenths_of = |c| (length_bonus(c) * 10.0 + 0.5) as u32;
        let expect = [
            (6, 0),
            (7, 1),
            (8, 1),
            (9, 2),
            (10, 2),
            (11, 3),
            (14, 3),
            (15, 4),
        ];
        for (c, t) in expect {
            assert_eq!(tenths_of(c), t, "complexity {c}");
        }
        assert_eq!(tenths_of(18), 4);
        assert_eq!(tenths_of(19), 5);
        assert_eq!(tenths_of(26), 5);
        assert_eq!(tenths_of(27), 6);
        assert_eq!(tenths_of(35), 7);
    }
}
