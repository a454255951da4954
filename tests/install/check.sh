#!/usr/bin/env bash
# Installs the built tcj into a scratch prefix and moves the whole tree elsewhere (a package
# unpacked in another place), then builds consumers against the moved tree: through the CMake
# package (tcj::tcj and tcj::tcj_static) and through pkg-config (shared and --static). Checks
# that nothing installed names the build machine's paths (no absolute xxhash or CUDA path, a
# tcj.pc relative to itself), that libtcj.a exports tcj_* names only, and that the installed
# tcj-prof finds its default suite in share/tcj. Usage: check.sh BUILD_DIR SOURCE_DIR SCRATCH_DIR.
# The consumers are built with $CC (default cc) and $LDFLAGS, as a sanitized tcj needs its
# runtimes in the program.
set -euo pipefail
build=$1 src=$2 scratch=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$scratch"
cmake --install "$build" --prefix "$scratch/staged" >/dev/null
mkdir -p "$scratch/elsewhere"
mv "$scratch/staged" "$scratch/elsewhere/prefix"
prefix=$scratch/elsewhere/prefix

# Nothing installed may point back at the build: the tree has moved, and would on a user's machine.
grep -rlF "$scratch/staged" "$prefix" && fail "installed files name the staging prefix"
targets=$(ls "$prefix"/lib*/cmake/tcj/tcjTargets.cmake)
grep -q "xxhash" "$targets" || fail "the CMake package does not link xxhash"
grep -E 'INTERFACE_LINK_LIBRARIES.*/[^";]*xxhash' "$targets" && fail "the CMake package carries an absolute xxhash path"
pc=$(ls "$prefix"/lib*/pkgconfig/tcj.pc)
grep -q '^prefix=${pcfiledir}/' "$pc" || fail "tcj.pc does not find its prefix from its own place"
grep -E '^(Cflags|Libs).*-[IL]/' "$pc" && fail "tcj.pc bakes in an absolute path"

# libtcj.a: only the public API is global (cache_*, eng_*, ptx_* would collide in user links).
lib=$(ls "$prefix"/lib*/libtcj.a)
others=$(nm -g --defined-only "$lib" 2>/dev/null | awk 'NF == 3 {print $3}' | grep -v '^tcj_' || true)
[ -z "$others" ] || fail "libtcj.a exports internal names: $(echo $others | head -c 300)"

cuda_inc=$(dirname "$(find "${CUDA_HOME:-/usr/local/cuda}/" -name cuda.h -path '*include*' 2>/dev/null | head -n 1)")
cmake -S "$src/tests/install" -B "$scratch/cmake" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$scratch/cmake" >/dev/null
"$scratch/cmake/consumer"
"$scratch/cmake/consumer_static"
if command -v pkg-config >/dev/null; then
  pcdir=$(dirname "$pc")
  # shellcheck disable=SC2046
  "${CC:-cc}" -o "$scratch/consumer-pc" "$src/tests/install/consumer.c" -I"$cuda_inc" \
    $(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs tcj) ${LDFLAGS:-} -Wl,-rpath,"$(dirname "$pcdir")"
  "$scratch/consumer-pc"
  # shellcheck disable=SC2046
  "${CC:-cc}" -o "$scratch/consumer-pc-static" "$src/tests/install/consumer.c" -I"$cuda_inc" \
    $(PKG_CONFIG_PATH="$pcdir" pkg-config --static --cflags tcj) "$lib" \
    $(PKG_CONFIG_PATH="$pcdir" pkg-config --static --libs-only-l tcj | sed 's/-ltcj//') ${LDFLAGS:-}
  "$scratch/consumer-pc-static"
else
  echo "check.sh: pkg-config not installed; the .pc file was not exercised"
fi

# The installed tcj-prof reads its default suite from share/tcj of the moved tree.
if [ -x "$prefix/bin/tcj-prof" ]; then
  "$prefix/bin/tcj-prof" --dry-run >"$scratch/prof" 2>&1 || { cat "$scratch/prof"; fail "installed tcj-prof --dry-run"; }
  grep -q "of $prefix/bin/../share/tcj/suite.yaml" "$scratch/prof" || { head -3 "$scratch/prof"; fail "tcj-prof did not find share/tcj/suite.yaml"; }
  [ -f "$prefix/share/tcj/plot_perf.py" ] || fail "plot_perf.py not installed in share/tcj"
fi
echo "install: relocated prefix; CMake shared and static, pkg-config shared and static; libtcj.a exports tcj_* only"
