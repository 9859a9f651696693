//! What the rules that look at one region or one value at a time found nothing in,
//! kept from step to step. A hidden or naked set of a region depends on that region's
//! candidates alone, and a pointing, claiming or fish of a value on that value's
//! places alone: a rule that found nothing need not look again where nothing has
//! changed since. The first hint it finds is the same, as what it skips holds none.

use super::board::{Board, CELL_REGIONS};
use super::Producer;

/// Every region, as bits by region number.
pub const ALL_REGIONS: u32 = (1 << 27) - 1;
/// Every value, as bits by candidate bit.
pub const ALL_VALUES: u32 = (1 << 9) - 1;

/// For each producer, the regions (or values) known to give it nothing on the board
/// last settled.
pub struct Quiet {
    /// Each cell of that board: its candidates, and its value above them.
    seen: [u16; 81],
    regions: [u32; Producer::ORDER.len()],
    values: [u32; Producer::ORDER.len()],
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
            regions: [0; Producer::ORDER.len()],
            values: [0; Producer::ORDER.len()],
        }
    }

    /// Moves to board `b`: the regions of every cell that changed, and the values
    /// whose places changed, are no longer known to be quiet.
    pub fn settle(&mut self, b: &Board) {
        let (mut regions, mut values) = (0u32, 0u32);
        for c in 0..81 {
            let now = b.cands[c] | u16::from(b.value[c]) << 9;
            let was = self.seen[c];
            if now != was {
                let [block, row, col] = CELL_REGIONS[c];
                regions |= 1 << block | 1 << row | 1 << col;
                // The candidates that came or went, and any value placed or lifted
                // (which the fish count).
                values |= u32::from((now ^ was) & 0x1ff);
                for v in [now >> 9, was >> 9] {
                    if (1..=9).contains(&v) {
                        values |= 1 << (v - 1);
                    }
                }
                self.seen[c] = now;
            }
        }
        for m in &mut self.regions {
            *m &= !regions;
        }
        for m in &mut self.values {
            *m &= !values;
        }
    }

    /// The regions known to give `p` nothing.
    pub fn regions(&mut self, p: Producer) -> &mut u32 {
        &mut self.regions[p as usize]
    }

    /// The values known to give `p` nothing.
    pub fn values(&mut self, p: Producer) -> &mut u32 {
        &mut self.values[p as usize]
    }
}
