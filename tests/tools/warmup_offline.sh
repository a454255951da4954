#!/usr/bin/env bash
# shellcheck disable=SC2015  # `A && B || fail`: fail when any check does not hold
# tcj-warmup without a GPU (nvJitLink): a first run into a fresh cache compiles every distinct
# kernel and leaves one <16 hex>.tcjc entry each and no temp file; a second run compiles nothing;
# --dry-run writes nothing; manifest errors exit 2 with file:line:col; an unusable cache dir
# exits 1. Exit 77 (skipped) when nvJitLink is missing, a failure when CI is set.
# Usage: warmup_offline.sh TCJ_WARMUP DATA_DIR SCRATCH_DIR
set -euo pipefail
warmup=$1 data=$2 dir=$3
unset TCJ_CACHE_PATH TCJ_CACHE_DIR TCJ_CACHE_DISABLE TCJ_CACHE_MAX_BYTES TCJ_TILE TCJ_RECIPE
rm -rf "$dir"
mkdir -p "$dir"
cache=$dir/cache manifest=$data/warmup_small.yaml
archs=(--arch sm_80 --arch sm_90a)
fail() { echo "FAIL: $*"; exit 1; }
show() { echo "--- stdout"; cat "$dir/out"; echo "--- stderr"; cat "$dir/err"; }
# run ARGS...: runs tcj-warmup with stdout and stderr in $dir/out and $dir/err; rc in $rc.
run() {
  set +e
  "$warmup" "$@" >"$dir/out" 2>"$dir/err" </dev/null
  rc=$?
  set -e
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

# Manifest errors: exit 2, FILE:LINE:COL and the value.
printf 'dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: -4}\n' >"$dir/bad.yaml"
run "${archs[@]}" --cache-dir "$cache" "$dir/bad.yaml"
[ $rc -eq 2 ] || { show; fail "a manifest error exited $rc, wanted 2"; }
grep -qF "$dir/bad.yaml:3:21: k: negative size -4" "$dir/err" || { show; fail "no file:line:col message"; }
printf 'dtype: bf16\nproblems:\n  - {m: 1, n: 1, k: 4\n' >"$dir/syntax.yaml"
run "${archs[@]}" --cache-dir "$cache" "$dir/syntax.yaml"
[ $rc -eq 2 ] && grep -qF "$dir/syntax.yaml:4:1: YAML: " "$dir/err" || { show; fail "a YAML syntax error: rc $rc"; }

# A cache dir that cannot be created: every kernel fails, exit 1, each with its error.
touch "$dir/file"
run --arch sm_80 --cache-dir "$dir/file/cache" "$manifest"
[ $rc -eq 1 ] && [[ $last =~ $summary ]] && [ "${BASH_REMATCH[1]}" -eq 0 ] && [ "${BASH_REMATCH[3]}" -gt 0 ] ||
  { show; fail "an unusable cache dir: rc $rc, $last"; }
grep -q "FAILED sm_80 " "$dir/out" && grep -q "tcj-warmup: sm_80 recipe=" "$dir/err" || { show; fail "failures without their errors"; }

# No --arch, no targets: and no GPU: exit 2, asking for --arch.
run --dry-run --cache-dir "$cache" "$manifest"
if grep -q "pass --arch" "$dir/err"; then [ $rc -eq 2 ] || fail "no GPU and no arch exited $rc, wanted 2"; fi

echo "tcj-warmup: $want kernels compiled offline for sm_80 and sm_90a, then all hits"
