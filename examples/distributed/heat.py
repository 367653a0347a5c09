# 2-D heat diffusion (Jacobi iterations) on K processes under MPI.
#   mpirun -n 4 python3 examples/distributed/heat.py
#   mpirun -n 4 kiln run --host=python examples/distributed/heat.py
# (as root, or with more ranks than cores: mpirun --allow-run-as-root --oversubscribe ...)
#
# The plate's rows are split over the ranks (taichi.distributed); each rank
# steps its own rows with a plain Taichi kernel and swaps one halo row with
# each neighbour per step, straight from the field's memory. The final plate
# is gathered on rank 0, whose checksum is the same on 1, 2 or 4 ranks: every
# cell is computed by the same arithmetic whichever rank owns it. At the end
# the ranks agree on the last step's largest change of a cell (an allreduce).
#
# Options: --rows N (plate rows; default 128), --rows-per-rank R (weak
# scaling: N = R * ranks), --cols M (default 128), --steps S (default 200),
# --threads T (cpu_max_num_threads), --time (print the step loop's time).
import argparse
import hashlib
import time

import numpy as np
import taichi as ti
import taichi.distributed as td

ap = argparse.ArgumentParser()
ap.add_argument("--rows", type=int, default=128)
ap.add_argument("--rows-per-rank", type=int, default=0)
ap.add_argument("--cols", type=int, default=128)
ap.add_argument("--steps", type=int, default=200)
ap.add_argument("--threads", type=int, default=0)
ap.add_argument("--time", action="store_true")
args = ap.parse_args()

ti.init(arch=ti.cpu, **({"cpu_max_num_threads": args.threads} if args.threads else {}))
N = args.rows_per_rank * td.size() if args.rows_per_rank else args.rows
M = args.cols

a = td.field(ti.f32, global_shape=(N, M), halo=1)
b = td.field(ti.f32, global_shape=(N, M), halo=1)
lo, hi = td.index_range(a)  # this rank's rows: constants in the kernels below


@ti.kernel
def init(t: ti.template()):
    # the top edge is held hot, with a warm patch in the middle of it;
    # the other edges are cold
    for i, j in ti.ndrange((lo, hi), M):
        v = 0.0
        if i == 0:
            v = 1.0 + ti.cast(M // 4 <= j < 3 * M // 4, ti.f32)
        t[i, j] = v


@ti.kernel
def step(src: ti.template(), dst: ti.template()):
    # the interior cells of this rank's rows (rows 0 and N - 1 stay fixed)
    for i, j in ti.ndrange((ti.max(lo, 1), ti.min(hi, N - 1)), (1, M - 1)):
        dst[i, j] = 0.25 * (src[i - 1, j] + src[i + 1, j] + src[i, j - 1] + src[i, j + 1])


@ti.kernel
def largest_change(a: ti.template(), b: ti.template()) -> ti.f32:
    change = 0.0
    for i, j in ti.ndrange((lo, hi), M):
        ti.atomic_max(change, ti.abs(a[i, j] - b[i, j]))
    return change


init(a)
init(b)
src, dst = a, b
start = time.perf_counter()
for s in range(args.steps):
    td.exchange_halos(src)
    step(src, dst)
    src, dst = dst, src
elapsed = td.allreduce(time.perf_counter() - start, "max")
change = td.allreduce(largest_change(src, dst), "max")  # over all ranks: max is exact on any number of them

plate = td.gather(src)
if td.rank() == 0:
    print(f"plate {N}x{M}, {args.steps} steps")
    print(f"last step's largest change {change:.9e}")
    print(f"heat {plate.sum(dtype=np.float64):.9f}, centre {plate[N // 2, M // 2]:.9e}")
    print("checksum", hashlib.sha256(plate.tobytes()).hexdigest()[:16])
    if args.time:
        print(f"time {elapsed:.4f} s on {td.size()} rank(s), {td.threads()} thread(s) each")
