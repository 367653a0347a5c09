import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def show():
    v = ti.Vector([1.0, 2.0, 3.0])
    w = v * 2 + 1
    print(w)
    i = ti.Vector([1, 2])
    print(i * 3, i.sum())
    m = ti.Matrix([[1, 2], [3, 4]])
    print(m)

show()
