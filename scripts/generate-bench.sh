#!/usr/bin/env bash
# Generation and grading against peers, in one run, as markdown for the README:
# minimal puzzles/s per thread (ours vs the `sudoku` crate, criterion), qqwing's
# generation and rating speed, a million puzzles end to end, grade rates, and a
# confusion table of our levels against qqwing's on qqwing-made puzzles.
# Installs qqwing with apt-get when it is missing (the tests do not need it).
# Usage: scripts/generate-bench.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
quick=${1:-}
command -v qqwing >/dev/null || { apt-get update -qq && apt-get install -y -qq qqwing; } >&2
cargo build --release --quiet
bin=target/release/sudoku-batch
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rate() { python3 -c "import sys; print(f'{$1 / $2:,.0f}')"; }
secs() { local s e; s=$(date +%s.%N); "$@" >/dev/null 2>&1; e=$(date +%s.%N); python3 -c "print($e - $s)"; }

echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(date -u +%Y-%m-%d)"
echo
echo "### Minimal puzzles per second, one thread (criterion, same run)"
echo
cargo bench --bench generate >&2
python3 - <<'PY'
import json, pathlib
rows = {}
for bench in pathlib.Path("target/criterion").glob("generate_minimal-*/*/new/benchmark.json"):
    meta = json.loads(bench.read_text())
    est = json.loads((bench.parent / "estimates.json").read_text())
    rate = meta["throughput"]["Elements"] / (est["median"]["point_estimate"] / 1e9)
    rows.setdefault(meta["group_id"].split("/")[1], {})[meta["value_str"]] = rate
print("| symmetry | sudoku-batch /s | sudoku crate /s | ratio |")
print("|---|---:|---:|---:|")
for sym, r in sorted(rows.items()):
    print(f"| {sym.replace('minimal-', '')} | {r['sudoku-batch']:,.0f} | {r['sudoku-crate']:,.0f} "
          f"| {r['sudoku-batch'] / r['sudoku-crate']:.2f} |")
PY
echo
n=${QQ_COUNT:-2000}; [ "$quick" = --quick ] && n=300
echo "### Generation through the command line"
echo
echo "| generator | puzzles | threads | seconds | puzzles/s |"
echo "|---|---:|---:|---:|---:|"
t=$(secs qqwing --generate "$n" --one-line); echo "| qqwing --generate --one-line | $n | 1 | ${t:0:5} | $(rate "$n" "$t") |"
t=$(secs qqwing --generate "$((n / 4))" --one-line --difficulty expert); echo "| qqwing ... --difficulty expert | $((n / 4)) | 1 | ${t:0:5} | $(rate "$((n / 4))" "$t") |"
m=$((n * 10))
for opts in "--output-format pairs" "--output-format csv" "--output-format csv --grade"; do
  for th in 1 2; do
    # shellcheck disable=SC2086 # the options are words
    t=$(secs "$bin" generate --count "$m" --threads "$th" $opts -o "$tmp/g")
    echo "| sudoku-batch generate $opts (minimal) | $m | $th | ${t:0:5} | $(rate "$m" "$t") |"
  done
done
big=1000000; [ "$quick" = --quick ] && big=50000
for fmt in pairs csv; do
  t=$(secs "$bin" generate --count "$big" --givens 30 --threads 2 --output-format "$fmt" -o "$tmp/big")
  echo "| sudoku-batch generate --givens 30 --output-format $fmt | $big | 2 | ${t:0:5} | $(rate "$big" "$t") |"
done
echo
echo "### Grading speed, one thread"
echo
echo "| file | puzzles | sudoku-batch grade /s | qqwing --solve --stats /s |"
echo "|---|---:|---:|---:|"
for f in ../shared/data/sudoku-exchange-easy-with-solutions.txt ../shared/data/sudoku-exchange-hard-with-solutions.txt \
         ../shared/data/kaggle-3m-curated5000.csv ../shared/data/magictour-top1465.txt; do
  "$bin" solve "$f" --quiet | tail -n +2 | cut -d, -f2 > "$tmp/p.txt"
  k=$(wc -l < "$tmp/p.txt")
  ours=$(secs "$bin" grade "$tmp/p.txt" --threads 1 -o /dev/null)
  theirs=$(secs sh -c "qqwing --solve --stats --one-line < $tmp/p.txt")
  echo "| $(basename "$f") | $k | $(rate "$k" "$ours") | $(rate "$k" "$theirs") |"
done
echo
echo "### Our levels against qqwing's, on $n qqwing-made puzzles"
echo
qqwing --generate "$n" --one-line --csv --stats --difficulty any > "$tmp/qq.csv"
tail -n +2 "$tmp/qq.csv" | cut -d, -f1 > "$tmp/qq.txt"
"$bin" grade "$tmp/qq.txt" --quiet -o "$tmp/ours.csv"
python3 - "$tmp/qq.csv" "$tmp/ours.csv" <<'PY'
import csv, sys, collections
theirs = [r["Difficulty"].lower() for r in csv.DictReader(open(sys.argv[1]))]
ours = [r["difficulty"] for r in csv.DictReader(open(sys.argv[2]))]
table = collections.Counter(zip(theirs, ours))
cols = ["easy", "medium", "hard", "expert", "extreme"]
print("| qqwing \\ ours | " + " | ".join(cols) + " |")
print("|---|" + "---:|" * len(cols))
for q in ["simple", "easy", "intermediate", "expert"]:
    print(f"| {q} | " + " | ".join(str(table[(q, c)]) for c in cols) + " |")
PY
echo
echo "### Ratings against Sukaku Explainer (scripts/grade-quality.py)"
echo
python3 scripts/grade-quality.py "$bin" "$([ "$quick" = --quick ] && echo 2000 || echo 0)"
