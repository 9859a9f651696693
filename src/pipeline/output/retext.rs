//! CSV rows (a header first) written again as tab-separated rows or as JSON lines: how
//! a command whose rows are CSV (the dataset commands' own rows, copied records made a
//! table) writes every text format of the output family.
//!
//! Tab-separated fields are quoted as the CSV rows' are (for a tab, a quote or a line
//! end). A JSON line is an object keyed by the header's names, an empty field `null`;
//! of the first `typed` columns (the command's own), those named as Parquet types them
//! ([`super::parquet`]: `line`, `record`, ...) are numbers or booleans, the rest
//! strings.

use std::io::{self, Write};

use super::csv_records::{CsvRecords, Fields};
use super::parquet::{BOOLEAN, DOUBLE, UNSIGNED};
use crate::pipeline::rows::{json_string, quote_tail};

/// The text formats CSV rows are written again in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextTable {
    /// Tab-separated rows under the header.
    Tsv,
    /// One JSON object per row.
    Ndjson,
}

/// How a JSON line writes a column's values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Unsigned,
    Double,
    Boolean,
    Text,
}

/// A [`Write`] taking CSV rows and writing them into `W` as [`TextTable`] says.
pub struct RetextRows<W: Write> {
    csv: CsvRecords,
    inner: W,
    to: TextTable,
    typed: usize,
    /// The header's names as JSON strings, and how each column is written (after the
    /// header).
    keys: Option<Vec<(Vec<u8>, Kind)>>,
    row: Vec<u8>,
    /// Rows read, to name a bad one.
    read: u64,
}

impl<W: Write> RetextRows<W> {
    /// Rows into `inner` as `to`, the first `typed` columns typed by name.
    pub fn new(inner: W, to: TextTable, typed: usize) -> RetextRows<W> {
        RetextRows {
            csv: CsvRecords::default(),
            inner,
            to,
            typed,
            keys: None,
            row: Vec::new(),
            read: 0,
        }
    }

    /// Writes the last row (one without a line end).
    pub fn finish(&mut self) -> io::Result<()> {
        self.take(true)
    }

    /// The writer underneath.
    pub fn inner_mut(&mut self) -> &mut W {
        &mut self.inner
    }

    fn take(&mut self, at_end: bool) -> io::Result<()> {
        while let Some(fields) = self.csv.next_record(at_end)? {
            self.row.clear();
            match (&self.keys, self.to) {
                (None, _) => {
                    let typed = self.typed;
                    let keys = (0..fields.len())
                        .map(|i| {
                            let name = fields.get(i);
                            let mut key = Vec::new();
                            json_string(&mut key, name);
                            let kind = match std::str::from_utf8(name) {
                                Ok(n) if i < typed && UNSIGNED.contains(&n) => Kind::Unsigned,
                                Ok(n) if i < typed && DOUBLE.contains(&n) => Kind::Double,
                                Ok(n) if i < typed && BOOLEAN.contains(&n) => Kind::Boolean,
                                _ => Kind::Text,
                            };
                            (key, kind)
                        })
                        .collect();
                    self.keys = Some(keys);
                    if self.to == TextTable::Tsv {
                        tab_separated(&fields, &mut self.row);
                    }
                }
                (Some(_), TextTable::Tsv) => tab_separated(&fields, &mut self.row),
                (Some(keys), TextTable::Ndjson) => {
                    self.read += 1;
                    json_line(keys, &fields, self.read, &mut self.row)?;
                }
            }
            self.inner.write_all(&self.row)?;
        }
        Ok(())
    }
}

/// A row's fields separated by tabs, each quoted where it needs to be.
fn tab_separated(fields: &Fields<'_>, out: &mut Vec<u8>) {
    for i in 0..fields.len() {
        if i > 0 {
            out.push(b'\t');
        }
        let start = out.len();
        out.extend_from_slice(fields.get(i));
        quote_tail(out, start, b'\t');
    }
    out.push(b'\n');
}

/// Row `read` as one JSON object under `keys`.
fn json_line(
    keys: &[(Vec<u8>, Kind)],
    fields: &Fields<'_>,
    read: u64,
    out: &mut Vec<u8>,
) -> io::Result<()> {
    if fields.len() != keys.len() {
        return Err(io::Error::other(format!(
            "row {read} has {} fields, the header {}",
            fields.len(),
            keys.len()
        )));
    }
    out.push(b'{');
    for (i, (key, kind)) in keys.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(key);
        out.push(b':');
        let value = fields.get(i);
        let fits = match kind {
            _ if value.is_empty() => {
                out.extend_from_slice(b"null");
                true
            }
            Kind::Text => {
                json_string(out, value);
                true
            }
            Kind::Unsigned => {
                out.extend_from_slice(value);
                value.iter().all(u8::is_ascii_digit)
            }
            Kind::Double => {
                out.extend_from_slice(value);
                std::str::from_utf8(value)
                    .ok()
                    .and_then(|v| v.parse::<f64>().ok())
                    .is_some_and(f64::is_finite)
            }
            Kind::Boolean => {
                out.extend_from_slice(value);
                matches!(value, b"true" | b"false")
            }
        };
        if !fits {
            return Err(io::Error::other(format!(
                "row {read}: column {}: not a {kind:?} value: {:?}",
                String::from_utf8_lossy(key),
                String::from_utf8_lossy(value)
            )));
        }
    }
    out.extend_from_slice(b"}\n");
    Ok(())
}

impl<W: Write> Write for RetextRows<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.csv.feed(buf);
        self.take(false)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn retext(text: &[u8], to: TextTable, typed: usize) -> io::Result<String> {
        let mut rows = RetextRows::new(Vec::new(), to, typed);
        for piece in text.chunks(5) {
            rows.write_all(piece)?;
        }
        rows.finish()?;
        Ok(String::from_utf8(rows.inner).unwrap())
    }

    #[test]
    fn json_lines_type_the_commands_columns_and_keep_the_rest_text() {
        let text = b"line,duplicate_of,note\n4,,\"a \"\"b\"\"\nc\"\n7,4,x\t\n9,2,last";
        let got = retext(text, TextTable::Ndjson, 2).unwrap();
        let rows: Vec<serde_json::Value> = got
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0]["line"], 4);
        assert!(rows[0]["duplicate_of"].is_null());
        assert_eq!(rows[0]["note"], "a \"b\"\nc");
        assert_eq!(rows[1]["duplicate_of"], 4);
        assert_eq!(rows[1]["note"], "x\t");
        assert_eq!(rows[2]["note"], "last");
        // Past the typed columns a `line` is text; a number column holding text fails.
        let text = b"a,line\n1,2\n";
        let got = retext(text, TextTable::Ndjson, 1).unwrap();
        assert_eq!(got, "{\"a\":\"1\",\"line\":\"2\"}\n");
        assert!(retext(b"line\nx\n", TextTable::Ndjson, 1).is_err());
        assert!(retext(b"line,a\n1\n", TextTable::Ndjson, 1).is_err());
    }

    #[test]
    fn tab_separated_rows_read_back_as_the_csv() {
        let text = b"line,note\n4,\"a,b\"\n5,\"t\tab\"\n6,\"two\nlines\"\n";
        let got = retext(text, TextTable::Tsv, 1).unwrap();
        let read = |bytes: &[u8], sep: u8| -> Vec<csv::StringRecord> {
            csv::ReaderBuilder::new()
                .delimiter(sep)
                .has_headers(false)
                .from_reader(bytes)
                .records()
                .map(Result::unwrap)
                .collect()
        };
        assert_eq!(read(got.as_bytes(), b'\t'), read(text, b','));
        assert!(got.starts_with("line\tnote\n4\ta,b\n"), "{got}");
    }
}
