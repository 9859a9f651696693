//! One validated settings value per run, made by the same code whichever front end was
//! asked: the command line's flags, a query string's parameters or Python's keywords
//! arrive as an [`Asked`] (what was written, unchecked) and leave as checked values
//! ([`Choice`], [`BoardRules`], a thread count, or a whole [`RunOptions`]) before any
//! record is read, as ripgrep turns its low arguments into high ones.
//!
//! ```
//! use sudoku_batch::pipeline::settings::Asked;
//! use sudoku_batch::pipeline::input::{ColumnChoice, Format};
//!
//! let asked = Asked { format: Some("csv"), column: Some("2"), ..Asked::default() };
//! let choice = asked.input().unwrap();
//! assert_eq!(choice.format, Some(Format::Csv));
//! assert_eq!(choice.column, ColumnChoice::Index(2));
//! let wrong = Asked { delimiter: Some("ab"), ..Asked::default() };
//! assert_eq!(wrong.input().unwrap_err().to_string(), "delimiter \"ab\": give one character, or `tab`");
//! ```

use super::input::{parse_delimiter, Choice, ColumnChoice, Format};
use super::RunOptions;
use crate::values::rules::{BoardRules, RulesError};

/// Most worker threads a run takes.
pub const MAX_THREADS: usize = 1024;

/// The input formats by the names every front end takes.
pub const FORMAT_NAMES: [&str; 4] = ["auto", "lines", "csv", "blocks"];

/// What a front end was asked, as written and unchecked; `None` is "not said" (the
/// default, or detected from the input).
#[derive(Clone, Copy, Debug, Default)]
pub struct Asked<'a> {
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
    /// The input format: one of [`FORMAT_NAMES`].
    pub format: Option<&'a str>,
    /// The CSV column holding puzzles: a header name or a 1-based index.
    pub column: Option<&'a str>,
    /// The CSV delimiter: one character, or `tab`.
    pub delimiter: Option<&'a str>,
    /// Side of every board: 4, 9, 16 or 25.
    pub size: Option<usize>,
    /// `classic`, `diagonal` or `windoku`.
    pub variant: Option<&'a str>,
    /// Symbols of values 1..N, in order.
    pub symbols: Option<&'a str>,
}

/// A setting that cannot be used; its text names the setting as every front end
/// spells it (a flag without its dashes, a query parameter, a keyword).
#[derive(Debug)]
pub enum SettingsError {
    /// A thread count outside 1..=[`MAX_THREADS`].
    Threads(usize),
    /// A format name not among [`FORMAT_NAMES`].
    Format(String),
    /// A delimiter that cannot separate fields (the text says why).
    Delimiter(String),
    /// Board rules that do not fit together.
    Rules(RulesError),
}

impl std::fmt::Display for SettingsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SettingsError::Threads(n) => write!(f, "threads must be 1 to {MAX_THREADS}, not {n}"),
            SettingsError::Format(name) => {
                write!(f, "format {name:?}: expected {}", FORMAT_NAMES.join(", "))
            }
            SettingsError::Delimiter(why) => write!(f, "delimiter {why}"),
            SettingsError::Rules(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SettingsError {}

impl Asked<'_> {
    /// What was said of the input's layout, checked.
    pub fn input(&self) -> Result<Choice, SettingsError> {
        let format = match self.format {
            None | Some("auto") => None,
            Some("lines") => Some(Format::Lines),
            Some("csv") => Some(Format::Csv),
            Some("blocks") => Some(Format::Blocks),
            Some(other) => return Err(SettingsError::Format(other.to_string())),
        };
        let column = match self.column {
            None => ColumnChoice::Auto,
            Some(text) => text.parse().map_or_else(
                |_| ColumnChoice::Name(text.to_string()),
                ColumnChoice::Index,
            ),
        };
        let delimiter = self
            .delimiter
            .map(parse_delimiter)
            .transpose()
            .map_err(SettingsError::Delimiter)?;
        Ok(Choice {
            format,
            column,
            delimiter,
        })
    }

    /// The board rules, checked to fit together.
    pub fn boards(&self) -> Result<BoardRules, SettingsError> {
        BoardRules::parse(self.size, self.variant, self.symbols).map_err(SettingsError::Rules)
    }

    /// The thread count: as asked (1 to [`MAX_THREADS`]), else one a core.
    pub fn threads(&self) -> Result<usize, SettingsError> {
        match self.threads {
            None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
            Some(n @ 1..=MAX_THREADS) => Ok(n),
            Some(n) => Err(SettingsError::Threads(n)),
        }
    }

    /// A run's settings: every setting asked, checked, over [`RunOptions::new`]'s
    /// defaults (which a front end then sets further: rows, joins, outputs).
    pub fn settings(&self) -> Result<RunOptions, SettingsError> {
        let mut options = RunOptions::new(self.threads()?);
        options.input = self.input()?;
        options.boards = self.boards()?;
        Ok(options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_is_checked_once() {
        let asked = Asked {
            threads: Some(3),
            format: Some("blocks"),
            column: Some("quizzes"),
            delimiter: Some("tab"),
            size: Some(16),
            variant: Some("diagonal"),
            symbols: None,
        };
        let options = asked.settings().unwrap();
        assert_eq!(options.threads, 3);
        assert_eq!(options.input.format, Some(Format::Blocks));
        assert_eq!(options.input.column, ColumnChoice::Name("quizzes".into()));
        assert_eq!(options.input.delimiter, Some(b'\t'));
        assert_eq!(options.boards.size, Some(16));
        assert!(options.boards.all_boards());

        let refused = |asked: Asked<'_>| asked.settings().unwrap_err().to_string();
        assert_eq!(
            refused(Asked {
                threads: Some(0),
                ..Asked::default()
            }),
            "threads must be 1 to 1024, not 0"
        );
        assert_eq!(
            refused(Asked {
                format: Some("xlsx"),
                ..Asked::default()
            }),
            "format \"xlsx\": expected auto, lines, csv, blocks"
        );
        assert!(refused(Asked {
            delimiter: Some("1"),
            ..Asked::default()
        })
        .starts_with("delimiter \"1\" cannot separate fields"));
        assert_eq!(
            refused(Asked {
                variant: Some("killer"),
                ..Asked::default()
            }),
            "variant \"killer\": expected classic, diagonal or windoku"
        );
        assert_eq!(
            refused(Asked {
                size: Some(16),
                symbols: Some("123456789"),
                ..Asked::default()
            }),
            "symbols has 9 symbols but size is 16"
        );
        assert!(Asked::default().threads().unwrap() >= 1);
    }
}
