# kernels called from host code: arguments, returns, templates, caching
import taichi as ti
ti.init(arch=ti.cpu)

n = 10
x = ti.field(ti.i32, shape=n)
y = ti.field(ti.f32, shape=n)

@ti.kernel
def fill(base: ti.i32):
    for i in x:
        x[i] = base + i

@ti.kernel
def total(f: ti.template()) -> ti.i32:
    s = 0
    for i in f:
        s += f[i]
    return s

@ti.kernel
def scale(f: ti.template(), k: ti.f32):
    for i in f:
        f[i] = f[i] * k

@ti.kernel
def mean() -> ti.f32:
    s = 0.0
    for i in range(n):
        s += x[i]
    return s / n

fill(5)
print(total(x), mean())
for i in range(n):
    y[i] = x[i]
scale(y, 0.5)
print([y[i] for i in range(4)])
fill(base=-2)
print(x[0], x[9], total(x))

def host_loop(k):
    acc = 0
    for i in range(n):
        acc += x[i] * k
    return acc

print(host_loop(3), 3 * total(x))

@ti.kernel
def clamp_count(lo: ti.i32, hi: ti.i32) -> ti.i32:
    c = 0
    for i in x:
        if lo <= x[i] < hi:
            c += 1
    return c

print([clamp_count(0, k) for k in range(0, 8, 2)])
