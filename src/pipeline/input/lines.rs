//! The lines layout: one puzzle per line, found among the line's other text.

use super::{Fields, Layout, Record, RecordError};
use crate::values::grid::{cell_value, Grid, ParseError, ParseErrorKind, CELLS};
use crate::values::marks::{Marks, MARKS_LEN};

/// Strips a trailing `\r`.
#[inline]
pub(super) fn trim_cr(line: &[u8]) -> &[u8] {
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// True for lines that hold no record: blank, `#` comments, a lone 0x1A.
#[inline]
pub(super) fn is_skipped_line(line: &[u8]) -> bool {
    match line.iter().position(|b| !b.is_ascii_whitespace()) {
        None => true,
        Some(i) => line[i] == b'#' || &line[i..] == b"\x1a",
    }
}

/// Calls `each` for every record line of `chunk`, whose first byte is on `first_line`.
pub(super) fn for_each_line<F: FnMut(Record<'_>)>(
    chunk: &[u8],
    first_line: u64,
    layout: &Layout,
    mut each: F,
) {
    // The piece after the chunk's last line end is no line (chunks end at line ends).
    if chunk.is_empty() {
        return;
    }
    let whole = chunk.strip_suffix(b"\n").unwrap_or(chunk);
    for (line_no, line) in (first_line..).zip(whole.split(|&b| b == b'\n')) {
        let line = trim_cr(line);
        if let Some(record) = layout.too_long(line, line_no) {
            each(record);
        } else if layout.every_line || !is_skipped_line(line) {
            each(line_record(line, line_no));
        }
    }
}

/// Just past the first line end at or after `target`, or the end of `data`.
pub(super) fn chunk_end(data: &[u8], target: usize) -> usize {
    if target >= data.len() {
        return data.len();
    }
    data[target..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(data.len(), |i| target + i + 1)
}

/// Finds the puzzle (and an expected solution) on one line of the lines format.
pub(super) fn line_record(line: &[u8], line_no: u64) -> Record<'_> {
    // Fast path: the whole line is the grid, as in most large corpora.
    if line.len() == CELLS {
        if let Ok(grid) = Grid::parse(line) {
            return Record {
                line: line_no,
                puzzle: Ok(grid),
                raw: line,
                expected: None,
                expected_text: None,
                marks: None,
                fields: Fields::Line(line),
            };
        }
    }
    // Text after a `#` that starts a word is a note.
    let end = line
        .iter()
        .enumerate()
        .position(|(i, &b)| b == b'#' && (i == 0 || line[i - 1].is_ascii_whitespace()))
        .unwrap_or(line.len());
    let text = &line[..end];
    let mut puzzle: Option<(usize, &[u8])> = None;
    let mut longest: Option<(usize, &[u8])> = None;
    let mut expected = None;
    let mut expected_text = None;
    // After a token that is not a grid: the next token of its length (a variant board's
    // solution).
    let mut after_longest: Option<&[u8]> = None;
    let mut pos = 0;
    for token in text.split(|b| b.is_ascii_whitespace()) {
        let start = pos;
        pos += token.len() + 1;
        if token.is_empty() {
            continue;
        }
        let is_grid = token.len() == CELLS && token.iter().all(|&b| cell_value(b).is_some());
        if is_grid {
            if puzzle.is_none() {
                puzzle = Some((start, token));
            } else if expected.is_none() && token.iter().all(|&b| (b'1'..=b'9').contains(&b)) {
                expected = Grid::parse(token).ok().map(Ok);
                expected_text = Some(token);
            }
        } else if longest.is_none_or(|(_, t)| t.len() < token.len()) {
            longest = Some((start, token));
            after_longest = None;
        } else if longest.is_some_and(|(_, t)| t.len() == token.len()) && after_longest.is_none() {
            after_longest = Some(token);
        }
    }
    match (puzzle, longest) {
        (Some((_, token)), _) => Record {
            line: line_no,
            puzzle: Grid::parse(token).map_err(RecordError::Parse),
            raw: token,
            expected,
            expected_text,
            marks: None,
            fields: Fields::Line(line),
        },
        // 729 characters: the nine candidate positions of every cell.
        (None, Some((_, token))) if token.len() == MARKS_LEN => {
            let marks = Marks::parse(token);
            Record {
                line: line_no,
                puzzle: marks.map(|m| m.singles()).map_err(RecordError::Marks),
                raw: token,
                expected: None,
                expected_text: None,
                marks: marks.ok(),
                fields: Fields::Line(line),
            }
        }
        (None, Some((start, token))) => {
            let err = match Grid::parse(token) {
                Err(e) => e,
                // Unreachable in practice: an 81-cell grid token would have been taken.
                Ok(_) => ParseError {
                    column: 1,
                    kind: ParseErrorKind::TooShort(token.len()),
                },
            };
            Record {
                line: line_no,
                puzzle: Err(RecordError::Parse(ParseError {
                    column: start + err.column,
                    kind: err.kind,
                })),
                raw: token,
                expected: None,
                expected_text: after_longest,
                marks: None,
                fields: Fields::Line(line),
            }
        }
        (None, None) => Record {
            line: line_no,
            puzzle: Err(RecordError::NoGrid),
            raw: text,
            expected: None,
            expected_text: None,
            marks: None,
            fields: Fields::Line(line),
        },
    }
}
