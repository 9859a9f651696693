#!/usr/bin/env bash
# tdoku beside sudoku-batch one puzzle at a time: each puzzle of FILE is repeated
# COPIES times (default 2000) into a file of its own, and both tools count it to two
# solutions on one thread, so each sees the same puzzle over and over and its branch
# predictor learns it. Set against scripts/tdoku-peers.sh (a stream of different
# puzzles), the difference is what branch prediction costs each tool. Prints the
# puzzles where we are furthest behind, and the total time for one copy of each.
# Runs tdoku through ../shared/tools/tdoku-bench.sh (TDOKU_RUN_BENCHMARK names your own
# build of it), as tdoku-peers.sh does.
# FILE: one puzzle per line (first 81 characters, "." or "0" empty; "#" lines skipped).
# Usage: [COPIES=n] [SHOW=n] scripts/tdoku-per-puzzle.sh FILE   (about 4 min for 95 puzzles)
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${TDOKU_BENCH:-../shared/tools/tdoku-bench.sh}
[ -x "$tool" ] || { echo "no $tool: tdoku's bench tool lives in the project's shared folder" >&2; exit 2; }
[ $# -eq 1 ] || { sed -n 2,10p "$0"; exit 2; }
copies=${COPIES:-2000}
cargo build --release --quiet
bin=target/release/sudoku-batch
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
grep -v '^#' "$1" | cut -c1-81 | grep -E '^[0-9.]{81}$' > "$work/puzzles" || true
n=0
while read -r puzzle; do
  n=$((n + 1))
  awk -v p="$puzzle" -v n="$copies" 'BEGIN { for (i = 0; i < n; i++) print p }' > "$work/one"
  theirs=$("$tool" --seconds 1 "$work/one" | tail -1 | cut -f2,5)
  ours=$("$bin" bench "$work/one" --threads 1 --mode count --rounds 5 --warmup 1 \
    --report /dev/stderr 2>&1 >/dev/null | python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
print(r["results"][0]["puzzles_per_sec"]["median"], r["effort"]["guesses_per_puzzle"], sep="\t")')
  printf '%s\t%s\t%s\t%s\n' "$n" "$theirs" "$ours" "$puzzle"
done < "$work/puzzles" > "$work/rows"
python3 - "$work/rows" "${SHOW:-10}" <<'PY'
import sys
rows = []
for line in open(sys.argv[1]):
    n, t_rate, t_guess, o_rate, o_guess, puzzle = line.rstrip("\n").split("\t")
    rows.append((int(n), float(t_rate), float(t_guess), float(o_rate), float(o_guess), puzzle))
t_us = sum(1e6 / r[1] for r in rows)
o_us = sum(1e6 / r[3] for r in rows)
print(f"{len(rows)} puzzles, each repeated: tdoku {t_us:,.1f} us, sudoku-batch {o_us:,.1f} us "
      f"for one of each; ours / tdoku {t_us / o_us:.2f}")
print("| # | tdoku /s | sudoku-batch /s | ours / tdoku | us behind | guesses tdoku / ours | puzzle |")
print("|--:|--:|--:|--:|--:|--:|---|")
worst = sorted(rows, key=lambda r: 1 / r[1] - 1 / r[3])[: int(sys.argv[2])]
for n, tr, tg, orate, og, p in worst:
    print(f"| {n} | {tr:,.0f} | {orate:,.0f} | {orate / tr:.2f} | {1e6 / orate - 1e6 / tr:.1f} "
          f"| {tg:.0f} / {og:.0f} | `{p}` |")
PY
