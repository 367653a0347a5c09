# Loops with early exits as users write them (issue 16): in a parallel loop,
# an inner while loop whose trip count depends on the data and which leaves
# through a break as often as through its test. Inner loops of 17 to 55
# iterations (too long to record inline, never hot within one instance) once
# kept every loop of such a kernel in the interpreter.
#  - collatz: steps of 3n+1 from each n < 2*10^6, capped at 48 (a break);
#  - search: for each of 4096 rows of 512 i32, the first element above a
#    threshold that grows with the row (a break), else the row's end.
# Prints a checksum and the time of both kernels.
import taichi as ti
import time
import sys
ti.init(cpu_max_num_threads=int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = 2000000
R, C = 4096, 512
steps = ti.field(ti.i32, shape=N)
data = ti.field(ti.i32, shape=(R, C))
first = ti.field(ti.i32, shape=R)

@ti.kernel
def fill():
    for i, j in data:
        data[i, j] = (i * 7919 + j * 104729) % 10007

@ti.kernel
def collatz():
    for k in range(N):
        n = ti.i64(k + 1)
        s = 0
        while n != 1:
            if s >= 48:
                break
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            s += 1
        steps[k] = s

@ti.kernel
def search():
    for i in range(R):
        t = 9000 + i % 1000
        found = C
        j = 0
        while j < C:
            if data[i, j] > t:
                found = j
                break
            j += 1
        first[i] = found

@ti.kernel
def total() -> ti.i64:
    s = ti.i64(0)
    for k in range(N):
        s += steps[k]
    for i in range(R):
        s += first[i]
    return s

fill()
collatz()
search()
t = time.perf_counter()
collatz()
search()
ti.sync()  # on a GPU, launches may still run
dt = time.perf_counter() - t
print("checksum", total())
print("time_ms", dt * 1000)
