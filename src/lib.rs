//! sudoku-batch: solve, classify and benchmark Sudoku puzzle datasets at hardware speed.
//!
//! The library behind the `sudoku-batch` command, one pipeline with thin ends. Each
//! folder is a layer that uses only the layers before it:
//!
//! 1. [`values`]: grids, pencil marks, boards of every size, a puzzle of any shape and
//!    its answer, what a search returns ([`values::search`]), a record's status;
//! 2. [`engines`]: the [`Engine`] interface and its implementations (the band-bitboard
//!    [`engines::solver`], the variant mask engine, dancing links [`engines::dlx`]), the
//!    raters ([`engines::grader`], [`engines::explainer`]), canonical forms, transforms
//!    and the puzzle generator: no files, no threads;
//! 3. [`reports`]: results as plain data (counts, histograms, bench results) and their
//!    exporters (JSON, `.hgrm`, SVG charts, merged shards);
//! 4. [`jobs`]: solve, classify, grade, minimize, canon, generate: record in, answer out;
//! 5. [`pipeline`]: [`pipeline::input`] (opening any file, stream or bytes: detection,
//!    decompression, NumPy, Parquet, record finding), chunks on a rayon pool, ordered
//!    [`pipeline::rows`] into [`pipeline::output`] (atomic files), and
//!    [`pipeline::batch`] for in-memory puzzles;
//! 6. [`datasets`]: the dataset commands' cores (bench, classes, dedupe, split, show);
//! 7. front ends: [`cli`] (options) and [`app`] (running them), [`serve`] (HTTP).
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
pub mod cli;
pub mod datasets;
pub mod engines;
pub mod jobs;
pub mod pipeline;
pub mod reports;
pub mod serve;
pub mod values;

pub use engines::solver::Solver;
pub use engines::{Bitboards, Engine};
pub use values::grid::{Clash, Grid, ParseError, ParseErrorKind, Unit};
pub use values::puzzle::{Answer, Puzzle, Shape, Shapes, Solution};
pub use values::search::{Budget, Classification, Count, Outcome, SearchStats};
