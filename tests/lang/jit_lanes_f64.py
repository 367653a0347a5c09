# f64 loops in lanes (the JIT runs four iterations at a time in AVX2
# registers): a saxpy, exact packed ops (+ - * / sqrt abs neg) on
# lengths around multiples of four, a loop-carried recurrence and an f64 sum
# that must stay in order, a 2-D field. Checked bit for bit against numpy.
import numpy as np
import taichi as ti
ti.init(arch=ti.cpu)

N = 1003
x = ti.field(ti.f64, shape=N)
y = ti.field(ti.f64, shape=N)
z = ti.field(ti.f64, shape=N)
g = ti.field(ti.f64, shape=(7, 45))

xn = np.array([(i * 37 % 101) * 0.25 - 7.0 for i in range(N)])
yn = np.array([(i * 11 % 53) * 0.5 + 1.0 for i in range(N)])


@ti.kernel
def saxpy(a: ti.f64):
    for i in x:
        y[i] = a * x[i] + y[i]


@ti.kernel
def ops(lo: ti.i32, hi: ti.i32):
    ti.loop_config(serialize=True)
    for i in range(lo, hi):
        z[i] = ti.sqrt(ti.abs(x[i])) / y[i] - (-x[i - 1]) * 0.5


@ti.kernel
def recurrence(n: ti.i32) -> ti.f64:
    s = ti.f64(0.0)
    ti.loop_config(serialize=True)
    for i in range(1, n):
        z[i] = z[i - 1] * 0.5 + x[i]  # reads the previous iteration's store
        s += z[i] * 0.375  # an f64 sum keeps its order
    return s


@ti.kernel
def grid():
    for i, j in g:
        g[i, j] = ti.cast(i * 45 + j, ti.f64) * 0.125 - 3.0


x.from_numpy(xn)
y.from_numpy(yn)
saxpy(1.5)
yn = 1.5 * xn + yn
print("saxpy", np.array_equal(y.to_numpy(), yn))
ok = True
for lo, hi in [(1, 2), (1, 5), (1, 9), (3, 12), (1, 1003), (500, 517)]:
    z.fill(0.0)
    ops(lo, hi)
    zn = np.zeros(N)
    zn[lo:hi] = np.sqrt(np.abs(xn[lo:hi])) / yn[lo:hi] - (-xn[lo - 1:hi - 1]) * 0.5
    ok = ok and np.array_equal(z.to_numpy(), zn)
print("ops", ok)
z.fill(0.0)
s = recurrence(N)
zn = np.zeros(N)
sn = 0.0
for i in range(1, N):
    zn[i] = zn[i - 1] * 0.5 + xn[i]
    sn += zn[i] * 0.375
print("recurrence", np.array_equal(z.to_numpy(), zn), s == sn, s)
grid()
print("grid", np.array_equal(g.to_numpy(), (np.arange(7 * 45).reshape(7, 45)) * 0.125 - 3.0))
