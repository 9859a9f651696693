#!/usr/bin/env bash
# tdoku (t-dillon/tdoku, BSD-2-Clause) timed on one thread, for machines without cmake or
# clang: builds tdoku's run_benchmark from a source snapshot with the C++ compiler there
# (CXX, else clang++, else g++; `-O3 -march=native`, tdoku's own defaults), then times it
# as the project's shared tool does (../shared/tools/tdoku-bench.sh, which needs cmake
# and clang): counting to two by default, the first solution with --solve. One line a
# file, so that scripts/tdoku-peers.sh takes it as TDOKU_BENCH:
#   FILE  puzzles/s  usec/puzzle  %no_guess  guesses/puzzle
# tdoku's sources are never part of this project: TDOKU_SRC names a snapshot (default
# ../shared/peers/tdoku; scripts/peers-kit.sh copies one into its kit), built under
# TDOKU_BUILD (default ${TMPDIR:-/tmp}/tdoku-direct). TDOKU_MARCH replaces `native` (a
# build here for another machine's CPU); --build builds and times nothing.
# Usage: [TDOKU_SRC=DIR] [CXX=...] scripts/tdoku-bench.sh [--build] [--solve] [--seconds S]
#          FILE...
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${TDOKU_SRC:-$here/../../shared/peers/tdoku}
build=${TDOKU_BUILD:-${TMPDIR:-/tmp}/tdoku-direct}
mode=(); secs=3; build_only=
while [ $# -gt 0 ]; do
  case $1 in
    --solve) mode=(-f); shift ;;
    --seconds) secs=$2; shift 2 ;;
    --build) build_only=1; shift ;;
    -h|--help) sed -n 2,14p "$0"; exit 0 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || [ -n "$build_only" ] || { sed -n 2,14p "$0"; exit 2; }
if [ ! -x "$build/run_benchmark" ]; then
  [ -f "$src/src/run_benchmark.cc" ] ||
    { echo "no tdoku sources in $src (set TDOKU_SRC)" >&2; exit 2; }
  cxx=${CXX:-$(command -v clang++ || command -v g++ || true)}
  [ -n "$cxx" ] || { echo "no C++ compiler (clang++ or g++)" >&2; exit 2; }
  flags="-O3 -march=${TDOKU_MARCH:-native}"
  rm -rf "$build" && mkdir -p "$build" && build=$(cd "$build" && pwd)
  cp -r "$src" "$build/src" && chmod -R u+w "$build/src"
  # What tdoku's cmake writes into build_info.h (run_benchmark prints it).
  version=$("$cxx" -dumpversion)
  id=$(basename "$cxx")
  sed -e "s|\${CMAKE_C_COMPILER_ID}|$id|; s|\${CMAKE_CXX_COMPILER_ID}|$id|" \
      -e "s|\${CMAKE_C_COMPILER_VERSION}|$version|; s|\${CMAKE_CXX_COMPILER_VERSION}|$version|" \
      -e "s|\${CMAKE_C_FLAGS}|$flags|; s|\${CMAKE_CXX_FLAGS}|$flags|" \
      "$build/src/src/build_info.h.in" > "$build/src/src/build_info.h"
  # The sources of tdoku's CMakeLists.txt for run_benchmark with no optional solvers.
  (cd "$build/src" && "$cxx" $flags -std=c++14 src/run_benchmark.cc src/util.cc \
      src/solver_dpll_triad_simd.cc other/other_solvers.cc -o "$build/run_benchmark" \
      > "$build/build.log" 2>&1) || { echo "tdoku build failed: see $build/build.log" >&2; exit 1; }
  echo "$cxx $version $flags" > "$build/built-with"
  echo "built tdoku's run_benchmark with $cxx $version $flags" >&2
fi
[ -z "$build_only" ] || exit 0
for f in "$@"; do
  tmp=$(mktemp)
  # tdoku reads the first 81 characters of a line and wants '.' for an empty cell.
  python3 - "$f" "$tmp" <<'PY'
import re, sys
out = open(sys.argv[2], 'w')
for line in open(sys.argv[1], errors='replace'):
    if line.startswith('#'):
        continue
    for field in re.split(r'[,\s]+', line.strip()):
        if len(field) == 81 and re.fullmatch(r'[0-9.]{81}', field):
            out.write(field.replace('0', '.') + '\n')
            break
PY
  n=$(wc -l < "$tmp")
  row=$("$build/run_benchmark" -s tdoku -r0 -n"$n" -t"$secs" -w1 -e1 -v1 -c1 "${mode[@]}" "$tmp" \
        2>/dev/null | tail -1)
  rm -f "$tmp"
  echo "$row" | awk -F, -v f="$f" '{printf "%s\t%.0f\t%.3f\t%s\t%s\n", f, $6, $7, $8, $9}'
done
