import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def tenth() -> ti.f64:
    return 0.1

print(tenth())
