# serial scalar loops: sum of i*i mod 7 for i < 10^8 (i64), Collatz steps for n < 10^6.
# `kiln run bench/serial_loops.py N1 N2` runs smaller sizes (scripts/bench uses
# them to compare the interpreter with CPython on serial_loops_cpython.py).
import taichi as ti
import time
import sys
ti.init()
N1 = int(sys.argv[1]) if len(sys.argv) > 1 else 100000000
N2 = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000

@ti.kernel
def sq_mod() -> ti.i64:
    s = ti.i64(0)
    ti.loop_config(serialize=True)
    for i in range(N1):
        s += ti.i64(i) * ti.i64(i) % 7
    return s

@ti.kernel
def collatz() -> ti.i64:
    steps = ti.i64(0)
    ti.loop_config(serialize=True)
    for k in range(1, N2):
        n = ti.i64(k)
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
    return steps

t = time.perf_counter()
a = sq_mod()
b = collatz()
dt = time.perf_counter() - t
print("checksum", a, b)
print("time_ms", dt * 1000)
