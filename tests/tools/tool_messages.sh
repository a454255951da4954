#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The tools' messages for bad input, verbatim: each names the argument and the rule, as the
# library does, and exits with the status the tool documents (2: bad usage or arguments).
# Usage: tool_messages.sh TCJ_PTX TCJ_WARMUP SCRATCH_DIR
set -euo pipefail
tcj_ptx=$1 warmup=$2 dir=$3
rm -rf "$dir"
mkdir -p "$dir"
unset TCJ_TILE TCJ_RECIPE TCJ_CACHE_MAX_BYTES TCJ_CACHE_DISABLE TCJ_CACHE_DIR
fails=0
# expect RC TEXT CMD...: CMD exits RC and its stderr holds TEXT; REFUSE (optional, global) must
# not appear.
expect() {
  local want_rc=$1 text=$2
  shift 2
  set +e
  "$@" >"$dir/out" 2>"$dir/err" </dev/null
  local rc=$?
  set -e
  if [ $rc -ne "$want_rc" ] || ! grep -qF -- "$text" "$dir/err" || { [ -n "${refuse:-}" ] && grep -qF -- "$refuse" "$dir/err"; }; then
    echo "FAIL: $* exited $rc (wanted $want_rc) with stderr:"
    sed 's/^/  | /' "$dir/err"
    echo "  wanted: $text${refuse:+ (and not: $refuse)}"
    fails=$((fails + 1))
  fi
  refuse=""
}
ptx=("$tcj_ptx" --arch sm_80 --dtype bf16)
expect 2 "tcj-ptx: lda = 3 is below its minimum 4096" "${ptx[@]}" --m 64 --n 64 --k 4096 --lda 3
expect 2 "tcj-ptx: ldc = 10 is below its minimum 64" "${ptx[@]}" --m 64 --n 64 --k 64 --ldc 10
expect 1 "tcj-ptx: m = 99999999999 exceeds 2^31 - 1" "${ptx[@]}" --m 99999999999 --n 64 --k 64
refuse=TCJ_RECIPE
expect 1 "tcj-ptx: --recipe sm90: the sm90 recipe needs sm_90a" "${ptx[@]}" --m 64 --n 64 --k 64 --recipe sm90
expect 1 "TCJ_RECIPE=sm90: the sm90 recipe needs sm_90a" env TCJ_RECIPE=sm90 "${ptx[@]}" --m 64 --n 64 --k 64
# fp8: the engine's rules, through tcj_gemm_ex's checks (C bf16 by default; an fp8 C is refused).
fp8=("$tcj_ptx" --dtype e4m3 --m 256 --n 256 --k 256)
expect 1 "tcj-ptx: fp8 operands need sm_89 or newer (mma.sync e4m3/e5m2)" "${fp8[@]}" --arch sm_80 --op-b T
expect 1 "tcj-ptx: a=e4m3 b=e4m3 c=e4m3 is not supported" "${fp8[@]}" --arch sm_90a --c-dtype e4m3
expect 1 "tcj-ptx: a=bf16 b=e4m3 c=bf16 is not supported" "${ptx[@]}" --m 8 --n 8 --k 8 --b-dtype e4m3
expect 2 "tcj-ptx: unknown b dtype: e6m1" "${fp8[@]}" --arch sm_90a --b-dtype e6m1
expect 2 "tcj-ptx: fast_accum is set but the operands are bf16: scales, amax_d and fast_accum are for e4m3/e5m2" \
  "${ptx[@]}" --m 8 --n 8 --k 8 --fast-accum
expect 2 "tcj-ptx: scale_mode is set but the operands are bf16" "${ptx[@]}" --m 8 --n 8 --k 8 --block-scales
expect 2 "tcj-ptx: fast_accum with TCJ_SCALE_BLOCK: block scales are applied where the partial sums are promoted" \
  "${fp8[@]}" --arch sm_90a --op-b T --fast-accum --block-scales
expect 1 "tcj-ptx: block scales run on the sm90 recipe only" "${fp8[@]}" --arch sm_89 --op-b T --block-scales
expect 1 "tcj-ptx: block scales with batch_count = 2: not supported (one GEMM per call)" "${fp8[@]}" --arch sm_90a \
  --op-b T --block-scales --batch 2
expect 2 "tcj-ptx: a = 0x100000000001 is not aligned to its 2-byte element" "${ptx[@]}" --m 8 --n 8 --k 8 --align-a 1
expect 2 "tcj-ptx: --epilogue wants none, bias, bias_relu, bias_gelu, bias_gelu_tanh, bias_silu, swiglu or bias_swiglu: gelu" "${ptx[@]}" \
  --m 8 --n 8 --k 8 --epilogue gelu
expect 2 "tcj-ptx: --broadcast-b needs --batch 2 or more" "${ptx[@]}" --m 8 --n 8 --k 8 --broadcast-b
expect 1 "tcj-ptx: activation gelu on s32 output: s8 GEMMs take ReLU only" "$tcj_ptx" --arch sm_80 --dtype s8 --m 64 --n 64 \
  --k 64 --epilogue bias_gelu
expect 1 "tcj-ptx: a=bf16 b=bf16 d=s32 is not supported" "${ptx[@]}" --m 8 --n 8 --k 8 --d-dtype s32
expect 1 "tcj-ptx: batch_count = 4294967296 exceeds 2^31 - 1" "${ptx[@]}" --m 8 --n 8 --k 8 --batch 4294967296
expect 2 "tcj-ptx: --epilogue-source $dir/none.cu: No such file or directory" "${ptx[@]}" --m 8 --n 8 --k 8 \
  --epilogue-source "$dir/none.cu"

mkdir -p "$dir/a-directory"
expect 2 "$dir/a-directory: is a directory, not a manifest file" "$warmup" --arch sm_80 --dry-run "$dir/a-directory"
printf 'dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1}\n' >"$dir/ok.yaml"
printf 'dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 1, batch: 1, broadcast_b: true}\n' >"$dir/bcast.yaml"
expect 2 "$dir/bcast.yaml:3:47: broadcast_b: true needs batch: 2 or more (problem #1 has one entry)" "$warmup" --arch sm_80 \
  --dry-run "$dir/bcast.yaml"
# The fp8 keys, and the outputs of f32 (TCJ_F32) and f64 operands: bad values and combinations
# exit 2 with FILE:LINE:COL.
while IFS='|' read -r yaml text; do
  printf 'problems:\n  - %s\n' "$yaml" >"$dir/fp8.yaml"
  expect 2 "$dir/fp8.yaml:2:$text" "$warmup" --arch sm_90a --dry-run "$dir/fp8.yaml"
done <<'EOF'
{dtype: f8, m: 8, n: 8, k: 8}|13: dtype: unknown type f8 (f16 bf16 f32 tf32 f64 e4m3 e5m2 s8)
{dtype: f64, m: 8, n: 8, k: 8, c_dtype: f32}|45: c_dtype: f32 cannot be the output of dtype f64 (f64 gives f64)
{dtype: f32, m: 8, n: 8, k: 8, d_dtype: bf16}|45: d_dtype: bf16 cannot be the output of dtype f32 (f32 gives f32)
{dtype: f64, m: 8, n: 8, k: 8, scale: block}|43: scale: block needs fp8 operands, dtype: e4m3 or e5m2 (problem #1 is f64)
{dtype: bf16, m: 8, n: 8, k: 8, b_dtype: e5m2}|46: b_dtype: e5m2 needs fp8 operands, dtype: e4m3 or e5m2 (problem #1 is bf16)
{dtype: e4m3, m: 8, n: 8, k: 8, b_dtype: bf16}|46: b_dtype: unknown type bf16 (e4m3 e5m2)
{dtype: s8, m: 8, n: 8, k: 8, fast_accum: true}|47: fast_accum: true needs fp8 operands, dtype: e4m3 or e5m2 (problem #1 is s8)
{dtype: e4m3, m: 8, n: 8, k: 8, fast_accum: 1}|49: fast_accum: expected true or false, got 1
{dtype: e4m3, m: 8, n: 8, k: 8, scale: rows}|44: scale: unknown scale mode rows (tensor block row)
{dtype: f16, m: 8, n: 8, k: 8, scale: block}|43: scale: block needs fp8 operands, dtype: e4m3 or e5m2 (problem #1 is f16)
{name: x, dtype: e5m2, m: 8, n: 8, k: 8, fast_accum: true, scale: block}|71: scale: block with fast_accum: true: block scales are applied where the partial sums are promoted, which fast accumulation skips (problem x)
{dtype: e4m3, m: 8, n: 8, k: 8, c_dtype: e4m3}|46: c_dtype: e4m3: C is f16, bf16, f32, f64 or s32; an fp8 output is a D apart from C (d_dtype: e4m3)
{dtype: bf16, m: 8, n: 8, k: 8, d_dtype: e4m3}|46: d_dtype: e4m3 cannot be the output of dtype bf16 (bf16 gives f16, bf16 or f32)
{dtype: e4m3, m: 8, n: 8, k: 8, d_dtype: s32}|46: d_dtype: s32 cannot be the output of dtype e4m3 (e4m3 gives f16, bf16, f32, e4m3 or e5m2)
EOF
expect 2 "TCJ_CACHE_MAX_BYTES='10X' is not a byte count" env TCJ_CACHE_MAX_BYTES=10X "$warmup" --arch sm_80 --dry-run \
  --cache-dir "$dir/cache" "$dir/ok.yaml"
# An explicit --cache-dir wins: a HOME too long for a default path does not matter then.
long_home=$(printf 'h%.0s' $(seq 5000))
if ! HOME="$long_home" "$warmup" --arch sm_80 --dry-run --cache-dir "$dir/cache" "$dir/ok.yaml" >"$dir/out" 2>&1; then
  echo "FAIL: tcj-warmup --cache-dir with a 5000-character HOME: $(head -c 300 "$dir/out")"
  fails=$((fails + 1))
fi
refuse= expect 2 "tcj-ptx: unknown arch sm_+80" "$tcj_ptx" --arch "sm_+80" --dtype bf16 --m 8 --n 8 --k 8
# --candidates: the selected config and how to force it, then the sm90 configs ranked, each
# with its estimate and forcing variables; none (with the reason) off sm_90a.
if "$tcj_ptx" --arch sm_90a --dtype bf16 --m 2500 --n 3000 --k 5000 --candidates >"$dir/cand" 2>&1 &&
  grep -q '^selected: recipe=sm90 .*tile=128x256x64 .*cluster=4$' "$dir/cand" &&
  grep -q '^  force: TCJ_RECIPE=sm90 TCJ_TILE=128x256x128/2x1/4/c4/s0$' "$dir/cand" &&
  [ "$(grep -cE '^ +[0-9]+ +[0-9.]+ us  recipe=sm90 ' "$dir/cand")" -ge 4 ] && ! grep -q '^\.version' "$dir/cand"; then :; else
  echo "FAIL: tcj-ptx --candidates on sm_90a: $(head -c 600 "$dir/cand")"
  fails=$((fails + 1))
fi
if "$tcj_ptx" --arch sm_80 --dtype bf16 --m 1 --n 6144 --k 4096 --candidates >"$dir/cand" 2>&1 &&
  grep -q '^  force: TCJ_RECIPE=sm80 TCJ_TILE=16x64x128/1x2/4/s2$' "$dir/cand" &&
  grep -q '^sm90 candidates: none (the sm90 recipe needs sm_90a' "$dir/cand"; then :; else
  echo "FAIL: tcj-ptx --candidates on sm_80: $(head -c 600 "$dir/cand")"
  fails=$((fails + 1))
fi
# Grouped GEMM (--group): the mode's kernel config, and the engine's refusals.
expect 2 "tcj-ptx: --group wants contiguous32, contiguous64, masked, k32 or k64" "${ptx[@]}" --m 64 --n 64 --k 64 --group ragged:4
expect 2 "tcj-ptx: --group wants contiguous32, contiguous64, masked, k32 or k64" "${ptx[@]}" --m 64 --n 64 --k 64 --group masked:0
expect 2 "tcj-ptx: --group and --batch exclude each other" "${ptx[@]}" --m 64 --n 64 --k 64 --group masked:4 --batch 2
expect 1 "grouped GEMM takes f16, bf16, e4m3 or e5m2 operands" "$tcj_ptx" --arch sm_80 --dtype f32 --m 64 --n 64 --k 64 \
  --group contiguous32:4
expect 1 "tcj-ptx: --recipe sm90: grouped GEMM on the sm90 recipe needs 16-byte aligned A and B" "$tcj_ptx" --arch sm_90a \
  --dtype bf16 --m 4096 --n 4096 --k 4096 --op-b T --align-b 8 --group contiguous64:4 --recipe sm90
# Groups of 128 expected rows take the sm90 recipe on sm_90a, groups of 16 the sm80 recipe, and
# sm_80 the sm80 recipe at any size.
for mode in contiguous32:1 contiguous64:2 masked:3; do
  for run in "sm_90a 32:128 sm90" "sm_90a 256:16 sm80" "sm_80 32:128 sm80"; do
    set -- $run
    "$tcj_ptx" --arch "$1" --dtype bf16 --m 4096 --n 4096 --k 7168 --op-b T --group "${mode%:*}:$2" >"$dir/group" 2>&1 || true
    if ! head -1 "$dir/group" | grep -q "^// recipe=$3 .* group=${mode#*:}\$"; then
      echo "FAIL: tcj-ptx --group ${mode%:*}:$2 on $1 (wanted $3): $(head -c 600 "$dir/group")"
      fails=$((fails + 1))
    fi
  done
done
# K groups (the sm80 recipe on every arch, k left to the kernel) and SwiGLU (n is D's columns).
check_first_line() { # WANT-REGEX ARGS...: the config line of tcj-ptx ARGS matches
  local want=$1
  shift
  "$tcj_ptx" "$@" >"$dir/line" 2>&1 || true
  if ! head -1 "$dir/line" | grep -qE "$want"; then
    echo "FAIL: tcj-ptx $* (wanted $want): $(head -c 600 "$dir/line")"
    fails=$((fails + 1))
  fi
}
check_first_line '^// recipe=sm90 arch=sm_90a .* op=TN n=2048 k=0 .* group=4$' --arch sm_90a --dtype bf16 --m 768 --n 2048 \
  --k 16384 --op-a T --op-b N --group k32:128
check_first_line '^// recipe=sm80 arch=sm_90a .* op=TN n=2048 k=0 .* group=4$' --arch sm_90a --dtype bf16 --m 768 --n 2048 \
  --k 16384 --op-a T --op-b N --group k32:128 --recipe sm80
check_first_line '^// recipe=sm90 arch=sm_90a .* op=TN n=2048 k=0 .* group=4$' --arch sm_90a --dtype bf16 --m 768 --n 2048 \
  --k 16384 --op-a T --op-b N --group k32:128 --recipe sm90
check_first_line '^// recipe=sm80 arch=sm_80 .* group=5$' --arch sm_80 --dtype f16 --m 64 --n 64 --k 1000 --op-a T --op-b N \
  --group k64:7
expect 1 "op_a" "$tcj_ptx" --arch sm_80 --dtype bf16 --m 64 --n 64 --k 64 --op-b N --group k32:4
check_first_line '^// recipe=sm90 .* n=768 .* act=swiglu group=1$' --arch sm_90a --dtype bf16 --m 16384 --n 768 --k 2048 \
  --op-b T --epilogue swiglu --group contiguous32:128
check_first_line '^// recipe=sm80 arch=sm_80 .* n=300 .* bias=col:bf16 act=swiglu$' --arch sm_80 --dtype bf16 --m 64 --n 300 \
  --k 128 --epilogue bias_swiglu
[ $fails -eq 0 ] || exit 1
echo "tool messages: all as documented"
