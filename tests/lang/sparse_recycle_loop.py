# Activating and deactivating in a loop: reactivated cells always start at 0.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
blk = ti.root.pointer(ti.ij, 8)
blk.dense(ti.ij, 8).place(x)

@ti.kernel
def step(r: ti.i32):
    for i, j in ti.ndrange(64, 64):
        if (i + j + r) % 7 == 0:
            x[i, j] += 1

@ti.kernel
def total() -> ti.i32:
    s = 0
    for i, j in x:
        s += x[i, j]
    return s

ok = True
for r in range(40):
    step(r)
    t = total()
    if r == 0:
        first = t
    ok = ok and t == sum(1 for i in range(64) for j in range(64) if (i + j + r) % 7 == 0)
    blk.deactivate_all()
print(ok, first, total())
