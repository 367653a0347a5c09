# serial_loops.py's two loops in plain Python, for CPython (/usr/bin/python3):
#   python3 bench/serial_loops_cpython.py N1 N2
# scripts/bench runs it and `kiln run bench/serial_loops.py N1 N2` (interpreter)
# at the same reduced sizes, and compares the times.
import sys
import time

N1 = int(sys.argv[1]) if len(sys.argv) > 1 else 100000000
N2 = int(sys.argv[2]) if len(sys.argv) > 2 else 1000000


def sq_mod():
    s = 0
    for i in range(N1):
        s += i * i % 7
    return s


def collatz():
    steps = 0
    for k in range(1, N2):
        n = k
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
