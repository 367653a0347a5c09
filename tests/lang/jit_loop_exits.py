# Loops with early exits in hot code (issue 16): `break` out of while and
# range loops, while loops whose exits depend on the data (several of them),
# an early `return` of a ti.func called in a loop, and `continue`. The inner
# loops leave by a different exit from one outer iteration to the next, so
# on the JIT each outer trace sees its inner trace return at several pcs.
# Integer results are checked against plain Python; every engine prints the
# same.
import taichi as ti
ti.init(arch=ti.cpu)

W = 48
MAXIT = 60
img = ti.field(ti.i32, shape=(W, W))
data = ti.field(ti.i32, shape=400)
out = ti.field(ti.i32, shape=400)


@ti.kernel
def mandel():
    for i, j in img:
        cx = -2.0 + 3.0 * i / W
        cy = -1.5 + 3.0 * j / W
        x = 0.0
        y = 0.0
        it = 0
        while it < MAXIT:
            if x * x + y * y >= 4.0:
                break
            x, y = x * x - y * y + cx, 2.0 * x * y + cy
            it += 1
        img[i, j] = it


@ti.kernel
def fill():
    for k in range(400):
        data[k] = (k * 7919 + 13) % 1000 - 500


# Collatz with a step cap and an early stop at a power of two: three exits.
@ti.kernel
def capped_collatz(lo: ti.i32, hi: ti.i32) -> ti.i64:
    total = ti.i64(0)
    ti.loop_config(serialize=True)
    for k in range(lo, hi):
        n = ti.i64(k)
        steps = 0
        while n != 1:
            if (n & (n - 1)) == 0:  # a power of two: the rest is known
                while n != 1:
                    n >>= 1
                    steps += 1
                break
            if steps >= 40:
                steps += 1000
                break
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        total += steps * (k % 7 + 1)
    return total


@ti.func
def first_over(start: ti.i32, t: ti.i32) -> ti.i32:
    # the first index at or after start whose value exceeds t (or -1)
    found = -1
    k = start
    while k < 400:
        if data[k] > t:
            found = k
            break
        k += 1
    return found


@ti.func
def clamp_sign(v: ti.i32) -> ti.i32:
    if v < -100:
        return -2
    if v > 100:
        return 2
    return v % 3


@ti.kernel
def search():
    for s in range(400):
        f = first_over(s, 480 - s % 50)
        acc = 0
        for k in range(s, 400):
            if data[k] == 0:
                continue
            if acc > 5000:
                break
            acc += clamp_sign(data[k]) + ti.abs(data[k]) % 17
        out[s] = f * 100000 + acc


mandel()
img_py = img.to_numpy()
print("mandel", int(img_py.sum()), int(img_py[10, 20]), int(img_py[30, 5]), int((img_py == MAXIT).sum()))
fill()
search()


def py_collatz(lo, hi):
    total = 0
    for k in range(lo, hi):
        n, steps = k, 0
        while n != 1:
            if (n & (n - 1)) == 0:
                while n != 1:
                    n >>= 1
                    steps += 1
                break
            if steps >= 40:
                steps += 1000
                break
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
        total += steps * (k % 7 + 1)
    return total


def py_search():
    d = [(k * 7919 + 13) % 1000 - 500 for k in range(400)]
    res = []
    for s in range(400):
        t = 480 - s % 50
        f = -1
        for k in range(s, 400):
            if d[k] > t:
                f = k
                break
        acc = 0
        for k in range(s, 400):
            if d[k] == 0:
                continue
            if acc > 5000:
                break
            v = d[k]
            cs = -2 if v < -100 else 2 if v > 100 else v % 3
            acc += cs + abs(v) % 17
        res.append(f * 100000 + acc)
    return res


c = capped_collatz(1, 3000)
print("collatz", c, c == py_collatz(1, 3000))
got = [out[s] for s in range(400)]
print("search", sum(got), got[:4], got == py_search())
