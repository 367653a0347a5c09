# An index that leaves the field only late in a long loop: the error names
# the first index out of bounds, on every engine (the JIT checks a loop's
# bounds once, before the loop, and lets the interpreter find the iteration).
import taichi as ti
ti.init(arch=ti.cpu)
N = 2000
x = ti.field(ti.i32, shape=N)
g = ti.field(ti.f32, shape=(64, 64))
h = ti.field(ti.f32, shape=(64, 64))

@ti.kernel
def grid_ok():
    for i, j in g:
        g[i, j] = i * 0.5 + j
    for i, j in ti.ndrange((1, 63), (1, 63)):
        h[i, j] = g[i - 1, j] + g[i + 1, j] + g[i, j - 1] + g[i, j + 1]

@ti.kernel
def shift(k: ti.i32):
    for i in range(N):
        x[i + k] = i

grid_ok()
print(h[1, 1], h[62, 62], h[0, 5])
shift(0)
print(x[N - 1])
shift(3)
print("unreachable")
