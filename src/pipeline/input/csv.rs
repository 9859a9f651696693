//! The CSV layout: quoted fields, CRLF, a header or none; the puzzle and solution
//! columns come from the layout.

use super::lines::{is_skipped_line, trim_cr};
use super::{too_long_record, Fields, Layout, Record, RecordError};
use crate::values::grid::Grid;

/// Calls `each` for every row of a `chunk` that holds no quote: then lines and
/// delimiters are the whole syntax, and splitting them directly is several times faster than a
/// CSV reader (most large CSV files quote nothing).
pub(super) fn for_each_plain_row<F: FnMut(Record<'_>)>(
    chunk: &[u8],
    first_line: u64,
    layout: &Layout,
    mut each: F,
) {
    for (line_no, line) in (first_line..).zip(chunk.split(|&b| b == b'\n')) {
        let line = trim_cr(line);
        if line.first().is_none_or(|&b| b == b'#') {
            continue;
        }
        if let Some(record) = layout.too_long(line, line_no) {
            each(record);
            continue;
        }
        let (mut count, mut puzzle, mut solution) = (0, None, None);
        for (i, field) in line.split(|&b| b == layout.delimiter).enumerate() {
            if i == layout.puzzle_field {
                puzzle = Some(field);
            } else if Some(i) == layout.solution_field {
                solution = Some(field);
            }
            count = i + 1;
        }
        if count == 1 && is_skipped_line(line) {
            continue;
        }
        let fields = Fields::Split {
            line,
            delimiter: layout.delimiter,
        };
        each(csv_record(line_no, count, puzzle, solution, fields));
    }
}

/// Calls `each` for every row of `chunk`, read by the csv crate into the reused `record`.
pub(super) fn for_each_quoted_row<F: FnMut(Record<'_>)>(
    chunk: &[u8],
    first_line: u64,
    layout: &Layout,
    record: &mut ::csv::ByteRecord,
    mut each: F,
) {
    let mut reader = ::csv::ReaderBuilder::new()
        .delimiter(layout.delimiter)
        .has_headers(false)
        .flexible(true)
        .comment(Some(b'#'))
        .from_reader(chunk);
    // Line numbers are counted here from byte offsets: the csv crate's own
    // line count lags by one after CRLF line ends.
    let (mut counted_to, mut line) = (0usize, first_line);
    loop {
        match reader.read_byte_record(record) {
            Ok(true) => {}
            Ok(false) => break,
            // Byte records only fail on I/O, which a slice cannot produce.
            Err(_) => break,
        }
        // The reported start can precede blank and `#` comment lines the reader
        // skipped; step over them so their newlines are counted.
        let mut start = record.position().map_or(0, |p| p.byte() as usize);
        loop {
            match chunk.get(start) {
                Some(b'\r' | b'\n') => start += 1,
                Some(b'#') => {
                    start += chunk[start..]
                        .iter()
                        .position(|&b| b == b'\n')
                        .map_or(chunk.len() - start, |i| i + 1)
                }
                _ => break,
            }
        }
        let start = start.min(chunk.len()).max(counted_to);
        line += chunk[counted_to..start]
            .iter()
            .filter(|&&b| b == b'\n')
            .count() as u64;
        counted_to = start;
        if record.len() == 1 && is_skipped_line(&record[0]) {
            continue;
        }
        // Fields and their commas (quotes are not kept by the reader).
        let length = record.as_slice().len() + record.len().saturating_sub(1);
        if length > layout.max_record {
            let raw = record.get(0).unwrap_or(&[]);
            each(too_long_record(raw, line, length as u64, layout.max_record));
            continue;
        }
        let record = &*record;
        let solution = layout.solution_field.and_then(|i| record.get(i));
        each(csv_record(
            line,
            record.len(),
            record.get(layout.puzzle_field),
            solution,
            Fields::Read(record),
        ));
    }
}

/// Just past the first line end at or after `target` that is outside quotes, or the end
/// of `data`; `in_quotes` carries the quoting state from the previous chunk.
pub(super) fn chunk_end(data: &[u8], target: usize, in_quotes: &mut bool) -> usize {
    // Quote parity decides whether a newline ends a record. Counting quotes
    // without an early exit lets the compiler vectorise the scan.
    let quotes = |bytes: &[u8]| bytes.iter().filter(|&&b| b == b'"').count() % 2 == 1;
    let mut quoted = *in_quotes ^ quotes(&data[..target.min(data.len())]);
    let mut pos = target.min(data.len());
    while let Some(i) = data[pos..].iter().position(|&b| b == b'\n') {
        let newline = pos + i;
        quoted ^= quotes(&data[pos..newline]);
        if !quoted {
            *in_quotes = false;
            return newline + 1;
        }
        pos = newline + 1;
    }
    *in_quotes = quoted ^ quotes(&data[pos..]);
    data.len()
}

/// The line on which a quote that `bytes` (starting on line `first_line`, outside
/// quotes) leaves open was opened, if one is left open.
pub fn unclosed_quote_line(bytes: &[u8], first_line: u64) -> Option<u64> {
    let (mut line, mut quoted, mut opened) = (first_line, false, first_line);
    for &b in bytes {
        match b {
            b'"' => {
                quoted = !quoted;
                if quoted {
                    opened = line;
                }
            }
            b'\n' => line += 1,
            _ => {}
        }
    }
    quoted.then_some(opened)
}

/// A CSV record from its puzzle and solution fields (`None` when the row is too short)
/// and all its `fields`.
#[inline]
fn csv_record<'a>(
    line: u64,
    field_count: usize,
    puzzle: Option<&'a [u8]>,
    solution: Option<&'a [u8]>,
    fields: Fields<'a>,
) -> Record<'a> {
    Record {
        line,
        puzzle: match puzzle {
            None => Err(RecordError::MissingField(field_count)),
            Some(field) => Grid::parse(field).map_err(RecordError::Parse),
        },
        raw: puzzle.unwrap_or(&[]),
        expected: solution
            .filter(|f| !f.is_empty())
            .map(|f| Grid::parse(f).map_err(|_| ())),
        expected_text: solution.filter(|f| !f.is_empty()),
        marks: None,
        fields,
    }
}
