//! The `bench` command's measuring core: timed in-memory passes over parsed puzzles for
//! each thread count, with per-puzzle latency histograms and search statistics.
//!
//! Results are plain data ([`crate::reports::bench`]), printed by the caller.

use crate::pipeline::progress::Progress;
use std::sync::Mutex;
use std::time::Instant;

use hdrhistogram::Histogram;
use rayon::prelude::*;

use crate::engines::Engine;
use crate::pipeline::input::{for_each_record_of, Layout, Record};
use crate::reports::bench::{BenchMode, Effort};
use crate::reports::new_histogram;
use crate::values::board::Board;
use crate::values::geometry::{Geometry, Variant};
use crate::values::grid::Grid;
use crate::values::puzzle::Puzzle;
use crate::values::rules::BoardRules;
use crate::values::search::Outcome;

/// Most puzzles handed to a worker at a time during a timed pass; small inputs use
/// smaller batches so every thread gets dozens of them (load balance).
const MAX_BATCH: usize = 256;

/// Puzzles loaded for benchmarking.
#[derive(Debug, Default)]
pub struct Loaded {
    /// Well-formed puzzles without clashing givens.
    pub puzzles: Vec<Grid>,
    /// Variant boards (when the rules ask for them, or the file holds no 9x9 puzzles).
    pub boards: Vec<Board>,
    /// Records excluded from timing (malformed or clashing givens).
    pub invalid: u64,
    /// Seconds spent finding and parsing records.
    pub parse_seconds: f64,
}

/// Finds and parses every record of `data`, keeping the valid puzzles: classic 9x9
/// grids, or variant boards when `rules` ask for them or no record is a 9x9 grid.
pub fn load(data: &[u8], layout: &Layout, rules: &BoardRules) -> Loaded {
    let mut loader = Loader::new(rules);
    for_each_record_of(data, layout, |record| loader.add(&record));
    loader.finish()
}

/// Puzzles gathered a record at a time, as [`load`] keeps them, so that a stream is
/// parsed as it is read and only the puzzles are held, never its text.
pub struct Loader<'r> {
    rules: &'r BoardRules,
    geometries: Vec<Geometry>,
    loaded: Loaded,
    /// Records that are no valid 9x9 grid, and no valid board.
    not_grids: u64,
    not_boards: u64,
    start: Instant,
}

impl<'r> Loader<'r> {
    /// Nothing gathered yet, for boards read by `rules`.
    pub fn new(rules: &'r BoardRules) -> Loader<'r> {
        Loader {
            rules,
            geometries: [4, 9, 16, 25]
                .into_iter()
                .filter_map(|side| Geometry::new(side, rules.variant).ok())
                .collect(),
            loaded: Loaded::default(),
            not_grids: 0,
            not_boards: 0,
            start: Instant::now(),
        }
    }

    /// Keeps `record`'s puzzle if it is valid: a grid, or while no record has been a
    /// grid (or the rules ask for boards), a board.
    pub fn add(&mut self, record: &Record<'_>) {
        if !self.rules.all_boards() {
            match record.puzzle {
                Ok(grid) if grid.find_clash().is_none() => {
                    if self.loaded.puzzles.is_empty() {
                        // Grids it is: the boards gathered so far are not timed.
                        self.loaded.boards = Vec::new();
                    }
                    self.loaded.puzzles.push(grid);
                }
                _ => self.not_grids += 1,
            }
        }
        if self.loaded.puzzles.is_empty() {
            let board = Board::parse(record.raw, self.rules.size, self.rules.symbols.as_ref());
            let geometries = &self.geometries;
            let fits = |b: &Board| {
                geometries
                    .iter()
                    .find(|g| g.side() == b.side())
                    .is_some_and(|g| b.find_clash(g).is_none())
            };
            match board {
                Ok(b) if fits(&b) => self.loaded.boards.push(b),
                _ => self.not_boards += 1,
            }
        }
    }

    /// The puzzles kept, grids if any record was one, else boards.
    pub fn finish(mut self) -> Loaded {
        self.loaded.invalid = match self.loaded.puzzles.is_empty() {
            true => self.not_boards,
            false => self.not_grids,
        };
        self.loaded.parse_seconds = self.start.elapsed().as_secs_f64();
        self.loaded
    }
}

/// Search effort of engine `E` (reading boards by the rules of `variant`) on
/// `puzzles`, grids or boards, untimed.
pub fn effort<E: Engine, P>(puzzles: &[P], variant: Variant, mode: BenchMode) -> Effort
where
    for<'a> &'a P: Into<Puzzle<'a>>,
{
    let mut engine = E::new(variant);
    effort_of(
        puzzles
            .iter()
            .map(|p| run_one(&mut *engine, p.into(), mode).1),
    )
}

/// Mean guesses and the share without any, from each puzzle's guesses.
fn effort_of(guesses: impl Iterator<Item = u64>) -> Effort {
    let (mut total, mut no_guess, mut n) = (0u64, 0u64, 0u64);
    for g in guesses {
        total += g;
        no_guess += u64::from(g == 0);
        n += 1;
    }
    let n = n.max(1) as f64;
    Effort {
        guesses_per_puzzle: total as f64 / n,
        no_guess_percent: 100.0 * no_guess as f64 / n,
    }
}

/// One puzzle's search: whether it found what `mode` looks for, and the branches it
/// took.
#[inline]
fn run_one<E: Engine>(engine: &mut E, puzzle: Puzzle<'_>, mode: BenchMode) -> (bool, u64) {
    let limit = match mode {
        BenchMode::Solve => 1,
        BenchMode::Count => 2,
    };
    match (puzzle, mode) {
        (Puzzle::Grid(grid), BenchMode::Solve) => {
            let solved = matches!(engine.solve(grid), Outcome::Solved(_));
            (solved, u64::from(engine.stats().guesses))
        }
        (Puzzle::Grid(grid), BenchMode::Count) => {
            let unique = engine.count(grid, 2).solutions == 1;
            (unique, u64::from(engine.stats().guesses))
        }
        (Puzzle::Marks(marks), _) => {
            let found = engine.solve_marks(marks).is_some();
            (found, u64::from(engine.stats().guesses))
        }
        (Puzzle::Board(board), _) => match engine.count_board(board, limit) {
            Ok(Ok(count)) => (true, count.guesses),
            _ => (false, 0),
        },
    }
}

/// Runs `warmup` untimed and `rounds` timed passes over `puzzles` (grids or boards)
/// with `threads` workers, each with its own engine `E` (reading boards by the rules
/// of `variant`).
///
/// Returns the per-round rates and the merged latency histogram of the timed rounds.
/// `progress` moves on a pass at a time (between passes, never inside one).
pub fn measure<E: Engine, P>(
    puzzles: &[P],
    variant: Variant,
    mode: BenchMode,
    (threads, warmup, rounds): (usize, u32, u32),
    progress: &Progress,
) -> Result<(Vec<f64>, Histogram<u64>), rayon::ThreadPoolBuildError>
where
    P: Sync,
    for<'a> &'a P: Into<Puzzle<'a>>,
{
    measure_with(
        puzzles,
        (threads, warmup, rounds),
        progress,
        || E::new(variant),
        |engine: &mut Box<E>, p: &P| run_one(&mut **engine, p.into(), mode).0,
    )
}

/// One thread count's timed rounds: the count, each round's puzzles/s, and the merged
/// latency histogram.
pub type Timed = (usize, Vec<f64>, Histogram<u64>);

/// Why a thread count could not be timed: the count, and the pool's error.
pub type NoPool = (usize, rayon::ThreadPoolBuildError);

/// Everything `bench` measures of `loaded` (its grids, or its boards when it holds
/// any) on engine `E`: the search effort, then each of `threads` timed; `progress`
/// counts the passes (see [`passes`]).
pub fn run<E: Engine>(
    loaded: &Loaded,
    variant: Variant,
    mode: BenchMode,
    threads: &[usize],
    (warmup, rounds): (u32, u32),
    progress: &Progress,
) -> Result<(Effort, Vec<Timed>), NoPool> {
    fn each<E: Engine, P: Sync>(
        puzzles: &[P],
        (variant, mode): (Variant, BenchMode),
        threads: &[usize],
        (warmup, rounds): (u32, u32),
        progress: &Progress,
    ) -> Result<(Effort, Vec<Timed>), NoPool>
    where
        for<'a> &'a P: Into<Puzzle<'a>>,
    {
        progress.say("counting the search effort");
        let effort = effort::<E, P>(puzzles, variant, mode);
        progress.advance(1);
        let timed = threads
            .iter()
            .map(|&t| {
                progress.say(&crate::reports::bench::threads_label(t));
                let (rates, histogram) =
                    measure::<E, P>(puzzles, variant, mode, (t, warmup, rounds), progress)
                        .map_err(|e| (t, e))?;
                Ok((t, rates, histogram))
            })
            .collect::<Result<_, _>>()?;
        Ok((effort, timed))
    }
    let how = (variant, mode);
    if loaded.boards.is_empty() {
        each::<E, Grid>(&loaded.puzzles, how, threads, (warmup, rounds), progress)
    } else {
        each::<E, Board>(&loaded.boards, how, threads, (warmup, rounds), progress)
    }
}

/// The passes [`run`] makes over a set: one counting the effort, then the warm-up and
/// timed rounds of each thread count.
pub fn passes(threads: &[usize], (warmup, rounds): (u32, u32)) -> u64 {
    1 + threads.len() as u64 * u64::from(warmup + rounds)
}

/// The timing loop for any puzzle type and per-thread engine.
fn measure_with<P, S, M, R>(
    puzzles: &[P],
    (threads, warmup, rounds): (usize, u32, u32),
    progress: &Progress,
    make: M,
    run: R,
) -> Result<(Vec<f64>, Histogram<u64>), rayon::ThreadPoolBuildError>
where
    P: Sync,
    S: Send,
    M: Fn() -> S,
    R: Fn(&mut S, &P) -> bool + Sync,
{
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let workers: Vec<Mutex<(S, Histogram<u64>)>> = (0..threads)
        .map(|_| Mutex::new((make(), new_histogram())))
        .collect();
    let batch = (puzzles.len() / (threads * 32)).clamp(1, MAX_BATCH);
    let pass = |timed: bool| {
        let start = Instant::now();
        pool.install(|| {
            puzzles.par_chunks(batch).for_each(|batch| {
                let slot = rayon::current_thread_index().unwrap_or(0) % workers.len();
                let mut guard = workers[slot].lock().unwrap_or_else(|p| p.into_inner());
                let (solver, histogram) = &mut *guard;
                // One clock read a puzzle: each puzzle's latency runs from the end of the
                // one before (its histogram entry included, a few nanoseconds). Reading
                // the clock before and after each cost 3% of the time on puzzles of
                // about a microsecond.
                let mut last = Instant::now();
                for p in batch {
                    std::hint::black_box(run(solver, std::hint::black_box(p)));
                    let now = Instant::now();
                    if timed {
                        let nanos = now.duration_since(last).as_nanos() as u64;
                        histogram.saturating_record(nanos.max(1));
                    }
                    last = now;
                }
            })
        });
        start.elapsed().as_secs_f64()
    };
    for _ in 0..warmup {
        pass(false);
        progress.advance(1);
    }
    let rates = (0..rounds)
        .map(|_| {
            let rate = puzzles.len() as f64 / pass(true).max(1e-9);
            progress.advance(1);
            rate
        })
        .collect();
    let mut merged = new_histogram();
    for w in &workers {
        let guard = w.lock().unwrap_or_else(|p| p.into_inner());
        // Same bounds everywhere, so adding cannot fail.
        let _ = merged.add(&guard.1);
    }
    Ok((rates, merged))
}
