#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the build dependencies tcj needs when they are missing (Debian/Ubuntu): cmake, a C
# compiler, cmocka, libyaml and xxhash, and clang with libFuzzer's runtime for the sanitizer and
# fuzz build of scripts/test.sh, gfortran for Netlib's BLAS testers, and python3-venv where python3 has neither pytest nor venv (the
# Python package's CPU tests), and python3-dev where python3 has no headers (its C fast path). The CUDA toolkit (headers, nvJitLink, cuBLAS) must already be
# installed; this script only checks for it. pkg-config is for the install test; ninja, so that
# scripts/test.sh builds with both generators (the scripts also work without it).
set -euo pipefail

updated=0
install() {
  echo "ensure-deps: installing $*"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  [ $updated -eq 1 ] || $sudo apt-get update -qq
  updated=1
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v cc >/dev/null || missing+=(gcc)
command -v clang >/dev/null || missing+=(clang)
command -v pkg-config >/dev/null || missing+=(pkg-config)
command -v ninja >/dev/null || missing+=(ninja-build)
command -v gfortran >/dev/null || missing+=(gfortran) # Netlib's BLAS-3 testers (tests/netlib)
[ -f /usr/include/cmocka.h ] || missing+=(libcmocka-dev)
[ -f /usr/include/yaml.h ] || missing+=(libyaml-dev)
[ -f /usr/include/xxhash.h ] || missing+=(libxxhash-dev)
# The Python package's CPU tests (scripts/test-python.sh) take the interpreter's pytest, else pip
# it into a virtual environment, which Debian's python3 makes only with python3-venv.
venv_works() {
  local dir rc=0
  dir=$(mktemp -d)
  python3 -m venv "$dir/v" >/dev/null 2>&1 || rc=1
  rm -rf "$dir"
  return $rc
}
if command -v python3 >/dev/null && ! python3 -c 'import pytest' 2>/dev/null && ! venv_works; then
  missing+=(python3-venv)
fi
# Python's headers: the package's C fast path (tcj._fastcall, python/CMakeLists.txt), which the
# CPU tests require under CI.
if command -v python3 >/dev/null &&
  ! python3 -c 'import os, sysconfig, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))'; then
  missing+=(python3-dev)
fi
[ ${#missing[@]} -eq 0 ] || install "${missing[@]}"

# Whether clang links a fuzzer with the sanitizers: their runtimes ship apart from clang itself
# on some releases (Debian's libclang-rt-dev).
fuzzer_links() {
  local dir rc=0
  dir=$(mktemp -d)
  echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; return n == 1; }' >"$dir/f.c"
  clang -fsanitize=fuzzer,address,undefined "$dir/f.c" -o "$dir/f" >/dev/null 2>&1 || rc=1
  rm -rf "$dir"
  return $rc
}
if ! fuzzer_links; then
  install libclang-rt-dev
  fuzzer_links || { echo "ensure-deps: clang cannot link a libFuzzer program with ASan and UBSan" >&2; exit 1; }
fi

cuda_home=${CUDA_HOME:-/usr/local/cuda}
if [ ! -f "$cuda_home/include/cuda.h" ] && ! command -v nvcc >/dev/null; then
  echo "ensure-deps: the CUDA toolkit was not found (set CUDA_HOME); tcj needs its headers," >&2
  echo "             nvJitLink and cuBLAS" >&2
  exit 1
fi
