# A dtype per component of a vector/matrix field: the list has the field's
# shape, and the components share one compute type (Taichi's RuntimeError).
import taichi as ti

ti.init(arch=ti.cpu)
qi = ti.types.quant.int(bits=10, signed=True)
qf = ti.types.quant.fixed(bits=10, signed=True, scale=0.1)
for make in (lambda: ti.Vector.field(2, dtype=[qi, qf]),
             lambda: ti.Matrix.field(2, 2, dtype=[[ti.f32, ti.f32], [ti.f32, ti.f64]], shape=4)):
    try:
        make()
        print("no error")
    except RuntimeError as e:
        print("RuntimeError:", str(e).splitlines()[0])
for make in (lambda: ti.Vector.field(3, dtype=[ti.f32, ti.f32]),
             lambda: ti.Matrix.field(2, 2, dtype=[ti.f32, ti.f32], shape=4),
             lambda: ti.Vector.field(2, dtype=[qi, qi], shape=4)):
    try:
        make()
        print("no error")
    except TypeError as e:
        print("TypeError:", str(e).splitlines()[0])
ok = ti.Vector.field(2, dtype=[ti.i32, ti.i32], shape=3)
print(ok.shape, ok.n)
ti.Matrix.field(2, 2, dtype=[[ti.f32, ti.f32], [ti.i32, ti.f32]], shape=2)
