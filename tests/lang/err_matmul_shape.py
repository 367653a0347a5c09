import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run():
    m = ti.Matrix([[1.0, 2.0], [3.0, 4.0]])
    v = ti.Vector([1.0, 2.0, 3.0])
    print(m @ v)

run()
