import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run():
    x = 1
    x = ti.Vector([1, 1])

run()
