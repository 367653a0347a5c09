# ti.Struct(...) inside a kernel: an untyped struct value whose members take
# their values' types; a copy is a value (b = a, then writing b leaves a).
import taichi as ti
ti.init(arch=ti.cpu)
n = 8
x = ti.Struct.field({'a': ti.i32, 'b': ti.f32}, shape=n)


@ti.kernel
def fill():
    for i in x:
        x[i] = ti.Struct(a=2 * i, b=1.5 * i)


@ti.kernel
def copies() -> ti.i32:
    a = ti.Struct({'a': 2, 'b': 3})
    b = a
    b.a = 5
    v = ti.Struct(p=ti.Vector([1.0, 2.0]), inner=ti.Struct(k=7))
    return a.a * 1000 + b.a * 100 + a.b * 10 + v.inner.k + ti.cast(v.p[1], ti.i32) * 10000


fill()
print(x[3].a, x[3].b, x[7].a, x[7].b)
print(copies())
