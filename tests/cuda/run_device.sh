#!/usr/bin/env bash
# On a machine with an NVIDIA GPU (a lent device machine; not CI): every
# tests/lang program with KILN_ARCH=cuda against its .expected, on the
# built-in host (the machine has no Debian Python for kiln's embedded one),
# then the bench's CUDA column next to the LLVM tier and the C++ baseline
# (g++ -O3 -march=native -fopenmp, all cores) in the same run.
#   tests/cuda/run_device.sh PACK.tar.xz OUTDIR     (PACK from scripts/cuda-pack)
# PROGS (tests/lang names) and BENCH (bench names) choose fewer of each.
set -u
pack=$1; out=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
k=/tmp/kilnpack
mkdir -p "$k" "$out" || exit 1
# (python3's tarfile where the image has no xz)
tar -xJf "$pack" -C "$k" 2>/dev/null ||
  python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$pack" "$k" || exit 1
export LD_LIBRARY_PATH=$k/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The driver's libcuda.so.1 where the loader's cache does not list it (a
# container whose driver folder is mounted from the host).
if ! ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
  for d in /usr/local/nvidia/lib64 /usr/local/nvidia/lib /usr/lib/x86_64-linux-gnu /usr/local/cuda/compat; do
    [ -e "$d/libcuda.so.1" ] && { export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$d; echo "libcuda.so.1 from $d"; break; }
  done
fi
start=$SECONDS
export KILN_LIBDEVICE=$k/lib/libdevice.10.bc
kiln=$k/kiln
nvidia-smi -L
"$kiln" --version 2>&1 | head -1
echo "== smoke"
KILN_ARCH=cuda "$kiln" run --host=builtin "$root/examples/hello.py" 2>&1 | tail -5
echo "== tests/lang on cuda"
cd "$root/tests/lang"
# Not here: what the built-in host lacks (tests/lang/builtin_lacks.txt, which
# CMake's lang/*/builtin tests leave out too), the CPU's refusal of ti.simt
# (err_simt_cpu), the statistics counters (cuda adds cuda_tasks_device/host:
# sparse_statistics), f32 reductions whose sum depends on how iterations are
# split among threads (tls_reduce_float_order; as on Vulkan), what the GPU's
# arithmetic gives otherwise by design: libdevice's transcendentals, 1-3 ulp
# from the C library's for some arguments (jit_libm_calls; README's CUDA
# section), and NaN payloads (lanes_ordered_sums prints NaN bits: an x86 float
# op returns its operand's NaN, a GPU's the canonical 0x7fffffff).
{ grep -E '^[A-Za-z0-9_]+$' builtin_lacks.txt; printf '%s\n' err_simt_cpu sparse_statistics tls_reduce_float_order jit_libm_calls lanes_ordered_sums; } |
  sed 's/$/.py/' >"$out/left_out.txt"
ls *.py | grep -v -x -F -f "$out/left_out.txt" >"$out/progs.txt"
# PROGS="a.py b.py": those programs alone (a quick check of a fix).
[ -n "${PROGS:-}" ] && printf '%s\n' $PROGS >"$out/progs.txt"
jobs=$(nproc)
xargs -P "$jobs" -I{} sh -c '"$0" "$1" cuda {} builtin >"$2/{}.log" 2>&1 && echo "PASS {}" || echo "FAIL {}"' \
  "$root/tests/lang/run_one.sh" "$kiln" "$out" <"$out/progs.txt" | sort >"$out/results.txt"
pass=$(grep -c '^PASS' "$out/results.txt"); fail=$(grep -c '^FAIL' "$out/results.txt")
echo "tests/lang on cuda: $pass passed, $fail failed of $(wc -l <"$out/progs.txt") ($((SECONDS - start)) s)"
for f in $(sed -n 's/^FAIL //p' "$out/results.txt"); do cat "$out/$f.log"; done >"$out/failures.txt"
rm -f "$out"/*.py.log
head -c 20000 "$out/failures.txt"
# ti.simt (block-shared arrays, barriers, subgroup and warp operations): the
# Vulkan backend's programs with KILN_ARCH=cuda, CUDA's own warp program and
# its errors (block_dim past 1024, a task left to the host), each against its
# .expected.
echo "== ti.simt programs on cuda"
for f in vulkan/shared_array.py vulkan/shared_array_tail.py vulkan/subgroup.py vulkan/err_shared_bounds.py cuda/simt_warp.py \
  cuda/err_simt_block_dim.py cuda/err_simt_host.py; do
  (cd "$root/tests/$(dirname $f)" && "$root/tests/lang/run_one.sh" "$kiln" cuda "$(basename $f)" builtin) \
    >"$out/simt_$(basename $f).log" 2>&1 && echo "PASS $f" || { echo "FAIL $f"; head -c 4000 "$out/simt_$(basename $f).log"; }
done
echo "== bench (ms; best of 3)"
cd "$root/bench"
best() { local b=""; for r in 1 2 3; do t=$("$@" 2>/dev/null | sed -n 's/^time_ms //p'); [ -n "$t" ] && { [ -z "$b" ] && b=$t || b=$(awk -v a="$b" -v c="$t" 'BEGIN{print (c<a)?c:a}'); }; done; echo "${b:-fail}"; }
n=$(nproc)
printf "%-12s %10s %10s %10s %8s %8s\n" name cuda llvm cpp_omp cuda/cpp llvm/cpp
for name in ${BENCH:-saxpy mandelbrot reduction nbody jacobi small_launches}; do
  g++ -O3 -march=native -ffp-contract=off -fopenmp -o "/tmp/$name.omp" "$name.cpp" 2>/dev/null
  cu=$(best env KILN_ARCH=cuda "$kiln" run --host=builtin "$name.py" "$n")
  ll=$(best env KILN_ENGINE=llvm "$kiln" run --host=builtin "$name.py" "$n")
  cp=$(OMP_NUM_THREADS=$n best "/tmp/$name.omp")
  printf "%-12s %10s %10s %10s %8s %8s\n" "$name" "$cu" "$ll" "$cp" \
    "$(awk -v a="$cu" -v b="$cp" 'BEGIN{if (b>0) printf "%.2f", a/b}')" "$(awk -v a="$ll" -v b="$cp" 'BEGIN{if (b>0) printf "%.2f", a/b}')"
  KILN_ARCH=cuda "$kiln" run --host=builtin "$name.py" "$n" 2>&1 | grep -i -e checksum -e error | head -3
done
echo "done ($((SECONDS - start)) s)"
