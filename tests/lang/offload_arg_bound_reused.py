# A loop bound that is a kernel argument also used after the loop: the
# launcher still finds the bound (regression: the loop once ran 0 times).
import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def share(n: ti.i32) -> ti.f32:
    evens = 0
    for i in range(n):
        if i % 2 == 0:
            evens += 1
    return evens / n

@ti.kernel
def two_loops(n: ti.i32, m: ti.i32) -> ti.i32:
    s = 0
    for i in range(n):
        s += 1
    for j in range(m, n):
        s += 10
    return s + n + m

print(share(1000))
print(two_loops(300, 100))
