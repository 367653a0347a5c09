import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run(n) -> ti.i32:
    return n

print(run(3))
