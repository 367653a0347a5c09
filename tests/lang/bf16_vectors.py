# bf16 vectors: a vector field of bf16, a bf16 kernel argument and return.
import taichi as ti
ti.init(arch=ti.cpu)

v = ti.Vector.field(3, ti.bf16, shape=2)

@ti.kernel
def scale(k: ti.bf16) -> ti.bf16:
    for i in v:
        v[i] = ti.Vector([1.0, 2.0, 3.0]) * (i + 1) * k
    return v[1].sum()

print(scale(0.1))
print(v[0], v[1])
print(v[1].norm())
