# More floats live at once than 14 xmm registers hold: a chain of 4x4 matrix
# products, selects and square roots over all 16 entries, and ti.svd of a
# 3x3, in one loop body. On an AVX-512 host the JIT keeps them in xmm2-31
# (EVEX forms; a float select blends under a mask register), elsewhere (or
# KILN_JIT=zmm=0) in xmm2-15 and stack slots; every engine prints the same
# bits, and the `if s < 0` exit, taken by some particles, hands its values
# to the interpreter or a side trace.
import taichi as ti

ti.init(arch=ti.cpu)

N = 96
A = ti.Matrix.field(4, 4, ti.f32, shape=N)
F = ti.Matrix.field(3, 3, ti.f32, shape=N)
out = ti.field(ti.f32, shape=N)
out64 = ti.field(ti.f64, shape=N)
sig_out = ti.Vector.field(3, ti.f32, shape=N)
n_neg = ti.field(ti.i32, shape=())


@ti.kernel
def init():
    for i in A:
        for r in ti.static(range(4)):
            for c in ti.static(range(4)):
                A[i][r, c] = ((i * 7 + r * 13 + c * 29) % 17) * 0.0625 - 0.5 + (0.75 if r == c else 0.0)
        for r in ti.static(range(3)):
            for c in ti.static(range(3)):
                F[i][r, c] = ((i * 11 + r * 5 + c * 3) % 13) * 0.05 + (1.0 if r == c else 0.0)


@ti.kernel
def chain():
    for i in A:
        M = A[i]
        B = M.transpose() * 0.5 + ti.Matrix.identity(ti.f32, 4)
        P = M @ B
        P = P @ M - B * 0.25
        P = (P @ P.transpose()) * 0.125 + M
        s = 0.0
        for r in ti.static(range(4)):
            for c in ti.static(range(4)):
                v = P[r, c]
                s += ti.select(v > M[r, c], v * 1.5, -v) + ti.sqrt(ti.abs(v) + 1.0)
        s -= 30.0
        if s < 0:
            n_neg[None] += 1
            s = -s * 0.5
        U, sig, V = ti.svd(F[i])
        R = U @ V.transpose()
        sig_out[i] = ti.Vector([sig[0, 0], sig[1, 1], sig[2, 2]])
        out[i] = s + sig[0, 0] * 2.0 - sig[2, 2] + R.trace() + ti.cast(i, ti.f32) * 0.001
        out64[i] = ti.cast(s, ti.f64) * 1.0000001 + ti.cast(P[0, 0], ti.f64) + ti.cast(P[3, 3], ti.f64) ** 2


init()
chain()
print(n_neg[None])
for i in [0, 1, 2, 17, 50, 95]:
    print(i, out[i], out64[i], sig_out[i][0], sig_out[i][2])
total = 0.0
for i in range(N):
    total += out[i]
print(total)
