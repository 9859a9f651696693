//! How a run reads records as boards: the `--size`, `--variant` and `--symbols` options
//! checked against each other before any record is read.

use crate::values::board::{Symbols, SymbolsError};
use crate::values::geometry::{Geometry, GeometryError, Variant};

/// How records are read as boards in a run: `--size`, `--variant`, `--symbols`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoardRules {
    /// The side every record must have; `None`: from each record's length.
    pub size: Option<usize>,
    /// The rules.
    pub variant: Variant,
    /// A custom alphabet (its length is the side).
    pub symbols: Option<Symbols>,
}

/// Board options that do not fit together or do not exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// No such variant.
    Variant(String),
    /// The alphabet is not one.
    Symbols(SymbolsError),
    /// The alphabet's length is not the size asked for.
    SymbolsSize {
        /// Symbols in the alphabet.
        symbols: usize,
        /// The size asked for.
        size: usize,
    },
    /// No such size, or the variant does not exist at it.
    Geometry(GeometryError),
}

impl std::fmt::Display for RulesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RulesError::Variant(name) => {
                write!(f, "variant {name:?}: expected classic, diagonal or windoku")
            }
            RulesError::Symbols(e) => write!(f, "symbols: {e}"),
            RulesError::SymbolsSize { symbols, size } => {
                write!(f, "symbols has {symbols} symbols but size is {size}")
            }
            RulesError::Geometry(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RulesError {}

impl BoardRules {
    /// The rules of front-end options (`size` 4, 9, 16 or 25; `variant` by name;
    /// `symbols` an alphabet), checked.
    pub fn parse(
        size: Option<usize>,
        variant: Option<&str>,
        symbols: Option<&str>,
    ) -> Result<BoardRules, RulesError> {
        let variant = match variant {
            None => Variant::Classic,
            Some(name) => Variant::parse(name).ok_or_else(|| RulesError::Variant(name.into()))?,
        };
        let symbols = match symbols {
            None => None,
            Some(text) => Some(Symbols::custom(text).map_err(RulesError::Symbols)?),
        };
        let rules = BoardRules {
            size,
            variant,
            symbols,
        };
        rules.check()?;
        Ok(rules)
    }

    /// True when every record is read as a board (anything but classic 9x9 in the
    /// default symbols); otherwise only records of 16, 256 or 625 cells are.
    pub fn all_boards(&self) -> bool {
        self.size.is_some_and(|s| s != 9)
            || self.variant != Variant::Classic
            || self.symbols.is_some()
    }

    /// Checks that the options fit together (before any record is read).
    pub fn check(&self) -> Result<(), RulesError> {
        if let (Some(size), Some(symbols)) = (self.size, &self.symbols) {
            if symbols.side() != size {
                return Err(RulesError::SymbolsSize {
                    symbols: symbols.side(),
                    size,
                });
            }
        }
        let side = self.size.or(self.symbols.as_ref().map(Symbols::side));
        if let Some(side) = side {
            Geometry::new(side, self.variant).map_err(RulesError::Geometry)?;
        }
        Ok(())
    }

    /// The alphabet of boards of `side`.
    pub fn symbols_for(&self, side: usize) -> Symbols {
        self.symbols.unwrap_or_else(|| Symbols::default_for(side))
    }
}
