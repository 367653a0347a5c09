# For tests/cuda/dis_ptx.sh: a dense kernel (PTX) and a sparse one (host).
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


fill()
touch()
print(x.to_numpy().tolist(), s[1])
