#!/usr/bin/env bash
# Runs the criterion solver benchmark (ours, the `sudoku` crate, msolve on the same
# puzzles in one run) and prints a markdown table of puzzles/s and ratios to the peers.
# Usage: scripts/peers.sh [--no-run]   (--no-run: only summarise the last results)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--no-run" ]; then
    cargo bench --bench solver >&2
fi
python3 - <<'PY'
import json, pathlib
root = pathlib.Path("target/criterion")
rows = {}
for bench in root.glob("*/*/new/benchmark.json"):
    meta = json.loads(bench.read_text())
    est = json.loads((bench.parent / "estimates.json").read_text())
    n = meta["throughput"]["Elements"]
    rate = n / (est["median"]["point_estimate"] / 1e9)
    mode, dataset = meta["group_id"].split("/", 1)
    rows.setdefault((dataset, mode), {})[meta["value_str"]] = rate
print("| dataset | mode | sudoku-batch /s | sudoku crate /s | msolve /s | ours / sudoku | ours / msolve |")
print("|---|---|---:|---:|---:|---:|---:|")
for (dataset, mode), r in sorted(rows.items()):
    if not {"sudoku-batch", "sudoku-crate", "msolve"} <= r.keys():
        continue
    ours = r["sudoku-batch"]
    print(f"| {dataset} | {mode} | {ours:,.0f} | {r['sudoku-crate']:,.0f} | {r['msolve']:,.0f} "
          f"| {ours / r['sudoku-crate']:.2f} | {ours / r['msolve']:.2f} |")
PY
