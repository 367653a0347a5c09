# x.parent() walks up the SNode tree, on the host and in kernels.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
a = ti.root.pointer(ti.i, 4)
b = a.bitmasked(ti.i, 2)
b.place(x)
print(x.parent().shape, x.parent(2).shape, x.parent(4))
print(b.parent().shape, x.snode.parent().shape)

@ti.kernel
def k():
    x[3] = 1
    # the pointer takes its own coordinates: x[3] lies in its cell 1
    print(ti.is_active(x.parent(), 2), ti.is_active(x.parent(2), 1), ti.is_active(x.parent(2), 2), ti.is_active(x.parent(), 3))

k()
