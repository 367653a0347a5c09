# Loops that divide or take square roots: on an AVX-512 host the JIT runs
# them 16 iterations at a time in zmm registers (jit/asm_wide.cpp), and
# fast_math's split f32 sums add into their 16 partials (one zmm) in order, so
# every engine prints the same bits. Inner loops of every length 1..80
# (around multiples of 16 and 32) and 1003: n-body sums over separate x/y/z
# fields and over a vec3 field, and a store loop with an i32 sum beside it.
import taichi as ti
ti.init(arch=ti.cpu)

N = 1003
x = ti.field(ti.f32, shape=N)
y = ti.field(ti.f32, shape=N)
z = ti.field(ti.f32, shape=N)
m = ti.field(ti.f32, shape=N)
pos = ti.Vector.field(3, ti.f32, shape=N)
out = ti.field(ti.f32, shape=N)
acc = ti.Vector.field(3, ti.f32, shape=90)


@ti.kernel
def init():
    for i in x:
        x[i] = (i * 37 % 101) * 0.1 - 3.0
        y[i] = (i * 53 % 103) * 0.1
        z[i] = (i * 71 % 107) * 0.1 + 0.5
        m[i] = 0.5 + (i % 7) * 0.25
        pos[i] = ti.math.vec3(x[i], y[i], z[i])


@ti.kernel
def soa(xi: ti.f32, yi: ti.f32, zi: ti.f32):
    ti.loop_config(serialize=True)
    for k in range(1, 90):
        n = k if k < 81 else N
        ax = 0.0
        ay = 0.0
        az = 0.0
        for j in range(n):
            dx = x[j] - xi
            dy = y[j] - yi
            dz = z[j] - zi
            r2 = dx * dx + dy * dy + dz * dz + 0.01
            inv = 1.0 / ti.sqrt(r2)
            s = m[j] * inv * inv * inv
            ax += dx * s
            ay += dy * s
            az -= dz * s
        acc[k] = ti.math.vec3(ax, ay, az)


@ti.kernel
def aos(p: ti.math.vec3):
    ti.loop_config(serialize=True)
    for k in range(1, 90):
        n = k if k < 81 else N
        a = ti.math.vec3(0.0)
        for j in range(n):
            d = pos[j] - p
            inv = 1.0 / ti.sqrt(d.dot(d) + 0.01)
            a += d * (inv * inv * inv)
        acc[k] = a


@ti.kernel
def norms(lo: ti.i32, hi: ti.i32) -> ti.i32:
    c = 0
    ti.loop_config(serialize=True)
    for i in range(lo, hi):
        out[i] = ti.sqrt(x[i] * x[i] + y[i]) / 3.0
        c += i ^ 3
    return c


def show(name):
    a = acc.to_numpy()
    for k in range(1, 90):
        print(name, k, repr(float(a[k][0])), repr(float(a[k][1])), repr(float(a[k][2])))


init()
soa(0.25, 1.5, -0.75)
show("soa")
aos(ti.math.vec3(0.25, 1.5, -0.75))
show("aos")
for lo, hi in [(0, 1), (0, 17), (1, 33), (5, 70), (0, 1003)]:
    out.fill(-7.0)
    c = norms(lo, hi)
    o = out.to_numpy()
    print("norms", lo, hi, c, repr(float(o[lo])), repr(float(o[(lo + hi) // 2])), repr(float(o[hi - 1])),
          repr(float(o[hi])) if hi < N else "")
