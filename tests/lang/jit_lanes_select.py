# Comparisons and selects in loops the JIT runs eight iterations at a time:
# f32 compares with NaN (only != holds), i32 compares on negative values,
# compare results used as numbers, and ti.select / conditional expressions.
import taichi as ti
ti.init(arch=ti.cpu)
N = 203
x = ti.field(ti.f32, shape=N)
y = ti.field(ti.f32, shape=N)
k = ti.field(ti.i32, shape=N)
m = ti.field(ti.i32, shape=N)
g = ti.field(ti.f32, shape=(13, 29))

@ti.kernel
def init():
    for i in x:
        x[i] = ti.cast(i % 17, ti.f32) * 0.5 - 3.0
        k[i] = (i * 37) % 23 - 11
    x[5] = ti.math.nan
    x[100] = ti.math.nan

@ti.kernel
def fcmp(t: ti.f32):
    for i in x:
        y[i] = ti.select(x[i] < t, x[i] * 2.0, -x[i])
        m[i] = (x[i] <= t) + (x[i] == t) * 2 + (x[i] != t) * 4 + (x[i] > t) * 8

@ti.kernel
def icmp(c: ti.i32):
    for i in k:
        m[i] = (k[i] < c) + (k[i] <= c) * 2 + (k[i] == c) * 4 + (k[i] != c) * 8 + (k[i] >= c) * 16
        k[i] = k[i] if k[i] > 0 else -k[i] * 3

@ti.kernel
def clamp_grid():
    for i, j in g:
        v = ti.cast(i * 29 + j, ti.f32) * 0.1 - 15.0
        g[i, j] = 1.0 if i == 0 else (v if v > 0.0 else 0.0)

def show(f, name):
    a = f.to_numpy()
    print(name, [a[i] for i in (0, 1, 5, 6, 7, 8, 100, N - 1)], a[~(a != a)].sum() if a.dtype.kind == 'f' else a.sum())

init()
fcmp(0.5)
show(y, "y")
show(m, "m")
icmp(3)
show(m, "m")
show(k, "k")
clamp_grid()
print("g", g[0, 3], g[5, 7], g[12, 28], g.to_numpy().sum())
