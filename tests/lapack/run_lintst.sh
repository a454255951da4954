#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs LAPACK 3.11.0's linear-equation testers (TESTING/LIN: xlintsts, xlintstd, xlintstc,
# xlintstz) with libtcjblas preloaded, so that the BLAS calls LAPACK makes go through it.
#   run_lintst.sh [--gpu] [--paths "GE PO QR"] [--out OUTDIR] DIR LIBTCJBLAS [s d c z]
# DIR holds what tests/lapack/build_lintst.sh makes: the testers, [sdcz]test.in and the shared
# libraries they link (liblapack.so.3, libblas.so.3, libgfortran.so.5, ...); LIBTCJBLAS is the
# path of libtcjblas.so. The precisions to run follow (default all four). --out keeps each
# tester's stdout and stderr there (xlintst?.out/.err). --paths keeps only those paths of the
# tester's input (each makes 2.3-2.5 million BLAS calls over all paths, minutes on a GPU whose
# every call is a launch and two copies). One line per tester says the tests run,
# the tests failed, the calls that libtcjblas's report counts on the GPU, and the seconds.
# A tester passes when it exits 0, its output ends with "End of tests", counts tests in lines
# "All tests for XXX routines|drivers passed the threshold (  N tests run)" and has no line of
# failure: "N out of M tests failed to pass the threshold", "*** ..." (failed error exits,
# illegal parameters, wrong INFO), "failed test with value" (the xxxEQU tests) or "N error
# messages recorded" (wrong INFO, which LAPACK does not count as a failed test).
# --gpu: TCJBLAS_GPU_THRESHOLD=0 TCJBLAS_GPU_MIN_INTENSITY=0 send every call tcj can take to
# the GPU; then the report ("tcjblas: N calls ran on the GPU ...") must have N > 0 and no GPU
# failure may be said. Exit status 1 if any tester fails.
set -euo pipefail
gpu=0 out= paths=
while [ $# -gt 0 ]; do
  case $1 in
    --gpu) gpu=1; shift ;;
    --out) out=$2; shift 2 ;;
    --paths) paths=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -ge 2 ] || { echo "usage: $0 [--gpu] [--paths \"GE PO QR\"] [--out OUTDIR] DIR LIBTCJBLAS [s d c z]" >&2; exit 2; }
dir=$(cd "$1" && pwd) lib=$(readlink -f "$2"); shift 2
precisions=${*:-s d c z}
if [ -z "$out" ]; then out=$(mktemp -d); trap 'rm -rf "$out"' EXIT; fi
mkdir -p "$out" && out=$(cd "$out" && pwd) # the testers run in DIR

libdir=$(dirname "$lib")
# Preloaded into the testers only: the helpers (grep, awk, ...) would print reports of their own.
preload=(env "LD_PRELOAD=$lib" "LD_LIBRARY_PATH=$dir:$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
export TCJBLAS_CONFIG='' TCJBLAS_REPORT=1 # no stray tcjblas.conf; say where the calls ran
if [ $gpu -eq 1 ]; then export TCJBLAS_GPU_THRESHOLD=0 TCJBLAS_GPU_MIN_INTENSITY=0; fi

status=0
for p in $precisions; do
  x=xlintst$p o=$out/xlintst$p.out e=$out/xlintst$p.err
  in=$dir/${p}test.in
  if [ -n "$paths" ]; then # the sizes and switches (to "...test the error exits"), then the paths asked for
    in=$out/${p}test.in
    awk -v want="$paths" -v P="$(tr a-z A-Z <<<"$p")" 'BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) keep[P w[i]] = 1 }
      !paths || ($1 in keep); /error exits/ { paths = 1 }' "$dir/${p}test.in" >"$in"
  fi
  start=$(date +%s.%N) rc=0
  (cd "$dir" && "${preload[@]}" "./$x" <"$in" >"$o" 2>"$e") || rc=$?
  secs=$(echo "$start $(date +%s.%N)" | awk '{printf "%.1f", $2 - $1}')
  # Tests run: the "(  N tests run)" of passing paths plus the M of "N out of M tests failed".
  read -r run failed < <(awk '
    /tests run\)/ { sub(/ tests run\).*/, ""); n = split($0, w, " "); run += w[n] }
    / out of .* tests failed/ { for (i = 1; i < NF; i++) if ($i == "out") { fail += $(i-1); run += $(i+2) } }
    END { print run + 0, fail + 0 }' "$o")
  report=$(grep -E "^tcjblas: [0-9]+ calls ran on the GPU" "$e" || true)
  calls=$(sed -n 's/^tcjblas: \([0-9]*\) calls ran on the GPU.*/\1/p' <<<"$report")
  why=()
  [ $rc -eq 0 ] || why+=("exit status $rc")
  grep -q "End of tests" "$o" || why+=("no 'End of tests'")
  [ "$run" -gt 0 ] || why+=("no tests run")
  bad=$(grep -cE "tests failed to pass|\*\*\*|failed test with value|error messages recorded|Unrecognized path|not attempted" "$o" || true)
  [ "$bad" -eq 0 ] || why+=("$bad failure lines")
  if [ $gpu -eq 1 ]; then
    [ "${calls:-0}" -gt 0 ] || why+=("no call reached the GPU ($(grep -m1 -E 'GPU path unavailable' "$e" || echo "report: ${report:-none}"))")
    ! grep -qE "tcj_gemm_ex failed|GPU GEMM failed" "$e" || why+=("the GPU path failed")
  fi
  verdict=PASS
  if [ ${#why[@]} -gt 0 ]; then
    verdict="FAIL: $(IFS=';'; echo "${why[*]}")"; status=1
    grep -nE "tests failed to pass|\*\*\*|failed test with value|error messages recorded" "$o" | head -20 >&2 || true
    tail -5 "$e" >&2
  fi
  echo "$x: $run tests run, $failed failed, ${calls:-?} GPU calls, $secs s: $verdict"
  [ -z "$report" ] || echo "  $report"
done
exit $status
