import taichi as ti

ti.init(arch=ti.cpu)


@ti.kernel
def f() -> ti.i32:
    v = ti.Vector([1.0, 2.0, 3.0])
    w = v + [1, 1, 1]  # a list beside a vector is a vector
    r = 0
    if all(w == [2.0, 3.0, 4.0]):
        r = 1
    return r


print(f())
