#!/usr/bin/env bash
# Installs the build dependencies tcj needs when they are missing (Debian/Ubuntu): cmake, a C
# compiler, cmocka, libyaml and xxhash. The CUDA toolkit (headers, nvJitLink, cuBLAS) must
# already be installed; this script only checks for it. pkg-config is for the install test.
set -euo pipefail

missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v cc >/dev/null || missing+=(gcc)
command -v pkg-config >/dev/null || missing+=(pkg-config)
[ -f /usr/include/cmocka.h ] || missing+=(libcmocka-dev)
[ -f /usr/include/yaml.h ] || missing+=(libyaml-dev)
[ -f /usr/include/xxhash.h ] || missing+=(libxxhash-dev)
if [ ${#missing[@]} -gt 0 ]; then
  echo "ensure-deps: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

cuda_home=${CUDA_HOME:-/usr/local/cuda}
if [ ! -f "$cuda_home/include/cuda.h" ] && ! command -v nvcc >/dev/null; then
  echo "ensure-deps: the CUDA toolkit was not found (set CUDA_HOME); tcj needs its headers," >&2
  echo "             nvJitLink and cuBLAS" >&2
  exit 1
fi
