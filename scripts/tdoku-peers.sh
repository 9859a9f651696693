#!/usr/bin/env bash
# tdoku and the `sudoku` crate beside sudoku-batch, one thread, same puzzles, same
# run: puzzles/s and guesses/puzzle for counting to two (as classify does) and for
# the first solution. Each (set, mode) is timed REPEAT times (default 3), the three
# interleaved, and the best of each kept (tdoku's rate over 3 s; ours and the crate's
# median round, the crate by examples/sudoku_crate_bench.rs): a shared machine's noise
# only ever slows a run down.
# tdoku is run as a black box through ../shared/tools/tdoku-bench.sh (TDOKU_BENCH), which
# needs TDOKU_RUN_BENCHMARK: a tdoku `run_benchmark` binary that you built yourself from a
# copy kept outside the project (nothing of tdoku is part of it; see ../shared/peers).
# Usage: [REPEAT=n] TDOKU_RUN_BENCHMARK=... scripts/tdoku-peers.sh [FILE...]
#        (default: the public sets of ../shared/data)
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${TDOKU_BENCH:-../shared/tools/tdoku-bench.sh}
[ -x "$tool" ] || { echo "no $tool: tdoku's runner lives in the project's shared folder" >&2; exit 2; }
[ -x "${TDOKU_RUN_BENCHMARK:-${TMPDIR:-/tmp}/tdoku-build/bin/run_benchmark}" ] ||
  { echo "no tdoku run_benchmark: set TDOKU_RUN_BENCHMARK to a build of your own (see ../shared/peers/README.md)" >&2; exit 2; }
repeat=${REPEAT:-3}
# SUDOKU_BATCH and CRATE_BENCH name prebuilt binaries (a machine without Rust); else
# both are built here. TDOKU_SECONDS sets tdoku's timing per run in whole seconds (default 3).
bin=${SUDOKU_BATCH:-target/release/sudoku-batch}
crate_bin=${CRATE_BENCH:-target/release/examples/sudoku_crate_bench}
[ -n "${SUDOKU_BATCH:-}" ] || cargo build --release --quiet
[ -n "${CRATE_BENCH:-}" ] || cargo build --release --quiet --example sudoku_crate_bench
secs=${TDOKU_SECONDS:-3}
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(../shared/data/royle-17-clue.txt ../shared/data/kaggle-1m-first10k.csv
    ../shared/data/sudoku-exchange-diabolical.txt ../shared/data/sudoku-exchange-hard-with-solutions.txt
    ../shared/data/magictour-top1465.txt ../shared/data/norvig-top95.txt ../shared/data/forum-hardest-1106.txt
    ../shared/data/multi-solution-20k.txt)
echo "| set | mode | tdoku /s | sudoku crate /s | sudoku-batch /s | ours / tdoku | ours / crate | guesses/puzzle tdoku / ours |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for f in "${files[@]}"; do
  [ -f "$f" ] || continue
  for mode in count solve; do
    flag=(); [ $mode = solve ] && flag=(--solve)
    # A short file is repeated to 20,000 lines or more for both tools: a round of 95
    # puzzles is over in under a millisecond, where our bench's per-round start-up shows
    # (tdoku loops over its puzzles in one process either way). Each copy is shuffled
    # (fixed seed; see scripts/repeat-shuffled.py): repeated in order, a period of 95
    # puzzles let a branch predictor learn the stream.
    src=$f; n=$(wc -l < "$f")
    if [ "$n" -lt 20000 ]; then
      src="${TMPDIR:-/tmp}/tdoku-peers.$$.$(basename "$f")"
      python3 scripts/repeat-shuffled.py "$f" "$src" 20000
      n=$(wc -l < "$src")
    fi
    rounds=$(( 100000 / (n + 1) )); rounds=$(( rounds < 3 ? 3 : rounds ))
    theirs=(); crate=()
    for _ in $(seq "$repeat"); do
      theirs+=("$("$tool" --seconds "$secs" "${flag[@]}" "$src" | tail -1)")
      crate+=("$("$crate_bin" "$src" $mode $rounds | cut -f2)")
      "$bin" bench "$src" --threads 1 --mode $mode --rounds $rounds --warmup 1 \
        --report /dev/stderr 2>&1 >/dev/null | tr -d '\n'
      echo
    done > "${TMPDIR:-/tmp}/tdoku-peers.$$"
    CRATE="${crate[*]}" python3 - "$f" "$mode" "${TMPDIR:-/tmp}/tdoku-peers.$$" "${theirs[@]}" <<'PY'
import json, os, sys
f, mode, ours_file = sys.argv[1:4]
c_rate = max(float(x) for x in os.environ["CRATE"].split())
t = [row.split("\t") for row in sys.argv[4:]]
t_rate = max(float(row[1]) for row in t)
t_guess = float(t[0][4])
reports = [json.loads(line) for line in open(ours_file) if line.strip()]
ours = max(r["results"][0]["puzzles_per_sec"]["median"] for r in reports)
g = reports[0]["effort"]["guesses_per_puzzle"]
name = f.split("/")[-1]
print(f"| {name} | {mode} | {t_rate:,.0f} | {c_rate:,.0f} | {ours:,.0f} | {ours / t_rate:.2f} "
      f"| {ours / c_rate:.2f} | {t_guess:.2f} / {g:.2f} |")
PY
    rm -f "${TMPDIR:-/tmp}/tdoku-peers.$$"
    [ "$src" = "$f" ] || rm -f "$src"
  done
done
