# Short if/else blocks of pure ops inside hot loops (the JIT computes both
# sides and selects; a block may hold whole if/else blocks of its own and
# fast_math's fused multiply-adds, as ti.svd's Jacobi rotations do), power-of-two // and % on negative numbers (shifts and
# masks), and constant shifts: every engine prints the same.
import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def collatz(lo: ti.i64, hi: ti.i64) -> ti.i64:
    steps = ti.i64(0)
    ti.loop_config(serialize=True)
    for k in range(lo, hi):
        n = k
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
    return steps

@ti.kernel
def branches() -> ti.f64:
    s = ti.f64(0.0)
    ti.loop_config(serialize=True)
    for i in range(200):
        x = ti.cast(i, ti.f32)
        if i % 3 == 0:
            x = x * 0.5 + 1.0
        else:
            x = -x
        if i % 5 == 1:
            x += 100.0
        d = i % 4
        q = 0
        if d != 0:
            q = 1000 // d  # never divides by zero: this block only runs when d != 0
        w = ti.u8(i * 37)
        if w > 128:
            w = w + ti.u8(200)  # wraps at 8 bits
        s += ti.cast(x, ti.f64) + q + w
    return s

@ti.kernel
def pow2(lo: ti.i32, hi: ti.i32) -> ti.i64:
    s = ti.i64(0)
    ti.loop_config(serialize=True)
    for i in range(lo, hi):
        a = i // 4 * 1000 + i % 8 * 10 + (i // 1) + (i % 1)
        b = ti.i64(i) * ti.i64(12345678901) // 1024 + ti.i64(i) * 7 % 16
        c = (i << 3) + (i >> 2) + ti.cast(ti.u32(i) >> 29, ti.i32)
        s = s * 31 + a + b + c
    return s

@ti.func
def rotation(app, aqq, apq):
    c = 1.0
    s = 0.0
    if apq != 0:
        theta = (aqq - app) / (2 * apq)
        t = 1 / (ti.abs(theta) + ti.sqrt(theta * theta + 1))
        if theta < 0:
            t = -t
        elif theta > 10:
            t = t * 0.5
        c = 1 / ti.sqrt(t * t + 1)
        s = t * c
    return c, s

@ti.kernel
def rotations(n: ti.i32) -> ti.f64:
    acc = ti.f64(0.0)
    ti.loop_config(serialize=True)
    for i in range(n):
        app = ti.cast(i % 7, ti.f32) - 3.0
        aqq = ti.cast(i % 11, ti.f32) * 0.5
        apq = ti.cast(i % 3, ti.f32) * 0.25 - 0.25 * ti.cast(i % 5 == 0, ti.f32)
        c, s = rotation(app, aqq, apq)
        c2, s2 = rotation(aqq * c, app * s + 1.0, apq * c - s)
        acc += ti.cast(c * 1000.0 + s * 10.0 + c2 * 3.0 - s2, ti.f64)
    return acc

print(collatz(1, 3000), collatz(27, 28))
print(rotations(5000))
print(branches())
print(pow2(-70, 70), pow2(0, 1), pow2(-1, 0))
