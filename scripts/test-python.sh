#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Python package's CPU tests (python/tests/test_cpu_*.py: struct layout against tcj.h,
# import without a GPU or torch) against a CMake build's libtcj.so.1, through TCJ_LIBRARY, so
# that no `pip install .` is needed. pytest is the interpreter's own where it has one, else pip
# installs it into a virtual environment kept in BUILD_DIR/py-venv; if that fails (offline, no
# venv module) the script fails. Without python3 at all it says so and succeeds: the C library
# needs no Python.
# Usage: scripts/test-python.sh [BUILD_DIR]   (default build; the library must be built there)
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in -h | --help)
  sed -n '3,9p' "$0" | sed 's/^# \{0,1\}//'
  exit 0 ;;
esac
build=${1:-build}
case $build in /*) lib=$build/libtcj.so.1 ;; *) lib=$PWD/$build/libtcj.so.1 ;; esac
[ -f "$lib" ] || { echo "test-python.sh: $lib not found: build the library first (cmake --build $build)" >&2; exit 1; }
if ! command -v python3 >/dev/null; then
  echo "test-python.sh: python3 not found: the Python package's tests are not run"
  exit 0
fi
py=python3
if ! python3 -c 'import pytest' 2>/dev/null; then
  venv=$build/py-venv
  if ! "$venv/bin/python" -c 'import pytest' 2>/dev/null; then
    echo "test-python.sh: pytest is missing: installing it with pip into $venv"
    rm -rf "$venv"
    python3 -m venv "$venv" || { echo "test-python.sh: python3 -m venv failed (install python3-venv)" >&2; exit 1; }
    "$venv/bin/python" -m pip install -q pytest ||
      { echo "test-python.sh: pip could not install pytest (offline?)" >&2; exit 1; }
  fi
  py=$venv/bin/python
fi
# -p no:cacheprovider: no .pytest_cache in the source tree.
TCJ_LIBRARY=$lib exec "$py" -m pytest -q -p no:cacheprovider python/tests/test_cpu_*.py
