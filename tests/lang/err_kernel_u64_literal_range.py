import taichi as ti

ti.init(arch=ti.cpu)


@ti.kernel
def f() -> ti.u64:
    return ti.u64(2 ** 64)


print(f())
