# Values carried around a loop that only its exits read: `last = i`,
# `last = x[i]` after the test of a `break`, which the break's exit (and the
# loop's end) returns. The JIT runs such loops eight iterations at a time and
# leaves the chunk whose lanes fail the test to the scalar loop, so each value
# must come out as the iteration before that chunk left it: the failing
# element in each lane of a chunk, never, or at once; an f32, a negative
# i32, the counter, a constant, two values and a sum in one loop, and a
# while loop. Each line is checked against a plain Python reference.
import taichi as ti
ti.init(arch=ti.cpu)
N = 300
x = ti.field(ti.f32, shape=N)
k = ti.field(ti.i32, shape=N)


@ti.kernel
def fill(seed: ti.i32, at: ti.i32):
    for i in x:
        h = ((i + seed) * 1103515245 + 12345) & 0x7fffffff
        x[i] = ti.cast((h >> 8) % 40, ti.f32) * 0.25
        k[i] = (h >> 4) % 101 - 50
    if at >= 0:
        x[at] = -1.0


@ti.kernel
def last_index(m: ti.i32) -> ti.i32:
    last = -1
    ti.loop_config(serialize=True)
    for i in range(m):
        if x[i] < 0:
            break
        last = i
    return last


@ti.kernel
def last_element(m: ti.i32) -> ti.f32:
    last = -2.5
    ti.loop_config(serialize=True)
    for i in range(m):
        if x[i] < 0:
            break
        last = x[i] * 2.0 + 1.0
    return last


@ti.kernel
def last_negative(m: ti.i32) -> ti.i64:
    last = 7
    ti.loop_config(serialize=True)
    for i in range(m):
        if x[i] < 0:
            break
        last = k[i] - 60
    return ti.cast(last, ti.i64) * 1000003


@ti.kernel
def seen(m: ti.i32) -> ti.i32:
    any_ran = 0
    ti.loop_config(serialize=True)
    for i in range(m):
        if x[i] < 0:
            break
        any_ran = 1
    return any_ran


@ti.kernel
def two_and_a_sum(m: ti.i32) -> ti.i32:
    li = -1
    lk = 0
    s = 0
    ti.loop_config(serialize=True)
    for i in range(m):
        if x[i] < 0:
            break
        s += k[i]
        li = i
        lk = k[i] * 3
    return li * 100000 + lk * 100 + s


@ti.kernel
def while_last(m: ti.i32) -> ti.f32:
    last = -4.0
    j = 0
    while j < m:
        if x[j] < 0:
            break
        last = x[j] + 0.5
        j += 1
    return last


def reference(m):
    stop = m
    for i in range(m):
        if x[i] < 0:
            stop = i
            break
    li = stop - 1 if stop > 0 else -1
    ks = [k[i] for i in range(stop)]
    return (li, x[li] * 2.0 + 1.0 if stop > 0 else -2.5, ((k[li] - 60) if stop > 0 else 7) * 1000003,
            1 if stop > 0 else 0, li * 100000 + (3 * k[li] if stop > 0 else 0) * 100 + sum(ks),
            x[li] + 0.5 if stop > 0 else -4.0)


for seed in (0, 5):
    for at in (-1, 0, 1, 7, 8, 9, 16, 17, 40, 123, 299):
        fill(seed, at)
        for m in (0, 1, 9, 17, 33, 150, N):
            want = reference(m)
            got = (last_index(m), last_element(m), last_negative(m), seen(m), two_and_a_sum(m), while_last(m))
            print(seed, at, m, " ".join(str(v) for v in got), "ok" if list(got) == list(want) else f"reference {want}")
