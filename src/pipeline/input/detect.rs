//! Detecting an input's layout from its first lines: the format, a CSV header, and
//! which columns hold puzzles and solutions.

use super::lines::{is_skipped_line, trim_cr};
use super::{blocks, Choice, ColumnChoice, Format, InputError, Layout, DEFAULT_MAX_RECORD};
use crate::values::grid::{cell_value, CELLS};

/// Header names recognised for the puzzle column, compared without case.
pub(super) const PUZZLE_NAMES: &[&str] = &[
    "puzzle", "puzzles", "quizzes", "quiz", "question", "grid", "sudoku",
];
/// Header names recognised for the expected-solution column, compared without case.
pub(super) const SOLUTION_NAMES: &[&str] = &["solution", "solutions", "answer"];

/// Byte length of a UTF-8 byte-order mark at the start of `data`, else 0.
fn bom_len(data: &[u8]) -> usize {
    if data.starts_with(&[0xEF, 0xBB, 0xBF]) {
        3
    } else {
        0
    }
}

/// Works out the layout from the start of the data: format, header, columns, with the
/// CSV delimiter detected (see [`detect_layout_as`] to set it).
///
/// `head` must hold at least the first record line (a whole mapped file, or the first
/// block read from stdin with every complete line in it).
pub fn detect_layout(
    head: &[u8],
    format: Option<Format>,
    column: &ColumnChoice,
) -> Result<Layout, InputError> {
    detect_layout_as(
        head,
        &Choice {
            format,
            column: column.clone(),
            delimiter: None,
        },
    )
}

/// The layout of rows made lines (a Parquet file's, `puzzle [solution]` a row): every
/// line a record, none over `max_record` bytes.
pub fn rows_as_lines(max_record: usize) -> Result<Layout, InputError> {
    let lines = Choice {
        format: Some(super::Format::Lines),
        ..Choice::default()
    };
    let mut layout = detect_layout_as(b"", &lines)?;
    layout.max_record = max_record;
    layout.every_line = true;
    Ok(layout)
}

/// Works out the layout from the start of the data, as the user's `choice` says where
/// it says anything (a format, a column, a delimiter) and from the data where not.
pub fn detect_layout_as(head: &[u8], choice: &Choice) -> Result<Layout, InputError> {
    let column = &choice.column;
    let start = bom_len(head);
    // Find the first line that is not blank or a comment.
    let mut offset = start;
    let mut line_no = 1u64;
    let mut first_record: &[u8] = &[];
    let mut next_line: Option<&[u8]> = None;
    while offset < head.len() {
        let end = head[offset..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(head.len(), |i| offset + i);
        let line = trim_cr(&head[offset..end]);
        if !is_skipped_line(line) {
            first_record = line;
            next_line = head.get(end + 1..).and_then(|rest| {
                rest.split(|&b| b == b'\n')
                    .map(trim_cr)
                    .find(|l| !is_skipped_line(l))
            });
            break;
        }
        offset = end + 1;
        line_no += 1;
    }
    let (format, delimiter) = match (choice.format, choice.delimiter) {
        (Some(Format::Csv) | None, Some(delimiter)) => (Format::Csv, delimiter),
        (Some(_), Some(_)) => return Err(InputError::DelimiterWithoutCsv),
        (Some(Format::Csv), None) => (Format::Csv, detect_delimiter(first_record)),
        (Some(format), None) => (format, b','),
        (None, None) => detect_format(first_record, next_line),
    };
    let mut layout = Layout {
        format,
        delimiter,
        puzzle_field: 0,
        solution_field: None,
        puzzle_name: "field 1".to_string(),
        data_start: start,
        first_line: 1,
        max_record: DEFAULT_MAX_RECORD,
        header_line: None,
        solution_name: None,
        header_names: Vec::new(),
        field_count: 1,
        every_line: false,
    };
    if format != Format::Csv && *column != ColumnChoice::Auto {
        return Err(InputError::ColumnWithoutCsv);
    }
    if format != Format::Csv || first_record.is_empty() {
        return Ok(layout);
    }
    let fields = csv_fields(first_record, delimiter);
    let has_header = !fields.iter().any(|f| is_grid(f));
    let names: Vec<String> = fields
        .iter()
        .map(|f| String::from_utf8_lossy(f).trim().to_string())
        .collect();
    let find_name = |wanted: &[&str]| {
        names
            .iter()
            .position(|n| wanted.iter().any(|w| n.eq_ignore_ascii_case(w)))
    };
    let puzzle_field = match column {
        ColumnChoice::Index(i) if *i >= 1 && (!has_header || *i <= names.len()) => i - 1,
        ColumnChoice::Index(i) => {
            return Err(InputError::NoSuchColumn {
                column: i.to_string(),
                header: names,
            })
        }
        ColumnChoice::Name(name) => {
            match has_header.then(|| find_name(&[name.as_str()])).flatten() {
                Some(i) => i,
                None => {
                    return Err(InputError::NoSuchColumn {
                        column: name.clone(),
                        header: if has_header { names } else { Vec::new() },
                    })
                }
            }
        }
        ColumnChoice::Auto if has_header => match find_name(PUZZLE_NAMES) {
            Some(i) => i,
            None => first_grid_column(head, offset, delimiter).ok_or(InputError::NoPuzzleColumn)?,
        },
        ColumnChoice::Auto => fields
            .iter()
            .position(|f| is_grid(f))
            .ok_or(InputError::NoPuzzleColumn)?,
    };
    layout.puzzle_field = puzzle_field;
    layout.field_count = fields.len();
    layout.puzzle_name = match names.get(puzzle_field) {
        Some(name) if has_header => name.clone(),
        _ => format!("field {}", puzzle_field + 1),
    };
    if has_header {
        layout.header_names = names.clone();
        layout.header_line = Some(line_no);
        layout.solution_field = find_name(SOLUTION_NAMES).filter(|&i| i != puzzle_field);
        layout.solution_name = layout.solution_field.and_then(|i| names.get(i).cloned());
        let header_end = header_end(head, offset, delimiter);
        layout.data_start = header_end;
        layout.first_line = line_no
            + head[offset..header_end]
                .iter()
                .filter(|&&b| b == b'\n')
                .count() as u64;
    } else {
        layout.solution_field = fields
            .iter()
            .enumerate()
            .skip(puzzle_field + 1)
            .find(|(_, f)| is_grid(f) && f.iter().all(|b| b.is_ascii_digit() && *b != b'0'))
            .map(|(i, _)| i);
        layout.solution_name = layout.solution_field.map(|i| format!("field {}", i + 1));
    }
    Ok(layout)
}

/// The format and CSV delimiter of an input from its first record line.
///
/// - Blocks when it is a row of nine cells, a drawn separator, or a title followed by
///   such a row (first: a printed grid's title line may hold commas).
/// - Comma-separated when it has a comma, starts with a quote, or is a lone
///   puzzle-column header name (a one-column CSV).
/// - Tab- or semicolon-separated when split by that byte it is a header naming a
///   puzzle column; semicolon-separated also when one of two or more fields is an
///   81-cell grid (`grid;rating`). A tab-separated line without a header stays one
///   puzzle per line, whose tokens are split at any white space anyway.
/// - Else one puzzle per line.
pub(super) fn detect_format(first_record: &[u8], next_line: Option<&[u8]>) -> (Format, u8) {
    let trimmed = first_record.trim_ascii();
    let is_header_name = |field: &[u8]| {
        let field = field.trim_ascii();
        let field = field
            .strip_prefix(b"\"")
            .and_then(|f| f.strip_suffix(b"\""))
            .unwrap_or(field);
        PUZZLE_NAMES
            .iter()
            .any(|n| field.eq_ignore_ascii_case(n.as_bytes()))
    };
    if blocks::starts_blocks(first_record, next_line) {
        (Format::Blocks, b',')
    } else if first_record.contains(&b',') || trimmed.starts_with(b"\"") || is_header_name(trimmed)
    {
        (Format::Csv, b',')
    } else if first_record.contains(&b'\t')
        && first_record.split(|&b| b == b'\t').any(is_header_name)
    {
        (Format::Csv, b'\t')
    } else if first_record.contains(&b';')
        && first_record
            .split(|&b| b == b';')
            .any(|f| is_header_name(f) || is_grid(f.trim_ascii()))
    {
        (Format::Csv, b';')
    } else {
        (Format::Lines, b',')
    }
}

/// The delimiter of a file read as CSV because the user said so: a comma unless the
/// first record line has none and has tabs or semicolons.
fn detect_delimiter(first_record: &[u8]) -> u8 {
    if first_record.contains(&b',') {
        b','
    } else if first_record.contains(&b'\t') {
        b'\t'
    } else if first_record.contains(&b';') {
        b';'
    } else {
        b','
    }
}

/// True when `field` is 81 cells.
fn is_grid(field: &[u8]) -> bool {
    field.len() == CELLS && field.iter().all(|&b| cell_value(b).is_some())
}

/// Splits one CSV line into unquoted fields (for detection only).
fn csv_fields(line: &[u8], delimiter: u8) -> Vec<Vec<u8>> {
    let mut reader = ::csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(line);
    let mut record = ::csv::ByteRecord::new();
    match reader.read_byte_record(&mut record) {
        Ok(true) => record.iter().map(|f| f.to_vec()).collect(),
        _ => Vec::new(),
    }
}

/// Byte offset just past the CSV header record starting at `offset`.
fn header_end(data: &[u8], offset: usize, delimiter: u8) -> usize {
    let mut reader = ::csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .from_reader(&data[offset..]);
    let mut record = ::csv::ByteRecord::new();
    let _ = reader.read_byte_record(&mut record);
    let mut end = offset + reader.position().byte() as usize;
    // After a CRLF the reader stops before the `\n`; the header line includes it.
    if data.get(end) == Some(&b'\n') {
        end += 1;
    }
    end
}

/// When no header name matches: the first column whose value in the first data row is a grid.
fn first_grid_column(data: &[u8], header_offset: usize, delimiter: u8) -> Option<usize> {
    let start = header_end(data, header_offset, delimiter);
    let mut reader = ::csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .has_headers(false)
        .flexible(true)
        .comment(Some(b'#'))
        .from_reader(&data[start..]);
    let mut record = ::csv::ByteRecord::new();
    while let Ok(true) = reader.read_byte_record(&mut record) {
        if record.iter().all(|f| f.is_empty()) {
            continue;
        }
        return record.iter().position(is_grid);
    }
    None
}
