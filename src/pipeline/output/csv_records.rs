//! CSV rows written into an output, read back record by record as the writes come (a
//! record may be cut between two writes): what the encoders of other formats
//! ([`super::parquet`], [`super::retext`]) read.

use std::io;

use csv_core::{ReadRecordResult, Reader};

/// The fields of one record read back.
#[derive(Clone, Copy, Debug)]
pub struct Fields<'a> {
    record: &'a [u8],
    ends: &'a [usize],
}

impl<'a> Fields<'a> {
    /// How many fields the record has.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True for a record without fields.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Field `i` (0-based), unquoted.
    pub fn get(&self, i: usize) -> &'a [u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.record[start..self.ends[i]]
    }
}

/// Reads the records of CSV bytes fed a piece at a time; buffers are reused.
pub struct CsvRecords {
    reader: Reader,
    /// Bytes fed and not yet read.
    pending: Vec<u8>,
    /// How far `pending` is read.
    start: usize,
    /// The record being read: its fields back to back, and where each ends.
    record: Vec<u8>,
    record_len: usize,
    ends: Vec<usize>,
    ends_len: usize,
    /// The last call handed out a record, to be cleared by the next.
    handed: bool,
}

impl Default for CsvRecords {
    fn default() -> Self {
        CsvRecords::with_delimiter(b',')
    }
}

impl CsvRecords {
    /// A reader of records whose fields are separated by `delimiter`.
    pub fn with_delimiter(delimiter: u8) -> CsvRecords {
        CsvRecords {
            reader: csv_core::ReaderBuilder::new().delimiter(delimiter).build(),
            pending: Vec::new(),
            start: 0,
            record: vec![0; 1024],
            record_len: 0,
            ends: vec![0; 64],
            ends_len: 0,
            handed: false,
        }
    }

    /// Forgets what was fed and read, to read another text (buffers kept).
    pub fn reset(&mut self) {
        self.reader.reset();
        self.pending.clear();
        self.start = 0;
        self.record_len = 0;
        self.ends_len = 0;
        self.handed = false;
    }
    /// Takes written bytes.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.pending.extend_from_slice(bytes);
    }

    /// The next whole record of what was fed, `None` when none is complete; `at_end`
    /// (nothing more will be fed) ends a last record without its line end.
    pub fn next_record(&mut self, at_end: bool) -> io::Result<Option<Fields<'_>>> {
        if std::mem::take(&mut self.handed) {
            self.record_len = 0;
            self.ends_len = 0;
        }
        loop {
            let input = &self.pending[self.start..];
            let (result, read, wrote, ended) = self.reader.read_record(
                input,
                &mut self.record[self.record_len..],
                &mut self.ends[self.ends_len..],
            );
            self.start += read;
            self.record_len += wrote;
            self.ends_len += ended;
            match result {
                // At the end, the next call has no input, which tells the reader to
                // end a record left open (then `End`).
                ReadRecordResult::InputEmpty if at_end => {}
                ReadRecordResult::InputEmpty | ReadRecordResult::End => {
                    self.pending.drain(..self.start);
                    self.start = 0;
                    return Ok(None);
                }
                ReadRecordResult::OutputFull => {
                    let len = self.record.len();
                    self.record.resize(2 * len, 0);
                }
                ReadRecordResult::OutputEndsFull => {
                    let len = self.ends.len();
                    self.ends.resize(2 * len, 0);
                }
                ReadRecordResult::Record => {
                    self.handed = true;
                    return Ok(Some(Fields {
                        record: &self.record[..self.record_len],
                        ends: &self.ends[..self.ends_len],
                    }));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_cut_anywhere_read_whole() {
        let text = b"a,b\n\"x\ny\",\"q\"\"\"\r\n1,\nlast,row";
        for cut in 0..text.len() {
            let mut csv = CsvRecords::default();
            let mut got = Vec::new();
            for (piece, at_end) in [(&text[..cut], false), (&text[cut..], true)] {
                csv.feed(piece);
                while let Some(fields) = csv.next_record(at_end).unwrap() {
                    let row: Vec<String> = (0..fields.len())
                        .map(|i| String::from_utf8(fields.get(i).to_vec()).unwrap())
                        .collect();
                    got.push(row.join("|"));
                }
            }
            assert_eq!(got, ["a|b", "x\ny|q\"", "1|", "last|row"], "cut at {cut}");
        }
    }
}
