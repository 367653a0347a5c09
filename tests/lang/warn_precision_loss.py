import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run() -> ti.i32:
    a = 1
    a = 3.14
    return a

print(run())
