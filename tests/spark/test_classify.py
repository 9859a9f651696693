"""The Spark job (scripts/spark/classify.py) in local mode on bundled files: its rows
equal the single-process output and its merged report the single-process counts."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = pathlib.Path(os.environ.get("SUDOKU_BATCH_BIN", ROOT / "target" / "release" / "sudoku-batch"))
SCRIPT = ROOT / "scripts" / "spark" / "classify.py"


def single_process(path):
    out = subprocess.run([str(BINARY), "classify", str(path), "--no-header", "--quiet",
                          "--report", "/dev/stdout", "-o", "/dev/null"],
                         check=True, capture_output=True)
    report = json.loads(out.stdout)
    rows = subprocess.run([str(BINARY), "classify", str(path), "--no-header", "--quiet"],
                          check=True, capture_output=True).stdout.decode()
    return rows, report


def spark(path, outdir, *extra):
    subprocess.run([sys.executable, str(SCRIPT), str(path), str(outdir), "--master", "local[2]",
                    "--binary", str(BINARY), *extra], check=True, capture_output=True)


@pytest.mark.parametrize("name,partitions,mode", [
    ("hard.txt", "3", "--stream"),   # lines through Spark; comment lines
    ("quizzes.csv", "4", "--stream"),  # CSV with a header and solutions
    ("cases.tsv", "2", "--stream"),     # every status, reasons
    ("hard.txt", "3", None),         # shards read from disk by the binary
    ("graded.csv", "5", None),     # CRLF CSV
    ("cases.tsv", "3", None),
])
def test_rows_and_report_equal_one_process(tmp_path, name, partitions, mode):
    path = ROOT / "data" / name
    spark(path, tmp_path, "--partitions", partitions, *([mode] if mode else []))
    parts = sorted((tmp_path / "rows").glob("part-*"))
    assert len(parts) >= 2
    rows = ""
    for part in parts:
        text = part.read_text()
        header, _, body = text.partition("\n")
        assert header == "line,puzzle,solution,status,reason,mismatch"
        rows += body
    want_rows, want = single_process(path)
    assert rows == want_rows
    report = json.loads((tmp_path / "report.json").read_text())
    for key in ["records", "rows_written", "counts", "mismatches", "first_not_unique"]:
        assert report[key] == want[key], key


def test_parquet_rows(tmp_path):
    path = ROOT / "data" / "extreme.txt"
    spark(path, tmp_path, "--parquet", "--partitions", "2")
    from pyspark.sql import SparkSession
    session = SparkSession.builder.master("local[1]").getOrCreate()
    try:
        table = session.read.parquet(str(tmp_path / "rows")).orderBy("line").collect()
    finally:
        session.stop()
    want_rows, _ = single_process(path)
    want = [line.split(",") for line in want_rows.splitlines()]
    assert [(r.line, r.puzzle, r.solution, r.status) for r in table] == \
        [(int(w[0]), w[1], w[2], w[3]) for w in want]
