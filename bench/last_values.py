# Loops whose exit reads a value the body carries (issue 16): `last = i` or
# `last = x[i]` after the test of a break that the data never takes, as a
# search for the end of a valid prefix is written. Since session 28 the JIT
# runs them in vector lanes (jit/vector.h, VecPlan::lasts); before, they
# stayed scalar. Prints a checksum and each kernel's time: thread CPU of one
# launch, the least of 15 (ms).
import taichi as ti
import time
import sys
ti.init(cpu_max_num_threads=1)
N = 1 << 22
x = ti.field(ti.f32, shape=N)
k = ti.field(ti.i32, shape=N)


@ti.kernel
def fill():
    for i in x:
        x[i] = ti.cast(i % 1000, ti.f32) * 0.5
        k[i] = (i * 7) % 1001 - 500


@ti.kernel
def last_index() -> ti.i32:
    last = -1
    ti.loop_config(serialize=True)
    for i in range(N):
        if x[i] < 0:
            break
        last = i
    return last


@ti.kernel
def last_element() -> ti.f32:
    last = 0.0
    ti.loop_config(serialize=True)
    for i in range(N):
        if x[i] < 0:
            break
        last = x[i]
    return last


@ti.kernel
def last_and_sum() -> ti.i32:
    last = 0
    s = 0
    ti.loop_config(serialize=True)
    for i in range(N):
        if k[i] > 600:
            break
        s += k[i]
        last = k[i] * 3
    return s + last


fill()
times = {}
check = 0.0
for f in (last_index, last_element, last_and_sum):
    best = 1e9
    for r in range(16):
        t = time.thread_time()
        v = f()
        dt = time.thread_time() - t
        if r:
            best = min(best, dt)
    times[f.__name__] = best * 1000
    check += v
print("checksum", check)
for name, ms in times.items():
    print(name, "%.3f" % ms)
print("time_ms", sum(times.values()))
