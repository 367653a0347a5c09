# The sign of zero in float sums over empty (and all -0.0) ranges: a sum
# that starts at -0.0 and adds nothing stays -0.0, on every engine, whether
# the loop is parallel (each chunk's thread-local sum, split into fast_math's
# partials starting at -0.0, then folded into the variable), into a local or
# a field, f32 or f64, a constant empty range too. (On Vulkan a parallel loop's invocations
# that get no iteration still fold their partials: -0.0 leaves the sign.)
import taichi as ti

ti.init(arch=ti.cpu)
a = ti.field(ti.f32, shape=64)
b = ti.field(ti.f64, shape=64)
s = ti.field(ti.f32, shape=())

@ti.kernel
def par(n: ti.i32, z: ti.f32) -> ti.f32:
    t = -z
    for i in range(n):
        t += a[i]
    return t

@ti.kernel
def par_d(n: ti.i32, z: ti.f64) -> ti.f64:
    t = -z
    for i in range(n):
        t += b[i]
    return t

@ti.kernel
def par_sub(n: ti.i32, z: ti.f32) -> ti.f32:
    t = -z
    for i in range(n):
        t -= a[i]
    return t

@ti.kernel
def par_field(n: ti.i32):
    for i in range(n):
        s[None] += a[i]

@ti.kernel
def par_fma(n: ti.i32, z: ti.f32) -> ti.f32:
    t = -z
    for i in range(n):
        t += a[i] * a[i]
    return t

@ti.kernel
def cnst(z: ti.f32) -> ti.f32:
    t = -z
    for i in range(0):
        t += a[i]
    return t

for n in (0, 1, 64):
    s[None] = -0.0
    par_field(n)
    print(n, repr(par(n, 0.0)), repr(par_d(n, 0.0)), repr(par_sub(n, 0.0)), repr(s[None]), repr(par_fma(n, 0.0)), repr(cnst(0.0)))
for i in range(64):
    a[i] = -0.0
    b[i] = -0.0
for n in (0, 1, 64):
    s[None] = -0.0
    par_field(n)
    print(n, repr(par(n, 0.0)), repr(par_d(n, 0.0)), repr(par_sub(n, 0.0)), repr(s[None]), repr(par_fma(n, 0.0)))
