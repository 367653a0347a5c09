#!/bin/sh
# tests/llvm/tier_rising.sh KILN: a kernel launched once whose iterations
# grow dear along its range tiers up during that launch (mid_launch.h
# left_cpu_ns: the latest slices' rate, not only the launch's so far, which
# here never predicts the share left). KILN_TIER_MS is set to 2.5 times the
# launch's CPU time on the JIT alone (measured first, so that the test holds
# on a faster or slower host): the in-launch share is then a quarter of the
# launch, which the launch's rate so far never predicts is left (at most a
# twelfth) and its latest slices' does (over a third, from two thirds of
# the range). KILN_TIER_SYNC=1: the compile runs at the trigger, and the
# rest of the launch on LLVM's code. Each prints the interpreter's output.
set -eu
kiln=$1
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$kiln" run --engine=interp "$dir/tier_rising.py" 1 >"$tmp/want" 2>/dev/null
for threads in 1 2; do
  KILN_TIER_MS=off "$kiln" run "$dir/tier_rising.py" $threads 2>"$tmp/cpu" | cmp "$tmp/want" - ||
    { echo "threads=$threads, JIT alone: output differs"; exit 1; }
  ms=$(awk '/^cpu_ms/ { print int($2 * 5 / 2) }' "$tmp/cpu")
  KILN_TIER_MS=$ms KILN_TIER_SYNC=1 "$kiln" run --stats "$dir/tier_rising.py" $threads >"$tmp/got" 2>"$tmp/stats"
  grep -v -e '^[a-z_]*: ' "$tmp/got" | cmp "$tmp/want" - || { echo "threads=$threads: output differs"; exit 1; }
  cat "$tmp/got" "$tmp/stats" | grep -q '^tier_ups_in_launch: 1$' ||
    { echo "threads=$threads: no tier-up during the launch (KILN_TIER_MS=$ms)"; cat "$tmp/stats"; exit 1; }
done
echo ok
