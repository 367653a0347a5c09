# Loops that hold more values than 16 vector registers: on an AVX-512 host
# the JIT's 8-lane loop also takes ymm16-23 (jit/vector_regs.cpp) for the
# values whose every instruction has an EVEX form. Taichi's n-body force
# loop (its example's shape: vec2 positions read whole, `force[i] += f`
# under `if i != j`, the sums kept in program order) for 1-67 bodies, and a
# polynomial of twelve kernel arguments over every length 0-40 (the
# loop's masked end). Every engine prints the interpreter's bits.
import taichi as ti

ti.init(arch=ti.cpu)
N = 67
pos = ti.Vector.field(2, ti.f32, N)
force = ti.Vector.field(2, ti.f32, N)


@ti.kernel
def init():
    for i in range(N):
        pos[i] = [(i * 37 % 101) / 101 * 0.8 + 0.1, (i * 53 % 103) / 103 * 0.8 + 0.1]


@ti.kernel
def compute_force(n: ti.i32):
    for i in range(n):
        force[i] = [0.0, 0.0]
    for i in range(n):
        p = pos[i]
        for j in range(n):
            if i != j:
                diff = p - pos[j]
                r = diff.norm(1e-5)
                f = -1.0 * (1.0 / r) ** 3 * diff
                force[i] += f


init()
for n in (1, 2, 3, 9, 16, 17, 40, 67):
    compute_force(n)
    fx = [force[i][0] for i in range(n)]
    fy = [force[i][1] for i in range(n)]
    if n <= 9:
        print(n, fx, fy)
    else:
        print(n, sum(fx), sum(fy), min(fx), max(fy))

x = ti.field(ti.f32, 64)
y = ti.field(ti.f32, 64)


@ti.kernel
def poly(m: ti.i32, a0: ti.f32, a1: ti.f32, a2: ti.f32, a3: ti.f32, a4: ti.f32, a5: ti.f32, a6: ti.f32,
         a7: ti.f32, a8: ti.f32, a9: ti.f32, a10: ti.f32, a11: ti.f32):
    for i in range(m):
        v = x[i]
        u = (v * a0 + a1) * v + a2
        w = (u * a3 - a4) * (v * a5 + a6)
        z = (w * a7 + a8) / (u * u + a9)
        y[i] = ti.min(z * a10 + v, a11) - w


for i in range(64):
    x[i] = (i * 29 % 61) / 7 - 4
args = [0.5 + 0.125 * k * (-1) ** k for k in range(12)]
for m in range(41):
    for i in range(64):
        y[i] = -7.0
    poly(m, *args)
    ys = [y[i] for i in range(64)]
    if m in (0, 1, 7, 8, 9, 17):
        print(m, ys[:m + 2])
    else:
        print(m, sum(ys), ys[m - 1], ys[m])
