//! Where chunks come from: record-aligned byte ranges of a mapped (or fully read) input,
//! or blocks read from a stream. A chunk never splits a record.

use std::io::{self, Read};

use crate::pipeline::input::{
    chunk_end, detect_layout_as, lone_cr_line_ends, unclosed_quote_line, Choice, Format,
    InputError, Layout, CHUNK_BYTES,
};

/// A chunk of input: bytes (borrowed from a map or owned from a stream) and where it starts.
pub struct Chunk<'a> {
    /// 1-based line number of the chunk's first byte.
    pub first_line: u64,
    /// The chunk's bytes.
    pub bytes: ChunkBytes<'a>,
    /// For a stream's record over the length limit: its length; `bytes` then holds its
    /// first bytes only, and the chunk is that one record.
    pub too_long: Option<u64>,
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
    /// Bytes a chunk reaches before it ends at the next record boundary.
    target: usize,
    /// The line of a CSV quote the input leaves open, once the last chunk is out.
    unclosed: Option<u64>,
}

/// Bytes of a record over the limit kept for its row (the row echoes 100 at most).
const TOO_LONG_ECHO: usize = 100;

/// The smallest chunk target [`SliceChunks::spread`] sets (some 50 records of 81 cells).
const MIN_CHUNK_BYTES: usize = 4 << 10;

impl<'a> SliceChunks<'a> {
    /// Chunks of `data` from `layout.data_start`.
    pub fn new(data: &'a [u8], layout: &Layout) -> Self {
        SliceChunks {
            data,
            pos: layout.data_start.min(data.len()),
            line: layout.first_line,
            format: layout.format,
            in_quotes: false,
            target: CHUNK_BYTES,
            unclosed: None,
        }
    }

    /// The same chunks made smaller for an input too small to give each of `threads`
    /// workers several of them (at least 8 each, down to 4 KiB): a small file of hard
    /// puzzles (`grade` on a few thousand records) then keeps every core busy.
    pub fn spread(self, threads: usize) -> Self {
        let len = self.data.len().saturating_sub(self.pos);
        let target = (len / (8 * threads.max(1))).clamp(MIN_CHUNK_BYTES, CHUNK_BYTES);
        SliceChunks { target, ..self }
    }

    /// Chunks of the records of `data` that start in `start..end` (record boundaries,
    /// from [`shard_bounds`]), numbered as lines of the whole of `data`.
    pub fn within(data: &'a [u8], layout: &Layout, start: usize, end: usize) -> Self {
        let base = layout.data_start.min(data.len());
        let start = start.clamp(base, data.len());
        SliceChunks {
            data: &data[..end.clamp(start, data.len())],
            pos: start,
            line: layout.first_line + count_newlines(&data[base..start]),
            format: layout.format,
            in_quotes: false,
            target: CHUNK_BYTES,
            unclosed: None,
        }
    }
}

/// One of N parts of a file, numbered from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, 1..=count.
    pub index: u32,
    /// How many parts.
    pub count: u32,
}

/// The byte range of a shard's records: those whose first byte falls in the shard's
/// equal share of the data, cut at record boundaries (quoted CSV newlines and blocks
/// included), so that every record is in exactly one shard.
pub fn shard_bounds(data: &[u8], layout: &Layout, shard: Shard) -> (usize, usize) {
    let base = layout.data_start.min(data.len());
    let region = &data[base..];
    let count = shard.count.max(1);
    let cut = |k: u32| -> usize {
        if k == 0 {
            return base;
        }
        if k >= count {
            return data.len();
        }
        let target = (region.len() as u128 * u128::from(k) / u128::from(count)) as usize;
        let mut quoted = false;
        let pos = match layout.format {
            // The first block starting at or after the target.
            Format::Blocks => chunk_end(region, target, Format::Blocks, &mut quoted),
            _ if target == 0 => 0,
            // Just past the first record end at or after target - 1: a record that
            // starts exactly at the target belongs to this side of the cut.
            format => chunk_end(region, target - 1, format, &mut quoted),
        };
        base + pos
    };
    (cut(shard.index.saturating_sub(1)), cut(shard.index))
}

impl<'a> Iterator for SliceChunks<'a> {
    type Item = Chunk<'a>;

    fn next(&mut self) -> Option<Chunk<'a>> {
        if self.pos >= self.data.len() {
            return None;
        }
        let rest = &self.data[self.pos..];
        let len = chunk_end(rest, self.target, self.format, &mut self.in_quotes);
        let bytes = &rest[..len];
        if self.in_quotes && len == rest.len() {
            self.unclosed = unclosed_quote_line(bytes, self.line);
        }
        let chunk = Chunk {
            first_line: self.line,
            bytes: ChunkBytes::Borrowed(bytes),
            too_long: None,
        };
        self.line += count_newlines(bytes);
        self.pos += len;
        Some(chunk)
    }
}

/// Number of `\n` bytes.
///
/// Counted in blocks of 255 bytes into a byte-wide sum, which the compiler turns into
/// vector compares and subtracts: the chunker and the ordered writer (both serial)
/// count every byte of input and output, and a plain `filter().count()` stays scalar
/// (measured with callgrind on 100,000 records: 1,200 instructions a record before).
pub(crate) fn count_newlines(bytes: &[u8]) -> u64 {
    let mut blocks = bytes.chunks_exact(255);
    let mut total = 0u64;
    for block in &mut blocks {
        let mut n = 0u8;
        for &b in block {
            n += u8::from(b == b'\n');
        }
        total += u64::from(n);
    }
    let rest = blocks.remainder();
    total + rest.iter().filter(|&&b| b == b'\n').count() as u64
}

/// Reads a stream in blocks and yields record-aligned chunks (stdin, pipes).
pub struct StreamChunks<R: Read> {
    reader: R,
    carry: Vec<u8>,
    line: u64,
    format: Format,
    in_quotes: bool,
    eof: bool,
    /// Bytes of `carry` to hold before the next look for a record boundary: doubled
    /// after a look that found none, so that a record of n bytes costs O(n) scanning
    /// in all, not one rescan per block read.
    next_look: usize,
    /// Looks for a boundary so far (for the tests of the bound above).
    looks: u64,
    /// The stream ends its lines with a lone `\r`: every block read is turned to `\n`s.
    cr_to_lf: bool,
    /// The line of a CSV quote the input leaves open, once the last chunk is out.
    unclosed: Option<u64>,
    /// Longest record held: a longer one is cut to its first bytes and skipped to its
    /// end, so memory stays bounded whatever one line holds.
    max_record: usize,
    /// The bytes before the first record's line (a CSV header), as read.
    head: Vec<u8>,
}

impl<R: Read> StreamChunks<R> {
    /// The bytes before the first record's line (a CSV header and what comes before
    /// it), which no chunk holds.
    pub fn head(&self) -> &[u8] {
        &self.head
    }

    /// The line of a CSV quote the input left open, once every chunk is out.
    pub fn unclosed_quote(&self) -> Option<u64> {
        self.unclosed
    }

    /// Reads the first block, detects the layout, and positions after any header.
    pub fn start(
        mut reader: R,
        choice: &Choice,
        max_record: usize,
    ) -> io::Result<Result<(Self, Layout), InputError>> {
        let mut carry = Vec::with_capacity(2 * CHUNK_BYTES);
        let mut eof = false;
        // Enough to see the header and first record: a full block holding a newline
        // (each block looked at once), or a first line already over the limit.
        let mut newline = false;
        while !eof && (carry.len() < CHUNK_BYTES || !newline) && carry.len() <= max_record {
            let old = carry.len();
            eof = fill(&mut reader, &mut carry)?;
            newline |= carry[old..].contains(&b'\n');
        }
        // Old Mac OS line ends: read as lines, every `\r` taken as `\n`.
        let cr_to_lf = lone_cr_line_ends(&carry);
        if cr_to_lf {
            crate::pipeline::input::cr_to_lf(&mut carry);
        }
        let mut layout = match detect_layout_as(&carry, choice) {
            Ok(l) => l,
            Err(e) => return Ok(Err(e)),
        };
        layout.max_record = max_record;
        let head = carry.drain(..layout.data_start.min(carry.len())).collect();
        let chunks = StreamChunks {
            reader,
            carry,
            line: layout.first_line,
            format: layout.format,
            in_quotes: false,
            eof,
            next_look: CHUNK_BYTES,
            looks: 0,
            cr_to_lf,
            unclosed: None,
            max_record,
            head,
        };
        Ok(Ok((chunks, layout)))
    }

    /// Numbers lines from `offset + 1` more than detected (for a part of a larger input).
    pub fn shift_lines(&mut self, offset: u64) {
        self.line += offset;
    }

    /// The next chunk, or `None` at the end of the stream.
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk<'static>>> {
        loop {
            if self.carry.is_empty() && self.eof {
                return Ok(None);
            }
            if self.carry.len() >= self.next_look || self.eof {
                // Look for a boundary without committing quote state until one is found.
                let mut quotes = self.in_quotes;
                self.looks += 1;
                let end = chunk_end(&self.carry, CHUNK_BYTES, self.format, &mut quotes);
                if end >= self.carry.len() && !self.eof && self.carry.len() > self.max_record {
                    // The records held so far go out as they are; then the one too long.
                    return match last_record_end(&self.carry, self.format, self.in_quotes) {
                        Some(end) => Ok(Some(self.cut(end))),
                        None => self.skip_too_long().map(Some),
                    };
                }
                if end >= self.carry.len() && !self.eof {
                    self.next_look = 2 * self.carry.len();
                } else {
                    self.next_look = CHUNK_BYTES;
                    self.in_quotes = quotes;
                    let chunk = self.cut(end);
                    if self.in_quotes && self.eof && self.carry.is_empty() {
                        if let ChunkBytes::Owned(bytes) = &chunk.bytes {
                            self.unclosed = unclosed_quote_line(bytes, chunk.first_line);
                        }
                    }
                    return Ok(Some(chunk));
                }
            }
            let old = self.carry.len();
            self.eof = fill(&mut self.reader, &mut self.carry)?;
            if self.cr_to_lf {
                crate::pipeline::input::cr_to_lf(&mut self.carry[old..]);
            }
        }
    }
}

impl<R: Read> StreamChunks<R> {
    /// The first `end` bytes of the carry as a chunk (`end` is a record boundary).
    fn cut(&mut self, end: usize) -> Chunk<'static> {
        let rest = self.carry.split_off(end);
        let bytes = std::mem::replace(&mut self.carry, rest);
        let first_line = self.line;
        self.line += count_newlines(&bytes);
        Chunk {
            first_line,
            bytes: ChunkBytes::Owned(bytes),
            too_long: None,
        }
    }

    /// The record at the start of the carry is over the limit: keeps its first bytes
    /// for its row and reads on, one block at a time, to its end.
    fn skip_too_long(&mut self) -> io::Result<Chunk<'static>> {
        let first_line = self.line;
        let echo = self.carry[..self.carry.len().min(TOO_LONG_ECHO)].to_vec();
        let format = line_ends(self.format);
        let mut quoted = self.in_quotes;
        let mut length = 0u64;
        loop {
            let end = chunk_end(&self.carry, 0, format, &mut quoted);
            let found = end < self.carry.len() || self.carry.last() == Some(&b'\n');
            self.line += count_newlines(&self.carry[..end]);
            length += end as u64;
            if found {
                // Not counting the line end.
                length -= 1;
                self.carry.drain(..end);
                break;
            }
            self.carry.clear();
            if self.eof {
                break;
            }
            let old = self.carry.len();
            self.eof = fill(&mut self.reader, &mut self.carry)?;
            if self.cr_to_lf {
                crate::pipeline::input::cr_to_lf(&mut self.carry[old..]);
            }
        }
        self.in_quotes = false;
        self.next_look = CHUNK_BYTES;
        Ok(Chunk {
            first_line,
            bytes: ChunkBytes::Owned(echo),
            too_long: Some(length),
        })
    }
}

/// The format whose record ends a record over the limit is cut at: CSV keeps its quotes;
/// lines and blocks (which have none) end at a newline.
fn line_ends(format: Format) -> Format {
    match format {
        Format::Csv => Format::Csv,
        _ => Format::Lines,
    }
}

/// Where the last whole record in `data` ends (just after its newline), if one does;
/// `in_quotes` is the CSV quote state at its start.
fn last_record_end(data: &[u8], format: Format, in_quotes: bool) -> Option<usize> {
    let mut quoted = in_quotes;
    let mut last = None;
    let mut at = 0;
    let format = line_ends(format);
    while at < data.len() {
        let end = at + chunk_end(&data[at..], 0, format, &mut quoted);
        if end == data.len() && data.last() != Some(&b'\n') {
            break;
        }
        last = Some(end);
        at = end;
    }
    last.filter(|&end| end > 0)
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
    /// The line of a CSV quote the input left open (known once every chunk is out).
    pub fn unclosed_quote(&self) -> Option<u64> {
        match self {
            Source::Slice(s) => s.unclosed,
            Source::Stream(s) => s.unclosed,
        }
    }

    /// The next chunk, or `None` at the end.
    pub fn next_chunk(&mut self) -> io::Result<Option<Chunk<'a>>> {
        match self {
            Source::Slice(s) => Ok(s.next()),
            Source::Stream(s) => s.next_chunk(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::input::{detect_layout, ColumnChoice};

    #[test]
    fn newlines_are_counted_in_blocks_as_one_by_one() {
        let mut bytes = Vec::new();
        for i in 0..3000u32 {
            bytes.push(if i % 7 == 0 || i % 255 == 254 {
                b'\n'
            } else {
                b'x'
            });
        }
        for len in [0, 1, 254, 255, 256, 510, 511, 3000] {
            let want = bytes[..len].iter().filter(|&&b| b == b'\n').count() as u64;
            assert_eq!(count_newlines(&bytes[..len]), want, "{len}");
        }
        assert_eq!(count_newlines(&[b'\n'; 1000]), 1000);
    }

    /// A reader that hands out `data` in blocks of at most `block` bytes.
    struct Blocks {
        data: Vec<u8>,
        pos: usize,
        block: usize,
    }

    impl Read for Blocks {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.block).min(self.data.len() - self.pos);
            buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
            self.pos += n;
            Ok(n)
        }
    }

    #[test]
    fn a_small_input_is_spread_over_the_threads_in_whole_records() {
        let puzzle =
            b".476....2..6...9.83...7....7......3..9....1.......76....3.5.......1.2..6.65....8.\n";
        let data: Vec<u8> = puzzle.repeat(1465);
        let layout = detect_layout(&data, None, &ColumnChoice::Auto).unwrap();
        let one: Vec<Chunk> = SliceChunks::new(&data, &layout).collect();
        assert_eq!(one.len(), 1, "120 KB is one chunk of the usual size");
        let spread: Vec<Chunk> = SliceChunks::new(&data, &layout).spread(2).collect();
        assert!(spread.len() >= 16, "{} chunks for 2 threads", spread.len());
        let mut line = 1;
        for chunk in &spread {
            let bytes = chunk.bytes.as_slice();
            assert_eq!(chunk.first_line, line);
            assert_eq!(bytes.len() % puzzle.len(), 0, "a record split");
            line += count_newlines(bytes);
        }
        assert_eq!(line, 1466);
        // Never below 4 KiB a chunk, however many threads.
        let many = SliceChunks::new(&data, &layout).spread(1024).count();
        assert!(many <= data.len() / MIN_CHUNK_BYTES + 1, "{many} chunks");
    }

    #[test]
    fn a_long_record_is_looked_through_a_logarithmic_number_of_times() {
        for format in [Format::Lines, Format::Csv] {
            // One 32 MiB line between two puzzles, read 64 KiB at a time.
            let puzzle = b".476....2..6...9.83...7....7......3..9....1.......76....3.5.......1.2..6.65....8.\n";
            let mut data = puzzle.to_vec();
            data.extend(std::iter::repeat_n(b'1', 32 << 20));
            data.push(b'\n');
            data.extend_from_slice(puzzle);
            let reader = Blocks {
                data: data.clone(),
                pos: 0,
                block: 64 << 10,
            };
            let column = match format {
                Format::Csv => ColumnChoice::Index(1),
                _ => ColumnChoice::Auto,
            };
            let choice = Choice {
                format: Some(format),
                column,
                delimiter: None,
            };
            let (mut chunks, _) = StreamChunks::start(reader, &choice, usize::MAX)
                .unwrap()
                .unwrap();
            let mut got = Vec::new();
            while let Some(chunk) = chunks.next_chunk().unwrap() {
                got.extend_from_slice(chunk.bytes.as_slice());
            }
            assert_eq!(got, data, "{format:?}");
            // A look per doubling (about log2(32 MiB / 128 KiB) = 8), not one per block
            // read (512).
            assert!(chunks.looks <= 16, "{format:?}: {} looks", chunks.looks);
        }
    }

    #[test]
    fn a_record_over_the_limit_is_cut_to_its_first_bytes_and_skipped_unheld() {
        for format in [Format::Lines, Format::Csv] {
            let puzzle = b".476....2..6...9.83...7....7......3..9....1.......76....3.5.......1.2..6.65....8.\n";
            let mut data = puzzle.repeat(3);
            // A quoted newline inside the long CSV record belongs to it.
            data.extend_from_slice(b"\"ab\ncd\"");
            data.extend(std::iter::repeat_n(b'1', 8 << 20));
            data.push(b'\n');
            data.extend_from_slice(puzzle);
            let reader = Blocks {
                data: data.clone(),
                pos: 0,
                block: 4 << 10,
            };
            let column = match format {
                Format::Csv => ColumnChoice::Index(1),
                _ => ColumnChoice::Auto,
            };
            let choice = Choice {
                format: Some(format),
                column,
                delimiter: None,
            };
            let (mut chunks, _) = StreamChunks::start(reader, &choice, 1 << 20)
                .unwrap()
                .unwrap();
            let mut got = Vec::new();
            let mut held = 0;
            while let Some(chunk) = chunks.next_chunk().unwrap() {
                held = held.max(chunks.carry.capacity());
                got.push((
                    chunk.first_line,
                    chunk.bytes.as_slice().to_vec(),
                    chunk.too_long,
                ));
            }
            // Lines: `"ab` is a record of its own, and the long one starts on line 5;
            // CSV: the quoted newline joins them into one record from line 4.
            let (line, length) = match format {
                Format::Csv => (4, (8 << 20) + 7),
                _ => (5, (8 << 20) + 3),
            };
            let too_long: Vec<_> = got.iter().filter(|c| c.2.is_some()).collect();
            assert_eq!(too_long.len(), 1, "{format:?}");
            assert_eq!(
                (too_long[0].0, too_long[0].2),
                (line, Some(length)),
                "{format:?}"
            );
            assert_eq!(too_long[0].1.len(), 100);
            let last = got.last().unwrap();
            assert_eq!(
                (last.0, last.1.as_slice(), last.2),
                (6, &puzzle[..], None),
                "{format:?}"
            );
            let whole: Vec<u8> = got
                .iter()
                .filter(|c| c.2.is_none())
                .flat_map(|c| c.1.clone())
                .collect();
            assert_eq!(&whole[..3 * puzzle.len()], &puzzle.repeat(3)[..]);
            assert!(held < 4 << 20, "{format:?}: {held} bytes held");
        }
    }
}
