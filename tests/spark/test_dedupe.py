"""The Spark dedupe job (scripts/spark/dedupe.py) in local mode: the same classes, kept
records and per-record rows as the single-process `sudoku-batch dedupe`."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = pathlib.Path(os.environ.get("SUDOKU_BATCH_BIN", ROOT / "target" / "release" / "sudoku-batch"))
SCRIPT = ROOT / "scripts" / "spark" / "dedupe.py"


def parts(directory):
    return "".join(p.read_text() for p in sorted(directory.glob("part-*")))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Isomorphs of the 100 extreme puzzles (100 classes) with exact repeats and two malformed lines."""
    path = tmp_path_factory.mktemp("corpus") / "corpus.txt"
    made = subprocess.run([str(BINARY), "corpus", "--from", str(ROOT / "data" / "extreme.txt"),
                           "--count", "1200", "--seed", "8"], check=True,
                          capture_output=True).stdout.decode().splitlines()
    lines = made[:600] + made[100:160] + ["not a puzzle"] + made[600:] + ["not a puzzle"]
    path.write_text("".join(line + "\n" for line in lines))
    return path


@pytest.mark.parametrize("name,by,partitions", [
    (None, "canonical", "4"),                           # the corpus above
    (None, "text", "3"),
    ("graded.csv", "canonical", "3"),    # CRLF CSV with a header
    ("cases.tsv", "canonical", "2"),          # every status, malformed records
])
def test_same_classes_as_one_process(tmp_path, corpus, name, by, partitions):
    path = corpus if name is None else ROOT / "data" / name
    out = tmp_path / "out"
    subprocess.run([sys.executable, str(SCRIPT), str(path), str(out), "--by", by,
                    "--master", "local[2]", "--binary", str(BINARY),
                    "--partitions", partitions], check=True, capture_output=True)
    rows_file, report_file = tmp_path / "rows.csv", tmp_path / "report.json"
    kept = subprocess.run([str(BINARY), "dedupe", str(path), "--by", by, "-q", "--rows",
                           str(rows_file), "--report", str(report_file)],
                          check=True, capture_output=True).stdout.decode()
    assert parts(out / "kept") == kept.replace("\r\n", "\n")
    want_rows = rows_file.read_text().split("\n", 1)[1]
    assert parts(out / "rows") == want_rows
    got, want = json.loads((out / "report.json").read_text()), json.loads(report_file.read_text())
    for key in ["records", "classes", "duplicates", "malformed", "largest"]:
        assert got[key] == want[key], key
    if name is None and by == "canonical":
        assert got["classes"] == 100 + 1
