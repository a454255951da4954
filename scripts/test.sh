#!/usr/bin/env bash
# Builds tcj with warnings as errors and runs every test: the CPU tests, and the GPU tests
# (label `gpu`), which skip with a message when no GPU is present. Then a second build, with
# clang, AddressSanitizer, UBSan and libFuzzer, in BUILD_DIR-asan, runs the CPU tests again and
# fuzzes each parser for TCJ_FUZZ_SECONDS (default 60). Usage: scripts/test.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
asan=$build-asan
jobs=$(nproc)
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)

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
# In the sanitizer build any report fails its test, UBSan's too, with a stack trace.
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Leaks inside NVIDIA's nvJitLink only, and reads inside NVIDIA's NVRTC only (tests/lsan.supp
# and tests/asan.supp say which and why).
export LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp:print_suppressions=0
export ASAN_OPTIONS=suppressions=$PWD/tests/asan.supp:print_suppressions=0
phase "build (clang: ASan, UBSan, libFuzzer; -Werror)" build_asan
phase "CPU tests (ASan, UBSan)" ctest --test-dir "$asan" --output-on-failure -j "$jobs" -L unit
phase "fuzzers (${TCJ_FUZZ_SECONDS:-60} s each)" ctest --test-dir "$asan" --output-on-failure -j "$jobs" -L fuzz
