#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# One command for the GPU machine: unpack the Debian packages carried in .deps/, build (Release,
# -Werror), run the `gpu` tests, the CPU unit tests, tcj-bench and a subset of the API fuzz test
# under compute-sanitizer, with a log per step in OUTDIR and a summary at the end. Exit status: 0
# if every step passed, 1 otherwise, 2 on bad usage.
#
#   scripts/gpu-check.sh [OUTDIR]          (default OUTDIR: $PWD/gpu-logs)
#
# Environment: GPU_CHECK_STEPS  steps to run, default "build gpu unit bench memcheck"; add "prof"
#                               for tcj-prof over the standard suite (results in OUTDIR/prof)
#              TCJ_BENCH_ARGS   arguments for tcj-bench (e.g. --quick)
#              TCJ_PROF_ARGS    more arguments for tcj-prof (e.g. --filter sq --repeat 50)
#              TCJ_BUILD_DIR    build directory (default <repo>/build-gpu-check)
#              UNIT_TIMEOUT     per-test timeout of the unit tests in seconds (default 600)
#              MEMCHECK_CALLS   calls of test_api_fuzz_gpu run under compute-sanitizer memcheck in
#                               step "memcheck" (default 300; the gpu step runs its full 3000)
#              TCJ_TEST_SEED    seed of test_api_fuzz_gpu in both steps (default: from the clock,
#                               printed in the logs); TCJ_TEST_FUZZ_CALLS sets the gpu step's count
# Each step gets a fresh kernel cache (TCJ_CACHE_DIR), so no cubin of an earlier build is reused.
set -u -o pipefail

case "${1:-}" in
-h | --help)
  sed -n '3,20p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
  ;;
-*)
  echo "gpu-check.sh: unknown option '$1' (usage: scripts/gpu-check.sh [OUTDIR])" >&2
  exit 2
  ;;
esac
[ $# -le 1 ] || { echo "usage: scripts/gpu-check.sh [OUTDIR]" >&2; exit 2; }

root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$PWD/gpu-logs}
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2
build=${TCJ_BUILD_DIR:-$root/build-gpu-check}
steps=${GPU_CHECK_STEPS:-build gpu unit bench memcheck}
deps=/tmp/deps
jobs=$(nproc 2>/dev/null || echo 8)

declare -a names results secs
record() { names+=("$1"); results+=("$2"); secs+=("$3"); }
wants() { case " $steps " in *" $1 "*) return 0 ;; esac; return 1; }
fresh_cache() { mktemp -d /tmp/tcj-cache.XXXXXX; }

# ---- environment: packages, CUDA, machine facts ------------------------------------------
if [ -d "$root/.deps" ] && ls "$root"/.deps/*.deb >/dev/null 2>&1; then
  mkdir -p "$deps"
  for f in "$root"/.deps/*.deb; do dpkg -x "$f" "$deps" || { echo "dpkg -x $f failed" >&2; exit 1; }; done
fi
export LD_LIBRARY_PATH=$deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
[ -d /usr/local/cuda/bin ] && export PATH=/usr/local/cuda/bin:$PATH
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "host: $(hostname)"
  echo "repo: $root"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  command -v nvcc >/dev/null && nvcc --version | tail -n 2
  cmake --version | head -n 1
} >"$out/env.log" 2>&1

# ---- build -------------------------------------------------------------------------------
built=1
if wants build; then
  t0=$SECONDS
  # A cache from another source tree or generator cannot be reused.
  if [ -f "$build/CMakeCache.txt" ] && ! grep -qx "CMAKE_HOME_DIRECTORY:INTERNAL=$root" "$build/CMakeCache.txt"; then
    rm -rf "$build"
  fi
  gen=()
  command -v ninja >/dev/null && gen=(-G Ninja)
  if [ -f "$build/CMakeCache.txt" ] && [ ${#gen[@]} -gt 0 ] && ! grep -q "CMAKE_GENERATOR:INTERNAL=Ninja" "$build/CMakeCache.txt"; then
    rm -rf "$build"
  fi
  {
    cmake -S "$root" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DTCJ_WERROR=ON \
      -DCMAKE_PREFIX_PATH="$deps/usr" &&
      cmake --build "$build" -j "$jobs"
  } 2>&1 | tee "$out/build.log"
  if [ "${PIPESTATUS[0]}" -eq 0 ]; then record build PASS $((SECONDS - t0)); else record build FAIL $((SECONDS - t0)); built=0; fi
elif [ ! -f "$build/CMakeCache.txt" ]; then
  built=0
fi

# ---- GPU tests ---------------------------------------------------------------------------
if wants gpu; then
  if [ $built -eq 0 ]; then
    record gpu-tests "SKIP(no build)" 0
  else
    t0=$SECONDS
    cache=$(fresh_cache)
    (cd "$build" && TCJ_CACHE_DIR=$cache ctest -L gpu --output-on-failure -V) 2>&1 | tee "$out/gpu-tests.log"
    rc=${PIPESTATUS[0]}
    rm -rf "$cache"
    if grep -q "SKIP: no GPU" "$out/gpu-tests.log"; then
      record gpu-tests "FAIL(no GPU seen)" $((SECONDS - t0))
    elif [ "$rc" -eq 0 ] && grep -q "tests passed" "$out/gpu-tests.log"; then
      record gpu-tests PASS $((SECONDS - t0))
    else
      record gpu-tests FAIL $((SECONDS - t0))
    fi
  fi
fi

# ---- CPU unit tests ----------------------------------------------------------------------
if wants unit; then
  if [ $built -eq 0 ]; then
    record unit-tests "SKIP(no build)" 0
  else
    t0=$SECONDS
    cache=$(fresh_cache)
    (cd "$build" && TCJ_CACHE_DIR=$cache ctest -L unit --output-on-failure -j "$jobs" --timeout "${UNIT_TIMEOUT:-600}") 2>&1 | tee "$out/unit-tests.log"
    rc=${PIPESTATUS[0]}
    rm -rf "$cache"
    if [ "$rc" -eq 0 ]; then record unit-tests PASS $((SECONDS - t0)); else record unit-tests FAIL $((SECONDS - t0)); fi
  fi
fi

# ---- benchmark against cuBLAS ------------------------------------------------------------
if wants bench; then
  if [ $built -eq 0 ] || [ ! -x "$build/tools/tcj-bench" ]; then
    record bench "SKIP(no build)" 0
  else
    t0=$SECONDS
    # shellcheck disable=SC2086 # TCJ_BENCH_ARGS is a list of words
    (unset TCJ_CACHE_DIR; "$build/tools/tcj-bench" ${TCJ_BENCH_ARGS:-}) 2>&1 | tee "$out/bench.log"
    rc=${PIPESTATUS[0]}
    if ! grep -q "^tcj-bench: GPU mode" "$out/bench.log"; then
      record bench "FAIL(no GPU seen)" $((SECONDS - t0))
    elif [ "$rc" -eq 0 ]; then
      record bench PASS $((SECONDS - t0))
    else
      record bench FAIL $((SECONDS - t0))
    fi
  fi
fi

# ---- profiler against cuBLAS (optional) --------------------------------------------------
if wants prof; then
  if [ $built -eq 0 ] || [ ! -x "$build/tools/tcj-prof" ]; then
    record prof "SKIP(no build)" 0
  else
    t0=$SECONDS
    cache=$(fresh_cache)
    # shellcheck disable=SC2086 # TCJ_PROF_ARGS is a list of words
    (TCJ_CACHE_DIR=$cache "$build/tools/tcj-prof" --out "$out/prof" ${TCJ_PROF_ARGS:-}) 2>&1 | tee "$out/prof.log"
    rc=${PIPESTATUS[0]}
    rm -rf "$cache"
    if grep -q "^tcj-prof: no GPU" "$out/prof.log"; then
      record prof "FAIL(no GPU seen)" $((SECONDS - t0))
    elif [ "$rc" -eq 0 ]; then
      record prof PASS $((SECONDS - t0))
    else
      record prof FAIL $((SECONDS - t0))
    fi
  fi
fi

# ---- API fuzz subset under compute-sanitizer ----------------------------------------------
# Out-of-bounds or misaligned device accesses that the fuzz test's own checks cannot see (a read
# inside a mapping but outside the operand, shared memory); --error-exitcode turns any into a FAIL.
if wants memcheck; then
  sanitizer=$(command -v compute-sanitizer || true)
  if [ $built -eq 0 ] || [ ! -x "$build/tests/test_api_fuzz_gpu" ]; then
    record memcheck "SKIP(no build)" 0
  elif [ -z "$sanitizer" ]; then
    record memcheck "FAIL(no compute-sanitizer)" 0
  else
    t0=$SECONDS
    cache=$(fresh_cache)
    (cd "$build" && TCJ_CACHE_DIR=$cache TCJ_TEST_FUZZ_CALLS=${MEMCHECK_CALLS:-300} \
      "$sanitizer" --tool memcheck --error-exitcode 1 ./tests/test_api_fuzz_gpu) 2>&1 | tee "$out/memcheck.log"
    rc=${PIPESTATUS[0]}
    rm -rf "$cache"
    if grep -q "SKIP: no GPU" "$out/memcheck.log"; then
      record memcheck "FAIL(no GPU seen)" $((SECONDS - t0))
    elif [ "$rc" -eq 0 ] && grep -q "ERROR SUMMARY: 0 errors" "$out/memcheck.log"; then
      record memcheck PASS $((SECONDS - t0))
    else
      record memcheck FAIL $((SECONDS - t0))
    fi
  fi
fi

# ---- summary -----------------------------------------------------------------------------
status=0
for r in "${results[@]}"; do [ "$r" = PASS ] || status=1; done
[ ${#names[@]} -gt 0 ] || status=1
{
  echo
  echo "==== gpu-check summary ($(date -u '+%Y-%m-%d %H:%M:%S UTC'), logs in $out)"
  grep -E "^[^,]+, [0-9.]+, " "$out/env.log" | sed 's/^/GPU: /'
  printf '%-12s %-18s %7s  %s\n' step result seconds log
  for i in "${!names[@]}"; do
    log=${names[$i]}.log
    printf '%-12s %-18s %7s  %s\n' "${names[$i]}" "${results[$i]}" "${secs[$i]}" "$out/$log"
  done
  if [ -f "$out/bench.log" ] && wants bench; then
    echo
    grep -E "^(GPU|CUDA|date):" "$out/bench.log"
    sed -n '/^problem /,$p' "$out/bench.log"
  fi
  if [ -f "$out/prof/results.txt" ] && wants prof; then
    echo
    grep -E "^(device|date|peaks):" "$out/prof/results.txt"
    grep -E "^(geomean|status):" "$out/prof/results.txt"
    echo "profile: $out/prof/results.{txt,csv,json,png}"
  fi
  [ ${#names[@]} -gt 0 ] || echo "no step ran (GPU_CHECK_STEPS='$steps')"
  echo "overall: $([ $status -eq 0 ] && echo PASS || echo FAIL)"
} | tee "$out/summary.log"
exit $status
