#!/usr/bin/env bash
# Makes every puzzle file in data/ that this project ships, byte for byte, from this tool's own
# `generate` (each with its seed) and the hand-made rules of scripts/data/cases.py; data/README.md
# lists each file with its command. The variant boards (data/variants/) come from packages and
# the Sukaku Explainer references (data/se-reference-*.txt) from serate, as that README says.
#
#   scripts/make-data.sh [DIR]        # writes DIR (default: data), e.g. to compare: diff -r data DIR
#
# Uses SUDOKU_BATCH (default: a release build, made with cargo) and, for data/parquet/, pyarrow
# 26.0.1 in PYTHON (default: python3). The files depend on the build that made them: after a
# change to `generate`'s output they are made anew with the tests' pins (see data/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-data}
python=${PYTHON:-python3}
if [ -z "${SUDOKU_BATCH:-}" ]; then
    cargo build --release --quiet
    SUDOKU_BATCH=target/release/sudoku-batch
fi
sb() { "$SUDOKU_BATCH" "$@"; }
gen() { sb generate -q --threads 2 "$@"; }
mkdir -p "$out/parquet"

# The quick start's sample: 10,000 minimal puzzles, graded (CSV, the tool's own columns).
gen --count 10000 --seed 1 --grade -o "$out/sample-10k.csv"

# Minimal unique puzzles, one per line, '.' empty.
gen --count 5000 --seed 2 --output-format pairs | cut -d' ' -f1 > "$out/minimal.txt"

# Hard ones (ER 6.0 and up): three '#' comment lines, then one per line.
{
    printf '# 500 puzzles made by sudoku-batch generate (expert and extreme: ER 6.0 and up)\n'
    printf '# command: see data/README.md\n#\n'
    gen --count 500 --seed 3 --difficulty expert,extreme --output-format pairs | cut -d' ' -f1
} > "$out/hard.txt"

# The hardest level alone (ER 8.5 and up), 100, one per line.
gen --count 100 --seed 4 --difficulty extreme --output-format pairs | cut -d' ' -f1 > "$out/extreme.txt"

# CSV with a header `quizzes,solutions`, '0' empty, no final newline; 30 givens each.
gen --count 2000 --seed 5 --givens 30 --output-format pairs |
    awk 'BEGIN { printf "quizzes,solutions" } { gsub(/\./, "0", $1); printf "\n%s,%s", $1, $2 }' \
    > "$out/quizzes.csv"

# CSV with CRLF line ends: puzzle, solution, clues, difficulty, rating (graded).
gen --count 2000 --seed 6 --grade |
    awk -F, 'NR == 1 { printf "puzzle,solution,clues,difficulty,rating\r\n"; next }
             { printf "%s,%s,%s,%s,%s\r\n", $2, $3, $7, $8, $9 }' > "$out/graded.csv"

# `<12-hex id> <81 digits, 0 empty> <rating, right-aligned in 4>`, graded.
gen --count 2000 --seed 7 --grade |
    awk -F, 'NR > 1 { gsub(/\./, "0", $2); printf "%012x %s %4s\n", NR * 40503 % 65536 * 65536 + NR, $2, $9 }' \
    > "$out/hash-rating.txt"

# `<puzzle, 0 empty> <solution>`: easy ones (singles) and hard ones.
gen --count 500 --seed 8 --difficulty easy --output-format pairs | tr . 0 > "$out/pairs-easy.txt"
gen --count 500 --seed 9 --difficulty hard --output-format pairs | tr . 0 > "$out/pairs-hard.txt"

# 50 with 32 givens, '0' empty, line 41 the same puzzle as line 9.
gen --count 49 --seed 10 --givens 32 --output-format pairs | cut -d' ' -f1 | tr . 0 |
    awk '{ print } NR == 9 { dup = $0 } NR == 40 { print dup }' > "$out/easy-50.txt"

# Several solutions each: minimal puzzles with 1 to 4 givens removed (the (NR % 17 + 1)-th
# given on, every third one after it), so none is unique; four '#' lines first.
{
    printf '# 3,000 puzzles with two or more solutions: minimal puzzles made by sudoku-batch generate\n'
    printf '# with 1 to 4 givens removed (a minimal puzzle less any given has several solutions)\n'
    printf '# command: see data/README.md\n#\n'
    gen --count 3000 --seed 11 --output-format pairs | cut -d' ' -f1 |
        awk '{ drop = NR % 4 + 1; n = 0
               for (i = 1; i <= 81 && drop > 0; i++)
                   if (substr($0, i, 1) != ".") {
                       n++
                       if (n >= NR % 17 + 1 && (n - NR % 17 - 1) % 3 == 0) {
                           $0 = substr($0, 1, i - 1) "." substr($0, i + 1); drop--
                       }
                   }
               print }'
} > "$out/multiple.txt"

# Edge cases (cases.tsv and cases/*/*.txt in block layout), from 40 minimal puzzles.
gen --count 40 --seed 12 --output-format pairs > "$out/.cases-source.txt"
"$python" scripts/data/cases.py "$out/.cases-source.txt" "$out"
rm "$out/.cases-source.txt"

# Parquet files written by pyarrow from the sets above.
"$python" scripts/data/parquet.py "$out"
