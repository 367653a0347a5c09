import taichi as ti

ti.init(arch=ti.cpu)
x = ti.field(ti.f32, shape=8)
m = ti.Matrix.field(2, 2, ti.i32, shape=())


@ti.kernel
def reduce() -> ti.f32:
    ti.block_local(x)  # a GPU shared-memory hint: nothing to do on the CPU
    s = ti.zero(x[0])
    for i in x:
        s += x[i] * ti.one(x[i])
    return s


@ti.kernel
def elementwise() -> ti.types.vector(2, ti.f32):
    v = ti.Vector([1.0, -1.0])
    z = ti.zero(v) + ti.one(v) * 2
    m[None] = ti.raw_div(ti.Matrix([[7, -7], [9, 10]]), 2)
    return ti.atan2(v, 1.0) + z


for i in range(8):
    x[i] = i
print(reduce())
print(elementwise())
print(m[None])
