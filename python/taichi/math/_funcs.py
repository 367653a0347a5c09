"""taichi.math functions written as ti.funcs: inlined into kernels like any
user ti.func (GLSL-style helpers, transforms, complex numbers as 2-vectors)."""
import math as _m

import taichi as ti


@ti.func
def log2(x):
    return ti.log(x) * (1.0 / _m.log(2.0))


@ti.func
def exp2(x):
    return ti.exp(x * _m.log(2.0))


@ti.func
def degrees(x):
    return x * (180.0 / _m.pi)


@ti.func
def radians(x):
    return x * (_m.pi / 180.0)


@ti.func
def mod(x, y):
    # GLSL's mod: x - y * floor(x / y), the sign of y
    return x - y * ti.floor(x / y)


@ti.func
def refract(x, n, eta):
    c = x.dot(n)
    k = 1.0 - eta * eta * (1.0 - c * c)
    out = x * 0.0
    if k >= 0.0:
        out = eta * x - (eta * c + ti.sqrt(k)) * n
    return out


@ti.func
def isnan(x):
    return x != x


@ti.func
def isinf(x):
    return (x == x) & (x - x != x - x)


@ti.func
def vdir(ang):
    return ti.Vector([ti.cos(ang), ti.sin(ang)])


@ti.func
def rotation2d(ang):
    c, s = ti.cos(ang), ti.sin(ang)
    return ti.Matrix([[c, -s], [s, c]])


@ti.func
def translate(dx, dy, dz):
    return ti.Matrix([[1.0, 0.0, 0.0, dx], [0.0, 1.0, 0.0, dy], [0.0, 0.0, 1.0, dz], [0.0, 0.0, 0.0, 1.0]])


@ti.func
def scale(sx, sy, sz):
    return ti.Matrix([[sx, 0.0, 0.0, 0.0], [0.0, sy, 0.0, 0.0], [0.0, 0.0, sz, 0.0], [0.0, 0.0, 0.0, 1.0]])


@ti.func
def rot_by_axis(axis, ang):
    # Rodrigues' rotation about a unit axis, as a 4x4 homogeneous matrix
    c, s = ti.cos(ang), ti.sin(ang)
    u = axis.normalized()
    x, y, z = u[0], u[1], u[2]
    t = 1.0 - c
    return ti.Matrix([[t * x * x + c, t * x * y - s * z, t * x * z + s * y, 0.0],
                      [t * x * y + s * z, t * y * y + c, t * y * z - s * x, 0.0],
                      [t * x * z - s * y, t * y * z + s * x, t * z * z + c, 0.0],
                      [0.0, 0.0, 0.0, 1.0]])


@ti.func
def rotation3d(ang_x, ang_y, ang_z):
    # x, then y, then z (extrinsic), as a 4x4 homogeneous matrix
    rx = rot_by_axis(ti.Vector([1.0, 0.0, 0.0]), ang_x)
    ry = rot_by_axis(ti.Vector([0.0, 1.0, 0.0]), ang_y)
    rz = rot_by_axis(ti.Vector([0.0, 0.0, 1.0]), ang_z)
    return rz @ ry @ rx


@ti.func
def rot_yaw_pitch_roll(yaw, pitch, roll):
    return rotation3d(pitch, yaw, roll)


@ti.func
def eye(n: ti.template()):
    return ti.Matrix.identity(float, n)


@ti.func
def determinant(m):
    return m.determinant()


@ti.func
def inverse(m):
    return m.inverse()


# ---- complex numbers as 2-vectors (re, im)

@ti.func
def cmul(z1, z2):
    return ti.Vector([z1[0] * z2[0] - z1[1] * z2[1], z1[0] * z2[1] + z1[1] * z2[0]])


@ti.func
def cconj(z):
    return ti.Vector([z[0], -z[1]])


@ti.func
def cdiv(z1, z2):
    d = z2[0] * z2[0] + z2[1] * z2[1]
    return ti.Vector([(z1[0] * z2[0] + z1[1] * z2[1]) / d, (z1[1] * z2[0] - z1[0] * z2[1]) / d])


@ti.func
def cinv(z):
    d = z[0] * z[0] + z[1] * z[1]
    return ti.Vector([z[0] / d, -z[1] / d])


@ti.func
def cexp(z):
    r = ti.exp(z[0])
    return ti.Vector([r * ti.cos(z[1]), r * ti.sin(z[1])])


@ti.func
def clog(z):
    return ti.Vector([ti.log(ti.sqrt(z[0] * z[0] + z[1] * z[1])), ti.atan2(z[1], z[0])])


@ti.func
def csqrt(z):
    r = ti.sqrt(ti.sqrt(z[0] * z[0] + z[1] * z[1]))
    a = ti.atan2(z[1], z[0]) * 0.5
    return ti.Vector([r * ti.cos(a), r * ti.sin(a)])


@ti.func
def cpow(z, n):
    # z ** n for a real exponent n, through the polar form
    r = ti.pow(z[0] * z[0] + z[1] * z[1], 0.5 * n)
    a = ti.atan2(z[1], z[0]) * n
    return ti.Vector([r * ti.cos(a), r * ti.sin(a)])
