# Locals read right after being changed, or changed between a read and its use:
# the interpreter reads locals in place where it can, and these must still see
# the value each read had when it ran.
import taichi as ti
ti.init()

@ti.kernel
def swap_chain() -> ti.i32:
    a = 1
    b = 2
    ti.loop_config(serialize=True)
    for _ in range(5):
        t = a
        a = b
        b = t + a
    return a * 100 + b

@ti.kernel
def select_self(c: ti.i32) -> ti.i32:
    x = 3
    ti.loop_config(serialize=True)
    for i in range(4):
        x = ti.select(c > i, x * 2, x - 1)
        x = ti.select(x > 8, 8, x)
    return x

@ti.kernel
def narrow(n: ti.i32) -> ti.i8:
    v = ti.i8(0)
    ti.loop_config(serialize=True)
    for i in range(n):
        v = v + ti.i8(37)
    return v

@ti.kernel
def changed_in_branch(n: ti.i32) -> ti.i64:
    s = ti.i64(0)
    ti.loop_config(serialize=True)
    for i in range(n):
        old = s
        if i % 3 == 0:
            s = s + i
        s = s * 2 - old
    return s

@ti.kernel
def self_ops(n: ti.i32) -> ti.f32:
    x = 1.5
    ti.loop_config(serialize=True)
    for i in range(n):
        x = x * x - x
        x = x / (x + 1.0)
    return x

print(swap_chain())
print(select_self(2))
print(narrow(10))
print(changed_in_branch(10))
print(self_ops(3))
