#!/usr/bin/env python3
"""The Python module against the CLI on one file, interleaved: the CLI run as a process
(`JOB --threads T FILE -o /dev/null`), then `sudoku_batch.JOB` on the file's records
loaded as a list of str, a pyarrow string array and an S81 array. Prints the medians
and the ratios CLI time / Python time (above 1: Python is faster).

    python scripts/bench-python.py CORPUS [--job classify] [--threads 2] [--rounds 7]

A corpus: `sudoku-batch corpus --from ../shared/data/kaggle-1m-first10k.csv --count 1000000
--seed 2 -o easy1m.txt` (one puzzle a line)."""
import argparse
import pathlib
import statistics
import subprocess
import time

import numpy as np
import pyarrow as pa

import sudoku_batch

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus")
    parser.add_argument("--job", default="classify", choices=["classify", "solve"])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--binary", default=str(ROOT / "target" / "release" / "sudoku-batch"))
    args = parser.parse_args()
    lines = pathlib.Path(args.corpus).read_text().split()
    inputs = {"list of str": lines, "pyarrow string": pa.array(lines),
              "S81 array": np.array(lines, dtype="S81")}
    run = getattr(sudoku_batch, args.job)
    times = {"CLI": []} | {name: [] for name in inputs}
    for _ in range(args.rounds):
        start = time.perf_counter()
        subprocess.run([args.binary, args.job, "--threads", str(args.threads), args.corpus,
                        "-o", "/dev/null"], check=True, stderr=subprocess.DEVNULL)
        times["CLI"].append(time.perf_counter() - start)
        for name, puzzles in inputs.items():
            start = time.perf_counter()
            run(puzzles, threads=args.threads)
            times[name].append(time.perf_counter() - start)
    cli = statistics.median(times["CLI"])
    print(f"{args.job}, {len(lines)} records, {args.threads} threads, "
          f"median of {args.rounds}:")
    for name, runs in times.items():
        median = statistics.median(runs)
        print(f"  {name:15} {median:.3f} s  {len(lines) / median / 1e6:5.2f}M/s  "
              f"{cli / median:.2f}x the CLI")


if __name__ == "__main__":
    main()
