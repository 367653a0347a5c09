# ti.is_active on a field asks whether its cell is active; the pointer
# above takes its own coordinates (0..1).
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.pointer(ti.i, 2).bitmasked(ti.i, 4).place(x)

@ti.kernel
def probe():
    x[1] = 9
    print(ti.is_active(x.parent(), 1), ti.is_active(x.parent(), 2), ti.is_active(x.parent(2), 0), ti.is_active(x.parent(2), 1))

probe()
