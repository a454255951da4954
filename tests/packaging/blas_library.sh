#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# libtcjblas as built: SONAME libtcjblas.so.1; exports the BLAS and CBLAS GEMM entries, xerbla_
# and cblas_xerbla (weak, so that a program's own take their place) and Netlib's RowMajorStrg,
# nothing else; tcjblas.pc finds its prefix from its own place.
# Usage: blas_library.sh LIBTCJBLAS_SO TCJBLAS_PC
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: blas_library.sh LIBTCJBLAS_SO TCJBLAS_PC" >&2; exit 2; }
lib=$1 pc=$2
fail() { echo "FAIL: $*"; exit 1; }
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libtcjblas.so.1 ] || fail "SONAME is '$soname', not libtcjblas.so.1"
exports=$(nm -D --defined-only "$lib" | awk 'NF == 3 {print $2, $3}')
allowed='^([sdcz]gemm_(64_)?|cblas_[sdcz]gemm(_64)?|xerbla_|cblas_xerbla|RowMajorStrg)$'
others=$(awk '{print $2}' <<<"$exports" | grep -Ev "$allowed" || true)
[ -z "$others" ] || fail "libtcjblas.so exports more than the BLAS ABI: $(echo $others | head -c 300)"
for t in s d c z; do
  for name in ${t}gemm_ ${t}gemm_64_ cblas_${t}gemm cblas_${t}gemm_64; do
    grep -q "^T $name\$" <<<"$exports" || fail "libtcjblas.so does not export $name"
  done
done
for name in xerbla_ cblas_xerbla; do
  grep -q "^W $name\$" <<<"$exports" || fail "$name is not exported weak: $(grep " $name\$" <<<"$exports")"
done
grep -q '^prefix=${pcfiledir}/' "$pc" || fail "tcjblas.pc does not find its prefix from its own place"
grep -q '^Libs: -L${libdir} -ltcjblas$' "$pc" || fail "tcjblas.pc's Libs: $(grep '^Libs' "$pc")"
echo "libtcjblas: SONAME $soname; exports $(wc -l <<<"$exports") BLAS ABI symbols only; tcjblas.pc relocatable"
