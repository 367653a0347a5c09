#!/bin/sh
# tests/llvm/tier_layout.sh KILN: tier_layout.py prints the interpreter's
# output on the default engine when its kernels tier up at once, on the
# launching thread (KILN_TIER_SYNC=1) and in the background (new fields are
# laid out between launches while a tier-up is under way); and the tiered
# module of `render` reads the dynamic list inline: no call of the runtime's
# lookup (kiln_llvm_sparse), which a module lowered without the program's
# layout makes for every read (jit/tiered.cpp).
set -eu
kiln=$1
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$kiln" run --engine=interp "$dir/tier_layout.py" >"$tmp/want"
KILN_TIER_MS=0 KILN_TIER_SYNC=1 KILN_LLVM_DUMP=1 "$kiln" run "$dir/tier_layout.py" >"$tmp/got" 2>"$tmp/dump"
cmp "$tmp/want" "$tmp/got"
KILN_TIER_MS=0 "$kiln" run "$dir/tier_layout.py" >"$tmp/got_async"
cmp "$tmp/want" "$tmp/got_async"
grep -q "^; ModuleID = 'kiln_render'" "$tmp/dump" || { echo "render did not tier up"; exit 1; }
# In render's module: the inline walk's blocks, and runtime lookups only in
# its cold branch (sparse.make: a chunk another thread is still making).
awk -v mod="'kiln_render'" '/^; ModuleID/ { m = $4 } m == mod' "$tmp/dump" >"$tmp/render.ll"
grep -q '^sparse\.chunk[0-9]*:' "$tmp/render.ll" || { echo "render does not walk the list inline"; exit 1; }
hot=$(awk '/^[A-Za-z0-9._]+:/ { b = $1 } /call .*@kiln_llvm_sparse/ && b !~ /^sparse\.make/ { n++ } END { print n + 0 }' "$tmp/render.ll")
echo "render's runtime lookups outside the cold branch: $hot"
[ "$hot" -eq 0 ]
# A tier-up on trial that goes back to the JIT (KILN_TIER_TRIAL=back: as a
# kernel whose LLVM code is the slower, such as a struct-for over a sparse
# tree; with KILN_TIER_SYNC=1 each kernel's second launch is LLVM's, its
# trial, and the later ones the JIT's) goes on printing the interpreter's output.
KILN_TIER_MS=0 KILN_TIER_SYNC=1 KILN_TIER_TRIAL=back "$kiln" run --stats "$dir/tier_layout.py" >"$tmp/got_back" 2>"$tmp/stats_back"
grep -v -e '^[a-z_]*: ' "$tmp/got_back" | cmp "$tmp/want" -
grep -q '^tier_downs: [1-9]' "$tmp/got_back" "$tmp/stats_back" || { echo "no kernel went back to the JIT"; cat "$tmp/stats_back"; exit 1; }
