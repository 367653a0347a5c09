import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def inner():
    pass

@ti.kernel
def outer():
    inner()

outer()
