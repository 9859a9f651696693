//! sudoku-batch: solve, classify and benchmark Sudoku puzzle datasets at hardware speed.
//!
//! The library behind the `sudoku-batch` command, one pipeline with thin ends:
//!
//! - values: [`grid`] (the 81-cell value type), [`marks`] (pencil-mark puzzles),
//!   [`puzzle`] (a puzzle of any shape and its answer: what goes through every layer),
//!   [`validate`] (clashes of a full or partial grid), [`report`] (counts, percentiles,
//!   exporters);
//! - engines: [`engine`] (the interface), [`solver`] (the classic band-bitboard engine),
//!   [`dlx`] (dancing links, an independent second engine),
//!   [`grader`] (human techniques, for ratings);
//! - jobs: [`jobs`] (solve, classify, minimize: record in, answer out);
//! - pipeline: [`input`] (mapping files, formats, record finding), [`pipeline`] (chunks on
//!   a rayon pool, ordered output), [`rows`] (row formats), [`output`] (atomic files);
//!   [`batch`] runs jobs on in-memory puzzles for front ends without files;
//! - exporters: [`report`] (JSON, `.hgrm`), [`plot`] (SVG charts), [`merge`] (reports of a
//!   run's parts added up);
//! - command cores: [`bench`](mod@bench), [`corpus`], [`generate`](mod@generate) (making
//!   puzzles), [`canon`] (canonical forms), [`classes`] with [`dedupe`] and [`split`]
//!   (records grouped by equivalence);
//! - front ends: [`cli`] and [`app`] (the command line), [`serve`] (HTTP).
//!
//! ```
//! use sudoku_batch::{Classification, Grid, Solver};
//!
//! let puzzle = Grid::parse(
//!     b"....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3",
//! )
//! .unwrap();
//! let mut solver = Solver::new(); // create once per thread, reuse for every puzzle
//! match solver.classify(&puzzle) {
//!     Classification::Unique(solution) => {
//!         assert!(solution.is_valid_solution() && solution.keeps_givens_of(&puzzle));
//!     }
//!     other => panic!("expected a unique puzzle, got {other:?}"),
//! }
//! assert_eq!(solver.count(&Grid::EMPTY, 10).solutions, 10);
//! ```

#![warn(missing_docs)]

pub mod app;
pub mod batch;
pub mod bench;
pub mod canon;
pub mod classes;
pub mod cli;
pub mod corpus;
pub mod dedupe;
pub mod dlx;
pub mod engine;
pub mod explainer;
pub mod generate;
pub mod grader;
pub mod grid;
pub mod input;
pub mod jobs;
pub mod marks;
pub mod merge;
pub mod output;
pub mod pipeline;
pub mod plot;
pub mod puzzle;
pub mod report;
pub mod rows;
pub mod serve;
pub mod show;
pub mod solver;
pub mod split;
pub mod validate;
pub mod variant;

pub use engine::{Engine, Fast};
pub use grid::{Clash, Grid, ParseError, ParseErrorKind, Unit};
pub use puzzle::{Answer, Puzzle, Shape, Shapes, Solution};
pub use solver::{Classification, Count, Outcome, SearchStats, Solver};
