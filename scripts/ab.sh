#!/usr/bin/env bash
# Times two or more builds of sudoku-batch against each other on one thread, the way the
# solver's steps in the README were measured: runs interleaved (build A, build B, ...,
# then the next round), each under `setarch -R` (no address randomisation: on the
# shared development machine this took one build's spread between runs from about 20%
# to under 1%), short files repeated in shuffled copies (scripts/repeat-shuffled.py).
# Prints every run's puzzles/s (median of the bench's rounds), sorted, per file and
# build; compare the middle and the best, not single runs.
#
# (`--json`, not `--report`: older builds know only that name.)
# Usage: [ROUNDS=n] [MODE=count|solve] scripts/ab.sh FILE... -- BINARY...
#   e.g. cp target/release/sudoku-batch /tmp/before; (change, build);
#        scripts/ab.sh ../shared/data/norvig-top95.txt ../shared/data/magictour-top1465.txt -- /tmp/before target/release/sudoku-batch
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${ROUNDS:-3}
mode=${MODE:-count}
files=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do files+=("$1"); shift; done
[ $# -gt 1 ] && [ ${#files[@]} -gt 0 ] || { sed -n 2,13p "$0"; exit 2; }
shift
bins=("$@")
command -v setarch >/dev/null || { echo "missing setarch (util-linux)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
inputs=()
for f in "${files[@]}"; do
  if [ "$(wc -l < "$f")" -lt 20000 ]; then
    python3 scripts/repeat-shuffled.py "$f" "$work/$(basename "$f")" 20000
    inputs+=("$work/$(basename "$f")")
  else
    inputs+=("$f")
  fi
done
declare -A runs
for _ in $(seq "$rounds"); do
  for f in "${inputs[@]}"; do
    for b in "${bins[@]}"; do
      rate=$(setarch -R "$b" bench "$f" --threads 1 --rounds 3 --warmup 1 --mode "$mode" \
        --json /dev/stderr 2>&1 >/dev/null | python3 -c \
        'import json, sys; print(int(json.load(sys.stdin)["results"][0]["puzzles_per_sec"]["median"]))')
      runs["$f|$b"]="${runs["$f|$b"]:-} $rate"
    done
  done
done
for f in "${inputs[@]}"; do
  for b in "${bins[@]}"; do
    echo "$(basename "$f") $b:$(tr ' ' '\n' <<< "${runs["$f|$b"]}" | sort -n | tr '\n' ' ')"
  done
done
