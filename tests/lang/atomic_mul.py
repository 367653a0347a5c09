# ti.atomic_mul on field elements, vector-field components and a local
# reduced over a parallel loop: it returns the old value, and racing
# multiplications all land (a compare-and-swap loop on every engine).
import taichi as ti
ti.init(arch=ti.cpu)
c = ti.field(ti.i32, shape=())
olds = ti.field(ti.i32, shape=16)
v = ti.Vector.field(2, ti.f32, shape=())

@ti.kernel
def run() -> ti.f32:
    c[None] = 1
    v[None] = [1.0, -0.5]
    for i in range(16):
        olds[i] = ti.atomic_mul(c[None], 2)
    for i in range(1, 6):
        ti.atomic_mul(v[None], ti.Vector([i, 2.0]))
    x = 1.0
    for i in range(1, 8):
        ti.atomic_mul(x, ti.f32(i))
    return x

@ti.kernel
def serial_mul(n: ti.i32) -> ti.i32:
    p = 3
    old = ti.atomic_mul(p, n)
    return old * 1000 + p

print(run(), c[None], sum(olds.to_numpy()), v[None][0], v[None][1], serial_mul(5))
