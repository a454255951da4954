#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job: builds tcj and runs tcj-bench. With a GPU: GEMMs through tcj_gemm checked
# against cuBLAS, with their speed. Without one: compiles the kernels tcj would select for
# sm_80 and sm_90a into cubins through nvJitLink. Usage: scripts/run.sh [tcj-bench args]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-deps.sh
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S . -B build "${gen[@]}" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)" --target tcj-bench
exec ./build/tools/tcj-bench "$@"
