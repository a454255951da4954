#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tools/tcjblas_threshold.py end to end without a GPU: --help prints the usage; a run over small
# sizes, with the test suite's stand-in CPU BLAS, times every type and shape in its two child
# processes (here both run on the CPU: there is no GPU) and prints a row for each and a
# crossover line and a check of the default settings per type. Exit 77 (skipped) without python3.
# Usage: tcjblas_threshold_cpu.sh SOURCE_DIR LIBTCJBLAS CPU_BLAS
set -euo pipefail
src=$1 lib=$2 cpu=$3
command -v python3 >/dev/null || { echo "SKIP: no python3 to run tools/tcjblas_threshold.py"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
script=$src/tools/tcjblas_threshold.py
out=$(python3 "$script" --help) || fail "--help exited $?"
grep -q "^usage: tcjblas_threshold.py" <<<"$out" || fail "--help printed no usage: $out"
rc=0
out=$(python3 "$script" --lib "$lib" 2>&1) || rc=$?
[ $rc -eq 2 ] && grep -q -- "--cpu-blas" <<<"$out" || fail "without --cpu-blas: exit $rc, $out"
out=$(python3 "$script" --lib "$lib" --cpu-blas "$cpu" --sizes 8,24 --shapes all --repeat 2) || fail "run exited $?: $out"
echo "$out"
for t in s d c z; do
  rows=$(grep -cE "^$t +[0-9]+x[0-9]+x[0-9]+ " <<<"$out" || true)
  [ "$rows" -eq 6 ] || fail "$rows rows for $t, 6 expected (2 sizes x 3 shapes)"
  grep -qE "^$t +crossover \(2mnk, 8mnk complex\): " <<<"$out" || fail "no crossover line for $t"
  grep -qE "^$t +gpu_threshold 1e\+08 with gpu_min_intensity 16: [0-9]+ calls" <<<"$out" || fail "no check of the defaults for $t"
done
echo "tcjblas_threshold.py: usage and a CPU run as documented"
