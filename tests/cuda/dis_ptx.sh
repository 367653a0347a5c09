#!/bin/sh
# kiln dis --ptx=DIR (no GPU needed): a task's PTX in DIR/KERNEL.TASK.ptx, a
# task that runs on the host in DIR/KERNEL.TASK.host with the reason, and a
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
grep -q '^a recursive ti.real_func on the GPU' "$tmp/ptx/five.0.host" || { echo "no host reason"; ls "$tmp/ptx"; cat "$tmp/ptx/"*.host; exit 1; }
echo ok
