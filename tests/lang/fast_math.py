# fast_math (docs/fast_math.md): with fast_math=True (Taichi's default) a float
# product whose only use is a sum becomes one fused multiply-add, rounded
# once, on every engine; fast_math=False keeps the product and the sum.
import taichi as ti

N = 4096


def run(fast):
    ti.init(arch=ti.cpu, fast_math=fast)
    r32 = ti.field(ti.f32, N)
    r64 = ti.field(ti.f64, N)

    @ti.kernel
    def tiny(a: ti.f32) -> ti.f32:
        # `a` is an argument: a constant's products would fold, rounding each
        x = a * a
        y = a * a - 1.0  # fused: 2^-11 + 2^-24; else the rounded product less one, 2^-11
        return y - x + x  # x is also used alone: that product stays

    @ti.kernel
    def compute():
        for i in range(N):
            h = (i * 1103515245 + 12345) & 0x7FFFFFFF
            a = ti.cast(h & 0xFFFF, ti.f32) / 4096.0 - 8.0
            b = ti.cast((h >> 16) & 0x7FFF, ti.f32) / 1024.0 + 0.5
            c = ti.cast((h >> 3) & 0xFFFF, ti.f32) / 128.0
            r32[i] = a * b - c  # fma(a, b, -c)
            da = ti.cast(a, ti.f64) / 3.0
            db = ti.cast(b, ti.f64) / 7.0
            r64[i] = ti.cast(c, ti.f64) / 21.0 - da * db  # fma(-da, db, c / 21)

    @ti.kernel
    def folded() -> ti.i64:
        h = ti.i64(0)
        ti.loop_config(serialize=True)
        for i in range(N):
            h = h * 31 + ti.bit_cast(r32[i], ti.i32) + ti.bit_cast(r64[i], ti.i64)
        return h

    @ti.kernel
    def dot() -> ti.f32:
        s = 0.0
        ti.loop_config(serialize=True)
        for i in range(N):
            s += r32[i] * r32[i]  # fma(r, r, p0) into 16 rotating partials (fast_math_sums.py)
        return s

    compute()
    print("fast_math =", fast, "tiny:", tiny(1.0 + 2.0**-12), "hash:", folded(), "dot:", dot())


run(True)
run(False)
