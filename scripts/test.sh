#!/usr/bin/env bash
# Every test suite, from a fresh clone: formatting, the Rust tests (which build the binary; the Slurm
# array script and the HTTP server's tests run inside them, the latter with curl), then,
# in a virtual environment at target/venv with packages from PyPI, the Python module's
# tests (built from python/ with maturin), the Spark job's tests in local mode (Java 17)
# and the server's page in headless Chromium (Debian's chromium + chromedriver,
# driven by Selenium). Clippy (warnings denied) and the API docs (warnings denied) are
# checked after the Rust tests. Missing Debian packages are installed with apt-get.
#
# Tests that need the public datasets (../shared/data beside the checkout: CI has it, a
# fresh clone may not) skip what they cannot run, each with a line saying what and why;
# the run ends by counting the tests run and those lines.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p target
export SUDOKU_BATCH_SKIP_LOG="$PWD/target/skipped-tests.txt"
: > "$SUDOKU_BATCH_SKIP_LOG"
log=target/test-output.txt
: > "$log"
missing=()
command -v curl >/dev/null || missing+=(curl)
command -v java >/dev/null || missing+=(openjdk-17-jre-headless)
command -v chromium >/dev/null || missing+=(chromium)
command -v chromedriver >/dev/null || missing+=(chromium-driver)
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq && apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# The shells whose completion scripts the tests drive (bash is there already): tried,
# and where they cannot be installed their tests say so in the skipped list below.
shells=()
command -v zsh >/dev/null || shells+=(zsh)
command -v fish >/dev/null || shells+=(fish)
if [ ${#shells[@]} -gt 0 ]; then
    { apt-get update -qq && apt-get install -y -qq "${shells[@]}"; } >/dev/null 2>&1 \
        || echo "could not install ${shells[*]}: their completion tests are skipped"
fi
# The lint and format tools come with rustup's default profile; add them where missing.
for tool in fmt clippy; do
    cargo $tool --version >/dev/null 2>&1 || rustup component add "$([ $tool = fmt ] && echo rustfmt || echo clippy)"
done
# Formatting first (fast to fail), then the tests, the lints and the API docs. The
# `ci` profile (Cargo.toml) is release without LTO and with 16 codegen units: the same
# optimisation level, a third of the build time for the ~30 test binaries.
cargo fmt --check
cargo test --profile ci 2>&1 | tee -a "$log"
cargo clippy --profile ci --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --quiet
[ -x target/venv/bin/python ] || python3 -m venv target/venv
target/venv/bin/python -m pip install -q --disable-pip-version-check "pyspark>=3.5,<5" pytest \
    numpy pandas pyarrow polars duckdb selenium
PYO3_PYTHON=target/venv/bin/python cargo clippy --profile ci -p sudoku-batch-python -- -D warnings
MATURIN_PEP517_ARGS="--profile ci" \
    target/venv/bin/python -m pip install -q --disable-pip-version-check ./python
# The Python, Spark, browser and reader tests run the binary the Rust tests built.
SUDOKU_BATCH_BIN="$PWD/target/ci/sudoku-batch" \
    target/venv/bin/python -m pytest -q -rs python/tests tests/spark tests/browser tests/readers \
    2>&1 | tee -a "$log"
# What ran and what was skipped (grep finds nothing: not a failure).
rust=$( (grep -E '^test result: ok\.' "$log" || true) | awk '{n += $4} END {print n + 0}')
python=$( (grep -E '^[0-9]+ passed' "$log" || true) | tail -1 | grep -oE '^[0-9]+' || echo 0)
skips=$( { sort -u "$SUDOKU_BATCH_SKIP_LOG"; grep -E '^SKIPPED' "$log" || true; } )
echo
echo "tests: $rust Rust and $python Python tests passed; $(printf '%s' "$skips" | grep -c . || true) skipped (or parts of tests):"
[ -z "$skips" ] || printf '%s\n' "$skips" | sed 's/^/  /'
[ -d ../shared/data ] || echo "  (../shared/data is absent beside the checkout: the public datasets' tests did not run)"
