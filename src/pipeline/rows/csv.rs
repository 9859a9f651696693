//! CSV rows: `line,puzzle,solution,status,reason,mismatch`, then the job's own columns;
//! and tab-separated rows, the same with a tab for the comma (`sep`).

use std::io::Write;

use super::{write_u64, Cells, Row, COLUMNS};
use crate::jobs::{Columns, Value};
use crate::pipeline::input::Fields;
use crate::values::grid::{Grid, CELLS};

/// Longest raw text copied into an `invalid` row's `puzzle` field.
const RAW_KEEP: usize = 100;

/// Appends the header line: ours, the job's, `record` when numbered, the kept ones.
pub(super) fn header(sep: u8, extra: &[&str], record: &[&str], kept: &[String], out: &mut Vec<u8>) {
    let names = COLUMNS
        .iter()
        .chain(extra)
        .chain(record)
        .copied()
        .chain(kept.iter().map(String::as_str));
    for (i, name) in names.enumerate() {
        if i > 0 {
            out.push(sep);
        }
        let start = out.len();
        out.extend_from_slice(name.as_bytes());
        quote_tail(out, start, sep);
    }
    out.push(b'\n');
}

/// Appends the input's fields, `sep` before each, quoted as needed: at least `count`
/// (empty ones for a short row), and every field of a longer row; for rows that become
/// typed columns (`typed`), exactly `count`, bytes that are not UTF-8 as U+FFFD.
pub(super) fn fields(sep: u8, fields: &Fields<'_>, count: usize, typed: bool, out: &mut Vec<u8>) {
    let mut written = 0;
    fields.for_each(|field| {
        if typed && written == count {
            return;
        }
        out.push(sep);
        let start = out.len();
        if typed {
            for chunk in field.utf8_chunks() {
                out.extend_from_slice(chunk.valid().as_bytes());
                if !chunk.invalid().is_empty() {
                    out.extend_from_slice("\u{FFFD}".as_bytes());
                }
            }
        } else {
            out.extend_from_slice(field);
        }
        quote_tail(out, start, sep);
        written += 1;
    });
    for _ in written..count {
        out.push(sep);
    }
}

/// Appends one row without its line end.
pub(super) fn row<E: Columns>(
    sep: u8,
    row: &Row<'_, E>,
    csv_column: Option<&str>,
    out: &mut Vec<u8>,
) {
    write_u64(out, row.line);
    out.push(sep);
    match row.puzzle {
        Cells::Grid(grid) => write_grid(out, grid),
        Cells::Board { text, .. } | Cells::Marks { text, .. } => out.extend_from_slice(text),
        Cells::Raw(raw) => write_raw_puzzle(out, raw, sep),
        Cells::AsRead(text) => {
            let start = out.len();
            out.extend_from_slice(text);
            quote_tail(out, start, sep);
        }
    }
    out.push(sep);
    match row.solution {
        Some(Cells::Grid(s)) => write_grid(out, s),
        Some(Cells::Board { text, .. } | Cells::Marks { text, .. }) => out.extend_from_slice(text),
        Some(Cells::Raw(raw) | Cells::AsRead(raw)) => write_raw_puzzle(out, raw, sep),
        None => {}
    }
    out.push(sep);
    out.extend_from_slice(row.status.word().as_bytes());
    out.push(sep);
    if let Some(reason) = &row.reason {
        let start = out.len();
        // Writing to a Vec cannot fail.
        let _ = write!(out, "{}", reason.describe(csv_column));
        quote_tail(out, start, sep);
    }
    out.push(sep);
    match row.mismatch {
        Some(true) => out.extend_from_slice(b"true"),
        Some(false) => out.extend_from_slice(b"false"),
        None => {}
    }
    for i in 0..E::NAMES.len() {
        out.push(sep);
        match row.extra.value(i) {
            Value::Empty => {}
            Value::Grid(g) => write_grid(out, g),
            Value::Count(n) => write_u64(out, n),
            Value::Digits(d) => crate::jobs::write_digits(out, d),
            Value::Text(t) => {
                let start = out.len();
                out.extend_from_slice(t.as_bytes());
                quote_tail(out, start, sep);
            }
            Value::Tenths(t) => super::write_tenths(out, t),
            Value::Uses(counts, names) => {
                super::write_uses(out, counts, names, b' ');
            }
        }
    }
}

#[inline]
fn write_grid(out: &mut Vec<u8>, grid: &Grid) {
    let mut line = [0u8; CELLS];
    grid.write_line(&mut line);
    out.extend_from_slice(&line);
}

/// Appends a malformed record's text for the `puzzle` column: at most [`RAW_KEEP`]
/// bytes (then `...`), bytes outside printable ASCII shown as `?`, quoted as needed.
fn write_raw_puzzle(out: &mut Vec<u8>, raw: &[u8], sep: u8) {
    let start = out.len();
    for &b in &raw[..raw.len().min(RAW_KEEP)] {
        out.push(if (0x20..=0x7e).contains(&b) { b } else { b'?' });
    }
    if raw.len() > RAW_KEEP {
        out.extend_from_slice(b"...");
    }
    quote_tail(out, start, sep);
}

/// Quotes `out[start..]` as a CSV field if it holds the separator `sep`, a quote or a
/// line end (`\n` or `\r`: unquoted, either would end the row), doubling quotes. Works
/// in place from the back: no allocation beyond the buffer's growth.
pub(crate) fn quote_tail(out: &mut Vec<u8>, start: usize, sep: u8) {
    let field = &out[start..];
    if !field
        .iter()
        .any(|&b| b == sep || matches!(b, b'"' | b'\n' | b'\r'))
    {
        return;
    }
    let quotes = field.iter().filter(|&&b| b == b'"').count();
    let end = out.len();
    out.resize(end + quotes + 2, 0);
    let mut w = out.len() - 1;
    out[w] = b'"';
    for r in (start..end).rev() {
        let b = out[r];
        w -= 1;
        out[w] = b;
        if b == b'"' {
            w -= 1;
            out[w] = b'"';
        }
    }
    out[w - 1] = b'"';
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_text_is_made_safe() {
        let mut out = b"x,".to_vec();
        write_raw_puzzle(&mut out, b"a,\"b\xff", b',');
        assert_eq!(out, b"x,\"a,\"\"b?\"");
        let mut out = Vec::new();
        write_raw_puzzle(&mut out, &[b'.'; 150], b',');
        assert_eq!(out.len(), 103);
        assert!(out.ends_with(b"..."));
    }

    #[test]
    fn quoting_is_in_place_and_only_when_needed() {
        let mut out = b"1,plain".to_vec();
        quote_tail(&mut out, 2, b',');
        assert_eq!(out, b"1,plain");
        let mut out = b"1,too short: 80, \"x\"".to_vec();
        quote_tail(&mut out, 2, b',');
        assert_eq!(out, b"1,\"too short: 80, \"\"x\"\"\"");
    }

    #[test]
    fn tab_separated_fields_are_quoted_for_tabs_not_commas() {
        let mut out = b"1\t".to_vec();
        out.extend_from_slice(b"a, b");
        quote_tail(&mut out, 2, b'\t');
        assert_eq!(out, b"1\ta, b");
        let mut out = b"1\t".to_vec();
        out.extend_from_slice(b"a\tb");
        quote_tail(&mut out, 2, b'\t');
        assert_eq!(out, b"1\t\"a\tb\"");
    }

    #[test]
    fn header_appends_job_columns_after_the_contract() {
        let mut out = Vec::new();
        header(b',', &["minimal", "minimal_givens"], &[], &[], &mut out);
        assert_eq!(
            out,
            b"line,puzzle,solution,status,reason,mismatch,minimal,minimal_givens\n"
        );
    }
}
