#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs libtcjblas as a FlexiBLAS backend: builds backend_check.c against libflexiblas (32-bit
# integers), runs it with FLEXIBLAS set to libtcjblas's path and checks that
#   - every result is right (dgemm_, cblas_dgemm, zgemm_, dsyrk_, dtrsm_: libtcjblas's; daxpy_,
#     dgemv_: FlexiBLAS's fallback, since libtcjblas has no Level 1 or 2),
#   - libtcjblas's exit report (TCJBLAS_REPORT=1) counts the 5 Level-3 calls, and no more,
#   - the program ends by itself (no call loop between FlexiBLAS and libtcjblas).
#   run_backend.sh FLEXIBLAS_PREFIX LIBTCJBLAS [CPU_BLAS]
# FLEXIBLAS_PREFIX: where FlexiBLAS is installed (its lib*/libflexiblas.so); LIBTCJBLAS: the path
# of libtcjblas.so; CPU_BLAS: TCJBLAS_CPU_BLAS for the run, a BLAS library proper such as
# libopenblas.so.0, not FlexiBLAS (without it, libtcjblas cannot see a CPU BLAS from inside
# FlexiBLAS and the report must count the calls on its built-in reference). $CC builds (cc).
# Exit status 1 on any failure.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 FLEXIBLAS_PREFIX LIBTCJBLAS [CPU_BLAS]" >&2; exit 2; }
prefix=$1 lib=$(readlink -f "$2") cpu=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
libdir=
for d in "$prefix"/lib "$prefix"/lib64 "$prefix"/lib/*-linux-gnu; do
  if [ -e "$d/libflexiblas.so" ]; then libdir=$d; break; fi
done
[ -n "$libdir" ] || { echo "FAIL: no libflexiblas.so under $prefix/lib*" >&2; exit 1; }
[ -f "$lib" ] || { echo "FAIL: no $lib" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${CC:-cc}" -O1 -o "$work/backend_check" "$here/backend_check.c" -L"$libdir" -Wl,-rpath,"$libdir" \
  -lflexiblas -lm

rc=0
# libtcj.so.1 beside libtcjblas (an install) or one folder up (a build tree: build/blas/).
path=$(dirname "$lib"):$(dirname "$(dirname "$lib")")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
(cd "$work" && env -u LD_PRELOAD LD_LIBRARY_PATH="$path" FLEXIBLAS="$lib" TCJBLAS_REPORT=1 \
  TCJBLAS_CONFIG= TCJBLAS_CPU_BLAS="$cpu" timeout 120 ./backend_check >out 2>err) || rc=$?
cat "$work/out" "$work/err"
fail() { echo "FAIL: $*" >&2; exit 1; }
[ $rc -eq 0 ] || fail "backend_check exited with status $rc"
grep -qx "all results correct" "$work/out" || fail "wrong results"
report=$(grep -E "^tcjblas: [0-9]+ calls ran on the GPU" "$work/err" || true)
[ -n "$report" ] || fail "no report from libtcjblas: FlexiBLAS did not load it as its backend?"
read -r gpu cpublas own < <(sed -E 's/^tcjblas: ([0-9]+) calls ran on the GPU .*\), ([0-9]+) on the CPU BLAS, ([0-9]+) on.*/\1 \2 \3/' <<<"$report")
[ $((gpu + cpublas + own)) -eq 5 ] || fail "the report counts $((gpu + cpublas + own)) calls, not the 5 Level-3 ones"
if [ -n "$cpu" ] && [ "$own" -ne 0 ]; then fail "$own calls ran on the built-in reference, not on $cpu"; fi
echo "PASS: libtcjblas as FlexiBLAS's backend ($gpu on the GPU, $cpublas on the CPU BLAS, $own on its reference)"
