# A ti.func's return outside any run-time if or loop ends its body, as in
# Taichi: under `if ti.static(c): return a`, what follows is not compiled
# when c holds (Taichi's stable_fluid_graph picks a real_func by the
# ndarray's element_shape() this way, then ti.static_asserts the last case).
# element_shape() of an ndarray argument is [] / [n] / [n, m] at compile time.
import taichi as ti
from taichi.math import vec2

ti.init(arch=ti.cpu)
N = 4


@ti.func
def pick(qf: ti.template(), i: int):
    if ti.static(qf.element_shape() == [2]):
        return qf[i, 0].x + qf[i, 0].y  # a 2-vector: sum its components
    if ti.static(qf.element_shape() == [2, 2]):
        return qf[i, 0].trace()
    ti.static_assert(qf.element_shape() == [], "only scalars are left")
    return qf[i, 0] * 10.0


@ti.real_func
def pick_vec(qf: ti.types.ndarray(ndim=2), i: int) -> vec2:
    return qf[i, 1]


@ti.func
def first_even(start: int):
    for k in ti.static(range(3)):  # a return in a ti.static loop ends the unrolling too
        if ti.static(k == 2):
            return start + k
    return -1


@ti.kernel
def run(v: ti.types.ndarray(ndim=2), m: ti.types.ndarray(ndim=2), s: ti.types.ndarray(ndim=2)) -> ti.f32:
    total = 0.0
    for i in range(N):
        total += pick(v, i) + pick(m, i) + pick(s, i)
    w = pick_vec(v, 1)
    print("shapes:", len(ti.static(v.element_shape())), ti.static(m.element_shape()[1]), w)
    print("first_even:", first_even(5))
    return total


v = ti.Vector.ndarray(2, ti.f32, shape=(N, 2))
m = ti.Matrix.ndarray(2, 2, ti.f32, shape=(N, 1))
s = ti.ndarray(ti.f32, shape=(N, 1))
for i in range(N):
    v[i, 0] = [i, 0.5]
    v[i, 1] = [2.0 * i, 1.0]
    m[i, 0] = [[1.0, 0.0], [0.0, i]]
    s[i, 0] = 0.25 * i
print(run(v, m, s))
