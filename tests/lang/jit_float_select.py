# Float selects in hot loops (short if blocks that only pick between float
# values: the JIT blends them under a mask made by the float compare, or by
# an integer condition): compares <, <=, ==, != with NaN, infinities and
# signed zeros, f32 and f64 values, an f64 compare choosing f32 values, and
# a select whose compare an exit also needs. Every engine prints the same.
import math
import taichi as ti
ti.init(arch=ti.cpu)

N = 96
p = ti.field(ti.f32)
v = ti.field(ti.f32)
ti.root.dense(ti.i, N).place(p, v)  # interleaved: the loops stay scalar
d = ti.field(ti.f64, shape=N)
out = ti.field(ti.f64, shape=(N, 6))

specials = [math.nan, math.inf, -math.inf, 0.0, -0.0, 1.5, -1.5, 1e-40, -1e-40, 3.0]

@ti.kernel
def fill():
    for i in range(N):
        p[i] = ti.cast(i % 7, ti.f32) * 0.25 - 0.8
        v[i] = ti.cast(i % 5, ti.f32) * 0.5 - 1.0
        d[i] = ti.cast(i % 11, ti.f64) * 0.3 - 1.2

@ti.kernel
def bounce():
    ti.loop_config(serialize=True)
    for i in range(N):
        vi = v[i] - 0.098
        pi = p[i] + vi * 0.01
        if pi < 0:
            pi = -pi
            vi = -vi
        p[i] = pi
        v[i] = vi

@ti.kernel
def compares():
    ti.loop_config(serialize=True)
    for i in range(N):
        a = p[i]
        b = v[i]
        x = a
        if a <= b:
            x = b
        y = b
        if a == b:
            y = a * 2.0
        z = a
        if a != b:
            z = b + 1.0
        w = d[i]
        if d[i] < 0.5:  # an f64 compare choosing f64 values
            w = -d[i]
        u = a
        if d[i] > 0.0:  # an f64 compare choosing f32 values
            u = b
        k = a
        if i % 3 == 1:  # an integer condition choosing floats
            k = b * 3.0
        out[i, 0] = x
        out[i, 1] = y
        out[i, 2] = z
        out[i, 3] = w
        out[i, 4] = u
        out[i, 5] = k

@ti.kernel
def exits() -> ti.f64:
    # The select's compare also decides a branch that leaves the loop
    # body's usual path (a guard whose exit needs the compare).
    s = ti.f64(0.0)
    ti.loop_config(serialize=True)
    for i in range(N):
        a = p[i]
        c = a < 0.1
        m = a
        if c:
            m = 0.1
        if i > 80 and c:
            s += 1000.0
        if m == m and ti.abs(m) < 1e30:  # finite ones only
            s += ti.cast(m, ti.f64)
    return s

def show(tag):
    rows = [tuple(out[i, k] for k in range(6)) for i in range(N)]
    print(tag, [round(x, 6) if x == x else "nan" for r in rows[:12] for x in r])
    print(tag, "finite sums", [round(sum(r[k] for r in rows if math.isfinite(r[k])), 6) for k in range(6)],
          "nans", [sum(1 for r in rows if r[k] != r[k]) for k in range(6)],
          "negzero", [sum(1 for r in rows if r[k] == 0 and math.copysign(1, r[k]) < 0) for k in range(6)])

fill()
for _ in range(40):
    bounce()
print("bounce", round(sum(p[i] for i in range(N)), 5), round(sum(v[i] for i in range(N)), 5))
compares()
show("plain")
print("exits", round(exits(), 5))
for i, x in enumerate(specials * 9):
    if i < N:
        p[i] = x
        v[i] = specials[(i * 3 + 1) % len(specials)]
        d[i] = specials[(i * 7 + 2) % len(specials)]
compares()
show("special")
for i in range(N):
    p[i] = specials[(i + 1) % len(specials)] if i % 10 else 0.05
print("exits special", exits())
