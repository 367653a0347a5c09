import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run() -> ti.u8:
    return ti.u8(300)

print(run())
