# One launch of a kernel whose iterations grow dear along its range (as an
# image's rows inside the set come late): the rate of its first part says
# little is left, its latest slices' rate says much (mid_launch.h
# left_cpu_ns). Prints its result; the launch's CPU time (all threads') on
# stderr, for tier_rising.sh to scale KILN_TIER_MS to this host's speed.
import sys
import time

import taichi as ti

threads = int(sys.argv[1]) if len(sys.argv) > 1 else 1
ti.init(cpu_max_num_threads=threads)
N = 4096
out = ti.field(ti.u32, shape=N)


@ti.kernel
def rising(n: ti.i32):
    for i in range(N):
        q = ti.i64(i) * i // N
        m = ti.i64(n) * (q * q // N) // N  # iteration i's cost grows as i**4
        x = ti.u32(i)
        for t in range(m):
            x = x * ti.u32(1664525) + ti.u32(1013904223)
        out[i] = x


@ti.kernel
def check() -> ti.u32:
    s = ti.u32(0)
    for i in range(N):
        s ^= out[i] * ti.u32(i + 1)
    return s


c = time.process_time()
rising(100000)
print("cpu_ms", int((time.process_time() - c) * 1000), file=sys.stderr)
print("check", check(), out[0], out[N // 2], out[N - 1])
