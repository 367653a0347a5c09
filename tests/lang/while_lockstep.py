# Parallel loops around a while loop with data-dependent exits that carries
# a float value, which the LLVM tier runs four (or two) iterations a pass,
# their while loops in lockstep (vm/ir/passes/jam_while.cpp; interp_jam runs
# the interpreter so too): every engine prints the interpreter's bits.
# Escape counts whose copies end at different turns (one at once, one
# never), a break in an `else` and one in a nested `if` with statements
# after it, f32 and f64 loops, counts that leave 2, 3 and 1 iterations
# alone (4, 4 and 2 copies) and ranges that do not start at 0; not jammed:
# an integer loop, a loop whose while reads a field, and one whose part
# after the loop adds into a shared sum.
import taichi as ti

ti.init(arch=ti.cpu)
W = 33
img = ti.field(ti.i32, shape=(W, W + 1))
dist = ti.field(ti.f64, shape=W)
steps = ti.field(ti.i32, shape=W + 7)
seed = ti.field(ti.i32, shape=W)
found = ti.field(ti.i32, shape=W)
total = ti.field(ti.f32, shape=())
roots = ti.field(ti.f32, shape=40)


@ti.kernel
def escape(maxit: ti.i32):
    for i, j in img:
        cx = -2.0 + 3.0 * i / W
        cy = -1.5 + 3.0 * j / (W + 1)
        x = 0.0
        y = 0.0
        it = 0
        while it < maxit:
            if x * x + y * y >= 4.0:
                break
            x, y = x * x - y * y + cx, 2.0 * x * y + cy
            it += 1
        img[i, j] = it * 1000 + int(x * 10.0)


@ti.kernel
def nested():
    for i in range(3, W):
        r = ti.f64(i) * 0.37
        s = ti.f64(0.0)
        k = 0
        while True:
            if r > 1.0:
                r = r * 0.5 + 0.125
                if r < 1.3:
                    s += r
                    if k > 2 * i:
                        break
                    s *= 1.0625
                k += 1
            else:
                break
            s -= 0.001 * k
        dist[i] = s + k


@ti.kernel
def newton():
    for i in range(1, 40):
        a = ti.f32(i) * 1.37
        x = a
        n = 0
        while n < 50:
            nx = 0.5 * (x + a / x)
            if ti.abs(nx - x) <= 1e-6 * x:
                break
            x = nx
            n += 1
        roots[i] = x * 1000.0 + n


@ti.kernel
def cube_roots():
    for i in range(5, 8):
        a = ti.f32(i) * 2.5
        x = a
        n = 0
        while True:
            nx = (2.0 * x + a / (x * x)) / 3.0
            n += 1
            if ti.abs(nx - x) <= 1e-6 * x or n >= 60:
                break
            x = nx
        roots[i] = x * 1000.0 + n


@ti.kernel
def collatz():
    for i in range(1, W + 7):
        v = i * 7 + 1
        n = 0
        while v != 1:
            if v % 2 == 0:
                v = v // 2
            else:
                v = 3 * v + 1
            n += 1
            if n >= 500:
                break
        steps[i] = n


@ti.kernel
def reads_field():
    for i in range(W):
        k = 0
        while k < i and seed[k] % 3 != 2:
            k += 1
        found[i] = k


@ti.kernel
def shared_sum():
    for i in range(W):
        x = ti.f32(i) * 0.3 + 0.1
        n = 0
        while x < 50.0:
            x = x * 1.7 + 0.01
            n += 1
        total[None] += x * 0.001 + n


escape(60)
print(img.to_numpy().sum(), img[0, 0], img[W - 1, W], img[20, 16], img[25, 15])
escape(0)
print(img.to_numpy().sum())
nested()
print([round(dist[i], 12) for i in range(0, W, 4)])
newton()
cube_roots()
print([roots[i] for i in range(40)])
collatz()
print([steps[i] for i in range(0, W + 7, 3)])
for i in range(W):
    seed[i] = i * 5 % 7
reads_field()
print([found[i] for i in range(W)])
total[None] = 0.0
shared_sum()
print(total[None])
