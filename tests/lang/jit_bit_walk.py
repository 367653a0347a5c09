# Loops that walk the set bits of a 64-bit word, clearing the lowest each
# time round (x &= x - 1: the JIT's blsr, and a loop that ends within 64
# iterations needs no Ctrl-C poll of its own), next to the shapes that must
# not fold: x - 1 read elsewhere too, a 32-bit x, x & (x + 1). And float
# selects under one condition and under two (a bounce's p and v share the
# compare's mask), and 64-bit b + x * 2/4/8 (one lea). The same output on
# every engine.
import taichi as ti
ti.init(arch=ti.cpu)

n = 40
w = ti.field(ti.i64, shape=n)
u = ti.field(ti.u64, shape=n)
h = ti.field(ti.i32, shape=n)

@ti.kernel
def fill():
    for k in range(n):
        x = (ti.cast(k * 40503 + 7, ti.i64) << 41) ^ (ti.cast(k * 2654435 + 11, ti.i64) << 9) ^ k
        if k % 7 == 0:
            x = 0
        if k % 11 == 3:
            x = -1  # all 64 bits
        if k % 13 == 5:
            x = ti.cast(1, ti.i64) << 63  # the top bit only
        w[k] = x
        u[k] = ti.cast(x, ti.u64)
        h[k] = ti.cast(x & 0x7FFFFFFF, ti.i32)

@ti.kernel
def popcounts() -> ti.i64:
    total = ti.cast(0, ti.i64)
    ti.loop_config(serialize=True)
    for k in range(n):
        x = w[k]
        c = 0
        while x != 0:
            x &= x - 1
            c += 1
        total = total * 3 + c
    return total

@ti.kernel
def lowest_bits() -> ti.u64:
    # the bit numbers of the set bits, in order, folded into a hash
    s = ti.cast(0, ti.u64)
    ti.loop_config(serialize=True)
    for k in range(n):
        x = u[k]
        while x:
            nx = x & (x - 1)
            s = s * ti.cast(31, ti.u64) + (x ^ nx)  # the bit just cleared
            x = nx
    return s

@ti.kernel
def shared_sub() -> ti.i64:
    # x - 1 also summed: it stays a value of its own
    s = ti.cast(0, ti.i64)
    ti.loop_config(serialize=True)
    for k in range(n):
        x = w[k]
        while x != 0:
            y = x - 1
            s += y & 0xFFFF
            x &= y
    return s

@ti.kernel
def narrow_and_plus() -> ti.i64:
    # a 32-bit x & (x - 1), and x & (x + 1) (clears the trailing ones)
    s = ti.cast(0, ti.i64)
    ti.loop_config(serialize=True)
    for k in range(n):
        x = h[k]
        c = 0
        while x != 0:
            x &= x - 1
            c += 1
        y = w[k]
        d = 0
        while y != -1 and d < 70:
            y |= y + 1
            d += 1
        s = s * 5 + c * 100 + d
    return s

@ti.kernel
def scaled_sums() -> ti.i64:
    # 64-bit b + x * 2/4/8 (the JIT's lea [b + x*k]), wrapping, x * k also
    # read by something else, and b + b * 2
    s = ti.cast(0, ti.i64)
    su = ti.cast(0, ti.u64)
    ti.loop_config(serialize=True)
    for k in range(n):
        x = w[k]
        b = w[(k + 1) % n]
        t = x * 4
        s = s * 7 + (b + x * 8) + ((x * 2 + b) ^ (b + b * 2)) + (t + b) - (t >> 3)
        xu = u[k]
        su = su * ti.cast(5, ti.u64) + (u[(k + 3) % n] + xu * ti.cast(8, ti.u64))
    return s ^ ti.cast(su, ti.i64)

f = ti.field(ti.f32, shape=64)
g = ti.field(ti.f32, shape=64)

@ti.kernel
def bounce():
    for i in range(64):
        v = g[i] - 0.5
        p = f[i] + v * 0.25
        if p < 0:  # one mask for both selects
            p = -p
            v = -v
        if v > 1.0:  # another condition right after
            v = 1.0
        f[i] = p
        g[i] = v

fill()
print("popcounts", popcounts())
print("lowest bits", lowest_bits())
print("shared sub", shared_sub())
print("narrow and plus", narrow_and_plus())
print("scaled sums", scaled_sums())
for i in range(64):
    f[i] = (i % 9) * 0.1
    g[i] = (i % 7) - 3.0
for _ in range(5):
    bounce()
print("bounce", sum(f[i] * (i + 1) for i in range(64)), sum(g[i] * (i + 1) for i in range(64)))
