//! What changed since each rule last found nothing, kept from step to step. A hint
//! that was not there before must rest on something that changed: a hidden or naked
//! set of a region on that region's candidates, a pointing, claiming or fish of a
//! value on that value's places, a wing on its own cells' candidates (removals
//! elsewhere only take eliminations away). So a rule that found nothing need not look
//! again where nothing it rests on has changed, and the first (or lowest) hint it finds
//! is the same, as what it skips holds none.

use super::board::{CellSet, Pencilmarks, REGION_SETS};
use super::Producer;

/// The cells that changed (candidates, or a value placed), and the values whose places
/// changed.
#[derive(Clone, Copy, Default)]
pub struct Change {
    /// The cells.
    pub cells: CellSet,
    /// The values, as bits by candidate.
    pub values: u32,
}

impl Change {
    /// Everything: what a rule that has not found nothing yet must look at.
    pub const ALL: Change = Change {
        cells: CellSet::ALL,
        values: (1 << 9) - 1,
    };

    /// The regions holding no changed cell, as bits by region number.
    pub fn quiet_regions(&self) -> u32 {
        (0..27).fold(0, |m, r| {
            m | u32::from(REGION_SETS[r].and(self.cells).is_empty()) << r
        })
    }

    /// The values whose places did not change.
    pub fn quiet_values(&self) -> u32 {
        !self.values & 0x1ff
    }
}

/// For each producer, what changed since it last found nothing (`None` when it has not,
/// or found a hint since).
pub struct Quiet {
    /// Each cell of the board last settled: its candidates, and its value above them.
    seen: [u16; 81],
    since: [Option<Change>; Producer::ORDER.len()],
}

impl Default for Quiet {
    fn default() -> Self {
        Quiet::new()
    }
}

impl Quiet {
    /// Nothing known.
    pub fn new() -> Quiet {
        Quiet {
            seen: [u16::MAX; 81],
            since: [None; Producer::ORDER.len()],
        }
    }

    /// Moves to board `b`, adding what changed to what each producer must look at. A
    /// board that is not the last one with candidates removed or values placed (the
    /// next puzzle) makes everything new: a wing's eliminations only shrink while
    /// candidates go, not when they come back.
    pub fn settle(&mut self, b: &Pencilmarks) {
        let mut step = Change::default();
        let mut onward = true;
        for c in 0..81 {
            let now = b.cands[c] | u16::from(b.value[c]) << 9;
            let was = self.seen[c];
            if now != was {
                // Candidates only go, and a value only comes.
                onward &= now & 0x1ff & !was == 0 && (was >> 9 == 0 || was >> 9 == now >> 9);
                step.cells = step.cells.with(c);
                // The candidates that came or went, and any value placed or lifted
                // (which the fish count).
                step.values |= u32::from((now ^ was) & 0x1ff);
                for v in [now >> 9, was >> 9] {
                    if (1..=9).contains(&v) {
                        step.values |= 1 << (v - 1);
                    }
                }
                self.seen[c] = now;
            }
        }
        if !onward {
            self.since = [None; Producer::ORDER.len()];
            return;
        }
        if step.cells.is_empty() {
            return;
        }
        for since in self.since.iter_mut().flatten() {
            since.cells = since.cells.or(step.cells);
            since.values |= step.values;
        }
    }

    /// What `p` must look at: what changed since it last found nothing, or everything.
    pub fn change(&self, p: Producer) -> Change {
        self.since[p as usize].unwrap_or(Change::ALL)
    }

    /// Records that `p` ran on the board last settled and found a hint or not.
    pub fn ran(&mut self, p: Producer, found: bool) {
        self.since[p as usize] = (!found).then(Change::default);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_names_its_cells_regions_and_values() {
        let mut b =
            Pencilmarks::new(&crate::values::grid::Grid::parse(&[b'0'; 81]).expect("empty grid"));
        let mut q = Quiet::new();
        q.settle(&b);
        assert_eq!(q.change(Producer::XWing).cells, Change::ALL.cells);
        q.ran(Producer::XWing, false);
        q.ran(Producer::NakedPair, true);
        b.cands[40] &= !(1 << 4);
        b.place(0, 3);
        q.settle(&b);
        let c = q.change(Producer::XWing);
        // Cell 0 and its 20 peers lose a 3 (bit 2) or take it; cell 40 loses its 5.
        assert_eq!(c.cells.len(), 22);
        assert!(c.cells.has(0) && c.cells.has(40) && c.cells.has(80 - 8 * 9));
        assert_eq!(c.values, 0x1ff, "cell 0 lost all its candidates");
        // Regions untouched: none of blocks 4 (cell 40), 0, rows 0 and 4, columns 0 and 4.
        let quiet = c.quiet_regions();
        for r in [0, 4, 9, 13, 18, 22] {
            assert_eq!(quiet >> r & 1, 0, "region {r}");
        }
        assert_eq!(quiet >> 8 & 1, 1, "block 8");
        assert_eq!(q.change(Producer::NakedPair).cells, Change::ALL.cells);
        // Candidates coming back (the next puzzle): nothing is known.
        q.ran(Producer::XWing, false);
        b.cands[40] |= 1 << 4;
        q.settle(&b);
        assert_eq!(q.change(Producer::XWing).cells, Change::ALL.cells);
    }
}
