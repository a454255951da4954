#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# shellcheck disable=SC2015  # `A && B || fail`: fail when any check does not hold
# tools/torch_grouped.py without a GPU or PyTorch: it compiles, and --dry-run over tcj-prof
# --groups-out of tests/data/prof_groups.yaml lists every row with the torch ops it would time
# (or why torch cannot express it) without importing torch (a torch that fails to import is put
# first on PYTHONPATH); bad input exits 2 naming the line, a real run without torch exits 1.
# Exit 77 (skipped) without python3.
# Usage: torch_grouped_dry_run.sh TCJ_PROF SOURCE_DIR SCRATCH_DIR
set -euo pipefail
prof=$1 src=$2 dir=$3
command -v python3 >/dev/null || { echo "SKIP: no python3 to run tools/torch_grouped.py"; exit 77; }
rm -rf "$dir"
mkdir -p "$dir/fake/torch"
# shellcheck source=tests/tools/harness.sh
source "$(dirname "${BASH_SOURCE[0]}")/harness.sh"
echo 'raise ImportError("torch was imported")' >"$dir/fake/torch/__init__.py"
script=$src/tools/torch_grouped.py
run() { PYTHONPATH=$dir/fake capture python3 "$script" "$@"; }

# Compiled into the scratch directory: nothing is written beside the source.
python3 -c 'import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)' \
  "$script" "$dir/torch_grouped.pyc" || fail "tools/torch_grouped.py does not compile"
run --help
[ $rc -eq 0 ] && grep -q -- "--dry-run" "$dir/out" && grep -q -- "--csv FILE" "$dir/out" || { show; fail "--help"; }

"$prof" --dry-run --arch sm_90a --suite "$src/tests/data/prof_groups.yaml" --groups-out "$dir/groups.jsonl" >/dev/null ||
  fail "tcj-prof --groups-out failed"
run --dry-run "$dir/groups.jsonl"
[ $rc -eq 0 ] || { show; fail "--dry-run exited $rc"; }
# expect NAME OP...: the row's line is followed by exactly these ops.
expect() {
  local name=$1
  shift
  local got
  got=$(awk -v name="$name" 'index($0, name ": ") == 1 { on = 1; next } on && /^  [^n]/ { sub(/^  /, ""); print; next } { on = 0 }' "$dir/out" | paste -sd '|')
  local want
  want=$(IFS='|'; echo "$*")
  [ "$got" = "$want" ] || { show; fail "$name: ops '$got', wanted '$want'"; }
}
expect contig_ep "grouped_mm" "loop matmul"
expect masked_cap "grouped_mm 3d (max_rows)" "bmm (max_rows)" "grouped_mm packed" "loop matmul"
expect wgrad "grouped_mm 2d x 2d" "loop matmul"
expect swiglu "grouped_mm" "grouped_mm+swiglu" "loop matmul"
expect rowscale "grouped_mm" "grouped_mm+row_scale" "loop matmul"
expect gather "grouped_mm" "index_select+grouped_mm" "loop matmul"
expect fp8_row "scaled_grouped_mm" "loop scaled_mm"
expect fp8_row+fastacc "scaled_grouped_mm" "loop scaled_mm"
grep -qE "^contig_ep: contiguous bf16 G8 rows 200 n 256 k 512: A \[200, 512\], B \[8, 256, 512\] as \[8, 512, 256\], offs int32\[8\]" \
  "$dir/out" || { show; fail "contig_ep's shapes"; }
grep -qE "^wgrad: k bf16 G8 rows 128 .* -> D \[8, 128, 256\]$" "$dir/out" || { show; fail "wgrad's shapes"; }
grep -q "^contig_zipf: .*" "$dir/out" && grep -q "note: tcj's int64 ends run as int32 offs" "$dir/out" || { show; fail "int64 ends note"; }
grep -q "^fp8_block: .*: not expressed: scale block " "$dir/out" || { show; fail "fp8_block is not refused with its reason"; }
[ "$(tail -n 1 "$dir/out")" = "12 rows: 11 expressed, 1 not" ] || { show; fail "last line: $(tail -n 1 "$dir/out")"; }
run --dry-run "$dir/groups.jsonl" --filter fp8_
[ $rc -eq 0 ] && [ "$(tail -n 1 "$dir/out")" = "3 rows: 2 expressed, 1 not" ] || { show; fail "--filter fp8_: rc $rc"; }

# Bad input: exit 2 naming the file and line.
{ head -n 1 "$dir/groups.jsonl"; echo '{"name": "x"'; } >"$dir/bad.jsonl"
run --dry-run "$dir/bad.jsonl"
[ $rc -eq 2 ] && grep -q "^torch_grouped: $dir/bad.jsonl:2: not JSON" "$dir/err" || { show; fail "bad JSON: rc $rc"; }
echo '{"name": "x", "mode": "contiguous"}' >"$dir/short.jsonl"
run --dry-run "$dir/short.jsonl"
[ $rc -eq 2 ] && grep -q "^torch_grouped: $dir/short.jsonl:1: missing ab, " "$dir/err" || { show; fail "missing keys: rc $rc"; }
run --dry-run "$dir/groups.jsonl" --filter no-such-row
[ $rc -eq 2 ] || { show; fail "--filter matching nothing: rc $rc"; }
# A real run needs torch: without it, exit 1 saying so.
run "$dir/groups.jsonl"
[ $rc -eq 1 ] && grep -q "^torch_grouped: needs PyTorch" "$dir/err" || { show; fail "a run without torch: rc $rc"; }
echo "torch_grouped.py --dry-run: 12 rows planned without torch"
