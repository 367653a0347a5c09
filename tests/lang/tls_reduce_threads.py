# Integer reductions on two threads: every chunk adds its own partial sum, so
# the result is exact whichever thread takes which chunk. The i32 sum wraps.
import taichi as ti
ti.init(arch=ti.cpu, cpu_max_num_threads=2)
n = 1 << 20
a = ti.field(ti.i32, shape=n)
hits = ti.field(ti.i64, shape=())

@ti.kernel
def fill():
    for i in a:
        a[i] = ((i % 4099) * 7919 + 13) % 1000003

@ti.kernel
def sum32() -> ti.i32:
    s = 0
    for i in a:
        s += a[i] * 3
    return s

@ti.kernel
def sum64() -> ti.i64:
    s = ti.i64(0)
    for i in a:
        s += ti.i64(a[i]) * a[i]
    return s

@ti.kernel
def count(m: ti.i32):
    for i in a:
        if a[i] % m == 0:
            hits[None] += 1

fill()
for r in range(3):
    print(sum32(), sum64())
count(7)
count(7)
print(hits[None])
