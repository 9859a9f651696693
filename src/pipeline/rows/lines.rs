//! Plain-text rows, fields separated by spaces: no header, no quoting.

use super::{write_u64, Cells, Row};
use crate::jobs::{Columns, Value};
use crate::values::grid::{Grid, CELLS};

/// `puzzle solution`, the layout of most published corpora (an empty solution is `-`).
pub(super) fn pair<E: Columns>(row: &Row<'_, E>, out: &mut Vec<u8>) {
    write_puzzle(row, out);
    out.push(b' ');
    write_solution(row, out);
    out.push(b'\n');
}

/// `puzzle solution status`, then the job's own values (`-` for none).
pub(super) fn line<E: Columns>(row: &Row<'_, E>, out: &mut Vec<u8>) {
    write_puzzle(row, out);
    out.push(b' ');
    write_solution(row, out);
    out.push(b' ');
    out.extend_from_slice(row.status.word().as_bytes());
    for i in 0..E::NAMES.len() {
        out.push(b' ');
        write_value(row.extra.value(i), out);
    }
    out.push(b'\n');
}

/// The puzzle, or a malformed record's text with anything but printable non-space
/// ASCII shown as `?` so that the line keeps its fields.
fn write_puzzle<E>(row: &Row<'_, E>, out: &mut Vec<u8>) {
    write_cells(&row.puzzle, out);
}

fn write_solution<E>(row: &Row<'_, E>, out: &mut Vec<u8>) {
    match &row.solution {
        Some(cells) => write_cells(cells, out),
        None => out.push(b'-'),
    }
}

fn write_cells(cells: &Cells<'_>, out: &mut Vec<u8>) {
    match *cells {
        Cells::Grid(grid) => write_grid(out, grid),
        Cells::Board { text, .. } | Cells::Marks { text, .. } => out.extend_from_slice(text),
        Cells::Raw([]) | Cells::AsRead([]) => out.push(b'-'),
        Cells::Raw(raw) | Cells::AsRead(raw) => {
            out.extend(
                raw.iter()
                    .take(100)
                    .map(|&b| if b.is_ascii_graphic() { b } else { b'?' }),
            )
        }
    }
}

/// A job's value as one space-free field.
pub(super) fn write_value(value: Value<'_>, out: &mut Vec<u8>) {
    match value {
        Value::Empty => out.push(b'-'),
        Value::Grid(g) => write_grid(out, g),
        Value::Count(n) => write_u64(out, n),
        Value::Digits(d) => crate::jobs::write_digits(out, d),
        Value::Text(t) => out.extend(t.bytes().map(|b| if b == b' ' { b'_' } else { b })),
        Value::Tenths(t) => super::write_tenths(out, t),
        Value::Uses(counts, names) => {
            if !super::write_uses(out, counts, names, b',') {
                out.push(b'-');
            }
        }
    }
}

pub(super) fn write_grid(out: &mut Vec<u8>, grid: &Grid) {
    let mut line = [0u8; CELLS];
    grid.write_line(&mut line);
    out.extend_from_slice(&line);
}
