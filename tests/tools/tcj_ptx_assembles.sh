#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tcj-ptx prints a `//` config line and PTX that ptxas assembles, for every dtype and op pair on
# sm_80, sm_89 and sm_90a (fp8, e4m3 and e5m2, on sm_89 and sm_90a: C bf16 by default, the sm90
# recipe on sm_90a when both operands are K-major; f32 by 3xTF32, x3=1); sm_90a takes the sm90
# recipe for 16-bit types unless --recipe sm80 says otherwise; tcj_gemm_ex's options (--epilogue,
# --batch, --broadcast-b, --d-dtype, --epilogue-source with NVRTC, and fp8's --b-dtype,
# --fast-accum, --block-scales) put their fields in the config and assemble too; --help exits 0
# and bad usage exits 2.
# Usage: tcj_ptx_assembles.sh TCJ_PTX PTXAS SCRATCH_DIR
set -euo pipefail
tcj_ptx=$1 ptxas=$2 dir=$3
mkdir -p "$dir"
unset TCJ_TILE TCJ_RECIPE
# The usage whole before grep: grep -q leaves at its first match, and a writer still writing
# (the usage is past one 4 KiB buffer) would die of SIGPIPE, which pipefail reports.
usage=$("$tcj_ptx" --help) && grep -q -- "--arch" <<<"$usage" || { echo "FAIL: --help does not print the usage"; exit 1; }
for bad in "--dtype bf16" "--arch sm_80 --dtype bf16 --m x --n 1 --k 1" "--bogus" \
           "--arch sm_90a --dtype bf16 --m 1 --n 1 --k 1 --recipe sm70" \
           "--arch sm_80 --dtype bf16 --m 1 --n 1 --k 1 --epilogue gelu" \
           "--arch sm_80 --dtype bf16 --m 1 --n 1 --k 1 --batch 0" \
           "--arch sm_80 --dtype bf16 --m 1 --n 1 --k 1 --broadcast-b" \
           "--arch sm_80 --dtype bf16 --m 1 --n 1 --k 1 --d-dtype f65" \
           "--arch sm_80 --dtype bf16 --m 1 --n 1 --k 1 --epilogue-source $dir/no-such.cu" \
           "--arch sm_90a --dtype e4m3 --m 1 --n 1 --k 1 --b-dtype e6m1" \
           "--arch sm_90a --dtype bf16 --m 1 --n 1 --k 1 --fast-accum" \
           "--arch sm_90a --dtype e4m3 --m 128 --n 128 --k 128 --op-b T --fast-accum --block-scales"; do
  set +e
  # shellcheck disable=SC2086
  "$tcj_ptx" $bad >/dev/null 2>&1
  rc=$?
  set -e
  [ $rc -eq 2 ] || { echo "FAIL: tcj-ptx $bad exited $rc, wanted 2"; exit 1; }
done
count=0
for arch in sm_80 sm_89 sm_90a; do
  for dtype in f16 bf16 tf32 s8; do
    for ops in "N N" "N T" "T N" "T T"; do
      set -- $ops
      for shape in "4096 4096 4096" "4095 4095 4095" "1 6144 4096" "100 1000 999"; do
        read -r m n k <<<"$shape"
        f="$dir/$arch-$dtype-$1$2-$m-$n-$k.ptx"
        "$tcj_ptx" --arch "$arch" --dtype "$dtype" --m "$m" --n "$n" --k "$k" --op-a "$1" --op-b "$2" >"$f"
        head -1 "$f" | grep -q "^// recipe=sm[89]0 arch=$arch " || { echo "FAIL: no config line in $f"; exit 1; }
        "$ptxas" -arch="$arch" "$f" -o "$dir/out.cubin" || { echo "FAIL: ptxas -arch=$arch $f"; exit 1; }
        count=$((count + 1))
      done
    done
  done
done
# fp8: every op pair and shape on sm_89 (mma.sync) and sm_90a (wgmma for the large shapes, an
# MN-major operand transposed into K-major scratch first: the config is the NT problem's, with
# pack_a=transpose / pack_b=transpose; small ones may stay on mma.sync). C is bf16 by default.
for arch in sm_89 sm_90a; do
  for dtype in e4m3 e5m2; do
    for ops in "N N" "N T" "T N" "T T"; do
      # shellcheck disable=SC2086  # two words: op_a and op_b
      set -- $ops
      for shape in "4096 4096 4096" "4095 4095 4095" "1 6144 4096" "100 1000 999"; do
        read -r m n k <<<"$shape"
        f="$dir/$arch-$dtype-$1$2-$m-$n-$k.ptx"
        "$tcj_ptx" --arch "$arch" --dtype "$dtype" --m "$m" --n "$n" --k "$k" --op-a "$1" --op-b "$2" >"$f"
        line=$(head -1 "$f")
        if [ $arch = sm_89 ]; then
          want="recipe=sm80 arch=sm_89 ab=$dtype c=bf16 op=$1$2 "
        elif [ "$m" = 4096 ]; then
          want="recipe=sm90 arch=sm_90a ab=$dtype c=bf16 op=NT "
          packs=$(grep -o ' pack_[ab]=[a-z0-9]*' <<<"$line" | tr -d '\n') || true
          wanted=""
          [ "$1" = N ] || wanted+=" pack_a=transpose"
          [ "$2" = T ] || wanted+=" pack_b=transpose"
          [ "$packs" = "$wanted" ] || { echo "FAIL: $arch $dtype $1$2 $shape: $line, wanted packs '$wanted'"; exit 1; }
        else
          want="recipe=sm(80 arch=sm_90a ab=$dtype c=bf16 op=$1$2|90 arch=sm_90a ab=$dtype c=bf16 op=NT) "
        fi
        grep -qE "^// $want" <<<"$line" || { echo "FAIL: $arch $dtype $1$2 $shape: $line, wanted $want"; exit 1; }
        "$ptxas" -arch="$arch" "$f" -o "$dir/out.cubin" || { echo "FAIL: ptxas -arch=$arch $f"; exit 1; }
        count=$((count + 1))
      done
    done
  done
done
for recipe in sm90 sm80; do
  f="$dir/recipe-$recipe.ptx"
  "$tcj_ptx" --arch sm_90a --dtype bf16 --m 4096 --n 4096 --k 4096 --recipe $recipe >"$f"
  head -1 "$f" | grep -q "^// recipe=$recipe arch=sm_90a " || { echo "FAIL: --recipe $recipe: $(head -1 "$f")"; exit 1; }
  "$ptxas" -arch=sm_90a "$f" -o "$dir/out.cubin" || { echo "FAIL: ptxas -arch=sm_90a $f"; exit 1; }
  count=$((count + 1))
done
# tcj_gemm_ex: each option's fields in the config line, and the PTX assembles on both recipes.
source=$(dirname "$0")/../data/residual_add.cu
while IFS='|' read -r opts want; do
  for arch in sm_80 sm_90a; do
    f="$dir/ex-$arch-$count.ptx"
    set +e
    # shellcheck disable=SC2086
    "$tcj_ptx" --arch $arch $opts >"$f" 2>"$dir/err"
    rc=$?
    set -e
    if [ $rc -ne 0 ] && grep -q "needs NVRTC" "$dir/err" && [ -z "${CI:-}" ]; then
      echo "NOTE: no NVRTC: skipped tcj-ptx $opts"
      continue
    fi
    [ $rc -eq 0 ] || { cat "$dir/err"; echo "FAIL: tcj-ptx --arch $arch $opts exited $rc"; exit 1; }
    head -1 "$f" | grep -qE "^// recipe=sm[89]0 arch=$arch .*$want( pack_a=(1|transpose))?( pack_b=(1|transpose))?\$" || { echo "FAIL: $opts: $(head -1 "$f"), wanted $want"; exit 1; }
    "$ptxas" -arch="$arch" "$f" -o "$dir/out.cubin" || { echo "FAIL: ptxas -arch=$arch $f ($opts)"; exit 1; }
    count=$((count + 1))
  done
done <<EOF
--dtype bf16 --m 4096 --n 4096 --k 4096 --epilogue bias|bias=col:bf16
--dtype bf16 --m 4096 --n 6144 --k 4096 --epilogue bias_gelu|bias=col:bf16 act=gelu
--dtype f16 --m 100 --n 1000 --k 999 --op-b T --epilogue bias_gelu_tanh|bias=col:f16 act=gelu_tanh
--dtype bf16 --m 128 --n 28672 --k 4096 --epilogue bias_silu --d-dtype f32|c=f32 .*bias=col:f32 act=silu
--dtype s8 --m 4096 --n 4096 --k 4096 --op-b T --epilogue bias_relu|ab=s8 c=s32 .*bias=col:f32 act=relu
--dtype bf16 --m 512 --n 512 --k 512 --batch 64|batch=1
--dtype bf16 --m 256 --n 4096 --k 4096 --batch 8 --broadcast-b --epilogue bias_relu|n=4096 k=4096 .*bias=col:bf16 act=relu
--dtype tf32 --m 1000 --n 1000 --k 1000 --batch 3 --epilogue bias|ab=tf32 .*bias=col:f32 batch=1
--dtype bf16 --m 1024 --n 1024 --k 1024 --epilogue bias_gelu --batch 2 --epilogue-source $source|act=gelu batch=1 user=[0-9a-f]{16}
EOF
# (--broadcast-b over stacked entries is one GEMM of batch * m rows: its config has no batch.)
# fp8's fields, on sm_89 (mma.sync, which accumulates in fp32: no fast=1) and sm_90a (wgmma; an
# MN-major batch stays on mma.sync: the transposing pack takes one GEMM).
while IFS='|' read -r arch opts want; do
  f="$dir/fp8-$arch-$count.ptx"
  # shellcheck disable=SC2086
  "$tcj_ptx" --arch $arch --m 4096 --n 4096 --k 4096 $opts >"$f" || { echo "FAIL: tcj-ptx --arch $arch $opts"; exit 1; }
  head -1 "$f" | grep -qE "^// $want\$" || { echo "FAIL: $arch $opts: $(head -1 "$f"), wanted $want"; exit 1; }
  "$ptxas" -arch="$arch" "$f" -o "$dir/out.cubin" || { echo "FAIL: ptxas -arch=$arch $f ($opts)"; exit 1; }
  count=$((count + 1))
done <<EOF
sm_90a|--dtype e4m3 --op-b T --fast-accum|recipe=sm90 arch=sm_90a ab=e4m3 c=bf16 op=NT .* fast=1
sm_90a|--dtype e4m3 --op-b T --block-scales|recipe=sm90 arch=sm_90a ab=e4m3 c=bf16 op=NT .* scale=block
sm_90a|--dtype e4m3 --op-a T --block-scales|recipe=sm90 arch=sm_90a ab=e4m3 c=bf16 op=NT .* scale=block pack_a=transpose pack_b=transpose
sm_90a|--dtype e4m3 --b-dtype e5m2 --op-b T --d-dtype e4m3 --epilogue bias_gelu|recipe=sm90 arch=sm_90a ab=e4m3 c=bf16 op=NT .* d=e4m3 bias=col:bf16 act=gelu b=e5m2
sm_90a|--dtype e5m2 --b-dtype e4m3 --c-dtype f32 --batch 4 --fast-accum|recipe=sm80 arch=sm_90a ab=e5m2 c=f32 op=NN .* batch=1 b=e4m3
sm_89|--dtype e4m3 --op-b T --fast-accum|recipe=sm80 arch=sm_89 ab=e4m3 c=bf16 op=NT [^f]*
sm_89|--dtype e5m2 --b-dtype e4m3 --op-a T --d-dtype e5m2 --epilogue bias_silu|recipe=sm80 arch=sm_89 ab=e5m2 c=bf16 op=TN .* d=e5m2 bias=col:bf16 act=silu b=e4m3
EOF
# f32 (TCJ_F32): fp32 accuracy by 3xTF32 on both recipes, x3=1 in the config with K three times
# the problem's (the three tf32 products end to end); an MN-major operand reaches the kernel
# K-major through the split pass (op=NT, nothing packed), and an epilogue or a batch fuses as for
# tf32.
while IFS='|' read -r arch opts want; do
  f="$dir/f32-$arch-$count.ptx"
  # shellcheck disable=SC2086
  "$tcj_ptx" --arch $arch --dtype f32 --m 4096 --n 4096 --k 4096 $opts >"$f" || { echo "FAIL: tcj-ptx --arch $arch $opts"; exit 1; }
  head -1 "$f" | grep -qE "^// recipe=$want x3=1\$" || { echo "FAIL: $arch f32 $opts: $(head -1 "$f"), wanted $want x3=1"; exit 1; }
  "$ptxas" -arch="$arch" "$f" -o "$dir/out.cubin" || { echo "FAIL: ptxas -arch=$arch $f (f32 $opts)"; exit 1; }
  count=$((count + 1))
done <<EOF
sm_80|--op-b T|sm80 arch=sm_80 ab=tf32 c=f32 op=NT n=4096 k=12288 .*
sm_89|--op-a T|sm80 arch=sm_89 ab=tf32 c=f32 op=NT n=4096 k=12288 .*
sm_90a|--op-b N|sm90 arch=sm_90a ab=tf32 c=f32 op=NT n=4096 k=12288 .*
sm_90a|--op-a T --op-b T|sm90 arch=sm_90a ab=tf32 c=f32 op=NT n=4096 k=12288 .*
sm_90a|--epilogue bias_relu|sm90 arch=sm_90a ab=tf32 c=f32 op=NT .* bias=col:f32 act=relu
sm_80|--batch 3|sm80 arch=sm_80 ab=tf32 c=f32 op=NT .* batch=1
EOF
echo "tcj-ptx: $count kernels assembled by ptxas for sm_80, sm_89 and sm_90a (with fp8, f32 by 3xTF32, epilogues, batches"\
  "and a user epilogue)"
