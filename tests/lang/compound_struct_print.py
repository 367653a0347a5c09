# Printing a struct inside a kernel shows its members by name, nested
# structs and vectors included, in the kernel's number format.
import taichi as ti
ti.init(arch=ti.cpu)

@ti.dataclass
class Body:
    pos: ti.math.vec2
    mass: ti.f32
    id: ti.i32

Pair = ti.types.struct(a=Body, w=ti.f64)

@ti.kernel
def show():
    b = Body(ti.math.vec2(1, 2.5), 3.0, 7)
    print(b)
    print("b =", b, "mass", b.mass)
    p = Pair(a=b, w=0.5)
    print(p)

show()
print(Body(ti.math.vec2(1, 2.5), 3.0, 7))
