//! What became of one record: the word in the `status` column.

use serde::Serialize;

/// Output status of one record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Exactly one solution (classify).
    Unique,
    /// Two or more solutions (classify).
    Multiple,
    /// A solution was found, uniqueness not checked (solve).
    Solved,
    /// Well-formed, no clash, no solution.
    Unsolvable,
    /// Malformed record or clashing givens.
    Invalid,
    /// The search spent its budget (`--budget`) before it could say.
    Undecided,
}

impl Status {
    /// Every status, in column order of the reports.
    pub const ALL: [Status; 6] = [
        Status::Unique,
        Status::Multiple,
        Status::Solved,
        Status::Unsolvable,
        Status::Invalid,
        Status::Undecided,
    ];

    /// The status word written in the `status` column.
    pub fn word(self) -> &'static str {
        match self {
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Invalid => "invalid",
            Status::Undecided => "undecided",
        }
    }
}
