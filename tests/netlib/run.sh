#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs one of Netlib's BLAS-3 testers against libtcjblas and checks its summary.
#   run.sh [--gpu] TESTER INPUT
# The tester reads INPUT on stdin and writes its summary to stdout or to the file INPUT's first
# line names (xblat3*); both are printed. It passes when the summary has no failure, one
# "PASSED THE TESTS OF ERROR-EXITS" per routine the input enables and one "PASSED THE ...
# COMPUTATIONAL TESTS" per routine and storage order, and ends with "END OF TESTS".
# --gpu: the calls must reach tcj (TCJBLAS_GPU_THRESHOLD=0, TCJBLAS_GPU_MIN_INTENSITY=0): libtcjblas's report at exit must
# count GPU calls and no GPU failure may be said; exit 77 (skipped) where no GPU is present.
# The staging is shrunk to 64 KiB (8 KiB buffers), so that the calls of the larger sizes take
# blas/pipeline.c's staged path in several chunks (the report must count some), the smaller
# ones gpu.c's whole copies.
set -euo pipefail
gpu=0
[ "${1:-}" = --gpu ] && { gpu=1; shift; }
tester=$1 input=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

export TCJBLAS_CONFIG= TCJBLAS_REPORT=1 # no stray tcjblas.conf; say where the calls ran
if [ $gpu -eq 1 ]; then export TCJBLAS_GPU_THRESHOLD=0 TCJBLAS_GPU_MIN_INTENSITY=0 TCJBLAS_PINNED_MB=0.0625; fi
rc=0
"$tester" <"$input" >stdout.txt 2>stderr.txt || rc=$?
summary=stdout.txt
# xblat3*: the summary file is named on the input's first line ('dblat3.out'); the CBLAS testers
# write theirs on stdout.
name=$(sed -n "1s/^'\([^']*\)'.*/\1/p" "$input")
if [ -n "$name" ] && [ -f "$name" ]; then summary=$name; fi
cat "$summary"
cat stderr.txt >&2
[ $rc -eq 0 ] || { echo "run.sh: $tester exited with status $rc" >&2; exit 1; }

if [ $gpu -eq 1 ] && grep -q "GPU path unavailable" stderr.txt; then
  echo "run.sh: skipped: no GPU for libtcjblas ($(grep -m1 'GPU path unavailable' stderr.txt))"
  exit 77
fi

# The routines the input enables ("DGEMM  T PUT F FOR NO TEST"), and the storage orders the
# CBLAS testers run (the line "2  0 TO TEST COLUMN-MAJOR, 1 TO TEST ROW-MAJOR, 2 TO TEST BOTH").
routines=$(grep -cE "^[A-Za-z_0-9]+ +T " "$input" || true)
orders=1
layout=$(sed -n 's/^ *\([0-2]\) .*TO TEST COLUMN-MAJOR.*/\1/p' "$input")
[ "$layout" = 2 ] && orders=2
want_comp=$((routines * orders))
got_exits=$(grep -c "PASSED THE TESTS OF ERROR-EXITS" "$summary" || true)
got_comp=$(grep -cE "PASSED THE .*COMPUTATIONAL TESTS" "$summary" || true)
fail=0
if grep -nE "FAIL|\*\*\*\*\*\*\*" "$summary" >&2; then
  echo "run.sh: the summary reports failures (lines above)" >&2; fail=1
fi
exits=$(sed -n 's/^ *\([TF]\) .*TO TEST ERROR EXITS.*/\1/p' "$input")
if [ "$exits" = T ] && [ "$got_exits" -ne "$routines" ]; then
  echo "run.sh: $got_exits routines passed the error-exit tests, $routines expected" >&2; fail=1
fi
if [ "$got_comp" -ne "$want_comp" ]; then
  echo "run.sh: $got_comp computational test sets passed, $want_comp expected" >&2; fail=1
fi
grep -q "END OF TESTS" "$summary" || { echo "run.sh: the summary does not end with END OF TESTS" >&2; fail=1; }
if [ $gpu -eq 1 ]; then
  report=$(grep -E "tcjblas: [0-9]+ calls ran on the GPU" stderr.txt || true)
  calls=$(sed -n 's/^tcjblas: \([0-9]*\) calls ran on the GPU.*/\1/p' <<<"$report")
  staged=$(sed -n 's/^tcjblas: [0-9]* calls ran on the GPU (\([0-9]*\) of them staged.*/\1/p' <<<"$report")
  if [ -z "$calls" ] || [ "$calls" -eq 0 ]; then
    echo "run.sh: no call reached the GPU (report: ${report:-none})" >&2; fail=1
  elif [ -z "$staged" ] || [ "$staged" -eq 0 ]; then
    echo "run.sh: no call took the staged path (report: $report)" >&2; fail=1
  fi
  if grep -E "tcj_gemm_ex failed|GPU GEMM failed" stderr.txt >&2; then
    echo "run.sh: the GPU path failed (lines above)" >&2; fail=1
  fi
fi
exit $fail
