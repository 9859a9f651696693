#!/usr/bin/env bash
# Every test suite, from a fresh clone: the Rust tests (which build the binary; the Slurm
# array script runs inside them), then, in a virtual environment at target/venv with
# packages from PyPI, the Python module's tests (built from python/ with maturin) and
# the Spark job's tests in local mode (Java 17 is on the machine image).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release
if ! command -v java >/dev/null; then
    apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless
fi
[ -x target/venv/bin/python ] || python3 -m venv target/venv
target/venv/bin/pip install -q --disable-pip-version-check "pyspark>=3.5,<5" pytest \
    numpy pandas pyarrow
target/venv/bin/pip install -q --disable-pip-version-check ./python
target/venv/bin/python -m pytest -q python/tests tests/spark
