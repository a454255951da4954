#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# libtcjblas as built: SONAME libtcjblas.so.1; exports the BLAS and CBLAS Level-3 entries (gemm,
# syrk, syr2k, symm, trmm, trsm for s, d, c, z; herk, her2k, hemm for c, z; each with its 64-bit
# twin), xerbla_ and cblas_xerbla (weak, so that a program's own take their place), Netlib's
# RowMajorStrg and __flexiblas_initialize (FlexiBLAS calls it on the backend it loads), nothing else; tcjblas.pc finds its prefix from its own place.
# Usage: blas_library.sh LIBTCJBLAS_SO TCJBLAS_PC
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: blas_library.sh LIBTCJBLAS_SO TCJBLAS_PC" >&2; exit 2; }
lib=$1 pc=$2
fail() { echo "FAIL: $*"; exit 1; }
soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = libtcjblas.so.1 ] || fail "SONAME is '$soname', not libtcjblas.so.1"
exports=$(nm -D --defined-only "$lib" | awk 'NF == 3 {print $2, $3}')
routines='[sdcz](gemm|syrk|syr2k|symm|trmm|trsm)|[cz](herk|her2k|hemm)'
allowed="^((${routines})_(64_)?|cblas_(${routines})(_64)?|xerbla_|cblas_xerbla|RowMajorStrg|__flexiblas_initialize)\$"
others=$(awk '{print $2}' <<<"$exports" | grep -Ev "$allowed" || true)
[ -z "$others" ] || fail "libtcjblas.so exports more than the BLAS ABI: $(echo $others | head -c 300)"
for r in gemm syrk syr2k symm trmm trsm herk her2k hemm; do
  case $r in h*) types="c z" ;; *) types="s d c z" ;; esac
  for t in $types; do
    for name in ${t}${r}_ ${t}${r}_64_ cblas_${t}${r} cblas_${t}${r}_64; do
      grep -q "^T $name\$" <<<"$exports" || fail "libtcjblas.so does not export $name"
    done
  done
done
for name in xerbla_ cblas_xerbla; do
  grep -q "^W $name\$" <<<"$exports" || fail "$name is not exported weak: $(grep " $name\$" <<<"$exports")"
done
grep -q '^prefix=${pcfiledir}/' "$pc" || fail "tcjblas.pc does not find its prefix from its own place"
grep -q '^Libs: -L${libdir} -ltcjblas$' "$pc" || fail "tcjblas.pc's Libs: $(grep '^Libs' "$pc")"
echo "libtcjblas: SONAME $soname; exports $(wc -l <<<"$exports") BLAS ABI symbols only; tcjblas.pc relocatable"
