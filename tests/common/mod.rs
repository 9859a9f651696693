//! Helpers shared by the integration tests: loading the bundled datasets (made by this
//! tool, `data/README.md`) and the public ones beside the checkout (`../shared/data`, read
//! where present and skipped with a note where not), and an independent, deliberately
//! simple reference solution counter.
#![allow(dead_code)]

use std::path::PathBuf;

use sudoku_batch::pipeline::input::{
    detect_layout, for_each_record, ColumnChoice, Format, Record, RecordScratch,
};
use sudoku_batch::Grid;

#[path = "reference.rs"]
mod reference;

/// The bundled one-puzzle-per-line and CSV datasets, all of whose records are unique.
pub const UNIQUE_DATASETS: &[&str] = &[
    "minimal.txt",
    "hard.txt",
    "quizzes.csv",
    "graded.csv",
    "hash-rating.txt",
    "pairs-easy.txt",
    "pairs-hard.txt",
    "easy-50.txt",
    "extreme.txt",
    "sample-10k.csv",
];

/// The public datasets of `../shared/data` whose records are all unique, with their
/// record counts (see that folder's README).
pub const PUBLIC_UNIQUE_DATASETS: &[(&str, usize)] = &[
    ("royle-17-clue.txt", 49_158),
    ("magictour-top1465.txt", 1_465),
    ("kaggle-1m-first10k.csv", 10_000),
    ("kaggle-3m-curated5000.csv", 5_000),
    ("sudoku-exchange-diabolical.txt", 39_719),
    ("sudoku-exchange-easy-with-solutions.txt", 500),
    ("sudoku-exchange-hard-with-solutions.txt", 500),
    ("norvig-easy50.txt", 50),
    ("norvig-top95.txt", 95),
    ("forum-hardest-1106.txt", 375),
];

/// The folder of public datasets: `SUDOKU_BATCH_SHARED_DATA`, else `../shared/data` beside
/// the checkout.
pub fn shared_data() -> PathBuf {
    match std::env::var_os("SUDOKU_BATCH_SHARED_DATA") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data"),
    }
}

/// Path of a public dataset (`../shared/data/NAME`), or `None` where it is absent (a
/// fresh clone): then `skipped` says so for the calling test.
#[track_caller]
pub fn public(name: &str) -> Option<PathBuf> {
    let path = shared_data().join(name);
    if path.is_file() {
        return Some(path);
    }
    let at = std::panic::Location::caller();
    let test = std::thread::current().name().unwrap_or("?").to_string();
    skipped(&format!(
        "{test} ({}:{}): needs the public file {name} (not shipped; read from ../shared/data)",
        at.file(),
        at.line(),
    ));
    None
}

/// Notes a test, or part of one, that did not run: on stderr, and as a line of the file
/// `SUDOKU_BATCH_SKIP_LOG` names (`scripts/test.sh` counts them).
pub fn skipped(what: &str) {
    eprintln!("skipped: {what}");
    if let Some(log) = std::env::var_os("SUDOKU_BATCH_SKIP_LOG") {
        use std::io::Write;
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(log)
        {
            let _ = writeln!(f, "{what}");
        }
    }
}

/// The unique datasets to test on: every bundled one, then each public one that is
/// present (the absent ones noted as skipped).
#[track_caller]
pub fn unique_datasets() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = UNIQUE_DATASETS.iter().map(|n| data(n)).collect();
    out.extend(PUBLIC_UNIQUE_DATASETS.iter().filter_map(|(n, _)| public(n)));
    out
}

/// Runs the `sudoku-batch` binary with `args`, asserts that it succeeded (showing its
/// stderr otherwise) and returns its stdout.
pub fn stdout_of(args: &[&str]) -> Vec<u8> {
    succeeded(args).stdout
}

/// Runs the `sudoku-batch` binary with `args`, asserts that it succeeded (showing its
/// stderr otherwise) and returns what it wrote.
pub fn succeeded(args: &[&str]) -> std::process::Output {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Runs the `sudoku-batch` binary with `args`, feeding `stdin` (from another thread,
/// while stdout is drained, so that neither pipe fills up) or nothing; returns what it
/// wrote and how it ended.
pub fn run_piped(args: &[&str], stdin: Option<&[u8]>) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sudoku-batch"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let feeder = stdin.map(|bytes| {
        let mut pipe = child.stdin.take().unwrap();
        let bytes = bytes.to_vec();
        // A child that exits early (an error) closes the pipe: not a failure here.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&bytes);
        })
    });
    let out = child.wait_with_output().unwrap();
    if let Some(f) = feeder {
        f.join().unwrap();
    }
    out
}

/// Path of a bundled dataset.
pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

/// One record of a dataset.
pub struct Loaded {
    pub line: u64,
    pub puzzle: Grid,
    pub expected: Option<Grid>,
}

/// Calls `each` for every record of `bytes`, found by the library's record finder.
pub fn each_record(
    bytes: &[u8],
    format: Option<Format>,
    column: &ColumnChoice,
    each: impl FnMut(Record<'_>),
) {
    let layout = detect_layout(bytes, format, column).unwrap();
    let mut scratch = RecordScratch::default();
    for_each_record(
        &bytes[layout.data_start..],
        layout.first_line,
        &layout,
        &mut scratch,
        each,
    );
}

/// Every record of a bundled dataset, parsed with the library's record finder.
/// Panics on a malformed record: the bundled files hold none.
pub fn load(name: &str) -> Vec<Loaded> {
    load_path(&data(name))
}

/// Every record of the dataset at `path`, as [`load`].
pub fn load_path(path: &std::path::Path) -> Vec<Loaded> {
    let name = path.display();
    let bytes = std::fs::read(path).unwrap();
    let mut out = Vec::new();
    each_record(&bytes, None, &ColumnChoice::Auto, |r| {
        let puzzle = r
            .puzzle
            .unwrap_or_else(|e| panic!("{name}:{}: {e:?}", r.line));
        out.push(Loaded {
            line: r.line,
            puzzle,
            expected: r.expected.map(|e| e.unwrap()),
        })
    });
    out
}

/// The bytes of a version 1.0 `.npy` file of dtype `descr` and `shape` (Python's
/// spelling, `(n, 81)`) holding `data`.
pub fn npy(descr: &str, shape: &str, data: &[u8]) -> Vec<u8> {
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

#[allow(unused_imports)]
pub use reference::{board_values, reference_count, reference_count_board, reference_units};

/// The bundled 25x25 boards with their first 20 givens (in cell order) removed: well
/// formed, most with many solutions, and far too much search for any engine to settle
/// in a second (the boards that made one record stall a batch).
pub fn hard_boards() -> Vec<String> {
    let text = std::fs::read_to_string(data("variants/solo-25x25.txt")).unwrap();
    text.lines()
        .map(|line| {
            let mut removed = 0;
            line.chars()
                .map(|c| {
                    if c != '.' && removed < 20 {
                        removed += 1;
                        '.'
                    } else {
                        c
                    }
                })
                .collect()
        })
        .collect()
}
