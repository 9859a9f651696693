#!/usr/bin/env bash
# tdoku beside sudoku-batch, one thread, same puzzles, same session: puzzles/s and
# guesses/puzzle for counting to two (as classify does) and for the first solution.
# Needs the tdoku snapshot and its bench tool from the project's shared folder
# (../shared/tools/tdoku-bench.sh; cmake and clang: apt-get install -y cmake clang).
# Usage: scripts/tdoku-peers.sh [FILE...]   (default: the bundled sets)
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${TDOKU_BENCH:-../shared/tools/tdoku-bench.sh}
[ -x "$tool" ] || { echo "no $tool: tdoku's bench tool lives in the project's shared folder" >&2; exit 2; }
cargo build --release --quiet
bin=target/release/sudoku-batch
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(data/royle-17-clue.txt data/kaggle-1m-first10k.csv
    data/sudoku-exchange-diabolical.txt data/magictour-top1465.txt
    ../shared/data/forum-hardest-1106.txt)
echo "| set | mode | tdoku /s | sudoku-batch /s | ours / tdoku | guesses/puzzle tdoku / ours |"
echo "|---|---|---:|---:|---:|---:|"
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  for mode in count solve; do
    flag=(); [ $mode = solve ] && flag=(--solve)
    theirs=$("$tool" "${flag[@]}" "$f" | tail -1)
    python3 - "$f" "$mode" "$theirs" "$bin" <<'PY'
import json, subprocess, sys
f, mode, theirs, binary = sys.argv[1:5]
t = theirs.split("\t")
t_rate, t_guess = float(t[1]), float(t[4])
out = subprocess.run([binary, "bench", f, "--threads", "1", "--mode", mode, "--rounds", "5",
                      "--json", "/dev/stderr"], capture_output=True, text=True, check=True)
report = json.loads(out.stderr)
ours = report["results"][0]["puzzles_per_sec"]["median"]
g = report["effort"]["guesses_per_puzzle"]
name = f.split("/")[-1]
print(f"| {name} | {mode} | {t_rate:,.0f} | {ours:,.0f} | {ours / t_rate:.2f} | {t_guess:.2f} / {g:.2f} |")
PY
  done
done
