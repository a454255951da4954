#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds LAPACK's linear-equation testers xlintst[sdcz] (TESTING/LIN of LAPACK 3.11.0) so that
# tests/lapack/run_lintst.sh can run them against libtcjblas on a machine without gfortran.
#   build_lintst.sh LAPACK_SRC OUT_DIR
# LAPACK_SRC is a LAPACK 3.11.0 source tree (TESTING/ is all it reads); needs gfortran and the
# system's liblapack.so.3 + libblas.so.3 (Debian liblapack-dev 3.11.0, libblas-dev).
# LAPACK's own Makefiles build the testers; only make.inc differs from INSTALL/make.inc.gfortran:
#  - LAPACK and BLAS are the shared system libraries, not static archives, so the BLAS calls made
#    inside LAPACK go through the dynamic linker, where LD_PRELOAD=libtcjblas.so takes them;
#  - -rdynamic exports the testers' own XERBLA (error-exit tests) and ILAENV/ILAENV2STAGE (the
#    block sizes the testers set with XLAENV) so that liblapack's calls reach them, as they do in
#    LAPACK's static build; tmglib (TESTING/MATGEN) is linked statically.
# OUT_DIR receives the four testers, their inputs ([sdcz]test.in) and the shared libraries a
# machine without gfortran lacks (liblapack.so.3, libblas.so.3, libgfortran.so.5, libquadmath.so.0):
# run with LD_LIBRARY_PATH=OUT_DIR.
set -euo pipefail
src=$(cd "$1" && pwd) out=$2
libdir=/usr/lib/x86_64-linux-gnu
lapack=$(readlink -f $libdir/liblapack.so.3) blas=$(readlink -f $libdir/libblas.so.3)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A copy of TESTING/{LIN,MATGEN} under a top directory holding make.inc (their TOPSRCDIR is ../..).
mkdir -p "$work/TESTING"
cp -r "$src/TESTING/LIN" "$src/TESTING/MATGEN" "$work/TESTING/"
cat >"$work/make.inc" <<INC
FC = gfortran
FFLAGS = -O2 -frecursive
FFLAGS_DRV = \$(FFLAGS)
FFLAGS_NOOPT = -O0 -frecursive
LDFLAGS = -rdynamic
AR = ar
ARFLAGS = cr
RANLIB = ranlib
TMGLIB = \$(TOPSRCDIR)/libtmglib.a
LAPACKLIB = $lapack
BLASLIB = $blas
INC
make -C "$work/TESTING/MATGEN" -j"$(nproc)"
make -C "$work/TESTING/LIN" xlintsts xlintstd xlintstc xlintstz

mkdir -p "$out"
cp "$work"/TESTING/LIN/xlintst[sdcz] "$out/"
cp "$src"/TESTING/[sdcz]test.in "$out/"
# The real files under their sonames (plain copies, no links: the directory travels as files).
cp "$lapack" "$out/liblapack.so.3"
cp "$blas" "$out/libblas.so.3"
cp "$(readlink -f $libdir/libgfortran.so.5)" "$out/libgfortran.so.5"
cp "$(readlink -f $libdir/libquadmath.so.0)" "$out/libquadmath.so.0"
