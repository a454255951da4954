#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# shellcheck disable=SC2015  # `A && B || fail`: fail when any check does not hold
# tcj-warmup without a GPU (nvJitLink): a first run into a fresh cache compiles every distinct
# kernel and leaves one <16 hex>.tcjc entry each and no temp file; a second run compiles nothing;
# --dry-run writes nothing; manifest errors exit 2 with file:line:col; an unusable or untrusted
# cache dir exits 1 before compiling, unless TCJ_CACHE_TRUST_ANY is set; eight processes
# warming one manifest together compile each kernel once; tcj_gemm_ex's manifest keys (epilogues,
# batches, a separate D, a user epilogue compiled by NVRTC from a file beside the manifest) compile
# and hit the same way, a user epilogue that does not compile fails with NVRTC's message, and bad
# values exit 2 with file:line:col; fp8's keys (b_dtype, an fp8 d_dtype, fast_accum, scale: block)
# select their kernels on sm_90a and sm_89, skip where the engine has none, and compile and hit;
# f32 problems (fp32 accuracy) select 3xTF32 kernels and compile and hit, f64 problems compile or,
# until the engine has f64 kernels, skip; every fp8 and f32 row of the standard suite has a kernel
# on sm_90a and sm_89; grouped problems (group:) select the grouped kernel of their layout and
# compile and hit; --generic lists f64's generic kernels (every op pair, both tiles) per arch.
# Exit 77 (skipped) when nvJitLink is missing, a failure when CI is set.
# Usage: warmup_offline.sh TCJ_WARMUP DATA_DIR SCRATCH_DIR
set -euo pipefail
warmup=$1 data=$2 dir=$3
# Absolute paths: some runs below start in another directory.
abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
warmup=$(abs "$warmup") data=$(abs "$data") dir=$(abs "$dir")
unset TCJ_CACHE_PATH TCJ_CACHE_DIR TCJ_CACHE_DISABLE TCJ_CACHE_MAX_BYTES TCJ_CACHE_TRUST_ANY TCJ_CACHE_SHARED_GROUP \
  TCJ_TILE TCJ_RECIPE
rm -rf "$dir"
mkdir -p "$dir"
cache=$dir/cache manifest=$data/warmup_small.yaml
archs=(--arch sm_80 --arch sm_90a)
# shellcheck source=tests/tools/harness.sh
source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
# run ARGS...: runs tcj-warmup with stdout and stderr in $dir/out and $dir/err; rc in $rc.
run() {
  capture "$warmup" "$@"
  last=$(tail -n 1 "$dir/out")
}
summary='^compiled=([0-9]+) hit=([0-9]+) failed=([0-9]+) seconds=[0-9]+\.[0-9]$'

run --help
[ $rc -eq 0 ] && grep -q -- "--dry-run" "$dir/out" || fail "--help does not print the usage"
for bad in "" "--arch sm_75 $manifest" "--bogus $manifest" "-j 0 $manifest" "$manifest $manifest"; do
  # shellcheck disable=SC2086
  run $bad
  [ $rc -eq 2 ] || { show; fail "tcj-warmup $bad exited $rc, wanted 2"; }
done

# --dry-run: lists kernels, compiles and writes nothing.
run --dry-run "${archs[@]}" --cache-dir "$cache" "$manifest"
[ $rc -eq 0 ] || { show; fail "--dry-run exited $rc"; }
[[ $last =~ ^would\ compile\ ([0-9]+)\ kernels$ ]] || { show; fail "--dry-run last line: $last"; }
want=${BASH_REMATCH[1]}
[ "$want" -gt 0 ] || fail "--dry-run would compile nothing"
[ ! -e "$cache" ] || fail "--dry-run created $cache"

# First run: everything compiled, one entry per kernel, no temp file left.
run "${archs[@]}" --cache-dir "$cache" -j 4 "$manifest"
if grep -q "nvJitLink not found" "$dir/err"; then
  [ -z "${CI:-}" ] || { show; fail "nvJitLink is missing on CI"; }
  echo "SKIP: nvJitLink not found; offline warmup needs it"
  exit 77
fi
[ $rc -eq 0 ] || { show; fail "first run exited $rc"; }
[[ $last =~ $summary ]] || { show; fail "first run last line: $last"; }
[ "${BASH_REMATCH[1]}" -eq "$want" ] && [ "${BASH_REMATCH[2]}" -eq 0 ] && [ "${BASH_REMATCH[3]}" -eq 0 ] ||
  { show; fail "first run: $last, wanted compiled=$want hit=0 failed=0"; }
[ "$(grep -c '^compiled sm_' "$dir/out")" -eq "$want" ] || { show; fail "not one plain line per kernel"; }
entries=$(find "$cache" -maxdepth 1 -type f -name '*.tcjc' | wc -l)
[ "$entries" -eq "$want" ] || { ls -la "$cache"; fail "$entries entries in $cache, wanted $want"; }
odd=$(find "$cache" -maxdepth 1 -regextype posix-extended -type f ! -regex '.*/[0-9a-f]{16}\.tcjc' | wc -l)
[ "$odd" -eq 0 ] || { ls -la "$cache"; fail "files other than <16 hex>.tcjc in $cache"; }
[ -z "$(ls -A "$cache/tmp" 2>/dev/null)" ] || { ls -la "$cache/tmp"; fail "temp files left in $cache/tmp"; }

# Second run: all hits; the cache dir from TCJ_CACHE_DIR works the same as --cache-dir.
TCJ_CACHE_DIR=$cache run "${archs[@]}" -j 2 "$manifest"
[ $rc -eq 0 ] && [[ $last =~ $summary ]] || { show; fail "second run exited $rc: $last"; }
[ "${BASH_REMATCH[1]}" -eq 0 ] && [ "${BASH_REMATCH[2]}" -eq "$want" ] && [ "${BASH_REMATCH[3]}" -eq 0 ] ||
  { show; fail "second run: $last, wanted compiled=0 hit=$want failed=0"; }
[ "$(find "$cache" -maxdepth 1 -name '*.tcjc' | wc -l)" -eq "$want" ] || fail "the second run changed the entries"

# Eight processes warming one manifest into a fresh cache at once (tensor-parallel ranks
# starting cold): each kernel is compiled once in all, the others wait and hit its entry.
shared=$dir/shared
pids=()
for i in 0 1 2 3 4 5 6 7; do
  "$warmup" "${archs[@]}" --cache-dir "$shared" -j 2 "$manifest" >"$dir/rank$i.out" 2>"$dir/rank$i.err" </dev/null &
  pids+=($!)
done
compiled=0 hits=0
for i in 0 1 2 3 4 5 6 7; do
  wait "${pids[$i]}" || { cat "$dir/rank$i.err"; fail "rank $i exited non-zero"; }
  [[ $(tail -n 1 "$dir/rank$i.out") =~ $summary ]] || fail "rank $i: $(tail -n 1 "$dir/rank$i.out")"
  compiled=$((compiled + BASH_REMATCH[1])) hits=$((hits + BASH_REMATCH[2]))
done
[ $compiled -eq "$want" ] && [ $hits -eq $((7 * want)) ] ||
  fail "8 processes compiled $compiled kernels and hit $hits, wanted $want compiles and $((7 * want)) hits"
[ "$(find "$shared" -maxdepth 1 -name '*.tcjc' | wc -l)" -eq "$want" ] || fail "8 processes left other than $want entries"
[ -z "$(ls -A "$shared/tmp")" ] || { ls -la "$shared/tmp"; fail "temp or lock files left in $shared/tmp"; }

# targets: in the manifest stand in for --arch; fp8 problems are skipped, not failed.
sm80=$(grep -c '^hit sm_80 ' <(TCJ_CACHE_DIR=$cache "$warmup" --arch sm_80 "$manifest" 2>/dev/null) || true)
[ "$sm80" -gt 0 ] || fail "no sm_80 hits"
{ echo "targets: [sm_80]"; grep -v '^suite:' "$manifest"; echo "  - {name: fp8, dtype: e4m3, m: 128, n: 256, k: 64}"; } >"$dir/targets.yaml"
run --cache-dir "$cache" "$dir/targets.yaml"
[ $rc -eq 0 ] && [[ $last =~ $summary ]] || { show; fail "targets run exited $rc: $last"; }
[ "${BASH_REMATCH[1]}" -eq 0 ] && [ "${BASH_REMATCH[2]}" -eq "$sm80" ] && [ "${BASH_REMATCH[3]}" -eq 0 ] ||
  { show; fail "targets run: $last, wanted compiled=0 hit=$sm80 failed=0"; }
grep -q '^skip fp8 m=128 n=256 k=64 sm_80: ' "$dir/err" || { show; fail "no skip line for the fp8 problem"; }
grep -q 'sm_90a' "$dir/out" && { show; fail "targets: [sm_80] compiled for sm_90a"; }

# tcj_gemm_ex's keys (tests/data/warmup_epilogue.yaml): every epilogue, a separate D, batches,
# s8 with ReLU (with GELU: a skip) and a user epilogue (residual_add.cu, relative to the
# manifest: run from another directory). Each config says what it fuses.
epi=$data/warmup_epilogue.yaml epicache=$dir/epi
cd /
run --dry-run "${archs[@]}" --cache-dir "$epicache" "$epi"
[ $rc -eq 0 ] && [[ $last =~ ^would\ compile\ ([0-9]+)\ kernels$ ]] || { show; fail "epilogue --dry-run: rc $rc, $last"; }
want_epi=${BASH_REMATCH[1]}
# A user epilogue's kernel is two entries: for processes with NVRTC and a copy for those without.
want_epi_entries=$((want_epi + $(grep -cE "user=[0-9a-f]{16}$" "$dir/out")))
for what in "bias=col:bf16 " "act=relu" "act=gelu" "act=gelu_tanh" "c=f32 .*bias=col:f32 act=silu" " batch=1" \
            "ab=s8 c=s32 .*bias=col:f32 act=relu" "recipe=sm90 .*act=gelu batch=1 user=[0-9a-f]{16}$" \
            "recipe=sm80 arch=sm_80 .* user=[0-9a-f]{16}$"; do
  grep -qE -- "$what" "$dir/out" || { show; fail "epilogue --dry-run lists no config matching '$what'"; }
done
grep -q "^residual m=64 n=256 k=128 source=$(dirname "$epi")/residual_add.cu sm_80 " "$dir/out" ||
  { show; fail "epilogue_source is not resolved beside the manifest"; }
grep -q "^bcast m=64 n=256 k=128 epilogue=bias batch=4 broadcast_b sm_80 " "$dir/out" || { show; fail "no broadcast_b line"; }
grep -q "^skip s8_gelu m=64 n=256 k=128 epilogue=bias_gelu sm_80: activation gelu on s32 output" "$dir/err" ||
  { show; fail "s8 with GELU is not a skip naming the reason"; }
run "${archs[@]}" --cache-dir "$epicache" -j 4 "$epi"
if grep -q "needs NVRTC" "$dir/err"; then
  [ -z "${CI:-}" ] || { show; fail "NVRTC is missing on CI"; }
  [ $rc -eq 1 ] || { show; fail "a user epilogue without NVRTC exited $rc, wanted 1"; }
  echo "NOTE: NVRTC not found; the user epilogue problems failed as they must"
else
  [ $rc -eq 0 ] && [[ $last =~ $summary ]] || { show; fail "epilogue run exited $rc: $last"; }
  [ "${BASH_REMATCH[1]}" -eq "$want_epi" ] && [ "${BASH_REMATCH[3]}" -eq 0 ] ||
    { show; fail "epilogue run: $last, wanted compiled=$want_epi failed=0"; }
  [ "$(find "$epicache" -maxdepth 1 -name '*.tcjc' | wc -l)" -eq "$want_epi_entries" ] ||
    fail "not one entry per epilogue kernel (and a copy per user epilogue's kernel)"
  run "${archs[@]}" --cache-dir "$epicache" "$epi"
  [ $rc -eq 0 ] && [[ $last =~ $summary ]] && [ "${BASH_REMATCH[1]}" -eq 0 ] && [ "${BASH_REMATCH[2]}" -eq "$want_epi" ] ||
    { show; fail "epilogue second run: $last, wanted compiled=0 hit=$want_epi"; }
  # A user epilogue that does not compile: that kernel fails with NVRTC's message, exit 1.
  printf 'extern "C" __device__ float tcj_epilogue(float v, float c, long long row, long long col,\n'\
'                                         long long batch, const void *params) {\n  return v + undefined_name;\n}\n' >"$dir/broken.cu"
  printf 'dtype: f16\nproblems:\n  - {name: broken, m: 64, n: 128, k: 64, epilogue_source: broken.cu}\n' >"$dir/broken.yaml"
  run --arch sm_80 --cache-dir "$epicache" "$dir/broken.yaml"
  [ $rc -eq 1 ] && [[ $last =~ $summary ]] && [ "${BASH_REMATCH[3]}" -eq 1 ] && grep -q 'epilogue.cu(3)' "$dir/err" &&
    grep -qF "(epilogue_source $dir/broken.cu): user epilogue does not compile" "$dir/err" &&
    grep -q 'undefined_name' "$dir/err" || { show; fail "a broken user epilogue: rc $rc, wanted 1 with NVRTC's message"; }
fi
# Bad values of the new keys: exit 2 with FILE:LINE:COL.
printf 'dtype: bf16\nproblems:\n  - {m: 8, n: 8, k: 8, epilogue: gelu}\n' >"$dir/bad-epi.yaml"
run --arch sm_80 --dry-run "$dir/bad-epi.yaml"
[ $rc -eq 2 ] && grep -qF "$dir/bad-epi.yaml:3:34: epilogue: unknown epilogue gelu (none bias bias_relu" "$dir/err" ||
  { show; fail "an unknown epilogue: rc $rc"; }
printf 'dtype: bf16\nproblems:\n  - {m: 8, n: 8, k: 8, epilogue_source: missing.cu}\n' >"$dir/bad-src.yaml"
run --arch sm_80 --dry-run "$dir/bad-src.yaml"
[ $rc -eq 2 ] && grep -qF "$dir/bad-src.yaml:3:41: epilogue_source: cannot read $dir/missing.cu: No such file" "$dir/err" ||
  { show; fail "a missing epilogue_source: rc $rc"; }
cd "$OLDPWD"

# fp8 (tests/data/warmup_fp8.yaml): e4m3 and e5m2 operands (C bf16 unless c_dtype says), an
# e4m3 x e5m2 pair, an fp8 D, fast accumulation and block scales. sm_90a runs them on wgmma
# (fast=1 and scale=block in their configs), MN-major ones through the K-major problem's kernel
# (block_tt shares block's), and keeps a skinny split-K problem (no fast=1 there) and an MN-major
# batch on the sm80 recipe; sm_89 runs all but the block-scaled ones on mma.sync (those are a skip
# naming the rule); sm_80 has no fp8 MMA (a skip each). They compile offline, then hit.
fp8=$data/warmup_fp8.yaml fp8cache=$dir/fp8
run --dry-run --arch sm_90a --arch sm_89 --arch sm_80 --cache-dir "$fp8cache" "$fp8"
[ $rc -eq 0 ] && [[ $last =~ ^would\ compile\ ([0-9]+)\ kernels$ ]] || { show; fail "fp8 --dry-run: rc $rc, $last"; }
want_fp8=${BASH_REMATCH[1]}
for what in "^e4m3_nt m=1024 n=1024 k=512 sm_90a \(132 SMs\) recipe=sm90 arch=sm_90a ab=e4m3 c=bf16 op=NT " \
            "^e5m2_nt .* sm_89 \(128 SMs\) recipe=sm80 arch=sm_89 ab=e5m2 c=f32 op=NT " \
            "^pair .* b=e5m2 sm_90a .* recipe=sm90 arch=sm_90a ab=e4m3 c=bf16 .* b=e5m2$" \
            "^pair .* b=e5m2 sm_89 .* recipe=sm80 arch=sm_89 ab=e4m3 c=bf16 .* b=e5m2$" \
            "^fp8_d .* d=e4m3 sm_90a .* recipe=sm90 .* d=e4m3 bias=col:bf16 act=relu$" \
            "^fast .* fast_accum sm_90a .* recipe=sm90 .* fast=1$" \
            "^block .* scale=block sm_90a .* recipe=sm90 .* op=NT .* scale=block$" \
            "^mn_major .* sm_90a .* recipe=sm90 arch=sm_90a ab=e4m3 c=bf16 op=NT .* d=e5m2 b=e5m2$" \
            "^mn_major .* sm_89 .* recipe=sm80 arch=sm_89 ab=e4m3 c=bf16 op=NN .* d=e5m2 b=e5m2$" \
            "^block_tt .* sm_90a .* recipe=sm90 .* op=NT .* scale=block \(already listed\)$" \
            "^decode .* fast_accum sm_90a .* recipe=sm80 arch=sm_90a ab=e4m3 c=bf16 op=NT [^f]* split=[0-9]+ reduce=cluster$" \
            "^mn_batch .* sm_90a .* recipe=sm80 arch=sm_90a ab=e4m3 c=bf16 op=NN .* batch=1$"; do
  grep -qE -- "$what" "$dir/out" || { show; fail "fp8 --dry-run lists no line matching '$what'"; }
done
for name in block block_tt; do
  grep -q "^skip $name m=1024 n=1024 k=512 scale=block sm_89: block scales run on the sm90 recipe only" "$dir/err" ||
    { show; fail "block scales on sm_89 ($name) are not a skip naming the rule"; }
done
[ "$(grep -c '^skip .* sm_80: fp8 operands need sm_89 or newer' "$dir/err")" -eq 10 ] && [ "$(wc -l <"$dir/err")" -eq 12 ] ||
  { show; fail "fp8 on sm_80: wanted one skip per problem saying it needs sm_89, and no other skip but block scales on sm_89"; }
grep -q ' sm_80 ' "$dir/out" && { show; fail "fp8 --dry-run lists a kernel for sm_80"; }
run --arch sm_90a --arch sm_89 --cache-dir "$fp8cache" -j 4 "$fp8"
[ $rc -eq 0 ] && [[ $last =~ $summary ]] && [ "${BASH_REMATCH[1]}" -eq "$want_fp8" ] && [ "${BASH_REMATCH[3]}" -eq 0 ] ||
  { show; fail "fp8 run: rc $rc, $last, wanted compiled=$want_fp8 failed=0"; }
run --arch sm_90a --arch sm_89 --cache-dir "$fp8cache" "$fp8"
[ $rc -eq 0 ] && [[ $last =~ $summary ]] && [ "${BASH_REMATCH[1]}" -eq 0 ] && [ "${BASH_REMATCH[2]}" -eq "$want_fp8" ] ||
  { show; fail "fp8 second run: $last, wanted compiled=0 hit=$want_fp8"; }
# f32 and f64 (tests/data/warmup_wide.yaml). f32 operands (TCJ_F32) select the 3xTF32 kernels
# (ab=tf32 with x3=1, K three times the problem's: the three tf32 products end to end) on sm_80
# and sm_90a, compile offline, then hit. f64 problems compile where this build's engine has f64
# kernels; until then each is a skip naming the types, never a failure.
wide=$data/warmup_wide.yaml widecache=$dir/wide
f64_unsupported='a=f64 b=f64 c=f64 is not supported'
run --dry-run "${archs[@]}" --cache-dir "$widecache" "$wide"
[ $rc -eq 0 ] && [[ $last =~ ^would\ compile\ ([0-9]+)\ kernels$ ]] || { show; fail "f32/f64 --dry-run: rc $rc, $last"; }
want_wide=${BASH_REMATCH[1]}
for what in "^f32_nn m=256 n=512 k=256 sm_80 .* recipe=sm80 arch=sm_80 ab=tf32 c=f32 op=NT n=512 k=768 .* x3=1$" \
            "^f32_nn m=256 n=512 k=256 sm_90a .* ab=tf32 c=f32 op=NT n=512 k=768 .* x3=1$" \
            "^f32_tt m=128 n=256 k=384 sm_80 .* op=NT n=256 k=1152 .* x3=1$" \
            "^f32_deep m=64 n=64 k=8192 sm_90a .* k=24576 .* split=[0-9]+ .*x3=1$"; do
  grep -qE -- "$what" "$dir/out" || { show; fail "f32 --dry-run lists no line matching '$what'"; }
done
f64_skips=$(grep -c "^skip f64_n[nt] m=[0-9]* n=[0-9]* k=[0-9]* sm_[0-9a]*: $f64_unsupported" "$dir/err" || true)
f64_kernels=$(grep -c '^f64_n[nt] .* ab=f64 c=f64 ' "$dir/out" || true)
[ $((f64_skips + f64_kernels)) -eq 4 ] && [ "$(wc -l <"$dir/err")" -eq "$f64_skips" ] ||
  { show; fail "f64: wanted a kernel or a skip naming the types for each of 2 problems on 2 archs, nothing else on stderr"; }
run "${archs[@]}" --cache-dir "$widecache" -j 4 "$wide"
[ $rc -eq 0 ] && [[ $last =~ $summary ]] && [ "${BASH_REMATCH[1]}" -eq "$want_wide" ] && [ "${BASH_REMATCH[3]}" -eq 0 ] ||
  { show; fail "f32/f64 run: rc $rc, $last, wanted compiled=$want_wide failed=0"; }
run "${archs[@]}" --cache-dir "$widecache" "$wide"
[ $rc -eq 0 ] && [[ $last =~ $summary ]] && [ "${BASH_REMATCH[1]}" -eq 0 ] && [ "${BASH_REMATCH[2]}" -eq "$want_wide" ] ||
  { show; fail "f32/f64 second run: $last, wanted compiled=0 hit=$want_wide"; }

# The standard suite (CI's dry run): every fp8 row has a kernel on sm_90a and sm_89; no row is a
# skip but, until this build's engine has f64 kernels, the f64 rows, and the MoE extras' rows
# (moex_*) where this engine refuses a field, named.
suite=$data/suite.yaml
mapfile -t fp8_rows < <(sed -n '/moex_/d; s/^ *- {name: *\([^,]*\), dtype: e[45]m[23],.*/\1/p' "$suite")
[ ${#fp8_rows[@]} -ge 4 ] || fail "could not read the fp8 rows of $suite"
moe_fields='activation TCJ_ACT_SWIGLU|scale_mode TCJ_SCALE_ROW|group_mode TCJ_GROUP_K_CONTIGUOUS|stride_scale_b|row_scale|group_b_ptrs|gather_a|scale_mode|op_a|op_b'
run --dry-run --arch sm_90a --arch sm_89 --cache-dir "$fp8cache" "$suite"
[ $rc -eq 0 ] && ! grep -v -E "^skip f64_[a-z0-9]* .*: $f64_unsupported|^skip moex_[a-z0-9_]* .*($moe_fields)" "$dir/err" ||
  { show; fail "suite --dry-run for sm_90a and sm_89: rc $rc, or a problem without a kernel"; }
for name in f32_sq4096 f32_sq8192 f32_deepk; do
  for arch in sm_90a sm_89; do
    grep -qE "^$name m=[0-9]+ n=[0-9]+ k=[0-9]+ $arch \([0-9]+ SMs\) recipe=sm[89]0 arch=$arch ab=tf32 c=f32 .*x3=1( \(already listed\))?$" "$dir/out" ||
      { show; fail "suite --dry-run: no 3xTF32 $arch kernel for the f32 row $name"; }
  done
done
for name in "${fp8_rows[@]}"; do
  for arch in sm_90a sm_89; do
    grep -qE "^$name m=[0-9]+ n=[0-9]+ k=[0-9]+ $arch \([0-9]+ SMs\) recipe=sm[89]0 arch=$arch ab=e[45]m[23] c=bf16 " "$dir/out" ||
      { show; fail "suite --dry-run: no $arch kernel for the fp8 row $name"; }
  done
done

# Grouped problems (group:): each row of warmup_grouped.yaml selects the grouped kernel of its
# layout (group=1 int32 ends, 2 int64 ends, 3 masked counts) on the sm80 recipe, also on sm_90a;
# they compile offline into entries of their own and hit on a second run; a group: error names
# FILE:LINE:COL.
gcache=$dir/grouped-cache gmanifest=$data/warmup_grouped.yaml
run --dry-run --arch sm_90a --cache-dir "$gcache" "$gmanifest"
[ $rc -eq 0 ] && [[ $last =~ ^would\ compile\ ([0-9]+)\ kernels$ ]] || { show; fail "grouped --dry-run: rc $rc, $last"; }
want_grouped=${BASH_REMATCH[1]}
mapfile -t grouped_rows < <(sed -n 's/^ *- {name: *\([^,]*\),.*group: {mode: \([a-z]*\).*/\1 \2/p' "$gmanifest")
[ ${#grouped_rows[@]} -ge 10 ] || fail "could not read the rows of $gmanifest"
for row in "${grouped_rows[@]}"; do
  name=${row% *} mode=${row#* }
  if [[ $name == moex_* ]]; then # the MoE extras: a kernel, or a skip that names the field this engine refuses
    grep -qE "^$name .* sm_90a .* group=[1-5]( (scale=row|rowscale|bptrs|gather))*( \(already listed\))?$" "$dir/out" ||
      grep -qE "^skip $name .*(activation TCJ_ACT_SWIGLU|scale_mode TCJ_SCALE_ROW|group_mode TCJ_GROUP_K_CONTIGUOUS|stride_scale_b|row_scale|group_b_ptrs|gather_a)" "$dir/err" ||
      { show; fail "grouped --dry-run: $name has neither a kernel nor a skip naming its field"; }
    continue
  fi
  case $mode in masked) g=3 ;; *) g=1 ;; esac
  [ "$name" = moe_ends64 ] && g=2
  # Decode rows (groups under 64 rows) take the sm80 recipe, prefill rows the sm90 one.
  case $name in *decode*) recipe=sm80 ;; *) recipe=sm90 ;; esac
  grep -qE "^$name m=[0-9]+ n=[0-9]+ k=[0-9]+ group=$mode:[0-9]+( ends=int64)? sm_90a \([0-9]+ SMs\) recipe=$recipe arch=sm_90a ab=bf16 c=bf16 op=NT .* group=$g( \(already listed\))?$" "$dir/out" ||
    { show; fail "grouped --dry-run: no group=$g $recipe kernel for $name"; }
done
[ ! -e "$gcache" ] || fail "grouped --dry-run created $gcache"
run --arch sm_90a --cache-dir "$gcache" -j 2 "$gmanifest"
[ $rc -eq 0 ] && [[ $last =~ $summary ]] || { show; fail "grouped first run exited $rc: $last"; }
[ "${BASH_REMATCH[1]}" -eq "$want_grouped" ] && [ "${BASH_REMATCH[2]}" -eq 0 ] && [ "${BASH_REMATCH[3]}" -eq 0 ] ||
  { show; fail "grouped first run: $last, wanted compiled=$want_grouped hit=0 failed=0"; }
[ "$(find "$gcache" -maxdepth 1 -name '*.tcjc' | wc -l)" -eq "$want_grouped" ] || { ls -la "$gcache"; fail "grouped entries"; }
run --arch sm_90a --cache-dir "$gcache" -j 2 "$gmanifest"
[ $rc -eq 0 ] && [[ $last =~ $summary ]] && [ "${BASH_REMATCH[1]}" -eq 0 ] && [ "${BASH_REMATCH[2]}" -eq "$want_grouped" ] ||
  { show; fail "grouped second run: $last, wanted compiled=0 hit=$want_grouped"; }
printf 'dtype: bf16\nproblems:\n  - {n: 8, k: 8, group: {mode: masked, experts: 4, tokens: 8, topk: 1}}\n' >"$dir/bad-group.yaml"
run --dry-run --arch sm_90a --cache-dir "$gcache" "$dir/bad-group.yaml"
[ $rc -eq 2 ] && grep -qF "$dir/bad-group.yaml:3:25: group: mode: masked needs max_rows:" "$dir/err" ||
  { show; fail "a bad group: rc $rc, wanted 2 with file:line:col"; }

# --generic without a manifest lists the generic set of each arch, f64 included (the dmma
# recipe's generic kernels, so that async runs an f64 class's first call without compiling):
# every op pair, both tiles, at most 2 tiles x 4 op pairs x 2 D classes.
run --generic --dry-run --arch sm_80 --arch sm_90a --cache-dir "$dir/generic"
[ $rc -eq 0 ] && [[ $last =~ ^would\ compile\ ([0-9]+)\ kernels$ ]] || { show; fail "--generic --dry-run: rc $rc, $last"; }
for arch in sm_80 sm_90a; do
  f64_generic=$(grep -cE "^generic f64>f64 $arch recipe=dmma arch=$arch ab=f64 c=f64 op=[NT]{2} n=0 k=0 .* generic=1$" "$dir/out" || true)
  [ "$f64_generic" -ge 8 ] && [ "$f64_generic" -le 16 ] || { show; fail "--generic: $f64_generic f64 kernels for $arch, wanted 8 to 16"; }
  for op in NN NT TN TT; do
    for tile in 64x64x16 128x128x16; do
      grep -qE "^generic f64>f64 $arch recipe=dmma .* op=$op .* tile=$tile " "$dir/out" ||
        { show; fail "--generic: no f64 $op $tile kernel for $arch"; }
    done
  done
done

# Manifest errors: exit 2, FILE:LINE:COL and the value.
printf 'dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: -4}\n' >"$dir/bad.yaml"
run "${archs[@]}" --cache-dir "$cache" "$dir/bad.yaml"
[ $rc -eq 2 ] || { show; fail "a manifest error exited $rc, wanted 2"; }
grep -qF "$dir/bad.yaml:3:21: k: negative size -4" "$dir/err" || { show; fail "no file:line:col message"; }
printf 'dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 4\n' >"$dir/syntax.yaml"
run "${archs[@]}" --cache-dir "$cache" "$dir/syntax.yaml"
[ $rc -eq 2 ] && grep -qF "$dir/syntax.yaml:4:1: YAML: " "$dir/err" || { show; fail "a YAML syntax error: rc $rc"; }

# A cache dir that cannot be created: exit 1 before any compile, saying why.
touch "$dir/file"
run --arch sm_80 --cache-dir "$dir/file/cache" "$manifest"
[ $rc -eq 1 ] && grep -q "cannot create $dir/file/cache" "$dir/err" &&
  grep -q "tcj-warmup: cannot fill the cache directory $dir/file/cache" "$dir/err" ||
  { show; fail "an unusable cache dir: rc $rc"; }
grep -q "^compiled" "$dir/out" && { show; fail "compiled into an unusable cache dir"; }

# A cache dir others can write is not trusted: exit 1, naming the directory and the reason.
mkdir -p "$dir/open"
chmod 0777 "$dir/open"
run --arch sm_80 --cache-dir "$dir/open" "$manifest"
[ $rc -eq 1 ] && grep -q "not using the cache directory $dir/open: .* is writable by others" "$dir/err" ||
  { show; fail "an untrusted cache dir: rc $rc"; }
[ -z "$(ls -A "$dir/open")" ] || { ls -la "$dir/open"; fail "wrote into an untrusted cache dir"; }
# ... unless trust is managed elsewhere (TCJ_CACHE_TRUST_ANY); the dryness check keeps it quick.
TCJ_CACHE_TRUST_ANY=1 run --arch sm_80 --cache-dir "$dir/open" "$manifest"
[ $rc -eq 0 ] && [ "$(find "$dir/open" -maxdepth 1 -name '*.tcjc' | wc -l)" -gt 0 ] ||
  { show; fail "TCJ_CACHE_TRUST_ANY=1 did not use the open cache dir: rc $rc"; }

# No --arch and no targets: the GPU's arch, or without a GPU exit 2, asking for --arch.
run --dry-run --cache-dir "$cache" "$manifest"
if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  [ $rc -eq 0 ] || { show; fail "no arch on a GPU machine exited $rc, wanted 0 (the GPU's arch)"; }
else
  [ $rc -eq 2 ] && grep -q "pass --arch" "$dir/err" || { show; fail "no GPU and no arch: rc $rc, wanted 2 asking for --arch"; }
fi

# --tune times candidates on this machine's GPU: without one it exits 2 and says so; a forced
# TCJ_RECIPE leaves nothing to tune (exit 2 asking to unset it); on a GPU the summary counts
# the tuned problems and each gets a `tuned` line naming its config.
TCJ_RECIPE=sm80 run --tune --cache-dir "$dir/tune" "$manifest"
[ $rc -eq 2 ] && grep -q "unset TCJ_RECIPE and TCJ_TILE" "$dir/err" ||
  { show; fail "--tune under TCJ_RECIPE: rc $rc, wanted 2 asking to unset it"; }
run --tune --cache-dir "$dir/tune" "$manifest"
if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  [ $rc -eq 0 ] && grep -Eq ' tuned=[1-9][0-9]*$' "$dir/out" && grep -q '^tuned .*: recipe=' "$dir/out" ||
    { show; fail "--tune on a GPU: rc $rc, wanted 0 with tuned lines and tuned=N"; }
else
  [ $rc -eq 2 ] && grep -q -- "--tune needs a GPU" "$dir/err" || { show; fail "--tune without a GPU: rc $rc, wanted 2"; }
fi

# A fleet: targets with SM counts, and --sm-count. The SM count changes the selection (split
# factors, tiles); the dry run names it, and its config is what tcj-ptx selects for the same
# count (one select function for the engine, the warmup and tcj-ptx).
cat >"$dir/fleet.yaml" <<'YAML'
dtype: bf16
targets: [sm_90a, {arch: sm_90a, sm_count: 114}, {arch: sm_89, sm_count: 58}]
problems:
  - {name: p1, m: 128, n: 4096, k: 2048}
  - {name: p2, m: 16, n: 1024, k: 2048}
YAML
run --dry-run --cache-dir "$dir/fleet" "$dir/fleet.yaml"
[ $rc -eq 0 ] || { show; fail "fleet --dry-run exited $rc"; }
flagship=$(grep '^p1 .* sm_90a (132 SMs) ' "$dir/out" | sed 's/.*SMs) //') || true
h100pcie=$(grep '^p1 .* sm_90a (114 SMs) ' "$dir/out" | sed 's/.*SMs) //; s/ (already listed)//') || true
l4=$(grep '^p2 .* sm_89 (58 SMs) ' "$dir/out" | sed 's/.*SMs) //') || true
[ -n "$flagship" ] && [ -n "$h100pcie" ] && [ -n "$l4" ] || { show; fail "fleet --dry-run lacks an SM count line"; }
[ "$flagship" != "$h100pcie" ] || { show; fail "114 SMs selected what 132 do for p1 (the test's premise)"; }
ptx=$(dirname "$warmup")/tcj-ptx
[ "$(head -1 <("$ptx" --arch sm_90a --dtype bf16 --m 128 --n 4096 --k 2048 --sm-count 114) | sed 's,^// ,,')" = "$h100pcie" ] ||
  fail "tcj-ptx --sm-count 114 selects another kernel than tcj-warmup for 114 SMs"
[ "$(head -1 <("$ptx" --arch sm_89 --dtype bf16 --m 16 --n 1024 --k 2048 --sm-count 58) | sed 's,^// ,,')" = "$l4" ] ||
  fail "tcj-ptx --sm-count 58 selects another kernel than tcj-warmup for 58 SMs"
run --dry-run --arch sm_90a --sm-count 114 --cache-dir "$dir/fleet" "$dir/fleet.yaml"
grep -qF "sm_90a (114 SMs) $h100pcie" "$dir/out" || { show; fail "--sm-count 114 does not select for 114 SMs"; }
printf 'dtype: bf16\ntargets: [{arch: sm_90a, sm_count: 0}]\nproblems:\n  - {m: 1, n: 1, k: 1}\n' >"$dir/bad-count.yaml"
run --dry-run --cache-dir "$dir/fleet" "$dir/bad-count.yaml"
[ $rc -eq 2 ] && grep -qF "$dir/bad-count.yaml:2:36: targets: sm_count 0 is not an SM count from 1 to 1024" "$dir/err" ||
  { show; fail "sm_count 0: rc $rc, wanted 2 with file:line:col"; }

# Plans that differ only in a split's count (a launch value: the SM count changed it) share one
# kernel, listed and compiled once.
cat >"$dir/splits.yaml" <<'YAML'
dtype: bf16
targets: [sm_89, {arch: sm_89, sm_count: 58}]
problems:
  - {name: s1, m: 16, n: 1024, k: 2048}
YAML
run --dry-run --cache-dir "$dir/fleet" "$dir/splits.yaml"
big=$(grep '^s1 .* sm_89 (128 SMs) ' "$dir/out" | grep -o ' split=[0-9]*') || true
small=$(grep '^s1 .* sm_89 (58 SMs) ' "$dir/out" | grep -o ' split=[0-9]*') || true
[ -n "$big" ] && [ -n "$small" ] && [ "$big" != "$small" ] || { show; fail "128 and 58 SMs split s1 alike (the test's premise)"; }
grep -q '^s1 .* sm_89 (58 SMs) .* (already listed)$' "$dir/out" && grep -q '^would compile 1 kernels' "$dir/out" ||
  { show; fail "plans that differ only in the split count are not one kernel"; }

echo "tcj-warmup: $want kernels compiled offline for sm_80 and sm_90a, then all hits; ${want_epi} with epilogues, batches and a user epilogue;"\
  "$want_grouped grouped kernels for sm_90a; $want_fp8 fp8 kernels for sm_90a and sm_89; $want_wide f32 (3xTF32) and f64 kernels ($f64_skips f64 skips)"
