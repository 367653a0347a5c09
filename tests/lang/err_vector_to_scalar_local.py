import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run() -> ti.i32:
    a = 1
    a = (1, 2)
    return a

print(run())
