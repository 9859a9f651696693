//! The Python binding: converts Python and NumPy inputs at the edge, releases the GIL
//! around the work, and runs the library's jobs (`batch::run_puzzles`, the file
//! pipeline). No solving logic lives here.

// PyO3 0.22's #[pyfunction] expansion converts the returned error into PyErr, which
// clippy reports on the generated code as a conversion to the same type.
#![allow(clippy::useless_conversion)]

mod slots;
mod texts;

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use numpy::{PyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyKeyboardInterrupt, PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use rayon::prelude::*;
use slots::{CanonColumns, Extras, Flat, GradeColumns, NoExtras, USES};
use sudoku_batch::datasets::audit::{audit, AuditOptions};
use sudoku_batch::datasets::classes::{first_of_each_class, KeyBy};
use sudoku_batch::engines::explainer::{HintKind, Rater, Rules, SLUGS};
use sudoku_batch::engines::generate::{Pattern, Spec, Target, MIN_GIVENS};
use sudoku_batch::engines::grader::{Levels, TECHNIQUE_NAMES};
use sudoku_batch::engines::Bitboards;
use sudoku_batch::jobs::{Canon, Classify, Generate, Grade, Job, MadeRecord, Maker, Solve};
use sudoku_batch::pipeline::batch::run_puzzles_into;
use sudoku_batch::pipeline::input::{
    detect_layout_as, for_each_record_of, open, Choice, Format, HowToOpen, Layout,
};
use sudoku_batch::pipeline::output::Output;
use sudoku_batch::pipeline::progress::Progress;
use sudoku_batch::pipeline::rows::Reason;
use sudoku_batch::pipeline::settings::{Asked, SettingsError};
use sudoku_batch::pipeline::{self, BoardSetup, Worker};
use sudoku_batch::reports::audit::{sha256_hex, utc_now, InputFacts, COMMIT};
use sudoku_batch::values::geometry::{Variant, MAX_CELLS};
use sudoku_batch::values::search::Budget;
use texts::Held;

/// Records run between two checks for Ctrl-C.
const SLICE: usize = 1 << 16;

/// `threads` checked by the library's one settings check, as the command line's
/// `--threads` is (1 to 1024; all cores by default).
fn thread_count(threads: Option<usize>) -> PyResult<usize> {
    let asked = Asked {
        threads,
        ..Asked::default()
    };
    asked.threads().map_err(value_error)
}

/// A refused setting as Python's `ValueError`.
fn value_error(e: SettingsError) -> PyErr {
    PyValueError::new_err(e.to_string())
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
/// invalid ones as (index, text) pairs. NumPy arrays over the buffers the workers wrote,
/// so that there is no Python object and no copy per puzzle.
type Results = (
    Py<PyArray1<u8>>,
    Py<PyArray1<u8>>,
    usize,
    Vec<(usize, String)>,
);

/// `canon`'s own results: the canonical forms, 81 ASCII digits each (NUL for a
/// malformed puzzle, which has none), and the automorphism counts (0 for malformed
/// puzzles).
type Forms = Option<(Py<PyArray1<u8>>, Py<PyArray1<u64>>)>;

/// How records are read: variant boards by `size`, `variant` and `symbols` as on the
/// command line (records of 16, 256 or 625 cells are boards without them).
fn board_setup(
    size: Option<usize>,
    variant: Option<&str>,
    symbols: Option<&str>,
) -> PyResult<BoardSetup> {
    let asked = Asked {
        size,
        variant,
        symbols,
        ..Asked::default()
    };
    asked.boards().map(BoardSetup::new).map_err(value_error)
}

/// The bytes a solution takes among `puzzles`: 81, or the cells of the largest variant
/// board (a board's text has one byte a cell).
fn width_of<P: AsRef<[u8]>>(puzzles: &[P], boards: &BoardSetup) -> usize {
    // Lengths first: a text of at most 81 bytes is not read at all.
    puzzles
        .iter()
        .map(AsRef::as_ref)
        .filter(|p| p.len() > 81)
        .map(<[u8]>::trim_ascii)
        .filter(|t| t.len() > 81 && t.len() <= MAX_CELLS && boards.takes_text(t))
        .map(<[u8]>::len)
        .fold(81, usize::max)
}

/// Runs `job` on `puzzles` slice by slice, the GIL released during each slice and
/// signals checked between them, the workers writing straight into flat columns (and
/// `extra`, the job's own).
fn run<J: Job, P: AsRef<[u8]> + Sync, X: Extras<J::Extra>>(
    py: Python<'_>,
    job: &J,
    puzzles: &[P],
    threads: Option<usize>,
    boards: &BoardSetup,
    extra: X,
) -> PyResult<Results> {
    let pool = pool(py, threads)?;
    let n = puzzles.len();
    let mut width = width_of(puzzles, boards);
    // One worker per pool thread, untimed: Python is given no latencies.
    let workers: Vec<_> = (0..pool.current_num_threads())
        .map(|_| Mutex::new(Worker::new(job, boards.variant(), Budget::DEFAULT).untimed()))
        .collect();
    let mut statuses = vec![0u8; n];
    let mut solutions = vec![0u8; n * width];
    let mut slice_reasons: Vec<Option<Reason>> = vec![None; n.min(SLICE)];
    let mut reasons = Vec::new();
    let widest = AtomicUsize::new(0);
    let cancel = AtomicBool::new(false);
    let (mut status_rest, mut solution_rest) = (&mut statuses[..], &mut solutions[..]);
    let mut extra_rest = extra;
    for (k, slice) in puzzles.chunks(SLICE).enumerate() {
        let len = slice.len();
        let (status_part, rest) = std::mem::take(&mut status_rest).split_at_mut(len);
        status_rest = rest;
        let (solution_part, rest) = std::mem::take(&mut solution_rest).split_at_mut(len * width);
        solution_rest = rest;
        let (extra_part, rest) = extra_rest.split_at(len);
        extra_rest = rest;
        let flat = Flat {
            statuses: status_part,
            solutions: solution_part,
            width,
            reasons: &mut slice_reasons[..len],
            widest: &widest,
            boards,
            extra: extra_part,
        };
        py.allow_threads(|| {
            pool.install(|| run_puzzles_into(job, &workers, slice, boards, &cancel, flat))
        });
        for (i, reason) in slice_reasons[..len].iter_mut().enumerate() {
            if let Some(reason) = reason.take() {
                reasons.push((k * SLICE + i, reason.to_string()));
            }
        }
        if py.check_signals().is_err() {
            return Err(PyKeyboardInterrupt::new_err("interrupted"));
        }
    }
    // As wide as the largest solution written (an unreadable 256-byte text widens
    // nothing), as NumPy shows it.
    let written = widest.load(Ordering::Relaxed).max(81);
    if written < width {
        for i in 1..n {
            solutions.copy_within(i * width..i * width + written, i * written);
        }
        solutions.truncate(n * written);
        width = written;
    }
    Ok((
        PyArray1::from_vec_bound(py, statuses).unbind(),
        PyArray1::from_vec_bound(py, solutions).unbind(),
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
            run(py, &Solve::new(), puzzles, threads, boards, NoExtras)?,
            None,
        )),
        "classify" => Ok((
            run(py, &Classify::new(), puzzles, threads, boards, NoExtras)?,
            None,
        )),
        "canon" => {
            let mut forms = vec![0u8; puzzles.len() * 81];
            let mut automorphisms = vec![0u64; puzzles.len()];
            let columns = CanonColumns {
                forms: &mut forms,
                automorphisms: &mut automorphisms,
            };
            let base = run(py, &Canon::new(), puzzles, threads, boards, columns)?;
            let forms = PyArray1::from_vec_bound(py, forms).unbind();
            let automorphisms = PyArray1::from_vec_bound(py, automorphisms).unbind();
            Ok((base, Some((forms, automorphisms))))
        }
        other => Err(PyValueError::new_err(format!("unknown job {other:?}"))),
    }
}

/// Puzzle texts through `job` ("solve", "classify" or "canon"), variant boards read by
/// `size`, `variant` and `symbols`; `puzzles` a list of str or bytes, or an Arrow
/// column's buffers (see [`Held::of`]), read in place.
#[pyfunction]
#[pyo3(signature = (job, puzzles, threads=None, size=None, variant=None, symbols=None))]
fn run_texts(
    py: Python<'_>,
    job: &str,
    puzzles: &Bound<'_, PyAny>,
    threads: Option<usize>,
    size: Option<usize>,
    variant: Option<&str>,
    symbols: Option<&str>,
) -> PyResult<(Results, Forms)> {
    let boards = board_setup(size, variant, symbols)?;
    let held = Held::of(puzzles)?;
    by_name(py, job, &held.texts()?, threads, &boards)
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
    puzzles: &Bound<'_, PyAny>,
    by: &str,
    threads: Option<usize>,
) -> PyResult<Vec<usize>> {
    let held = Held::of(puzzles)?;
    firsts(py, &held.texts()?, by, threads)
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

/// Puzzle texts as a one-puzzle-per-line input: one line each (a line end inside a
/// text becomes `?`, so that it stays one record), and how its records are laid out.
fn as_lines(texts: &[&[u8]]) -> PyResult<(Vec<u8>, Layout)> {
    let mut joined = Vec::with_capacity(texts.iter().map(|t| t.len() + 1).sum());
    for text in texts {
        joined.extend(
            text.iter()
                .map(|&b| if b == b'\n' || b == b'\r' { b'?' } else { b }),
        );
        joined.push(b'\n');
    }
    let choice = Choice {
        format: Some(Format::Lines),
        ..Choice::default()
    };
    let mut layout =
        detect_layout_as(&joined, &choice).map_err(|e| PyValueError::new_err(e.to_string()))?;
    // Every text is a record, blank ones and `#` ones too.
    layout.every_line = true;
    Ok((joined, layout))
}

/// The CLI's `audit` of puzzle texts, against other lists of texts: the report as JSON.
#[pyfunction]
#[pyo3(signature = (puzzles, against, grade=false, rating="sukaku", rating_budget=None, threads=None, minimality=false))]
#[allow(clippy::too_many_arguments)]
fn audit_texts(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    against: Vec<Bound<'_, PyAny>>,
    grade: bool,
    rating: &str,
    rating_budget: Option<u64>,
    threads: Option<usize>,
    minimality: bool,
) -> PyResult<String> {
    let started = std::time::Instant::now();
    let rules = Rules::parse(rating).ok_or_else(|| {
        PyValueError::new_err(format!("rating {rating:?}: use sukaku, bank or se121"))
    })?;
    let budget = rating_budget.unwrap_or(Rater::DEFAULT_BUDGET);
    if budget == 0 {
        return Err(PyValueError::new_err("rating_budget: at least 1"));
    }
    let held = Held::of(puzzles)?;
    let (data, layout) = as_lines(&held.texts()?)?;
    let mut others = Vec::with_capacity(against.len());
    for (i, other) in against.iter().enumerate() {
        let held = Held::of(other)?;
        let (data, layout) = as_lines(&held.texts()?)?;
        others.push((format!("against[{i}]"), data, layout));
    }
    let named: Vec<(String, &[u8], Layout)> = others
        .iter()
        .map(|(n, d, l)| (n.clone(), &d[..], l.clone()))
        .collect();
    let options = AuditOptions {
        grade: grade.then_some((rules, budget)),
        minimality,
        ..AuditOptions::default()
    };
    let pool = pool(py, threads)?;
    let mut report = py.allow_threads(|| {
        pool.install(|| audit(&data, &layout, &named, &options, &Progress::hidden()))
    });
    let p = &mut report.provenance;
    p.tool = format!("sudoku-batch {} (Python)", env!("CARGO_PKG_VERSION"));
    p.commit = COMMIT.to_string();
    p.command_line = vec!["sudoku_batch.audit".to_string()];
    p.options
        .insert("classes".into(), "canonical (minlex)".into());
    if grade {
        p.rating_rules = Some(format!("rating={rating} (rating budget {budget} steps)"));
    }
    let mut facts = |name: &str, data: &[u8], layout: &Layout| {
        let mut records = 0;
        for_each_record_of(data, layout, |_| records += 1);
        p.inputs.push(InputFacts {
            path: name.to_string(),
            bytes: data.len() as u64,
            sha256: sha256_hex(data),
            layout: "a list of puzzles, one a record".to_string(),
            records,
        });
    };
    facts("puzzles", &data, &layout);
    for (name, data, layout) in &others {
        facts(name, data, layout);
    }
    p.made_at = utc_now();
    p.seconds = started.elapsed().as_secs_f64();
    serde_json::to_string(&report).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Classifies and grades (unique puzzles only) as the CLI's `grade`: per
/// puzzle, a level code (index into the grader's levels, 255 when not graded), the
/// rating, EP and ED in tenths (0 when not graded), whether they are lower bounds, the
/// name of the technique that set ER (`None` where none did), and the steps by
/// technique (a dict of the techniques used, by the names of the CSV column). `rating`
/// names the rules (`sukaku`, `bank`, `se121`) and `rating_budget` the chain
/// potentials a puzzle may take, as the CLI's `--rating` and `--rating-budget`.
#[pyfunction]
#[pyo3(signature = (puzzles, threads=None, size=None, variant=None, symbols=None, rating="sukaku", rating_budget=None))]
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn grade_texts(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    threads: Option<usize>,
    size: Option<usize>,
    variant: Option<&str>,
    symbols: Option<&str>,
    rating: &str,
    rating_budget: Option<u64>,
) -> PyResult<(
    Results,
    Py<PyArray1<u8>>,
    [Py<PyArray1<u16>>; 3],
    Py<PyArray1<bool>>,
    Vec<Option<&'static str>>,
    Vec<PyObject>,
)> {
    let rules = Rules::parse(rating).ok_or_else(|| {
        PyValueError::new_err(format!("rating {rating:?}: use sukaku, bank or se121"))
    })?;
    if rating_budget == Some(0) {
        return Err(PyValueError::new_err("rating_budget must be at least 1"));
    }
    let job = Grade::<Bitboards>::with(rules, rating_budget.unwrap_or(Rater::DEFAULT_BUDGET));
    let boards = board_setup(size, variant, symbols)?;
    let held = Held::of(puzzles)?;
    let texts = held.texts()?;
    let n = texts.len();
    let mut levels = vec![255u8; n];
    let mut ratings = vec![0u16; n];
    let mut pearls = vec![0u16; n];
    let mut diamonds = vec![0u16; n];
    let mut bounds = vec![false; n];
    let mut techniques = vec![255u8; n];
    let mut uses = vec![0u16; n * USES];
    let mut rated = vec![false; n];
    let columns = GradeColumns {
        levels: &mut levels,
        ratings: &mut ratings,
        pearls: &mut pearls,
        diamonds: &mut diamonds,
        bounds: &mut bounds,
        techniques: &mut techniques,
        uses: &mut uses,
        rated: &mut rated,
    };
    let base = run(py, &job, &texts, threads, &boards, columns)?;
    let tenths = |v: Vec<u16>| PyArray1::from_vec_bound(py, v).unbind();
    let technique = techniques
        .iter()
        .map(|&t| HintKind::ALL.get(usize::from(t)).map(|t| t.name()))
        .collect();
    let mut steps = Vec::with_capacity(n);
    for (counts, &se) in uses.chunks_exact(USES).zip(&rated) {
        let names: &[&str] = if se { &SLUGS } else { &TECHNIQUE_NAMES };
        let dict = PyDict::new_bound(py);
        for (&count, name) in counts.iter().zip(names).filter(|(&c, _)| c > 0) {
            dict.set_item(*name, count)?;
        }
        steps.push(dict.into_any().unbind());
    }
    Ok((
        base,
        PyArray1::from_vec_bound(py, levels).unbind(),
        [tenths(ratings), tenths(pearls), tenths(diamonds)],
        PyArray1::from_vec_bound(py, bounds).unbind(),
        technique,
        steps,
    ))
}

/// Makes `count` puzzles (record i from the seed and i only, as the CLI's `generate`);
/// gives puzzles and solutions (81 bytes each), givens, level codes and ratings (255
/// and 0 unless `grade` or `difficulty`, as the CLI's `--grade`).
#[pyfunction]
#[pyo3(signature = (count, seed=1, givens=None, symmetry="none", difficulty=None, threads=None, grade=false))]
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn generate(
    py: Python<'_>,
    count: u64,
    seed: u64,
    givens: Option<u16>,
    symmetry: &str,
    difficulty: Option<&str>,
    threads: Option<usize>,
    grade: bool,
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
    let maker = Generate::new(Spec { pattern, target }, seed, level, grade);
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
                        || Maker::<Bitboards>::new(Variant::Classic),
                        |tools, i| maker.record(tools, i),
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
        let level = extra.graded.and_then(|g| g.level());
        levels.push(level.map_or(255, |l| l as u8));
        // ER, or the pattern grader's rating where the rater gave none.
        let rating = extra.graded.and_then(|g| match (g.se, g.grade) {
            (Some(se), _) => Some(se.er),
            (None, g) => g.map(|g| g.rating),
        });
        ratings.push(rating.unwrap_or(0));
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
    // The keywords checked by the library's one settings check, as the command line's
    // flags are.
    let asked = Asked {
        threads,
        column,
        delimiter,
        size,
        variant,
        symbols,
        format: None,
    };
    let options = asked.settings().map_err(value_error)?;
    let path = Path::new(path).to_path_buf();
    let output = output.unwrap_or("/dev/null").to_string();
    py.allow_threads(move || {
        // Any input the command line reads: plain, compressed, NumPy, Parquet.
        let how = HowToOpen {
            column: Some(&options.input.column),
            max_record: Some(options.max_record),
            ..HowToOpen::default()
        };
        let opened = open(&path, &how).map_err(|e| PyOSError::new_err(e.to_string()))?;
        let mut out = Output::open(Some(Path::new(&output)))
            .map_err(|e| PyOSError::new_err(e.to_string()))?;
        let (mut report, _) = pipeline::run(&Classify::new(), &path, opened, &options, &mut out)
            .map_err(|e| PyOSError::new_err(e.to_string()))?;
        // The wall time runs to the output committed, as the command line's does.
        let commit = out
            .finish_timed()
            .map_err(|e| PyOSError::new_err(e.to_string()))?;
        report.add_commit(commit);
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
    m.add_function(wrap_pyfunction!(audit_texts, m)?)?;
    Ok(())
}
