//! Minimal puzzles per second on one thread: ours (dig with batched uniqueness checks)
//! against the `sudoku` crate's generator (a random minimal unique puzzle), with no
//! symmetry and with the half-turn symmetry its `Sudoku::generate()` uses.
//!
//! `cargo bench --bench generate`; `scripts/peers.sh` prints the ratio.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sudoku_batch::engines::generate::{make, record_rng, Orbits, Pattern, Spec, Target};
use sudoku_batch::values::geometry::Variant;
use sudoku_batch::{Bitboards, Engine};

const BATCH: u64 = 200;

fn generators(c: &mut Criterion) {
    for (name, pattern, theirs) in [
        ("none", Pattern::None, sudoku::Symmetry::None),
        ("rot180", Pattern::Rot180, sudoku::Symmetry::HalfRotation),
    ] {
        let mut group = c.benchmark_group(format!("generate/minimal-{name}"));
        group.throughput(Throughput::Elements(BATCH));
        group.sample_size(10);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(5));
        let spec = Spec {
            pattern,
            target: Target::Minimal,
        };
        let orbits = Orbits::new(spec.pattern);
        let mut solver = Bitboards::new(Variant::Classic);
        let mut next = 0u64;
        group.bench_function(BenchmarkId::from_parameter("sudoku-batch"), |b| {
            b.iter(|| {
                let mut givens = 0;
                for _ in 0..BATCH {
                    next += 1;
                    let made = make(
                        &mut *solver,
                        &spec,
                        &orbits,
                        &mut record_rng(1, next),
                        u64::MAX,
                    )
                    .expect("a reachable target");
                    givens += made.puzzle.given_count();
                }
                givens
            })
        });
        group.bench_function(BenchmarkId::from_parameter("sudoku-crate"), |b| {
            b.iter(|| {
                let mut givens = 0;
                for _ in 0..BATCH {
                    givens += sudoku::Sudoku::generate_with_symmetry(theirs).n_clues() as usize;
                }
                givens
            })
        });
        group.finish();
    }
}

criterion_group!(benches, generators);
criterion_main!(benches);
