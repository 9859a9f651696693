//! Sukaku Explainer's ratings (ER, EP, ED), reproduced from its documented behaviour
//! (`docs/se-rating.md` in the shared design notes): the same producers in the same
//! order, each giving its first hint in the same emission order, applied one step at a
//! time from the easiest producer again.
//!
//! ER is the hardest step's rating, EP the hardest up to the first placement, ED the
//! first step's. Nested forcing chains are reproduced to level 4: static chains, static
//! multiple chains (levels 2 and 3, 9.5 and 10.0 plus the length bonus) and dynamic
//! chains of levels 0 to 3 (level 4, 10.5 and up) inside dynamic ones. A puzzle that
//! spends the rater's budget, or that the rules cannot finish (level 4 left out with
//! [`Rules::without_level4`], or Sukaku Explainer's own "beyond" puzzles), ends with
//! lower bounds (at least the least rating of the step not taken; see
//! [`Rater::floor`]).

// CellSet, regions and values are numbered; loops over those numbers read as the spec does.
#![allow(clippy::needless_range_loop)]

mod basic;
mod board;
mod chains;
mod exclusion;
mod forcing;
mod hint;
mod nested;
mod nested_cache;
mod potential;
mod quiet;
mod reach;
mod strong;
mod unique;
mod wings;

use board::CellSet;
pub use board::Pencilmarks;
pub use hint::{Hint, HintKind, SLUGS};
pub use potential::length_bonus;

use crate::values::grid::Grid;

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
    pub technique: Option<HintKind>,
    /// False when the rater stopped before the grid was full (no reproduced rule
    /// applied, or the work budget ran out): the ratings are then lower bounds.
    pub complete: bool,
    /// Steps taken.
    pub steps: u16,
    /// Steps taken with each technique, in [`HintKind::ALL`] order.
    pub uses: [u16; HintKind::COUNT],
}

/// Tenths of a rating as Sukaku Explainer prints it.
pub fn tenths(r: f64) -> u16 {
    ((r + 0.05) * 10.0).floor() as u16
}

/// Sukaku Explainer's producers, in its order: each step takes the first hint of the
/// first producer that has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Producer {
    Singles,
    DirectLocking,
    DirectHiddenPair,
    NakedSingle,
    DirectHiddenTriplet,
    Locking,
    NakedPair,
    XWing,
    HiddenPair,
    NakedTriplet,
    Swordfish,
    HiddenTriplet,
    TwoStrongLinks,
    XYWing,
    XYZWing,
    UniqueLoops,
    NakedQuad,
    Jellyfish,
    HiddenQuad,
    ThreeStrongLinks,
    WXYZWing,
    Bug,
    FourStrongLinks,
    VWXYZWing,
    AlignedPair,
    UVWXYZWing,
    StaticChains,
    TUVWXYZWing,
    AlignedTriplet,
    Nishio,
    Multiple,
    Dynamic,
    DynamicPlus,
    NestedChains,
    NestedMultiple,
    /// Level 4 with nesting limit 0: dynamic forcing chains inside.
    NestedDynamic,
    /// Level 4 with nesting limit 1: dynamic plus forcing chains inside.
    NestedDynamicPlus,
    /// Level 4 with nesting limit 2: nested forcing chains of level 2 inside.
    NestedNestedChains,
    /// Level 4 with nesting limit 3: nested forcing chains of level 3 inside.
    NestedNestedMultiple,
}

impl Producer {
    /// Every producer, in order.
    pub const ORDER: [Producer; 39] = {
        use Producer::*;
        [
            Singles,
            DirectLocking,
            DirectHiddenPair,
            NakedSingle,
            DirectHiddenTriplet,
            Locking,
            NakedPair,
            XWing,
            HiddenPair,
            NakedTriplet,
            Swordfish,
            HiddenTriplet,
            TwoStrongLinks,
            XYWing,
            XYZWing,
            UniqueLoops,
            NakedQuad,
            Jellyfish,
            HiddenQuad,
            ThreeStrongLinks,
            WXYZWing,
            Bug,
            FourStrongLinks,
            VWXYZWing,
            AlignedPair,
            UVWXYZWing,
            StaticChains,
            TUVWXYZWing,
            AlignedTriplet,
            Nishio,
            Multiple,
            Dynamic,
            DynamicPlus,
            NestedChains,
            NestedMultiple,
            NestedDynamic,
            NestedDynamicPlus,
            NestedNestedChains,
            NestedNestedMultiple,
        ]
    };

    /// The least rating of a step taken by the nested forcing chains of level 4 (dynamic
    /// chains inside dynamic ones), for rules that leave them out.
    pub const NESTED_FLOOR: f64 = 10.5;

    /// Sukaku Explainer's rating of a puzzle no producer has a step for ("beyond
    /// solver").
    pub const BEYOND: f64 = 20.0;

    /// The least rating of a hint from this producer or any after it, for the
    /// producers that spend the chain budget (static chains on); 0 for the others,
    /// which never run it out.
    pub fn floor(self) -> f64 {
        use Producer::*;
        match self {
            StaticChains => 6.5,
            TUVWXYZWing | AlignedTriplet | Nishio => 7.5,
            Multiple => 8.0,
            Dynamic => 8.5,
            DynamicPlus => 9.0,
            NestedChains => 9.5,
            NestedMultiple => 10.0,
            NestedDynamic | NestedDynamicPlus | NestedNestedChains | NestedNestedMultiple => 10.5,
            _ => 0.0,
        }
    }
}

// `Rules::LEVEL4` takes the level 4 producers to be the last four.
const _: () = assert!(
    Producer::NestedDynamic as usize == Producer::ORDER.len() - 4
        && Producer::NestedNestedMultiple as usize == Producer::ORDER.len() - 1
);

/// What a rating may use: a set of producers, and which version's strong-link ratings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    producers: u64,
    bank_links: bool,
}

impl Rules {
    /// Sukaku Explainer's default set (v1.18.1, `serate` with no options).
    pub const SUKAKU: Rules = Rules {
        producers: (1 << Producer::ORDER.len()) - 1,
        bank_links: false,
    };

    /// The nested forcing chains of level 4, the last four producers.
    const LEVEL4: u64 = 0b1111 << (Producer::ORDER.len() - 4);

    /// The Sudoku Exchange puzzle bank's version, as its ratings show it: Sukaku
    /// Explainer's default set before 4 strong links and the UVWXYZ- and TUVWXYZ-Wings
    /// were in it, and chains of 3 strong links rated +0.2 with rows and columns and no
    /// block, +0.1 with a block too (the other way round since).
    pub const BANK: Rules = Rules {
        bank_links: true,
        ..Rules::SUKAKU
            .without(Producer::FourStrongLinks)
            .without(Producer::UVWXYZWing)
            .without(Producer::TUVWXYZWing)
    };

    /// Sudoku Explainer 1.2.1's techniques (`serate --techs` with strong links and the
    /// wings of four to seven cells off): the forum's older ratings. Without the nested
    /// chains of level 4, which 1.2.1 had only as experimental levels of another kind.
    pub const SE121: Rules = Rules::SUKAKU
        .without_level4()
        .without(Producer::TwoStrongLinks)
        .without(Producer::ThreeStrongLinks)
        .without(Producer::FourStrongLinks)
        .without(Producer::WXYZWing)
        .without(Producer::VWXYZWing)
        .without(Producer::UVWXYZWing)
        .without(Producer::TUVWXYZWing);

    /// The sets by the names the front ends take (`--rating`).
    pub const NAMED: [(&'static str, Rules); 3] = [
        ("sukaku", Rules::SUKAKU),
        ("bank", Rules::BANK),
        ("se121", Rules::SE121),
    ];

    /// The set named `name` (see [`Rules::NAMED`]).
    pub fn parse(name: &str) -> Option<Rules> {
        Rules::NAMED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, r)| r)
    }

    /// The set without the nested forcing chains of level 4 (dynamic chains of levels
    /// 0 to 3 inside dynamic ones, 10.5 and up, whose steps take seconds): a puzzle
    /// that needs them then stops with lower bounds, at least 10.5.
    pub const fn without_level4(self) -> Rules {
        Rules {
            producers: self.producers & !Rules::LEVEL4,
            ..self
        }
    }

    /// The set without `p`.
    pub const fn without(self, p: Producer) -> Rules {
        Rules {
            producers: self.producers & !(1 << p as u32),
            ..self
        }
    }

    /// True when the set has `p`.
    pub const fn has(self, p: Producer) -> bool {
        self.producers >> p as u32 & 1 != 0
    }
}

/// Rates puzzles; create one per thread and reuse it (its buffers are kept).
pub struct Rater {
    /// The techniques it may use.
    pub rules: Rules,
    chains: chains::Chains,
    forcing: forcing::Forcing,
    strong: strong::StrongLinks,
    quiet: quiet::Quiet,
    /// The most chain potentials one puzzle may expand before it is given up on.
    pub budget: u64,
    /// When [`Rater::next_hint`] last found nothing: the least rating the step it
    /// stopped at can have (the base rating of the producer it stopped in, or of what
    /// comes past the last one).
    floor: f64,
    /// The base cells of the aligned pair and triplet exclusions' last boards.
    pair_base: CellSet,
    triplet_base: CellSet,
}

impl Default for Rater {
    fn default() -> Self {
        Rater::new()
    }
}

impl Rater {
    /// The default budget: chain potentials one puzzle may expand (every puzzle of
    /// the forum's hardest-1106 list takes under a quarter of it; see
    /// `docs/making-and-rating.md`).
    pub const DEFAULT_BUDGET: u64 = 1_000_000_000;

    /// A rater with `rules` and `budget` (chain potentials one puzzle may expand before
    /// its ratings are given as lower bounds).
    pub fn with(rules: Rules, budget: u64) -> Rater {
        Rater {
            rules,
            budget,
            ..Rater::new()
        }
    }

    /// A rater with Sukaku Explainer's default rules and the default budget, its
    /// buffers made for every rule (so that rating allocates nothing).
    pub fn new() -> Rater {
        let mut forcing = forcing::Forcing::new();
        forcing.prepare_level4();
        Rater {
            rules: Rules::SUKAKU,
            chains: chains::Chains::new(),
            forcing,
            strong: strong::StrongLinks::new(),
            quiet: quiet::Quiet::new(),
            budget: Rater::DEFAULT_BUDGET,
            floor: 0.0,
            pair_base: CellSet::EMPTY,
            triplet_base: CellSet::EMPTY,
        }
    }

    /// Chain potentials expanded so far for this puzzle.
    fn spent(&self) -> u64 {
        self.chains.work + self.forcing.work_done
    }

    /// The hint of a forcing chain producer, unless the budget runs out first.
    fn forcing(&mut self, b: &Pencilmarks, kind: forcing::ForcingKind) -> Option<Hint> {
        self.forcing.limit = self.budget.saturating_sub(self.chains.work);
        // The producers run in order, each only when those before found nothing.
        self.forcing.no_static_chains = self.rules.has(Producer::StaticChains);
        if kind == forcing::ForcingKind::Multiple {
            return self.forcing.best_multiple(b, self.chains.xy_reach(b));
        }
        self.forcing.best(b, kind)
    }

    /// The next step: the first hint of the first producer that has one; `None` when
    /// the budget runs out or no producer has a hint ([`Rater::floor`] then says how
    /// hard the step is at least).
    pub fn next_hint(&mut self, b: &Pencilmarks) -> Option<Hint> {
        self.quiet.settle(b);
        for &p in &Producer::ORDER {
            if !self.rules.has(p) {
                continue;
            }
            let hint = self.run(p, b);
            if self.spent() > self.budget {
                self.floor = p.floor();
                return None;
            }
            self.quiet.ran(p, hint.is_some());
            if hint.is_some() {
                return hint;
            }
        }
        self.floor = if self.rules.has(Producer::NestedNestedMultiple) {
            Producer::BEYOND
        } else {
            Producer::NESTED_FLOOR
        };
        None
    }

    /// The least rating of the step [`Rater::next_hint`] last stopped at without a
    /// hint: where the budget ran out, the base rating of that producer or of any after
    /// it (the producers that use the budget come in order of rating); where every
    /// producer was tried, 10.5 when the rules leave out the nested chains of level 4,
    /// else Sukaku Explainer's 20.0 for a puzzle beyond its techniques.
    pub fn floor(&self) -> f64 {
        self.floor
    }

    /// The first hint of one producer.
    fn run(&mut self, p: Producer, b: &Pencilmarks) -> Option<Hint> {
        use Producer::*;
        // What changed since p last found nothing (the rules that can use it).
        let changed = self.quiet.change(p);
        match p {
            Singles => basic::hidden_single(b, changed.quiet_regions()),
            DirectLocking => basic::locking(b, true, changed.quiet_values()),
            DirectHiddenPair => basic::hidden_set(b, 2, true, changed.quiet_regions()),
            NakedSingle => basic::naked_single(b),
            DirectHiddenTriplet => basic::hidden_set(b, 3, true, changed.quiet_regions()),
            Locking => basic::locking(b, false, changed.quiet_values()),
            NakedPair => basic::naked_set(b, 2, changed.quiet_regions()),
            XWing => basic::fish(b, 2, changed.quiet_values()),
            HiddenPair => basic::hidden_set(b, 2, false, changed.quiet_regions()),
            NakedTriplet => basic::naked_set(b, 3, changed.quiet_regions()),
            Swordfish => basic::fish(b, 3, changed.quiet_values()),
            HiddenTriplet => basic::hidden_set(b, 3, false, changed.quiet_regions()),
            TwoStrongLinks => self.strong.best(b, 2, self.rules.bank_links),
            XYWing => basic::xy_wing(b, false, changed.cells),
            XYZWing => basic::xy_wing(b, true, changed.cells),
            UniqueLoops => unique::unique_loops(b),
            NakedQuad => basic::naked_set(b, 4, changed.quiet_regions()),
            Jellyfish => basic::fish(b, 4, changed.quiet_values()),
            HiddenQuad => basic::hidden_set(b, 4, false, changed.quiet_regions()),
            ThreeStrongLinks => self.strong.best(b, 3, self.rules.bank_links),
            WXYZWing => wings::als_wing(b, 3, changed.cells),
            Bug => unique::bug(b),
            FourStrongLinks => self.strong.best(b, 4, self.rules.bank_links),
            VWXYZWing => wings::als_wing(b, 4, changed.cells),
            AlignedPair => exclusion::aligned_pair(b, changed.cells, &mut self.pair_base),
            UVWXYZWing => wings::als_wing(b, 5, changed.cells),
            StaticChains => self.chains.best(b),
            TUVWXYZWing => wings::als_wing(b, 6, changed.cells),
            AlignedTriplet => exclusion::aligned_triplet(b, changed.cells, &mut self.triplet_base),
            Nishio => self.forcing(b, forcing::ForcingKind::Nishio),
            Multiple => self.forcing(b, forcing::ForcingKind::Multiple),
            Dynamic => self.forcing(b, forcing::ForcingKind::Dynamic),
            DynamicPlus => self.forcing(b, forcing::ForcingKind::DynamicPlus),
            NestedChains => self.forcing(b, forcing::ForcingKind::NestedChains),
            NestedMultiple => self.forcing(b, forcing::ForcingKind::NestedMultiple),
            NestedDynamic => self.forcing(b, forcing::ForcingKind::NestedDynamic(0)),
            NestedDynamicPlus => self.forcing(b, forcing::ForcingKind::NestedDynamic(1)),
            NestedNestedChains => self.forcing(b, forcing::ForcingKind::NestedDynamic(2)),
            NestedNestedMultiple => self.forcing(b, forcing::ForcingKind::NestedDynamic(3)),
        }
    }

    /// Ratings from now on stop soon after `stop` is set (a caller who no longer wants
    /// them), ending as lower bounds as when the budget runs out: the forcing chain
    /// searches, the only ones that take long, look at it before each cell's chains.
    pub fn stop_when(&mut self, stop: Option<&std::sync::Arc<std::sync::atomic::AtomicBool>>) {
        self.forcing.stop_when(stop);
    }

    /// Rates a puzzle from its givens.
    pub fn rate(&mut self, puzzle: &Grid) -> Rating {
        let mut b = Pencilmarks::new(puzzle);
        let (mut er, mut ep, mut ed) = (0.0f64, 0.0f64, 0.0f64);
        let mut technique = None;
        let mut steps = 0u16;
        let mut uses = [0u16; HintKind::COUNT];
        let mut complete = true;
        self.chains.work = 0;
        self.forcing.work_done = 0;
        self.forcing.forget_boards();
        while !b.is_full() {
            // next_hint gives a hint only while the budget lasts.
            let Some(h) = self.next_hint(&b) else {
                // The step SE would take next is at least this hard: a lower bound,
                // set by a step not taken.
                if self.floor > er {
                    er = self.floor;
                    technique = None;
                }
                if ed == 0.0 {
                    ed = er;
                }
                if ep == 0.0 {
                    ep = er;
                }
                complete = false;
                break;
            };
            if !h.apply(&mut b) {
                // A step that changes nothing would come again forever: the rating
                // stops there, incomplete, rather than stall the batch.
                debug_assert!(false, "a {:?} hint that changes nothing", h.technique);
                complete = false;
                break;
            }
            steps = steps.saturating_add(1);
            let used = &mut uses[h.technique as usize];
            *used = used.saturating_add(1);
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
            uses,
        }
    }
}

/// Helpers for the producers' tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::{Hint, HintKind, Pencilmarks, Rater};
    use crate::values::grid::Grid;

    /// What a hint does (its rating's bits, technique, removals, placement), for
    /// comparing two.
    pub type HintEffect = (u64, HintKind, [u16; 81], Option<(u8, u8)>);

    /// Numbers below a bound, from a xorshift generator started at `seed`: the same
    /// sequence every run.
    pub fn below(seed: u64) -> impl FnMut(u64) -> u64 {
        let mut state = seed;
        move |m| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % m
        }
    }

    /// The outcome of a producer's answer.
    pub fn outcome(h: Option<Hint>) -> Option<HintEffect> {
        h.map(|h| (h.rating.to_bits(), h.technique, h.elims, h.place))
    }

    /// Calls `f` with each puzzle and each board on the default rater's path through
    /// the first `take` puzzles of the bundled file `name` (in `data/`); returns the
    /// number of boards.
    pub fn on_rating_paths(
        name: &str,
        take: usize,
        mut f: impl FnMut(&str, &Pencilmarks),
    ) -> usize {
        let path = format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).expect("bundled references");
        let mut rater = Rater::new();
        let mut boards = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')).take(take) {
            let puzzle = line.split_whitespace().next().expect("a puzzle");
            let grid = Grid::parse(puzzle.as_bytes()).expect("a valid puzzle");
            let mut b = Pencilmarks::new(&grid);
            while !b.is_full() {
                f(puzzle, &b);
                boards += 1;
                let Some(h) = rater.next_hint(&b) else { break };
                assert!(h.apply(&mut b), "{puzzle}: a hint that changes nothing");
            }
        }
        boards
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{on_rating_paths, outcome};
    use super::*;

    #[test]
    fn a_rater_kept_from_step_to_step_gives_what_a_fresh_one_gives_along_rating_paths() {
        // The rules that pass over what has not changed since they last found nothing
        // (kept from board to board and puzzle to puzzle) against a fresh rater, which
        // looks at everything, at every step of the rater's own path.
        let mut kept = Rater::new();
        let (mut boards, mut skipped) = (0, 0);
        for (name, take) in [
            ("se-reference-expert.txt", 40),
            ("se-reference-extreme.txt", 10),
        ] {
            boards += on_rating_paths(name, take, |puzzle, b| {
                kept.chains.work = 0;
                kept.forcing.work_done = 0;
                kept.quiet.settle(b);
                let cells = kept.quiet.change(Producer::WXYZWing).cells;
                skipped += usize::from(cells.len() < 20);
                let mut fresh = Rater::new();
                assert_eq!(
                    outcome(kept.next_hint(b)),
                    outcome(fresh.next_hint(b)),
                    "{puzzle}"
                );
            });
        }
        assert!(
            boards > 2000 && skipped > 200,
            "{boards} boards, {skipped} with few changes for the WXYZ-Wing"
        );
    }

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
