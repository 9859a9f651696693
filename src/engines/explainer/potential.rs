//! Potentials, the nodes of every chain: a candidate (cell, value) taken as true (on)
//! or false (off), numbered `(cell * 9 + v) * 2 + on` so that a potential and its
//! opposite differ in the last bit; and the rating a chain's length adds.

use super::board::{CellSet, REGION_SETS};

/// The number of potentials.
pub const POTENTIALS: usize = 81 * 9 * 2;

/// The potential of candidate bit `v` of `cell`, on or off.
pub const fn pot(cell: usize, v: usize, on: bool) -> u16 {
    ((cell * 9 + v) * 2 + on as usize) as u16
}

/// Its cell.
pub const fn cell_of(p: u16) -> usize {
    p as usize / 18
}

/// Its candidate bit (value - 1).
pub const fn value_of(p: u16) -> usize {
    p as usize / 2 % 9
}

/// True for an on potential.
pub const fn is_on(p: u16) -> bool {
    p & 1 != 0
}

/// The on potential that `v` off in `cell` implies through region `r`: the region's one
/// other cell that can hold `v` (`holders[v]`), when there is exactly one.
pub fn conjugate(holders: &[CellSet; 9], cell: usize, v: usize, r: usize) -> Option<u16> {
    let others = REGION_SETS[r]
        .and(holders[v])
        .minus(CellSet::EMPTY.with(cell));
    (others.len() == 1).then(|| pot(others.0.trailing_zeros() as usize, v, true))
}

/// The rating added for a chain's complexity (`len = complexity - 2` over thresholds 4,
/// 6, 8, 12, 16, 24, ...: a tenth for each one passed, added up as doubles).
pub fn length_bonus(complexity: usize) -> f64 {
    let len = complexity as i64 - 2;
    let (mut ceil, mut odd, mut added) = (4i64, false, 0.0f64);
    while len > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_potential_and_its_opposite_differ_in_the_last_bit() {
        for cell in [0, 40, 80] {
            for v in [0, 4, 8] {
                let on = pot(cell, v, true);
                assert_eq!(on ^ 1, pot(cell, v, false));
                assert_eq!((cell_of(on), value_of(on), is_on(on)), (cell, v, true));
                assert!(!is_on(on ^ 1));
            }
        }
        assert_eq!(pot(80, 8, true) as usize, POTENTIALS - 1);
    }
}
