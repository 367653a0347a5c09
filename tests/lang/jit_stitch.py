# Inner loops entered again and again from their enclosing loop (issue 16):
# on the JIT a side trace of the outer loop links into the inner loop's
# trace, and the inner trace's exits back into the outer loop grow side
# traces that go round the outer loop and link into the inner trace again
# (stitching), never through a call. The outer loops here have no trace of
# their own (a serial Collatz count), or one that calls the inner trace
# (the escape-time grid), so both ways into the inner trace run. Results
# are checked against plain Python; every engine prints the same.
import taichi as ti
ti.init(arch=ti.cpu)

N = 3000
W = 40
grid = ti.field(ti.i32, shape=(W, W))
hist = ti.field(ti.i32, shape=8)


@ti.kernel
def collatz_steps(lo: ti.i32, hi: ti.i32) -> ti.i64:
    total = ti.i64(0)
    ti.loop_config(serialize=True)
    for k in range(lo, hi):
        n = ti.i64(k)
        steps = 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        total += steps * (k % 5 + 1)
    return total


@ti.kernel
def escape():
    for i, j in grid:
        cx = -2.0 + 3.0 * i / W
        cy = -1.5 + 3.0 * j / W
        x = 0.0
        y = 0.0
        n = 0
        while n < 50 and x * x + y * y < 4.0:
            x, y = x * x - y * y + cx, 2.0 * x * y + cy
            n += 1
        grid[i, j] = n


# Two inner loops in one outer body, each left by its test or a break.
@ti.kernel
def two_inner(m: ti.i32) -> ti.i64:
    acc = ti.i64(0)
    ti.loop_config(serialize=True)
    for k in range(1, m):
        a = k
        while a % 7 != 0:
            a += 3
            if a > 10 * k:
                break
        b = 0
        for t in range(k % 13):
            b += t * a
            if b > 5000:
                break
        hist[k % 8] += 1
        acc += a + b
    return acc


def collatz_py(lo, hi):
    total = 0
    for k in range(lo, hi):
        n, steps = k, 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        total += steps * (k % 5 + 1)
    return total


def two_inner_py(m):
    acc = 0
    for k in range(1, m):
        a = k
        while a % 7 != 0:
            a += 3
            if a > 10 * k:
                break
        b = 0
        for t in range(k % 13):
            b += t * a
            if b > 5000:
                break
        acc += a + b
    return acc


c = collatz_steps(1, N)
print("collatz", c, c == collatz_py(1, N))
escape()
g = grid.to_numpy()
print("escape", int(g.sum()), int(g.max()), int(g.min()))
t = two_inner(2000)
print("two_inner", t, t == two_inner_py(2000), list(hist.to_numpy()))
