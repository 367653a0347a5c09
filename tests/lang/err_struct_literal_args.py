import taichi as ti
ti.init(arch=ti.cpu)


@ti.kernel
def k() -> ti.i32:
    s = ti.Struct(1, 2)
    return s.a


print(k())
