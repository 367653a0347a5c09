# ndarray arguments pass through ti.func calls like fields (template or plain parameters)
import taichi as ti
import numpy as np
ti.init(arch=ti.cpu)

@ti.func
def get(a: ti.template(), i):
    return a[i] * 2

@ti.func
def put(a, i, v):
    a[i] = v

@ti.kernel
def k(x: ti.types.ndarray(), y: ti.types.ndarray()):
    for i in x:
        put(y, i, get(x, i) + x.shape[0])

x = np.arange(4, dtype=np.float32)
y = np.zeros(4, dtype=np.float32)
k(x, y)
print(y)
