"""sudoku_batch from Python on the bundled datasets: the same statuses and solutions as
the command line, whatever the input type, and clear errors for wrong arguments."""
import csv
import io
import os
import pathlib
import json
import subprocess

import numpy as np
import pytest

import sudoku_batch

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = pathlib.Path(os.environ.get("SUDOKU_BATCH_BIN", ROOT / "target" / "release" / "sudoku-batch"))


def cli_rows(name):
    out = subprocess.run([str(BINARY), "classify", str(ROOT / "data" / name), "--quiet"],
                         check=True, capture_output=True).stdout.decode()
    return list(csv.DictReader(io.StringIO(out)))


@pytest.mark.parametrize("name", ["hard.txt", "graded.csv",
                                  "cases.tsv", "minimal.txt"])
def test_list_of_str_matches_the_cli(name):
    rows = cli_rows(name)
    puzzles = [r["puzzle"] for r in rows]
    got = sudoku_batch.classify(puzzles)
    assert list(got["status"]) == [r["status"] for r in rows]
    assert list(got["solution"].astype(str)) == [r["solution"] for r in rows]
    solved = sudoku_batch.solve(puzzles, threads=1)
    for status, want in zip(solved["status"], rows):
        assert status == ("solved" if want["status"] in ("unique", "multiple") else want["status"])


def test_every_input_type_gives_the_same_answers():
    rows = cli_rows("graded.csv")
    puzzles = [r["puzzle"] for r in rows]
    want = sudoku_batch.classify(puzzles)
    as_bytes = np.array([p.encode() for p in puzzles], dtype="S81")
    cells = np.array([[0 if ch == "." else int(ch) for ch in p] for p in puzzles], dtype=np.uint8)
    import pandas as pd
    import pyarrow as pa
    for kind, value in [("S81", as_bytes), ("uint8", cells), ("pandas", pd.Series(puzzles)),
                        ("pyarrow", pa.array(puzzles)), ("tuple", tuple(puzzles)),
                        ("bytes", [p.encode() for p in puzzles])]:
        got = sudoku_batch.classify(value, threads=2)
        for key in ("status", "solution"):
            assert (got[key] == want[key]).all(), kind
    table = sudoku_batch.classify(puzzles[:10], as_arrow=True)
    assert table.column_names == ["status", "solution", "reason"]
    assert table.num_rows == 10


def test_malformed_puzzles_are_invalid_with_a_reason():
    got = sudoku_batch.classify(["", "12x", "." * 80, "11" + "." * 79])
    assert got["solution"].dtype == np.dtype("S81") and got["solution"][0] == b""
    assert list(got["status"]) == ["invalid"] * 4
    assert got["reason"][1] == "bad byte 'x' at column 3"
    assert got["reason"][3] == "digit 1 given twice in row 1"


def test_wrong_arguments_raise():
    with pytest.raises(TypeError):
        sudoku_batch.classify(42)
    with pytest.raises(TypeError):
        sudoku_batch.classify("." * 81)
    with pytest.raises(TypeError):
        sudoku_batch.classify([1, 2])
    with pytest.raises(ValueError):
        sudoku_batch.classify(np.zeros((3, 80), dtype=np.uint8))
    with pytest.raises(ValueError):
        sudoku_batch.classify(np.full((1, 81), 10, dtype=np.uint8))
    with pytest.raises(ValueError):
        sudoku_batch.classify(["." * 81], threads=0)
    with pytest.raises(OSError):
        sudoku_batch.classify_file("/nonexistent/file.txt")


def test_classify_file_reports_like_the_cli(tmp_path):
    report = sudoku_batch.classify_file(ROOT / "data" / "cases.tsv", threads=2,
                                        output=str(tmp_path / "rows.csv"))
    assert report["records"] == 21
    assert report["counts"] == {"unique": 9, "multiple": 7, "solved": 0, "unsolvable": 2,
                                "invalid": 3, "undecided": 0}
    rows = (tmp_path / "rows.csv").read_text().splitlines()
    assert len(rows) == 22


def test_classify_file_takes_variant_boards(tmp_path):
    rows_path = tmp_path / "rows.csv"
    report = sudoku_batch.classify_file(ROOT / "data" / "variants" / "solo-diagonal-9x9.txt",
                                        output=str(rows_path), variant="diagonal")
    assert report["counts"]["unique"] == 500
    cli = subprocess.run([str(BINARY), "classify",
                          str(ROOT / "data" / "variants" / "solo-diagonal-9x9.txt"),
                          "--variant", "diagonal", "--quiet"],
                         check=True, capture_output=True).stdout.decode()
    assert rows_path.read_text() == cli
    # 16x16 by length, no option needed.
    report = sudoku_batch.classify_file(ROOT / "data" / "variants" / "solo-16x16.txt")
    assert report["counts"]["unique"] == 200
    with pytest.raises(ValueError, match="windoku"):
        sudoku_batch.classify_file(ROOT / "data" / "extreme.txt", size=16,
                                   variant="windoku")


def test_numbers_for_puzzles_raise_with_the_fix():
    # What pd.read_csv makes of Kaggle's quizzes column: integers without the leading
    # zeros of empty cells. Reading them as text would give wrong rows without a word.
    numbers = np.array([4.300209005009001e78, 4.0100005000e78], dtype=np.float64)
    for puzzles in [numbers, np.array([43002090, 400], dtype=np.int64)]:
        with pytest.raises(TypeError, match="dtype=str"):
            sudoku_batch.classify(puzzles)
    import pandas as pd
    with pytest.raises(TypeError, match="dtype=str"):
        sudoku_batch.classify(pd.Series([43002090, 400]))
    # Read as text, the same file classifies.
    frame = pd.read_csv(ROOT / "data" / "quizzes.csv", dtype=str, nrows=100)
    assert list(sudoku_batch.classify(frame["quizzes"])["status"]) == ["unique"] * 100


def test_classify_file_takes_column_and_delimiter(tmp_path):
    lines = (ROOT / "data" / "graded.csv").read_text().splitlines()[:101]
    tsv = tmp_path / "k.tsv"
    tsv.write_text("\n".join(line.replace(",", "\t") for line in lines) + "\n")
    report = sudoku_batch.classify_file(tsv)
    assert report["counts"]["unique"] == 100
    assert "tab-separated" in report["layout"]
    # The solution column named as the puzzle column: every puzzle is full.
    report = sudoku_batch.classify_file(tsv, column="solution", delimiter="tab")
    assert report["counts"]["unique"] == 100 and '"solution"' in report["layout"]
    report = sudoku_batch.classify_file(tsv, column=2)
    assert '"solution" (column 2)' in report["layout"]
    # The library's one settings check: the command line's and the server's words.
    with pytest.raises(ValueError, match='^delimiter "ab": give one character, or `tab`$'):
        sudoku_batch.classify_file(tsv, delimiter="ab")
    with pytest.raises(ValueError, match="^threads must be 1 to 1024, not 0$"):
        sudoku_batch.classify_file(tsv, threads=0)


def test_version_is_the_package_version():
    assert sudoku_batch.__version__ == "0.1.0"


def techniques_text(uses):
    return " ".join(f"{name}={count}" for name, count in uses.items())


@pytest.mark.parametrize("name,rating,budget", [
    ("cases.tsv", "sukaku", None),
    ("extreme.txt", "bank", None),
    ("extreme.txt", "se121", 20000),
])
def test_grade_matches_the_cli(name, rating, budget):
    args = ["--rating", rating] + (["--rating-budget", str(budget)] if budget else [])
    out = subprocess.run([str(BINARY), "grade", str(ROOT / "data" / name), "--quiet", *args],
                         check=True, capture_output=True).stdout.decode()
    rows = list(csv.DictReader(io.StringIO(out)))
    got = sudoku_batch.grade([r["puzzle"] for r in rows], rating=rating, rating_budget=budget)
    assert list(got["status"]) == [r["status"] for r in rows]
    assert list(got["difficulty"]) == [r["difficulty"] for r in rows]
    for key in ("rating", "pearl", "diamond"):
        assert [f"{x:.1f}" if d else "" for x, d in zip(got[key], got["difficulty"])] == \
            [r[key] for r in rows]
    assert [t or "" for t in got["technique"]] == [r["technique"] for r in rows]
    assert [techniques_text(u) for u in got["techniques"]] == [r["techniques"] for r in rows]
    assert [("lower" if b else "") for b in got["bound"]] == [r["bound"] for r in rows]
    with pytest.raises(ValueError, match="sukaku"):
        sudoku_batch.grade([rows[0]["puzzle"]], rating="hodoku")


def test_generate_matches_the_cli():
    out = subprocess.run([str(BINARY), "generate", "--count", "40", "--seed", "3",
                          "--symmetry", "rot180", "--grade", "--quiet"],
                         check=True, capture_output=True).stdout.decode()
    rows = list(csv.DictReader(io.StringIO(out)))
    got = sudoku_batch.generate(40, seed=3, symmetry="rot180", threads=2, grade=True)
    assert list(got["puzzle"].astype(str)) == [r["puzzle"] for r in rows]
    assert list(got["solution"].astype(str)) == [r["solution"] for r in rows]
    assert list(got["givens"]) == [int(r["givens"]) for r in rows]
    assert list(got["difficulty"]) == [r["difficulty"] for r in rows]
    assert [f"{x:.1f}" for x in got["rating"]] == [r["rating"] for r in rows]
    # Ungraded unless asked, as the CLI: the same puzzles, empty grades.
    plain = sudoku_batch.generate(40, seed=3, symmetry="rot180", threads=1)
    assert list(plain["puzzle"]) == list(got["puzzle"])
    assert set(plain["difficulty"]) == {""} and not plain["rating"].any()
    with pytest.raises(ValueError):
        sudoku_batch.generate(5, givens=12)
    with pytest.raises(ValueError):
        sudoku_batch.generate(5, symmetry="spiral")
    with pytest.raises(ValueError):
        sudoku_batch.generate(0)


def cli_canon(path):
    out = subprocess.run([str(BINARY), "canon", str(path), "--quiet"],
                         check=True, capture_output=True).stdout.decode()
    return list(csv.DictReader(io.StringIO(out)))


@pytest.mark.parametrize("name", ["extreme.txt", "minimal.txt"])
def test_canonical_matches_the_cli_for_every_input_type(name):
    rows = cli_canon(ROOT / "data" / name)[:2000]
    puzzles = [r["puzzle"] for r in rows]
    got = sudoku_batch.canonical(puzzles)
    assert list(got["canonical"].astype(str)) == [r["canonical"] for r in rows]
    assert list(got["automorphisms"]) == [int(r["automorphisms"]) for r in rows]
    assert list(got["status"]) == [r["status"] for r in rows]
    as_bytes = np.array([p.encode() for p in puzzles], dtype="S81")
    cells = np.array([[0 if c == "." else int(c) for c in p] for p in puzzles], dtype=np.uint8)
    for other in (as_bytes, cells):
        assert (sudoku_batch.canonical(other)["canonical"] == got["canonical"]).all()


def test_canonical_of_malformed_puzzles_is_empty():
    got = sudoku_batch.canonical(["12x", "." * 81])
    assert list(got["status"]) == ["invalid", "multiple"]
    assert got["canonical"][0] == b"" and got["automorphisms"][0] == 0
    assert got["canonical"][1] == b"." * 81 and got["automorphisms"][1] == 3359232


def test_dedupe_gives_the_first_of_each_class_as_the_cli_keeps_it(tmp_path):
    corpus = tmp_path / "corpus.txt"
    subprocess.run([str(BINARY), "corpus", "--from", str(ROOT / "data" / "extreme.txt"),
                    "--count", "1500", "--seed", "4", "-o", str(corpus)], check=True)
    kept = tmp_path / "kept.txt"
    subprocess.run([str(BINARY), "dedupe", str(corpus), "-o", str(kept), "-q"], check=True)
    puzzles = corpus.read_text().splitlines()
    firsts = sudoku_batch.dedupe(puzzles, threads=2)
    assert firsts.dtype == np.int64
    assert [puzzles[i] for i in firsts] == kept.read_text().splitlines()
    assert len(firsts) == 100
    as_bytes = np.array([p.encode() for p in puzzles], dtype="S81")
    assert (sudoku_batch.dedupe(as_bytes) == firsts).all()
    # By text: every relabelled copy is new, the exact repeats are not.
    by_text = sudoku_batch.dedupe(puzzles + puzzles[:5], by="text")
    assert len(by_text) == len(set(puzzles))
    with pytest.raises(ValueError):
        sudoku_batch.dedupe(puzzles, by="shape")


def test_generate_fails_on_a_target_out_of_reach():
    with pytest.raises(ValueError, match="no puzzle"):
        sudoku_batch.generate(1, givens=20, symmetry="rot90", threads=1)


def test_threads_are_capped_and_paths_typed_as_the_cli_does():
    puzzle = ["....318...69....25.........6..3.9...5............827....7...9.4.9..47.1....1....3"]
    for bad in (0, 1025, 5000, 100000):
        with pytest.raises(ValueError, match="1 to 1024"):
            sudoku_batch.classify(puzzle, threads=bad)
        with pytest.raises(ValueError, match="1 to 1024"):
            sudoku_batch.classify_file(ROOT / "data" / "extreme.txt", threads=bad)
    with pytest.raises(TypeError):
        sudoku_batch.classify_file(None)
    assert sudoku_batch.classify(puzzle, threads=1024)["status"][0] == "unique"


def test_grade_takes_the_arrays_classify_takes():
    rows = cli_rows("extreme.txt")[:20]
    puzzles = [r["puzzle"] for r in rows]
    want = sudoku_batch.grade(puzzles)
    cells = np.array([[0 if c == "." else int(c) for c in p] for p in puzzles], dtype=np.uint8)
    as_bytes = np.array([p.encode() for p in puzzles], dtype="S81")
    for other in (cells, as_bytes):
        got = sudoku_batch.grade(other)
        assert list(got["rating"]) == list(want["rating"])
        assert list(got["status"]) == list(want["status"])


def cli_board_rows(job, name, *args):
    out = subprocess.run([str(BINARY), job, str(ROOT / "data" / name), "--quiet", *args],
                         check=True, capture_output=True).stdout.decode()
    return list(csv.DictReader(io.StringIO(out)))


@pytest.mark.parametrize("job,name,rules,args", [
    ("classify", "variants/solo-16x16.txt", {}, []),
    ("solve", "variants/solo-25x25.txt", {"size": 25}, ["--size", "25"]),
    ("classify", "variants/solo-diagonal-9x9.txt", {"variant": "diagonal"},
     ["--variant", "diagonal"]),
    ("grade", "variants/wpf-gp-diagonal.txt", {"variant": "diagonal"},
     ["--variant", "diagonal"]),
    ("classify", "variants/solo-4x4.txt", {"size": 4, "symbols": "1234"},
     ["--size", "4", "--symbols", "1234"]),
])
def test_variant_boards_match_the_cli(job, name, rules, args):
    rows = cli_board_rows(job, name, *args)
    puzzles = [r["puzzle"] for r in rows]
    got = getattr(sudoku_batch, job)(puzzles, **rules)
    assert list(got["status"]) == [r["status"] for r in rows]
    assert list(got["solution"].astype(str)) == [r["solution"] for r in rows]
    assert list(got["reason"]) == [r["reason"] for r in rows]
    if job == "grade":
        assert list(got["difficulty"]) == [r["difficulty"] for r in rows]
        assert [f"{x:.1f}" if x else "" for x in got["rating"]] == [r["rating"] for r in rows]
        assert [techniques_text(u) for u in got["techniques"]] == \
            [r["techniques"] for r in rows]


def test_board_rules_are_checked_and_refusals_named():
    with pytest.raises(ValueError, match="hexagonal"):
        sudoku_batch.classify(["1234"], variant="hexagonal")
    got = sudoku_batch.canonical(["1..." * 4])
    assert got["status"][0] == "invalid" and "boards" in got["reason"][0]
    # Classic 9x9 results keep their 81-byte dtype.
    assert sudoku_batch.classify(["." * 81])["solution"].dtype == np.dtype("S81")


def test_arrow_columns_are_read_in_place_whatever_their_layout():
    import pandas as pd
    import pyarrow as pa
    rows = cli_rows("hard.txt")[:300]
    puzzles = [r["puzzle"] for r in rows]
    want = sudoku_batch.classify(puzzles)
    # A slice (non-zero offset), nulls (read as "", so invalid), large_string, binary,
    # dictionary-encoded, chunked, and pandas' Arrow-backed strings.
    with_nulls = [None if i % 7 == 3 else p for i, p in enumerate(puzzles)]
    cases = [
        ("slice", pa.array(["junk"] * 5 + puzzles)[5:], puzzles),
        ("nulls", pa.array(with_nulls), [p or "" for p in with_nulls]),
        ("sliced nulls", pa.array(["x"] * 3 + with_nulls)[3:], [p or "" for p in with_nulls]),
        ("large", pa.array(puzzles, type=pa.large_string()), puzzles),
        ("binary", pa.array([p.encode() for p in puzzles], type=pa.binary()), puzzles),
        ("dictionary", pa.array(puzzles).dictionary_encode(), puzzles),
        ("chunked", pa.chunked_array([puzzles[:100], puzzles[100:250], puzzles[250:]]),
         puzzles),
        ("pandas arrow", pd.Series(puzzles, dtype="string[pyarrow]"), puzzles),
    ]
    for kind, column, texts in cases:
        got = sudoku_batch.classify(column, threads=2)
        plain = sudoku_batch.classify(texts, threads=2)
        assert len(got["status"]) == len(texts), kind
        for key in ("status", "solution", "reason"):
            assert list(got[key]) == list(plain[key]), (kind, key)
    assert list(sudoku_batch.classify(cases[0][1])["status"]) == list(want["status"])
    nulls = sudoku_batch.classify(cases[1][1])
    assert nulls["status"][3] == "invalid" and nulls["reason"][3] == "no puzzle on the line"
    assert sudoku_batch.classify(pa.array([], type=pa.string()))["status"].size == 0
    with pytest.raises(TypeError, match="dtype=str"):
        sudoku_batch.classify(pa.array([43002090, 400]))
    got = sudoku_batch.canonical(cases[6][1])
    assert list(got["canonical"]) == list(sudoku_batch.canonical(puzzles)["canonical"])
    assert list(sudoku_batch.dedupe(cases[3][1])) == list(sudoku_batch.dedupe(puzzles))
    assert list(sudoku_batch.grade(cases[0][1][:20])["rating"]) == list(
        sudoku_batch.grade(puzzles[:20])["rating"])


def test_results_are_as_wide_as_the_largest_solution_and_writable():
    board = cli_board_rows("classify", "variants/solo-16x16.txt")[0]["puzzle"]
    classic = cli_rows("hard.txt")[0]["puzzle"]
    # A 256-byte text that is no board widens nothing; a 16x16 board widens to S256.
    assert sudoku_batch.classify([classic, "x" * 256])["solution"].dtype == np.dtype("S81")
    mixed = sudoku_batch.classify([classic, board, "x" * 625])
    assert mixed["solution"].dtype == np.dtype("S256")
    assert len(mixed["solution"][1]) == 256 and len(mixed["solution"][0]) == 81
    assert list(mixed["status"]) == ["unique", "unique", "invalid"]
    # The arrays are the caller's own, as NumPy arrays usually are.
    mixed["solution"][0] = b""
    mixed["status"][0] = "unsolvable"
    with pytest.raises(ValueError, match="surrogate"):
        sudoku_batch.classify(["\ud800" * 81])


@pytest.mark.parametrize("kind", ["gz", "zst", "npy", "parquet"])
def test_classify_file_reads_every_input_the_cli_reads(tmp_path, kind):
    import gzip
    import pyarrow as pa
    source = ROOT / "data" / "graded.csv"
    if kind == "gz":
        path = tmp_path / "graded.csv.gz"
        path.write_bytes(gzip.compress(source.read_bytes()))
    elif kind == "zst":
        path = tmp_path / "graded.csv.zst"
        path.write_bytes(pa.compress(source.read_bytes(), codec="zstd", asbytes=True))
    elif kind == "npy":
        path = tmp_path / "puzzles.npy"
        lines = (ROOT / "data" / "minimal.txt").read_text().split()[:500]
        np.save(path, np.array([[0 if c == "." else int(c) for c in p] for p in lines],
                               dtype=np.uint8))
    else:
        path = ROOT / "data" / "parquet" / "graded-first2000.snappy.parquet"
    rows = tmp_path / "rows.csv"
    report = sudoku_batch.classify_file(path, threads=2, output=str(rows))
    cli = subprocess.run([str(BINARY), "classify", str(path), "--threads", "2", "-q"],
                         check=True, capture_output=True).stdout
    assert rows.read_bytes() == cli
    assert report["records"] == report["counts"]["unique"] > 0
    assert report["input"].startswith(str(path))


def test_audit_gives_the_clis_numbers(tmp_path):
    path = ROOT / "data" / "easy-50.txt"
    puzzles = [line.strip() for line in path.read_text().splitlines() if line.strip()]
    cli = json.loads(subprocess.run([str(BINARY), "audit", str(path), "-q", "--json", "-"],
                                    capture_output=True, check=True).stdout)
    got = sudoku_batch.audit(puzzles)
    for section in ("validity", "duplicates", "shape"):
        assert got[section] == cli[section], section
    assert got["verdict"] == cli["verdict"]
    assert not got["verdict"]["sound"] and got["duplicates"]["first_identical"] == [[41, 9]]
    # The same from an (n, 81) array of cell values.
    cells = np.array([[0 if c in ".0" else int(c) for c in p] for p in puzzles], dtype=np.uint8)
    assert sudoku_batch.audit(cells)["duplicates"] == got["duplicates"]
    # Leakage into another list, and ratings with grade=True.
    leaked = sudoku_batch.audit(puzzles[:10], against=[puzzles[5:7]], grade=True)
    assert leaked["leakage"][0]["records"] == 2
    assert [pair[0] for pair in leaked["leakage"][0]["first"]] == [6, 7]
    assert sum(n for _, n in leaked["shape"]["levels"]) == 10
    assert leaked["provenance"]["inputs"][0]["records"] == 10
    # The share of minimal puzzles, as the CLI's --minimality gives it.
    minimal = (ROOT / "data" / "minimal.txt").read_text().splitlines()[:20]
    mixed = minimal + puzzles[:20]
    cli_path = tmp_path / "mixed.txt"
    cli_path.write_text("\n".join(mixed) + "\n")
    cli = json.loads(subprocess.run([str(BINARY), "audit", str(cli_path), "-q", "--json", "-",
                                     "--minimality"], capture_output=True, check=True).stdout)
    got = sudoku_batch.audit(mixed, minimality=True)["shape"]["minimality"]
    assert got == cli["shape"]["minimality"]
    assert got["checked"] == 40 and got["minimal"] == 20 and got["first_not_minimal"][0] == 21
    assert sudoku_batch.audit(mixed)["shape"]["minimality"] is None
