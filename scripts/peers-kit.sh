#!/usr/bin/env bash
# Packs the single-thread comparison with tdoku and the `sudoku` crate for a machine with
# no Rust, cmake or clang (such as a second CPU lent for a few minutes): one folder under
# target/ (ignored by git, so it travels only where named) holding the release binary
# and the crate's bench example built here (baseline x86-64: the search picks its copy
# for the CPU at run time), a snapshot of tdoku's sources (built there by
# scripts/tdoku-bench.sh with clang++ or g++) and the set kept outside data/. Its run.sh,
# from the repository root there, writes the table and the CPU's description to a folder,
# the contested sets first so that a run cut short still has them.
# Other builds of sudoku-batch named after the kit (older commits, or a change to try)
# travel in it too: after the peers, run.sh times them against the kit's own by
# scripts/ab.sh on the contested sets, so one run on the other CPU also says which
# changes helped or cost there (ab.md, each build's puzzles/s per round, sorted).
# Usage: scripts/peers-kit.sh [KIT [BUILD...]]   (default target/kit; needs ../shared)
#   A BUILD is a sudoku-batch binary, or a git revision, built here in a worktree under
#   target/kit-builds/ (kept for the next kit) and named by the revision, e.g.
#        scripts/peers-kit.sh target/kit d384549 af26d21 /tmp/variant/sudoku-batch
#   (a binary is named in ab.md by its file name, or by its folder's name above target/
#   where the file is sudoku-batch; names must differ)
# With KIT_PERF=1 the kit also carries this machine's perf and the libraries it needs
# (not glibc's; about 30 MB more, so with two or more other builds the kit
# passes 64 MB), for a machine without perf; where perf there (the
# kit's or its own) reads the CPU's counters, run.sh writes ours and tdoku's cycles,
# instructions and branch misses on forum-hardest and top95 (perf-stat.txt).
#   there: bash KIT/run.sh OUTDIR          ([REPEAT=n] [TDOKU_SECONDS=s], default 2 and 2;
#                                           [AB_ROUNDS=n], default 3)
set -euo pipefail
cd "$(dirname "$0")/.."
kit=${1:-target/kit}
[ $# -gt 0 ] && shift
builds=("$@")
shared=../shared
[ -d "$shared/peers/tdoku" ] ||
  { echo "no $shared/peers/tdoku: the kit takes tdoku from the shared folder" >&2; exit 2; }
cargo build --release --quiet
cargo build --release --quiet --example sudoku_crate_bench
rm -rf "$kit"
mkdir -p "$kit"
strip -o "$kit/sudoku-batch" target/release/sudoku-batch
strip -o "$kit/sudoku_crate_bench" target/release/examples/sudoku_crate_bench
cp -r "$shared/peers/tdoku" "$kit/tdoku"
# tdoku built here too, by clang for the other machine's CPU (KIT_MARCH, default
# sapphirerapids: the Intel Xeons lent so far), as its cmake build would be; a g++ build
# of it was 8% slower on forum-hardest (AMD Zen 2), which would flatter us. run.sh takes
# it where it runs, else builds tdoku there for that CPU with the compiler it has.
if command -v clang++ >/dev/null; then
  CXX=clang++ TDOKU_MARCH=${KIT_MARCH:-sapphirerapids} TDOKU_SRC="$kit/tdoku" \
    TDOKU_BUILD="$kit/tdoku-clang" scripts/tdoku-bench.sh --build
  rm -rf "$kit/tdoku-clang/src"
fi
cp "$shared/data/forum-hardest-1106.txt" "$kit/"
if [ -n "${KIT_PERF:-}" ]; then
  perf=$(readlink -f "$(command -v perf)") || { echo "KIT_PERF: no perf here" >&2; exit 2; }
  mkdir -p "$kit/perf/lib"
  cp "$perf" "$kit/perf/perf"
  ldd "$perf" | awk '$3 ~ /^\// { print $3 }' |
    grep -v -E '/(libc|libm|libpthread|libdl|librt)\.so' |
    while read -r lib; do cp -L "$lib" "$kit/perf/lib/"; done
fi
mkdir -p "$kit/ab"
for b in "${builds[@]}"; do
  if [ -f "$b" ] && [ -x "$b" ]; then
    name=$(basename "$b")
    [ "$name" = sudoku-batch ] && [[ "$b" == */target/release/sudoku-batch ]] &&
      name=$(basename "${b%/target/release/sudoku-batch}")
  elif rev=$(git rev-parse -q --verify "$b^{commit}"); then
    name=$(tr -c 'A-Za-z0-9._\n-' _ <<< "$b")
    tree=target/kit-builds/$name
    if [ ! -f "$tree/.git" ] || [ "$(git -C "$tree" rev-parse -q --verify HEAD)" != "$rev" ]; then
      rm -rf "$tree"
      git worktree prune
      git worktree add -q --detach "$tree" "$rev"
    fi
    (cd "$tree" && cargo build --release --quiet)
    b=$tree/target/release/sudoku-batch
  else
    echo "neither an executable nor a git revision: $b" >&2
    exit 2
  fi
  [ ! -e "$kit/ab/$name" ] && [ "$name" != head ] ||
    { echo "two builds named $name" >&2; exit 2; }
  strip -o "$kit/ab/$name" "$b"
done
cat > "$kit/run.sh" <<'RUN'
#!/usr/bin/env bash
# Made by scripts/peers-kit.sh; run from the repository root: bash KIT/run.sh OUTDIR
set -euo pipefail
kit=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run.sh OUTDIR}
mkdir -p "$out"
export SUDOKU_BATCH=$kit/sudoku-batch CRATE_BENCH=$kit/sudoku_crate_bench
export TDOKU_BENCH=scripts/tdoku-bench.sh TDOKU_SRC=$kit/tdoku
# The kit's clang build where this CPU runs it (one puzzle as the test), else a native one.
head -1 data/norvig-top95.txt > "$out/one.txt"
if [ -x "$kit/tdoku-clang/run_benchmark" ] &&
   TDOKU_BUILD=$kit/tdoku-clang scripts/tdoku-bench.sh --seconds 1 "$out/one.txt" >/dev/null 2>&1
then
  export TDOKU_BUILD=$kit/tdoku-clang
  echo "tdoku: the kit's build, $(cat "$kit/tdoku-clang/built-with")" > "$out/tdoku.txt"
else
  echo "tdoku: built here (see peers.err)" > "$out/tdoku.txt"
fi
rm -f "$out/one.txt"
{ grep -m1 "model name" /proc/cpuinfo; grep -m2 -E "^(cpu family|model)\s*:" /proc/cpuinfo
  nproc; "$SUDOKU_BATCH" --version; } > "$out/cpu.txt" 2>&1
REPEAT=${REPEAT:-2} TDOKU_SECONDS=${TDOKU_SECONDS:-2} scripts/tdoku-peers.sh \
  data/multi-solution-20k.txt "$kit/forum-hardest-1106.txt" data/norvig-top95.txt \
  data/magictour-top1465.txt data/sudoku-exchange-diabolical.txt data/royle-17-clue.txt \
  data/kaggle-1m-first10k.csv data/sudoku-exchange-hard-with-solutions.txt \
  > "$out/peers.md" 2> "$out/peers.err"
# The CPU's counters for ours and tdoku, where perf reads them (a virtual machine may
# not expose them: then the file says so).
perf=()
if [ -x "$kit/perf/perf" ] && LD_LIBRARY_PATH=$kit/perf/lib "$kit/perf/perf" --version >/dev/null 2>&1
then perf=(env "LD_LIBRARY_PATH=$kit/perf/lib" "$kit/perf/perf")
elif command -v perf >/dev/null; then perf=(perf)
fi
if [ ${#perf[@]} -gt 0 ]; then
  for f in "$kit/forum-hardest-1106.txt" data/norvig-top95.txt; do
    echo "## $(basename "$f"): ours, counting to two, 5 rounds of its $(grep -c . "$f") lines"
    "${perf[@]}" stat -e cycles,instructions,branches,branch-misses -- \
      "$SUDOKU_BATCH" bench "$f" --threads 1 --rounds 5 --warmup 0 --mode count -q 2>&1 || true
    echo "## $(basename "$f"): tdoku, counting to two (its own count of puzzles below)"
    "${perf[@]}" stat -e cycles,instructions,branches,branch-misses -- \
      scripts/tdoku-bench.sh --seconds 2 "$f" 2>&1 || true
    "${perf[@]}" stat -M TopdownL1 -- \
      "$SUDOKU_BATCH" bench "$f" --threads 1 --rounds 5 --warmup 0 --mode count -q 2>&1 || true
  done > "$out/perf-stat.txt"
fi
# The other builds against the kit's own (named head), interleaved, counting to two.
others=()
for b in "$kit"/ab/*; do [ -e "$b" ] && [ "$(basename "$b")" != head ] && others+=("$b"); done
if [ ${#others[@]} -gt 0 ]; then
  ln -sf "$SUDOKU_BATCH" "$kit/ab/head"
  ROUNDS=${AB_ROUNDS:-3} scripts/ab.sh "$kit/forum-hardest-1106.txt" data/norvig-top95.txt \
    data/magictour-top1465.txt data/multi-solution-20k.txt -- "$kit/ab/head" "${others[@]}" \
    2> "$out/ab.err" | sed "s#$kit/ab/##" > "$out/ab.md"
fi
RUN
chmod +x "$kit/run.sh"
du -sh "$kit"
echo "on the other machine, from the repository root: bash $kit/run.sh OUTDIR"
