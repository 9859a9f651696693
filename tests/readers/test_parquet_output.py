"""Parquet output read back by pandas, polars and DuckDB: the same values as the CSV.

The binary is $SUDOKU_BATCH_BIN, else the release build (`cargo build --release`)."""

import os
import subprocess
from pathlib import Path

import duckdb
import pandas as pd
import polars as pl
import pytest

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("SUDOKU_BATCH_BIN", ROOT / "target" / "release" / "sudoku-batch"))
INPUT = ROOT / "data" / "graded.csv"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("parquet-out")
    paths = {}
    for ext in ("csv", "parquet"):
        path = tmp / f"graded.{ext}"
        subprocess.run(
            [str(BINARY), "grade", str(INPUT), "--keep-columns", "--record-index",
             "-q", "-o", str(path)],
            check=True,
        )
        paths[ext] = path
    return paths


def csv_frame(path):
    # Every column as text, so that the comparison is of the values the CSV holds.
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def same(frame, want):
    assert list(frame.columns) == list(want.columns)
    assert len(frame) == len(want) == 2000
    for column in want.columns:
        got = ["" if v is None or (isinstance(v, float) and v != v) else v
               for v in frame[column].tolist()]
        expected = want[column].tolist()
        if column in ("line", "record"):
            got = [str(int(v)) for v in got]
        elif column in ("rating", "pearl", "diamond"):
            got = [float(v) for v in got]
            expected = [float(v) for v in expected]
        elif column == "mismatch":
            # A boolean column; the CSV writes true, false or nothing.
            got = [v if v == "" else str(bool(v)).lower() for v in got]
        assert got == expected, column


def test_pandas_reads_typed_columns(outputs):
    frame = pd.read_parquet(outputs["parquet"])
    assert str(frame["line"].dtype) == "uint64"
    assert str(frame["record"].dtype) == "uint64"
    assert str(frame["rating"].dtype) == "float64"
    same(frame, csv_frame(outputs["csv"]))


def test_polars_reads_the_same_values(outputs):
    frame = pl.read_parquet(outputs["parquet"])
    assert frame.schema["line"] == pl.UInt64
    assert frame.schema["rating"] == pl.Float64
    same(frame.to_pandas(), csv_frame(outputs["csv"]))


def test_duckdb_reads_the_same_values(outputs):
    path = str(outputs["parquet"]).replace("'", "''")
    frame = duckdb.sql(f"select * from read_parquet('{path}')").df()
    same(frame, csv_frame(outputs["csv"]))
    counts = duckdb.sql(
        f"select status, count(*) from read_parquet('{path}') group by status"
    ).fetchall()
    assert counts == [("unique", 2000)]
