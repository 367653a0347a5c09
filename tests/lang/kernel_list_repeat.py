import taichi as ti

ti.init(arch=ti.cpu)

v = ti.Vector.field(3, ti.f32, shape=2)


@ti.kernel
def fill():
    v[0] = [0.5] * 3            # Python's list repetition, as Taichi's implicit_fem writes it
    v[1] = 2 * [1.0] + [4.0]    # and concatenation


@ti.kernel
def total() -> ti.f32:
    w = ti.Vector([1.0, 2.0] * 2)
    s = 0.0
    for k in ti.static(range(4)):
        s += w[k]
    return s


fill()
print(v[0], v[1], total())
