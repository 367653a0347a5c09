#!/bin/sh
# ti.simt's CUDA-only errors without a GPU: `KILN_ARCH=cuda kiln dis --ptx`
# makes each task's PTX, where a ti.simt loop's block_dim past 1024 and a
# ti.simt task the lowering leaves to the host are refused; each program
# exits 1 with its .expected error (kind, message, file:line:col, caret).
# On a GPU, tests/cuda/run_device.sh runs the same programs with arch=cuda.
#   err_simt.sh KILN
kiln=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for prog in err_simt_block_dim err_simt_host; do
  (cd "$here" && KILN_ARCH=cuda "$kiln" dis --ptx="$tmp/$prog" "$prog.py") >"$tmp/$prog.out" 2>&1
  rc=$?
  [ $rc -eq 1 ] || { echo "$prog: exit $rc"; cat "$tmp/$prog.out"; fail=1; continue; }
  grep -v '^kiln dis: ' "$tmp/$prog.out" | diff "$here/$prog.expected" - || { echo "$prog: the error differs"; fail=1; }
done
[ $fail -eq 0 ] && echo ok
exit $fail
