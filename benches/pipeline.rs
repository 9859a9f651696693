//! End-to-end `classify` over a mapped file (parse, solve, histogram, format, ordered
//! write to /dev/null) at 1 and 2 threads.

use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use sudoku_batch::jobs::Classify;
use sudoku_batch::pipeline::input::open_file;
use sudoku_batch::pipeline::output::Output;
use sudoku_batch::pipeline::{run_file, RunOptions};

mod common;

fn pipeline(c: &mut Criterion) {
    for (public, bundled) in [
        ("royle-17-clue.txt", "minimal.txt"),
        ("kaggle-1m-first10k.csv", "quizzes.csv"),
    ] {
        let (name, path) = common::set(public, bundled);
        let input = open_file(&path, false).unwrap();
        let mut group = c.benchmark_group(format!("classify-pipeline/{name}"));
        let records = {
            let mut out = Output::open(Some(Path::new("/dev/null"))).unwrap();
            let options = options(1);
            run_file(&Classify::new(), &path, &input, &options, &mut out)
                .unwrap()
                .0
                .records
        };
        group.throughput(Throughput::Elements(records));
        group.sample_size(10);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(4));
        for threads in [1, 2] {
            group.bench_function(
                BenchmarkId::from_parameter(format!("{threads}-threads")),
                |b| {
                    b.iter(|| {
                        let mut out = Output::open(Some(Path::new("/dev/null"))).unwrap();
                        run_file(&Classify::new(), &path, &input, &options(threads), &mut out)
                            .unwrap()
                            .0
                            .records
                    })
                },
            );
        }
        group.finish();
    }
}

fn options(threads: usize) -> RunOptions {
    RunOptions::new(threads)
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
