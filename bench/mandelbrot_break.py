# mandelbrot as users write it (issue 16): a `while it < MAXIT:` loop whose
# escape test is an `if ...: break` in the body. 1024x1024, 200 iterations;
# the same escape counts as bench/mandelbrot.py. Prints a checksum and the time.
import taichi as ti
import time
import sys
ti.init(cpu_max_num_threads=int(sys.argv[1]) if len(sys.argv) > 1 else 1)
W = 1024
MAXIT = 200
img = ti.field(ti.i32, shape=(W, W))

@ti.kernel
def mandel():
    for i, j in img:
        cx = -2.0 + 3.0 * i / W
        cy = -1.5 + 3.0 * j / W
        x = 0.0
        y = 0.0
        it = 0
        while it < MAXIT:
            if x * x + y * y >= 4.0:
                break
            x, y = x * x - y * y + cx, 2.0 * x * y + cy
            it += 1
        img[i, j] = it

@ti.kernel
def total() -> ti.i64:
    s = 0
    for i, j in img:
        s += img[i, j]
    return s

mandel()
t = time.perf_counter()
mandel()
ti.sync()  # on a GPU, launches may still run
dt = time.perf_counter() - t
print("checksum", total())
print("time_ms", dt * 1000)
