//! sudoku-batch: solve, classify and benchmark Sudoku puzzle datasets.

#![warn(missing_docs)]

pub mod grid;
pub mod solver;

pub use grid::{Clash, Grid, ParseError, ParseErrorKind, Unit};
pub use solver::{Classification, Count, Outcome, SearchStats, Solver};
