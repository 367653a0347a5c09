import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def run():
    m = ti.Matrix([[2.0, 0.0], [1.0, 4.0]])
    v = ti.Vector([1.0, 1.0])
    print(m @ v)
    print(v @ m)
    print(m.transpose())
    print(m.trace(), m.determinant())
    print(m.inverse())
    print(m @ m.inverse())
    i3 = ti.Matrix.identity(ti.f32, 3)
    print(i3.determinant(), i3.trace())
    print(ti.Vector([1, 2]).outer_product(ti.Vector([3, 4, 5])))

run()
