#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks that a change emits byte-identical PTX: builds the working tree and BASE (a commit,
# default HEAD), lists every kernel config the compile matrix covers at BASE (sm_80, sm_89,
# sm_90a, the Blackwell sample; every dtype, epilogue, batch, generic and split config it
# compiles, without compiling them: TCJ_COMPILE_MATRIX_LIST), and hashes the module each tree's
# tcj-ptx generates for every config (tcj-ptx --hash-configs). Prints the configs whose PTX
# differs and exits 1 if any does; also says whether the working tree's matrix lists other
# configs. Usage: scripts/ptx-identical.sh [BASE] [WORKDIR]
# Needs what the compile matrix needs (NVRTC for the user-epilogue configs); no GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-HEAD}
work=${2:-$(mktemp -d)}
mkdir -p "$work"
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
jobs=$(nproc)

build() { # build SRC DIR
  cmake -S "$1" -B "$2" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release -DTCJ_WERROR=OFF >/dev/null
  cmake --build "$2" -j "$jobs" --target tcj-ptx test_compile_matrix >/dev/null
}

list_configs() { # list BUILD OUT
  rm -f "$2" "$2.cu"
  TCJ_COMPILE_MATRIX_LIST="$2" CI= "$1/tests/test_compile_matrix" >/dev/null 2>&1 || {
    echo "ptx-identical: the compile matrix's list mode failed in $1" >&2; exit 2; }
  sort -u -o "$2" "$2"
}

base_src="$work/base-src"
rm -rf "$base_src"
git worktree add --detach -f "$base_src" "$base" >/dev/null 2>&1 || { echo "ptx-identical: cannot check out $base" >&2; exit 2; }
trap 'git worktree remove --force "$base_src" >/dev/null 2>&1 || true' EXIT
echo "ptx-identical: building $base ($(git rev-parse --short "$base")) and the working tree"
build "$base_src" "$work/base"
build . "$work/head"
list_configs "$work/base" "$work/base.list"
list_configs "$work/head" "$work/head.list"
n=$(wc -l <"$work/base.list")
echo "ptx-identical: $n configs listed at $base"
if ! cmp -s "$work/base.list" "$work/head.list"; then
  echo "ptx-identical: note: the working tree's matrix lists other configs ($(comm -13 "$work/base.list" "$work/head.list" | wc -l) new, $(comm -23 "$work/base.list" "$work/head.list" | wc -l) gone); hashing $base's list"
fi
"$work/base/tools/tcj-ptx" --hash-configs "$work/base.list" --epilogue-source "$work/base.list.cu" >"$work/base.hash"
"$work/head/tools/tcj-ptx" --hash-configs "$work/base.list" --epilogue-source "$work/base.list.cu" >"$work/head.hash"
errors=$(grep -c '^error:' "$work/base.hash" || true)
if diff "$work/base.hash" "$work/head.hash" >"$work/diff"; then
  echo "ptx-identical: all $n modules identical ($errors configs generate no module in either tree)"
  exit 0
fi
echo "ptx-identical: $(grep -c '^>' "$work/diff") of $n modules differ (base <, working tree >):"
head -40 "$work/diff"
exit 1
