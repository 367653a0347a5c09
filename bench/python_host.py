"""The CPython host's per-call costs, against numpy in the same run (issue 14):
a kernel launch with two scalar arguments and with an ndarray argument (vs a
numpy ufunc call on an array of the same size), and one field element read or
written from Python (vs the same access on a numpy array).

    PYTHONPATH=build/python python3 bench/python_host.py [N]

Prints microseconds per operation (best of 5 rounds of N) and the ratios."""
import sys
import time

import numpy as np
import taichi as ti

N = int(sys.argv[1]) if len(sys.argv) > 1 else 100000
ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=1024)
y = ti.field(ti.f32, shape=(32, 32))
a = np.zeros(16, dtype=np.float32)
npx = np.zeros(1024, dtype=np.float32)
npy = np.zeros((32, 32), dtype=np.float32)


@ti.kernel
def two_scalars(i: ti.i32, v: ti.f32):
    x[i] = v


@ti.kernel
def one_array(arr: ti.types.ndarray(dtype=ti.f32, ndim=1)):
    arr[0] = 1


def best(fn):
    fn()
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times) / N * 1e6


def loop(body):
    def run():
        for _ in range(N):
            body()
    return run


def r1(): x[5]
def r2(): y[3, 4]
def n1(): npx[5]
def n2(): npy[3, 4]
def w1(): x.__setitem__(5, 1.5)
def nw1(): npx.__setitem__(5, 1.5)


rows = [
    ("launch, 2 scalar args", best(loop(lambda: two_scalars(1, 2.0))), "numpy ufunc (16 f32)", best(loop(lambda: np.add(a, 1.0, out=a)))),
    ("launch, 1 ndarray arg", best(loop(lambda: one_array(a))), "numpy ufunc (16 f32)", best(loop(lambda: np.add(a, 1.0, out=a)))),
    ("x[i] read", best(loop(r1)), "numpy a[i] read", best(loop(n1))),
    ("x[i, j] read", best(loop(r2)), "numpy a[i, j] read", best(loop(n2))),
    ("x[i] = v write", best(loop(w1)), "numpy a[i] = v write", best(loop(nw1))),
]
print(f"{'operation':24} {'us':>8}   {'baseline':24} {'us':>8}   ratio")
for name, t, bname, bt in rows:
    print(f"{name:24} {t:8.3f}   {bname:24} {bt:8.3f}   {t / bt:5.2f}x")
