//! Dataset commands' cores: whole files of records compared, grouped and split.
//!
//! [`bench`](mod@bench) times engines on a file's puzzles; [`classes`] groups a file's
//! records by identity or equivalence, on which [`dedupe`] and [`split`] stand; [`show`]
//! draws one record.

pub mod audit;
pub mod bench;
pub mod classes;
pub mod dedupe;
pub mod rows;
pub mod show;
pub mod split;
