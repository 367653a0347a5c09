# A running i32 sum that the loop body also reads (a prefix sum) has no
# lanes: each iteration needs the previous one's value (kiln-fuzz seeds
# 50078572, 60080819: the JIT raised InternalError map::at). A sum only
# returned, and one read before it is updated, are fine.
import taichi as ti
ti.init(arch=ti.cpu)
n = 203
y = ti.field(ti.i32, shape=n)
z = ti.field(ti.i32, shape=n)

@ti.kernel
def prefix() -> ti.i32:
    s = 0
    ti.loop_config(serialize=True)
    for i in range(n):
        s += 7
        y[i] = s
    return s

@ti.kernel
def prefix2() -> ti.i32:
    s = 0
    ti.loop_config(serialize=True)
    for i in range(n):
        s = s + i
        z[i] = s * 2
    return s

@ti.kernel
def before() -> ti.i32:
    s = 0
    ti.loop_config(serialize=True)
    for i in range(n):
        y[i] = s
        s += i
    return s

@ti.kernel
def total() -> ti.i32:
    s = 0
    ti.loop_config(serialize=True)
    for i in range(n):
        s += z[i] - y[i]
    return s

print(prefix(), y[0], y[100], y[n - 1])
print(prefix2(), z[0], z[100], z[n - 1])
print(total())
print(before(), y[0], y[100], y[n - 1])
