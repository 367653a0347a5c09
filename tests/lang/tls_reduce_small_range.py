# A parallel float sum over fewer than 256 iterations is one chunk on the
# CPU whatever the thread count (vm/runtime/chunks.h), so its bits are
# reproducible, and every engine prints them: Vulkan runs such a range in one
# invocation (tls_reduce_float_order does the same with one thread).
import taichi as ti

ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=255)
total = ti.field(ti.f32, shape=())


@ti.kernel
def fill():
    for i in x:
        x[i] = 0.1 + i * 1e-3


@ti.kernel
def add_into(n: ti.i32):
    for i in range(n):  # bounds known at launch only
        total[None] += x[i]


@ti.kernel
def big_first(n: ti.i32) -> ti.f64:
    s = ti.f64(0.0)
    for i in range(n):  # 1e16 + small terms: the f64 sum depends on the order
        s += 1e16 if i == 0 else ti.f64(x[i])
    return s - 1e16


fill()
for n in (100, 255):
    total[None] = 1e8
    add_into(n)
    print(n, total[None], big_first(n))
