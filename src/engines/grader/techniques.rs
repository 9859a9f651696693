//! Human solving techniques on the 9x9 pencil-mark board, each one application at a
//! time: a technique returns true when it placed a digit or removed a candidate. The
//! ones that hold on any geometry (singles, locked candidates, subsets) are `pencil`'s;
//! fish, wings, unique rectangles and BUG, 9x9 only, are here.
//!
//! Ratings follow Sukaku Explainer's scale (tenths), so that a puzzle's rating reads as
//! theirs does: the hardest step it needed.

// Units and cells are addressed by number throughout (the tables are indexed by them),
// so loops over index ranges read better here than iterator chains.
#![allow(clippy::needless_range_loop)]

use super::candidates::{sees, Candidates, ALL, CELL_UNITS, UNITS};
use super::pencil;
use crate::values::grid::CELLS;

/// The techniques, easiest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Technique {
    /// The only place for a digit in a box.
    HiddenSingleBox,
    /// The only place for a digit in a row or column.
    HiddenSingleLine,
    /// The only digit left for a cell.
    NakedSingle,
    /// A box's candidates for a digit on one line clear the rest of the line.
    Pointing,
    /// A line's candidates for a digit in one box clear the rest of the box.
    Claiming,
    /// Two cells of a unit holding the same two candidates.
    NakedPair,
    /// A digit confined to the same two columns in two rows (or rows in columns).
    XWing,
    /// Two digits confined to the same two cells of a unit.
    HiddenPair,
    /// Three cells of a unit holding three candidates between them.
    NakedTriple,
    /// The three-line fish.
    Swordfish,
    /// Three digits confined to the same three cells of a unit.
    HiddenTriple,
    /// A bivalue pivot and two bivalue pincers.
    XyWing,
    /// A trivalue pivot and two bivalue pincers.
    XyzWing,
    /// Four cells of two rows, two columns and two boxes that would otherwise hold the
    /// same two digits, a pattern with two solutions: it may not be completed (types 1
    /// and 2; these steps assume the puzzle is unique, as Sukaku Explainer's do).
    UniqueRectangle,
    /// Four cells of a unit holding four candidates between them.
    NakedQuad,
    /// The four-line fish.
    Jellyfish,
    /// Four digits confined to the same four cells of a unit.
    HiddenQuad,
    /// Bivalue universal grave plus one: every empty cell has two candidates but one,
    /// which must take the digit that would otherwise appear three times in its units.
    Bug,
    /// A candidate whose placement breaks its own digit along the strong links of the
    /// position (a single-digit forcing chain, X-chain), rated by length.
    XChain,
    /// A candidate whose placement breaks the board through bivalue cells (an XY-chain),
    /// rated by length.
    XyChain,
    /// A candidate whose placement breaks the board along strong links of both kinds (a
    /// static forcing chain), rated by length.
    ForcingChain,
    /// A candidate whose placement breaks its own digit once every consequence is
    /// followed, not only strong links (Nishio), rated by length.
    Nishio,
    /// A candidate whose placement breaks the board once every consequence of singles
    /// is followed (a dynamic forcing chain), rated by length.
    DynamicChain,
    /// A candidate whose placement breaks the board only with locked candidates in the
    /// chain too (nested), rated by length.
    NestedChain,
    /// Nothing above applies: the rest needs trial and error (solved by search).
    Guess,
}

/// How many techniques there are.
pub const COUNT: usize = 25;

impl Technique {
    /// Every technique, easiest first.
    pub const ALL: [Technique; COUNT] = [
        Technique::HiddenSingleBox,
        Technique::HiddenSingleLine,
        Technique::NakedSingle,
        Technique::Pointing,
        Technique::Claiming,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::UniqueRectangle,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::Bug,
        Technique::XChain,
        Technique::XyChain,
        Technique::ForcingChain,
        Technique::Nishio,
        Technique::DynamicChain,
        Technique::NestedChain,
        Technique::Guess,
    ];

    /// True for the contradiction chains (not the pattern techniques, not guessing).
    pub fn is_chain(self) -> bool {
        (Technique::XChain..=Technique::NestedChain).contains(&self)
    }

    /// Short name used in the `techniques` column.
    pub fn name(self) -> &'static str {
        NAMES[self as usize]
    }

    /// Rating in tenths, Sukaku Explainer's scale (chains get more with length).
    pub fn rating(self) -> u16 {
        match self {
            Technique::HiddenSingleBox => 12,
            Technique::HiddenSingleLine => 15,
            Technique::NakedSingle => 23,
            Technique::Pointing => 26,
            Technique::Claiming => 28,
            Technique::NakedPair => 30,
            Technique::XWing => 32,
            Technique::HiddenPair => 34,
            Technique::NakedTriple => 36,
            Technique::Swordfish => 38,
            Technique::HiddenTriple => 40,
            Technique::XyWing => 42,
            Technique::XyzWing => 44,
            Technique::UniqueRectangle => 45,
            Technique::NakedQuad => 50,
            Technique::Jellyfish => 52,
            Technique::HiddenQuad => 54,
            Technique::Bug => 56,
            Technique::XChain => 65,
            Technique::XyChain => 66,
            Technique::ForcingChain => 71,
            Technique::Nishio => 76,
            Technique::DynamicChain => 85,
            Technique::NestedChain => 90,
            Technique::Guess => 95,
        }
    }
}

/// Names of the techniques, in [`Technique::ALL`] order.
pub const NAMES: [&str; COUNT] = [
    "hidden-single-box",
    "hidden-single-line",
    "naked-single",
    "pointing",
    "claiming",
    "naked-pair",
    "x-wing",
    "hidden-pair",
    "naked-triple",
    "swordfish",
    "hidden-triple",
    "xy-wing",
    "xyz-wing",
    "unique-rectangle",
    "naked-quad",
    "jellyfish",
    "hidden-quad",
    "bug",
    "x-chain",
    "xy-chain",
    "forcing-chain",
    "nishio",
    "dynamic-chain",
    "nested-chain",
    "guess",
];

/// Applies `technique` once; true on progress. The chain and guess steps are the
/// grader's, not applied here.
pub fn apply(board: &mut Candidates, technique: Technique) -> bool {
    match technique {
        Technique::HiddenSingleBox => pencil::hidden_single(board, true),
        Technique::HiddenSingleLine => pencil::hidden_single(board, false),
        Technique::NakedSingle => pencil::naked_single(board),
        Technique::Pointing => pencil::locked(board, true),
        Technique::Claiming => pencil::locked(board, false),
        Technique::NakedPair => pencil::naked_subset(board, 2),
        Technique::XWing => fish(board, 2),
        Technique::HiddenPair => pencil::hidden_subset(board, 2),
        Technique::NakedTriple => pencil::naked_subset(board, 3),
        Technique::Swordfish => fish(board, 3),
        Technique::HiddenTriple => pencil::hidden_subset(board, 3),
        Technique::XyWing => xy_wing(board),
        Technique::XyzWing => xyz_wing(board),
        Technique::UniqueRectangle => unique_rectangle(board),
        Technique::NakedQuad => pencil::naked_subset(board, 4),
        Technique::Jellyfish => fish(board, 4),
        Technique::HiddenQuad => pencil::hidden_subset(board, 4),
        Technique::Bug => bug(board),
        Technique::XChain
        | Technique::XyChain
        | Technique::ForcingChain
        | Technique::Nishio
        | Technique::DynamicChain
        | Technique::NestedChain
        | Technique::Guess => false,
    }
}

/// Basic fish of size `n` (X-wing, swordfish, jellyfish), rows then columns as base.
fn fish(board: &mut Candidates, n: u32) -> bool {
    for d in 0..9 {
        let bit = 1u16 << d;
        for (base, cover) in [(0usize, 9usize), (9, 0)] {
            let mut lines = [0u16; 9];
            let mut open = 0u16;
            for (i, line) in lines.iter_mut().enumerate() {
                *line = board.positions(base + i, bit);
                if line.count_ones() >= 2 && line.count_ones() <= n {
                    open |= 1 << i;
                }
            }
            let found = pencil::subsets(u32::from(open), n, &mut |chosen| {
                let covers = (0..9)
                    .filter(|i| chosen >> i & 1 == 1)
                    .fold(0, |m, i| m | lines[i]);
                if covers.count_ones() != n {
                    return false;
                }
                let mut progress = false;
                for j in (0..9).filter(|j| covers >> j & 1 == 1) {
                    for (i, &c) in UNITS[cover + j].iter().enumerate() {
                        if chosen >> i & 1 == 0 {
                            progress |= board.eliminate(c as usize, bit);
                        }
                    }
                }
                progress
            });
            if found {
                return true;
            }
        }
    }
    false
}

/// Pivot {x,y}, pincers {x,z} and {y,z} seen by the pivot: z leaves every cell that
/// sees both pincers.
fn xy_wing(board: &mut Candidates) -> bool {
    for pivot in 0..CELLS {
        let pm = board.candidates[pivot];
        if pm.count_ones() != 2 {
            continue;
        }
        for &a in &super::candidates::PEERS[pivot] {
            let am = board.candidates[a as usize];
            if am.count_ones() != 2 || am == pm || (am & pm).count_ones() != 1 {
                continue;
            }
            let z = am & !pm;
            let want = (pm & !am) | z;
            for &b in &super::candidates::PEERS[pivot] {
                if b <= a || board.candidates[b as usize] != want {
                    continue;
                }
                let mut progress = false;
                for cell in 0..CELLS {
                    if cell != pivot && sees(cell, a as usize) && sees(cell, b as usize) {
                        progress |= board.eliminate(cell, z);
                    }
                }
                if progress {
                    return true;
                }
            }
        }
    }
    false
}

/// Pivot {x,y,z}, pincers {x,z} and {y,z} seen by the pivot: z leaves every cell that
/// sees all three.
fn xyz_wing(board: &mut Candidates) -> bool {
    for pivot in 0..CELLS {
        let pm = board.candidates[pivot];
        if pm.count_ones() != 3 {
            continue;
        }
        for &a in &super::candidates::PEERS[pivot] {
            let am = board.candidates[a as usize];
            if am.count_ones() != 2 || am & pm != am {
                continue;
            }
            for &b in &super::candidates::PEERS[pivot] {
                let bm = board.candidates[b as usize];
                if b <= a || bm.count_ones() != 2 || bm & pm != bm || bm == am {
                    continue;
                }
                let z = am & bm;
                let mut progress = false;
                for cell in 0..CELLS {
                    let seen =
                        sees(cell, pivot) && sees(cell, a as usize) && sees(cell, b as usize);
                    if seen {
                        progress |= board.eliminate(cell, z);
                    }
                }
                if progress {
                    return true;
                }
            }
        }
    }
    false
}

/// Unique rectangles, types 1 and 2: corners in two rows, two columns and two boxes,
/// all holding digits {a, b}. Type 1: three corners are exactly {a, b}, so the fourth
/// loses a and b. Type 2: two corners are {a, b} and two are {a, b, c}, so c leaves
/// every cell that sees both of those.
fn unique_rectangle(board: &mut Candidates) -> bool {
    for r1 in 0..9 {
        for r2 in r1 + 1..9 {
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    let same_band = r1 / 3 == r2 / 3;
                    let same_stack = c1 / 3 == c2 / 3;
                    if same_band == same_stack {
                        continue;
                    }
                    let corners = [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2];
                    if rectangle(board, corners) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

fn rectangle(board: &mut Candidates, corners: [usize; 4]) -> bool {
    let masks = corners.map(|c| board.candidates[c]);
    if masks.contains(&0) {
        return false;
    }
    let common = masks.iter().fold(ALL, |m, &x| m & x);
    if common.count_ones() < 2 {
        return false;
    }
    for a in 0..9 {
        for b in a + 1..9 {
            let ab = 1u16 << a | 1 << b;
            if common & ab != ab {
                continue;
            }
            let exact = masks.iter().filter(|&&m| m == ab).count();
            if exact == 3 {
                let fourth = corners[masks.iter().position(|&m| m != ab).unwrap_or(0)];
                if board.eliminate(fourth, ab) {
                    return true;
                }
            } else if exact == 2 {
                let extra: [usize; 2] = {
                    let mut e = [0usize; 2];
                    let mut n = 0;
                    for (k, &m) in masks.iter().enumerate() {
                        if m != ab && n < 2 {
                            e[n] = corners[k];
                            n += 1;
                        }
                    }
                    e
                };
                if rectangle_type_4(board, extra, ab) {
                    return true;
                }
                let (m1, m2) = (board.candidates[extra[0]], board.candidates[extra[1]]);
                let c = m1 & !ab;
                if m1 == m2 && c.count_ones() == 1 {
                    let mut progress = false;
                    for cell in 0..CELLS {
                        if sees(cell, extra[0]) && sees(cell, extra[1]) {
                            progress |= board.eliminate(cell, c);
                        }
                    }
                    if progress {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// Unique rectangle type 4: the two roof cells (holding {a, b} and more) share a unit
/// in which one of a, b has no other place; the other digit then leaves both roofs.
fn rectangle_type_4(board: &mut Candidates, roof: [usize; 2], ab: u16) -> bool {
    for unit in 0..27 {
        let cells = &UNITS[unit];
        if !cells.contains(&(roof[0] as u8)) || !cells.contains(&(roof[1] as u8)) {
            continue;
        }
        let mut digits = ab;
        while digits != 0 {
            let bit = digits & digits.wrapping_neg();
            digits &= !bit;
            if board.positions(unit, bit).count_ones() == 2 {
                let other = ab & !bit;
                let removed = board.eliminate(roof[0], other) | board.eliminate(roof[1], other);
                if removed {
                    return true;
                }
            }
        }
    }
    false
}

/// BUG: every empty cell bivalue except a few, whose extra candidates would otherwise
/// appear three times in a unit. Type 1 (one such cell): the extra digit goes there.
/// Type 2 (several cells, one same extra digit): that digit leaves every cell that sees
/// them all.
fn bug(board: &mut Candidates) -> bool {
    // A cell's extra digits: those appearing three times among its row's candidates.
    let mut extra_cells = [0usize; 8];
    let mut extras = [0u16; 8];
    let mut n = 0;
    for cell in 0..CELLS {
        match board.candidates[cell].count_ones() {
            0 | 2 => continue,
            _ if n == extra_cells.len() => return false,
            _ => {}
        }
        let row = CELL_UNITS[cell][0] as usize;
        let mut extra = 0u16;
        for d in 0..9 {
            let bit = 1u16 << d;
            if board.candidates[cell] & bit != 0 && board.positions(row, bit).count_ones() == 3 {
                extra |= bit;
            }
        }
        if extra.count_ones() != board.candidates[cell].count_ones() - 2 {
            return false;
        }
        extra_cells[n] = cell;
        extras[n] = extra;
        n += 1;
    }
    match n {
        0 => false,
        1 if extras[0].count_ones() == 1 => {
            board.place(extra_cells[0], extras[0].trailing_zeros() as u8 + 1);
            true
        }
        _ if extras[..n].iter().all(|&e| e == extras[0]) && extras[0].count_ones() == 1 => {
            let mut progress = false;
            for cell in 0..CELLS {
                if extra_cells[..n].iter().all(|&e| sees(cell, e)) {
                    progress |= board.eliminate(cell, extras[0]);
                }
            }
            progress
        }
        _ => false,
    }
}
