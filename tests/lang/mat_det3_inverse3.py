import taichi as ti
ti.init(arch=ti.cpu, default_fp=ti.f64)

@ti.kernel
def run():
    m = ti.Matrix([[2.0, 0.0, 1.0], [1.0, 3.0, 2.0], [1.0, 1.0, 2.0]])
    print(m.determinant())
    err = (m @ m.inverse() - ti.Matrix.identity(ti.f64, 3)).norm()
    print(err < 1e-12)
    q = ti.Matrix([[1.0, 2.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 4.0]])
    print(q.determinant(), (q @ q.inverse())[3, 3])

run()
