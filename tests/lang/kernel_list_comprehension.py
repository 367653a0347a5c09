import taichi as ti

ti.init(arch=ti.cpu, random_seed=7)
dim = 4
x = ti.Vector.field(dim, ti.f32, shape=3)
w = ti.field(ti.i32, shape=())


@ti.kernel
def fill():
    for i in x:
        # unrolled at compile time: one element per k, computed at run time
        x[i] = ti.Vector([i * 10 + k for k in range(dim)])
    # nested generators and a compile-time filter
    pairs = ti.Vector([a * 10 + b for a in range(3) for b in range(3) if a != b])
    w[None] = pairs.sum()


@ti.kernel
def draws() -> ti.i32:
    v = ti.Vector([ti.random() for _ in range(dim)])
    ok = 1
    for k in ti.static(range(dim)):
        if v[k] < 0.0 or v[k] >= 1.0:
            ok = 0
    return ok


fill()
print(x[2], w[None], draws())
