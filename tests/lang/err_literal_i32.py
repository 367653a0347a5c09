import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run() -> ti.i64:
    a = 3000000000
    return a

print(run())
