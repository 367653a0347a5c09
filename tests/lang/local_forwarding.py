# A local's reads after its stores, in the shapes where the frontend may
# forward the stored value (straight-line code) and where it must read the
# local again (after an if or a loop that may store it, inside a loop body,
# after an element store, a short-circuit `and`/`or`): every engine prints
# what the interpreter prints.
import taichi as ti

ti.init(arch=ti.cpu)

x = ti.field(ti.i32, shape=8)
f = ti.field(ti.f32, shape=8)


@ti.kernel
def straight(a: ti.i32) -> ti.i32:
    t = a * 3
    t = t + 1          # reads the stored a * 3
    u = t * t          # both reads see a * 3 + 1
    t = u - t
    return t


@ti.kernel
def branches(a: ti.i32) -> ti.i32:
    t = a
    if a > 2:
        t = t * 10     # reads the value stored before the if
        if a > 4:
            t += 1
    else:
        t -= 1
    return t * 2 + a   # after the if: whichever branch stored it


@ti.kernel
def loops(n: ti.i32) -> ti.i32:
    s = 1
    k = 0
    while k < n:       # the condition reads k and s each trip
        s = s * 2 + k
        k += 1
    for i in range(n):
        s += i        # a serial loop inside the kernel's serial part
    return s


@ti.kernel
def parallel_fill():
    base = 7
    for i in x:        # read inside a parallel loop: the value stored before it
        t = i
        t = t * base
        x[i] = t + base


@ti.kernel
def vectors(a: ti.f32) -> ti.f32:
    v = ti.Vector([a, a + 1.0, a + 2.0])
    v[1] = 10.0        # an element store: later reads see it
    w = v * 2.0
    k = 2
    v[k] = -1.0        # a runtime index
    return v.sum() + w.sum()


@ti.kernel
def shortcircuit(a: ti.i32, b: ti.i32) -> ti.i32:
    c = a and b
    d = a or b
    e = 0
    if c and d:
        e = c + d
    return e * 100 + c * 10 + d


@ti.func
def bump(v):
    v += 5             # a ti.func's parameter is its own copy
    return v * 2


@ti.kernel
def funcs(a: ti.i32) -> ti.i32:
    r = a
    q = bump(r)
    r = r + q         # r is still a
    return r


print(straight(4), straight(-2))
print(branches(1), branches(3), branches(5))
print(loops(0), loops(3), loops(6))
parallel_fill()
print(x.to_numpy().tolist())
print(vectors(1.5))
print(shortcircuit(0, 3), shortcircuit(2, 3), shortcircuit(2, 0))
print(funcs(4))
