# Float sums kept in program order (fast_math=False, or a field element's
# sum, which promote_elements keeps in memory order) run in vector lanes on
# the JIT: the terms in lanes, then added to the scalar sum one lane at a
# time in iteration order, so every rounding is the interpreter's. Sums over
# terms of mixed magnitudes, where any other order changes the bits; -0.0,
# infinities and NaN payloads shown as bits; every length 0-17, 33, 100;
# conditional adds taking either arm; subtractions; f64; fma steps.
import math

import taichi as ti

ti.init(arch=ti.cpu, fast_math=False)
n = 200
x = ti.field(ti.f32, shape=n)
y = ti.field(ti.f64, shape=n)


@ti.kernel
def sums(m: ti.i32, s0: ti.f32) -> ti.f32:
    s = s0
    ti.loop_config(serialize=True)
    for i in range(m):
        s += x[i] * 1.5
    return s


@ti.kernel
def firsts(m: ti.i32, s0: ti.f32) -> ti.f32:
    s = s0
    ti.loop_config(serialize=True)
    for i in range(m):
        s = x[i] + s
    return s


@ti.kernel
def subs(m: ti.i32, d0: ti.f64) -> ti.f64:
    d = d0
    ti.loop_config(serialize=True)
    for i in range(m):
        d -= y[i]
    return d


@ti.kernel
def cond(m: ti.i32, t0: ti.f32) -> ti.f32:
    t = t0
    u = ti.f32(0.0)
    ti.loop_config(serialize=True)
    for i in range(m):
        v = x[i]
        if v > 0.25:
            t += v * v
        if v > 0.5:
            pass
        else:
            u -= v
    return t + u * 3



def show(name, f, *args):
    out = []
    for m in list(range(18)) + [33, 100, 200]:
        out.append(repr(f(m, *args)))
    print(name, " ".join(out))


for i in range(n):
    x[i] = math.sin(i * 0.37) * (10.0 ** ((i % 7) - 3))
    y[i] = math.cos(i * 0.11) * (10.0 ** ((i % 5) - 2))
show("sums", sums, 0.0)
show("sums-0", sums, -0.0)
show("firsts", firsts, 1e-3)
show("subs", subs, 0.25)
show("cond", cond, -0.0)

# zeros and infinities: -0.0 sums stay -0.0; inf - inf is a NaN
for i in range(n):
    x[i] = -0.0
    y[i] = 0.0
show("zeros", sums, -0.0)
show("zeros-sub", subs, -0.0)
for i in range(n):
    x[i] = [1e30, -1e30, math.inf, 1.0][i % 4] if i > 20 else 2.0
show("infs", sums, 0.0)

# A NaN's payload and sign come through the lanes (one NaN: which of two
# meeting NaNs an add returns is the compiler's choice on x86, the ORC tier's
# differs from the interpreter's)
w = ti.field(ti.u32, shape=n)


@ti.kernel
def nan_bits(m: ti.i32) -> ti.u32:
    s = ti.bit_cast(w[0], ti.f32)
    ti.loop_config(serialize=True)
    for i in range(1, m):
        s += ti.bit_cast(w[i], ti.f32)
    return ti.bit_cast(s, ti.u32)


for i in range(n):
    w[i] = [0x3F800000, 0xFFC00002, 0x3F000000, 0x3F800000][i % 4] if i % 5 == 3 or i % 7 == 2 else 0x3F800000
print("nan bits", [hex(nan_bits(m)) for m in (1, 3, 9, 17, 40, 200)])

# A field element's sum in an inner loop (promote_elements keeps it in
# memory order; fast_math's contraction makes its steps fmas)
ti.init(arch=ti.cpu)
a = ti.field(ti.f32, shape=64)
b = ti.field(ti.f32, shape=64)
f = ti.field(ti.f32, shape=64)


@ti.kernel
def nest(m: ti.i32):
    for i in range(64):
        for j in range(m):
            if i != j:
                f[i] += a[j] * b[i]


for i in range(64):
    a[i] = math.sin(i * 0.37) * (10.0 ** ((i % 7) - 3))
    b[i] = math.cos(i * 0.11)
for m in (0, 5, 8, 9, 31, 64):
    f.fill(0.0)
    nest(m)
    print("nest", m, repr(f[0]), repr(f[7]), repr(f[63]))
