import taichi as ti

ti.init(arch=ti.cpu)
dim = 3
shape = (2, 3, 4)
x = ti.field(ti.i32, shape=shape)
s = ti.field(ti.i32, shape=())


@ti.kernel
def fill():
    for I in ti.grouped(ti.ndrange(*shape)):  # one dimension per element of the tuple
        x[I] = I[0] * 100 + I[1] * 10 + I[2]
    for i, j in ti.ndrange(*[2] * 2):  # [n] * dim repeats, as in Python
        s[None] += 1
    for o in ti.static(ti.grouped(ti.ndrange(*((2,) * dim)))):
        s[None] += o[0] + o[1] + o[2]


@ti.kernel
def splice() -> ti.i32:
    v = ti.Vector([1, 2])
    w = ti.Vector([*v, 3, *shape])  # * splices vectors and tuples into a list
    return w.sum() * 10 + w.n


fill()
print(x[1, 2, 3], s[None], splice())
