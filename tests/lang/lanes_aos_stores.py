# Vector fields updated in place (jit/vector.h: interleaved stores): the
# JIT's lanes store whole vec2/vec3/vec4 elements (and structs of two f32)
# as contiguous vectors (16 where the loop divides); elements past the last
# full chunk (n = 1003), a group with a component not stored, stores
# shifted by an element, and an exit between two components' stores keep
# the scalar loop's results.
import taichi as ti
ti.init(arch=ti.cpu)
n = 1003


def checksum(f, m):
    s = 0.0
    for i in range(n):
        for c in range(m):
            s += float(f[i][c]) * (1 + (i * m + c) % 7)
    return s


def show(name, f, m):
    print(name, repr(checksum(f, m)), [round(float(f[k][c]), 4) for k in (0, 7, 8, n - 3, n - 1) for c in range(m)])


for m in (2, 3, 4):
    x = ti.Vector.field(m, ti.f32, n)
    v = ti.Vector.field(m, ti.f32, n)

    @ti.kernel
    def init():
        for i in x:
            for c in ti.static(range(m)):
                x[i][c] = i * 0.37 - c
                v[i][c] = (i % 31) * 1.7 - 20.0 + c

    @ti.kernel
    def step(dt: ti.f32):
        for i in x:
            x[i] += v[i] * dt

    @ti.kernel
    def step_div(dt: ti.f32):  # a loop that divides: 16 lanes on AVX-512 hosts, a masked end
        for i in x:
            x[i] += v[i] / dt

    @ti.kernel
    def part(dt: ti.f32):  # component 1 is not stored: x[i][1] keeps its value
        for i in x:
            for c in ti.static(range(m)):
                if ti.static(c != 1):
                    x[i][c] += v[i][c] * dt

    @ti.kernel
    def behind():  # x[i - 1] from x[i]: each lane reads before any stores
        ti.loop_config(serialize=True)  # (in parallel, a race between threads)
        for i in range(1, n):
            x[i - 1] = x[i] * 0.5 + v[i]

    @ti.kernel
    def ahead():  # x[i + 1] from x[i]: a running update, scalar
        ti.loop_config(serialize=True)
        for i in range(n - 1):
            x[i + 1] = x[i] * 0.5 + v[i]

    init()
    for k in range(3):
        step(0.1 * (k + 1))
    show(f"vec{m} step", x, m)
    step_div(8.0)
    show(f"vec{m} step_div", x, m)
    part(0.25)
    show(f"vec{m} part", x, m)
    behind()
    show(f"vec{m} behind", x, m)
    ahead()
    show(f"vec{m} ahead", x, m)

# integer components computed from the index
q = ti.Vector.field(3, ti.i32, n)


@ti.kernel
def fill_q():
    for i in q:
        q[i] = ti.Vector([i, 2 * i - 5, (i * i) % 7])


fill_q()
show("ivec3", q, 3)

# a struct of two f32 fields (one element of 8 bytes): both stored, or one
a = ti.field(ti.f32)
b = ti.field(ti.f32)
ti.root.dense(ti.i, n).place(a, b)


@ti.kernel
def init_ab():
    for i in a:
        a[i] = i * 0.5
        b[i] = 3.0 - i * 0.25


@ti.kernel
def swap_ab():
    for i in a:
        a[i], b[i] = b[i] * 2.0, a[i] + 1.0


@ti.kernel
def only_a(dt: ti.f32):
    for i in a:
        a[i] += b[i] * dt


init_ab()
swap_ab()
only_a(0.5)
print("ab", repr(sum(float(a[i]) * (1 + i % 5) + float(b[i]) for i in range(n))), float(a[n - 1]), float(b[n - 1]))

# an exit between two components' stores: a continue after the first
w = ti.Vector.field(2, ti.f32, n)


@ti.kernel
def init_w():
    for i in w:
        w[i] = ti.Vector([i * 0.1, -1.0])


@ti.kernel
def cut():
    for i in w:
        w[i][0] = w[i][0] * 2.0
        if w[i][0] > 150.0:
            continue
        w[i][1] = w[i][0] + 1.0


init_w()
cut()
show("cut", w, 2)
