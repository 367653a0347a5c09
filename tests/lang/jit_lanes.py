# Loops the JIT runs eight iterations at a time (AVX2 vector loops) must print
# what the interpreter prints: sizes that are not multiples of 8, every op
# with a packed form, i32 sums, and loops that must stay scalar (a value
# carried from one iteration to the next, a float sum).
import taichi as ti
ti.init(arch=ti.cpu)
N = 1003
x = ti.field(ti.f32, shape=N)
y = ti.field(ti.f32, shape=N)
z = ti.field(ti.f32, shape=N)
k = ti.field(ti.i32, shape=N)
m = ti.field(ti.i32, shape=N)

@ti.kernel
def init():
    for i in range(N):
        x[i] = ti.cast(i, ti.f32) * 0.25 - 17.0
        k[i] = i * 7 - 300

@ti.kernel
def arith(a: ti.f32, b: ti.f32):
    for i in x:
        y[i] = a * x[i] + b
        z[i] = ti.sqrt(ti.abs(x[i])) / (y[i] + 1000.0) - x[i] * -x[i]

@ti.kernel
def ints(c: ti.i32):
    for i in k:
        m[i] = ((k[i] * c) ^ (k[i] & 255)) | (k[i] - c)

@ti.kernel
def iota(lo: ti.i32, hi: ti.i32):
    for i in range(lo, hi):
        z[i] = ti.cast(i, ti.f32) * 0.5
        m[i] = i

@ti.kernel
def isum(lo: ti.i32, hi: ti.i32) -> ti.i32:
    s = 0
    ti.loop_config(serialize=True)
    for i in range(lo, hi):
        s += k[i] * 3 + m[i]
    return s

@ti.kernel
def fsum() -> ti.f32:
    s = 0.0
    ti.loop_config(serialize=True)
    for i in range(N):
        s += x[i] * 0.1
    return s

@ti.kernel
def prefix():
    ti.loop_config(serialize=True)
    for i in range(1, N):
        y[i] = y[i - 1] + x[i]      # reads what the previous iteration wrote

@ti.kernel
def shift_down():
    ti.loop_config(serialize=True)
    for i in range(N - 3):
        k[i] = k[i + 3] + 1         # reads what later iterations overwrite

def show(f, name):
    a = f.to_numpy()
    print(name, a[0], a[1], a[7], a[8], a[500], a[N - 2], a[N - 1], a.sum())

init()
arith(1.5, -2.0)
show(y, "y")
show(z, "z")
ints(-37)
show(m, "m")
iota(5, 5)
iota(3, 12)
iota(100, 1001)
show(z, "z")
show(m, "m")
for lo, hi in [(0, 0), (0, 1), (0, 8), (0, 9), (3, 20), (0, N)]:
    print("isum", lo, hi, isum(lo, hi))
print("fsum", fsum())
prefix()
show(y, "y")
shift_down()
show(k, "k")
