#!/usr/bin/env bash
# Times `classify` end to end on one corpus as users hold it: the plain file (mapped),
# the same bytes on stdin, gzip, zstd and xz copies, and a Parquet file of one `puzzle`
# column written by pyarrow (its defaults: snappy, one row group; skipped without it). Runs are
# interleaved (one of each per round) and each format's median is printed with its
# ratio to the mapped file, then each decoder's own rate on one core (the system's
# gzip/zstd/xz tools, for scale).
# Needs gzip, zstd and xz on the PATH.
# Usage: [ROUNDS=9] [THREADS=2] scripts/compressed-bench.sh [CORPUS]
#   (default CORPUS: target/corpus/corpus-1000000.txt, made by scripts/make-corpus.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-9}
threads=${THREADS:-2}
corpus=${1:-target/corpus/corpus-1000000.txt}
if [ ! -f "$corpus" ]; then
    [ "$corpus" = target/corpus/corpus-1000000.txt ] || { echo "no file $corpus" >&2; exit 2; }
    scripts/make-corpus.sh target/corpus 1000000
fi
for tool in gzip zstd xz; do
    command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 2; }
done
# SUDOKU_BATCH names a prebuilt binary (a machine without Rust); else it is built here.
bin=${SUDOKU_BATCH:-target/release/sudoku-batch}
[ -n "${SUDOKU_BATCH:-}" ] || cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gzip -c "$corpus" > "$work/in.gz"
zstd -q -c "$corpus" > "$work/in.zst"
xz -T0 -c "$corpus" > "$work/in.xz"
formats=(mapped stdin gz zst xz)
if python3 -c 'import pyarrow' 2>/dev/null; then
    python3 - "$corpus" "$work/in.parquet" <<'PY'
import sys
import pyarrow as pa, pyarrow.parquet as pq
with open(sys.argv[1]) as f:
    puzzles = [line.rstrip("\n") for line in f]
pq.write_table(pa.table({"puzzle": puzzles}), sys.argv[2])
PY
    formats+=(parquet)
else
    echo "(no pyarrow: Parquet left out)" >&2
fi

# Wall seconds of one run, as the tool's own summary gives it.
run() {
    "$bin" classify --threads "$threads" -o /dev/null "$@" 2>&1 >/dev/null |
        awk '/ s wall/ { print $1 }'
}
for ((r = 0; r < rounds; r++)); do
    run "$corpus" >> "$work/t.mapped"
    run - < "$corpus" >> "$work/t.stdin"
    run "$work/in.gz" >> "$work/t.gz"
    run "$work/in.zst" >> "$work/t.zst"
    run "$work/in.xz" >> "$work/t.xz"
    if [ -f "$work/in.parquet" ]; then run "$work/in.parquet" >> "$work/t.parquet"; fi
done
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
base=$(median "$work/t.mapped")
bytes=$(stat -c %s "$corpus")
echo "$(wc -l < "$corpus") records, $bytes bytes, $threads threads, $rounds rounds (median wall s)"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')," \
    "family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')" \
    "model $(grep -m1 '^model[[:space:]]' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')"
for f in "${formats[@]}"; do
    m=$(median "$work/t.$f")
    size=$bytes
    if [ -f "$work/in.$f" ]; then size=$(stat -c %s "$work/in.$f"); fi
    awk -v f="$f" -v m="$m" -v b="$base" -v s="$size" \
        'BEGIN { printf "%-8s %7.3f s  %5.2fx  (%d bytes)\n", f, m, b / m, s }'
done
for pair in gzip:gz zstd:zst xz:xz; do
    tool=${pair%:*}
    f=$work/in.${pair#*:}
    start=$(date +%s.%N)
    "$tool" -dc "$f" > /dev/null
    end=$(date +%s.%N)
    awk -v t="$tool" -v b="$bytes" -v s="$start" -v e="$end" \
        'BEGIN { printf "%s -dc alone: %.0f MB/s of output\n", t, b / (e - s) / 1e6 }'
done
