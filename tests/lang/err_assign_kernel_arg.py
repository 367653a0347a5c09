import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run(n: ti.i32) -> ti.i32:
    n = n + 1
    return n

print(run(3))
