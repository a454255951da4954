#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tcj-cache on a cache that tcj-warmup fills without a GPU: ls lists every entry with its arch,
# compiler and config; du counts them; verify passes, then fails naming a damaged entry; prune
# by size keeps the most recently used and by age removes the stale; clear empties it; bad usage
# exits 2. Exit 77 (skipped) when nvJitLink is missing, a failure when CI is set.
# Usage: tcj_cache.sh TCJ_CACHE TCJ_WARMUP DATA_DIR SCRATCH_DIR
set -euo pipefail
tool=$1 warmup=$2 data=$3 dir=$4
unset TCJ_CACHE_PATH TCJ_CACHE_DIR TCJ_CACHE_DISABLE TCJ_CACHE_MAX_BYTES TCJ_CACHE_TRUST_ANY TCJ_CACHE_SHARED_GROUP \
  TCJ_TILE TCJ_RECIPE
rm -rf "$dir"
mkdir -p "$dir"
cache=$dir/cache
fail() { echo "FAIL: $*"; exit 1; }
# run ARGS...: tcj-cache on $cache; stdout, stderr, status in $dir/out, $dir/err, $rc.
run() {
  set +e
  "$tool" --cache-dir "$cache" "$@" >"$dir/out" 2>"$dir/err" </dev/null
  rc=$?
  set -e
}
show() { echo "--- stdout"; cat "$dir/out"; echo "--- stderr"; cat "$dir/err"; }

usage=$("$tool" --help) && grep -q "prune --max-bytes" <<<"$usage" || fail "--help does not print the usage" # not a pipe: grep -q leaving early would SIGPIPE the writer
for bad in "" "bogus" "ls extra" "prune" "ls --max-bytes 1K" "prune --max-bytes 12Q" "prune --older-than 3w"; do
  # shellcheck disable=SC2086
  run $bad
  [ $rc -eq 2 ] || { show; fail "tcj-cache $bad exited $rc, wanted 2"; }
done

"$warmup" --arch sm_80 --arch sm_90a --cache-dir "$cache" "$data/warmup_small.yaml" >"$dir/warm" 2>&1 || true
if grep -q "nvJitLink not found" "$dir/warm"; then
  [ -z "${CI:-}" ] || fail "nvJitLink is missing on CI"
  echo "SKIP: nvJitLink not found; tcj-warmup cannot fill a cache without it"
  exit 77
fi
[[ $(tail -n 1 "$dir/warm") =~ ^compiled=([0-9]+)\  ]] || { cat "$dir/warm"; fail "warmup failed"; }
n=${BASH_REMATCH[1]}
[ "$n" -ge 4 ] || fail "warmup compiled only $n kernels"

run ls
[ $rc -eq 0 ] && [ "$(wc -l <"$dir/out")" -eq "$n" ] || { show; fail "ls: rc $rc, wanted $n lines"; }
grep -q '^sm_80 .*nvJitLink.* recipe=sm80 arch=sm_80 ' "$dir/out" || { show; fail "ls: no sm_80 line with its compiler and config"; }
grep -q '^sm_90a .* recipe=sm90 arch=sm_90a ' "$dir/out" || { show; fail "ls: no sm_90a sm90-recipe line"; }
run du
[ $rc -eq 0 ] && grep -qE "^  entries +$n\$" "$dir/out" || { show; fail "du"; }
run verify
[ $rc -eq 0 ] && grep -q "^$n entries good, 0 damaged" "$dir/out" || { show; fail "verify of a sound cache"; }

# One flipped byte in the middle of an entry: verify names it and exits 1; ls shows it too.
victim=$(find "$cache" -maxdepth 1 -name '*.tcjc' | sort | head -n 1)
size=$(stat -c %s "$victim")
printf '\x5a' | dd of="$victim" bs=1 seek=$((size / 2)) conv=notrunc status=none
run verify
[ $rc -eq 1 ] && grep -q "$(basename "$victim"): damaged" "$dir/err" && grep -q "^$((n - 1)) entries good, 1 damaged" "$dir/out" ||
  { show; fail "verify of a damaged entry: rc $rc"; }
rm -f "$victim"
n=$((n - 1))

# prune --max-bytes: the most recently used stay. Give each entry a distinct age first.
i=0
for f in $(find "$cache" -maxdepth 1 -name '*.tcjc' | sort); do
  touch -d "@$(($(date +%s) - 100 * (n - i)))" "$f"
  i=$((i + 1))
done
newest=$(ls -t "$cache"/*.tcjc | head -n 2)
keep=0
for f in $newest; do keep=$((keep + $(stat -c %s "$f"))); done
run prune --max-bytes "$keep"
[ $rc -eq 0 ] && grep -q "^removed $((n - 2)) entries" "$dir/out" || { show; fail "prune --max-bytes $keep"; }
for f in $newest; do [ -e "$f" ] || fail "prune removed a most recently used entry $f"; done
# prune --older-than: only the entry unused for an hour goes.
old=$(ls -t "$cache"/*.tcjc | tail -n 1)
touch -d "@$(($(date +%s) - 3600))" "$old"
run prune --older-than 30m
[ $rc -eq 0 ] && grep -q "^removed 1 entries" "$dir/out" && [ ! -e "$old" ] || { show; fail "prune --older-than 30m"; }

# clear: nothing left; a temp file of a live writer stays, one of a dead writer goes.
mkdir -p "$cache/tmp"
touch "$cache/tmp/live.tmp"
touch -d "@$(($(date +%s) - 7200))" "$cache/tmp/dead.tmp"
run clear
[ $rc -eq 0 ] && [ -z "$(find "$cache" -maxdepth 1 -name '*.tcjc')" ] || { show; fail "clear"; }
[ -e "$cache/tmp/live.tmp" ] && [ ! -e "$cache/tmp/dead.tmp" ] || { ls -la "$cache/tmp"; fail "clear and temp files"; }
run ls
[ $rc -eq 0 ] && [ ! -s "$dir/out" ] || { show; fail "ls of an empty cache"; }
"$tool" --cache-dir "$dir/absent" du >/dev/null 2>&1 && fail "du of a missing directory succeeded"
echo "tcj-cache: ls, du, verify, prune and clear as documented"
