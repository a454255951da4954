#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/tcjblas_bench.py without a GPU: --help prints the usage and exits 0 without importing
# torch; a run without torch says so and exits 2; a missing --lib is a usage error (2).
# Exit 77 (skipped) without python3.  Usage: tcjblas_bench_usage.sh SOURCE_DIR SCRATCH_DIR
set -euo pipefail
src=$1 dir=$2
command -v python3 >/dev/null || { echo "SKIP: no python3 to run tools/tcjblas_bench.py"; exit 77; }
rm -rf "$dir"
mkdir -p "$dir/fake/torch"
echo 'raise ImportError("no torch here")' >"$dir/fake/torch/__init__.py"
fail() { echo "FAIL: $*"; exit 1; }
script=$src/tools/tcjblas_bench.py
out=$(PYTHONPATH=$dir/fake python3 "$script" --help) || fail "--help exited $?"
grep -q "^usage: tcjblas_bench.py" <<<"$out" || fail "--help printed no usage: $out"
grep -q -- "--nvblas" <<<"$out" || fail "--help does not list --nvblas"
rc=0
out=$(PYTHONPATH=$dir/fake python3 "$script" --lib /nonexistent 2>&1) || rc=$?
[ $rc -eq 2 ] && grep -q "needs torch" <<<"$out" || fail "without torch: exit $rc, $out"
rc=0
out=$(PYTHONPATH=$dir/fake python3 "$script" 2>&1) || rc=$?
[ $rc -eq 2 ] && grep -q -- "--lib" <<<"$out" || fail "without --lib: exit $rc, $out"
echo "tcjblas_bench.py: usage and refusals as documented"
