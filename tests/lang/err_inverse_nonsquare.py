import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run():
    m = ti.Matrix([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    print(m.inverse())

run()
