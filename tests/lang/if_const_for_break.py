# A for loop inside a constant-true `if` is not the kernel's outermost loop,
# so it runs serially and may break (the fuzzer's repro: folding the `if`
# used to leave the loop at the top level as a parallel task, and its break
# failed with "InternalError: break out of an offloaded task").
import numpy as np
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32, shape=8)
f = ti.field(ti.f32, shape=4)

@ti.kernel
def top_level():
    if 1 < 2:
        for j in range(5):
            x[j] += 1
            if j == 3:
                break

@ti.kernel
def after_serial_loop() -> ti.i32:
    ti.loop_config(serialize=True)
    for i in range(2):
        x[i] += 10
    total = 0
    if True:
        for j in range(100):
            if j % 2 == 0:
                continue
            total += j
            if j > 8:
                break
    return total

@ti.kernel
def in_while() -> ti.i32:
    n = 0
    steps = 0
    while n < 3:
        if 2 > 1:
            for j in range(10):
                steps += 1
                if j == n:
                    break
        n += 1
    return steps

@ti.kernel
def else_branch() -> ti.i32:
    last = -1
    if 1 > 2:
        last = 100
    else:
        for j in range(7, 20):
            last = j
            if j * j > 150:
                break
    return last

@ti.kernel
def product() -> ti.f32:
    # Serial, so the plain `p *= ...` on a local defined outside is fine.
    p = 1.0
    if True:
        for i in range(4):
            p *= f[i]
    return p

top_level()
print(x.to_numpy())
print(after_serial_loop())
print(x.to_numpy())
print(in_while())
print(else_branch())
f.from_numpy(np.array([1.5, 2.0, -3.0, 0.5], dtype=np.float32))
print(product())
