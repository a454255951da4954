#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every source file carries `SPDX-License-Identifier: Apache-2.0` in its first three lines (C,
# headers, CUDA, CMake, shell, Python, .in templates, .ci scripts), and LICENSE is the Apache
# License 2.0. Files are those git tracks or would track (untracked, not ignored), or, outside a
# git checkout (a release tarball), those under SOURCE_DIR; build trees (a directory holding a
# CMakeCache.txt) are skipped either way. Usage: spdx.sh SOURCE_DIR
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: spdx.sh SOURCE_DIR" >&2; exit 2; }
cd "$1"
grep -q "Apache License" LICENSE 2>/dev/null && grep -q "Version 2.0, January 2004" LICENSE ||
  { echo "FAIL: LICENSE is missing or is not the Apache License 2.0"; exit 1; }
mapfile -t builds < <(find . -name .git -prune -o -name CMakeCache.txt -print | sed 's|^\./||; s|/CMakeCache.txt$|/|')
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
  files() { git ls-files -co --exclude-standard; }
else
  files() { find . -name .git -prune -o -type f -print | sed 's|^\./||'; }
fi
list() {
  local f b
  files | while IFS= read -r f; do
    for b in "${builds[@]}"; do [[ $f == "$b"* ]] && continue 2; done
    echo "$f"
  done
}
# Third-party code kept under its own licence, which lies beside it: Netlib's BLAS-3 testers
# (LAPACK's modified BSD licence).
third_party=(tests/third_party/lapack/)
for d in "${third_party[@]}"; do
  [ ! -d "$d" ] || [ -f "$d/LICENSE" ] || { echo "FAIL: $d holds third-party code without its LICENSE"; exit 1; }
done
missing=() checked=0
while IFS= read -r f; do
  for d in "${third_party[@]}"; do
    [[ $f == "$d"* ]] && continue 2
  done
  case $f in
  *.c | *.h | *.cu | *.cmake | *.sh | *.py | *.in | CMakeLists.txt | */CMakeLists.txt | .ci/*) ;;
  *) continue ;;
  esac
  [ -f "$f" ] || continue # deleted in the work tree, not yet in the index
  checked=$((checked + 1))
  head -n 3 "$f" | grep -q 'SPDX-License-Identifier: Apache-2.0' || missing+=("$f")
done < <(list)
if [ ${#missing[@]} -gt 0 ]; then
  echo "FAIL: ${#missing[@]} of $checked source files lack 'SPDX-License-Identifier: Apache-2.0' in their first 3 lines:"
  printf '  %s\n' "${missing[@]}"
  exit 1
fi
echo "spdx: $checked source files carry SPDX-License-Identifier: Apache-2.0; LICENSE is Apache-2.0"
