# Conditional sums whose branch reloads the element it tested
# (`if x[i] > 0: s += x[i]`): the JIT's if-conversion reuses the load made
# before the branch (no store between), so the branch becomes a select and,
# for an i32 sum, the loop runs in vector lanes. Also a diamond with an
# else, a store before the test, a 2-D field, and branches that read an
# element not loaded before or stored to since (those stay guards). The
# values are quarters, so every float sum is exact in any order; each line
# is checked against a plain Python reference.
import taichi as ti
ti.init(arch=ti.cpu)
N = 300
x = ti.field(ti.f32, shape=N)
y = ti.field(ti.f32, shape=N)
k = ti.field(ti.i32, shape=N)
g = ti.field(ti.i32, shape=(4, N))
w = ti.field(ti.i32, shape=N)
idx = ti.field(ti.i32, shape=N)


@ti.kernel
def fill(seed: ti.i32):
    for i in x:
        h = ((i + seed) * 1103515245 + 12345) & 0x7fffffff
        v = (h >> 8) % 21 - 10
        x[i] = ti.cast(v, ti.f32) * 0.25
        k[i] = v
        y[i] = ti.cast(i % 7, ti.f32)
        for r in range(4):
            g[r, i] = v * (r + 1)
        w[i] = v
        idx[i] = i if i % 3 == 0 else (i * 7 + 1) % N


@ti.kernel
def fsum(m: ti.i32) -> ti.f32:
    s = 0.0
    for i in range(m):
        if x[i] > 0:
            s += x[i]
    return s


@ti.kernel
def isum(m: ti.i32) -> ti.i32:
    s = 0
    for i in range(m):
        if k[i] > 0:
            s += k[i]
    return s


@ti.kernel
def diamond(m: ti.i32) -> ti.i32:
    s = 0
    for i in range(m):
        if k[i] > 2:
            s += k[i]
        else:
            s -= k[i] * 2
    return s


@ti.kernel
def stored_first(m: ti.i32) -> ti.f32:
    s = 0.0
    ti.loop_config(serialize=True)
    for i in range(m):
        y[i] = y[i] + 1.0
        if x[i] < 0:
            s += x[i] + y[i]
    return s


@ti.kernel
def rows(m: ti.i32) -> ti.i32:
    s = 0
    for i in range(m):
        if g[2, i] < -3:
            s += g[2, i]
    return s


@ti.kernel
def other_element(m: ti.i32) -> ti.f32:
    s = 0.0
    for i in range(m):
        if x[i] > 1.0:
            s += y[i]
    return s


@ti.kernel
def aliased(m: ti.i32) -> ti.i32:
    s = 0
    ti.loop_config(serialize=True)
    for i in range(m):
        v = w[i]
        w[idx[i]] = v - 100  # may be w[i]: the reload below must see it
        if v > 0:
            s += w[i]
    return s


def reference(m):
    xs = [x[i] for i in range(m)]
    ks = [k[i] for i in range(m)]
    ys = [y[i] for i in range(m)]
    return (sum(v for v in xs if v > 0), sum(v for v in ks if v > 0),
            sum(v if v > 2 else -2 * v for v in ks),
            sum(xs[i] + ys[i] + 1.0 for i in range(m) if xs[i] < 0),
            sum(3 * v for v in ks if 3 * v < -3), sum(ys[i] + 1.0 for i in range(m) if xs[i] > 1.0),  # (stored_first added 1)
            aliased_reference(m))


def aliased_reference(m):
    ws, s = [w[i] for i in range(N)], 0
    for i in range(m):
        v = ws[i]
        ws[idx[i]] = v - 100
        if v > 0:
            s += ws[i]
    return s


for seed in (0, 7):
    for m in (0, 1, 2, 7, 8, 9, 15, 16, 17, 33, 100, N):
        fill(seed)
        want = reference(m)
        got = (fsum(m), isum(m), diamond(m), stored_first(m), rows(m), other_element(m), aliased(m))
        print(seed, m, " ".join(str(v) for v in got), "ok" if list(got) == list(want) else f"reference {want}")
