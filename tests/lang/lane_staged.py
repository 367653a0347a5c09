# Lane blocks reading interleaved fields (a vector field's components, an
# AoS struct's members) at the inner loop's index: the ORC tier reads them
# from de-interleaved copies made once per call of the task
# (jit/llvm/lower_deinterleave.cpp). Same bits on every engine, including
# where the copy must not be taken (the task writes the field it reads).
import taichi as ti

ti.init(arch=ti.cpu)

N = 64
M = 1024
pos = ti.Vector.field(3, ti.f32, shape=M)
acc = ti.Vector.field(3, ti.f32, shape=N)
a = ti.Vector.field(2, ti.f64)
b = ti.field(ti.i32)
ti.root.dense(ti.i, 600).place(a, b)
out = ti.field(ti.f64, shape=40)
q = ti.Vector.field(3, ti.f32, shape=M)


@ti.kernel
def init():
    for i in range(M):
        pos[i] = ti.math.vec3((i * 37 % 101) * 0.1, (i * 53 % 103) * 0.1, (i * 71 % 107) * 0.1)
    for i in range(M):
        q[i] = ti.math.vec3(i * 0.5, 1.0 - i * 0.25, i * i * 0.125)
    for i in range(600):
        a[i] = ti.math.vec2(i * 0.3 + 0.1, 2.0 - i * 0.7)
        b[i] = i * 7 % 13 - 6


@ti.kernel
def forces():
    # Part of the field: elements 3..999 of 1024.
    for i in range(N):
        p = pos[i]
        s = ti.math.vec3(0.0)
        for j in range(3, 1000):
            d = pos[j] - p
            r2 = d.dot(d) + 0.01
            inv = 1.0 / ti.sqrt(r2)
            s += d * (inv * inv * inv)
        acc[i] = s


@ti.kernel
def mixed():
    # An f64 vec2 and an i32 in one struct of the layout.
    for i in range(40):
        s = ti.f64(0.0)
        t = ti.f64(0.0)
        for j in range(600):
            s += a[j].x * b[j] + i
            t += a[j].y * a[i].x
        out[i] = s - t


@ti.kernel
def rewrite():
    # Iteration i writes q[i], which later iterations read: no copy.
    ti.loop_config(serialize=True)
    for i in range(N):
        s = 0.0
        for j in range(M):
            s += q[j].x * 0.5 + q[j].z
        q[i] = ti.math.vec3(s * 0.001, q[i].y, q[i].z)


@ti.kernel
def checksum() -> ti.f64:
    c = ti.f64(0.0)
    ti.loop_config(serialize=True)
    for i in range(N):
        c += ti.f64(acc[i].x) * 1.5 + ti.f64(acc[i].y) * 2.5 + ti.f64(acc[i].z)
    return c


init()
for k in range(2):
    forces()
    mixed()
    rewrite()
print([acc[i][c] for i in (0, 5, 33, 63) for c in range(3)])
print(checksum())
print([out[i] for i in (0, 1, 17, 39)])
print([q[i].x for i in (0, 1, 31, 63)])
