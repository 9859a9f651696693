#!/usr/bin/env bash
# Builds the benchmark corpora by validity-preserving random transforms of real puzzles
# (see `sudoku-batch corpus --help`). Deterministic: same seed, same files.
# Usage: scripts/make-corpus.sh [OUTDIR] [SIZES...]   (default: target/corpus 1000000 10000000)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/corpus}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000000 10000000)
mkdir -p "$out"
# SUDOKU_BATCH names a prebuilt binary (a machine without Rust); else it is built here.
bin=${SUDOKU_BATCH:-target/release/sudoku-batch}
[ -n "${SUDOKU_BATCH:-}" ] || cargo build --release --quiet
# A mix of real sources: 17-clue, hard forum puzzles and easy Kaggle ones, in the
# proportions of one file each (transforms keep every puzzle unique).
mix="$out/sources.txt"
{
    awk '!/^#/ && n++ < 20000' ../shared/data/royle-17-clue.txt
    awk '!/^#/' ../shared/data/magictour-top1465.txt
    awk -F, 'NR > 1 { print $1 }' ../shared/data/kaggle-1m-first10k.csv
} > "$mix"
for n in "${sizes[@]}"; do
    "$bin" corpus "$mix" --count "$n" --seed 2026 -o "$out/corpus-$n.txt"
    echo "$out/corpus-$n.txt: $(wc -l < "$out/corpus-$n.txt") puzzles" >&2
done
