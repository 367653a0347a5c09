# ti.deactivate on a bitmasked cell clears just that cell.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32)
bm = ti.root.bitmasked(ti.ij, (4, 4))
bm.place(x)

@ti.kernel
def setup():
    for i, j in ti.ndrange(4, 4):
        x[i, j] = i * 4 + j

@ti.kernel
def drop_diagonal():
    for i in range(4):
        ti.deactivate(bm, [i, i])

@ti.kernel
def summary() -> ti.f32:
    s = 0.0
    for i, j in x:
        s += x[i, j]
    return s

setup()
print(summary())
drop_diagonal()
print(summary())
x[2, 2] = 0.5
print(summary(), x[1, 1], x[2, 2])
