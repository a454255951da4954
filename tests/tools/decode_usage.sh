#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tcj-decode's command line without a GPU: --help prints the usage and exits 0; each malformed
# option exits 2 with a message naming it and writes nothing to stdout; a well-formed run with no
# GPU exits 1 with "tcj-decode: no GPU" (skipped, exit 77, where a GPU is visible: it would run
# the benchmark).
# Usage: decode_usage.sh TCJ_DECODE
set -uo pipefail
decode=$1
fail() { echo "FAIL: $*"; exit 1; }

out=$("$decode" --help) || fail "--help exited $?"
grep -q "^usage: tcj-decode" <<<"$out" || fail "--help printed no usage: $out"
grep -q -- "--layers N" <<<"$out" || fail "--help does not list --layers"

# Each bad command line: exit 2, the reason on stderr, nothing on stdout.
bad() {
  local want=$1; shift
  local so se rc
  so=$("$decode" "$@" 2>/tmp/decode_usage.$$); rc=$?
  se=$(cat /tmp/decode_usage.$$); rm -f /tmp/decode_usage.$$
  [ $rc -eq 2 ] || fail "$* exited $rc, not 2"
  [ -z "$so" ] || fail "$* wrote to stdout: $so"
  grep -q -- "$want" <<<"$se" || fail "$*: stderr lacks '$want': $se"
}
bad "--m wants" --m 0
bad "--m wants" --m 1,,4
bad "--m wants" --m 4097
bad "--m wants" --m 1,2,3,4,5,6,7,8,9
bad "--layers wants" --layers 33
bad "--layers wants" --layers x
bad "--repeat wants" --repeat 0
bad "--dtype wants" --dtype e4m3
bad "--bandwidth-gbs wants" --bandwidth-gbs -1
bad "unknown option" --bogus
bad "unexpected argument" extra

if command -v nvidia-smi >/dev/null && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  echo "SKIP (the no-GPU case): a GPU is visible"
  exit 77
fi
so=$("$decode" --m 1 --layers 1 2>/tmp/decode_usage.$$); rc=$?
se=$(cat /tmp/decode_usage.$$); rm -f /tmp/decode_usage.$$
[ $rc -eq 1 ] || fail "a run without a GPU exited $rc, not 1"
grep -q "tcj-decode: no GPU" <<<"$se" || fail "a run without a GPU did not say so: $se"
echo "PASS"
