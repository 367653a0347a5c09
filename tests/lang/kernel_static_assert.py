import taichi as ti
ti.init(arch=ti.cpu)
N = 16

@ti.kernel
def check() -> ti.i32:
    ti.static_assert(N % 4 == 0, "N must be a multiple of 4")
    return N // 4

print(check())
