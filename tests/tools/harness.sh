# SPDX-License-Identifier: Apache-2.0
# What the tool test scripts share (sourced, after they set $dir): fail MSG exits 1 with it,
# show prints the last captured run, and capture CMD ARGS... runs CMD with stdout and stderr in
# $dir/out and $dir/err and its status in $rc (set -e is kept around it).
fail() { echo "FAIL: $*"; exit 1; }
show() { echo "--- stdout"; cat "$dir/out"; echo "--- stderr"; cat "$dir/err"; }
capture() {
  set +e
  "$@" >"$dir/out" 2>"$dir/err" </dev/null
  rc=$?
  set -e
}
