# Float constants in a scalar loop: the JIT keeps them in xmm registers the
# allocator left free, loaded before the loop's head (jit/asm_kregs.cpp), and
# the loop's operations read those registers. Covered: constants as either
# operand of + - * /, fma's factors and addend, neg and abs (their sign
# masks), a select's compare and a guard's compare against a constant, more
# constants than free registers (the rest read the pool), and a call in the
# loop (ti.sin: the registers are loaded again after it). Loops that stay
# scalar: a struct-for over bitmasked cells (word rows) and a while loop.
import taichi as ti
ti.init(arch=ti.cpu)

N = 4096
B = 256
p = ti.field(ti.f32)
v = ti.field(ti.f32)
ti.root.dense(ti.i, N // B).bitmasked(ti.i, B).place(p, v)
w = ti.field(ti.f64, shape=64)


@ti.kernel
def spawn():
    for k in range(N):
        if (k * 13 + k // B) % 10 < 6:
            p[k] = (k % 1000) * 0.001 - 0.25
            v[k] = ((k % 37) - 18) * 0.01


@ti.kernel
def bounce():  # five constants, as bench/sparse_particles
    for i in p:
        s = v[i] - 0.098
        q = p[i] + s * 0.01
        if q < 0:
            q = -q
            s = -s
        p[i] = q
        v[i] = s


@ti.kernel
def many():  # eighteen constants, one call
    for i in p:
        a = p[i]
        b = v[i]
        c = 1.5 - a * 0.75 + b / 3.0
        d = 2.0 / (abs(b) + 0.125) - 0.5 * a
        e = ti.sin(a * 0.3) * 1.25 + 0.0625
        f = ti.select(a > 0.2, c * 0.9, d * 1.1)
        g = ti.select(b < -0.05, -e, e + 0.015625)
        h = (f + g) * 0.001953125 - 7.0 * 0.0009765625
        p[i] = ti.min(ti.max(a + h, -2.5), 2.5)
        v[i] = b * 0.99 + abs(h) * 0.05


@ti.kernel
def roots():  # a while loop guarded by a compare against a constant
    for j in range(64):
        a = 0.5 + j * 1.75
        x = a
        n = 0
        while abs(x * x - a) > 1e-9 * a and n < 100:
            x = 0.5 * (x + a / x)
            n += 1
        w[j] = x - 3.0 * 0.25


@ti.kernel
def total() -> ti.f64:
    s = ti.f64(0.0)
    for i in p:
        s += ti.cast(p[i], ti.f64) * 3.0 + ti.cast(v[i], ti.f64)
    return s


spawn()
for r in range(40):
    bounce()
print("bounce %.6f" % total())
for r in range(20):
    many()
print("many %.6f" % total())
roots()
print("roots %.9f %.9f %.9f" % (w[0], w[17], w[63]))
