# Atomics on 8- and 16-bit elements (bf16 too, computed in f32): SPIR-V's atomics are on 32 and 64 bits,
# so each is a compare-and-swap loop on the 32-bit word holding the element,
# its neighbours' bits unchanged; the old values come back per invocation
# (lavapipe runs the loop in SIMD: each lane keeps the value of its own swap).
import taichi as ti

ti.init(arch=ti.vulkan)
a = ti.field(ti.i8, shape=8)
b = ti.field(ti.u16, shape=5)
c = ti.field(ti.i16, shape=3)
h = ti.field(ti.f16, shape=3)
bh = ti.field(ti.bf16, shape=3)
olds = ti.field(ti.i32, shape=64)
mul_olds = ti.field(ti.i32, shape=12)
m = ti.field(ti.i32, shape=())


@ti.kernel
def f():
    m[None] = 1
    for i in range(64):
        olds[i] = ti.atomic_add(a[i % 8], 1)
        b[i % 5] += ti.u16(1000)
        ti.atomic_max(c[1], ti.i16(-i * 100))
        ti.atomic_min(c[2], ti.i16(-i * 100))
        h[i % 3] += ti.f16(0.5)
        bh[i % 3] += ti.bf16(0.25)
    for i in range(12):
        mul_olds[i] = ti.atomic_mul(m[None], 3)


f()
print(a.to_numpy().tolist(), b.to_numpy().tolist(), c.to_numpy().tolist(), h.to_numpy().tolist())
print([bh[i] for i in range(3)])
print(sorted(olds.to_numpy().tolist()) == sorted(list(range(8)) * 8))
print(m[None], sorted(mul_olds.to_numpy().tolist()) == [3**k for k in range(12)])
