//! Printed grids, as the seeds' `printGrid` draws them: a header with the line number,
//! status and the job's values, then the puzzle and its solution side by side, with `|`
//! between boxes and `------+-------+------` between bands, and a blank line after.
//!
//! ```text
//! line 2: unique
//! . . . | . . . | . 9 5    4 7 1 | 3 8 2 | 9 5 6
//! ...
//! ------+-------+------    ------+-------+------
//! ```
//!
//! Read back as a block-layout file, each printed record gives the same puzzle (and
//! its solution as the expected one).

use super::lines::write_value;
use super::{write_u64, Cells, Row};
use crate::jobs::{Columns, Value};
use crate::values::grid::Grid;

/// The separator between bands.
const BAND_LINE: &[u8] = b"------+-------+------";

/// Gap between the puzzle and the solution.
const GAP: &[u8] = b"    ";

/// Appends one printed record.
pub(super) fn row<E: Columns>(
    row: &Row<'_, E>,
    reason: impl FnOnce(&mut Vec<u8>),
    out: &mut Vec<u8>,
) {
    out.extend_from_slice(b"line ");
    write_u64(out, row.line);
    out.extend_from_slice(b": ");
    out.extend_from_slice(row.status.word().as_bytes());
    if row.reason.is_some() {
        out.extend_from_slice(b": ");
        reason(out);
    }
    if row.mismatch == Some(true) {
        out.extend_from_slice(b", differs from the input's solution");
    }
    for (i, name) in E::NAMES.iter().enumerate() {
        let value = row.extra.value(i);
        if value != Value::Empty {
            out.extend_from_slice(b", ");
            out.extend_from_slice(name.as_bytes());
            out.push(b' ');
            write_value(value, out);
        }
    }
    if matches!(row.puzzle, Cells::Marks { .. }) {
        // Pencil marks: the cells with a single candidate are drawn as givens.
        out.extend_from_slice(b" (pencil marks; cells with one candidate shown)");
    }
    out.push(b'\n');
    match row.puzzle {
        Cells::Board { text, side } => {
            let solution = match row.solution {
                Some(Cells::Board { text, .. }) => Some(text),
                _ => None,
            };
            board_rows(text, solution, side, out);
        }
        Cells::Grid(puzzle)
        | Cells::Marks {
            singles: puzzle, ..
        } => {
            let solution = match row.solution {
                Some(Cells::Grid(solution)) => Some(solution),
                _ => None,
            };
            for r in 0..9 {
                if r == 3 || r == 6 {
                    out.extend_from_slice(BAND_LINE);
                    if solution.is_some() {
                        out.extend_from_slice(GAP);
                        out.extend_from_slice(BAND_LINE);
                    }
                    out.push(b'\n');
                }
                grid_row(puzzle, r, out);
                if let Some(solution) = solution {
                    out.extend_from_slice(GAP);
                    grid_row(solution, r, out);
                }
                out.push(b'\n');
            }
        }
        Cells::Raw(raw) | Cells::AsRead(raw) => {
            out.extend_from_slice(b"  ");
            out.extend(raw.iter().take(100).map(
                |&b| {
                    if (0x20..=0x7e).contains(&b) {
                        b
                    } else {
                        b'?'
                    }
                },
            ));
            out.push(b'\n');
        }
    }
    out.push(b'\n');
}

/// `5 3 . | . 7 . | . . .`
fn grid_row(grid: &Grid, r: usize, out: &mut Vec<u8>) {
    for c in 0..9 {
        if c > 0 {
            out.extend_from_slice(if c % 3 == 0 { b" | " } else { b" " });
        }
        out.push(match grid.get(r * 9 + c) {
            0 => b'.',
            d => b'0' + d,
        });
    }
}

/// The side of a board's boxes (3 for 9x9).
fn box_side(side: usize) -> usize {
    (2..=5).find(|n| n * n == side).unwrap_or(3)
}

/// Appends the dashed line between bands of a board of `side` (`------+-------+------`
/// for 9x9), `+` under each `|` between boxes.
pub fn band_line(side: usize, out: &mut Vec<u8>) {
    let n = box_side(side);
    for b in 0..n {
        if b > 0 {
            out.push(b'+');
        }
        let width = 2 * n + usize::from(b > 0) + usize::from(b + 1 < n) - 1;
        out.extend(std::iter::repeat_n(b'-', width));
    }
}

/// A variant board drawn like a 9x9 one: symbols separated by spaces, `|` between boxes,
/// a dashed line between bands, the solution beside the puzzle.
fn board_rows(puzzle: &[u8], solution: Option<&[u8]>, side: usize, out: &mut Vec<u8>) {
    let n = box_side(side);
    let band_line = |out: &mut Vec<u8>| band_line(side, out);
    let text_row = |text: &[u8], r: usize, out: &mut Vec<u8>| {
        for c in 0..side {
            if c > 0 {
                out.extend_from_slice(if c % n == 0 { b" | " } else { b" " });
            }
            out.push(text[r * side + c]);
        }
    };
    for r in 0..side {
        if r > 0 && r % n == 0 {
            band_line(out);
            if solution.is_some() {
                out.extend_from_slice(GAP);
                band_line(out);
            }
            out.push(b'\n');
        }
        text_row(puzzle, r, out);
        if let Some(solution) = solution {
            out.extend_from_slice(GAP);
            text_row(solution, r, out);
        }
        out.push(b'\n');
    }
}
