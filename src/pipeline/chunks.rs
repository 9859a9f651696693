//! Where chunks come from: record-aligned byte ranges of a mapped (or fully read) input,
//! or blocks read from a stream. A chunk never splits a record.

use std::io::{self, Read};

use crate::input::{
    chunk_end, detect_layout, ColumnChoice, Format, InputError, Layout, CHUNK_BYTES,
};

/// A chunk of input: bytes (borrowed from a map or owned from a stream) and where it starts.
pub struct Chunk<'a> {
    /// 1-based line number of the chunk's first byte.
    pub first_line: u64,
    /// The chunk's bytes.
    pub bytes: ChunkBytes<'a>,
}

/// The bytes of a chunk.
pub enum ChunkBytes<'a> {
    /// A slice of a mapped or fully read input.
    Borrowed(&'a [u8]),
    /// Bytes read from a stream.
    Owned(Vec<u8>),
}

impl ChunkBytes<'_> {
    /// The bytes.
    pub fn as_slice(&self) -> &[u8] {
        match self {
            ChunkBytes::Borrowed(b) => b,
            ChunkBytes::Owned(v) => v,
        }
    }
}

/// Splits in-memory input into record-aligned chunks.
pub struct SliceChunks<'a> {
    data: &'a [u8],
    pos: usize,
    line: u64,
    format: Format,
    in_quotes: bool,
}

impl<'a> SliceChunks<'a> {
    /// Chunks of `data` from `layout.data_start`.
    pub fn new(data: &'a [u8], layout: &Layout) -> Self {
        SliceChunks {
            data,
            pos: layout.data_start.min(data.len()),
            line: layout.first_line,
            format: layout.format,
            in_quotes: false,
        }
    }
}

impl<'a> Iterator for SliceChunks<'a> {
    type Item = Chunk<'a>;

    fn next(&mut self) -> Option<Chunk<'a>> {
        if self.pos >= self.data.len() {
            return None;
        }
        let rest = &self.data[self.pos..];
        let len = chunk_end(rest, CHUNK_BYTES, self.format, &mut self.in_quotes);
        let bytes = &rest[..len];
        let chunk = Chunk {
            first_line: self.line,
            bytes: ChunkBytes::Borrowed(bytes),
        };
        self.line += count_newlines(bytes);
        self.pos += len;
        Some(chunk)
    }
}

/// Number of `\n` bytes.
pub(crate) fn count_newlines(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|&&b| b == b'\n').count() as u64
}

/// Reads a stream in blocks and yields record-aligned chunks (stdin, pipes).
pub struct StreamChunks<R: Read> {
    reader: R,
    carry: Vec<u8>,
    line: u64,
    format: Format,
    in_quotes: bool,
    eof: bool,
}

impl<R: Read> StreamChunks<R> {
    /// Reads the first block, detects the layout, and positions after any header.
    pub fn start(
        mut reader: R,
        format: Option<Format>,
        column: &ColumnChoice,
    ) -> io::Result<Result<(Self, Layout), InputError>> {
        let mut carry = Vec::with_capacity(2 * CHUNK_BYTES);
        let mut eof = false;
        // Enough to see the header and first record: a full block holding a newline.
        while !eof && (carry.len() < CHUNK_BYTES || !carry.contains(&b'\n')) {
            eof = fill(&mut reader, &mut carry)?;
        }
        let layout = match detect_layout(&carry, format, column) {
            Ok(l) => l,
            Err(e) => return Ok(Err(e)),
        };
        carry.drain(..layout.data_start.min(carry.len()));
        let chunks = StreamChunks {
            reader,
            carry,
            line: layout.first_line,
            format: layout.format,
            in_quotes: false,
            eof,
        };
        Ok(Ok((chunks, layout)))
    }

    /// The next chunk, or `None` at the end of the stream.
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk<'static>>> {
        loop {
            if self.carry.is_empty() && self.eof {
                return Ok(None);
            }
            if self.carry.len() >= CHUNK_BYTES || self.eof {
                // Look for a boundary without committing quote state until one is found.
                let mut quotes = self.in_quotes;
                let end = chunk_end(&self.carry, CHUNK_BYTES, self.format, &mut quotes);
                if end < self.carry.len() || self.eof {
                    self.in_quotes = quotes;
                    let rest = self.carry.split_off(end);
                    let bytes = std::mem::replace(&mut self.carry, rest);
                    let first_line = self.line;
                    self.line += count_newlines(&bytes);
                    return Ok(Some(Chunk {
                        first_line,
                        bytes: ChunkBytes::Owned(bytes),
                    }));
                }
            }
            self.eof = fill(&mut self.reader, &mut self.carry)?;
        }
    }
}

/// Reads one block onto the end of `buf`; true at end of stream.
fn fill<R: Read>(reader: &mut R, buf: &mut Vec<u8>) -> io::Result<bool> {
    let old = buf.len();
    buf.resize(old + CHUNK_BYTES, 0);
    loop {
        match reader.read(&mut buf[old..]) {
            Ok(n) => {
                buf.truncate(old + n);
                return Ok(n == 0);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                buf.truncate(old);
                return Err(e);
            }
        }
    }
}

/// Where chunks come from.
pub enum Source<'a, R: Read> {
    /// In-memory input (mapped file or fully read).
    Slice(SliceChunks<'a>),
    /// A stream read in blocks.
    Stream(StreamChunks<R>),
}

impl<'a, R: Read> Source<'a, R> {
    /// The next chunk, or `None` at the end.
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk<'a>>> {
        match self {
            Source::Slice(s) => Ok(s.next()),
            Source::Stream(s) => s.next_chunk(),
        }
    }
}
