//! The page headers of a Parquet column chunk, read from the file's bytes before any
//! page is decoded, so that what a page declares (its size once decompressed, its
//! values) is checked against the chunk that holds it and against what a reader may
//! allocate here: the Parquet library allocates a page's declared size before it
//! decompresses it.
//!
//! A page header is a Thrift struct in the compact protocol (Apache Parquet's
//! `parquet.thrift`, `PageHeader`); this reads the few fields it needs and steps over
//! the rest, nesting bounded.

/// What kind of page a header starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageKind {
    /// A data page (version 1 or 2).
    Data,
    /// The chunk's dictionary.
    Dictionary,
    /// Anything else (index pages, kinds to come): stepped over.
    Other,
}

/// One page header's fields that matter here.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageHead {
    /// Its kind.
    pub kind: PageKind,
    /// Bytes once decompressed, as declared.
    pub uncompressed: u64,
    /// Bytes stored after the header.
    pub compressed: u64,
    /// Values (levels) the page holds, as declared.
    pub values: u64,
    /// Rows the page holds: declared by a version 2 data page, else `None`.
    pub rows: Option<u64>,
    /// The values' encoding (Parquet's number for it), when declared.
    pub encoding: Option<i32>,
}

/// `DELTA_BYTE_ARRAY`: each value rebuilt from the one before, so decoding copies
/// every value (the others decode into slices of the page).
pub const DELTA_BYTE_ARRAY: i32 = 7;

/// Deepest nesting of structs and lists stepped over in a header.
const MAX_DEPTH: usize = 16;

/// Reads the headers of the pages in `chunk` (a column chunk's bytes, pages and headers
/// back to back), checking that each page lies inside it.
pub fn heads(chunk: &[u8]) -> Result<Vec<PageHead>, String> {
    let mut at = 0;
    let mut heads = Vec::new();
    while at < chunk.len() {
        let mut reader = Compact {
            bytes: chunk,
            at,
            page: heads.len() + 1,
        };
        let head = reader.page_head()?;
        let end = (reader.at as u64).saturating_add(head.compressed);
        if end > chunk.len() as u64 {
            return Err(format!(
                "page {} declares {} stored bytes, past the end of its column chunk",
                heads.len() + 1,
                head.compressed
            ));
        }
        heads.push(head);
        at = end as usize;
    }
    Ok(heads)
}

/// The compact protocol's types, as a field or element header gives them.
mod types {
    pub const TRUE: u8 = 1;
    pub const FALSE: u8 = 2;
    pub const BYTE: u8 = 3;
    pub const I16: u8 = 4;
    pub const I32: u8 = 5;
    pub const I64: u8 = 6;
    pub const DOUBLE: u8 = 7;
    pub const BINARY: u8 = 8;
    pub const LIST: u8 = 9;
    pub const SET: u8 = 10;
    pub const MAP: u8 = 11;
    pub const STRUCT: u8 = 12;
    pub const UUID: u8 = 13;
}

/// A reader of compact-protocol bytes from `at`.
struct Compact<'a> {
    bytes: &'a [u8],
    at: usize,
    /// The page whose header is read (from 1), for errors.
    page: usize,
}

impl Compact<'_> {
    fn broken(&self, what: &str) -> String {
        format!("page {}'s header is not readable: {what}", self.page)
    }

    fn byte(&mut self) -> Result<u8, String> {
        let b = *self
            .bytes
            .get(self.at)
            .ok_or_else(|| self.broken("it runs past its column chunk"))?;
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u64, String> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(self.broken("a number longer than 64 bits"))
    }

    fn zigzag(&mut self) -> Result<i64, String> {
        let n = self.varint()?;
        Ok((n >> 1) as i64 ^ -((n & 1) as i64))
    }

    fn skip_bytes(&mut self, n: u64) -> Result<(), String> {
        let end = (self.at as u64).saturating_add(n);
        if end > self.bytes.len() as u64 {
            return Err(self.broken("a field runs past its column chunk"));
        }
        self.at = end as usize;
        Ok(())
    }

    /// Reads a field header: `None` at the struct's end, else the field's id and type.
    fn field(&mut self, last: &mut i16) -> Result<Option<(i16, u8)>, String> {
        let b = self.byte()?;
        if b == 0 {
            return Ok(None);
        }
        let (delta, kind) = (b >> 4, b & 0x0f);
        let id = if delta == 0 {
            i16::try_from(self.zigzag()?).map_err(|_| self.broken("a field id out of range"))?
        } else {
            last.saturating_add(i16::from(delta))
        };
        *last = id;
        Ok(Some((id, kind)))
    }

    /// An integer field's value.
    fn int(&mut self, kind: u8) -> Result<i64, String> {
        match kind {
            types::I16 | types::I32 | types::I64 => self.zigzag(),
            types::BYTE => Ok(i64::from(self.byte()? as i8)),
            _ => Err(self.broken("a number field of another type")),
        }
    }

    /// Steps over a value of type `kind`.
    fn skip(&mut self, kind: u8, depth: usize) -> Result<(), String> {
        if depth > MAX_DEPTH {
            return Err(self.broken("nested too deeply"));
        }
        match kind {
            types::TRUE | types::FALSE => Ok(()),
            types::BYTE => self.skip_bytes(1),
            types::I16 | types::I32 | types::I64 => self.varint().map(drop),
            types::DOUBLE => self.skip_bytes(8),
            types::UUID => self.skip_bytes(16),
            types::BINARY => {
                let n = self.varint()?;
                self.skip_bytes(n)
            }
            types::LIST | types::SET => {
                let b = self.byte()?;
                let (short, element) = (b >> 4, b & 0x0f);
                let n = if short == 15 {
                    self.varint()?
                } else {
                    u64::from(short)
                };
                for _ in 0..n {
                    if element == types::TRUE || element == types::FALSE {
                        // A list's booleans take a byte each.
                        self.skip_bytes(1)?;
                    } else {
                        self.skip(element, depth + 1)?;
                    }
                }
                Ok(())
            }
            types::MAP => {
                let n = self.varint()?;
                if n == 0 {
                    return Ok(());
                }
                let b = self.byte()?;
                for _ in 0..n {
                    self.skip(b >> 4, depth + 1)?;
                    self.skip(b & 0x0f, depth + 1)?;
                }
                Ok(())
            }
            types::STRUCT => {
                let mut last = 0;
                while let Some((_, kind)) = self.field(&mut last)? {
                    self.skip(kind, depth + 1)?;
                }
                Ok(())
            }
            other => Err(self.broken(&format!("an unknown field type {other}"))),
        }
    }

    /// The integer fields of a struct, by id (ids 1-8; the rest stepped over).
    fn struct_ints(&mut self) -> Result<[Option<i64>; 9], String> {
        let mut ints = [None; 9];
        let mut last = 0;
        while let Some((id, kind)) = self.field(&mut last)? {
            match (usize::try_from(id), kind) {
                (Ok(i @ 1..=8), types::BYTE | types::I16 | types::I32 | types::I64) => {
                    ints[i] = Some(self.int(kind)?)
                }
                _ => self.skip(kind, 1)?,
            }
        }
        Ok(ints)
    }

    /// A `PageHeader`.
    fn page_head(&mut self) -> Result<PageHead, String> {
        let (mut kind, mut uncompressed, mut compressed) = (None, None, None);
        let (mut values, mut rows, mut encoding) = (None, None, None);
        let mut last = 0;
        while let Some((id, field)) = self.field(&mut last)? {
            match (id, field) {
                (1, types::I32) => kind = Some(self.zigzag()?),
                (2, types::I32) => uncompressed = Some(self.zigzag()?),
                (3, types::I32) => compressed = Some(self.zigzag()?),
                // DataPageHeader and DictionaryPageHeader: num_values, encoding.
                (5 | 7, types::STRUCT) => {
                    let ints = self.struct_ints()?;
                    values = ints[1];
                    encoding = ints[2];
                }
                // DataPageHeaderV2: num_values, num_nulls, num_rows, encoding.
                (8, types::STRUCT) => {
                    let ints = self.struct_ints()?;
                    values = ints[1];
                    rows = ints[3];
                    encoding = ints[4];
                }
                (_, other) => self.skip(other, 1)?,
            }
        }
        let size = |n: Option<i64>, what: &str| -> Result<u64, String> {
            let n = n.ok_or_else(|| self.broken(&format!("no {what}")))?;
            u64::try_from(n).map_err(|_| self.broken(&format!("a negative {what}")))
        };
        let uncompressed = size(uncompressed, "uncompressed size")?;
        let compressed = size(compressed, "compressed size")?;
        let kind = match kind {
            Some(0 | 3) => PageKind::Data,
            Some(2) => PageKind::Dictionary,
            Some(_) => PageKind::Other,
            None => return Err(self.broken("no page type")),
        };
        let count = |n: Option<i64>, what: &str| -> Result<u64, String> {
            u64::try_from(n.unwrap_or(0)).map_err(|_| self.broken(&format!("a negative {what}")))
        };
        let values = count(values, "value count")?;
        let rows = match rows {
            Some(n) => Some(count(Some(n), "row count")?),
            None => None,
        };
        Ok(PageHead {
            kind,
            uncompressed,
            compressed,
            values,
            rows,
            encoding: encoding.and_then(|e| i32::try_from(e).ok()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A field header for id `id` after `last`, of type `kind`.
    fn field(out: &mut Vec<u8>, delta: u8, kind: u8) {
        out.push(delta << 4 | kind);
    }

    fn zigzag(out: &mut Vec<u8>, n: i64) {
        let mut z = ((n << 1) ^ (n >> 63)) as u64;
        loop {
            let b = (z & 0x7f) as u8;
            z >>= 7;
            if z == 0 {
                out.push(b);
                return;
            }
            out.push(b | 0x80);
        }
    }

    /// A version 1 data page header with an unknown field (a list of strings) and
    /// statistics inside, then `stored` bytes.
    fn data_page(uncompressed: i64, stored: usize, values: i64) -> Vec<u8> {
        let mut out = Vec::new();
        field(&mut out, 1, types::I32);
        zigzag(&mut out, 0);
        field(&mut out, 1, types::I32);
        zigzag(&mut out, uncompressed);
        field(&mut out, 1, types::I32);
        zigzag(&mut out, stored as i64);
        // Field 5, a DataPageHeader: num_values, encoding, and a statistics struct.
        field(&mut out, 2, types::STRUCT);
        field(&mut out, 1, types::I32);
        zigzag(&mut out, values);
        field(&mut out, 1, types::I32);
        zigzag(&mut out, 0);
        field(&mut out, 4, types::STRUCT);
        field(&mut out, 1, types::BINARY);
        out.extend([3, b'a', b'b', b'c']);
        out.push(0);
        out.push(0);
        // An unknown field 20 (long form id): a list of two strings.
        out.push(types::LIST);
        zigzag(&mut out, 20);
        out.push(2 << 4 | types::BINARY);
        out.extend([1, b'x', 0]);
        out.push(0);
        out.extend(std::iter::repeat_n(7, stored));
        out
    }

    #[test]
    fn headers_are_read_and_unknown_fields_stepped_over() {
        let mut chunk = data_page(1000, 10, 250);
        chunk.extend(data_page(2000, 3, 500));
        let heads = heads(&chunk).unwrap();
        assert_eq!(heads.len(), 2);
        assert_eq!(
            heads[0],
            PageHead {
                kind: PageKind::Data,
                uncompressed: 1000,
                compressed: 10,
                values: 250,
                rows: None,
                encoding: Some(0),
            }
        );
        assert_eq!((heads[1].uncompressed, heads[1].values), (2000, 500));
    }

    #[test]
    fn a_page_past_its_chunk_or_a_broken_header_is_an_error() {
        let mut chunk = data_page(1000, 10, 250);
        chunk.truncate(chunk.len() - 1);
        assert!(heads(&chunk).unwrap_err().contains("past the end"));
        let chunk = data_page(-5, 10, 250);
        assert!(heads(&chunk).unwrap_err().contains("negative"));
        let deep: Vec<u8> = std::iter::repeat_n(types::STRUCT | 0x10, 100).collect();
        assert!(heads(&deep).unwrap_err().contains("nested too deeply"));
        assert!(heads(&[0x15]).unwrap_err().contains("runs past"));
    }
}
