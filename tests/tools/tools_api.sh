#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The tools reach the library's internals through engine/tools_api.h only: no tool includes
# another engine/, ptxgen/ or cache/ header, every internal call a tool makes is named in that
# header's list, and no tool steers the engine by setting a TCJ_ variable.
# usage: tools_api.sh SOURCE_DIR
set -u
src=${1:?usage: tools_api.sh SOURCE_DIR}
cd "$src" || exit 1
fail=0
bad=$(grep -nE '#include "(engine|ptxgen|cache)/' tools/*.c tools/*.h | grep -v '"engine/tools_api.h"')
if [ -n "$bad" ]; then
  echo "tools include internal headers other than engine/tools_api.h:"
  echo "$bad"
  fail=1
fi
for name in $(grep -ohE '\b(eng|cache|ptx)_[a-z0-9_]+ *\(' tools/*.c tools/*.h | tr -d ' (' | sort -u); do
  grep -qw "$name" engine/*.h cache/*.h ptxgen/*.h || continue # the tool's own (a local function pointer)
  if ! grep -qw "$name" engine/tools_api.h; then
    echo "tools call $name, which engine/tools_api.h does not list: $(grep -lw "$name" tools/*.c tools/*.h | tr '\n' ' ')"
    fail=1
  fi
done
bad=$(grep -nE '(setenv|putenv) *\( *"TCJ_' tools/*.c)
if [ -n "$bad" ]; then
  echo "tools steer the engine through the environment (pass the setting through engine/tools_api.h):"
  echo "$bad"
  fail=1
fi
[ "$fail" = 0 ] && echo "tools use engine/tools_api.h only"
exit "$fail"
