#!/bin/sh
# tests/llvm/tier_duel.sh KILN: tasks that duel once LLVM's code is ready
# part-way through their launch (tier_duel.py), on one thread and two. With
# KILN_TIER_MS=0 KILN_TIER_SYNC=1 the compile happens at a launch's first
# slice's end:
#  - by default (the tests' mode) LLVM's code runs the rest at once: every
#    kernel tiers up during its first launch, the ones the JIT runs in its
#    vector lanes too (a switch at a pass boundary of both codes);
#  - with KILN_TIER_TRIAL=back every duel keeps the JIT's code, and the
#    kernels then go on a task at a time;
#  - with KILN_TIER_DUEL=1 the duels keep whichever code was the faster;
#  - in the background (no KILN_TIER_SYNC), whenever the compile ends.
# Each prints the interpreter's output.
set -eu
kiln=$1
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stat() { sed -n "s/^$1: //p" "$2" | head -1; }
for threads in 1 2; do
  "$kiln" run --engine=interp "$dir/tier_duel.py" $threads >"$tmp/want"
  for mode in sync back duel background; do
    case $mode in
      sync) set -- KILN_TIER_MS=0 KILN_TIER_SYNC=1 ;;
      back) set -- KILN_TIER_MS=0 KILN_TIER_SYNC=1 KILN_TIER_TRIAL=back ;;
      duel) set -- KILN_TIER_MS=0 KILN_TIER_SYNC=1 KILN_TIER_DUEL=1 ;;
      background) set -- KILN_TIER_MS=0 ;;
    esac
    env "$@" "$kiln" run --stats "$dir/tier_duel.py" $threads >"$tmp/got" 2>"$tmp/stats"
    cat "$tmp/got" >>"$tmp/stats"
    grep -v -e '^[a-z_]*: ' "$tmp/got" | cmp "$tmp/want" - ||
      { echo "threads=$threads, $mode: output differs"; diff "$tmp/want" "$tmp/got" | head; exit 1; }
    [ "$threads" = 1 ] || continue  # (on two, the other thread may end a task while the compile runs)
    ups=$(stat tier_ups_in_launch "$tmp/stats")
    jit=$(stat tier_duels_jit "$tmp/stats")
    llvm=$(stat tier_duels_llvm "$tmp/stats")
    case $mode in
      sync) [ "$ups" = 3 ] && [ -z "$jit$llvm" ] ||
        { echo "$mode: want 3 kernels tiered up during a launch, no duels"; cat "$tmp/stats"; exit 1; } ;;
      back) [ "$ups" = 3 ] && [ "$jit" = 3 ] && [ -z "$llvm" ] ||
        { echo "$mode: want 3 duels, each keeping the JIT's code"; cat "$tmp/stats"; exit 1; } ;;
      duel) [ "$ups" = 3 ] && [ $((${jit:-0} + ${llvm:-0})) = 3 ] ||
        { echo "$mode: want 3 duels"; cat "$tmp/stats"; exit 1; } ;;
    esac
  done
done
echo ok
