//! The fuzz targets' checks (`fuzz/checks.rs`) run on their seeds and on mutations of
//! them (bytes flipped, inserted, cut, repeated, seeds spliced; a fixed random sequence)
//! for a bounded time each, so that every test run fuzzes every reader and the CSV field
//! writer a little without `cargo fuzz`; a guided run is in `docs/architecture.md`.
//! `SUDOKU_BATCH_FUZZ_SECONDS` sets the time per target (default 4).

#[path = "../fuzz/checks.rs"]
#[allow(dead_code)]
mod checks;

use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A small fixed random sequence (xorshift64*).
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Bytes the readers and writers treat specially.
const SPECIAL: &[u8] = b",\"\n\r\t#. 0123456789\xff\xfe\x00";

/// `input` changed once or a few times, sometimes spliced with `other`.
fn mutate(input: &[u8], other: &[u8], random: &mut Random) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..1 + random.below(4) {
        let at = random.below(out.len() + 1);
        match random.below(7) {
            0 if !out.is_empty() => {
                let i = at.min(out.len() - 1);
                out[i] ^= 1 << random.below(8);
            }
            1 => out.insert(at, SPECIAL[random.below(SPECIAL.len())]),
            2 => out.insert(at, random.next() as u8),
            3 => {
                let end = (at + random.below(64)).min(out.len());
                out.drain(at..end);
            }
            4 => {
                let end = (at + random.below(64)).min(out.len());
                let copy = out[at..end].to_vec();
                out.splice(at..at, copy);
            }
            5 => out.truncate(at),
            _ => {
                let from = random.below(other.len() + 1);
                let end = (from + random.below(256)).min(other.len());
                out.splice(at..at, other[from..end].iter().copied());
            }
        }
    }
    out
}

/// Runs `check` on the seeds of `target` and then on mutations until the time is up.
fn fuzz(target: &str, check: fn(&[u8])) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(target);
    let mut seeds: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    seeds.sort();
    assert!(!seeds.is_empty(), "no seeds for {target}");
    for seed in &seeds {
        check(seed);
    }
    let seconds = std::env::var("SUDOKU_BATCH_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4.0);
    let until = Instant::now() + Duration::from_secs_f64(seconds);
    let mut random = Random(0x9e37_79b9_7f4a_7c15 ^ target.len() as u64);
    let mut runs = 0u64;
    while Instant::now() < until {
        let seed = &seeds[random.below(seeds.len())];
        let other = &seeds[random.below(seeds.len())];
        let input = mutate(seed, other, &mut random);
        let outcome = std::panic::catch_unwind(|| check(&input));
        if outcome.is_err() {
            let path = std::env::temp_dir().join(format!("sudoku-batch-fuzz-{target}.crash"));
            std::fs::write(&path, &input).unwrap();
            panic!(
                "{target}: a mutated input broke the check; it is in {}",
                path.display()
            );
        }
        runs += 1;
    }
    eprintln!("{target}: {} seeds, {runs} mutations", seeds.len());
}

#[test]
fn parse_records() {
    fuzz("parse_records", checks::parse_records);
}

#[test]
fn classify() {
    fuzz("classify", checks::classify);
}

#[test]
fn csv_chunks() {
    fuzz("csv_chunks", checks::csv_chunks);
}

#[test]
fn decode_inputs() {
    fuzz("decode_inputs", checks::decode_inputs);
}

#[test]
fn csv_fields() {
    fuzz("csv_fields", checks::csv_fields);
}
