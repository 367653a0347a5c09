# For tests/cuda/dis_ptx.sh: a dense kernel and a sparse one (PTX; the
# pointer's activation allocates from its device pool), and a recursive
# ti.real_func called per element (PTX) and from a serial task (the host).
import taichi as ti

ti.init()
x = ti.field(ti.i32, shape=4)
s = ti.field(ti.i32)
ti.root.pointer(ti.i, 4).place(s)


@ti.kernel
def fill():
    for i in x:
        x[i] = i * 2


@ti.kernel
def touch():
    s[1] = 7


@ti.real_func
def fact(n: ti.i32) -> ti.i32:
    r = 1
    if n > 1:
        r = n * fact(n - 1)
    return r


@ti.kernel
def five() -> ti.i32:
    return fact(5)


@ti.kernel
def facts():
    for i in x:
        x[i] = fact(i)


fill()
touch()
print(x.to_numpy().tolist(), s[1], five())
facts()
print(x.to_numpy().tolist())
