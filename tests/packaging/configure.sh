#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configure-time checks of the build a packager or a new user runs (no compiling): the CUDA
# toolkit check refuses a toolkit older than nvJitLink, with a message; CMake's default
# generator orders the sealed static library after the objects it seals; -flto seals a copy
# compiled without LTO; an absolute CMAKE_INSTALL_LIBDIR gives a sane tcj.pc; BUILD_TESTING=OFF
# builds no tests; a missing libyaml leaves the tools that need it out, not the library; and
# TCJ_BUILD_TOOLS=OFF with tests configures, leaving out the tests that run tools, from a
# source tree outside git (a release tarball), where mutation_check (it needs git) is left out.
# Usage: configure.sh SOURCE_DIR SCRATCH_DIR C_COMPILER
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: configure.sh SOURCE_DIR SCRATCH_DIR C_COMPILER" >&2; exit 2; }
src=$1 scratch=$2 cc=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$scratch"
mkdir -p "$scratch/include-no-nvjitlink"

# The CUDA toolkit check (cmake/cuda_check.cmake), fed toolkits by version and headers.
check_cuda() { # VERSION INCLUDE_DIR -> the message, exit status of cmake
  cat >"$scratch/check.cmake" <<CMAKE
include("$src/cmake/cuda_check.cmake")
tcj_check_cuda_toolkit("$1" "$2")
message(STATUS "accepted")
CMAKE
  cmake -P "$scratch/check.cmake" 2>&1
}
cuda_inc=$(dirname "$(find "${CUDA_HOME:-/usr/local/cuda}/" -name nvJitLink.h -path '*include*' 2>/dev/null | head -n 1)")
out=$(check_cuda 11.8.89 "$cuda_inc") && fail "CUDA 11.8 accepted: $out"
grep -q "CUDA 12.0 or newer" <<<"$out" || fail "CUDA 11.8's message does not say what is needed: $out"
out=$(check_cuda "" "$cuda_inc") && fail "a toolkit of unknown version accepted: $out"
out=$(check_cuda 12.4.0 "$scratch/include-no-nvjitlink") && fail "a toolkit without nvJitLink.h accepted: $out"
grep -q "nvJitLink.h" <<<"$out" || fail "the message does not name nvJitLink.h: $out"
out=$(check_cuda 12.0.76 "$cuda_inc") || fail "CUDA 12.0 with nvJitLink.h refused: $out"

# A packager's configure: default generator, LTO, absolute libdir, no tests, no libyaml.
a=$scratch/packager
cmake -S "$src" -B "$a" -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
  -DCMAKE_C_FLAGS=-flto -DCMAKE_INSTALL_PREFIX=/opt/tcj -DCMAKE_INSTALL_LIBDIR=/opt/tcj/lib64 \
  -DYAML_INCLUDE_DIR="$scratch/no-yaml" >"$scratch/packager.log" 2>&1 ||
  { cat "$scratch/packager.log"; fail "the packager's configure failed"; }
# Unix Makefiles order targets only by target-level dependencies.
grep -q '^CMakeFiles/tcj_static.dir/all: CMakeFiles/tcj_objects_no_lto.dir/all' "$a/CMakeFiles/Makefile2" ||
  fail "the Makefile does not build the sealed objects before libtcj.a (tcj_static)"
# -flto: the sealed object is made from objects compiled without LTO.
grep -q 'tcj_objects_no_lto.dir' "$a/tcj_sealed_objects.txt" || fail "with -flto, libtcj.a seals LTO objects"
grep -q -- '-fno-lto' "$a/CMakeFiles/tcj_objects_no_lto.dir/flags.make" || fail "the sealed copy is not compiled with -fno-lto"
grep -q '^libdir=${prefix}/lib64$' "$a/tcj.pc" || fail "tcj.pc's libdir for /opt/tcj/lib64: $(grep '^libdir' "$a/tcj.pc")"
grep -q '^prefix=${pcfiledir}/../..$' "$a/tcj.pc" || fail "tcj.pc's prefix: $(grep '^prefix' "$a/tcj.pc")"
[ ! -e "$a/tests" ] || fail "BUILD_TESTING=OFF configured the tests"
grep -q "libyaml not found" "$scratch/packager.log" || fail "no warning that libyaml is missing"
[ -d "$a/tools/CMakeFiles/tcj-ptx.dir" ] || fail "tcj-ptx (which needs no libyaml) is not built"
[ ! -d "$a/tools/CMakeFiles/tcj-warmup.dir" ] || fail "tcj-warmup is built without libyaml"

# A libdir outside the prefix is written as it is.
o=$scratch/outside
cmake -S "$src" -B "$o" -DCMAKE_C_COMPILER="$cc" -DBUILD_TESTING=OFF -DTCJ_BUILD_TOOLS=OFF \
  -DCMAKE_INSTALL_PREFIX=/opt/tcj -DCMAKE_INSTALL_LIBDIR=/usr/lib64 >"$scratch/outside.log" 2>&1 ||
  { cat "$scratch/outside.log"; fail "configure with a libdir outside the prefix failed"; }
grep -q '^libdir=/usr/lib64$' "$o/tcj.pc" || fail "tcj.pc's libdir for /usr/lib64: $(grep '^libdir' "$o/tcj.pc")"
grep -q '^prefix=/opt/tcj$' "$o/tcj.pc" || fail "tcj.pc's prefix: $(grep '^prefix' "$o/tcj.pc")"

# Tests without tools, from a tarball's tree: configures; the tests that run a tool, and
# mutation_check, are not registered.
tarball=$src
if [ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$src" && pwd -P)" ]; then
  tarball=$scratch/tarball
  mkdir -p "$tarball"
  (cd "$src" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$tarball")
fi
t=$scratch/no-tools
cmake -S "$tarball" -B "$t" -DCMAKE_C_COMPILER="$cc" -DTCJ_BUILD_TOOLS=OFF >"$scratch/no-tools.log" 2>&1 ||
  { cat "$scratch/no-tools.log"; fail "TCJ_BUILD_TOOLS=OFF with tests does not configure"; }
ctest --test-dir "$t" -N >"$scratch/no-tools.tests"
grep -q 'test_api$' "$scratch/no-tools.tests" || fail "TCJ_BUILD_TOOLS=OFF registered no CPU tests"
grep -E 'test_cache_gpu|tcj_ptx_assembles|tcj_warmup_offline' "$scratch/no-tools.tests" &&
  fail "TCJ_BUILD_TOOLS=OFF registered tests that run tools"
grep -q 'mutation_check' "$scratch/no-tools.tests" && fail "mutation_check is registered outside a git checkout"
echo "configure: CUDA check; Makefile order; -flto sealed copy; absolute libdirs in tcj.pc; BUILD_TESTING=OFF; no libyaml; tests without tools or git"
