#!/usr/bin/env bash
# Thread scaling of `classify` end to end (mapped input, rows in input order, a regular
# output file committed atomically), and into /dev/null at 1 and the most threads, on one
# corpus; then the solver alone (`bench --mode count`) on the same threads for the bound.
# For each thread count: wall seconds (best of the runs; 1 run at 1-2 threads, 3 above),
# records/s, speedup over one thread, and the run's CPU seconds (user + sys) over wall,
# which says how many cores were kept busy.
# Usage: [THREADS="1 2 4 8 16"] [BENCH_CORPUS=FILE] scripts/scaling-bench.sh [CORPUS]
#   (default CORPUS: target/corpus/corpus-10000000.txt, made by scripts/make-corpus.sh;
#    BENCH_CORPUS, default CORPUS, is the file the solver-alone rounds run on)
# SUDOKU_BATCH names a prebuilt binary (a machine without Rust); else it is built here.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-target/corpus/corpus-10000000.txt}
[ -f "$corpus" ] || { echo "no file $corpus (scripts/make-corpus.sh makes it)" >&2; exit 2; }
threads=(${THREADS:-1 2 4 8 16})
bench_corpus=${BENCH_CORPUS:-$corpus}
bin=${SUDOKU_BATCH:-target/release/sudoku-batch}
[ -n "${SUDOKU_BATCH:-}" ] || cargo build --release --quiet
out=$(mktemp -d "${TMPDIR:-/tmp}/scaling.XXXXXX")
trap 'rm -rf "$out"' EXIT

# One run: prints "wall cpu" in seconds (wall from the tool's summary: from opening the
# input to the output committed, its fsync and rename included; CPU from bash).
run() { # THREADS OUTPUT
    local log=$out/log
    TIMEFORMAT='%U %S'
    { time "$bin" classify "$corpus" --threads "$1" -o "$2" 2>"$log" >/dev/null; } 2>"$out/cpu"
    awk '/ s wall/ { w = $1 } END { printf "%s ", w }' "$log"
    awk '{ print $1 + $2 }' "$out/cpu"
}
best() { # THREADS OUTPUT RUNS -> "wall cpu" of the fastest run
    for _ in $(seq "$3"); do run "$1" "$2"; done | sort -n | head -1
}
records=$(wc -l < "$corpus")
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')," \
    "family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')" \
    "model $(grep -m1 '^model[[:space:]]' /proc/cpuinfo | cut -d: -f2 | tr -d ' '), $(nproc) cores"
echo "classify $corpus ($records records) --threads N -o FILE; $(date -u +%Y-%m-%d)"
echo
echo "| threads | output | wall | records/s | speedup | CPU s | busy cores |"
echo "|---:|---|---:|---:|---:|---:|---:|"
declare -A base
last=${threads[${#threads[@]}-1]}
for n in "${threads[@]}"; do
    runs=3; [ "$n" -le 2 ] && runs=1
    for target in file null; do
        [ $target = null ] && [ "$n" != 1 ] && [ "$n" != "$last" ] && continue
        dest=$out/rows.csv; [ $target = null ] && dest=/dev/null
        read -r wall cpu < <(best "$n" "$dest" "$runs")
        rm -f "$out/rows.csv"
        [ -n "${base[$target]:-}" ] || base[$target]=$wall
        awk -v n="$n" -v t="$target" -v w="$wall" -v c="$cpu" -v r="$records" -v b="${base[$target]}" \
            'BEGIN { printf "| %d | %s | %.3f s | %.0f | %.2f | %.2f | %.1f |\n",
                     n, (t == "file" ? "regular file" : "/dev/null"), w, r / w, b / w, c, c / w }'
    done
done
echo
echo "Solver alone: bench $bench_corpus --mode count --threads ${threads[*]} (median of 3 rounds)"
echo
"$bin" bench "$bench_corpus" --mode count --threads "$(IFS=,; echo "${threads[*]}")" \
    --rounds 3 --warmup 1 --markdown
