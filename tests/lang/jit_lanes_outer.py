# nbody's shape: an outer range-for whose body runs an inner loop of 16-lane
# f32 sums (fast_math splits each into 16 partials; 48 for a vec3) and then
# folds them. On an AVX-512 host the JIT moves the partials that live in the
# allocator's stack slots between those slots and the sums' zmm registers as
# masked 8-qword moves, and the rest through the frame's temporaries
# (jit/asm_vector.cpp); at each link back to the inner loop, the stitched side
# trace resets the partials to -0.0 (one load of the constant for all 48:
# Gen::flush). Outer counts 1, odd and even; inner lengths around 16 and 32;
# f32 and f64 sums; a break in the inner loop. Every engine prints the same
# bits.
import taichi as ti
ti.init(arch=ti.cpu)

N = 83
pos = ti.Vector.field(3, ti.f32, shape=N)
pos64 = ti.Vector.field(3, ti.f64, shape=N)
acc = ti.Vector.field(3, ti.f32, shape=N)
acc64 = ti.Vector.field(3, ti.f64, shape=N)
cut = ti.field(ti.f32, shape=N)


@ti.kernel
def init():
    for i in pos:
        pos[i] = ti.math.vec3((i * 37 % 101) * 0.1, (i * 53 % 103) * 0.1, (i * 71 % 107) * 0.1)
        pos64[i] = ti.Vector([(i * 37 % 101) * 0.1, (i * 53 % 103) * 0.1, (i * 71 % 107) * 0.1], dt=ti.f64)


@ti.kernel
def step(pos: ti.template(), acc: ti.template(), ni: ti.i32, nj: ti.i32):
    for i in range(ni):
        p = pos[i]
        a = p * 0.0
        for j in range(nj):
            d = pos[j] - p
            inv = 1.0 / ti.sqrt(d.dot(d) + 0.01)
            a += d * (inv * inv * inv)
        acc[i] = a


@ti.kernel
def step_break(ni: ti.i32, nj: ti.i32, limit: ti.f32):
    for i in range(ni):
        p = pos[i]
        a = ti.math.vec3(0.0)
        for j in range(nj):
            d = pos[j] - p
            inv = 1.0 / ti.sqrt(d.dot(d) + 0.01)
            a += d * (inv * inv * inv)
            if a.x > limit:
                break
        acc[i] = a


def show(name, f, ni):
    print(name, ni, [[float(f[i][c]) for c in range(3)] for i in range(ni)])


init()
for ni, nj in [(1, 83), (2, 83), (7, 83), (8, 17), (9, 33), (31, 48), (32, 80), (1, 1)]:
    step(pos, acc, ni, nj)
    show("f32", acc, ni)
for ni, nj in [(1, 83), (7, 83), (10, 40)]:
    step(pos64, acc64, ni, nj)
    show("f64", acc64, ni)
for ni, nj, limit in [(1, 83, 5.0), (9, 83, 2.0), (12, 83, 1e9)]:
    step_break(ni, nj, limit)
    show("break", acc, ni)
