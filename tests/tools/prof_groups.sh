#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# shellcheck disable=SC2015  # `A && B || fail`: fail when any check does not hold
# tcj-prof --groups-out without a GPU (with --dry-run): a JSON line per grouped row of
# tests/data/prof_groups.yaml, in order, none for +loop rows or a problem that is not grouped;
# each line's sizes are G values that sum to the routed rows (masked: each at most max_rows, the
# sum the rows computed), even routing splits evenly, rows/nonempty/flops follow from the sizes
# as tcj-prof counts them (SwiGLU: 2n columns of B; K mode: the routed K), the same file again
# on a second run, another seed other sizes; a file that cannot be written exits 1.
# Usage: prof_groups.sh TCJ_PROF DATA_DIR SCRATCH_DIR
set -euo pipefail
prof=$1 data=$2 dir=$3
unset TCJ_TILE TCJ_RECIPE
rm -rf "$dir"
mkdir -p "$dir"
# shellcheck source=tests/tools/harness.sh
source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
run() { capture "$prof" "$@"; }
# field LINE KEY: the value of a number, string (unquoted), null or boolean key of LINE.
field() { sed -n "s/.*\"$2\": \"\{0,1\}\([^,\"}]*\)\"\{0,1\}[,}].*/\1/p" <<<"$1"; }
# sizes LINE: the sizes array, one per line.
sizes() { sed -n 's/.*"sizes": \[\([^]]*\)\].*/\1/p' <<<"$1" | tr -d ' ' | tr ',' '\n'; }

run --help
[ $rc -eq 0 ] && grep -q -- "--groups-out FILE" "$dir/out" || fail "--help does not document --groups-out"

suite=$data/prof_groups.yaml
run --dry-run --arch sm_90a --suite "$suite" --groups-out "$dir/groups.jsonl"
[ $rc -eq 0 ] || { show; fail "--dry-run --groups-out exited $rc"; }
mapfile -t lines <"$dir/groups.jsonl"
names=()
for line in "${lines[@]}"; do names+=("$(field "$line" name)"); done
want="contig_ep contig_zipf contig_even masked_cap wgrad swiglu rowscale gather bptrs fp8_row fp8_row+fastacc fp8_block"
[ "${names[*]}" = "$want" ] || fail "lines for: ${names[*]}; wanted: $want"

for line in "${lines[@]}"; do
  name=$(field "$line" name) mode=$(field "$line" mode) G=$(field "$line" groups)
  routed=$(field "$line" routed_rows) rows=$(field "$line" rows) max_rows=$(field "$line" max_rows)
  m=$(field "$line" m) n=$(field "$line" n) k=$(field "$line" k) b_cols=$(field "$line" b_cols)
  mapfile -t s < <(sizes "$line")
  [ "${#s[@]}" -eq "$G" ] || fail "$name: ${#s[@]} sizes for $G groups: $line"
  sum=0 nonempty=0 capped=0
  for v in "${s[@]}"; do
    [[ $v =~ ^[0-9]+$ ]] || fail "$name: size '$v' is not a count: $line"
    sum=$((sum + v))
    [ "$v" -eq 0 ] || nonempty=$((nonempty + 1))
    if [ "$mode" = masked ]; then
      [ "$v" -le "$max_rows" ] || fail "$name: count $v above max_rows $max_rows"
      [ "$v" -lt "$max_rows" ] || capped=$((capped + 1))
    fi
  done
  [ "$sum" -eq "$rows" ] || fail "$name: sizes sum to $sum, rows says $rows"
  [ "$nonempty" -eq "$(field "$line" nonempty)" ] || fail "$name: $nonempty non-empty groups: $line"
  tokens=$(field "$line" tokens) topk=$(field "$line" topk) ep=$(field "$line" ep)
  [ "$routed" -eq $((tokens * topk / ep)) ] || fail "$name: routed_rows $routed is not tokens * topk / ep"
  case $mode in
  contiguous)
    [ "$sum" -eq "$routed" ] && [ "$m" -eq "$routed" ] || fail "$name: sizes sum to $sum, m $m, routed $routed"
    [ "$(field "$line" max_rows)" = null ] || fail "$name: max_rows on a contiguous row" ;;
  k) [ "$sum" -eq "$routed" ] && [ "$k" -eq "$routed" ] || fail "$name: K sizes sum to $sum, k $k, routed $routed" ;;
  masked)
    [ "$m" -eq "$max_rows" ] && [ "$sum" -le "$routed" ] || fail "$name: m $m, counts sum to $sum of $routed"
    [ "$(field "$line" ends)" = null ] || fail "$name: ends on a masked row" ;;
  *) fail "$name: mode '$mode'" ;;
  esac
  # tcj-prof's flop count: 2 rows b_cols k (K mode: 2 m b_cols K).
  if [ "$mode" = k ]; then flops=$((2 * m * b_cols * sum)); else flops=$((2 * sum * b_cols * k)); fi
  [ "$(field "$line" flops)" = "$flops" ] || fail "$name: flops $(field "$line" flops), wanted $flops"
  want_cols=$n
  [ "$(field "$line" epilogue)" != swiglu ] || want_cols=$((2 * n))
  [ "$b_cols" -eq "$want_cols" ] || fail "$name: b_cols $b_cols, wanted $want_cols"
  case $name in
  contig_ep) [ "$G" -eq 8 ] && [ "$routed" -eq 200 ] || fail "$name: G $G, routed $routed (16 experts / ep 2, 100 x 4 / 2)" ;;
  contig_zipf) [ "$(field "$line" ends)" = int64 ] && [ "$(field "$line" skew)" = zipf ] && [ "$(field "$line" seed)" = 7 ] &&
    [ "$(field "$line" exponent)" = 1.5 ] || fail "$name: $line" ;;
  contig_even) [ "${s[*]}" = "17 17 17 17 16 16" ] || fail "$name: even routing of 100 rows over 6: ${s[*]}" ;;
  masked_cap) [ "$capped" -gt 0 ] && [ "$sum" -lt "$routed" ] || fail "$name: no count capped at max_rows: ${s[*]}" ;;
  wgrad) [ "$(field "$line" op_a)$(field "$line" op_b)" = TN ] || fail "$name: K mode layout: $line" ;;
  swiglu) [ "$(field "$line" epilogue)" = swiglu ] || fail "$name: $line" ;;
  rowscale) [ "$(field "$line" row_scale)" = true ] || fail "$name: $line" ;;
  gather) [ "$(field "$line" gather)" = true ] && [ "$(field "$line" gather_rows)" -eq "$tokens" ] || fail "$name: $line" ;;
  bptrs) [ "$(field "$line" b_ptrs)" = true ] || fail "$name: $line" ;;
  fp8_row | fp8_row+fastacc)
    [ "$(field "$line" ab)$(field "$line" d)$(field "$line" scale)" = e4m3bf16row ] || fail "$name: $line"
    [ "$(field "$line" fast_accum)" = "$([ "$name" = fp8_row ] && echo 0 || echo 1)" ] || fail "$name: fast_accum: $line" ;;
  fp8_block) [ "$(field "$line" scale)" = block ] && [ "${s[*]}" = "16 16 16 16" ] || fail "$name: $line" ;;
  esac
  [[ $name == fp8_* ]] || [ "$(field "$line" scale)" = null ] || fail "$name: a scale on a bf16 row"
done
# The rows of the suite that share their routing draw the same sizes (seed 1, 8 groups, 64 rows).
[ "$(sizes "${lines[5]}" | tr '\n' ' ')" = "$(sizes "${lines[8]}" | tr '\n' ' ')" ] || fail "swiglu and bptrs draw differently"
if command -v python3 >/dev/null; then
  python3 -c 'import json, sys; [json.loads(l) for l in open(sys.argv[1])]' "$dir/groups.jsonl" ||
    fail "a line is not valid JSON"
fi

# The same file again; another seed, other sizes; a filter writes its rows only.
cp "$dir/groups.jsonl" "$dir/first.jsonl"
run --dry-run --arch sm_90a --suite "$suite" --groups-out "$dir/groups.jsonl"
cmp -s "$dir/groups.jsonl" "$dir/first.jsonl" || fail "a second run wrote another file"
sed 's/tokens: 100, topk: 4}/tokens: 100, topk: 4, seed: 2}/' "$suite" >"$dir/seed2.yaml"
run --dry-run --arch sm_90a --suite "$dir/seed2.yaml" --filter contig_ep --groups-out "$dir/seed2.jsonl"
[ $rc -eq 0 ] && [ "$(wc -l <"$dir/seed2.jsonl")" -eq 1 ] || { show; fail "--filter contig_ep: rc $rc"; }
line=$(cat "$dir/seed2.jsonl")
[ "$(field "$line" seed)" = 2 ] && [ $(($(sizes "$line" | paste -sd+))) -eq 200 ] || fail "seed 2: $line"
[ "$(sizes "$line")" != "$(sizes "${lines[0]}")" ] || fail "seed 2 drew the sizes of seed 1"

# A file that cannot be written: exit 1, naming it; nothing listed.
run --dry-run --arch sm_90a --suite "$suite" --groups-out "$dir/no-such-dir/groups.jsonl"
[ $rc -eq 1 ] && grep -qF "tcj-prof: cannot write $dir/no-such-dir/groups.jsonl: " "$dir/err" && [ ! -s "$dir/out" ] ||
  { show; fail "an unwritable --groups-out: rc $rc"; }
echo "tcj-prof --groups-out: ${#lines[@]} grouped rows with their sizes, rows and flops"
