# ndrange loops the JIT runs eight columns at a time, one row after another
# (the linear index split as i = I // M, j = I % M): row lengths that are not
# multiples of 8, offsets, the indices themselves as values, a transposed
# read (stays scalar), and an i32 sum over a 2-D range.
import taichi as ti
ti.init(arch=ti.cpu)
R, C = 37, 61
a = ti.field(ti.f32, shape=(R, C))
b = ti.field(ti.f32, shape=(R, C))
t = ti.field(ti.f32, shape=(C, R))
n = ti.field(ti.i32, shape=(R, C))

@ti.kernel
def init():
    for i, j in a:
        a[i, j] = ti.cast(i * 100 + j, ti.f32) * 0.5
        n[i, j] = i * 7 - j * 3

@ti.kernel
def stencil():
    for i, j in ti.ndrange((1, R - 1), (1, C - 1)):
        b[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])

@ti.kernel
def indices():
    for i, j in ti.ndrange((2, R), (3, C)):
        b[i, j] = ti.cast(i, ti.f32) * 1000.0 + ti.cast(j, ti.f32)
        n[i, j] = i * 3 + j

@ti.kernel
def indices_from(k: ti.i32):  # a column range known only at run time
    for i, j in ti.ndrange((2, R), (k, C)):
        b[i, j] += ti.cast(j, ti.f32)
        n[i, j] -= j

@ti.kernel
def transpose():
    for i, j in ti.ndrange(C, R):
        t[i, j] = a[j, i] + 1.0

@ti.kernel
def total(lo: ti.i32) -> ti.i32:
    s = 0
    ti.loop_config(serialize=True)
    for i, j in ti.ndrange((lo, R), C):
        s += n[i, j] * 2 + i
    return s

def show(f, name):
    x = f.to_numpy()
    print(name, x[1, 1], x[1, 8], x[2, 0], x[R - 2, C - 2], x[R - 1, C - 1], x.sum())

init()
stencil()
show(b, "stencil")
indices()
indices_from(0)
indices_from(9)
indices_from(60)
show(b, "indices")
show(n, "n")
transpose()
print("t", t[0, 0], t[C - 1, R - 1], t.to_numpy().sum())
for lo in [0, 1, 30, R - 1, R]:
    print("total", lo, total(lo))
