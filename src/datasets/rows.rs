//! The rows `dedupe --rows` and `overlap` write, one per input record: the command's own
//! columns, then `record` (the record's 0-based index, `--record-index`), then the
//! record's own fields (`--keep-columns`), as CSV rows that the output's encoding writes
//! in the format asked for (CSV, tab-separated, JSON lines, Parquet).

use std::io::{self, Write};

use crate::pipeline::input::{Format, Layout};
use crate::pipeline::output::csv_records::CsvRecords;
use crate::pipeline::rows::{kept_names, quote_tail, RECORD_COLUMN};

/// How a dataset command's rows are laid out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RowsShape {
    /// A `record` column after the command's own (`--record-index`).
    pub numbered: bool,
    /// The record's own fields after those (`--keep-columns`).
    pub keep_fields: bool,
}

/// Where a record's own fields come from.
struct Kept {
    /// How many fields the header names: shorter rows are made as wide.
    width: usize,
    /// CSV rows are read field by field; other records are one field, the line.
    csv: Option<CsvRecords>,
}

/// Writes a dataset command's rows; its buffers are reused row after row.
pub struct DatasetRows<'a> {
    out: &'a mut dyn Write,
    numbered: bool,
    kept: Option<Kept>,
    row: Vec<u8>,
    /// Rows written so far: the next record's index.
    written: u64,
}

impl<'a> DatasetRows<'a> {
    /// Rows shaped as `shape` of records read with `layout`, into `out`, under a header
    /// of the command's columns `ours`. Records drawn over nine lines have no fields to
    /// keep: `keep_fields` is then refused by the caller.
    pub fn start(
        out: &'a mut dyn Write,
        ours: &[&str],
        shape: RowsShape,
        layout: &Layout,
    ) -> io::Result<DatasetRows<'a>> {
        let mut row = Vec::new();
        for (i, name) in ours.iter().enumerate() {
            if i > 0 {
                row.push(b',');
            }
            row.extend_from_slice(name.as_bytes());
        }
        if shape.numbered {
            row.push(b',');
            row.extend_from_slice(RECORD_COLUMN.as_bytes());
        }
        let kept = shape.keep_fields.then(|| {
            let names = kept_names(layout, ours);
            for name in &names {
                row.push(b',');
                let start = row.len();
                row.extend_from_slice(name.as_bytes());
                quote_tail(&mut row, start, b',');
            }
            Kept {
                width: names.len(),
                csv: (layout.format == Format::Csv)
                    .then(|| CsvRecords::with_delimiter(layout.delimiter)),
            }
        });
        row.push(b'\n');
        out.write_all(&row)?;
        Ok(DatasetRows {
            out,
            numbered: shape.numbered,
            kept,
            row,
            written: 0,
        })
    }

    /// Writes the row of the next record, whose bytes as read are `record`: the
    /// command's own fields from `ours` (already separated by commas), then the rest.
    pub fn row(&mut self, ours: impl FnOnce(&mut Vec<u8>), record: &[u8]) -> io::Result<()> {
        self.row.clear();
        ours(&mut self.row);
        if self.numbered {
            self.row.push(b',');
            let _ = write!(self.row, "{}", self.written);
        }
        if let Some(kept) = &mut self.kept {
            kept.append(record, &mut self.row)?;
        }
        self.row.push(b'\n');
        self.written += 1;
        self.out.write_all(&self.row)
    }
}

impl Kept {
    /// Appends the fields of `record` (its bytes as read), each after a comma, as many
    /// as the header names at least.
    fn append(&mut self, record: &[u8], row: &mut Vec<u8>) -> io::Result<()> {
        let field = |row: &mut Vec<u8>, value: &[u8]| {
            row.push(b',');
            let start = row.len();
            row.extend_from_slice(value);
            quote_tail(row, start, b',');
        };
        let mut count = 0;
        match &mut self.csv {
            Some(csv) => {
                csv.reset();
                csv.feed(record);
                if let Some(fields) = csv.next_record(true)? {
                    for i in 0..fields.len() {
                        field(row, fields.get(i));
                    }
                    count = fields.len();
                }
            }
            None => {
                let line = record.strip_suffix(b"\n").unwrap_or(record);
                field(row, line.strip_suffix(b"\r").unwrap_or(line));
                count = 1;
            }
        }
        for _ in count..self.width {
            row.push(b',');
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::input::{detect_layout_as, Choice};

    #[test]
    fn rows_carry_the_record_number_and_fields() {
        let text = b"quiz,note\n12.4,\"a, \"\"b\"\"\nc\"\n5.7,x\n";
        let layout = detect_layout_as(text, &Choice::default()).unwrap();
        let shape = RowsShape {
            numbered: true,
            keep_fields: true,
        };
        let mut out = Vec::new();
        let mut rows =
            DatasetRows::start(&mut out, &["line", "train_line"], shape, &layout).unwrap();
        let second = text.len() - b"5.7,x\n".len();
        rows.row(|r| r.extend_from_slice(b"2,"), &text[10..second])
            .unwrap();
        rows.row(|r| r.extend_from_slice(b"4,2"), &text[second..])
            .unwrap();
        let read: Vec<csv::StringRecord> = csv::Reader::from_reader(&out[..])
            .records()
            .map(Result::unwrap)
            .collect();
        assert_eq!(
            read[0].iter().collect::<Vec<_>>(),
            ["2", "", "0", "12.4", "a, \"b\"\nc"]
        );
        assert_eq!(
            read[1].iter().collect::<Vec<_>>(),
            ["4", "2", "1", "5.7", "x"]
        );
        assert!(out.starts_with(b"line,train_line,record,quiz,note\n"));
    }
}
