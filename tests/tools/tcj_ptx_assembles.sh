#!/usr/bin/env bash
# tcj-ptx prints a `//` config line and PTX that ptxas assembles, for every dtype and op pair on
# sm_80 and sm_90a (and sm_89 for s8/tf32); sm_90a takes the sm90 recipe for 16-bit types unless
# --recipe sm80 says otherwise; --help exits 0 and bad usage exits 2.
# Usage: tcj_ptx_assembles.sh TCJ_PTX PTXAS SCRATCH_DIR
set -euo pipefail
tcj_ptx=$1 ptxas=$2 dir=$3
mkdir -p "$dir"
unset TCJ_TILE TCJ_RECIPE
"$tcj_ptx" --help | grep -q -- "--arch" || { echo "FAIL: --help does not print the usage"; exit 1; }
for bad in "--dtype bf16" "--arch sm_80 --dtype bf16 --m x --n 1 --k 1" "--bogus" \
           "--arch sm_90a --dtype bf16 --m 1 --n 1 --k 1 --recipe sm70"; do
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
for recipe in sm90 sm80; do
  f="$dir/recipe-$recipe.ptx"
  "$tcj_ptx" --arch sm_90a --dtype bf16 --m 4096 --n 4096 --k 4096 --recipe $recipe >"$f"
  head -1 "$f" | grep -q "^// recipe=$recipe arch=sm_90a " || { echo "FAIL: --recipe $recipe: $(head -1 "$f")"; exit 1; }
  "$ptxas" -arch=sm_90a "$f" -o "$dir/out.cubin" || { echo "FAIL: ptxas -arch=sm_90a $f"; exit 1; }
  count=$((count + 1))
done
echo "tcj-ptx: $count kernels assembled by ptxas for sm_80, sm_89 and sm_90a"
