//! Variants: 4x4 to 25x25 grids (n²×n² for n = 2..5) under the classic, diagonal (X) or
//! windoku rules, as values ([`Board`], [`Symbols`], [`Geometry`]) and a fast engine for
//! all of them ([`VariantSolver`]). The classic 9x9 band solver stays the engine for
//! classic 9x9 records; this one takes every other geometry.

mod board;
mod geometry;
mod solver;

pub use board::{Board, BoardError, Symbols, SymbolsError};
pub use geometry::{Geometry, GeometryError, UnitCells, UnitKind, Variant, MAX_CELLS, MAX_SIDE};
pub use solver::{BoardClash, BoardCount, MaskSolver, VariantSolver};

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

impl BoardRules {
    /// True when every record is read as a board (anything but classic 9x9 in the
    /// default symbols); otherwise only records of 16, 256 or 625 cells are.
    pub fn all_boards(&self) -> bool {
        self.size.is_some_and(|s| s != 9)
            || self.variant != Variant::Classic
            || self.symbols.is_some()
    }

    /// Checks that the options fit together (before any record is read).
    pub fn check(&self) -> Result<(), String> {
        if let (Some(size), Some(symbols)) = (self.size, &self.symbols) {
            if symbols.side() != size {
                return Err(format!(
                    "--symbols has {} symbols but --size is {size}",
                    symbols.side()
                ));
            }
        }
        let side = self.size.or(self.symbols.as_ref().map(Symbols::side));
        if let Some(side) = side {
            Geometry::new(side, self.variant).map_err(|e| e.to_string())?;
        }
        Ok(())
    }

    /// The alphabet of boards of `side`.
    pub fn symbols_for(&self, side: usize) -> Symbols {
        self.symbols.unwrap_or_else(|| Symbols::default_for(side))
    }
}
