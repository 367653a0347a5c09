#!/bin/sh
# tests/llvm/stream_prefetch.sh KILN: stream_prefetch.py on the LLVM tier
# prints the interpreter's output, and its optimized modules
# (KILN_LLVM_DUMP=1) prefetch in the streaming sum's module and not in the
# busy polynomial's (jit/llvm/prefetch.h); on AMD Zen hosts (family 23 on,
# LLVM's znver CPUs) in neither: there StreamPrefetchPass does not run (orc.cpp).
set -eu
kiln=$1
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$kiln" run --engine=interp "$dir/stream_prefetch.py" >"$tmp/want"
KILN_ENGINE=llvm KILN_LLVM_DUMP=1 "$kiln" run "$dir/stream_prefetch.py" >"$tmp/got" 2>"$tmp/dump"
cmp "$tmp/want" "$tmp/got"
count() { awk -v mod="'kiln_$1'" '/^; ModuleID/ { m = $4 } m == mod && /call void @llvm.prefetch/ { n++ } END { print n + 0 }' "$tmp/dump"; }
s=$(count stream_sum)
p=$(count busy_poly)
echo "prefetches: stream_sum $s, busy_poly $p"
family=$(awk -F: '/^cpu family/ { print $2 + 0; exit }' /proc/cpuinfo)
if grep -q '^vendor_id.*AuthenticAMD' /proc/cpuinfo && [ "${family:-0}" -ge 23 ]; then
  [ "$s" -eq 0 ] && [ "$p" -eq 0 ]
else
  [ "$s" -gt 0 ] && [ "$p" -eq 0 ]
fi
