# StreamPrefetchPass (jit/llvm/prefetch.h): ctest's llvm/stream_prefetch reads
# this program's optimized modules (KILN_LLVM_DUMP=1). The sum streams through
# memory (a few instructions per 64-byte line): its loop prefetches ahead (not
# on AMD Zen hosts, where the pass does not run: stream_prefetch.sh). The
# polynomial does ~20 operations per element: busy with its own work, it does
# not. The printed values are checked as well.
import taichi as ti

ti.init(offline_cache=False)
N = 1 << 14
x = ti.field(ti.i32, shape=N)
y = ti.field(ti.f32, shape=N)


@ti.kernel
def fill():
    for i in x:
        x[i] = i % 11
        y[i] = (i % 5) * 0.25


@ti.kernel
def stream_sum() -> ti.i32:
    s = 0
    for i in x:
        s += x[i]
    return s


@ti.kernel
def busy_poly():
    for i in y:
        v = y[i]
        y[i] = ((((((((v * v + 1.0) * v + 2.0) * v + 3.0) * v + 4.0) * v + 5.0) * v + 6.0) * v + 7.0) * v + 8.0) * v


fill()
print(stream_sum())
busy_poly()
print(y[3], y[4])
