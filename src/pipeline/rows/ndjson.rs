//! NDJSON rows: one JSON object per record with the CSV's fields, `null` for empty
//! ones, numbers as numbers, technique counts as an object.

use std::io::Write;

use super::{write_u64, Cells, Row, COLUMNS};
use crate::jobs::{Columns, Value};
use crate::pipeline::input::Fields;
use crate::values::grid::{Grid, CELLS};

/// Appends cells as a JSON string (a malformed record's first 100 bytes).
fn cells(out: &mut Vec<u8>, cells: &Cells<'_>) {
    match *cells {
        Cells::Grid(grid) => grid_string(out, grid),
        Cells::Board { text, .. } | Cells::Marks { text, .. } => string(out, text),
        Cells::Raw(raw) => string(out, &raw[..raw.len().min(100)]),
        Cells::AsRead(text) => string(out, text),
    }
}

/// Appends the input's fields as `"name":"value"` under `names` (`input_N` for the
/// fields of a row longer than its header); a short row's missing fields are `null`.
pub(super) fn fields(fields: &Fields<'_>, names: &[String], out: &mut Vec<u8>) {
    let mut written = 0;
    fields.for_each(|field| {
        match names.get(written) {
            Some(name) => {
                out.push(b',');
                string(out, name.as_bytes());
                out.push(b':');
            }
            None => {
                out.extend_from_slice(b",\"input_");
                write_u64(out, written as u64 + 1);
                out.extend_from_slice(b"\":");
            }
        }
        string(out, field);
        written += 1;
    });
    for name in names.iter().skip(written) {
        out.push(b',');
        string(out, name.as_bytes());
        out.extend_from_slice(b":null");
    }
}

/// Appends one object without its closing brace.
pub(super) fn row<E: Columns>(
    row: &Row<'_, E>,
    reason: impl FnOnce(&mut Vec<u8>),
    out: &mut Vec<u8>,
) {
    out.extend_from_slice(b"{\"line\":");
    write_u64(out, row.line);
    key(out, COLUMNS[1]);
    cells(out, &row.puzzle);
    key(out, COLUMNS[2]);
    match &row.solution {
        Some(solution) => cells(out, solution),
        None => out.extend_from_slice(b"null"),
    }
    key(out, COLUMNS[3]);
    string(out, row.status.word().as_bytes());
    key(out, COLUMNS[4]);
    if row.reason.is_some() {
        out.push(b'"');
        let start = out.len();
        reason(out);
        escape_tail(out, start);
        out.push(b'"');
    } else {
        out.extend_from_slice(b"null");
    }
    key(out, COLUMNS[5]);
    out.extend_from_slice(match row.mismatch {
        Some(true) => b"true",
        Some(false) => b"false",
        None => b"null",
    });
    for (i, name) in E::NAMES.iter().enumerate() {
        key(out, name);
        match row.extra.value(i) {
            Value::Empty => out.extend_from_slice(b"null"),
            Value::Grid(g) => grid_string(out, g),
            Value::Count(n) => write_u64(out, n),
            Value::Digits(d) => {
                out.push(b'"');
                crate::jobs::write_digits(out, d);
                out.push(b'"');
            }
            Value::Text(t) => string(out, t.as_bytes()),
            Value::Tenths(t) => super::write_tenths(out, t),
            Value::Uses(counts, names) => {
                out.push(b'{');
                let mut first = true;
                for (&n, name) in counts.iter().zip(names).filter(|(&n, _)| n > 0) {
                    if !first {
                        out.push(b',');
                    }
                    first = false;
                    string(out, name.as_bytes());
                    out.push(b':');
                    write_u64(out, u64::from(n));
                }
                out.push(b'}');
            }
        }
    }
}

/// Escapes `out[start..]` (UTF-8 text) for a JSON string in place, from the back, so
/// that no buffer is allocated.
fn escape_tail(out: &mut Vec<u8>, start: usize) {
    let extra: usize = out[start..]
        .iter()
        .map(|&b| match b {
            b'"' | b'\\' => 1,
            0..=0x1f => 5,
            _ => 0,
        })
        .sum();
    if extra == 0 {
        return;
    }
    let end = out.len();
    out.resize(end + extra, 0);
    let mut w = out.len();
    for r in (start..end).rev() {
        let b = out[r];
        match b {
            b'"' | b'\\' => {
                w -= 2;
                out[w] = b'\\';
                out[w + 1] = b;
            }
            0..=0x1f => {
                w -= 6;
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out[w..w + 6].copy_from_slice(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[(b >> 4) as usize],
                    HEX[(b & 15) as usize],
                ]);
            }
            _ => {
                w -= 1;
                out[w] = b;
            }
        }
    }
}

fn key(out: &mut Vec<u8>, name: &str) {
    out.extend_from_slice(b",\"");
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(b"\":");
}

fn grid_string(out: &mut Vec<u8>, grid: &Grid) {
    let mut line = [0u8; CELLS];
    grid.write_line(&mut line);
    out.push(b'"');
    out.extend_from_slice(&line);
    out.push(b'"');
}

/// A JSON string of arbitrary bytes: escapes quotes, backslashes and control bytes;
/// bytes that are not valid UTF-8 become U+FFFD.
pub(crate) fn string(out: &mut Vec<u8>, bytes: &[u8]) {
    out.push(b'"');
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '"' => out.extend_from_slice(b"\\\""),
                '\\' => out.extend_from_slice(b"\\\\"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(out, "\\u{:04x}", c as u32);
                }
                c => {
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
            }
        }
        if !chunk.invalid().is_empty() {
            out.extend_from_slice("\u{fffd}".as_bytes());
        }
    }
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_in_place_matches_serde() {
        for text in [
            "plain",
            "bad byte '\"' at column 3",
            "a\\b\u{1}c",
            "\"\"",
            "",
        ] {
            let mut out = b"x".to_vec();
            out.extend_from_slice(text.as_bytes());
            escape_tail(&mut out, 1);
            let want = serde_json::to_string(text).unwrap();
            assert_eq!(
                format!("x\"{}\"", String::from_utf8(out[1..].to_vec()).unwrap()),
                format!("x{want}")
            );
        }
        let mut out = Vec::new();
        string(&mut out, b"a\"\xffb");
        assert_eq!(out, "\"a\\\"\u{fffd}b\"".as_bytes());
    }
}
