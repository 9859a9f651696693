//! The Python binding: converts Python and NumPy inputs at the edge, releases the GIL
//! around the work, and runs the library's jobs (`batch::run_puzzles`, the file
//! pipeline). No solving logic lives here.

// PyO3 0.22's #[pyfunction] expansion converts the returned error into PyErr, which
// clippy reports on the generated code as a conversion to the same type.
#![allow(clippy::useless_conversion)]

use std::path::Path;

use numpy::{PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use rayon::prelude::*;
use sudoku_batch::batch::{run_puzzles_in, RecordResult};
use sudoku_batch::classes::{first_of_each_class, KeyBy};
use sudoku_batch::engine::{Engine, Fast};
use sudoku_batch::generate::{Pattern, Spec, Target, MIN_GIVENS};
use sudoku_batch::grader::Levels;
use sudoku_batch::input::{open_file, Choice, ColumnChoice};
use sudoku_batch::jobs::{Canon, Classify, Generate, Grade, Job, MadeRecord, Solve};
use sudoku_batch::output::Output;
use sudoku_batch::pipeline::BoardSetup;
use sudoku_batch::pipeline::{run_file, RunOptions};
use sudoku_batch::puzzle::Solution;
use sudoku_batch::report::Status;
use sudoku_batch::variant::{BoardRules, Variant, MAX_CELLS};

/// Records run between two checks for Ctrl-C.
const SLICE: usize = 1 << 16;

/// Most worker threads, as the command line's `--threads` takes.
const MAX_THREADS: usize = 1024;

/// `threads` checked as the command line checks `--threads` (1 to 1024; all cores by
/// default).
fn thread_count(threads: Option<usize>) -> PyResult<usize> {
    let threads =
        threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(PyValueError::new_err(format!(
            "threads must be 1 to {MAX_THREADS}, not {threads}"
        )));
    }
    Ok(threads)
}

/// A rayon pool of `threads` workers (all cores by default), started without the GIL.
fn pool(py: Python<'_>, threads: Option<usize>) -> PyResult<rayon::ThreadPool> {
    let threads = thread_count(threads)?;
    py.allow_threads(|| rayon::ThreadPoolBuilder::new().num_threads(threads).build())
        .map_err(|e| PyOSError::new_err(format!("cannot start {threads} threads: {e}")))
}

/// What the native functions return: a status code per puzzle (an index into
/// `STATUS_WORDS`), the solutions as `width` bytes each (81 unless a variant board is
/// larger; NUL-padded, all NUL when there is none), `width`, and the reasons of the
/// invalid ones as (index, text) pairs. Flat buffers, so that NumPy wraps them without a
/// Python object per puzzle.
type Results = (Py<PyBytes>, Py<PyBytes>, usize, Vec<(usize, String)>);

/// `canon`'s own results: the canonical forms, 81 ASCII digits each (81 spaces for a
/// malformed puzzle, which has none), and the automorphism counts (0 for malformed
/// puzzles).
type Forms = Option<(Py<PyBytes>, Vec<u64>)>;

/// Status words by code, as the Python side maps them.
const STATUS_WORDS: [&str; 6] = [
    "unique",
    "multiple",
    "solved",
    "unsolvable",
    "invalid",
    "undecided",
];

fn status_code(status: Status) -> u8 {
    STATUS_WORDS
        .iter()
        .position(|w| *w == status.word())
        .unwrap_or(4) as u8
}

/// How records are read: variant boards by `size`, `variant` and `symbols` as on the
/// command line (records of 16, 256 or 625 cells are boards without them).
fn board_setup(
    size: Option<usize>,
    variant: Option<&str>,
    symbols: Option<&str>,
) -> PyResult<BoardSetup> {
    BoardRules::parse(size, variant, symbols)
        .map(BoardSetup::new)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Runs `job` on `puzzles` slice by slice, the GIL released during each slice and
/// signals checked between them.
fn run<J: Job, P: AsRef<[u8]> + Sync>(
    py: Python<'_>,
    job: &J,
    puzzles: &[P],
    threads: Option<usize>,
    boards: &BoardSetup,
) -> PyResult<Vec<RecordResult<J::Extra>>> {
    let pool = pool(py, threads)?;
    let mut all: Vec<RecordResult<J::Extra>> = Vec::with_capacity(puzzles.len());
    for slice in puzzles.chunks(SLICE) {
        all.extend(py.allow_threads(|| pool.install(|| run_puzzles_in(job, slice, boards))));
        if py.check_signals().is_err() {
            return Err(PyKeyboardInterrupt::new_err("interrupted"));
        }
    }
    Ok(all)
}

/// Flat buffers of statuses and solutions (boards written in `boards`' symbols), and
/// the reasons of invalid records.
fn collect<E>(
    py: Python<'_>,
    results: &[RecordResult<E>],
    boards: &BoardSetup,
) -> PyResult<Results> {
    let n = results.len();
    let width = results
        .iter()
        .filter_map(|r| r.solution.as_ref().and_then(Solution::board))
        .map(|b| b.side() * b.side())
        .fold(81, usize::max);
    let mut statuses = Vec::with_capacity(n);
    let mut solutions = vec![0u8; n * width];
    let mut reasons = Vec::new();
    let mut text = [0u8; MAX_CELLS];
    for (i, r) in results.iter().enumerate() {
        statuses.push(status_code(r.status));
        let slot = &mut solutions[i * width..(i + 1) * width];
        match &r.solution {
            Some(Solution::Grid(s)) => {
                let mut line = [0u8; 81];
                s.write_line(&mut line);
                slot[..81].copy_from_slice(&line);
            }
            Some(Solution::Board(b)) => {
                let written = b.write(boards.symbols(b.side()), &mut text);
                slot[..written.len()].copy_from_slice(written);
            }
            None => {}
        }
        if let Some(reason) = r.reason {
            reasons.push((i, reason.to_string()));
        }
    }
    Ok((
        PyBytes::new_bound(py, &statuses).unbind(),
        PyBytes::new_bound(py, &solutions).unbind(),
        width,
        reasons,
    ))
}

fn by_name<P: AsRef<[u8]> + Sync>(
    py: Python<'_>,
    job: &str,
    puzzles: &[P],
    threads: Option<usize>,
    boards: &BoardSetup,
) -> PyResult<(Results, Forms)> {
    match job {
        "solve" => Ok((
            collect(
                py,
                &run(py, &Solve::new(), puzzles, threads, boards)?,
                boards,
            )?,
            None,
        )),
        "classify" => Ok((
            collect(
                py,
                &run(py, &Classify::new(), puzzles, threads, boards)?,
                boards,
            )?,
            None,
        )),
        "canon" => {
            let results = run(py, &Canon::new(), puzzles, threads, boards)?;
            let mut forms = vec![b' '; results.len() * 81];
            let mut automorphisms = Vec::with_capacity(results.len());
            for (i, r) in results.iter().enumerate() {
                let canonical = r.extra.canonical;
                if let Some(c) = &canonical {
                    forms[i * 81..i * 81 + 81].copy_from_slice(&c.form);
                }
                automorphisms.push(canonical.map_or(0, |c| c.automorphisms));
            }
            let forms = PyBytes::new_bound(py, &forms).unbind();
            Ok((collect(py, &results, boards)?, Some((forms, automorphisms))))
        }
        other => Err(PyValueError::new_err(format!("unknown job {other:?}"))),
    }
}

/// Puzzle texts (str or bytes) through `job` ("solve", "classify" or "canon"), variant
/// boards read by `size`, `variant` and `symbols`.
#[pyfunction]
#[pyo3(signature = (job, puzzles, threads=None, size=None, variant=None, symbols=None))]
fn run_texts(
    py: Python<'_>,
    job: &str,
    puzzles: &Bound<'_, PyList>,
    threads: Option<usize>,
    size: Option<usize>,
    variant: Option<&str>,
    symbols: Option<&str>,
) -> PyResult<(Results, Forms)> {
    let boards = board_setup(size, variant, symbols)?;
    let texts = texts_of(puzzles)?;
    by_name(py, job, &texts, threads, &boards)
}

/// The items of a list of str or bytes, as bytes.
fn texts_of(puzzles: &Bound<'_, PyList>) -> PyResult<Vec<Vec<u8>>> {
    let mut texts: Vec<Vec<u8>> = Vec::with_capacity(puzzles.len());
    for (i, item) in puzzles.iter().enumerate() {
        if let Ok(s) = item.extract::<String>() {
            texts.push(s.into_bytes());
        } else if let Ok(b) = item.extract::<Vec<u8>>() {
            texts.push(b);
        } else {
            let kind = item.get_type().name()?.to_string();
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "puzzle {i} is a {kind}, not str or bytes"
            )));
        }
    }
    Ok(texts)
}

/// The text of an (n, 81) uint8 array, 81 bytes a puzzle: the bytes themselves when
/// `ascii` (a NumPy `S81` array viewed as bytes, read in place when contiguous), else
/// cell values 0..=9 (0 empty) written as digits and `.`.
fn cell_text<'a>(
    cells: &'a PyReadonlyArray2<'_, u8>,
    ascii: bool,
) -> PyResult<std::borrow::Cow<'a, [u8]>> {
    let shape = cells.shape();
    if shape[1] != 81 {
        return Err(PyValueError::new_err(format!(
            "expected 81 cells per puzzle, got shape ({}, {})",
            shape[0], shape[1]
        )));
    }
    let bytes: std::borrow::Cow<'a, [u8]> = match cells.as_slice() {
        Ok(slice) => slice.into(),
        Err(_) => cells.as_array().iter().copied().collect::<Vec<u8>>().into(),
    };
    if ascii {
        return Ok(bytes);
    }
    if let Some(bad) = bytes.iter().position(|&v| v > 9) {
        return Err(PyValueError::new_err(format!(
            "cell values must be 0..=9; puzzle {} cell {} is {}",
            bad / 81,
            bad % 81,
            bytes[bad]
        )));
    }
    Ok(bytes
        .iter()
        .map(|&v| if v == 0 { b'.' } else { b'0' + v })
        .collect::<Vec<u8>>()
        .into())
}

/// An (n, 81) uint8 array through `job` (see [`cell_text`] for `ascii`).
#[pyfunction]
#[pyo3(signature = (job, cells, ascii, threads=None))]
fn run_cells(
    py: Python<'_>,
    job: &str,
    cells: PyReadonlyArray2<'_, u8>,
    ascii: bool,
    threads: Option<usize>,
) -> PyResult<(Results, Forms)> {
    let text = cell_text(&cells, ascii)?;
    let rows: Vec<&[u8]> = text.chunks_exact(81).collect();
    by_name(py, job, &rows, threads, &BoardSetup::default())
}

/// The index of the first puzzle of each class, `by` "canonical" or "text".
fn firsts<P: AsRef<[u8]> + Sync>(
    py: Python<'_>,
    puzzles: &[P],
    by: &str,
    threads: Option<usize>,
) -> PyResult<Vec<usize>> {
    let by = match by {
        "canonical" => KeyBy::Canonical,
        "text" => KeyBy::Text,
        other => {
            return Err(PyValueError::new_err(format!(
                "by {other:?}: use \"canonical\" or \"text\""
            )))
        }
    };
    let pool = pool(py, threads)?;
    Ok(py.allow_threads(|| pool.install(|| first_of_each_class(puzzles, by))))
}

/// The index of the first of each class among puzzle texts.
#[pyfunction]
#[pyo3(signature = (puzzles, by, threads=None))]
fn dedupe_texts(
    py: Python<'_>,
    puzzles: &Bound<'_, PyList>,
    by: &str,
    threads: Option<usize>,
) -> PyResult<Vec<usize>> {
    let texts = texts_of(puzzles)?;
    firsts(py, &texts, by, threads)
}

/// The index of the first of each class among the puzzles of an (n, 81) array.
#[pyfunction]
#[pyo3(signature = (cells, ascii, by, threads=None))]
fn dedupe_cells(
    py: Python<'_>,
    cells: PyReadonlyArray2<'_, u8>,
    ascii: bool,
    by: &str,
    threads: Option<usize>,
) -> PyResult<Vec<usize>> {
    let text = cell_text(&cells, ascii)?;
    let rows: Vec<&[u8]> = text.chunks_exact(81).collect();
    firsts(py, &rows, by, threads)
}

/// Grades puzzle texts: the classify results plus, per puzzle, a level code (index
/// into the grader's levels, 255 when not graded) and the rating in tenths.
#[pyfunction]
#[pyo3(signature = (puzzles, threads=None, size=None, variant=None, symbols=None))]
fn grade_texts(
    py: Python<'_>,
    puzzles: &Bound<'_, PyList>,
    threads: Option<usize>,
    size: Option<usize>,
    variant: Option<&str>,
    symbols: Option<&str>,
) -> PyResult<(Results, Py<PyBytes>, Vec<u16>)> {
    let boards = board_setup(size, variant, symbols)?;
    let puzzles = texts_of(puzzles)?;
    let results = run(py, &Grade::new(), &puzzles, threads, &boards)?;
    let mut levels = Vec::with_capacity(results.len());
    let mut ratings = Vec::with_capacity(results.len());
    for r in &results {
        levels.push(r.extra.grade.map_or(255, |g| g.level as u8));
        ratings.push(r.extra.grade.map_or(0, |g| g.rating));
    }
    let base = collect(py, &results, &boards)?;
    Ok((base, PyBytes::new_bound(py, &levels).unbind(), ratings))
}

/// Makes `count` puzzles (record i from the seed and i only, as the CLI's `generate`);
/// gives puzzles and solutions (81 bytes each), givens, level codes and ratings.
#[pyfunction]
#[pyo3(signature = (count, seed=1, givens=None, symmetry="none", difficulty=None, threads=None))]
#[allow(clippy::type_complexity)]
fn generate(
    py: Python<'_>,
    count: u64,
    seed: u64,
    givens: Option<u16>,
    symmetry: &str,
    difficulty: Option<&str>,
    threads: Option<usize>,
) -> PyResult<(Py<PyBytes>, Py<PyBytes>, Vec<u8>, Py<PyBytes>, Vec<u16>)> {
    let pattern = match symmetry {
        "none" => Pattern::None,
        "rot180" => Pattern::Rot180,
        "rot90" => Pattern::Rot90,
        "mirror" => Pattern::Mirror,
        "diagonal" => Pattern::Diagonal,
        other => {
            return Err(PyValueError::new_err(format!(
                "symmetry {other:?}: use none, rot180, rot90, mirror or diagonal"
            )))
        }
    };
    let target = match givens {
        None => Target::Minimal,
        Some(k) if (MIN_GIVENS..=81).contains(&k) => Target::Givens(k),
        Some(k) => {
            return Err(PyValueError::new_err(format!(
                "givens {k}: use {MIN_GIVENS} to 81 (fewer is practically out of reach)"
            )))
        }
    };
    let level = match difficulty {
        None => None,
        Some(name) => Some(Levels::parse(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "difficulty {name:?}: use easy, medium, hard, expert or extreme, or a \
                 comma-separated list of them"
            ))
        })?),
    };
    let maker = Generate::new(Spec { pattern, target }, seed, level, true);
    let pool = pool(py, threads)?;
    // Slices of records, the GIL released in each and signals checked between them, so
    // that Ctrl-C is heard while a hard target is searched for.
    let mut made = Vec::with_capacity(count.min(1 << 20) as usize);
    let slice = (4 * pool.current_num_threads()) as u64;
    let mut start = 0;
    while start < count {
        let end = (start + slice).min(count);
        let part = py.allow_threads(|| {
            pool.install(|| {
                (start..end)
                    .into_par_iter()
                    .map_init(
                        || Fast::new(Variant::Classic),
                        |engine, i| maker.record(&mut **engine, i),
                    )
                    .collect::<Result<Vec<_>, _>>()
            })
        });
        made.extend(part.map_err(|e| PyValueError::new_err(e.to_string()))?);
        if py.check_signals().is_err() {
            return Err(PyKeyboardInterrupt::new_err("interrupted"));
        }
        start = end;
    }
    let (mut puzzles, mut solutions) = (Vec::new(), Vec::new());
    let (mut given_counts, mut levels, mut ratings) = (Vec::new(), Vec::new(), Vec::new());
    for (record, extra) in &made {
        let MadeRecord::Grid(m) = record else {
            unreachable!("a classic 9x9 run makes grids")
        };
        let mut line = [0u8; 81];
        m.puzzle.write_line(&mut line);
        puzzles.extend_from_slice(&line);
        m.solution.write_line(&mut line);
        solutions.extend_from_slice(&line);
        // 9x9 grids: at most 81 givens.
        given_counts.push(extra.givens as u8);
        levels.push(extra.grade.map_or(255, |g| g.level as u8));
        ratings.push(extra.grade.map_or(0, |g| g.rating));
    }
    Ok((
        PyBytes::new_bound(py, &puzzles).unbind(),
        PyBytes::new_bound(py, &solutions).unbind(),
        given_counts,
        PyBytes::new_bound(py, &levels).unbind(),
        ratings,
    ))
}

/// Classifies a file through the mapped pipeline (variant boards by `size`, `variant`,
/// `symbols`, as the CLI's options); returns the JSON report text.
#[pyfunction]
#[pyo3(signature = (path, threads=None, output=None, size=None, variant=None, symbols=None, column=None, delimiter=None))]
#[allow(clippy::too_many_arguments)]
fn classify_file(
    py: Python<'_>,
    path: &str,
    threads: Option<usize>,
    output: Option<&str>,
    size: Option<usize>,
    variant: Option<&str>,
    symbols: Option<&str>,
    column: Option<&str>,
    delimiter: Option<&str>,
) -> PyResult<String> {
    let rules = BoardRules::parse(size, variant, symbols)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let column = match column {
        None => ColumnChoice::Auto,
        Some(text) => match text.parse::<usize>() {
            Ok(index) => ColumnChoice::Index(index),
            Err(_) => ColumnChoice::Name(text.to_string()),
        },
    };
    let delimiter = delimiter
        .map(sudoku_batch::input::parse_delimiter)
        .transpose()
        .map_err(|e| PyValueError::new_err(format!("delimiter {e}")))?;
    let threads = thread_count(threads)?;
    let path = Path::new(path).to_path_buf();
    let output = output.unwrap_or("/dev/null").to_string();
    py.allow_threads(move || {
        let input = open_file(&path, false).map_err(|e| PyOSError::new_err(e.to_string()))?;
        let mut out = Output::open(Some(Path::new(&output)))
            .map_err(|e| PyOSError::new_err(e.to_string()))?;
        let mut options = RunOptions::new(threads);
        options.input = Choice {
            format: None,
            column,
            delimiter,
        };
        options.boards = rules;
        let (mut report, _) = run_file(&Classify::new(), &path, &input, &options, &mut out)
            .map_err(|e| PyOSError::new_err(e.to_string()))?;
        out.finish()
            .map_err(|e| PyOSError::new_err(e.to_string()))?;
        report.input = path.display().to_string();
        serde_json::to_string(&report).map_err(|e| PyValueError::new_err(e.to_string()))
    })
}

/// The native part of the `sudoku_batch` package.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(run_texts, m)?)?;
    m.add_function(wrap_pyfunction!(run_cells, m)?)?;
    m.add_function(wrap_pyfunction!(classify_file, m)?)?;
    m.add_function(wrap_pyfunction!(grade_texts, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(dedupe_texts, m)?)?;
    m.add_function(wrap_pyfunction!(dedupe_cells, m)?)?;
    Ok(())
}
