//! The fast engine for every geometry: candidate bitmasks in a fixed-size state per
//! geometry (const generics: `SIDE` symbols, `CELLS` cells), naked and hidden singles to a
//! fixed point, branching on a cell with the fewest candidates, counting to a limit.
//!
//! The state stack (one state per search depth) and the unit and peer tables are made
//! once per engine; a search copies states within the stack and allocates nothing.

use crate::values::board::Board;
use crate::values::geometry::{Geometry, GeometryError, UnitKind, Variant};
use crate::values::search::{BoardClash, BoardCount};

/// One search state.
#[derive(Clone, Copy)]
struct MaskNode<const CELLS: usize> {
    /// Candidate values per cell, bit `v - 1` for value `v`.
    cand: [u32; CELLS],
    /// Placed value per cell, 0 when not yet placed.
    value: [u8; CELLS],
    /// Cells not yet placed.
    left: u16,
    /// The cell being branched on at this depth (cell branching).
    branch: u16,
    /// Cell branching: its candidates not yet tried. Place branching: which of `pair`
    /// (bits 0 and 1) are not yet tried.
    untried: u32,
    /// Place branching: the only two cells of a unit that can hold value `pair_bit`.
    pair: [u16; 2],
    /// The value of place branching, 0 for cell branching.
    pair_bit: u32,
}

impl<const CELLS: usize> MaskNode<CELLS> {
    const EMPTY: Self = MaskNode {
        cand: [0; CELLS],
        value: [0; CELLS],
        left: 0,
        branch: 0,
        untried: 0,
        pair: [0; 2],
        pair_bit: 0,
    };
}

/// Unit and peer tables of one geometry.
struct Tables<const SIDE: usize> {
    units: Box<[[u16; SIDE]]>,
    /// Each unit's kind and 1-based number, for clash messages.
    labels: Box<[(UnitKind, u8)]>,
    /// `peers[peer_start[c]..peer_start[c + 1]]`: cells sharing a unit with `c`.
    peer_start: Box<[u32]>,
    peers: Box<[u16]>,
}

/// The engine for `SIDE`x`SIDE` grids of `CELLS` (= `SIDE`²) cells.
pub struct MaskSolver<const SIDE: usize, const CELLS: usize> {
    tables: Tables<SIDE>,
    full: u32,
    stack: Box<[MaskNode<CELLS>]>,
    queue: Box<[u16]>,
    queued: usize,
}

impl<const SIDE: usize, const CELLS: usize> MaskSolver<SIDE, CELLS> {
    /// An engine for `variant` (which must exist at this size).
    pub fn new(variant: Variant) -> Result<Self, GeometryError> {
        assert_eq!(SIDE * SIDE, CELLS, "CELLS must be SIDE squared");
        let geometry = Geometry::new(SIDE, variant)?;
        let units: Vec<[u16; SIDE]> = geometry
            .units()
            .iter()
            .map(|u| std::array::from_fn(|k| u.cells[k]))
            .collect();
        let mut peer_start = Vec::with_capacity(CELLS + 1);
        let mut peers = Vec::new();
        for cell in 0..CELLS {
            peer_start.push(peers.len() as u32);
            peers.extend_from_slice(geometry.peers(cell));
        }
        peer_start.push(peers.len() as u32);
        Ok(MaskSolver {
            tables: Tables {
                units: units.into_boxed_slice(),
                labels: geometry
                    .units()
                    .iter()
                    .map(|u| (u.kind, u.number as u8))
                    .collect(),
                peer_start: peer_start.into_boxed_slice(),
                peers: peers.into_boxed_slice(),
            },
            full: if SIDE == 32 {
                u32::MAX
            } else {
                (1u32 << SIDE) - 1
            },
            stack: vec![MaskNode::EMPTY; CELLS + 1].into_boxed_slice(),
            queue: vec![0u16; CELLS].into_boxed_slice(),
            queued: 0,
        })
    }

    /// Counts the solutions of `board` up to `limit` (at least 1). Givens that clash
    /// count as no solution.
    pub fn count(&mut self, board: &Board, limit: u64) -> BoardCount {
        self.count_within(board, limit, u64::MAX)
    }

    /// [`MaskSolver::count`], stopping (with [`BoardCount::spent`] set) once the search
    /// has tried `budget` branches.
    pub fn count_within(&mut self, board: &Board, limit: u64, budget: u64) -> BoardCount {
        let limit = limit.max(1);
        let mut result = BoardCount {
            solutions: 0,
            first: None,
            guesses: 0,
            spent: false,
        };
        let ok = self.start(board);
        if !ok {
            return result;
        }
        let mut depth = 0usize;
        if self.stack[0].left > 0 {
            self.select(0);
        }
        loop {
            if self.stack[depth].left == 0 {
                result.solutions += 1;
                if result.first.is_none() {
                    result.first = Some(self.board_of(depth));
                }
                if result.solutions >= limit || depth == 0 {
                    break;
                }
                depth -= 1;
                continue;
            }
            let untried = self.stack[depth].untried;
            if untried == 0 {
                if depth == 0 {
                    break;
                }
                depth -= 1;
                continue;
            }
            let low = untried & untried.wrapping_neg();
            self.stack[depth].untried ^= low;
            let node = &self.stack[depth];
            let (cell, bit) = if node.pair_bit == 0 {
                (usize::from(node.branch), low)
            } else {
                let k = low.trailing_zeros() as usize;
                (usize::from(node.pair[k]), node.pair_bit)
            };
            if result.guesses >= budget {
                result.spent = true;
                break;
            }
            result.guesses += 1;
            let (done, rest) = self.stack.split_at_mut(depth + 1);
            let child = &mut rest[0];
            *child = done[depth];
            self.queued = 0;
            if place(
                &self.tables,
                child,
                &mut self.queue,
                &mut self.queued,
                cell,
                bit,
            ) && propagate(
                &self.tables,
                self.full,
                child,
                &mut self.queue,
                &mut self.queued,
            ) {
                depth += 1;
                if self.stack[depth].left > 0 {
                    self.select(depth);
                }
            }
        }
        result
    }

    /// Sets up depth 0 from the givens and propagates; false on a contradiction.
    fn start(&mut self, board: &Board) -> bool {
        let root = &mut self.stack[0];
        root.cand = [self.full; CELLS];
        root.value = [0; CELLS];
        root.left = CELLS as u16;
        root.untried = 0;
        self.queued = 0;
        for (cell, &v) in board.values().iter().enumerate().take(CELLS) {
            if v != 0 {
                let bit = 1u32 << (v - 1);
                if !place(
                    &self.tables,
                    root,
                    &mut self.queue,
                    &mut self.queued,
                    cell,
                    bit,
                ) {
                    return false;
                }
            }
        }
        propagate(
            &self.tables,
            self.full,
            root,
            &mut self.queue,
            &mut self.queued,
        )
    }

    /// Chooses how to branch at `depth`: on an open cell with the fewest candidates, or,
    /// when every cell has more than two, on the two places a unit has for a value.
    fn select(&mut self, depth: usize) {
        let units = &self.tables.units;
        let node = &mut self.stack[depth];
        node.pair_bit = 0;
        let (mut best, mut best_count) = (0usize, u32::MAX);
        for (cell, (&v, &cand)) in node.value.iter().zip(&node.cand).enumerate() {
            if v == 0 {
                let n = cand.count_ones();
                if n < best_count {
                    (best, best_count) = (cell, n);
                    if n <= 2 {
                        break;
                    }
                }
            }
        }
        node.branch = best as u16;
        node.untried = node.cand[best];
        if best_count > 2 {
            for unit in units.iter() {
                let (mut once, mut twice, mut thrice) = (0u32, 0u32, 0u32);
                for &c in unit {
                    let m = node.cand[usize::from(c)];
                    thrice |= twice & m;
                    twice |= once & m;
                    once |= m;
                }
                let two = twice & !thrice;
                if two != 0 {
                    let bit = two & two.wrapping_neg();
                    let mut cells = unit
                        .iter()
                        .filter(|&&c| node.cand[usize::from(c)] & bit != 0);
                    if let (Some(&a), Some(&b)) = (cells.next(), cells.next()) {
                        node.pair = [a, b];
                        node.pair_bit = bit;
                        node.untried = 0b11;
                        return;
                    }
                }
            }
        }
    }

    /// The first unit holding a value twice: its kind, number and the value.
    pub fn clash(&self, board: &Board) -> Option<BoardClash> {
        for (u, unit) in self.tables.units.iter().enumerate() {
            let mut seen = 0u32;
            for &c in unit {
                let v = board.get(usize::from(c));
                if v != 0 {
                    if seen & (1 << v) != 0 {
                        let (kind, number) = self.tables.labels[u];
                        return Some(BoardClash {
                            kind,
                            number,
                            value: v,
                        });
                    }
                    seen |= 1 << v;
                }
            }
        }
        None
    }

    fn board_of(&self, depth: usize) -> Board {
        let mut board = Board::empty(SIDE);
        for (cell, &v) in self.stack[depth].value.iter().enumerate() {
            board.set(cell, v);
        }
        board
    }
}

/// Places value `bit` in `cell` and removes it from the peers; cells left with one
/// candidate are queued. False on a contradiction.
#[inline]
fn place<const SIDE: usize, const CELLS: usize>(
    tables: &Tables<SIDE>,
    node: &mut MaskNode<CELLS>,
    queue: &mut [u16],
    queued: &mut usize,
    cell: usize,
    bit: u32,
) -> bool {
    if node.cand[cell] & bit == 0 {
        return false;
    }
    if node.value[cell] != 0 {
        return true;
    }
    node.cand[cell] = bit;
    node.value[cell] = bit.trailing_zeros() as u8 + 1;
    node.left -= 1;
    let (from, to) = (
        tables.peer_start[cell] as usize,
        tables.peer_start[cell + 1] as usize,
    );
    for &p in &tables.peers[from..to] {
        let p = usize::from(p);
        let c = node.cand[p];
        if c & bit != 0 {
            let rest = c & !bit;
            if rest == 0 {
                return false;
            }
            node.cand[p] = rest;
            if rest & (rest - 1) == 0 && *queued < queue.len() {
                queue[*queued] = p as u16;
                *queued += 1;
            }
        }
    }
    true
}

/// Naked and hidden singles to a fixed point. False on a contradiction.
fn propagate<const SIDE: usize, const CELLS: usize>(
    tables: &Tables<SIDE>,
    full: u32,
    node: &mut MaskNode<CELLS>,
    queue: &mut [u16],
    queued: &mut usize,
) -> bool {
    loop {
        while *queued > 0 {
            *queued -= 1;
            let p = usize::from(queue[*queued]);
            if node.value[p] == 0 && !place(tables, node, queue, queued, p, node.cand[p]) {
                return false;
            }
        }
        if node.left == 0 {
            return true;
        }
        let mut progress = false;
        for unit in tables.units.iter() {
            let (mut once, mut twice) = (0u32, 0u32);
            for &c in unit {
                let m = node.cand[usize::from(c)];
                twice |= once & m;
                once |= m;
            }
            if once != full {
                return false;
            }
            let mut singles = once & !twice;
            while singles != 0 {
                let bit = singles & singles.wrapping_neg();
                singles ^= bit;
                if let Some(&c) = unit.iter().find(|&&c| node.cand[usize::from(c)] & bit != 0) {
                    let c = usize::from(c);
                    if node.value[c] == 0 {
                        if !place(tables, node, queue, queued, c, bit) {
                            return false;
                        }
                        progress = true;
                    }
                }
            }
        }
        if progress || *queued > 0 {
            continue;
        }
        match locked_candidates::<SIDE, CELLS>(node, queue, queued) {
            None => return false,
            Some(false) => return true,
            Some(true) => {}
        }
    }
}

/// Box-line intersections (locked candidates): a value whose places in a box all lie in
/// one row (column) leaves the rest of that row (column), and a value whose places in a
/// row (column) all lie in one box leaves the rest of that box. `None` on a
/// contradiction, else whether a candidate was removed.
fn locked_candidates<const SIDE: usize, const CELLS: usize>(
    node: &mut MaskNode<CELLS>,
    queue: &mut [u16],
    queued: &mut usize,
) -> Option<bool> {
    let n = (2..=5).find(|n| n * n == SIDE).unwrap_or(3);
    let mut changed = false;
    // Segment masks: row r's cells in box column b at [r * n + b]; column c's cells in
    // box row b at [SIDE * n + c * n + b].
    let mut seg = [0u32; 2 * 25 * 5];
    for (cell, &m) in node.cand.iter().enumerate() {
        let (r, c) = (cell / SIDE, cell % SIDE);
        seg[r * n + c / n] |= m;
        seg[SIDE * n + c * n + r / n] |= m;
    }
    // `line` 0: rows, 1: columns. The cell at position k of segment b of line i.
    let at = |line: usize, i: usize, b: usize, k: usize| {
        if line == 0 {
            i * SIDE + b * n + k
        } else {
            (b * n + k) * SIDE + i
        }
    };
    for line in 0..2 {
        let base = line * SIDE * n;
        for i in 0..SIDE {
            let segs = &seg[base + i * n..base + i * n + n];
            let row_of = |b: usize| segs[b];
            for b in 0..n {
                let others_in_line = (0..n).filter(|&x| x != b).fold(0, |m, x| m | row_of(x));
                // Lines of the same box: i's box band, the other lines in it.
                let band = i / n * n;
                let others_in_box = (band..band + n)
                    .filter(|&j| j != i)
                    .fold(0, |m, j| m | seg[base + j * n + b]);
                // Pointing: confined to this line within the box -> out of the line.
                let pointing = segs[b] & !others_in_box;
                // Claiming: confined to this box within the line -> out of the box.
                let claiming = segs[b] & !others_in_line;
                if pointing & others_in_line != 0 {
                    for x in (0..n).filter(|&x| x != b) {
                        for k in 0..n {
                            match eliminate(node, queue, queued, at(line, i, x, k), pointing) {
                                None => return None,
                                Some(c) => changed |= c,
                            }
                        }
                    }
                }
                if claiming & others_in_box != 0 {
                    for j in (band..band + n).filter(|&j| j != i) {
                        for k in 0..n {
                            match eliminate(node, queue, queued, at(line, j, b, k), claiming) {
                                None => return None,
                                Some(c) => changed |= c,
                            }
                        }
                    }
                }
                if changed {
                    // Masks are stale now: let singles run first.
                    return Some(true);
                }
            }
        }
    }
    Some(changed)
}

/// Removes `mask` from an open cell's candidates; `None` when none are left.
#[inline]
fn eliminate<const CELLS: usize>(
    node: &mut MaskNode<CELLS>,
    queue: &mut [u16],
    queued: &mut usize,
    cell: usize,
    mask: u32,
) -> Option<bool> {
    let c = node.cand[cell];
    if node.value[cell] != 0 || c & mask == 0 {
        return Some(false);
    }
    let rest = c & !mask;
    if rest == 0 {
        return None;
    }
    node.cand[cell] = rest;
    if rest & (rest - 1) == 0 && *queued < queue.len() {
        queue[*queued] = cell as u16;
        *queued += 1;
    }
    Some(true)
}

/// The fast engine for any geometry of one variant: one [`MaskSolver`] per size, each
/// made when the first board of that size arrives and kept.
pub struct VariantSolver {
    variant: Variant,
    /// Branches each [`VariantSolver::count`] may try.
    budget: u64,
    s4: Option<Box<MaskSolver<4, 16>>>,
    s9: Option<Box<MaskSolver<9, 81>>>,
    s16: Option<Box<MaskSolver<16, 256>>>,
    s25: Option<Box<MaskSolver<25, 625>>>,
}

impl VariantSolver {
    /// An engine for boards of `variant`.
    pub fn new(variant: Variant) -> VariantSolver {
        VariantSolver {
            variant,
            budget: crate::values::search::Budget::DEFAULT.get(),
            s4: None,
            s9: None,
            s16: None,
            s25: None,
        }
    }

    /// The rules.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Sets how many branches each later [`VariantSolver::count`] may try.
    pub fn set_budget(&mut self, budget: crate::values::search::Budget) {
        self.budget = budget.get();
    }

    /// Solutions of `board` counted up to `limit`, or the clash that leaves it none;
    /// `Err` when the variant does not exist at the board's size (windoku beyond 9x9).
    /// A search that spends the engine's budget says so in [`BoardCount::spent`].
    pub fn count(
        &mut self,
        board: &Board,
        limit: u64,
    ) -> Result<Result<BoardCount, BoardClash>, GeometryError> {
        self.count_spending(board, limit, self.budget)
    }

    /// [`VariantSolver::count`] with a budget of its own, giving up (`Ok(Ok(None))`) once
    /// the search has tried `budget` branches.
    pub fn count_within(
        &mut self,
        board: &Board,
        limit: u64,
        budget: u64,
    ) -> Result<Result<Option<BoardCount>, BoardClash>, GeometryError> {
        Ok(self
            .count_spending(board, limit, budget)?
            .map(|count| (!count.spent).then_some(count)))
    }

    fn count_spending(
        &mut self,
        board: &Board,
        limit: u64,
        budget: u64,
    ) -> Result<Result<BoardCount, BoardClash>, GeometryError> {
        fn get<const S: usize, const C: usize>(
            slot: &mut Option<Box<MaskSolver<S, C>>>,
            variant: Variant,
        ) -> Result<&mut MaskSolver<S, C>, GeometryError> {
            if slot.is_none() {
                *slot = Some(Box::new(MaskSolver::new(variant)?));
            }
            Ok(slot.as_deref_mut().expect("just made"))
        }
        fn run<const S: usize, const C: usize>(
            engine: &mut MaskSolver<S, C>,
            board: &Board,
            limit: u64,
            budget: u64,
        ) -> Result<BoardCount, BoardClash> {
            match engine.clash(board) {
                Some(clash) => Err(clash),
                None => Ok(engine.count_within(board, limit, budget)),
            }
        }
        let v = self.variant;
        Ok(match board.side() {
            4 => run(get(&mut self.s4, v)?, board, limit, budget),
            9 => run(get(&mut self.s9, v)?, board, limit, budget),
            16 => run(get(&mut self.s16, v)?, board, limit, budget),
            25 => run(get(&mut self.s25, v)?, board, limit, budget),
            other => return Err(GeometryError::Size(other)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_empty_4x4_grid_has_288_solutions() {
        let mut s = MaskSolver::<4, 16>::new(Variant::Classic).unwrap();
        let count = s.count(&Board::empty(4), 10_000);
        assert_eq!(count.solutions, 288);
        let first = count.first.unwrap();
        assert!(first.is_solution(&Geometry::new(4, Variant::Classic).unwrap()));
        // With both diagonals: 48.
        let mut x = MaskSolver::<4, 16>::new(Variant::Diagonal).unwrap();
        assert_eq!(x.count(&Board::empty(4), 10_000).solutions, 48);
    }

    #[test]
    fn classic_9x9_agrees_with_the_band_solver() {
        use crate::{Grid, Solver};
        let puzzle =
            b"....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3";
        let grid = Grid::parse(puzzle).unwrap();
        let mut s = MaskSolver::<9, 81>::new(Variant::Classic).unwrap();
        let count = s.count(&Board::from_grid(&grid), 2);
        assert_eq!(count.solutions, 1);
        let expected = Solver::new().count(&grid, 1).first.unwrap();
        assert_eq!(count.first.unwrap(), Board::from_grid(&expected));
        // A clash has no solution.
        let mut clash = Board::from_grid(&grid);
        clash.set(1, 4);
        assert_eq!(s.count(&clash, 2).solutions, 0);
    }

    #[test]
    fn the_empty_25x25_grid_is_filled_without_trouble() {
        let mut s = VariantSolver::new(Variant::Diagonal);
        for side in [16, 25] {
            let count = s.count(&Board::empty(side), 2).unwrap().unwrap();
            assert_eq!(count.solutions, 2, "{side}");
            let g = Geometry::new(side, Variant::Diagonal).unwrap();
            assert!(count.first.unwrap().is_solution(&g));
        }
        let mut w = VariantSolver::new(Variant::Windoku);
        assert!(w.count(&Board::empty(16), 2).is_err());
        // A clash in window 4 (rows 6-8, columns 6-8), found as such.
        let mut b = Board::empty(9);
        b.set(5 * 9 + 5, 3);
        b.set(7 * 9 + 7, 3);
        let clash = w.count(&b, 2).unwrap().unwrap_err();
        assert_eq!(
            (clash.kind, clash.number, clash.value),
            (UnitKind::Window, 4, 3)
        );
    }
}
