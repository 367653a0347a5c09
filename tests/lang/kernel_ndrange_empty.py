# A range whose end is below its begin is empty, in every dimension of
# ti.ndrange as in Python's range: no iterations, never a negative count.
import taichi as ti
ti.init(arch=ti.cpu)

@ti.kernel
def count() -> ti.i32:
    n = 0
    for i, j in ti.ndrange((10, 0), (20, 0)):
        n += 1
    for i in range(5, 2):
        n += 10
    for i, j in ti.ndrange((3, 1), 4):
        n += 100
    for i, j, k in ti.ndrange(2, (5, 0), (4, 1)):
        n += 1000
    for i, j in ti.ndrange((1, 3), (2, 5)):  # 2 x 3, for contrast
        n += 10000
    return n

@ti.kernel
def inner(a: ti.i32, b: ti.i32) -> ti.i32:
    n = 0
    for _ in range(1):
        for i, j in ti.ndrange((a, b), (b, a)):
            n += 1
    return n

print(count())
print(inner(3, 1), inner(1, 3), inner(2, 2))
