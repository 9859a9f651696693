//! sudoku-batch: solve, classify and benchmark Sudoku puzzle datasets.

#![warn(missing_docs)]

pub mod grid;
pub mod solver;

pub use grid::{Clash, Grid, ParseError, ParseErrorKind, Unit};
pub use solver::{Classification, Count, Outcome, SearchStats, Solver};
pub mod app;
pub mod bench;
pub mod cli;
pub mod corpus;
pub mod input;
pub mod output;
pub mod pipeline;
pub mod report;
