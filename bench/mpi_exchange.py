# MPI costs the heat example pays per step, measured on 2 ranks with Kiln
# fields as the buffers (zero-copy halo slices), for docs/distributed.md's model.
#   mpirun -n 2 python3 bench/mpi_exchange.py
# Prints (rank 0): the latency of a small Sendrecv (half a round trip), the
# bandwidth of large Sendrecvs, the latency of a scalar allreduce, and one
# td.exchange_halos of a split field.
import time

import taichi as ti
import taichi.distributed as td

ti.init(arch=ti.cpu, cpu_max_num_threads=1)
comm, other = td.comm, 1 - td.rank()
assert td.size() == 2, "run on 2 ranks: mpirun -n 2 python3 bench/mpi_exchange.py"


def best_of(fn, reps, rounds=5):
    best = float("inf")
    for _ in range(rounds):
        comm.Barrier()
        t = time.perf_counter()
        for _ in range(reps):
            fn()
        best = min(best, (time.perf_counter() - t) / reps)
    return best


small = ti.field(ti.f32, shape=(2, 2))  # one 8-byte row each way
lat = best_of(lambda: comm.Sendrecv(small[0:1], dest=other, recvbuf=small[1:2], source=other), 2000)
big = ti.field(ti.f32, shape=(2, 1 << 20))  # 4 MiB rows
bw_time = best_of(lambda: comm.Sendrecv(big[0:1], dest=other, recvbuf=big[1:2], source=other), 20)
red = best_of(lambda: td.allreduce(1.0, "max"), 2000)
# One step's td.exchange_halos of a split f32 field (2 Sendrecvs of one row each), rows of
# 1024 and 8192 cells (4 and 32 KiB): what examples/distributed/heat.py pays per step.
halo = {}
for cols in (1024, 8192):
    f = td.field(ti.f32, global_shape=(64, cols), halo=1)
    halo[cols] = best_of(lambda: td.exchange_halos(f), 1000)
if td.rank() == 0:
    print(f"sendrecv_latency_us {lat * 1e6:.2f}")
    print(f"sendrecv_bandwidth_GBps {4 * (1 << 20) / bw_time / 1e9:.2f}")
    print(f"allreduce_latency_us {red * 1e6:.2f}")
    for cols, t in halo.items():
        print(f"exchange_halos_us_{cols}_cols {t * 1e6:.2f}")
