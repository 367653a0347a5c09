# Parallel reductions: each chunk of a parallel loop keeps a thread-local
# accumulator and folds it into the result once (see the `tls prologue` and
# `tls epilogue` of each task in `kiln dis examples/reductions.py stats`).
import taichi as ti
ti.init(arch=ti.cpu)
n = 1 << 20
height = ti.field(ti.f32, shape=n)
lowest = ti.field(ti.f32, shape=())

@ti.kernel
def terrain():
    for i in height:
        t = i / n
        height[i] = ti.sin(t * 40.0) * 30.0 + ti.cos(t * 7.0) * 100.0

@ti.kernel
def stats() -> ti.types.vector(3, ti.f32):
    total = 0.0
    highest = -1e30
    below_sea = 0.0
    for i in height:
        total += height[i]
        ti.atomic_max(highest, height[i])
        ti.atomic_min(lowest[None], height[i])
        if height[i] < 0:
            below_sea += 1.0
    return ti.Vector([total / n, highest, below_sea / n])

terrain()
lowest[None] = 1e30
mean, top, wet = stats()
print(f"mean height {mean:.2f}, highest {top:.2f}, lowest {lowest[None]:.2f}, {wet * 100:.1f}% under water")
