#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds tcj with warnings as errors and runs every test: the CPU tests, and the GPU tests
# (label `gpu`), which skip with a message when no GPU is present, and the Python package's CPU
# tests against that build's library (scripts/test-python.sh), and the package's own CMake build
# (what `pip install .` runs), staged and checked to need only libc. Then a packager's build, with
# CMake's default generator (Unix Makefiles), -flto, a non-default prefix and an absolute libdir,
# in BUILD_DIR-pkg: the library and tools only, installed into a DESTDIR and checked there
# (tests/install/check.sh --destdir: consumers, exports, installed tools run without
# LD_LIBRARY_PATH). Then a build with clang, AddressSanitizer, UBSan and libFuzzer, in
# BUILD_DIR-asan, runs the CPU tests again and fuzzes each parser for TCJ_FUZZ_SECONDS
# (default 60). The first and the sanitizer builds use Ninja where it is installed.
# Usage: scripts/test.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
asan=$build-asan
pkg=$build-pkg
jobs=$(nproc)
gen=()
if command -v ninja >/dev/null; then
  gen=(-G Ninja)
else
  echo "test.sh: ninja not found; every build uses Unix Makefiles"
fi

# phase NAME COMMAND...: runs the command between two lines naming it, the second with its
# duration, so that CI logs show where the time goes. A failure ends the script.
phase() {
  local name=$1 start=$SECONDS rc=0
  shift
  echo "=== $name"
  "$@" || rc=$?
  echo "=== $name: $((SECONDS - start)) s$([ $rc -eq 0 ] || echo ", failed (exit $rc)")"
  return $rc
}

build_release() {
  cmake -S . -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DTCJ_WERROR=ON >/dev/null
  cmake --build "$build" -j "$jobs"
}

# A distribution's build: the default generator, LTO, prefix /opt/tcj and libdir given absolute.
build_packager() {
  rm -rf "$pkg"
  cmake -S . -B "$pkg" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Release -DTCJ_WERROR=ON \
    -DBUILD_TESTING=OFF -DCMAKE_C_FLAGS=-flto=auto -DCMAKE_INSTALL_PREFIX=/opt/tcj \
    -DCMAKE_INSTALL_LIBDIR=/opt/tcj/lib64 >/dev/null
  cmake --build "$pkg" -j "$jobs"
}

# The Python package's build as pyproject.toml runs it (TCJ_PYTHON, the target tcj_python), staged
# with cmake --install: the package's library and its tcj-warmup must need nothing but libc and
# libm where the wheel is installed (libyaml and xxhash linked in, CUDA dlopened).
build_python_package() {
  local py=$build-py stage=$build-py/stage f
  rm -rf "$py"
  cmake -S . -B "$py" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DTCJ_WERROR=ON -DTCJ_PYTHON=ON \
    -DTCJ_BUILD_TOOLS=OFF -DTCJ_BUILD_TESTS=OFF -DBUILD_TESTING=OFF >/dev/null
  cmake --build "$py" --target tcj_python -j "$jobs"
  cmake --install "$py" --prefix "$stage" >/dev/null
  for f in "$stage/tcj/libtcj.so.1" "$stage/tcj/bin/tcj-warmup"; do
    [ -f "$f" ] || { echo "test.sh: the package build did not install $f" >&2; return 1; }
    if ldd "$f" | grep -v -E 'linux-vdso|ld-linux|/lib(c|m|dl|pthread|rt)\.so'; then
      echo "test.sh: $f needs the libraries above; the wheel would not carry them" >&2
      return 1
    fi
  done
  "$stage/tcj/bin/tcj-warmup" --help >/dev/null
  # The C fast path, where the build found Python's headers (ensure-deps installs them): no
  # library at all beyond what the interpreter has loaded (it calls libtcj through an address).
  if python3 -c 'import os, sysconfig, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
    f="$stage/tcj/_fastcall.abi3.so"
    [ -f "$f" ] || { echo "test.sh: the package build did not install $f" >&2; return 1; }
    if ldd "$f" | grep -v -E 'linux-vdso|ld-linux|statically linked|/lib(c|m|dl|pthread)\.so'; then
      echo "test.sh: $f needs the libraries above" >&2
      return 1
    fi
  fi
}

build_asan() {
  local seconds=()
  [ -n "${TCJ_FUZZ_SECONDS:-}" ] && seconds=(-DTCJ_FUZZ_SECONDS="$TCJ_FUZZ_SECONDS")
  CC=clang cmake -S . -B "$asan" "${gen[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTCJ_SANITIZE=ON \
    -DTCJ_FUZZ=ON -DTCJ_WERROR=ON "${seconds[@]}" >/dev/null
  cmake --build "$asan" -j "$jobs"
}

phase "dependencies" bash scripts/ensure-deps.sh
phase "build (release, -Werror)" build_release
phase "tests (release)" ctest --test-dir "$build" --output-on-failure -j "$jobs"
phase "Python package: CPU tests (against $build's libtcj)" bash scripts/test-python.sh "$build"
phase "Python package's build (TCJ_PYTHON: libtcj.so.1 and tcj-warmup, libc only)" build_python_package
phase "build (Unix Makefiles, -flto, absolute libdir; library and tools)" build_packager
phase "install (DESTDIR; consumers; installed tools without LD_LIBRARY_PATH)" \
  bash tests/install/check.sh --destdir "$pkg" "$PWD" "$pkg/install-check"
# In the sanitizer build any report fails its test, UBSan's too, with a stack trace.
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Leaks inside NVIDIA's nvJitLink only, and reads inside NVIDIA's NVRTC only (tests/lsan.supp
# and tests/asan.supp say which and why).
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
export ASAN_OPTIONS=suppressions=$PWD/tests/asan.supp:print_suppressions=0
phase "build (clang: ASan, UBSan, libFuzzer; -Werror)" build_asan
phase "CPU tests (ASan, UBSan)" ctest --test-dir "$asan" --output-on-failure -j "$jobs" -L unit
phase "fuzzers (${TCJ_FUZZ_SECONDS:-60} s each)" ctest --test-dir "$asan" --output-on-failure -j "$jobs" -L fuzz
