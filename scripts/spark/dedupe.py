#!/usr/bin/env python3
"""Deduplicate a puzzle dataset on Spark, up to equivalence, past one machine's memory.

    python scripts/spark/dedupe.py INPUT OUTDIR [--by canonical|text] [--master local[2]]
                                   [--binary PATH] [--partitions N]
    spark-submit scripts/spark/dedupe.py INPUT OUTDIR ...

INPUT is any path Spark reads as text: one puzzle per line, or CSV with a header and a
puzzle column (without quoted newlines). The binary is shipped with the job; each
partition is piped through

    sudoku-batch canon - --no-header --quiet --threads 1 --first-line N

(N: the partition's first line in the whole input, from a first pass that counts each
partition's lines), so every record gets its canonical form, computed in the binary,
and the line a single process would give it. Spark then groups records by key (the
canonical form, or with --by text the cells as read; a malformed record by its text,
as `sudoku-batch dedupe` does) and keeps each class's first line. Nothing but the
(line, key) pairs and the kept lines crosses the cluster; no machine holds all classes.

Output, in OUTDIR:
- kept/part-NNNNN: the lines before the first record (a CSV header, comments), then the
  first record of each class, in input order (read the parts in name order);
- rows/part-NNNNN: `line,duplicate_of` for every record, in line order, as
  `sudoku-batch dedupe --rows` writes them (no header);
- report.json: records, classes, duplicates, malformed records and the ten largest
  classes, as `dedupe --report` gives them.

Line ends come back as `\\n` (Spark's text reader drops `\\r`). The result is the same
as `sudoku-batch dedupe` on one machine: the same classes, the same kept records.
"""
import argparse
import csv
import io
import json
import os
import subprocess
import sys

from pyspark import SparkFiles
from pyspark.sql import SparkSession

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LARGEST = 10


def count_lines(index, lines):
    """Lines per partition (for each partition's first line number)."""
    return [(index, sum(1 for _ in lines))]


def key_partition(binary_name, first_lines, by):
    """A function for mapPartitionsWithIndex: pipes the partition's lines through
    `sudoku-batch canon` and gives (line, key) for each record in it."""

    def run(index, lines):
        text = "".join(line + "\n" for line in lines).encode()
        if not text:
            return []
        exe = SparkFiles.get(binary_name)
        os.chmod(exe, 0o755)
        cmd = [exe, "canon", "-", "--no-header", "--quiet", "--threads", "1",
               "--first-line", str(first_lines[index])]
        done = subprocess.run(cmd, input=text, capture_output=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"sudoku-batch failed: {done.stderr.decode().strip()}")
        pairs = []
        # line,puzzle,solution,status,reason,mismatch,canonical,automorphisms
        for row in csv.reader(io.StringIO(done.stdout.decode())):
            line, puzzle, canonical = int(row[0]), row[1], row[6]
            if not canonical:
                key = "x" + puzzle  # malformed: its text
            elif by == "canonical":
                key = "c" + canonical
            else:
                key = "t" + puzzle.replace("0", ".")
            pairs.append((line, key))
        return pairs

    return run


def number_lines(first_lines):
    """A function for mapPartitionsWithIndex: each line with its number in the input."""

    def run(index, lines):
        return ((first_lines[index] + i, line) for i, line in enumerate(lines))

    return run


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("outdir")
    parser.add_argument("--by", choices=["canonical", "text"], default="canonical")
    parser.add_argument("--master", help="Spark master, e.g. local[2] (default: spark-submit's)")
    parser.add_argument("--binary", default=os.path.join(ROOT, "target/release/sudoku-batch"))
    parser.add_argument("--partitions", type=int, help="partitions (default: Spark's parallelism)")
    args = parser.parse_args(argv)
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"{args.binary}: no such executable; build it with cargo build --release")

    builder = SparkSession.builder.appName("sudoku-batch dedupe")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    sc.addFile(args.binary)
    name = os.path.basename(args.binary)

    lines = sc.textFile(args.input, args.partitions)
    counts = dict(lines.mapPartitionsWithIndex(count_lines).collect())
    first_lines, total = {}, 0
    for index in sorted(counts):
        first_lines[index] = total + 1
        total += counts[index]
    keyed = lines.mapPartitionsWithIndex(key_partition(name, first_lines, args.by)).cache()

    # Each class: its first line and its size.
    classes = keyed.map(lambda lk: (lk[1], (lk[0], 1))).reduceByKey(
        lambda a, b: (min(a[0], b[0]), a[1] + b[1])).cache()
    # Every record with the first line of its class.
    firsts = classes.map(lambda kv: (kv[0], kv[1][0]))
    with_first = keyed.map(lambda lk: (lk[1], lk[0])).join(firsts).map(lambda kv: kv[1])
    sorted_rows = with_first.sortByKey(numPartitions=lines.getNumPartitions())
    sorted_rows.map(lambda lf: f"{lf[0]}," + ("" if lf[0] == lf[1] else str(lf[1]))) \
        .saveAsTextFile(os.path.join(args.outdir, "rows"))

    # The lines before the first record, then the kept records, in input order.
    first_record = keyed.map(lambda lk: lk[0]).min() if total else None
    kept_lines = classes.map(lambda kv: (kv[1][0], None))
    numbered = lines.mapPartitionsWithIndex(number_lines(first_lines))
    prelude = numbered.filter(lambda nl: first_record is None or nl[0] < first_record)
    kept = numbered.join(kept_lines).map(lambda kv: (kv[0], kv[1][0])).union(prelude)
    kept.sortByKey(numPartitions=lines.getNumPartitions()).map(lambda nl: nl[1]) \
        .saveAsTextFile(os.path.join(args.outdir, "kept"))

    records = keyed.count()
    n_classes = classes.count()
    malformed = keyed.filter(lambda lk: lk[1].startswith("x")).count()
    largest = classes.filter(lambda kv: kv[1][1] > 1).map(lambda kv: kv[1]) \
        .takeOrdered(LARGEST, key=lambda fs: (-fs[1], fs[0]))
    report = {
        "command": "dedupe",
        "input": args.input,
        "by": args.by,
        "records": records,
        "classes": n_classes,
        "duplicates": records - n_classes,
        "malformed": malformed,
        "largest": [{"first_line": f, "size": s} for f, s in largest],
    }
    with open(os.path.join(args.outdir, "report.json"), "w") as f:
        json.dump(report, f, indent=2)
    spark.stop()


if __name__ == "__main__":
    main()
