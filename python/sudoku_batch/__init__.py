"""Solve and classify Sudoku puzzles at native speed.

    >>> import sudoku_batch
    >>> r = sudoku_batch.classify(["....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3"])
    >>> r["status"][0]
    'unique'

`puzzles` may be a list of str (or bytes), a NumPy array of 81-byte strings (dtype S81,
read in place) or an (n, 81) uint8 array of cell values (0 = empty), a pandas Series of
str, or a pyarrow array of strings. Nothing is copied per puzzle: each str's text, an
S81 array and an Arrow column's buffers (`string`, `large_string`, binary, chunked or
dictionary-encoded, sliced or not; pandas' Arrow-backed strings too) are read where
they are, and a null is read as "" (`invalid`). Results are a dict of NumPy arrays keyed `status`
(str), `solution` (ASCII strings, dtype S81, empty when there is none; use
`.astype(str)` for text) and `reason` (str, empty unless invalid), one entry per puzzle
in input order (or a pyarrow Table with
`as_arrow=True`).

Variant boards are read as on the command line: texts of 16, 256 or 625 cells are
4x4, 16x16 or 25x25 boards, and `size`, `variant` ("classic", "diagonal", "windoku")
and `symbols` (an alphabet) read every text by those rules. A board's solution is
written in its symbols, and the `solution` array is as wide as the largest (S256 for
16x16, S625 for 25x25). The GIL is released while solving; Ctrl-C stops between slices of
65,536 puzzles. Malformed puzzles are `invalid` with a reason, as in the command line.
"""
import json
import os

import numpy as np

from . import _native

__all__ = ["solve", "classify", "grade", "generate", "classify_file", "canonical", "dedupe",
           "audit"]

__version__ = _native.__version__

_INTEGER_FIX = ("read the column as text so that leading zeros stay, e.g. "
                "pd.read_csv(path, dtype=str) or np.loadtxt(path, dtype=str); an (n, 81) "
                "array of cell values must be uint8")


_STATUS_WORDS = np.array(["unique", "multiple", "solved", "unsolvable", "invalid",
                          "undecided"], dtype="U10")


def _check_threads(threads):
    # Only what cannot reach the native side (not an int, or negative); the range is
    # checked there, by the library's one settings check.
    if threads is not None and (not isinstance(threads, int) or threads < 0):
        raise ValueError(f"threads must be 1 to 1024, not {threads!r}")


def _dispatch(puzzles, on_texts, on_cells):
    """Calls `on_texts(list of str/bytes)` or `on_cells(uint8 (n, 81) array, ascii)` for
    any accepted collection of puzzles."""
    if isinstance(puzzles, np.ndarray):
        if puzzles.dtype == np.uint8 and puzzles.ndim == 2:
            return on_cells(np.ascontiguousarray(puzzles), False)
        if puzzles.dtype.kind == "S" and puzzles.dtype.itemsize == 81 and puzzles.ndim == 1:
            cells = np.ascontiguousarray(puzzles).view(np.uint8).reshape(len(puzzles), 81)
            return on_cells(cells, True)
        if puzzles.dtype.kind in "USO" and puzzles.ndim == 1:
            return on_texts([str(p) if not isinstance(p, bytes) else p
                             for p in puzzles.tolist()])
        if puzzles.dtype.kind in "iuf" and puzzles.ndim == 1:
            raise TypeError(f"puzzles are numbers (dtype {puzzles.dtype}), which have lost "
                            f"the leading zeros of empty cells: {_INTEGER_FIX}")
        raise TypeError(f"unsupported array: dtype {puzzles.dtype}, shape {puzzles.shape}; "
                        "use 81-byte strings (S81) or an (n, 81) uint8 array")
    if type(puzzles).__module__.startswith("pandas"):
        kind = getattr(getattr(puzzles, "dtype", None), "kind", "O")
        if kind in "iuf":
            raise TypeError(f"puzzles are numbers (dtype {puzzles.dtype}), which have lost "
                            f"the leading zeros of empty cells: {_INTEGER_FIX}")
        if getattr(getattr(puzzles, "dtype", None), "storage", None) == "pyarrow":
            # Arrow-backed strings: the column's own buffers, read in place.
            import pyarrow as pa
            return on_texts(_arrow_chunks(pa.array(puzzles)))
        return on_texts([p if isinstance(p, (str, bytes)) else str(p)
                         for p in puzzles.tolist()])
    if type(puzzles).__module__.startswith("pyarrow"):
        return on_texts(_arrow_chunks(puzzles))
    if isinstance(puzzles, list):
        return on_texts(puzzles)
    if isinstance(puzzles, tuple):
        return on_texts(list(puzzles))
    if isinstance(puzzles, (str, bytes)):
        raise TypeError("puzzles must be a collection of puzzles, not a single str; "
                        "wrap it in a list")
    raise TypeError(f"unsupported puzzles type {type(puzzles).__name__}")


def _arrow_chunks(column):
    """A pyarrow Array or ChunkedArray of strings as the native side reads it in place:
    a tuple of chunks, each (offsets, data, validity, bit) over the chunk's own buffers
    (null rows are read as "", so `invalid`)."""
    import pyarrow as pa
    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    parts = []
    for chunk in chunks:
        if pa.types.is_dictionary(chunk.type):
            chunk = chunk.dictionary_decode()
        kind = chunk.type
        if pa.types.is_integer(kind) or pa.types.is_floating(kind):
            raise TypeError(f"puzzles are numbers (type {kind}), which have lost the "
                            f"leading zeros of empty cells: {_INTEGER_FIX}")
        if pa.types.is_string(kind) or pa.types.is_binary(kind):
            width = np.int32
        elif pa.types.is_large_string(kind) or pa.types.is_large_binary(kind):
            width = np.int64
        else:
            try:
                chunk = chunk.cast(pa.large_string())
            except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as e:
                raise TypeError(f"puzzles of Arrow type {kind} are not text: {e}") from None
            width = np.int64
        n = len(chunk)
        validity, offsets, data = chunk.buffers()[:3]
        offsets = (np.frombuffer(offsets, dtype=width)[chunk.offset:chunk.offset + n + 1]
                   if n else np.zeros(1, dtype=width))
        data = np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, np.uint8)
        validity = (np.frombuffer(validity, dtype=np.uint8)
                    if validity is not None and chunk.null_count else None)
        parts.append((offsets, data, validity, chunk.offset))
    return tuple(parts)


def _native_run(job, puzzles, threads, rules=(None, None, None)):
    _check_threads(threads)
    size, variant, symbols = rules
    # An (n, 81) array holds classic grids; under other rules its rows are read as texts.
    plain = rules == (None, None, None)
    return _dispatch(puzzles,
                     lambda texts: _native.run_texts(job, texts, threads, size, variant,
                                                     symbols),
                     lambda cells, ascii: (_native.run_cells(job, cells, ascii, threads)
                                           if plain else
                                           _native.run_texts(job, _cell_texts(cells, ascii),
                                                             threads, size, variant,
                                                             symbols)))


def _run(job, puzzles, threads, as_arrow, rules):
    out, _ = _native_run(job, puzzles, threads, rules)
    result = _result(*out)
    if as_arrow:
        import pyarrow as pa
        return pa.table({
            "status": pa.array(result["status"].tolist()),
            "solution": pa.array(result["solution"].astype(str).tolist()),
            "reason": pa.array(result["reason"].tolist()),
        })
    return result


def _cell_texts(cells, ascii):
    """The rows of an (n, 81) uint8 array as 81-byte texts: ASCII as they are, cell
    values 0..9 written as digits and `.`."""
    if not ascii:
        if cells.size and cells.max() > 9:
            bad = int(np.argmax(cells > 9))
            raise ValueError(f"cell values must be 0..=9; puzzle {bad // 81} cell {bad % 81} "
                             f"is {cells.flat[bad]}")
        cells = np.where(cells == 0, ord("."), cells + ord("0")).astype(np.uint8)
    return [row.tobytes() for row in cells]


def _result(codes, solutions, width, reasons):
    n = len(codes)
    status = _STATUS_WORDS[codes]
    # ASCII bytes, the native buffer itself (a str array would cost more than the
    # solving): `.astype(str)` when text is wanted. Records without a solution (an
    # `undecided` one shows it only if it found one) come NUL-filled, which NumPy reads
    # as empty.
    solution = solutions.view(f"S{width}")
    reason = np.full(n, "", dtype=object)
    for i, text in reasons:
        reason[i] = text
    return {"status": status, "solution": solution, "reason": reason}


def canonical(puzzles, threads=None):
    """Canonical (minlex) forms: the keys of `classify` plus `canonical` (81 ASCII
    characters, `.` for empty as in every grid column, dtype S81; equivalent puzzles, under relabelling, band, row,
    stack and column shuffles and transposition, share one form; empty for malformed
    puzzles) and `automorphisms` (uint64: transforms that map the puzzle to itself; 0
    for malformed puzzles). The same forms as `sudoku-batch canon`."""
    out, (forms, automorphisms) = _native_run("canon", puzzles, threads)
    result = _result(*out)
    result["canonical"] = forms.view("S81")
    result["automorphisms"] = automorphisms
    return result


def dedupe(puzzles, by="canonical", threads=None):
    """Indices (int64) of the first puzzle of each class, in order: what `sudoku-batch
    dedupe` keeps. `by="canonical"` groups equivalent puzzles, `by="text"` identical
    cells (`.` and `0` alike); malformed puzzles are grouped by their text."""
    _check_threads(threads)
    firsts = _dispatch(puzzles,
                       lambda texts: _native.dedupe_texts(texts, by, threads),
                       lambda cells, ascii: _native.dedupe_cells(cells, ascii, by, threads))
    return np.array(firsts, dtype=np.int64)


def solve(puzzles, threads=None, as_arrow=False, size=None, variant=None, symbols=None):
    """First solution of every puzzle: status `solved`, `unsolvable` or `invalid`."""
    return _run("solve", puzzles, threads, as_arrow, (size, variant, symbols))


def classify(puzzles, threads=None, as_arrow=False, size=None, variant=None, symbols=None):
    """Solutions counted up to two: `unique`, `multiple`, `unsolvable` or `invalid`."""
    return _run("classify", puzzles, threads, as_arrow, (size, variant, symbols))


_LEVELS = np.array(["easy", "medium", "hard", "expert", "extreme", ""], dtype="U7")


def _levels(codes):
    codes = np.frombuffer(codes, dtype=np.uint8).copy()
    codes[codes == 255] = 5
    return _LEVELS[codes]


def grade(puzzles, threads=None, size=None, variant=None, symbols=None, rating="sukaku",
          rating_budget=None):
    """Classifies and grades (unique puzzles only), as `sudoku-batch grade` does: the
    keys of `classify` plus `difficulty` (easy ... extreme, empty when not graded),
    `rating`, `pearl` and `diamond` (floats: Sukaku Explainer's ER, EP and ED for 9x9
    grids, 0 when not graded), `technique` (the step that set ER, e.g. "Forcing Chain";
    None when none did), `techniques` (a dict per puzzle: steps by technique, as the
    CSV column names them) and `bound` (bool: the ratings are lower bounds). Variant
    boards get the pattern grader's `rating` and `techniques`, and 0 for `pearl` and
    `diamond`. `rating` ("sukaku", "bank" or "se121") and `rating_budget` (chain
    potentials a puzzle may take) are the CLI's `--rating` and `--rating-budget`."""
    _check_threads(threads)
    texts = _dispatch(puzzles, lambda texts: texts, _cell_texts)
    (codes, solutions, width, reasons), levels, (ratings, pearls, diamonds), bounds, \
        technique, techniques = _native.grade_texts(
            texts, threads, size, variant, symbols, rating, rating_budget)
    result = _result(codes, solutions, width, reasons)
    result["difficulty"] = _levels(levels)
    result["rating"] = ratings.astype(np.float64) / 10.0
    result["pearl"] = pearls.astype(np.float64) / 10.0
    result["diamond"] = diamonds.astype(np.float64) / 10.0
    result["technique"] = np.array(technique, dtype=object)
    result["techniques"] = techniques
    result["bound"] = bounds
    return result


def generate(count, seed=1, givens=None, symmetry="none", difficulty=None, threads=None,
             grade=False):
    """Makes `count` unique puzzles exactly as `sudoku-batch generate` does (same seed,
    same puzzles, whatever the threads): keys `puzzle`, `solution` (S81), `givens`,
    `difficulty`, `rating`. As with the CLI's `--grade`, `difficulty` and `rating` (ER)
    are filled in only when `grade` is true or `difficulty` asks for levels ("" and 0
    otherwise): grading costs more than making a minimal puzzle."""
    if not isinstance(count, int) or count < 1:
        raise ValueError(f"count must be a positive int, not {count!r}")
    _check_threads(threads)
    puzzles, solutions, given, levels, ratings = _native.generate(
        count, seed, givens, symmetry, difficulty, threads, bool(grade))
    return {
        "puzzle": np.frombuffer(puzzles, dtype="S81").copy(),
        "solution": np.frombuffer(solutions, dtype="S81").copy(),
        "givens": np.array(given, dtype=np.uint8),
        "difficulty": _levels(levels),
        "rating": np.array(ratings, dtype=np.float64) / 10.0,
    }


def classify_file(path, threads=None, output=None, size=None, variant=None, symbols=None,
                  column=None, delimiter=None):
    """Classifies a file through the mapped pipeline (any format the CLI reads), writing
    rows to `output` (default: discarded); returns the run's report as a dict.

    `column` (a CSV header name, or a 1-based index) and `delimiter` (one character, or
    "tab") are the CLI's `--column` and `--delimiter`; by default both are detected.

    Variant boards as on the command line: records of 16, 256 or 625 cells are read as
    4x4, 16x16 or 25x25 boards; `size` (4, 9, 16, 25), `variant` ("classic",
    "diagonal", "windoku") and `symbols` (an alphabet) read every record by those rules.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, not {type(path).__name__}")
    _check_threads(threads)
    if column is not None and not isinstance(column, (str, int)):
        raise TypeError(f"column must be a str or int, not {type(column).__name__}")
    if delimiter is not None and not isinstance(delimiter, str):
        raise TypeError(f"delimiter must be a str, not {type(delimiter).__name__}")
    return json.loads(_native.classify_file(os.fspath(path), threads, output, size, variant,
                                            symbols, None if column is None else str(column),
                                            delimiter))


def audit(puzzles, against=(), grade=False, rating="sukaku", rating_budget=None,
          threads=None, minimality=False):
    """A dataset's health in one pass, as `sudoku-batch audit` gives it, as a dict (its
    JSON report): `verdict` (`sound`, `problems`), `validity` (counts per status with
    the first record numbers, counted from 1, invalid reasons grouped, given solutions
    that are not the puzzle's), `duplicates` (identical and equivalent puzzles, the
    largest classes), `leakage` (puzzles with an equivalent in each list of `against`),
    `shape` (histograms; ratings and levels with `grade=True`, by `rating` and
    `rating_budget` as in `grade`; the share of minimal unique puzzles with
    `minimality=True`, a solve per given) and `provenance`. `puzzles` and each of
    `against` are sequences of strings, one puzzle each."""
    _check_threads(threads)
    texts = _audit_texts(puzzles)
    others = [_audit_texts(other) for other in against]
    return json.loads(_native.audit_texts(texts, others, grade, rating, rating_budget,
                                          threads, minimality))


def _audit_texts(puzzles):
    """Puzzles as a list of str for `audit`: strings, bytes, or an (n, 81) cell array."""
    if isinstance(puzzles, np.ndarray) and puzzles.ndim == 2:
        ascii = bool(puzzles.size) and int(puzzles.max()) > 9
        return [t.decode() for t in _cell_texts(puzzles.astype(np.uint8), ascii)]
    return [p.decode() if isinstance(p, bytes) else str(p) for p in puzzles]
