import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run() -> ti.i32:
    a = 3
    return a[0]

print(run())
