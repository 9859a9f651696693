#!/usr/bin/env bash
# The HTTP server against the CLI, on loopback, in one run:
#  1. a dataset body of N records (default 1,000,000, made by `corpus` from the 17-clue
#     file) POSTed to /v1/classify with curl, against `classify` on the same file:
#     best of 3, interleaved; the rows must be byte-identical;
#  2. single-puzzle JSON requests to /v1/classify with wrk (Debian's package, installed if
#     missing) at 1, 16 and 64 connections: requests/s and p50/p99 latency.
# Usage: scripts/serve-bench.sh [THREADS] [RECORDS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
threads=${1:-2}
records=${2:-1000000}
seconds=${3:-10}
command -v wrk >/dev/null || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
cargo build --release -q
bin=target/release/sudoku-batch
work=$(mktemp -d)
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT

$bin corpus ../shared/data/royle-17-clue.txt --count "$records" --seed 1 -o "$work/corpus.txt" 2>/dev/null
$bin serve --listen 127.0.0.1:0 --threads "$threads" --max-body 1000000000 2>"$work/serve.log" &
server=$!
for _ in $(seq 50); do grep -q listening "$work/serve.log" && break; sleep 0.1; done
url=$(grep -o 'http://[0-9.:]*' "$work/serve.log")
echo "server $url, $threads threads; $records records ($(du -h "$work/corpus.txt" | cut -f1))"

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { print b - a }'; }
best() { sort -n | head -1; }
cli=(); http=()
for _ in 1 2 3; do
    s=$(now); $bin classify "$work/corpus.txt" --threads "$threads" -q -o "$work/cli.csv"
    cli+=("$(secs "$s" "$(now)")")
    s=$(now)
    curl -sS --fail -X POST -H 'content-type: text/plain' --data-binary "@$work/corpus.txt" \
        "$url/v1/classify" -o "$work/http.csv"
    http+=("$(secs "$s" "$(now)")")
    cmp -s "$work/cli.csv" "$work/http.csv" || { echo "rows differ"; exit 1; }
done
c=$(printf '%s\n' "${cli[@]}" | best); h=$(printf '%s\n' "${http[@]}" | best)
awk -v c="$c" -v h="$h" -v n="$records" 'BEGIN {
    printf "dataset  CLI %.3f s (%.0f/s)   HTTP %.3f s (%.0f/s)   HTTP/CLI %.2f\n", c, n / c, h, n / h, c / h }'
grep -o 'VmHWM.*' /proc/$server/status | sed 's/^/server peak /'

puzzle=$(head -1 ../shared/data/magictour-top1465.txt | cut -c1-81)
cat > "$work/post.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"puzzle":"$puzzle"}'
LUA
echo "single-puzzle JSON (one top1465 puzzle) to /v1/classify, ${seconds} s each:"
for c in 1 16 64; do
    t=$(( c < 2 ? 1 : 2 ))
    out=$(wrk -t "$t" -c "$c" -d "${seconds}s" --latency -s "$work/post.lua" "$url/v1/classify")
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
    p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
    errors=$(echo "$out" | grep -E 'Non-2xx|Socket errors' || true)
    printf '  %2d clients: %9s req/s  p50 %-9s p99 %-9s %s\n' "$c" "$rps" "$p50" "$p99" "$errors"
done
