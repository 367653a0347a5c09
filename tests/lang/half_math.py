# f16 and bf16 values in kernels, as Taichi has them (real Taichi accepts all
# of this on the CPU): arithmetic computes in f32 and rounds to the 16-bit
# format, conversions round once (from f64 and from 64-bit ints too), atomics
# on 16-bit fields, math functions, kernel arguments and returns, ndarrays,
# bit casts, and the values where formats differ (subnormals, overflow,
# ties). Every engine prints the interpreter's bits.
import numpy as np
import taichi as ti

ti.init(arch=ti.cpu)

N = 16
h = ti.field(ti.f16, shape=N)
b = ti.field(ti.bf16, shape=N)
acc_h = ti.field(ti.f16, shape=4)
acc_b = ti.field(ti.bf16, shape=4)
bits = ti.field(ti.u16, shape=(2, N))


@ti.kernel
def fill(scale: ti.f64, big: ti.i64, eps: ti.f64):
    for i in range(N):
        d = (i - 5) * scale
        h[i] = ti.cast(d, ti.f16)
        b[i] = ti.cast(d, ti.bf16)
    # ties and sticky bits from 64-bit integers (2^60 + 2^52 + 1 rounds up in bf16)
    b[14] = ti.cast(big, ti.bf16)
    h[14] = ti.cast(big, ti.f16)  # beyond 65504: inf
    # f64 values just above a tie (eps = 2^-40, lost in f32): rounding
    # through f32 first would round twice, down to the even 1.0
    b[15] = ti.cast(1.0 + 2.0 ** -8 + eps, ti.bf16)
    h[15] = ti.cast(1.0 + 2.0 ** -11 + eps, ti.f16)


@ti.kernel
def arith():
    for i in range(N):
        x = h[i]
        y = b[i]
        h[i] = x * x + x / 3.0
        b[i] = y * y - y / 7.0 + ti.sqrt(ti.abs(y))
        bits[0, i] = ti.bit_cast(h[i], ti.u16)
        bits[1, i] = ti.bit_cast(b[i], ti.u16)


@ti.kernel
def atomics():
    for i in range(N):
        acc_h[0] += ti.cast(0.1, ti.f16)
        acc_b[0] += ti.cast(0.1, ti.bf16)
        ti.atomic_max(acc_h[1], h[i])
        ti.atomic_min(acc_b[1], b[i])
        acc_h[2] -= ti.cast(0.25, ti.f16)
        acc_b[2] -= ti.cast(0.25, ti.bf16)


@ti.kernel
def funcs(v: ti.f16) -> ti.f16:
    return ti.sin(v) + ti.exp(v * 0.5) + ti.cast(ti.cast(v * 1000.0, ti.i32), ti.f16)


@ti.kernel
def through(a: ti.types.ndarray(dtype=ti.f16, ndim=1), w: ti.bf16) -> ti.bf16:
    s = ti.bf16(0.0)
    for i in range(a.shape[0]):
        a[i] = a[i] * 2.0 + 1.0
        s += ti.cast(a[i], ti.bf16) * w
    return s


@ti.kernel
def special() -> ti.f32:
    tiny = ti.cast(1e-7, ti.f16)  # an f16 subnormal
    huge = ti.cast(70000.0, ti.f16)  # inf
    nb = ti.cast(3.0e38, ti.bf16) * ti.cast(2.0, ti.bf16)  # bf16 overflows to inf too
    return ti.cast(tiny, ti.f32) * 1e7 + ti.cast(ti.cast(huge, ti.f32) > 1e30, ti.f32) + \
        ti.cast(ti.cast(nb, ti.f32) > 1e38, ti.f32)


fill(0.37, 2 ** 60 + 2 ** 52 + 1, 2.0 ** -40)
print("f16", [float(h[i]) for i in range(N)])
print("bf16", [float(b[i]) for i in range(N)])
arith()
print("bits f16", [int(bits[0, i]) for i in range(N)])
print("bits bf16", [int(bits[1, i]) for i in range(N)])
acc_h[1] = -1000.0
acc_b[1] = 1000.0
atomics()
print("atomics", [float(acc_h[k]) for k in range(3)], [float(acc_b[k]) for k in range(3)])
print("funcs", funcs(0.3), funcs(-1.7))
a = ti.ndarray(ti.f16, shape=5)
a.from_numpy(np.array([0.1, 0.2, 0.3, 1000.5, -3.0], dtype=np.float16))
print("ndarray", through(a, 0.5), a.to_numpy().tolist())
print("special", special())
