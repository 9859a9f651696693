//! Parse-then-classify on arbitrary bytes. Grids with few empty cells are checked
//! against the independent reference counter; every solution must be valid and keep
//! the givens.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudoku_batch::{Classification, Grid, Solver};

#[path = "../../tests/common/reference.rs"]
mod reference;

fuzz_target!(|data: &[u8]| {
    // Bytes map onto cells so most inputs are grids: 0-9 as they are, others empty.
    let mut cells = [0u8; 81];
    for (cell, &b) in cells.iter_mut().zip(data) {
        *cell = if b.is_ascii_digit() { b - b'0' } else { b % 10 };
    }
    let Some(grid) = Grid::from_cells(cells) else { return };
    let mut solver = Solver::new();
    let class = solver.classify(&grid);
    if let Classification::Unique(s) | Classification::Multiple(s) = class {
        assert!(s.is_valid_solution() && s.keeps_givens_of(&grid));
    }
    assert_eq!(matches!(class, Classification::Invalid(_)), grid.find_clash().is_some());
    let empties = cells.iter().filter(|&&v| v == 0).count();
    if empties <= 45 {
        let expected = reference::reference_count(&grid, 2);
        let got = match class {
            Classification::Unique(_) => 1,
            Classification::Multiple(_) => 2,
            _ => 0,
        };
        assert_eq!(got, expected, "{grid}");
    }
    // The line parser agrees with the cell mapping for the grid's own text.
    assert_eq!(Grid::parse(&grid.to_line()), Ok(grid));
});
