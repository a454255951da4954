#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the built tcj and builds consumers against the installed tree, as a user or a packager
# would. Two modes:
#   check.sh BUILD_DIR SOURCE_DIR SCRATCH_DIR
#     installs into a scratch prefix and moves the whole tree elsewhere (a package unpacked in
#     another place), then builds consumers against the moved tree: through the CMake package
#     (tcj::tcj and tcj::tcj_static) and through pkg-config (shared and --static). Checks that
#     nothing installed names the build machine's paths (no absolute xxhash or CUDA path, a tcj.pc
#     relative to itself).
#   check.sh --destdir BUILD_DIR SOURCE_DIR SCRATCH_DIR
#     installs with DESTDIR into SCRATCH_DIR/root at the configured prefix and libdir (which may
#     be absolute), as distribution packages are staged; pkg-config consumers are built through
#     PKG_CONFIG_SYSROOT_DIR.
# Both check that libtcj.a exports tcj_* names only, that tcj.pc has sane paths and xxhash for
# static links, that every installed tool starts (--help) with LD_LIBRARY_PATH unset (its RPATH
# finds libtcj.so) and that the installed tcj-prof finds its default suite in share/tcj.
# The consumers are built with $CC (default cc) and $LDFLAGS, as a sanitized tcj needs its
# runtimes in the program.
set -euo pipefail
mode=relocated
if [ "${1:-}" = --destdir ]; then
  mode=destdir
  shift
fi
[ $# -eq 3 ] || { sed -n '3,19p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
build=$1 src=$2 scratch=$3
fail() { echo "FAIL: $*"; exit 1; }
cache_var() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
rm -rf "$scratch"
mkdir -p "$scratch"
# Absolute paths: tools print theirs, and the checks below compare them.
scratch=$(cd "$scratch" && pwd) build=$(cd "$build" && pwd) src=$(cd "$src" && pwd)

if [ $mode = relocated ]; then
  cmake --install "$build" --prefix "$scratch/staged" >/dev/null
  mkdir -p "$scratch/elsewhere"
  mv "$scratch/staged" "$scratch/elsewhere/prefix"
  prefix=$scratch/elsewhere/prefix
  root=""
  # Nothing installed may point back at the build: the tree has moved, and would on a user's machine.
  grep -rlF "$scratch/staged" "$prefix" && fail "installed files name the staging prefix"
  lib=$(ls -d "$prefix"/lib*/libtcj.a)
  libdir=$(dirname "$lib")
  targets=$libdir/cmake/tcj/tcjTargets.cmake
  grep -q "xxhash" "$targets" || fail "the CMake package does not link xxhash"
  grep -E 'INTERFACE_LINK_LIBRARIES.*/[^";]*xxhash' "$targets" && fail "the CMake package carries an absolute xxhash path"
  pc=$libdir/pkgconfig/tcj.pc
  grep -q '^prefix=${pcfiledir}/' "$pc" || fail "tcj.pc does not find its prefix from its own place"
  grep -E '^(Cflags|Libs).*-[IL]/' "$pc" && fail "tcj.pc bakes in an absolute path"
else
  prefix=$(cache_var CMAKE_INSTALL_PREFIX)
  libdir=$(cache_var CMAKE_INSTALL_LIBDIR)
  case $libdir in /*) ;; *) libdir=$prefix/$libdir ;; esac
  root=$scratch/root
  DESTDIR=$root cmake --install "$build" >/dev/null
  [ -f "$root$prefix/include/tcj.h" ] || fail "tcj.h is not in DESTDIR/$prefix/include"
  lib=$root$libdir/libtcj.a
  [ -f "$lib" ] || fail "libtcj.a is not in DESTDIR$libdir"
  pc=$root$libdir/pkgconfig/tcj.pc
  [ -f "$pc" ] || fail "tcj.pc is not in DESTDIR$libdir/pkgconfig"
  # A libdir given absolute is written as it is, never appended to the prefix.
  grep -E '^[a-z]+=.*//' "$pc" && fail "tcj.pc joins two absolute paths"
  if command -v pkg-config >/dev/null; then
    got=$(PKG_CONFIG_LIBDIR="$(dirname "$pc")" pkg-config --variable=libdir tcj)
    # Relative to the .pc file (the tree may move) or absolute: either way it names DESTDIR's libdir.
    [ "$(cd "$got" 2>/dev/null && pwd -P)" = "$(cd "$root$libdir" && pwd -P)" ] ||
      [ "$got" = "$libdir" ] || fail "tcj.pc's libdir is $got, not $libdir"
  fi
fi
pcdir=$(dirname "$pc")
# The shared library's SONAME carries tcj.h's major version (README, "Versions and ABI").
major=$(sed -n 's/^#define TCJ_VERSION_MAJOR \([0-9]*\)$/\1/p' "$src/include/tcj.h")
soname=$(readelf -d "$(dirname "$lib")/libtcj.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ "$soname" = "libtcj.so.$major" ] || fail "libtcj.so's SONAME is '$soname', not libtcj.so.$major (tcj.h's major)"
grep -q 'xxhash' "$pc" || fail "tcj.pc names no xxhash (Requires.private or Libs.private)"

# libtcj.a: only the public API is global (cache_*, eng_*, ptx_* would collide in user links).
others=$(nm -g --defined-only "$lib" 2>/dev/null | awk 'NF == 3 {print $3}' | grep -v '^tcj_' || true)
[ -z "$others" ] || fail "libtcj.a exports internal names: $(echo $others | head -c 300)"

cuda_inc=$(dirname "$(find "${CUDA_HOME:-/usr/local/cuda}/" -name cuda.h -path '*include*' 2>/dev/null | head -n 1)")
if [ $mode = relocated ]; then
  cmake -S "$src/tests/install" -B "$scratch/cmake" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$scratch/cmake" >/dev/null
  "$scratch/cmake/consumer"
  "$scratch/cmake/consumer_static"
fi
if command -v pkg-config >/dev/null; then
  pc_env=(env PKG_CONFIG_PATH="$pcdir")
  # Under DESTDIR a relocatable tcj.pc needs nothing; an absolute one is re-rooted by the sysroot.
  if [ $mode = destdir ] && ! grep -q '^prefix=${pcfiledir}' "$pc"; then
    pc_env=(env PKG_CONFIG_PATH="$pcdir" PKG_CONFIG_SYSROOT_DIR="$root")
  fi
  static_libs=$("${pc_env[@]}" pkg-config --static --libs tcj)
  case " $static_libs " in *" -lxxhash "*) ;; *) fail "pkg-config --static --libs tcj lacks -lxxhash: $static_libs" ;; esac
  # shellcheck disable=SC2046
  "${CC:-cc}" -o "$scratch/consumer-pc" "$src/tests/install/consumer.c" -I"$cuda_inc" \
    $("${pc_env[@]}" pkg-config --cflags --libs tcj) ${LDFLAGS:-} -Wl,-rpath,"$(dirname "$lib")"
  "$scratch/consumer-pc"
  # shellcheck disable=SC2046
  "${CC:-cc}" -o "$scratch/consumer-pc-static" "$src/tests/install/consumer.c" -I"$cuda_inc" \
    $("${pc_env[@]}" pkg-config --static --cflags tcj) "$lib" \
    $("${pc_env[@]}" pkg-config --static --libs-only-l tcj | sed 's/-ltcj//') ${LDFLAGS:-}
  "$scratch/consumer-pc-static"
else
  echo "check.sh: pkg-config not installed; the .pc file was not exercised"
fi

# Every installed tool starts from the installed tree alone: its RPATH finds libtcj.so.
tools=0
for tool in "$root$prefix"/bin/tcj-*; do
  [ -x "$tool" ] || continue
  tools=$((tools + 1))
  if env -u LD_LIBRARY_PATH ldd "$tool" | grep -q 'not found'; then
    env -u LD_LIBRARY_PATH ldd "$tool" | grep 'not found'
    fail "installed $(basename "$tool") has libraries not found (RPATH)"
  fi
  env -u LD_LIBRARY_PATH "$tool" --help >"$scratch/help" 2>&1 ||
    { cat "$scratch/help"; fail "installed $(basename "$tool") --help"; }
  grep -q "usage" "$scratch/help" || { cat "$scratch/help"; fail "installed $(basename "$tool") --help printed no usage"; }
done
# A build with tools installs tcj-ptx at least (it needs nothing but the library).
if grep -q '^TCJ_BUILD_TOOLS:BOOL=ON' "$build/CMakeCache.txt"; then
  [ -x "$root$prefix/bin/tcj-ptx" ] || fail "tcj-ptx is not installed in $prefix/bin"
fi

# The installed tcj-prof reads its default suite from share/tcj of the installed tree.
if [ -x "$root$prefix/bin/tcj-prof" ]; then
  "$root$prefix/bin/tcj-prof" --dry-run >"$scratch/prof" 2>&1 || { cat "$scratch/prof"; fail "installed tcj-prof --dry-run"; }
  grep -q "of $root$prefix/bin/../share/tcj/suite.yaml" "$scratch/prof" || { head -3 "$scratch/prof"; fail "tcj-prof did not find share/tcj/suite.yaml"; }
  [ -f "$root$prefix/share/tcj/plot_perf.py" ] || fail "plot_perf.py not installed in share/tcj"
fi
if [ $mode = relocated ]; then
  echo "install: relocated prefix; CMake shared and static, pkg-config shared and static; libtcj.a exports tcj_* only; $tools tools start"
else
  echo "install: DESTDIR, prefix $prefix, libdir $libdir; pkg-config shared and static; libtcj.a exports tcj_* only; $tools tools start"
fi
