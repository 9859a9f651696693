"""CSV and NDJSON rows read back by pandas and polars as the README says to read them:
grids stay 81-character text (empty cells `.`, in `canonical` too), `mismatch` is
true, false or empty, and every input record is one row.

The binary is $SUDOKU_BATCH_BIN, else the release build (`cargo build --release`)."""

import json
import os
import subprocess
from pathlib import Path

import pandas as pd
import polars as pl
import pytest

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("SUDOKU_BATCH_BIN", ROOT / "target" / "release" / "sudoku-batch"))
# Puzzles with their solutions (`0` for empty cells), and records with several
# solutions, one malformed line among them.
QUIZZES = ROOT / "data" / "quizzes.csv"


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("text-out")
    source = tmp / "mixed.csv"
    lines = QUIZZES.read_text().splitlines()[:201]
    # A given solution that is not the puzzle's, and a malformed record.
    first = lines[1].split(",")
    wrong = first[1][:-2] + first[1][-1] + first[1][-2]
    lines += [f"{first[0]},{wrong}", "12x,"]
    source.write_text("\n".join(lines) + "\n")
    out = {}
    for ext in ("csv", "ndjson"):
        path = tmp / f"canon.{ext}"
        subprocess.run([str(BINARY), "canon", str(source), "-q", "-o", str(path)], check=True)
        out[ext] = path
    return out


def check(frame):
    assert len(frame) == 202
    valid = frame["status"] != "invalid"
    for column in ("puzzle", "solution", "canonical"):
        values = [v for v in frame[column][valid].tolist() if v not in ("", None)]
        assert values and all(isinstance(v, str) and len(v) == 81 for v in values), column
    assert frame["puzzle"][0].count(".") > 0 and "0" not in frame["puzzle"][0]
    assert frame["canonical"][0].startswith(".")
    assert frame["status"].tolist()[-1] == "invalid"


def test_pandas_reads_csv_rows_as_text(rows):
    frame = pd.read_csv(rows["csv"], dtype=str, keep_default_na=False)
    check(frame)
    assert frame["mismatch"].tolist()[-3:] == ["false", "true", ""]


def test_pandas_reads_ndjson_rows_as_text(rows):
    frame = pd.read_json(rows["ndjson"], lines=True, dtype=False)
    frame = frame.where(frame.notna(), None)
    check(frame)
    assert frame["mismatch"].tolist()[-3:] == [False, True, None]
    # The same values as the CSV, field for field.
    csv = pd.read_csv(rows["csv"], dtype=str, keep_default_na=False)
    for column in ("puzzle", "solution", "status", "canonical"):
        got = ["" if v is None or (isinstance(v, float) and v != v) else v for v in frame[column]]
        assert got == csv[column].tolist(), column


def test_polars_reads_csv_rows_as_text(rows):
    frame = pl.read_csv(rows["csv"], infer_schema=False).fill_null("").to_pandas()
    check(frame)
    # Every NDJSON line is one JSON object, one per record.
    assert sum(1 for line in rows["ndjson"].read_text().splitlines() if json.loads(line)) == 202
