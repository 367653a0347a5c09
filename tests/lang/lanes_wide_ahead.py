# A store 8 to 15 elements ahead of a load of its array in a loop that takes
# square roots: 16 lanes would read elements the lanes below them store
# first (jit/vector.h: VecPlan::lanes8), so the JIT keeps 8; 16 or more
# elements ahead may take 16.
import taichi as ti
ti.init(arch=ti.cpu)
n = 300
x = ti.field(ti.f32, n)


@ti.kernel
def init():
    for i in x:
        x[i] = i % 37 + 2.0


@ti.kernel
def ahead(k: ti.template()):
    ti.loop_config(serialize=True)
    for i in range(n - 20):
        x[i + k] = ti.sqrt(x[i]) + 1.0


for k in (10, 15, 16, 20):
    init()
    ahead(k)
    print(k, repr(sum(float(x[i]) * (i + 1) for i in range(n))))
