# A while loop whose condition becomes false in its first iteration, after
# an inner loop: the second test of `v < 27` must stop it (the JIT once
# compiled the loop with that test folded away; kiln-fuzz seed 3083736).
import taichi as ti

ti.init(arch=ti.cpu)
fa = ti.field(ti.i32, shape=1)
fb = ti.field(ti.f32, shape=1)


@ti.kernel
def k():
    v = 0
    w = 0
    while w < 3 and v < 27:
        w += 1
        u = 0
        while u < 2:
            u += 1
            fa[0] += v + 1
        v = 27


@ti.kernel
def computed_bound(start: ti.i32) -> ti.i32:
    # kiln-fuzz seed 3177413: the inner trip count depends on what the
    # previous iteration left in v
    v = start
    w = 0
    while w < 5:
        w += 1
        v *= v
        for j in range(2, (~v) % 7):
            v = 19
            ti.atomic_add(fb[0], -116.875)
    return v


k()
k()
print(fa[0])
print(computed_bound(-87), fb[0])
