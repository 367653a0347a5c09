# A 0-D field and ti.ndrange() loop once with no indices: I is (), x[I] is x[None].
import taichi as ti
ti.init(arch=ti.cpu)
val = ti.field(ti.i32, shape=())
@ti.kernel
def t():
    for I in ti.grouped(ti.ndrange()):
        val[I] = 42
@ti.kernel
def u():
    for I in ti.grouped(val):
        val[I] += 1
@ti.kernel
def w():
    for I in ti.static(ti.grouped(ti.ndrange())):
        val[I] += 10
t(); u(); w()
print(val[None])
