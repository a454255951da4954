#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs one libFuzzer harness for a fixed time over a writable corpus seeded from the checked-in
# one; exits non-zero on any crash, leak, sanitizer report, slow input or memory blow-up, naming
# the saved input and how to replay it. Usage: run.sh FUZZER SECONDS SEED_DIR DICT WORK_DIR
set -euo pipefail
fuzzer=$1 seconds=$2 seeds=$3 dict=$4 work=$5
mkdir -p "$work/corpus" "$work/artifacts"
# Seeds join what earlier runs found (new names only: nothing found is lost).
cp -n "$seeds"/* "$work/corpus/"
rm -f "$work"/artifacts/*
dict_arg=()
[ -f "$dict" ] && dict_arg=(-dict="$dict")
set +e
"$fuzzer" "$work/corpus" "${dict_arg[@]}" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 >"$work/log" 2>&1
rc=$?
set -e
if [ $rc -ne 0 ]; then
  # The report, its stack and the input, without libFuzzer's progress lines.
  grep -v -E '^#[0-9]+[[:space:]]' "$work/log" | tail -n 80
  for f in "$work"/artifacts/*; do
    [ -e "$f" ] && echo "FAIL: $(basename "$fuzzer") exited $rc; replay: $fuzzer $f"
  done
  exit 1
fi
grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|#[0-9]+ *DONE)' "$work/log" || true
echo "$(basename "$fuzzer"): $(find "$work/corpus" -type f | wc -l) inputs in the corpus, no failure in ${seconds} s"
