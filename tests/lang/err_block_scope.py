import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run(n: ti.i32) -> ti.i32:
    if n > 0:
        m = n * 2
    return m

print(run(3))
