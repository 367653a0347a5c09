# Concurrent first writes to bitmasked cells under pointers: every cell counted once.
import taichi as ti
ti.init(arch=ti.cpu, cpu_max_num_threads=4)
x = ti.field(ti.i32)
ti.root.pointer(ti.ij, 16).bitmasked(ti.ij, 8).place(x)

@ti.kernel
def touch():
    for k in range(128 * 128 * 4):
        i = k % 128
        j = (k // 128) % 128
        if (i * j) % 3 == 0:
            ti.atomic_add(x[i, j], 1)

@ti.kernel
def summary() -> ti.i32:
    cells = 0
    for i, j in x:
        cells += 1
        if x[i, j] != 4:
            print("lost update at", i, j, x[i, j])
    return cells

touch()
print(summary())
