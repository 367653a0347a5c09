# Sparse accesses and appends in hot loops, where the tracing JIT walks the
# tree inline with a guard per sparse level (jit/sparse_walk.cpp): cells
# active and not in the same loop (reads of zeros, activations: the guards
# fail and side traces take the runtime's path), activity changed between
# launches, nested pointer/bitmasked/dynamic levels, three indices, a field
# offset, and appends into lists whose pointer cell is not active yet. Every
# result is checked against the same computation in Python.
import taichi as ti

ti.init(arch=ti.cpu)

# pointer of pointer of dense, 2-D
g = ti.field(ti.i32)
outer = ti.root.pointer(ti.ij, 4)
inner = outer.pointer(ti.ij, 2)
inner.dense(ti.ij, 4).place(g)
N = 32

# bitmasked rows with an offset
b = ti.field(ti.f32)
ti.root.dense(ti.i, 4).bitmasked(ti.i, 16).place(b, offset=(-20,))

# lists under a pointer (the pointer cell activated by the first append)
lst = ti.field(ti.i64)
lists = ti.root.pointer(ti.i, 6).dynamic(ti.j, 50, chunk_size=4)
lists.place(lst)

# three indices through a bitmasked level
c3 = ti.field(ti.i32)
ti.root.dense(ti.ijk, (2, 2, 2)).bitmasked(ti.ijk, (3, 2, 4)).place(c3)


def hit(i, j):
    return (i * 5 + j * 3) % 7 < 2


@ti.kernel
def write_g(k: ti.i32):
    for i, j in ti.ndrange(N, N):
        if (i * 5 + j * 3) % 7 < 2:
            g[i, j] += i * 100 + j + k


@ti.kernel
def read_g() -> ti.i64:
    s = ti.i64(0)
    for i, j in ti.ndrange(N, N):
        s += g[i, j] * (i + 2 * j + 1)
    return s


@ti.kernel
def drop(i: ti.i32, j: ti.i32):
    ti.deactivate(inner, [i, j])


@ti.kernel
def lengths() -> ti.i64:
    n = ti.i64(0)
    ti.loop_config(serialize=True)
    for i in range(6):
        n = n * 100 + ti.length(lists, [i]) + ti.is_active(lists, [i]) * 60
    return n


@ti.kernel
def write_b():
    for i in range(-20, 44):
        if i % 3 != 0:
            b[i] = i * 0.5


@ti.kernel
def read_b() -> ti.f64:
    s = ti.f64(0.0)
    for i in range(-20, 44):
        s += b[i] * (i + 30)
    return s


@ti.kernel
def fill_lists(n: ti.i32):
    for k in range(n):
        ti.append(lists, [(k * 7) % 5], k * k - 3)


@ti.kernel
def read_lists() -> ti.i64:
    s = ti.i64(0)
    for i, j in ti.ndrange(6, 50):
        s += lst[i, j] * (j + 1) + i
    return s


@ti.kernel
def write_c3():
    for i, j, k in ti.ndrange(6, 4, 8):
        if (i + j * 2 + k) % 3 == 1:
            c3[i, j, k] = i * 64 + j * 8 + k


@ti.kernel
def read_c3() -> ti.i64:
    s = ti.i64(0)
    for i, j, k in ti.ndrange(6, 4, 8):
        s += c3[i, j, k] * (k + 1)
    return s


# g: written twice (the second launch finds its cells active), read with
# most cells inactive; then one inner pointer block deactivated and read again.
write_g(1)
write_g(2)
want = {}
for i in range(N):
    for j in range(N):
        if hit(i, j):
            want[i, j] = 2 * (i * 100 + j) + 3
print(read_g() == sum(v * (i + 2 * j + 1) for (i, j), v in want.items()))
drop(2, 5)
for (i, j) in list(want):
    if i // 4 == 2 and j // 4 == 5:
        del want[i, j]
print(read_g() == sum(v * (i + 2 * j + 1) for (i, j), v in want.items()))

write_b()
print(read_b() == sum(i * 0.5 * (i + 30) for i in range(-20, 44) if i % 3 != 0))

# 3 launches of appends: lists 0..4 only (list 5 stays inactive), the
# pointer cells activated by the first; 40 values each fit in 50.
fill_lists(60)
fill_lists(60)
fill_lists(80)
vals = {i: [] for i in range(6)}
for n in (60, 60, 80):
    for k in range(n):
        vals[(k * 7) % 5].append(k * k - 3)
print(lengths())
# appends run in parallel: a list's order is the threads', its contents are not
print(sorted(lst[i, j] for i in range(5) for j in range(40)) == sorted(v for i in range(5) for v in vals[i]))
order = read_lists() - sum(lst[i, j] * (j + 1) + i for i in range(6) for j in range(50))
print(order)

write_c3()
print(read_c3() == sum((i * 64 + j * 8 + k) * (k + 1) for i in range(6) for j in range(4) for k in range(8)
                       if (i + j * 2 + k) % 3 == 1))
