# Sums over parallel loops: a kernel's local (`s += ...`) and a 0-d field
# (`total[None] += ...`), in f32, f64, i32, i64 and u32. The values are chosen
# so that every float sum is exact in any order: the result does not depend
# on how the loop is split among threads.
import taichi as ti
ti.init(arch=ti.cpu)
n = 100000
xf = ti.field(ti.f32, shape=n)
xi = ti.field(ti.i32, shape=n)
total_f = ti.field(ti.f32, shape=())
total_d = ti.field(ti.f64, shape=())
total_u = ti.field(ti.u32, shape=())

@ti.kernel
def fill():
    for i in xf:
        xf[i] = (i % 8) * 0.25
        xi[i] = i % 13 - 6

@ti.kernel
def sum_f() -> ti.f32:
    s = 0.0
    for i in xf:
        s += xf[i]
    return s

@ti.kernel
def sum_i() -> ti.i32:
    s = 0
    for i in xi:
        s += xi[i]
    return s

@ti.kernel
def sum_i64() -> ti.i64:
    s = ti.i64(0)
    for i in range(n):
        s += ti.i64(i) * 100000
    return s

@ti.kernel
def sub_i() -> ti.i32:
    s = 1000
    for i in xi:
        s -= xi[i] * xi[i]
    return s

@ti.kernel
def into_fields():
    for i in xf:
        total_f[None] += xf[i]
        total_d[None] -= xf[i] * 2
        total_u[None] += ti.u32(i)

fill()
print(sum_f(), sum_i(), sum_i64(), sub_i())
total_f[None] = 1.5
total_d[None] = 0.5
total_u[None] = 7
into_fields()
print(total_f[None], total_d[None], total_u[None])
into_fields()
print(total_f[None], total_d[None], total_u[None])
