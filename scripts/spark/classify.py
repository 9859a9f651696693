#!/usr/bin/env python3
"""Classify a puzzle dataset on Spark with the sudoku-batch binary.

    python scripts/spark/classify.py INPUT OUTDIR [--master local[2]] [--binary PATH]
                                     [--parquet] [--partitions N]
    spark-submit scripts/spark/classify.py INPUT OUTDIR ...

When INPUT is a file every executor can read (local mode, a shared file system), each
task runs the binary on one byte-range shard of it (`--shard I/N`) and writes that
shard's rows to OUTDIR/rows/part-NNNNN.csv itself: no record passes through Python or
the JVM, only the reports do. Otherwise (or with --stream) INPUT is any path Spark reads as
text (one puzzle per line, or CSV with a header and a puzzle column, without quoted
newlines). The binary is shipped with the job (SparkContext.addFile); each partition is
piped through

    sudoku-batch classify - --no-header --quiet --threads 1 --first-line N --report-line

where N is the partition's first line in the whole input (a first pass counts each
partition's lines), so rows carry the line numbers a single process would give. Each
partition's rows travel back as one string, so Python does no work per row. The driver writes the rows under OUTDIR/rows/ (CSV
part files with the CLI's header each, or Parquet with --parquet) and merges the
partitions' reports with `sudoku-batch merge` into OUTDIR/report.json.

All the logic is in the binary: a cluster run and a local run give the same rows.
"""
import argparse
import csv
import io
import os
import subprocess
import sys
import tempfile

from pyspark import SparkFiles
from pyspark.sql import SparkSession

HEADER = "line,puzzle,solution,status,reason,mismatch"
REPORT = "#sudoku-batch-report "
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def count_lines(index, lines):
    """Lines per partition (for each partition's first line number)."""
    return [(index, sum(1 for _ in lines))]


def classify_partition(binary_name, first_lines, header):
    """A function for mapPartitionsWithIndex: pipes the partition's lines through the
    binary and gives back two elements, the partition's rows (one string, so that
    nothing is done per row in Python) and its report line."""

    def run(index, lines):
        text = "".join(line + "\n" for line in lines).encode()
        if not text:
            return []
        exe = SparkFiles.get(binary_name)
        os.chmod(exe, 0o755)
        cmd = [exe, "classify", "-", "--no-header", "--quiet", "--threads", "1",
               "--first-line", str(first_lines[index]), "--report-line"]
        done = subprocess.run(cmd, input=text, capture_output=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"sudoku-batch failed: {done.stderr.decode().strip()}")
        out = done.stdout.decode()
        cut = out.rfind(REPORT)
        rows, report = out[:cut], out[cut:].strip()
        return [(0, header + "\n" + rows.rstrip("\n")), (1, report)]

    return run


def classify_shard(binary_name, path, count, header, rows_dir):
    """A function for flatMap over shard numbers: the binary reads its shard of a file
    every executor can see (local or shared file system) straight from disk. With
    `rows_dir` it also writes the shard's rows there itself (part-NNNNN.csv, header
    first) and only the report comes back; else the rows come back as one string."""

    def run(index):
        exe = SparkFiles.get(binary_name)
        os.chmod(exe, 0o755)
        cmd = [exe, "classify", path, "--shard", f"{index}/{count}", "--quiet",
               "--threads", "1", "--report-line"]
        if rows_dir:
            cmd += ["-o", os.path.join(rows_dir, f"part-{index - 1:05d}.csv")]
        else:
            cmd += ["--no-header"]
        done = subprocess.run(cmd, capture_output=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"sudoku-batch failed: {done.stderr.decode().strip()}")
        if rows_dir:
            part = os.path.join(rows_dir, f"part-{index - 1:05d}.csv")
            with open(part, "rb+") as f:
                # The report line ends the file: move it out, keep the rows.
                data = f.read()
                cut = data.rfind(REPORT.encode())
                f.seek(cut)
                f.truncate()
            return [(1, data[cut:].decode().strip())]
        out = done.stdout.decode()
        cut = out.rfind(REPORT)
        rows, report = out[:cut], out[cut:].strip()
        return [(0, header + "\n" + rows.rstrip("\n")), (1, report)]

    return run


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("input")
    parser.add_argument("outdir")
    parser.add_argument("--master", help="Spark master, e.g. local[2] (default: spark-submit's)")
    parser.add_argument("--binary", default=os.path.join(ROOT, "target/release/sudoku-batch"))
    parser.add_argument("--parquet", action="store_true", help="write rows as Parquet")
    parser.add_argument("--partitions", type=int, help="partitions (default: Spark's parallelism)")
    parser.add_argument("--stream", action="store_true",
                        help="send the lines through Spark even when INPUT is a local file")
    args = parser.parse_args(argv)
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"{args.binary}: no such executable; build it with cargo build --release")

    builder = SparkSession.builder.appName("sudoku-batch classify")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    sc.addFile(args.binary)
    name = os.path.basename(args.binary)

    local = os.path.isfile(args.input) and not args.stream
    if local:
        # Every executor sees the file: each task has the binary read one byte-range
        # shard of it (cut at record boundaries, line numbers of the whole file).
        count = args.partitions or sc.defaultParallelism
        path = os.path.abspath(args.input)
        direct = None
        if not args.parquet:
            direct = os.path.abspath(os.path.join(args.outdir, "rows"))
            os.makedirs(direct, exist_ok=True)
        shards = sc.parallelize(range(1, count + 1), count)
        out = shards.flatMap(classify_shard(name, path, count, HEADER, direct)).cache()
    else:
        lines = sc.textFile(args.input, args.partitions)
        counts = dict(lines.mapPartitionsWithIndex(count_lines).collect())
        first_lines, total = {}, 0
        for index in sorted(counts):
            first_lines[index] = total + 1
            total += counts[index]
        out = lines.mapPartitionsWithIndex(classify_partition(name, first_lines, HEADER)).cache()
    rows = out.filter(lambda kv: kv[0] == 0).map(lambda kv: kv[1])
    reports = out.filter(lambda kv: kv[0] == 1).map(lambda kv: kv[1]).collect()

    rows_dir = os.path.join(args.outdir, "rows")
    if args.parquet:
        schema = ("line long, puzzle string, solution string, status string, reason string, "
                  "mismatch boolean")
        parsed = rows.flatMap(lambda text: list(csv.reader(io.StringIO(text)))[1:]).map(
            lambda f: (int(f[0]), f[1], f[2] or None, f[3], f[4] or None, f[5] == "true"))
        spark.createDataFrame(parsed, schema).write.mode("overwrite").parquet(rows_dir)
    elif not local:
        # One element per partition, written as is: the header and that partition's rows.
        rows.saveAsTextFile(rows_dir)

    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, line in enumerate(reports):
            path = os.path.join(tmp, f"part-{i:05d}.json")
            with open(path, "w") as f:
                f.write(line[len(REPORT):])
            paths.append(path)
        target = os.path.join(args.outdir, "report.json")
        if paths:
            subprocess.run([args.binary, "merge", "--quiet", "-o", target, *paths], check=True)
    spark.stop()


if __name__ == "__main__":
    main()
