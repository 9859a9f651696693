//! Plain-text rows, fields separated by spaces: no header, no quoting.

use super::Row;
use crate::grid::{Grid, CELLS};
use crate::jobs::Columns;

/// `puzzle solution`, the layout of most published corpora (an empty solution is `-`).
pub(super) fn pair<E: Columns>(row: &Row<'_, E>, out: &mut Vec<u8>) {
    match row.puzzle {
        Ok(grid) => write_grid(out, grid),
        Err(raw) => out.extend(
            raw.iter()
                .map(|&b| if b.is_ascii_graphic() { b } else { b'?' }),
        ),
    }
    out.push(b' ');
    match row.solution {
        Some(s) => write_grid(out, s),
        None => out.push(b'-'),
    }
    out.push(b'\n');
}

fn write_grid(out: &mut Vec<u8>, grid: &Grid) {
    let mut line = [0u8; CELLS];
    grid.write_line(&mut line);
    out.extend_from_slice(&line);
}
