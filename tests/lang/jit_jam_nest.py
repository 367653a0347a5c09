# Parallel reduction nests that the JIT runs two outer iterations a pass
# (vm/ir/passes/jam_outer.cpp, on AVX-512 hosts; KILN_JAM=1 forces it on any
# engine): `for i: pre; for j: s += f(i, j); post` with constant outer
# bounds. Jamming changes no value: each i's split sums (16 f32 or 8 f64
# partials) add their terms in their own order and combine as before, so
# every engine prints the interpreter's bits. Outer counts odd (the last i
# runs alone) and even, starting at 0 and past it; inner lengths 0, 1, 15-17,
# 33, 100 (the vector loop's masked end, its peeled iteration). The inner
# loops divide or take square roots (the JIT's 16-lane loops). `spread`'s
# terms differ by up to 4^15 by partial, so any other pairing prints other
# bits. `shared` must not jam (a shared accumulator: its adds are exact here,
# so parallel engines print the same). A launch that stops at an IndexError
# in the jammed loop stops at the same one.
import taichi as ti
ti.init(arch=ti.cpu, cpu_max_num_threads=1)

N = 101
pos = ti.Vector.field(3, ti.f32, shape=N)
vel = ti.Vector.field(3, ti.f32, shape=N)
x = ti.field(ti.f32, shape=N)
y = ti.field(ti.f64, shape=N)
z = ti.field(ti.f32, shape=N)
out = ti.field(ti.f32, shape=(N, 3))
out64 = ti.field(ti.f64, shape=N)
total = ti.field(ti.f32, shape=())


@ti.kernel
def init():
    for i in pos:
        pos[i] = ti.math.vec3((i * 37 % 101) * 0.1, (i * 53 % 103) * 0.1, (i * 71 % 107) * 0.1)
        vel[i] = ti.math.vec3(0.0)
        x[i] = (i * 37 % 101) * 0.1 - 7.3
        y[i] = (i * 53 % 103) * 0.01 - 0.3
        z[i] = x[i] * ti.cast(1 << (i % 16) * 2, ti.f32) + ti.cast(i % 5, ti.f32) * 0.37


@ti.kernel
def gravity(n: ti.template(), m: ti.i32, dt: ti.f32):
    for i in range(n):
        p = pos[i]
        a = ti.math.vec3(0.0)
        for j in range(m):
            d = pos[j] - p
            r2 = d.dot(d) + 0.01
            inv = 1.0 / ti.sqrt(r2)
            a += d * (inv * inv * inv)
        vel[i] += a * dt


@ti.kernel
def mixed(lo: ti.template(), hi: ti.template(), m: ti.i32):
    for i in range(lo, hi):
        p = x[i]
        q = p * 0.5 + 1.0
        a = ti.f32(0.0)
        b = ti.f32(0.0)
        k = 0
        for j in range(m):
            v = x[j]
            w = (v - p) / (q * q + 1.0)
            a += w
            b -= w * v
            k += j % 3
        out[i, 0] = a
        out[i, 1] = b + ti.cast(k, ti.f32)
        out64[i] = y[i] * ti.cast(a, ti.f64)


@ti.kernel
def spread(n: ti.template(), m: ti.i32):
    for i in range(n):
        q = x[i]
        a = ti.f32(0.0)
        b = ti.f32(0.0)
        for j in range(m):
            a += z[j] * q
            b += z[j] / (q * q + 1.0)
        out[i, 0] = a
        out[i, 2] = b


@ti.kernel
def shared(n: ti.template(), m: ti.i32):
    for i in range(n):
        a = ti.f32(0.0)
        for j in range(m):
            a += ti.cast((i * j) % 7, ti.f32)
        total[None] += a


def bits(vals):
    return [float(v) for v in vals]


init()
for n in [1, 2, 7, 16, 37]:
    for m in [0, 1, 15, 16, 17, 33, 100]:
        gravity(n, m, 0.001)
    v = vel.to_numpy()
    print("gravity", n, [bits(v[i]) for i in range(n)])
for lo, hi in [(0, 2), (0, 9), (3, 40), (5, 101)]:
    for m in [1, 16, 17, 100]:
        mixed(lo, hi, m)
        print("mixed", lo, hi, m, [[float(out[i, 0]), float(out[i, 1]), float(out64[i])] for i in range(lo, hi)])
for n in [3, 16, 33, 97]:
    for m in [15, 48, 97]:
        spread(n, m)
        print("spread", n, m, [[float(out[i, 0]), float(out[i, 2])] for i in range(n)])
total[None] = 0.0
shared(64, 33)
print("shared", float(total[None]))
# Past the end of pos at j = 101: the same error as the loop for i = 0
# alone meets first (the jammed pass runs copy 0's body first at each j).
gravity(37, 102, 0.001)
