# Loops with a data-dependent guard in their body, which the JIT runs eight
# iterations at a time, testing the guard for all of a chunk's lanes and
# leaving a chunk with a failing lane to the scalar loop: a `break` at the
# first negative element, before or after the iteration's store (the element
# in the first, a middle or the last lane
# of a chunk, never, or at once), a `continue` in a parallel loop, an i32 sum,
# a float sum and a max that stop at a sentinel, a while loop's break, and a
# guard on the counter.
import taichi as ti
ti.init(arch=ti.cpu)
N = 300
x = ti.field(ti.f32, shape=N)
y = ti.field(ti.f32, shape=N)
k = ti.field(ti.i32, shape=N)


@ti.kernel
def fill():
    for i in x:
        x[i] = ti.cast(i % 13, ti.f32) + 0.5
        k[i] = (i * 7) % 11
        y[i] = -1.0


@ti.kernel
def until_negative(m: ti.i32) -> ti.i32:
    at = -1
    ti.loop_config(serialize=True)
    for i in range(m):
        if x[i] < 0.0:
            at = i
            break
        y[i] = x[i] * 2.0
    return at


@ti.kernel
def scale_until(m: ti.i32) -> ti.i32:
    at = -1
    ti.loop_config(serialize=True)
    for i in range(m):
        v = x[i]
        y[i] = v * 3.0
        if v < 0.0:
            at = i
            break
    return at


@ti.kernel
def roots():
    for i in x:
        if x[i] < 0.0:
            continue
        y[i] = ti.sqrt(x[i]) + 1.0


@ti.kernel
def sum_to_sentinel(m: ti.i32) -> ti.i32:
    s = 0
    ti.loop_config(serialize=True)
    for i in range(m):
        if k[i] == 99:
            break
        s += k[i] * 3 + 1
    return s


@ti.kernel
def fsum_to_sentinel(m: ti.i32) -> ti.f32:
    s = 0.0
    ti.loop_config(serialize=True)
    for i in range(m):
        if x[i] > 1000.0:
            break
        s += x[i]
    return s


@ti.kernel
def max_to_negative(m: ti.i32) -> ti.f32:
    mx = -1.0
    ti.loop_config(serialize=True)
    for i in range(m):
        if x[i] < 0.0:
            break
        mx = ti.max(mx, x[i] * 1.5 - ti.cast(i % 5, ti.f32))
    return mx


@ti.kernel
def below(c: ti.i32, m: ti.i32):
    ti.loop_config(serialize=True)
    for i in range(m):
        if i >= c:
            break
        y[i] = x[i] + y[i] * 0.5


@ti.kernel
def while_until(m: ti.i32) -> ti.i32:
    j = 0
    while j < m:
        if x[j] < 0.0:
            break
        y[j] = x[j] * 3.0
        j += 1
    return j


def ysum():
    return sum(float(v) for v in y.to_numpy())  # (in order: the same bits on every host)


for m in (0, 1, 2, 7, 8, 9, 15, 16, 17, 33, 40, 41, 100, N):
    line = []
    for f in (-1, 0, 1, 2, 7, 8, 9, 10, 15, 16, 17, 24, 31, 32, 33, 39, 40, 47, 97, 98, 99, 100, 298, 299):
        fill()
        if f >= 0:
            x[f] = -2.0
        at = until_negative(m)
        line.append(f"{at}:{ysum()}")
    print(m, " ".join(line))

for m in (0, 1, 9, 16, 17, 41, N):
    line = []
    for f in (-1, 0, 1, 7, 8, 9, 16, 17, 33, 40, 41, 200):
        fill()
        if f >= 0:
            x[f] = -2.0
        at = scale_until(m)
        line.append(f"{at}:{ysum()}")
    print("stored", m, " ".join(line))

for f in (-1, 0, 5, 8, 9, 64, 150, 299):
    fill()
    if f >= 0:
        x[f] = -2.0
        x[(f * 5 + 3) % N] = -1.0
    roots()
    print("roots", f, ysum())

# every second element negative up to 100 (the vector loop backs off, then
# the scalar loop enters it again), then none
fill()
for i in range(1, 100, 2):
    x[i] = -3.0
roots()
print("roots dense", ysum())

for m in (0, 1, 9, 16, 17, 40, 299, N):
    sums = []
    for f in (-1, 0, 3, 8, 16, 23, 64, 200):
        fill()
        if f >= 0:
            k[f] = 99
            x[f] = 5000.0
        sums.append(sum_to_sentinel(m))
        sums.append(fsum_to_sentinel(m))
        x[(f * 7 + 5) % N] = -1.0
        sums.append(max_to_negative(m))
    print("sums", m, sums)

for m in (0, 1, 8, 9, 17, 64, N):
    line = []
    for f in (-1, 0, 1, 8, 9, 16, 17, 40, 63, 64, 150):
        fill()
        if f >= 0:
            x[f] = -2.0
        j = while_until(m)
        line.append(f"{j}:{ysum()}")
    print("while", m, " ".join(line))

fill()
for c in (30, 9, 8, 1, 0):
    for m in (100, 17, 9, 8, 1, 0):
        below(c, m)
        print("below", c, m, ysum())
