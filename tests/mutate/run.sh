#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Mutation check of the CPU tests: plants each bug of mutations.txt (beside this script) in a
# scratch copy of the tree, rebuilds the tests that should catch it and runs them. A bug that
# leaves them green "survived": a hole in the tests. Exit 0 when every bug was caught, 1 when
# one survived or could not be planted, 2 on bad usage.
#   tests/mutate/run.sh [--keep] [FILTER]    FILTER: only mutations whose line contains it
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
keep=0 filter=""
for arg in "$@"; do
  case $arg in
  -h | --help) sed -n '3,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  --keep) keep=1 ;;
  -*) echo "run.sh: unknown option $arg" >&2; exit 2 ;;
  *) filter=$arg ;;
  esac
done

work=$(mktemp -d "${TMPDIR:-/tmp}/tcj-mutate.XXXXXX")
[ $keep -eq 1 ] || trap 'rm -rf "$work"' EXIT
# The tree as git sees it (tracked and untracked-but-not-ignored files), without builds.
(cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$work")
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
echo "mutate: configuring a scratch build in $work/build"
cmake -S "$work" -B "$work/build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release >/dev/null

killed=0 survived=0 broken=0
results=()
while IFS= read -r line; do
  case $line in '#'* | '') continue ;; esac
  [ -z "$filter" ] || [[ $line == *"$filter"* ]] || continue
  IFS=$'\x1f' read -r -a f <<<"${line//' |> '/$'\x1f'}"
  file=${f[0]} from=${f[1]} to=${f[2]} tests=${f[3]} what=${f[4]}
  orig=$(cat "$work/$file"; printf x) # the x keeps trailing newlines
  orig=${orig%x}
  count=$(grep -cF -- "$from" "$work/$file" || true)
  if [ "$count" -ne 1 ]; then
    results+=("NOT PLANTED ($count matches)  $file: $what")
    broken=$((broken + 1))
    continue
  fi
  printf '%s' "${orig/"$from"/"$to"}" >"$work/$file"
  verdict=SURVIVED
  # shellcheck disable=SC2086  # tests is a list of target names
  if ! cmake --build "$work/build" --target $tests >"$work/build.log" 2>&1; then
    verdict="KILLED (build)"
  elif ! (cd "$work/build" && ctest -R "^(${tests// /|})\$" --stop-on-failure >"$work/test.log" 2>&1); then
    verdict=KILLED
  fi
  printf '%s' "$orig" >"$work/$file"
  touch "$work/$file"
  if [ "$verdict" = SURVIVED ]; then survived=$((survived + 1)); else killed=$((killed + 1)); fi
  results+=("$verdict  $file: $what  [$tests]")
  echo "mutate: ${results[-1]}"
done <"$here/mutations.txt"

echo
printf '%s\n' "${results[@]}"
echo "mutate: $killed killed, $survived survived, $broken not planted"
[ $survived -eq 0 ] && [ $broken -eq 0 ]
