#!/usr/bin/env bash
# Installs the built tcj into a scratch prefix, then builds a consumer against it twice: through
# the CMake package (find_package(tcj) -> tcj::tcj) and through pkg-config. Usage:
# check.sh BUILD_DIR SOURCE_DIR SCRATCH_DIR. The consumer is built with $CC (default cc) and
# $LDFLAGS, as a sanitized tcj needs its runtimes in the program.
set -euo pipefail
build=$1 src=$2 scratch=$3
rm -rf "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
cmake -S "$src/tests/install" -B "$scratch/cmake" -DCMAKE_PREFIX_PATH="$scratch/prefix" >/dev/null
cmake --build "$scratch/cmake" >/dev/null
"$scratch/cmake/consumer"
if command -v pkg-config >/dev/null; then
  libdir=$(ls -d "$scratch"/prefix/lib*/pkgconfig | head -1)
  flags=$(PKG_CONFIG_PATH="$libdir" pkg-config --define-variable=prefix="$scratch/prefix" --cflags --libs tcj)
  # shellcheck disable=SC2086
  "${CC:-cc}" -o "$scratch/consumer-pc" "$src/tests/install/consumer.c" $flags ${LDFLAGS:-} \
    -Wl,-rpath,"$(dirname "$libdir")"
  "$scratch/consumer-pc"
else
  echo "check.sh: pkg-config not installed; the .pc file was not exercised"
fi
