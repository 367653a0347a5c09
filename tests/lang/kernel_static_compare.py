# Compile-time values in kernels: a ti.template() type compared with `==`
# picks its branch at compile time; `n = ti.static(...)` binds a compile-time
# name (usable in later ti.static expressions); ti.Vector/ti.Matrix take
# their dtype second.
import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def width(dt: ti.template()) -> ti.i32:
    r = 0
    if dt == ti.i32:
        r = 32
    elif dt != ti.f64:
        r = -1
    else:
        r = 64
    return r

@ti.kernel
def unrolled() -> ti.i32:
    v = ti.Vector([5, 6, 7, 8], ti.i16)
    m = ti.Matrix([[1, 2], [3, 4]], ti.f32)
    n = ti.static(v.n - 1)
    s = 0
    for i in ti.static(range(n)):
        s += v[i] * v[i + 1]
    return s + ti.cast(m[1, 0] / 2, ti.i32) + n

print(width(ti.i32), width(ti.f64), width(ti.u8), unrolled())
