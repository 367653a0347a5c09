#!/bin/sh
# tests/llvm/lane_staged.sh KILN: tests/lang/lane_staged.py on the LLVM tier
# prints the interpreter's output, and its optimized modules
# (KILN_LLVM_DUMP=1) read the interleaved fields of `forces` (a vec3 f32)
# and `mixed` (a vec2 f64 and an i32 in one struct) from three 64-byte
# aligned copies each, and `rewrite`, whose task writes the field it reads,
# from none (jit/llvm/lower_deinterleave.cpp).
set -eu
kiln=$1
prog=$(cd "$(dirname "$0")/../lang" && pwd)/lane_staged.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$kiln" run --engine=interp "$prog" >"$tmp/want"
KILN_ENGINE=llvm KILN_LLVM_DUMP=1 KILN_CACHE_DIR="$tmp/cache" "$kiln" run "$prog" >"$tmp/got" 2>"$tmp/dump"
cmp "$tmp/want" "$tmp/got"
count() { awk -v mod="'kiln_$1'" '/^; ModuleID/ { m = $4 } m == mod && /= alloca \[[0-9]+ x (float|double|i32)\], align 64/ { n++ } END { print n + 0 }' "$tmp/dump"; }
f=$(count forces)
m=$(count mixed)
r=$(count rewrite)
echo "copies: forces $f, mixed $m, rewrite $r"
[ "$f" -eq 3 ] && [ "$m" -eq 3 ] && [ "$r" -eq 0 ]
