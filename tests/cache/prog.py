# A program for the offline cache test: kernels with a loop, a reduction, a
# print and a bounds check, on whichever engine KILN_ENGINE names.
import sys

import taichi as ti

kw = {}
if len(sys.argv) > 1 and sys.argv[1] == "off":
    kw["offline_cache"] = False
elif len(sys.argv) > 1:
    kw["offline_cache_file_path"] = sys.argv[1]
ti.init(**kw)
x = ti.field(ti.f32, shape=64)


@ti.kernel
def fill(a: ti.f32):
    for i in x:
        x[i] = ti.sin(i * a)


@ti.kernel
def total() -> ti.f32:
    s = 0.0
    for i in range(64):
        s += x[i]
    return s


@ti.kernel
def show(k: ti.i32):
    print("x[k] =", x[k])


fill(0.25)
print("%.6f" % total())
show(5)
