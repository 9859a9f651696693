//! `audit`: a dataset's health in one pass over its records. Each record is parsed,
//! classified (and with `grade`, rated) and canonicalised by the same worker, in batches
//! on the rayon pool; the results come back in input order and are counted into an
//! [`AuditReport`]: statuses and reasons, given solutions that are not the puzzle's,
//! identical and equivalent records, leakage into other files, and histograms.
//!
//! The records come a window at a time ([`crate::pipeline::windows`]): a compressed
//! file is decoded as it is read. Memory holds one batch, one window and, as `dedupe`
//! does, a slot per class; everything else is counts.

use std::collections::{BTreeMap, HashMap};

use rayon::prelude::*;

use crate::datasets::classes::{for_each_keyed_window, Key, KeyBy};
use crate::engines::canon::Canonicalizer;
use crate::engines::explainer::{Rater, Rules};
use crate::engines::{Bitboards, Engine};
use crate::jobs::{is_minimal, Graded};
use crate::pipeline::input::{for_each_record, Layout, RecordError, RecordScratch};
use crate::pipeline::progress::Progress;
use crate::pipeline::rows::Reason;
use crate::pipeline::windows::{InMemory, Windowed, WindowsError};
use crate::reports::audit::{AuditReport, Group, Leak, Minimality, FIRST_LINES};
use crate::values::geometry::Variant;
use crate::values::grid::{Clash, Grid};
use crate::values::level::Level;
use crate::values::search::{Budget, Classification};
use crate::values::status::Status;

/// Records per batch handed to the pool.
const BATCH: usize = 1 << 13;

/// What an audit does beyond its defaults.
#[derive(Clone, Copy, Debug, Default)]
pub struct AuditOptions {
    /// Rate every unique record with these rules and this budget (chain steps).
    pub grade: Option<(Rules, u64)>,
    /// Search budget of each record (branches).
    pub budget: Budget,
    /// Check whether each unique record is minimal (a solve per given).
    pub minimality: bool,
}

/// What one worker learned of one record.
#[derive(Clone, Copy, Debug)]
struct Facts {
    status: Status,
    guesses: u32,
    canonical: Option<([u8; 41], u64)>,
    givens: u8,
    mismatch: Option<bool>,
    rating: Option<(u16, Level, bool)>,
    /// Checked for minimality: minimal, not, or `None` when the budget ran out.
    minimal: Option<Option<bool>>,
}

/// One worker's tools, reused for every record it takes.
struct Tools {
    engine: Box<Bitboards>,
    canon: Box<Canonicalizer>,
    rater: Option<Box<Rater>>,
}

/// A record waiting in a batch.
struct Pending {
    line: u64,
    puzzle: Result<Grid, RecordError>,
    expected: Option<Result<Grid, ()>>,
    text_key: Key,
}

/// Audits the records of `data` (read with `layout`) on the current rayon pool, then
/// their leakage into each of `against` (a name, its data and layout). The report's
/// provenance is left for the caller, which knows the files and the command line.
pub fn audit(
    data: &[u8],
    layout: &Layout,
    against: &[(String, &[u8], Layout)],
    options: &AuditOptions,
    progress: &Progress,
) -> AuditReport {
    let mut main = InMemory {
        bytes: data,
        layout,
    };
    let mut others: Vec<(String, InMemory<'_>)> = against
        .iter()
        .map(|(name, bytes, layout)| (name.clone(), InMemory { bytes, layout }))
        .collect();
    let mut named: Vec<(&str, &mut dyn Windowed)> = others
        .iter_mut()
        .map(|(name, w)| (name.as_str(), w as &mut dyn Windowed))
        .collect();
    match audit_windows(&mut main, &mut named, options, progress) {
        Ok(audited) => audited.report,
        // Bytes in memory are read without error, and the audit writes nothing.
        Err(e) => unreachable!("an audit of bytes in memory failed: {e:?}"),
    }
}

/// What [`audit_windows`] found.
#[derive(Debug)]
pub struct Audited {
    /// The report, its provenance left for the caller.
    pub report: AuditReport,
    /// Records of each of the files it was checked against, in their order.
    pub against_records: Vec<u64>,
}

/// [`audit`] of datasets read a window at a time (a compressed file is decoded as it is
/// read, never held whole): `main`'s records, then their leakage into each of `against`
/// (a name and its windows). Memory holds a batch of records, a window and the classes.
pub fn audit_windows(
    main: &mut dyn Windowed,
    against: &mut [(&str, &mut dyn Windowed)],
    options: &AuditOptions,
    progress: &Progress,
) -> Result<Audited, WindowsError> {
    let threads = rayon::current_num_threads().max(1);
    let mut tools: Vec<Tools> = (0..threads)
        .map(|_| {
            let mut engine = Bitboards::new(Variant::Classic);
            engine.set_budget(options.budget);
            Tools {
                engine,
                canon: Box::new(Canonicalizer::new()),
                rater: options
                    .grade
                    .map(|(rules, budget)| Box::new(Rater::with(rules, budget))),
            }
        })
        .collect();
    let mut tally = AuditTally::new(options.grade.is_some());
    if options.minimality {
        tally.report.shape.minimality = Some(Minimality::default());
    }
    let mut batch: Vec<Pending> = Vec::with_capacity(BATCH);
    let mut facts: Vec<Option<Facts>> = Vec::with_capacity(BATCH);
    let mut flush = |batch: &mut Vec<Pending>, tally: &mut AuditTally| {
        facts.clear();
        facts.resize(batch.len(), None);
        let per = batch.len().div_ceil(threads).max(1);
        facts
            .par_chunks_mut(per)
            .zip(batch.par_chunks(per))
            .zip(tools.par_iter_mut())
            .for_each(|((facts, records), tools)| {
                for (fact, record) in facts.iter_mut().zip(records) {
                    *fact = record
                        .puzzle
                        .as_ref()
                        .ok()
                        .map(|g| examine(tools, g, record, options.minimality));
                }
            });
        for (record, fact) in batch.drain(..).zip(facts.iter()) {
            tally.add(record, *fact);
        }
    };
    let layout = main.layout().clone();
    // Bytes before the window in hand.
    let mut base = main.head().len() as u64;
    let mut scratch = RecordScratch::default();
    main.each_window(&mut |window| {
        let data = window.bytes;
        for_each_record(data, window.first_line, &layout, &mut scratch, |r| {
            let within = (r.raw.as_ptr() as usize).saturating_sub(data.as_ptr() as usize);
            batch.push(Pending {
                line: r.line,
                text_key: Key::first(r.puzzle.as_ref().ok(), r.raw, KeyBy::Text),
                puzzle: r.puzzle,
                expected: r.expected,
            });
            if batch.len() == BATCH {
                flush(&mut batch, &mut tally);
                progress.set(base + within.min(data.len()) as u64);
            }
        });
        base += data.len() as u64;
        Ok(())
    })?;
    flush(&mut batch, &mut tally);
    progress.set(base);
    let mut leakage = Vec::with_capacity(against.len());
    let mut against_records = Vec::with_capacity(against.len());
    for (name, windows) in against.iter_mut() {
        progress.say(&format!("leakage into {name}"));
        let (leak, records) = tally.leak(name, &mut **windows, &mut base, progress)?;
        leakage.push(leak);
        against_records.push(records);
    }
    let mut report = tally.report();
    report.leakage = leakage;
    report.judge();
    Ok(Audited {
        report,
        against_records,
    })
}

/// Classifies, canonicalises and (when asked) rates one well-formed record.
fn examine(tools: &mut Tools, grid: &Grid, record: &Pending, minimality: bool) -> Facts {
    let givens = grid.cells().iter().filter(|&&c| c != 0).count() as u8;
    let class = tools.engine.classify(grid);
    let guesses = tools.engine.stats().guesses;
    let status = match class {
        Classification::Unique(_) => Status::Unique,
        Classification::Multiple(_) => Status::Multiple,
        Classification::Unsolvable => Status::Unsolvable,
        Classification::Invalid(_) => Status::Invalid,
        Classification::Undecided(_) => Status::Undecided,
    };
    let mismatch = match (&record.expected, status) {
        (None, _) | (_, Status::Invalid) => None,
        (Some(Ok(given)), _) => Some(!(given.is_valid_solution() && given.keeps_givens_of(grid))),
        (Some(Err(())), _) => Some(true),
    };
    // Every well-formed record has a class, clashing ones too (as `dedupe` keys them).
    let canonical = {
        let c = tools.canon.canonical(grid);
        match Key::packed(&c.form, b'0') {
            Key::Cells(packed) => Some((packed, c.automorphisms)),
            Key::Malformed(_) => None,
        }
    };
    let minimal =
        (minimality && status == Status::Unique).then(|| is_minimal(&mut *tools.engine, grid));
    let rating = match (&mut tools.rater, class) {
        (Some(rater), Classification::Unique(_)) => {
            let graded = Graded::of_grid(rater, grid);
            graded.se.map(|se| {
                let level = graded.level().unwrap_or(Level::of_rating(se.er));
                (se.er, level, !se.complete)
            })
        }
        _ => None,
    };
    Facts {
        status,
        guesses,
        canonical,
        givens,
        mismatch,
        rating,
        minimal,
    }
}

/// The counts, kept in input order.
struct AuditTally {
    report: AuditReport,
    grading: bool,
    /// Each class: its first record's text (hashed) and line, and its records (72
    /// bytes a class; no map of every distinct text beside it).
    classes: HashMap<[u8; 41], AuditClass>,
    /// The classes of more than one record: their first lines and their other texts.
    repeats: HashMap<[u8; 41], Repeats>,
    /// The records of no class (invalid, malformed): each distinct text's first line.
    unclassed: HashMap<Key, u64>,
    reasons: BTreeMap<String, (u64, Vec<u64>)>,
    givens: BTreeMap<u64, u64>,
    guesses: BTreeMap<u32, u64>,
    automorphisms: BTreeMap<u64, u64>,
    ratings: BTreeMap<u16, u64>,
    levels: [u64; 5],
}

struct AuditClass {
    /// A 64-bit hash of the first record's cells as read: records of one class are
    /// told identical by it (two different texts of one class share it with odds of
    /// 2^-64).
    text: u64,
    /// Its line.
    first: u64,
    records: u32,
}

/// What a class of more than one record holds beyond its first.
#[derive(Default)]
struct Repeats {
    /// Its first lines (up to a few), the first record's included.
    lines: Vec<u64>,
    /// Its other distinct texts (hashed), each with its first line.
    texts: Vec<(u64, u64)>,
}

impl AuditTally {
    fn new(grading: bool) -> AuditTally {
        AuditTally {
            report: AuditReport::default(),
            grading,
            classes: HashMap::new(),
            repeats: HashMap::new(),
            unclassed: HashMap::new(),
            reasons: BTreeMap::new(),
            givens: BTreeMap::new(),
            guesses: BTreeMap::new(),
            automorphisms: BTreeMap::new(),
            ratings: BTreeMap::new(),
            levels: [0; 5],
        }
    }

    fn add(&mut self, record: Pending, facts: Option<Facts>) {
        let v = &mut self.report.validity;
        v.records += 1;
        v.with_solution += u64::from(record.expected.is_some());
        let line = record.line;
        let status = facts.map_or(Status::Invalid, |f| f.status);
        *v.counts.get_mut(status) += 1;
        if status != Status::Unique {
            let first = v.first_lines.entry(status.word().to_string()).or_default();
            if first.len() < FIRST_LINES {
                first.push(line);
            }
        }
        if status == Status::Invalid {
            let reason = match &record.puzzle {
                Err(e) => Reason::Record(*e).describe(None).to_string(),
                Ok(grid) => grid.find_clash().map_or_else(
                    || "invalid".to_string(),
                    |c: Clash| Reason::Clash(c).describe(None).to_string(),
                ),
            };
            let group = self.reasons.entry(without_numbers(&reason)).or_default();
            group.0 += 1;
            if group.1.len() < FIRST_LINES {
                group.1.push(line);
            }
        }
        let class = facts.as_ref().and_then(|f| f.canonical);
        let identical = match (class, &record.text_key) {
            (Some((key, _)), Key::Cells(text)) => self.class_record(key, text, line),
            _ => match self.unclassed.get(&record.text_key) {
                Some(&first) => Some(first),
                None => {
                    self.unclassed.insert(record.text_key, line);
                    None
                }
            },
        };
        if let Some(first) = identical {
            let d = &mut self.report.duplicates;
            d.identical += 1;
            if d.first_identical.len() < FIRST_LINES {
                d.first_identical.push((line, first));
            }
        }
        let Some(facts) = facts else {
            return;
        };
        let v = &mut self.report.validity;
        if facts.mismatch == Some(true) {
            v.mismatches += 1;
            if v.first_mismatches.len() < FIRST_LINES {
                v.first_mismatches.push(line);
            }
        }
        *self.givens.entry(u64::from(facts.givens)).or_default() += 1;
        if facts.status != Status::Invalid {
            *self.guesses.entry(facts.guesses).or_default() += 1;
        }
        if let Some((_, automorphisms)) = facts.canonical {
            *self.automorphisms.entry(automorphisms).or_default() += 1;
        }
        if let (Some(m), Some(minimal)) = (&mut self.report.shape.minimality, facts.minimal) {
            m.checked += 1;
            match minimal {
                Some(true) => m.minimal += 1,
                Some(false) if m.first_not_minimal.len() < FIRST_LINES => {
                    m.first_not_minimal.push(line)
                }
                Some(false) => {}
                None => m.undecided += 1,
            }
        }
        if let Some((er, level, lower)) = facts.rating {
            *self.ratings.entry(er).or_default() += 1;
            self.levels[level as usize] += 1;
            self.report.shape.lower_bounds += u64::from(lower);
        }
    }

    /// Counts a record of class `key` whose cells as read are `text`, on `line`;
    /// answers the line of an earlier record of the same text, if there is one (the
    /// same text is the same class, so only the class's texts are compared).
    fn class_record(&mut self, key: [u8; 41], text: &[u8; 41], line: u64) -> Option<u64> {
        use std::collections::hash_map::Entry;
        let text = Key::Cells(*text).rank(0);
        let class = match self.classes.entry(key) {
            Entry::Vacant(place) => {
                place.insert(AuditClass {
                    text,
                    first: line,
                    records: 1,
                });
                return None;
            }
            Entry::Occupied(class) => class.into_mut(),
        };
        class.records = class.records.saturating_add(1);
        let repeats = self.repeats.entry(key).or_insert_with(|| Repeats {
            lines: vec![class.first],
            texts: Vec::new(),
        });
        if repeats.lines.len() < FIRST_LINES {
            repeats.lines.push(line);
        }
        if class.text == text {
            return Some(class.first);
        }
        match repeats.texts.iter().find(|(t, _)| *t == text) {
            Some(&(_, first)) => Some(first),
            None => {
                repeats.texts.push((text, line));
                None
            }
        }
    }

    /// How many of this file's classes `windows` hold, with the first lines on both
    /// sides, and its records; `base` (the bytes read before, for the progress bar)
    /// moves past its bytes.
    fn leak(
        &self,
        name: &str,
        windows: &mut dyn Windowed,
        base: &mut u64,
        progress: &Progress,
    ) -> Result<(Leak, u64), WindowsError> {
        let mut found: HashMap<[u8; 41], u64> = HashMap::new();
        let layout = windows.layout().clone();
        *base += windows.head().len() as u64;
        let mut records = 0u64;
        windows.each_window(&mut |window| {
            let shown = progress.from(*base);
            for_each_keyed_window(window, &layout, KeyBy::Canonical, &shown, |k| {
                records += 1;
                if let (Some(_), Key::Cells(cells)) = (k.puzzle, k.key) {
                    if self.classes.contains_key(cells) {
                        found.entry(*cells).or_insert(k.line);
                    }
                }
            });
            *base += window.bytes.len() as u64;
            Ok(())
        })?;
        let mut first: Vec<(u64, u64)> = found
            .iter()
            .map(|(key, &there)| (self.classes[key].first, there))
            .collect();
        first.sort_unstable();
        first.truncate(FIRST_LINES);
        let leak = Leak {
            against: name.to_string(),
            records: found
                .keys()
                .map(|k| u64::from(self.classes[k].records))
                .sum(),
            classes: found.len() as u64,
            first,
        };
        Ok((leak, records))
    }

    fn report(&mut self) -> AuditReport {
        let mut report = std::mem::take(&mut self.report);
        report.validity.invalid_reasons = self
            .reasons
            .iter()
            .map(|(what, (count, lines))| Group {
                what: what.clone(),
                count: *count,
                lines: lines.clone(),
            })
            .collect();
        report
            .validity
            .invalid_reasons
            .sort_by_key(|g| std::cmp::Reverse(g.count));
        let d = &mut report.duplicates;
        // A malformed record is a class of its own text, as `dedupe` keys it.
        let malformed_texts = self
            .unclassed
            .keys()
            .filter(|k| matches!(k, Key::Malformed(_)))
            .count() as u64;
        d.classes = self.classes.len() as u64 + malformed_texts;
        d.redundant = report.validity.records - d.classes;
        d.redundant_percent = if report.validity.records > 0 {
            100.0 * d.redundant as f64 / report.validity.records as f64
        } else {
            0.0
        };
        let mut largest: Vec<(&AuditClass, &Repeats)> = self
            .repeats
            .iter()
            .map(|(key, repeats)| (&self.classes[key], repeats))
            .collect();
        largest.sort_by(|(a, _), (b, _)| b.records.cmp(&a.records).then(a.first.cmp(&b.first)));
        d.largest = largest
            .iter()
            .take(FIRST_LINES)
            .map(|(c, r)| Group {
                what: format!("line {}", c.first),
                count: u64::from(c.records),
                lines: r.lines.clone(),
            })
            .collect();
        let s = &mut report.shape;
        s.givens = filled(&self.givens);
        s.guesses = guess_buckets(&self.guesses);
        s.automorphisms = self.automorphisms.iter().map(|(&a, &n)| (a, n)).collect();
        if self.grading {
            let tenths: BTreeMap<u64, u64> = self
                .ratings
                .iter()
                .map(|(&t, &n)| (u64::from(t), n))
                .collect();
            s.ratings = Some(
                filled(&tenths)
                    .into_iter()
                    .map(|(t, n)| (t as u16, n))
                    .collect(),
            );
            s.levels = Some(
                Level::ALL
                    .iter()
                    .map(|l| (l.name().to_string(), self.levels[*l as usize]))
                    .collect(),
            );
        }
        report
    }
}

/// Every value from the least to the greatest present, with its count (0 where none),
/// so that a chart's x axis is linear.
fn filled(counts: &BTreeMap<u64, u64>) -> Vec<(u64, u64)> {
    match (counts.keys().next(), counts.keys().next_back()) {
        (Some(&low), Some(&high)) => (low..=high)
            .map(|v| (v, counts.get(&v).copied().unwrap_or(0)))
            .collect(),
        _ => Vec::new(),
    }
}

/// Branches in power-of-two buckets: `0`, `1`, `2-3`, `4-7`, ...
fn guess_buckets(guesses: &BTreeMap<u32, u64>) -> Vec<(String, u64)> {
    let mut buckets: BTreeMap<u32, u64> = BTreeMap::new();
    for (&g, &n) in guesses {
        let bucket = if g == 0 { 0 } else { 32 - g.leading_zeros() };
        *buckets.entry(bucket).or_default() += n;
    }
    let last = buckets.keys().next_back().copied().unwrap_or(0);
    (0..=last)
        .map(|b| {
            let label = match b {
                0 => "0".to_string(),
                1 => "1".to_string(),
                b => format!("{}-{}", 1u64 << (b - 1), (1u64 << b) - 1),
            };
            (label, buckets.get(&b).copied().unwrap_or(0))
        })
        .collect()
}

/// A reason with its numbers as `#`, so that reasons of one kind group together.
fn without_numbers(reason: &str) -> String {
    let mut out = String::with_capacity(reason.len());
    let mut in_number = false;
    for c in reason.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('#');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_and_reasons() {
        let g: BTreeMap<u32, u64> = [(0, 5), (1, 2), (3, 1), (9, 4)].into_iter().collect();
        let b = guess_buckets(&g);
        assert_eq!(b[0], ("0".to_string(), 5));
        assert_eq!(b[1], ("1".to_string(), 2));
        assert_eq!(b[2], ("2-3".to_string(), 1));
        assert_eq!(b[4], ("8-15".to_string(), 4));
        assert_eq!(b.len(), 5);
        assert_eq!(
            without_numbers("too short: 80 cells, need 81"),
            "too short: # cells, need #"
        );
    }
}
