# Inner loops whose carried values are float sums kept in program order (a
# field element's sum, which promote_elements keeps in a local; fast_math's
# fma contraction of `s += a * b`) under `if` guards, as in Taichi's n-body
# example. The LLVM tier runs them as blocks of 16 iterations whose terms
# are computed in lanes and folded into the sums in order
# (jit/llvm/lower_ordered.cpp): every engine prints the interpreter's bits.
# Terms of mixed magnitudes (any other order changes the bits), inner
# lengths around the block's width, f32 and f64 sums in one loop (an fma, a
# subtraction, a term first), a local written in the body, a store in the
# body, and accesses at j plus an offset, out of bounds at j = 31 in the
# last call (the blocks do not run; the error is the interpreter's).
import math

import taichi as ti

ti.init(arch=ti.cpu, debug=True)
n = 40
pos = ti.Vector.field(2, ti.f32, n)
force = ti.Vector.field(2, ti.f32, n)
w = ti.field(ti.f64, n)
acc = ti.field(ti.f64, n)
accs = ti.field(ti.f32, n)
accd = ti.field(ti.f64, n)
prod = ti.field(ti.f32, (n, n))


@ti.kernel
def forces(m: ti.i32):
    for i in range(n):
        force[i] = [0.0, 0.0]
    for i in range(n):
        p = pos[i]
        for j in range(m):
            if i != j:
                diff = p - pos[j]
                r = diff.norm(1e-5)
                force[i] += -(1.0 / r) ** 3 * diff


@ti.kernel
def mixed(m: ti.i32, off: ti.i32):
    for i in range(n):
        acc[i] = 1e-3
        accs[i] = 0.0
        accd[i] = -0.0
    for i in range(n):
        for j in range(m):
            t = pos[j + off].x * pos[i].y
            if t > 0:
                accs[i] += t * pos[j].y
            else:
                accd[i] -= ti.f64(t)
            acc[i] = w[j] + acc[i]
            prod[i, j] = t


def show(name):
    f = [force[k][c] for k in range(n) for c in range(2)]
    total = 0.0
    for x in f:
        total += x
    print(name, " ".join(f"{x:.9g}" for x in f[:12]), f"{total:.17g}")


def prod_sum():
    total = 0.0
    for a in range(n):
        for b in range(n):
            total += prod[a, b]
    return repr(total)


def sample():
    return " ".join(repr(float(f[k])) for f in (acc, accs, accd) for k in range(0, n, 7))


for i in range(n):
    pos[i] = [math.sin(i * 0.7) * 10.0 ** (i % 5 - 2), math.cos(i * 1.3) * 10.0 ** (i % 3 - 1)]
    w[i] = math.sin(i * 0.37) * 10.0 ** (i % 7 - 3)
for m in [0, 1, 15, 16, 17, 33, 40]:
    forces(m)
    show(f"forces {m}")
    mixed(m, 0)
    print("mixed", m, sample(), prod_sum())
mixed(33, 7)
print("mixed off", sample())
mixed(33, 9)
