//! NumPy `.npy` arrays of puzzles, told by their magic bytes: integer arrays of shape
//! (n, 81) or (n, 9, 9) (0 for empty, any integer dtype and byte order), or byte and
//! unicode string arrays of shape (n,) (`S81`, `<U81`). Each row is turned into one line
//! of text as it is read, so the record pipeline reads the array as a lines file and
//! a record's `line` is its row index counted from 1; memory stays one row whatever the
//! array's size.

use std::fmt;
use std::io::{self, Read};

/// The magic bytes of a `.npy` file.
pub const MAGIC: &[u8] = b"\x93NUMPY";

/// Longest header accepted (NumPy writes a few hundred bytes at most).
const MAX_HEADER: usize = 1 << 16;

/// What an array's element is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Element {
    /// An integer of `bytes` bytes, signed or not, little- or big-endian.
    Int {
        bytes: usize,
        signed: bool,
        big: bool,
    },
    /// A byte string of `len` bytes (NUL-padded).
    Bytes { len: usize },
    /// A unicode string of `len` code points, 4 bytes each.
    Unicode { len: usize, big: bool },
}

/// Why a `.npy` file cannot be read as puzzles.
#[derive(Debug)]
pub enum NpyError {
    /// Reading failed.
    Io(io::Error),
    /// The header is not one NumPy writes.
    Header(String),
    /// The element type is not one puzzles come in.
    Dtype(String),
    /// The shape is not n puzzles of 81 cells.
    Shape(Vec<u64>),
    /// Column-major arrays cannot be read a row at a time.
    FortranOrder,
}

impl fmt::Display for NpyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NpyError::Io(e) => write!(f, "{e}"),
            NpyError::Header(m) => write!(f, "not a NumPy array file: {m}"),
            NpyError::Dtype(d) => write!(
                f,
                "NumPy dtype {d:?}: puzzles are read from integer arrays or S81/U81 strings"
            ),
            NpyError::Shape(shape) => {
                let dims: Vec<String> = shape.iter().map(u64::to_string).collect();
                write!(
                    f,
                    "NumPy array of shape ({}): puzzles are read from shape (n, 81) or \
                     (n, 9, 9), or (n,) for strings",
                    dims.join(", ")
                )
            }
            NpyError::FortranOrder => f.write_str(
                "NumPy array in Fortran (column-major) order: save it in C order \
                 (np.ascontiguousarray) to read it a row at a time",
            ),
        }
    }
}

impl std::error::Error for NpyError {}

impl From<io::Error> for NpyError {
    fn from(e: io::Error) -> Self {
        NpyError::Io(e)
    }
}

/// A `.npy` array read as lines of puzzle text, one per row.
pub struct NpyLines<R> {
    inner: R,
    element: Element,
    rows: u64,
    row: u64,
    /// The raw bytes of one row.
    raw: Vec<u8>,
    /// The current row's text and its newline, and how much of it is read.
    line: Vec<u8>,
    at: usize,
}

impl<R: Read> NpyLines<R> {
    /// Reads the header of the array `inner` starts with (magic bytes included).
    pub fn new(mut inner: R) -> Result<NpyLines<R>, NpyError> {
        let mut start = [0u8; 8];
        inner.read_exact(&mut start)?;
        if &start[..6] != MAGIC {
            return Err(NpyError::Header("no magic bytes".into()));
        }
        let header_len = match start[6] {
            1 => {
                let mut n = [0u8; 2];
                inner.read_exact(&mut n)?;
                usize::from(u16::from_le_bytes(n))
            }
            2 | 3 => {
                let mut n = [0u8; 4];
                inner.read_exact(&mut n)?;
                u32::from_le_bytes(n) as usize
            }
            v => return Err(NpyError::Header(format!("format version {v}"))),
        };
        if header_len > MAX_HEADER {
            return Err(NpyError::Header(format!("a header of {header_len} bytes")));
        }
        let mut header = vec![0u8; header_len];
        inner.read_exact(&mut header)?;
        let header = String::from_utf8_lossy(&header);
        let descr =
            quoted_value(&header, "descr").ok_or_else(|| NpyError::Header("no 'descr'".into()))?;
        let fortran = value_after(&header, "fortran_order")
            .ok_or_else(|| NpyError::Header("no 'fortran_order'".into()))?
            .starts_with("True");
        let shape = shape(&header).ok_or_else(|| NpyError::Header("no 'shape'".into()))?;
        let element = element(&descr).ok_or(NpyError::Dtype(descr))?;
        let rows = match (element, shape.as_slice()) {
            (Element::Int { .. }, [n, 81]) | (Element::Int { .. }, [n, 9, 9]) => *n,
            (Element::Bytes { .. } | Element::Unicode { .. }, [n]) => *n,
            _ => return Err(NpyError::Shape(shape)),
        };
        if fortran && shape.len() > 1 && rows > 1 {
            return Err(NpyError::FortranOrder);
        }
        let row_bytes = match element {
            Element::Int { bytes, .. } => 81 * bytes,
            Element::Bytes { len } => len,
            Element::Unicode { len, .. } => 4 * len,
        };
        Ok(NpyLines {
            inner,
            element,
            rows,
            row: 0,
            raw: vec![0; row_bytes],
            line: Vec::with_capacity(row_bytes + 1),
            at: 0,
        })
    }

    /// Rows in the array.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Reads and converts the next row into `line`; false after the last one.
    fn next_row(&mut self) -> io::Result<bool> {
        if self.row == self.rows {
            return Ok(false);
        }
        self.inner.read_exact(&mut self.raw).map_err(|e| {
            if e.kind() == io::ErrorKind::UnexpectedEof {
                io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!(
                        "NumPy array truncated: row {} of {} is missing",
                        self.row + 1,
                        self.rows
                    ),
                )
            } else {
                e
            }
        })?;
        self.row += 1;
        self.line.clear();
        match self.element {
            Element::Int { bytes, signed, big } => {
                for cell in self.raw.chunks_exact(bytes) {
                    self.line.push(digit(int_value(cell, signed, big)));
                }
            }
            Element::Bytes { .. } => {
                let end = self
                    .raw
                    .iter()
                    .position(|&b| b == 0)
                    .unwrap_or(self.raw.len());
                self.line
                    .extend(self.raw[..end].iter().map(|&b| text_byte(u32::from(b))));
            }
            Element::Unicode { big, .. } => {
                for unit in self.raw.chunks_exact(4) {
                    let unit = [unit[0], unit[1], unit[2], unit[3]];
                    let c = if big {
                        u32::from_be_bytes(unit)
                    } else {
                        u32::from_le_bytes(unit)
                    };
                    if c == 0 {
                        break;
                    }
                    self.line.push(text_byte(c));
                }
            }
        }
        self.line.push(b'\n');
        self.at = 0;
        Ok(true)
    }
}

impl<R: Read> Read for NpyLines<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut written = 0;
        while written < buf.len() {
            if self.at == self.line.len() && !self.next_row()? {
                break;
            }
            let n = (buf.len() - written).min(self.line.len() - self.at);
            buf[written..written + n].copy_from_slice(&self.line[self.at..self.at + n]);
            self.at += n;
            written += n;
        }
        Ok(written)
    }
}

/// One cell's text: its digit, `.` for 0, `?` for a value no cell holds (the row is
/// then `invalid`, its reason naming the column).
fn digit(value: Option<i128>) -> u8 {
    match value {
        Some(0) => b'.',
        Some(v @ 1..=9) => b'0' + v as u8,
        _ => b'?',
    }
}

/// A string's character as a byte of puzzle text (`?` for any other than ASCII, or for a
/// control character, which would end or break the line).
fn text_byte(c: u32) -> u8 {
    match u8::try_from(c) {
        Ok(b) if b.is_ascii_graphic() || b == b' ' => b,
        _ => b'?',
    }
}

/// An integer cell of 1, 2, 4 or 8 bytes.
fn int_value(cell: &[u8], signed: bool, big: bool) -> Option<i128> {
    let mut bytes = [0u8; 8];
    let n = cell.len();
    if big {
        bytes[8 - n..].copy_from_slice(cell);
    } else {
        bytes[..n].copy_from_slice(cell);
    }
    let raw = if big {
        u64::from_be_bytes(bytes)
    } else {
        u64::from_le_bytes(bytes)
    };
    let bits = 8 * n as u32;
    if signed && bits < 64 && raw >> (bits - 1) & 1 == 1 {
        return Some(i128::from(raw) - (1i128 << bits));
    }
    if signed && bits == 64 {
        return Some(i128::from(raw as i64));
    }
    Some(i128::from(raw))
}

/// The element type named by a NumPy `descr` string (`<i8`, `|u1`, `>i2`, `|S81`, `<U81`).
fn element(descr: &str) -> Option<Element> {
    let mut chars = descr.chars();
    let order = chars.next()?;
    let big = match order {
        '<' | '|' | '=' => false,
        '>' => true,
        _ => return None,
    };
    let kind = chars.next()?;
    let size: usize = chars.as_str().parse().ok()?;
    match kind {
        'i' | 'u' if matches!(size, 1 | 2 | 4 | 8) => Some(Element::Int {
            bytes: size,
            signed: kind == 'i',
            big,
        }),
        'b' if size == 1 => Some(Element::Int {
            bytes: 1,
            signed: false,
            big,
        }),
        'S' if (1..=4096).contains(&size) => Some(Element::Bytes { len: size }),
        'U' if (1..=4096).contains(&size) => Some(Element::Unicode { len: size, big }),
        _ => None,
    }
}

/// The text after `'key':` in a header dict.
fn value_after<'a>(header: &'a str, key: &str) -> Option<&'a str> {
    let at = header.find(&format!("'{key}'"))?;
    let rest = &header[at + key.len() + 2..];
    Some(rest.trim_start().strip_prefix(':')?.trim_start())
}

/// The quoted string value of `key`.
fn quoted_value(header: &str, key: &str) -> Option<String> {
    let rest = value_after(header, key)?;
    let quote = rest.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let body = &rest[1..];
    Some(body[..body.find(quote)?].to_string())
}

/// The `shape` tuple.
fn shape(header: &str) -> Option<Vec<u64>> {
    let rest = value_after(header, "shape")?.strip_prefix('(')?;
    let inside = &rest[..rest.find(')')?];
    inside
        .split(',')
        .map(|d| d.trim().trim_end_matches('L'))
        .filter(|d| !d.is_empty())
        .map(|d| d.parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
        npy_in(descr, "False", shape, data)
    }

    fn npy_in(descr: &str, fortran: &str, shape: &str, data: &[u8]) -> Vec<u8> {
        let mut header =
            format!("{{'descr': '{descr}', 'fortran_order': {fortran}, 'shape': {shape}, }}");
        while (10 + header.len() + 1) % 64 != 0 {
            header.push(' ');
        }
        header.push('\n');
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&[1, 0]);
        out.extend_from_slice(&(header.len() as u16).to_le_bytes());
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(data);
        out
    }

    fn read_all(bytes: &[u8]) -> Result<String, String> {
        let mut lines = NpyLines::new(bytes).map_err(|e| e.to_string())?;
        let mut text = String::new();
        lines.read_to_string(&mut text).map_err(|e| e.to_string())?;
        Ok(text)
    }

    const PUZZLE: &str =
        "....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3";

    fn cells() -> Vec<u8> {
        PUZZLE
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect()
    }

    #[test]
    fn integer_arrays_of_every_width_and_order_read_as_lines() {
        let c = cells();
        let want = format!("{PUZZLE}\n{PUZZLE}\n");
        let u8s: Vec<u8> = c.iter().chain(&c).copied().collect();
        assert_eq!(read_all(&npy("|u1", "(2, 81)", &u8s)).unwrap(), want);
        assert_eq!(read_all(&npy("|i1", "(2, 9, 9)", &u8s)).unwrap(), want);
        let le8: Vec<u8> = u8s
            .iter()
            .flat_map(|&v| i64::from(v).to_le_bytes())
            .collect();
        assert_eq!(read_all(&npy("<i8", "(2, 81)", &le8)).unwrap(), want);
        let be2: Vec<u8> = u8s
            .iter()
            .flat_map(|&v| u16::from(v).to_be_bytes())
            .collect();
        assert_eq!(read_all(&npy(">u2", "(2, 9, 9)", &be2)).unwrap(), want);
        // A value no cell holds: the row says where.
        let mut bad = le8.clone();
        bad[..8].copy_from_slice(&(-1i64).to_le_bytes());
        assert!(read_all(&npy("<i8", "(2, 81)", &bad))
            .unwrap()
            .starts_with("?..."));
    }

    #[test]
    fn string_arrays_read_as_lines() {
        let mut s = PUZZLE.as_bytes().to_vec();
        s.extend_from_slice(&[0; 4]);
        assert_eq!(
            read_all(&npy("|S85", "(1,)", &s)).unwrap(),
            format!("{PUZZLE}\n")
        );
        let u: Vec<u8> = PUZZLE
            .bytes()
            .flat_map(|b| u32::from(b).to_le_bytes())
            .collect();
        assert_eq!(
            read_all(&npy("<U81", "(1,)", &u)).unwrap(),
            format!("{PUZZLE}\n")
        );
    }

    #[test]
    fn bad_arrays_are_refused_with_what_is_wrong() {
        let c = cells();
        let err = |b: Vec<u8>| read_all(&b).unwrap_err();
        assert!(err(npy("<f8", "(1, 81)", &[0; 648])).contains("dtype \"<f8\""));
        assert!(err(npy("|u1", "(1, 80)", &c[..80])).contains("shape (1, 80)"));
        assert!(err(npy("|u1", "(3, 81)", &c)).contains("row 2 of 3 is missing"));
        assert!(err(b"\x93NUMPY\x01".to_vec()).contains("failed to fill"));
        assert!(
            err(npy_in("|u1", "True", "(2, 81)", &[c.clone(), c].concat())).contains("Fortran")
        );
    }
}
