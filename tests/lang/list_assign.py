# A list made in a kernel is a list of variables, as in Taichi: `xs[k] = v`
# reassigns element k, also under a run-time `if` or in a loop (Taichi's
# implicit_fem swaps two vertices of a list when a determinant is negative).
import taichi as ti

ti.init(arch=ti.cpu)
x = ti.field(ti.i32, shape=8)
f = ti.Vector.field(2, ti.f32, shape=4)
out = ti.field(ti.i32, shape=(8, 3))


@ti.kernel
def swap_if_odd():
    for i in range(8):
        verts = [x[(i + j) % 8] for j in range(3)]
        if i % 2 == 1:
            tmp = verts[1]
            verts[1] = verts[2]
            verts[2] = tmp
        for j in ti.static(range(3)):
            out[i, j] = verts[j]


@ti.kernel
def mixed(c: ti.i32) -> ti.f32:
    xs = [1.5, c, x[2], 7]      # floats and ints keep their own types
    xs[0] = 2                   # 2.0: the element is an f32 variable
    xs[1] += 1
    xs[-1] = xs[2] * 3          # 7 is an int variable, as in Taichi
    s = 0.0
    ti.loop_config(serialize=True)
    for k in range(3):          # a loop that updates the list's elements
        xs[1] = xs[1] * 2
    for k in ti.static(range(4)):
        s += xs[k]
    return s


@ti.kernel
def vectors() -> ti.f32:
    vs = [f[0], f[1]]
    vs[0] = vs[0] + vs[1]
    vs[1] *= 2.0
    ps = [ti.Vector([0.0, 0.0])] * 2     # a list repeated is a list too
    ps[1] = vs[0]
    return vs[0][0] + vs[1][1] + ps[1][1] + ps[0][0]


@ti.kernel
def from_literal(n: ti.i32) -> ti.i32:
    best = [0, -1]              # [value, index]
    ti.loop_config(serialize=True)
    for i in range(n):
        if x[i] > best[0]:
            best[0] = x[i]
            best[1] = i
    return best[0] * 10 + best[1]


for i in range(8):
    x[i] = i * i % 7
for i in range(4):
    f[i] = [i + 0.5, i * 2.0]
swap_if_odd()
for i in range(4):
    print(i, [x[(i + j) % 8] for j in range(3)], [out[i, j] for j in range(3)])
print(mixed(3))
print(vectors())
print(from_literal(8))
