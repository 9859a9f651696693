//! A step: what it removes or places, its rating and the technique that found it.

use super::board::Pencilmarks;

/// Declares [`HintKind`] and its list [`HintKind::ALL`] from one list of names.
macro_rules! techniques {
    ($($name:ident),* $(,)?) => {
        /// The techniques of Sukaku Explainer's default set, in producer order where they
        /// have one; the name is the one its hints carry.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[allow(missing_docs)]
        pub enum HintKind {
            $($name),*
        }

        impl HintKind {
            /// Every technique, in the order of the enum.
            pub const ALL: [HintKind; [$(stringify!($name)),*].len()] =
                [$(HintKind::$name),*];
        }
    };
}

techniques! {
    FullHouse,
    HiddenSingle,
    DirectPointing,
    DirectClaiming,
    DirectHiddenPair,
    NakedSingle,
    DirectHiddenTriplet,
    Pointing,
    Claiming,
    NakedPair,
    XWing,
    HiddenPair,
    NakedTriplet,
    Swordfish,
    HiddenTriplet,
    TwoStrongLinks,
    XYWing,
    XYZWing,
    UniqueRectangle,
    NakedQuad,
    Jellyfish,
    HiddenQuad,
    ThreeStrongLinks,
    WXYZWing,
    BivalueUniversalGrave,
    FourStrongLinks,
    VWXYZWing,
    AlignedPairExclusion,
    UVWXYZWing,
    XCycle,
    YCycle,
    XYCycle,
    ForcingXChain,
    ForcingXYChain,
    TUVWXYZWing,
    AlignedTripletExclusion,
    NishioForcingChain,
    ContradictionForcingChain,
    DoubleForcingChain,
    CellForcingChains,
    RegionForcingChains,
}

impl HintKind {
    /// The number of techniques.
    pub const COUNT: usize = HintKind::ALL.len();

    /// The name written in the `techniques` column's counts: the name in lower case,
    /// words joined by `-` (`hidden-single`, `forcing-x-chain`).
    pub fn slug(self) -> &'static str {
        SLUGS[self as usize]
    }

    /// The name written in the `technique` column.
    pub fn name(self) -> &'static str {
        use HintKind::*;
        match self {
            FullHouse => "Full House",
            HiddenSingle => "Hidden Single",
            DirectPointing => "Direct Pointing",
            DirectClaiming => "Direct Claiming",
            DirectHiddenPair => "Direct Hidden Pair",
            NakedSingle => "Naked Single",
            DirectHiddenTriplet => "Direct Hidden Triplet",
            Pointing => "Pointing",
            Claiming => "Claiming",
            NakedPair => "Naked Pair",
            XWing => "X-Wing",
            HiddenPair => "Hidden Pair",
            NakedTriplet => "Naked Triplet",
            Swordfish => "Swordfish",
            HiddenTriplet => "Hidden Triplet",
            TwoStrongLinks => "2 Strong Links",
            XYWing => "XY-Wing",
            XYZWing => "XYZ-Wing",
            UniqueRectangle => "Unique Rectangle",
            NakedQuad => "Naked Quad",
            Jellyfish => "Jellyfish",
            HiddenQuad => "Hidden Quad",
            ThreeStrongLinks => "3 Strong Links",
            WXYZWing => "WXYZ-Wing",
            BivalueUniversalGrave => "Bivalue Universal Grave",
            FourStrongLinks => "4 Strong Links",
            VWXYZWing => "VWXYZ-Wing",
            AlignedPairExclusion => "Aligned Pair Exclusion",
            UVWXYZWing => "UVWXYZ-Wing",
            XCycle => "Bidirectional X-Cycle",
            YCycle => "Bidirectional Y-Cycle",
            XYCycle => "Bidirectional Cycle",
            ForcingXChain => "Forcing X-Chain",
            ForcingXYChain => "Forcing Chain",
            TUVWXYZWing => "TUVWXYZ-Wing",
            AlignedTripletExclusion => "Aligned Triplet Exclusion",
            NishioForcingChain => "Nishio Forcing Chain",
            ContradictionForcingChain => "Contradiction Forcing Chain",
            DoubleForcingChain => "Double Forcing Chain",
            CellForcingChains => "Cell Forcing Chains",
            RegionForcingChains => "Region Forcing Chains",
        }
    }
}

/// [`HintKind::slug`] of every technique, in [`HintKind::ALL`] order.
pub static SLUGS: [&str; HintKind::COUNT] = [
    "full-house",
    "hidden-single",
    "direct-pointing",
    "direct-claiming",
    "direct-hidden-pair",
    "naked-single",
    "direct-hidden-triplet",
    "pointing",
    "claiming",
    "naked-pair",
    "x-wing",
    "hidden-pair",
    "naked-triplet",
    "swordfish",
    "hidden-triplet",
    "2-strong-links",
    "xy-wing",
    "xyz-wing",
    "unique-rectangle",
    "naked-quad",
    "jellyfish",
    "hidden-quad",
    "3-strong-links",
    "wxyz-wing",
    "bivalue-universal-grave",
    "4-strong-links",
    "vwxyz-wing",
    "aligned-pair-exclusion",
    "uvwxyz-wing",
    "bidirectional-x-cycle",
    "bidirectional-y-cycle",
    "bidirectional-cycle",
    "forcing-x-chain",
    "forcing-chain",
    "tuvwxyz-wing",
    "aligned-triplet-exclusion",
    "nishio-forcing-chain",
    "contradiction-forcing-chain",
    "double-forcing-chain",
    "cell-forcing-chains",
    "region-forcing-chains",
];

/// One step: eliminations and at most one placement.
#[derive(Clone, Copy, Debug)]
pub struct Hint {
    /// The rating, computed as Sukaku Explainer computes it (a double).
    pub rating: f64,
    /// The technique.
    pub technique: HintKind,
    /// Candidates removed from each cell (bit v-1 for v).
    pub elims: [u16; 81],
    /// The cell set and its value (1-9).
    pub place: Option<(u8, u8)>,
}

impl Hint {
    /// A hint of `technique` rated `rating` that does nothing yet.
    pub fn new(technique: HintKind, rating: f64) -> Hint {
        Hint {
            rating,
            technique,
            elims: [0; 81],
            place: None,
        }
    }

    /// A placement.
    pub fn placing(technique: HintKind, rating: f64, cell: usize, value: usize) -> Hint {
        let mut h = Hint::new(technique, rating);
        h.place = Some((cell as u8, value as u8));
        h
    }

    /// Removes candidate bit `v` of `cell` if the board has it.
    pub fn remove(&mut self, board: &Pencilmarks, cell: usize, v: usize) {
        self.elims[cell] |= board.cands[cell] & 1 << v;
    }

    /// The number of candidates it removes.
    pub fn eliminations(&self) -> u32 {
        self.elims.iter().map(|m| m.count_ones()).sum()
    }

    /// True when it removes something (Sukaku Explainer's `isWorth`).
    pub fn is_worth(&self) -> bool {
        // An OR of every cell rather than a search for the first: most hints asked
        // remove nothing, and the OR runs without a branch per cell.
        self.place.is_some() || self.elims.iter().fold(0, |all, &m| all | m) != 0
    }

    /// Applies it: eliminations first, then the placement. False when the board was
    /// left as it was (a hint that removes only what is gone and places nothing new),
    /// which a rating must not follow: the same step would come again, forever.
    pub fn apply(&self, board: &mut Pencilmarks) -> bool {
        let mut changed = 0;
        for (c, &m) in self.elims.iter().enumerate() {
            changed |= board.cands[c] & m;
            board.cands[c] &= !m;
        }
        if let Some((cell, value)) = self.place {
            if board.value[cell as usize] != 0 {
                return changed != 0;
            }
            board.place(cell as usize, value);
            return true;
        }
        changed != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::grid::Grid;

    #[test]
    fn applying_a_hint_says_whether_the_board_changed() {
        let puzzle = format!("1{}2{}", ".".repeat(71), ".".repeat(8));
        let mut b = Pencilmarks::new(&Grid::parse(puzzle.as_bytes()).expect("a puzzle"));
        // Cell 1 sees the 1 in cell 0: candidate bit 0 is gone there already.
        let mut stale = Hint::new(HintKind::XWing, 3.2);
        stale.elims[1] = 1;
        assert!(!stale.apply(&mut b));
        let mut fresh = Hint::new(HintKind::XWing, 3.2);
        fresh.remove(&b, 1, 1);
        assert!(fresh.apply(&mut b));
        assert!(!fresh.apply(&mut b), "the same removal twice");
        assert!(Hint::placing(HintKind::NakedSingle, 2.3, 40, 5).apply(&mut b));
        assert!(!Hint::placing(HintKind::NakedSingle, 2.3, 0, 1).apply(&mut b));
    }
}
