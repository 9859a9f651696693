#!/usr/bin/env bash
# Runs `sudoku-batch bench` over the bundled datasets and a generated 1M-puzzle corpus,
# for 1 thread and all cores, and prints one markdown table ready for the README.
# Usage: scripts/bench.sh [ROUNDS]      (default 5 timed rounds after 1 warm-up)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}
cores=$(nproc)
threads=1
[ "$cores" -gt 1 ] && threads="1,$cores"
# SUDOKU_BATCH names a prebuilt binary (a machine without Rust); else it is built here.
bin=${SUDOKU_BATCH:-target/release/sudoku-batch}
[ -n "${SUDOKU_BATCH:-}" ] || cargo build --release --quiet
corpus=target/corpus/corpus-1000000.txt
[ -f "$corpus" ] || scripts/make-corpus.sh target/corpus 1000000 >&2
run() { # FILE MODE
    "$bin" bench "$1" --mode "$2" --threads "$threads" --rounds "$rounds" --markdown | tail -n +3
}
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(date -u +%Y-%m-%d)"
echo "Command: scripts/bench.sh $rounds  (sudoku-batch bench --threads $threads --rounds $rounds, median of rounds)"
echo
"$bin" bench ../shared/data/norvig-top95.txt --rounds 1 --warmup 0 --threads 1 --markdown | head -n 2
for f in ../shared/data/royle-17-clue.txt ../shared/data/magictour-top1465.txt ../shared/data/kaggle-1m-first10k.csv; do
    run "$f" solve
    run "$f" count
done
for f in ../shared/data/kaggle-3m-curated5000.csv ../shared/data/sudoku-exchange-diabolical.txt "$corpus"; do
    run "$f" count
done
