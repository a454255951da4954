#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# shellcheck disable=SC2015  # `A && B || fail`: fail when any check does not hold
# tcj-prof without a GPU. Mode `dry-run`: --dry-run lists every problem of the suite with the
# config tcj would select (fp8 problems a row per accumulation mode, as their keys allow; grouped
# problems a row per baseline, with their grouped kernels), usage
# errors exit 2, suite errors exit 2 with FILE:LINE:COL. Mode `no-gpu`: a real run exits 1 with "tcj-prof: no GPU: ..." and writes nothing; exit 77
# (skipped) where a GPU is visible.
# Usage: prof_offline.sh dry-run|no-gpu TCJ_PROF DATA_DIR SCRATCH_DIR
set -euo pipefail
mode=$1 prof=$2 data=$3 dir=$4
unset TCJ_TILE TCJ_RECIPE
rm -rf "$dir"
mkdir -p "$dir"
# shellcheck source=tests/tools/harness.sh
source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
# run ARGS...: tcj-prof with stdout and stderr in $dir/out and $dir/err; status in $rc.
run() { capture "$prof" "$@"; }

if [ "$mode" = no-gpu ]; then
  if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    echo "SKIP: a GPU is visible; this test is for machines without one"
    exit 77
  fi
  run --suite "$data/prof_two.yaml" --out "$dir/results"
  # nvidia-smi saw no GPU: a run that succeeds measured something that is not there.
  [ $rc -ne 0 ] || { show; fail "tcj-prof exited 0 although no GPU is visible"; }
  [ $rc -eq 1 ] || { show; fail "a run without a GPU exited $rc, wanted 1"; }
  grep -q '^tcj-prof: no GPU: ' "$dir/err" || { show; fail "no 'tcj-prof: no GPU: ' message"; }
  [ ! -e "$dir/results" ] || fail "a run without a GPU created its --out directory"
  [ ! -s "$dir/out" ] || { show; fail "a run without a GPU printed a table"; }
  echo "tcj-prof without a GPU: exit 1, $(head -n 1 "$dir/err")"
  exit 0
fi
[ "$mode" = dry-run ] || fail "unknown mode $mode"

run --help
[ $rc -eq 0 ] && grep -q -- "--suite FILE" "$dir/out" && grep -q "suite.yaml" "$dir/out" ||
  fail "--help does not print the usage with the default suite"
for bad in "--bogus" "--repeat 5" "--repeat x" "--dtype f8" "--dtype s32" "--arch sm_75" "--peak-tflops -1" \
           "--bandwidth-gbs 0" "--fast-accum 2" "--fast-accum" "--dry-run extra" "--dry-run --filter no-such-problem"; do
  # shellcheck disable=SC2086
  run $bad --suite "$data/suite.yaml"
  [ $rc -eq 2 ] || { show; fail "tcj-prof $bad exited $rc, wanted 2"; }
done

# Every problem of the standard suite, in order, with a config; fp8 (e4m3, e5m2) problems make a
# row per accumulation mode (NAME, then NAME+fastacc), each with a config or the reason this
# engine has none; f32 rows (fp32 accuracy) have 3xTF32 configs (x3=1); f64 rows have a config or,
# until the engine has f64 kernels, the reason naming the types.
suite=$data/suite.yaml
mapfile -t names < <(sed -n 's/^ *- {name: *\([^,]*\),.*/\1/p' "$suite")
[ ${#names[@]} -gt 20 ] || fail "could not read the problem names of $suite"
rows=()
for name in "${names[@]}"; do
  rows+=("$name")
  [[ $name != fp8_* && $name != e5m2_* && $name != moex_*e4m3_row ]] || rows+=("$name+fastacc")
  [[ $name != moe_* && $name != moex_*wgrad* && $name != moex_*bptrs* ]] || rows+=("$name+loop")
done
run --dry-run --arch sm_90a --suite "$suite"
[ $rc -eq 0 ] || { show; fail "--dry-run exited $rc"; }
mapfile -t listed < <(awk 'NR > 2 && $4 ~ /^[0-9]+$/ { print $1 }' "$dir/out")
[ "${listed[*]}" = "${rows[*]}" ] || { show; fail "listed: ${listed[*]}; wanted: ${rows[*]}"; }
without=0
for name in "${rows[@]}"; do
  line=$(awk -v name="$name" '$1 == name' "$dir/out")
  case $name in
  fp8_* | e5m2_*)
    dt=${name%%_*}; dt=${dt/fp8/e4m3}
    if [[ $line == *"- (no tcj kernel: "* ]]; then
      [[ ${line#*- (no tcj kernel: } == *"$dt"* ]] || fail "$name: the reason does not name $dt: $line"
      without=$((without + 1))
    else
      [[ $line == *" recipe=sm"[89]"0 arch=sm_90a ab=$dt "* ]] || fail "$name: $line"
    fi ;;
  f32_*) [[ $line == *" recipe=sm"[89]"0 arch=sm_90a ab=tf32 c=f32 "*" x3=1" ]] || fail "$name has no 3xTF32 config: $line" ;;
  f64_*)
    if [[ $line == *"- (no tcj kernel: "* ]]; then
      [[ $line == *"a=f64 b=f64 c=f64 is not supported"* ]] || fail "$name: the reason does not name f64: $line"
      without=$((without + 1))
    else
      [[ $line =~ \ recipe=[a-z0-9]+\ arch=sm_90a\ ab=f64\ c=f64\  ]] || fail "$name: $line"
    fi ;;
  moe_*) # grouped: group=1 int32 ends, 3 masked counts, and G/layout; decode rows (groups under
    # 64 rows) on the sm80 recipe, prefill rows on the sm90 one
    case $name in *decode*) recipe=sm80 ;; *) recipe=sm90 ;; esac
    [[ $line =~ \ bf16\>bf16\ +NT\ .*\ none\ +G[0-9]+/(contig|masked)\ +recipe=$recipe\ arch=sm_90a\ ab=bf16\ c=bf16\ op=NT\ .*\ group=([13])$ ]] ||
      fail "$name has no grouped $recipe config: $line"
    [ "${BASH_REMATCH[2]}" = "$([ "${BASH_REMATCH[1]}" = masked ] && echo 3 || echo 1)" ] || fail "$name: layout and group= differ: $line" ;;
  moex_*) # the MoE extras: a grouped config, or (an engine without the field) the reason naming it
    if [[ $line == *"- (no tcj kernel: "* ]]; then
      [[ $line =~ no\ tcj\ kernel:\ (activation\ TCJ_ACT_SWIGLU|scale_mode\ TCJ_SCALE_ROW|group_mode\ TCJ_GROUP_K_CONTIGUOUS|stride_scale_b|row_scale|group_b_ptrs|gather_a) ]] ||
        fail "$name: the reason does not name the MoE field: $line"
      without=$((without + 1))
    else
      [[ $line =~ \ recipe=sm[89]0\ arch=sm_90a\ .*\ group=[1-5] ]] || fail "$name has no grouped config: $line"
    fi
    case $name in
    *e4m3*) [[ $line =~ \ e4m3\>bf16\ +NT\ .*\ G[0-9]+/contig\  ]] || fail "$name: $line" ;;
    *swiglu*) [[ $line =~ \ bf16\>bf16\ +NT\ +[0-9]+\ +768\ +2048\ swiglu\ +G128/contig\  ]] || fail "$name: $line" ;;
    *wgrad*) [[ $line =~ \ bf16\>bf16\ +TN\ +768\ +2048\ +16384\ none\ +G128/k\  ]] || fail "$name: $line" ;;
    esac ;;
  *) [[ $line == *" recipe=sm"[89]"0 arch=sm_90a "* ]] || fail "$name has no sm_90a config: $line" ;;
  esac
done
grep -q " pack_a=1 pack_b=1$" "$dir/out" || { show; fail "no packed operands shown (odd4095 packs both)"; }
tail -n 1 "$dir/out" |
  grep -qx "${#names[@]} problems (${#rows[@]} rows): $((${#rows[@]} - without)) with a tcj kernel, $without without" ||
  { show; fail "last line: $(tail -n 1 "$dir/out")"; }
# tcj_gemm_ex rows: the epilogue and batch columns, and the config that fuses them. One weight
# over stacked entries (batch8_bcast_b) is one GEMM of batch * m rows: a config without batch.
for want in "gelu_sq8192 +bf16>bf16 +NN +8192 +8192 +8192 bias_gelu +1 +recipe=sm90 .* bias=col:bf16 act=gelu$" \
            "silu_up_m128 +bf16>bf16 +NN +128 +28672 +4096 bias_silu +1 +recipe=sm[89]0 .* act=silu$" \
            "relu_sq8192 .* bias_relu .* act=relu$" "bias_sq8192 .* bias +1 .* bias=col:bf16$" \
            "batch64_512 .* none +64 +recipe=.* batch=1" "batch8_bcast_b .* none +8/bcast_b +recipe=[^ ]* arch=sm_90a ab=bf16 c=bf16 op=NN n=4096 k=4096 tile=[^ ]* warps=[^ ]* stages=[0-9] align=[0-9,]*$"; do
  grep -qE "^$want" "$dir/out" || { show; fail "--dry-run has no line matching: $want"; }
done
# A user epilogue: its config carries the source's hash (no NVRTC needed for it); a d_dtype
# shows as the output type.
cp "$data/residual_add.cu" "$dir/residual_add.cu"
printf 'dtype: bf16\nproblems:\n  - {name: res, m: 64, n: 256, k: 128, epilogue: bias_gelu, epilogue_source: residual_add.cu}\n'\
'  - {name: d32, m: 64, n: 256, k: 128, d_dtype: f32, batch: 4}\n' >"$dir/user.yaml"
run --dry-run --arch sm_80 --suite "$dir/user.yaml"
[ $rc -eq 0 ] && grep -qE "^d32 +bf16>f32 .* none +4 +recipe=sm80 .* c=f32 .* batch=1$" "$dir/out" ||
  { show; fail "a d_dtype row: rc $rc"; }
if grep -q "^res .*no tcj kernel: a user epilogue needs NVRTC" "$dir/out"; then
  [ -z "${CI:-}" ] || { show; fail "NVRTC is missing on CI"; }
else
  grep -qE "^res +bf16>bf16 .* bias_gelu\+user +1 +recipe=sm80 .* user=[0-9a-f]{16}$" "$dir/out" || { show; fail "a user epilogue row"; }
fi

# Grouped rows (group:): a row against cublasGemmGroupedBatchedEx, then NAME+loop; the tcj-prof
# --filter the lead runs on a GPU selects both; warmup_grouped.yaml lists the same kernels (int64
# ends: group=2).
run --dry-run --arch sm_90a --suite "$suite" --filter moe_dsv3_up_decode
mapfile -t listed < <(awk 'NR > 2 && $4 ~ /^[0-9]+$/ { print $1 }' "$dir/out")
[ $rc -eq 0 ] && [ "${listed[*]}" = "moe_dsv3_up_decode moe_dsv3_up_decode+loop" ] &&
  tail -n 1 "$dir/out" | grep -qx "1 problem (2 rows): 2 with a tcj kernel, 0 without" ||
  { show; fail "--filter moe_dsv3_up_decode: rc $rc, listed ${listed[*]}"; }
grep -qE "^moe_dsv3_up_decode +bf16>bf16 +NT +128 +4096 +7168 none +G32/masked .* group=3$" "$dir/out" ||
  { show; fail "the masked decode row"; }
run --dry-run --arch sm_90a --suite "$data/warmup_grouped.yaml" --filter moe_ends64
[ $rc -eq 0 ] && grep -qE "^moe_ends64 .* G32/contig .* group=2$" "$dir/out" || { show; fail "int64 ends: rc $rc"; }

# --fast-accum: the fp8 rows of one mode only; other problems are not affected.
run --dry-run --arch sm_90a --suite "$suite" --filter fp8_ --filter sq4096 --fast-accum 1
[ $rc -eq 0 ] || { show; fail "--fast-accum 1 exited $rc"; }
mapfile -t listed < <(awk 'NR > 2 && $4 ~ /^[0-9]+$/ { print $1 }' "$dir/out")
[ "${listed[*]}" = "sq4096 fp8_sq8192+fastacc fp8_up_m128+fastacc fp8_nt_m16+fastacc e5m2_sq4096+fastacc tf32_nt_sq4096 gelu_sq4096 f32_sq4096 f64_sq4096" ] ||
  { show; fail "--fast-accum 1 listed: ${listed[*]}"; }
run --dry-run --arch sm_90a --suite "$suite" --dtype e4m3 --fast-accum 0
[ $rc -eq 0 ] && tail -n 1 "$dir/out" | grep -qE "^6 problems: [0-6] with a tcj kernel, [0-6] without$" ||
  { show; fail "--fast-accum 0: rc $rc"; }
# tcj-warmup's fp8 keys (tests/data/warmup_fp8.yaml): fast_accum: true makes the +fastacc row
# only, scale: block the other one only; a b_dtype shows in the dtype column; every row has its
# kernel (those tcj-prof does not run are reported unsupported in a GPU run). --fast-accum 1
# over block-scaled problems alone leaves no row: exit 2.
run --dry-run --arch sm_90a --suite "$data/warmup_fp8.yaml"
[ $rc -eq 0 ] || { show; fail "--dry-run of warmup_fp8.yaml exited $rc"; }
mapfile -t listed < <(awk 'NR > 2 && $4 ~ /^[0-9]+$/ { print $1 }' "$dir/out")
wanted="e4m3_nt e4m3_nt+fastacc e5m2_nt e5m2_nt+fastacc pair pair+fastacc fp8_d fp8_d+fastacc fast+fastacc block"
wanted+=" mn_major mn_major+fastacc block_tt decode+fastacc mn_batch mn_batch+fastacc"
[ "${listed[*]}" = "$wanted" ] || { show; fail "warmup_fp8.yaml listed: ${listed[*]}"; }
for want in "pair +e4m3xe5m2>bf16 +NT .* b=e5m2$" "block +e4m3>bf16 .* scale=block$" "fast\+fastacc .* fast=1$" \
            "block_tt +e4m3>bf16 +TT .* op=NT .* scale=block pack_a=transpose$"; do
  grep -qE "^$want" "$dir/out" || { show; fail "warmup_fp8.yaml: no row matching $want"; }
done
tail -n 1 "$dir/out" | grep -qx "10 problems (16 rows): 16 with a tcj kernel, 0 without" ||
  { show; fail "warmup_fp8.yaml: last line $(tail -n 1 "$dir/out")"; }
printf 'dtype: e4m3\nproblems:\n  - {m: 256, n: 256, k: 256, op_b: T, scale: block}\n' >"$dir/block.yaml"
run --dry-run --arch sm_90a --suite "$dir/block.yaml" --fast-accum 1
[ $rc -eq 2 ] && grep -q "^tcj-prof: --fast-accum 1 leaves no row of $dir/block.yaml" "$dir/err" ||
  { show; fail "--fast-accum 1 over block scales only: rc $rc, wanted 2"; }

# --dtype f32 and f64: TCJ_F32 rows only (not tf32), and the f64 rows.
run --dry-run --arch sm_80 --suite "$suite" --dtype f32
mapfile -t listed < <(awk 'NR > 2 && $4 ~ /^[0-9]+$/ { print $1 }' "$dir/out")
[ $rc -eq 0 ] && [ "${listed[*]}" = "f32_sq4096 f32_sq8192 f32_deepk" ] && [ "$(grep -c ' f32>f32 .* x3=1$' "$dir/out")" -eq 3 ] ||
  { show; fail "--dtype f32: rc $rc, listed ${listed[*]}"; }
run --dry-run --arch sm_80 --suite "$suite" --dtype f64
mapfile -t listed < <(awk 'NR > 2 && $4 ~ /^[0-9]+$/ { print $1 }' "$dir/out")
[ $rc -eq 0 ] && [ "${listed[*]}" = "f64_sq4096 f64_sq8192 f64_odd4095" ] && [ "$(grep -c '^f64_[a-z0-9]* *f64>f64 ' "$dir/out")" -eq 3 ] ||
  { show; fail "--dtype f64: rc $rc, listed ${listed[*]}"; }

# Filters and another arch; grids expand.
qkv=$(printf '%s\n' "${names[@]}" | grep -c qkv)
run --dry-run --arch sm_80 --suite "$suite" --filter qkv --dtype bf16
[ $rc -eq 0 ] && [ "$(grep -c ' arch=sm_80 ' "$dir/out")" -eq "$qkv" ] || { show; fail "--filter qkv: rc $rc, wanted $qkv"; }
# --filter repeated: a problem matching any of them, each once.
run --dry-run --suite "$suite" --dtype bf16 --filter gelu_ --filter silu_ --filter relu_ --filter bias_ --filter batch \
  --filter sq8192
[ $rc -eq 0 ] && tail -n 1 "$dir/out" | grep -qx "11 problems: 11 with a tcj kernel, 0 without" ||
  { show; fail "repeated --filter: rc $rc"; }
printf 'dtype: f16\nproblems:\n  - {name: g, m: [1, 2, 4], n: {from: 64, to: 128, mul: 2}, k: 64}\n' >"$dir/grid.yaml"
run --dry-run --suite "$dir/grid.yaml"
[ $rc -eq 0 ] && [ "$(grep -c '^g  ' "$dir/out")" -eq 6 ] || { show; fail "a grid of 3 x 2 problems: rc $rc"; }

# Suite errors: exit 2 with FILE:LINE:COL.
printf 'dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: -4}\n' >"$dir/bad.yaml"
run --dry-run --suite "$dir/bad.yaml"
[ $rc -eq 2 ] && grep -qF "$dir/bad.yaml:3:21: k: negative size -4" "$dir/err" || { show; fail "a suite error: rc $rc"; }
printf 'dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 4\n' >"$dir/syntax.yaml"
run --suite "$dir/syntax.yaml"
[ $rc -eq 2 ] && grep -qF "$dir/syntax.yaml:4:1: YAML: " "$dir/err" || { show; fail "a YAML syntax error: rc $rc"; }
run --dry-run --suite "$dir/missing.yaml"
[ $rc -eq 2 ] && grep -qF "$dir/missing.yaml: " "$dir/err" || { show; fail "a missing suite: rc $rc"; }

echo "tcj-prof --dry-run: ${#names[@]} problems listed with their configs; usage and suite errors exit 2"
