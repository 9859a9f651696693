//! Values: what goes through every layer, with no behaviour beyond reading, writing and
//! checking themselves. Nothing here knows of engines, files or threads.
//!
//! [`grid`] is the 81-cell classic grid, [`marks`] a pencil-mark puzzle, [`board`] and
//! [`geometry`] a board of any size and rules (4x4 to 25x25, diagonal, windoku) with
//! [`rules`] for how records are read as boards; [`puzzle`] is a puzzle of any of those
//! shapes and its answer; [`search`] what an engine returns and how much search it may
//! take; [`status`] the word a record's row carries; [`level`] a named difficulty;
//! [`validate`] the clashes of a full or partial grid.

pub mod board;
pub mod geometry;
pub mod grid;
pub mod level;
pub mod marks;
pub mod puzzle;
pub mod rules;
pub mod search;
pub mod status;
pub mod validate;
