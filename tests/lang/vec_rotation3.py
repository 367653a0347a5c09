import taichi as ti
import math
ti.init(arch=ti.cpu, default_fp=ti.f64)

@ti.func
def rot_z(a):
    c = ti.cos(a)
    s = ti.sin(a)
    return ti.Matrix([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])

@ti.kernel
def run(angle: ti.f64) -> ti.types.vector(3, ti.f64):
    r = rot_z(angle)
    p = ti.Vector([1.0, 0.0, 2.0])
    q = r @ p
    print(f"{q[0]:.6f} {q[1]:.6f} {q[2]:.6f}")
    rr = r @ r.transpose()
    print(f"{rr.determinant():.6f} {(r @ r @ r @ r)[0, 0]:.6f}")
    return q

q = run(math.pi / 2)
print(f"{q[0]:.3f} {q[1]:.3f} {q[2]:.3f}")
