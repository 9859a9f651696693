//! Equivalence classes of a dataset's records: the keys behind `dedupe`, `overlap` and
//! `split`.
//!
//! A record's key is its canonical form ([`crate::engines::canon`]: equal for puzzles that are
//! the same up to relabelling and validity-preserving shuffles) or, by choice, its
//! cells as read (`.` and `0` alike). Keys are exact (the 81 cells packed two to a
//! byte), never hashes that could collide. A malformed record is keyed by its text, so
//! only identical malformed texts fall into one class.
//!
//! Records are found in input order; their keys are computed in batches on the rayon
//! pool (one [`Canonicalizer`] per thread, reused), then handed back in input order
//! with the record's own bytes: the lines from its first line up to the next record's,
//! without trailing blank or `#` lines. Memory holds one batch and whatever the caller
//! keeps per class.

use std::collections::HashMap;
use std::ops::Range;

use rayon::prelude::*;

use crate::pipeline::progress::Progress;

use crate::engines::canon::Canonicalizer;
use crate::pipeline::input::{for_each_record, Layout, RecordScratch};
use crate::pipeline::windows::Window;
use crate::values::grid::{Grid, CELLS};

/// What makes two records the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyBy {
    /// The same cells as read.
    Text,
    /// The same canonical form: equivalent puzzles.
    Canonical,
}

/// A record's class key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// A well-formed puzzle's cells (canonical or as read), two to a byte.
    Cells([u8; CELLS.div_ceil(2)]),
    /// A malformed record's text.
    Malformed(Box<[u8]>),
}

impl Key {
    /// A 64-bit number drawn from the key and `seed` alone (not from where the record
    /// lies), the same on every platform and in every version: `split` orders classes
    /// by it.
    pub fn rank(&self, seed: u64) -> u64 {
        let bytes: &[u8] = match self {
            Key::Cells(cells) => cells,
            Key::Malformed(text) => text,
        };
        let mut h = mix(seed ^ 0x9e37_79b9_7f4a_7c15 ^ bytes.len() as u64);
        for word in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..word.len()].copy_from_slice(word);
            h = mix(h ^ u64::from_le_bytes(w));
        }
        h
    }

    /// A record's key as far as it is known before canonical forms are computed: the
    /// cells by text, the malformed record's `raw` text, or a placeholder that
    /// [`canonical_keys`] fills in.
    pub(crate) fn first(puzzle: Option<&Grid>, raw: &[u8], by: KeyBy) -> Key {
        match puzzle {
            Some(grid) if by == KeyBy::Text => Key::packed(grid.cells(), 0),
            Some(_) => Key::Cells([0; CELLS.div_ceil(2)]),
            None => Key::Malformed(Box::from(raw)),
        }
    }

    /// The key of 81 cells, each `base` plus its value (`0` for `b'0'`-based text).
    pub(crate) fn packed(cells: &[u8; CELLS], base: u8) -> Key {
        let mut packed = [0u8; CELLS.div_ceil(2)];
        for (i, &d) in cells.iter().enumerate() {
            packed[i / 2] |= (d - base) << (4 * (i % 2));
        }
        Key::Cells(packed)
    }
}

/// One record with its key, in input order.
pub struct Keyed<'a> {
    /// The record's 1-based line.
    pub line: u64,
    /// Where the record's own bytes lie in the input (its lines, each with its line end).
    pub span: Range<usize>,
    /// The puzzle, when well-formed.
    pub puzzle: Option<Grid>,
    /// Its class key.
    pub key: &'a Key,
}

/// SplitMix64's finaliser: every input bit moves every output bit.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Records per batch keyed in parallel.
const BATCH: usize = 1 << 14;

/// Calls `each` for every record of `data` (read with `layout`), in input order, with
/// its key by `by`; canonical forms are computed on the current rayon pool.
pub fn for_each_keyed<F: FnMut(Keyed<'_>)>(data: &[u8], layout: &Layout, by: KeyBy, each: F) {
    for_each_keyed_shown(data, layout, by, &Progress::hidden(), each)
}

/// [`for_each_keyed`] moving `progress` over `data`'s bytes, a batch at a time.
pub fn for_each_keyed_shown<F: FnMut(Keyed<'_>)>(
    data: &[u8],
    layout: &Layout,
    by: KeyBy,
    progress: &Progress,
    each: F,
) {
    let start = layout.data_start.min(data.len());
    keyed(data, (start, layout.first_line), layout, by, progress, each);
}

/// [`for_each_keyed_shown`] over one window of a dataset read a window at a time
/// ([`crate::pipeline::windows`]): the spans are the window's, and `progress` moves
/// over its bytes.
pub fn for_each_keyed_window<F: FnMut(Keyed<'_>)>(
    window: Window<'_>,
    layout: &Layout,
    by: KeyBy,
    progress: &Progress,
    each: F,
) {
    keyed(
        window.bytes,
        (0, window.first_line),
        layout,
        by,
        progress,
        each,
    );
}

/// Keys the records of `data` from byte `start` on, whose line is `first_line`.
fn keyed<F: FnMut(Keyed<'_>)>(
    data: &[u8],
    (start, first_line): (usize, u64),
    layout: &Layout,
    by: KeyBy,
    progress: &Progress,
    mut each: F,
) {
    let done = std::cell::Cell::new(0usize);
    let threads = rayon::current_num_threads().max(1);
    let mut canons: Vec<Canonicalizer> = (0..threads).map(|_| Canonicalizer::new()).collect();
    let mut lines = LineStarts::at(data, start, first_line);
    // One batch: each record's line and puzzle, and its key (text keys and malformed
    // records' keys made as found, canonical ones filled in by the pool).
    let mut batch: Vec<(u64, Option<Grid>)> = Vec::with_capacity(BATCH);
    let mut keys: Vec<Key> = Vec::with_capacity(BATCH);
    // A record's bytes end where the next one starts, so each is handed on once the
    // next is known.
    let mut pending: Option<(u64, Option<Grid>, Key)> = None;
    let mut hand_on = |next: Option<(u64, Option<Grid>, Key)>, each: &mut F| {
        if let Some((line, puzzle, key)) = std::mem::replace(&mut pending, next) {
            let span = lines.record_span(line, pending.as_ref().map(|p| p.0));
            done.set(span.end);
            each(Keyed {
                line,
                span,
                puzzle,
                key: &key,
            });
        }
    };
    let mut flush = |batch: &mut Vec<(u64, Option<Grid>)>, keys: &mut Vec<Key>, each: &mut F| {
        if by == KeyBy::Canonical {
            let puzzles = |i: usize| batch[i].1.as_ref();
            canonical_keys(keys, &puzzles, &mut canons);
        }
        for ((line, puzzle), key) in batch.drain(..).zip(keys.drain(..)) {
            hand_on(Some((line, puzzle, key)), each);
        }
        progress.set(done.get() as u64);
    };
    let mut scratch = RecordScratch::default();
    for_each_record(&data[start..], first_line, layout, &mut scratch, |r| {
        keys.push(Key::first(r.puzzle.as_ref().ok(), r.raw, by));
        batch.push((r.line, r.puzzle.ok()));
        if batch.len() == BATCH {
            flush(&mut batch, &mut keys, &mut each);
        }
    });
    flush(&mut batch, &mut keys, &mut each);
    hand_on(None, &mut each);
    progress.set(data.len() as u64);
}

/// Calls `each` for every record of `data` (read with `layout`), in input order, with
/// its line and the span of its own bytes, as [`for_each_keyed`] gives them, without
/// keys.
pub fn for_each_span<F: FnMut(u64, Range<usize>)>(data: &[u8], layout: &Layout, each: F) {
    let start = layout.data_start.min(data.len());
    spans(data, (start, layout.first_line), layout, each);
}

/// [`for_each_span`] over one window of a dataset read a window at a time: the spans
/// are the window's.
pub fn for_each_span_window<F: FnMut(u64, Range<usize>)>(
    window: Window<'_>,
    layout: &Layout,
    each: F,
) {
    spans(window.bytes, (0, window.first_line), layout, each);
}

/// The spans of the records of `data` from byte `start` on, whose line is `first_line`.
fn spans<F: FnMut(u64, Range<usize>)>(
    data: &[u8],
    (start, first_line): (usize, u64),
    layout: &Layout,
    mut each: F,
) {
    let mut lines = LineStarts::at(data, start, first_line);
    let mut pending: Option<u64> = None;
    let mut scratch = RecordScratch::default();
    for_each_record(&data[start..], first_line, layout, &mut scratch, |r| {
        if let Some(line) = pending.replace(r.line) {
            each(line, lines.record_span(line, Some(r.line)));
        }
    });
    if let Some(line) = pending {
        each(line, lines.record_span(line, None));
    }
}

/// Sets `keys[i]` to the canonical key of `puzzle(i)` wherever that is a puzzle, on the
/// current rayon pool, one canonicaliser per thread.
fn canonical_keys<'g, G>(keys: &mut [Key], puzzle: &G, canons: &mut [Canonicalizer])
where
    G: Fn(usize) -> Option<&'g Grid> + Sync,
{
    let per = keys.len().div_ceil(canons.len().max(1)).max(1);
    keys.par_chunks_mut(per)
        .enumerate()
        .zip(canons.par_iter_mut())
        .for_each(|((part, keys), canon)| {
            for (i, key) in keys.iter_mut().enumerate() {
                if let Some(grid) = puzzle(part * per + i) {
                    *key = Key::packed(&canon.canonical(grid).form, b'0');
                }
            }
        });
}

/// The index of the first puzzle of each class among in-memory puzzles (each text a
/// whole record, as [`crate::pipeline::parsed::parse_record`] reads it), in order, keyed on the
/// current rayon pool: what `dedupe` keeps, for front ends without files.
pub fn first_of_each_class<P: AsRef<[u8]> + Sync>(puzzles: &[P], by: KeyBy) -> Vec<usize> {
    let grids: Vec<Option<Grid>> = puzzles
        .par_iter()
        .map(|p| crate::pipeline::parsed::parse_record(p.as_ref()).ok())
        .collect();
    let mut keys: Vec<Key> = grids
        .iter()
        .zip(puzzles)
        .map(|(grid, text)| Key::first(grid.as_ref(), text.as_ref().trim_ascii(), by))
        .collect();
    if by == KeyBy::Canonical {
        let threads = rayon::current_num_threads().max(1);
        let mut canons: Vec<Canonicalizer> = (0..threads).map(|_| Canonicalizer::new()).collect();
        canonical_keys(&mut keys, &|i: usize| grids[i].as_ref(), &mut canons);
    }
    let mut seen = std::collections::HashSet::with_capacity(keys.len());
    keys.iter()
        .enumerate()
        .filter(|(_, key)| seen.insert(*key))
        .map(|(i, _)| i)
        .collect()
}

/// Finds line starts by scanning forward (records come in increasing line order).
struct LineStarts<'a> {
    data: &'a [u8],
    /// The line at `pos`.
    line: u64,
    pos: usize,
}

impl<'a> LineStarts<'a> {
    /// Line starts of `data` from byte `pos`, which is line `line`'s start.
    fn at(data: &'a [u8], pos: usize, line: u64) -> Self {
        LineStarts { data, line, pos }
    }

    /// Moves to `line` and returns its offset (the end of data past the last line).
    fn seek(&mut self, line: u64) -> usize {
        while self.line < line && self.pos < self.data.len() {
            match memchr_newline(&self.data[self.pos..]) {
                Some(i) => self.pos += i + 1,
                None => self.pos = self.data.len(),
            }
            self.line += 1;
        }
        self.pos
    }

    /// The bytes of the record starting at `line`, up to the line where the next
    /// record starts (or the end), less trailing blank and `#` lines.
    fn record_span(&mut self, line: u64, next: Option<u64>) -> Range<usize> {
        let start = self.seek(line);
        let end = match next {
            Some(n) => self.seek(n),
            None => self.data.len(),
        };
        // Trim trailing blank and comment lines (keep the record's own line end).
        let mut keep = start;
        let mut pos = start;
        while pos < end {
            let line_end = memchr_newline(&self.data[pos..end]).map_or(end, |i| pos + i + 1);
            let text = &self.data[pos..line_end];
            let blank = text.iter().all(|b| b.is_ascii_whitespace());
            let comment = text.first() == Some(&b'#');
            if pos == start || !(blank || comment) {
                keep = line_end;
            }
            pos = line_end;
        }
        start..keep
    }
}

fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

/// Classes met so far: each key's first line and size (a puzzle's key and its class in
/// a 56-byte slot; a malformed record's text apart).
#[derive(Default)]
pub struct Classes {
    cells: HashMap<[u8; CELLS.div_ceil(2)], Slot>,
    malformed: HashMap<Box<[u8]>, Slot>,
    records: u64,
}

/// A class as held: its first line (as bytes, so that the slot is aligned to 4 and
/// 12 bytes long, 56 with its key) and its size.
#[derive(Clone, Copy, Debug)]
struct Slot {
    first: [u8; 8],
    size: u32,
}

impl From<Slot> for Class {
    fn from(slot: Slot) -> Class {
        Class {
            first: u64::from_le_bytes(slot.first),
            size: u64::from(slot.size),
        }
    }
}

/// One class: where it was first met and how many records it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Class {
    /// Line of its first record.
    pub first: u64,
    /// Records in it.
    pub size: u64,
}

impl Classes {
    /// Adds a record; returns the first line of its class when it is not the first.
    pub fn add(&mut self, key: &Key, line: u64) -> Option<u64> {
        self.records += 1;
        let found = match key {
            Key::Cells(cells) => self.cells.get_mut(cells),
            Key::Malformed(text) => self.malformed.get_mut(text),
        };
        if let Some(slot) = found {
            slot.size = slot.size.saturating_add(1);
            return Some(u64::from_le_bytes(slot.first));
        }
        let slot = Slot {
            first: line.to_le_bytes(),
            size: 1,
        };
        match key {
            Key::Cells(cells) => self.cells.insert(*cells, slot),
            Key::Malformed(text) => self.malformed.insert(text.clone(), slot),
        };
        None
    }

    /// The class of `key`, if met.
    pub fn get(&self, key: &Key) -> Option<Class> {
        match key {
            Key::Cells(cells) => self.cells.get(cells),
            Key::Malformed(text) => self.malformed.get(text),
        }
        .map(|&slot| Class::from(slot))
    }

    /// Records added.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Classes met.
    pub fn len(&self) -> u64 {
        (self.cells.len() + self.malformed.len()) as u64
    }

    /// True when no record was added.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty() && self.malformed.is_empty()
    }

    /// The `n` largest classes with more than one record, largest first (ties by first
    /// line).
    pub fn largest(&self, n: usize) -> Vec<Class> {
        let mut all: Vec<Class> = (self.cells.values().chain(self.malformed.values()))
            .filter(|s| s.size > 1)
            .map(|&s| Class::from(s))
            .collect();
        all.sort_by(|a, b| b.size.cmp(&a.size).then(a.first.cmp(&b.first)));
        all.truncate(n);
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_slot_with_its_key_takes_56_bytes() {
        assert_eq!(std::mem::size_of::<([u8; CELLS.div_ceil(2)], Slot)>(), 56);
    }

    #[test]
    fn classes_count_sizes_and_first_lines_of_both_kinds_of_key() {
        let mut classes = Classes::default();
        let a = Key::Cells([1; CELLS.div_ceil(2)]);
        let bad = Key::Malformed(b"xyz".to_vec().into_boxed_slice());
        assert_eq!(classes.add(&a, 3), None);
        assert_eq!(classes.add(&bad, 4), None);
        assert_eq!(classes.add(&a, 7), Some(3));
        assert_eq!(classes.add(&bad, 9), Some(4));
        assert_eq!(classes.add(&a, 12), Some(3));
        assert_eq!(classes.len(), 2);
        assert_eq!(classes.records(), 5);
        assert_eq!(classes.get(&a), Some(Class { first: 3, size: 3 }));
        assert_eq!(
            classes.largest(5),
            [Class { first: 3, size: 3 }, Class { first: 4, size: 2 }]
        );
    }
}
