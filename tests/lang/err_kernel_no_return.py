import taichi as ti

ti.init(arch=ti.cpu)


@ti.kernel
def answer() -> ti.i32:
    x = 42


print(answer())
