#!/bin/sh
# kiln dis --ptx=DIR (no GPU needed): a task's PTX in DIR/KERNEL.TASK.ptx, a
# task that runs on the host in DIR/KERNEL.TASK.host with the reason, a
# struct-for's list generation kernels in DIR/KERNEL.TASK.listgen.ptx, and a
# DIR that cannot be a directory refused with exit 2.
#   dis_ptx.sh KILN
kiln=$1
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
touch "$tmp/file"
out=$("$kiln" dis --ptx="$tmp/file" "$here/../lang/sparse_read_inactive.py" 2>&1); rc=$?
[ $rc -eq 2 ] || { echo "bad dir: exit $rc: $out"; exit 1; }
echo "$out" | grep -q "kiln dis: --ptx=$tmp/file: not a directory that can be created" || { echo "bad dir: $out"; exit 1; }
"$kiln" dis --ptx="$tmp/ptx" "$here/no_device_cpu.py" >/dev/null 2>&1 || { echo "dis failed"; exit 1; }
grep -q '^\.visible \.entry kiln_0_fill' "$tmp/ptx/fill.0.ptx" || { echo "no entry in fill.0.ptx"; ls "$tmp/ptx"; exit 1; }
grep -q 'atom.cas.b64' "$tmp/ptx/touch.0.ptx" || { echo "no slot claim in touch.0.ptx"; ls "$tmp/ptx"; exit 1; }
# fill's constant range keeps no bounds check (the entry takes its bounds as
# constants): no call of kiln_gpu_fail, so the engine defers its launches;
# touch's activation can still fail (a full pool).
! grep -q 'kiln_gpu_fail' "$tmp/ptx/fill.0.ptx" || { echo "fill.0.ptx can still fail"; exit 1; }
grep -q 'kiln_gpu_fail,' "$tmp/ptx/touch.0.ptx" || { echo "touch.0.ptx never calls kiln_gpu_fail"; exit 1; }
# A recursive ti.real_func called per element is a device function that
# calls itself, under the module's depth limit (the engine lowers it to what
# the stack it sets holds); called from a serial task, it runs on the host.
grep -q '^\.visible \.global \.align 8 \.u64 kiln_call_depth_limit = 2000;' "$tmp/ptx/facts.0.ptx" ||
  { echo "no depth limit in facts.0.ptx"; ls "$tmp/ptx"; cat "$tmp/ptx/"*.host; exit 1; }
grep -q 'ld\.global\.u64.*\[kiln_call_depth_limit\]' "$tmp/ptx/facts.0.ptx" || { echo "facts.0.ptx never reads the limit"; exit 1; }
grep -q 'ti.real_func calls recurse' "$tmp/ptx/five.0.host" || { echo "five.0 is not on the host"; ls "$tmp/ptx"; exit 1; }
# A struct-for's list generation kernels (jit/llvm/listgen.h) next to its
# task: sparse_read_inactive's `for i in block` (task 3 of active_blocks),
# one count and write per level of block's path and the scan.
"$kiln" dis --ptx="$tmp/lists" "$here/../lang/sparse_read_inactive.py" >/dev/null 2>&1 || { echo "dis failed"; exit 1; }
for e in kiln_lg_count0 kiln_lg_write0 kiln_lg_scan; do
  grep -q "^\.visible \.entry $e(" "$tmp/lists/active_blocks.3.listgen.ptx" ||
    { echo "no entry $e in active_blocks.3.listgen.ptx"; ls "$tmp/lists"; exit 1; }
done
echo ok
