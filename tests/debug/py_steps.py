# Host stepping on CPython: step into a function of the program, finish back
# to its caller mid-line, next over calls into the stdlib and taichi.
import json

import taichi as ti

ti.init(arch=ti.cpu)


def square(n):
    r = n * n
    return r


values = []
for k in range(4):
    values.append(square(k))
text = json.dumps(values)
print(text)
