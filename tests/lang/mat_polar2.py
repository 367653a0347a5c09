import taichi as ti
ti.init(arch=ti.cpu, default_fp=ti.f64)
mat2 = ti.types.matrix(2, 2, ti.f64)


@ti.func
def polar2(a: mat2):
    # A = R S with R a rotation and S symmetric (SVD-free, 2x2 only).
    x = a[0, 0] + a[1, 1]
    y = a[1, 0] - a[0, 1]
    scale = 1.0 / ti.sqrt(x * x + y * y)
    c = x * scale
    s = y * scale
    r = ti.Matrix([[c, -s], [s, c]])
    return r, r.transpose() @ a


@ti.kernel
def run(a00: ti.f64, a01: ti.f64, a10: ti.f64, a11: ti.f64):
    a = ti.Matrix([[a00, a01], [a10, a11]])
    r, s = polar2(a)
    print(f"R = [[{r[0, 0]:.6f}, {r[0, 1]:.6f}], [{r[1, 0]:.6f}, {r[1, 1]:.6f}]]")
    print(f"S = [[{s[0, 0]:.6f}, {s[0, 1]:.6f}], [{s[1, 0]:.6f}, {s[1, 1]:.6f}]]")
    print(f"det R = {r.determinant():.6f}, symmetric: {ti.abs(s[0, 1] - s[1, 0]) < 1e-12}")
    print(f"|RS - A| = {(r @ s - a).norm():.6f}")


run(2.0, 1.0, 0.0, 1.0)
run(0.0, -1.0, 1.0, 0.0)
