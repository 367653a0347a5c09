# ti.print_statistics(): the runtime's counters (seed 001).
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.pointer(ti.i, 4).dense(ti.i, 8).place(x)

@ti.kernel
def touch():
    x[3] = 1
    x[20] = 1

@ti.kernel
def count() -> ti.i32:
    n = 0
    for i in x:
        n += 1
    return n

touch()
print(count())
ti.print_statistics()
