# fill() writes the active cells only, as Taichi's struct-for based fill does.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.bitmasked(ti.i, 8).place(x)
x[1] = 5
x[6] = 5
x.fill(3)
print([x[i] for i in range(8)])
