#!/bin/sh
# ti.simt on CUDA without a GPU: `kiln dis --ptx` with KILN_ARCH=cuda compiles
# the kernels as for CUDA (then runs them on the CPU with their ti.simt tasks
# emptied), and the PTX of each ti.simt program (tests/vulkan's, run as CUDA
# programs by KILN_ARCH, and tests/cuda/simt_warp) must assemble with ptxas
# for sm_80 and sm_90 and hold what ti.simt lowers to.
#   simt_ptx.sh KILN PTXAS
kiln=$1; ptxas=$2
[ -x "$ptxas" ] || { echo "no ptxas: skipped"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for path in vulkan/shared_array vulkan/shared_array_tail vulkan/subgroup vulkan/err_shared_bounds cuda/simt_warp; do
  prog=$(basename $path)
  KILN_ARCH=cuda "$kiln" dis --ptx="$tmp/$prog" "$here/../$path.py" >"$tmp/$prog.out" 2>&1
  rc=$?
  { [ $rc -le 1 ] && ! grep -q InternalError "$tmp/$prog.out"; } || { echo "$prog: dis exited $rc"; tail -5 "$tmp/$prog.out"; fail=1; }
  ls "$tmp/$prog"/*.ptx >/dev/null 2>&1 || { echo "$prog: no PTX"; ls "$tmp/$prog"; cat "$tmp/$prog"/*.host 2>/dev/null; fail=1; continue; }
  for f in "$tmp/$prog"/*.ptx; do
    for arch in sm_80 sm_90; do
      "$ptxas" -arch=$arch -o /dev/null "$f" 2>"$tmp/ptxas.err" || { echo "ptxas -arch=$arch rejects $f:"; head -20 "$tmp/ptxas.err"; fail=1; }
    done
  done
  for f in "$tmp/$prog"/*.host; do
    [ -e "$f" ] || continue
    echo "$prog: a task runs on the host: $(cat "$f")"; fail=1
  done
done
# What the programs' ti.simt lowers to.
has() {  # PROGRAM PATTERN
  cat "$tmp/$1"/*.ptx | grep -q -e "$2" || { echo "$1: no '$2' in its PTX"; fail=1; }
}
has shared_array '\.shared \.align 16'
has shared_array 'bar\.sync'
has shared_array 'atom\.shared'
has subgroup 'shfl\.sync\.idx'
has subgroup 'activemask'
has simt_warp 'shfl\.sync\.down'
has simt_warp 'shfl\.sync\.up'
has simt_warp 'shfl\.sync\.bfly'
has simt_warp 'vote\.sync\.ballot'
has simt_warp 'vote\.sync\.all'
has simt_warp 'match\.any\.sync'
has simt_warp 'match\.all\.sync'
has simt_warp 'bar\.warp\.sync'
has simt_warp 'bar\.red\.popc'
has simt_warp 'bar\.red\.and'
[ $fail -eq 0 ] && echo ok
exit $fail
