#!/usr/bin/env bash
# Every test suite, from a fresh clone: the Rust tests (which build the binary), then the
# Spark job's tests in local mode (PySpark from PyPI into target/venv; Java 17 is on the
# machine image), and the Slurm array script run locally.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release
if ! command -v java >/dev/null; then
    apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless
fi
[ -x target/venv/bin/python ] || python3 -m venv target/venv
target/venv/bin/pip install -q --disable-pip-version-check "pyspark>=3.5,<5" pytest
target/venv/bin/python -m pytest -q tests/spark
