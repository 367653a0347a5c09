#!/bin/sh
# tests/llvm/tier_in_launch.sh KILN: a kernel launched once tiers up while
# that launch runs (vm/interp/mid_launch.h): with KILN_TIER_MS=0
# KILN_TIER_SYNC=1, LLVM's code is compiled at the end of a launch's first
# slice and runs the rest of it. tier_in_launch.py prints the interpreter's
# output on one thread (slices of a serial launch, prints in order) and on
# two (the pool's chunks, each cut), and every kernel's tier-up counts as one
# during a launch (--stats tier_ups_in_launch).
set -eu
kiln=$1
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for threads in 1 2; do
  "$kiln" run --engine=interp "$dir/tier_in_launch.py" $threads >"$tmp/want"
  KILN_TIER_MS=0 KILN_TIER_SYNC=1 "$kiln" run --stats "$dir/tier_in_launch.py" $threads >"$tmp/got" 2>"$tmp/stats"
  grep -v -e '^[a-z_]*: ' "$tmp/got" | cmp "$tmp/want" - || { echo "threads=$threads: output differs"; exit 1; }
  cat "$tmp/got" "$tmp/stats" | grep -q '^tier_ups_in_launch: 4$' ||
    { echo "threads=$threads: not every kernel tiered up during its launch"; cat "$tmp/stats"; exit 1; }
  # In the background (the default), whenever the compile ends: the same output.
  KILN_TIER_MS=0 "$kiln" run "$dir/tier_in_launch.py" $threads | cmp "$tmp/want" - || { echo "threads=$threads, background: output differs"; exit 1; }
done
echo ok
