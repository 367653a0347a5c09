# mandelbrot: 1024x1024, 200 iterations (escape counts). Prints a checksum and the time.
import taichi as ti
import time
import sys
ti.init(cpu_max_num_threads=int(sys.argv[1]) if len(sys.argv) > 1 else 1)
W = 1024
img = ti.field(ti.i32, shape=(W, W))

@ti.kernel
def mandel():
    for i, j in img:
        cx = -2.0 + 3.0 * i / W
        cy = -1.5 + 3.0 * j / W
        x = 0.0
        y = 0.0
        n = 0
        while n < 200 and x * x + y * y < 4.0:
            x, y = x * x - y * y + cx, 2.0 * x * y + cy
            n += 1
        img[i, j] = n

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
