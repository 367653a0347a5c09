import taichi as ti
ti.init(arch=ti.cpu, default_fp=ti.f64)
nb = 3
rot = ti.Matrix.field(3, 3, ti.f64, shape=nb)
x = ti.Vector.field(3, ti.f64, shape=(nb, 2))


@ti.kernel
def setup():
    for b in rot:
        c = ti.cos(b * 0.5)
        s = ti.sin(b * 0.5)
        rot[b] = ti.Matrix([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    for b, k in x:
        x[b, k] = ti.Vector([1.0 + k, 0.0, b * 1.0])


@ti.kernel
def apply():
    for b, k in x:
        x[b, k] = rot[b] @ x[b, k]


@ti.kernel
def check() -> ti.f64:
    err = 0.0
    for b in rot:
        r = rot[b]
        err += (r.transpose() @ r - ti.Matrix.identity(ti.f64, 3)).norm() + ti.abs(r.determinant() - 1.0)
    return err


setup()
apply()
for b in range(nb):
    p = x[b, 1]
    print(f"body {b}: ({p[0]:.4f}, {p[1]:.4f}, {p[2]:.4f}) |p|={p.norm():.4f}")
print("orthonormal:", check() < 1e-12)
