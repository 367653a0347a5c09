# Reductions that must stay atomic per element: the atomic's old value is
# used, two kinds of op update one variable, or the loop also reads it.
import taichi as ti
ti.init(arch=ti.cpu)
n = 20000
counter = ti.field(ti.i32, shape=())
slot = ti.field(ti.i32, shape=n)
total = ti.field(ti.i32, shape=())
seen = ti.field(ti.i32, shape=())

@ti.kernel
def tickets():
    # Each iteration takes a distinct ticket 0..n-1 (the old value is used).
    for i in range(n):
        t = ti.atomic_add(counter[None], 1)
        slot[t] += 1

@ti.kernel
def ticket_sum() -> ti.i64:
    s = ti.i64(0)
    for i in range(n):
        s += ti.i64(ti.atomic_add(counter[None], 1))
    return s

@ti.kernel
def mixed():
    # += and atomic_max on one field: total only grows from 100, so the max
    # with 50 never changes it (one accumulator for both would start the max
    # from 0 and wrongly lift it).
    for i in range(n):
        total[None] += 1
        ti.atomic_max(total[None], 50)

@ti.kernel
def read_too():
    for i in range(n):
        seen[None] += 1
        if i == n - 1:
            ti.atomic_max(seen[None], seen[None])

@ti.kernel
def count_ones() -> ti.i32:
    c = 0
    for i in range(n):
        c += slot[i]
    return c

tickets()
print(counter[None], count_ones())
counter[None] = 0
print(ticket_sum(), counter[None])
total[None] = 100
mixed()
print(total[None])
read_too()
print(seen[None])
