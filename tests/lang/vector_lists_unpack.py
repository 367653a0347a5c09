import taichi as ti

ti.init(arch=ti.cpu)
v = ti.Vector.field(2, ti.f32, shape=3)
m = ti.Matrix.field(2, 2, ti.i32, shape=())
tri = ti.Vector.field(3, ti.i32, shape=2)


@ti.kernel
def fill() -> ti.i32:
    for i in v:
        v[i] = [i * 0.5, -i]  # a list stores as the element's vector
    m[None] = [[1, 2], [3, 4]]
    tri[0] = [7, 8, 9]
    a, b, c = tri[0]  # a vector unpacks into names
    f, n = ti.static(v, 3)  # ti.static of several values: a tuple of them
    return a * 100 + b * 10 + c + n + ti.cast(f[2][0], ti.i32)


print(fill(), v[2], m[None])
