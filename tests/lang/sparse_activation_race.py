# Many threads activate the same pointer blocks at once: no update is lost.
import taichi as ti
ti.init(arch=ti.cpu, cpu_max_num_threads=4)
x = ti.field(ti.i32)
block = ti.root.pointer(ti.i, 64)
block.dense(ti.i, 16).place(x)

@ti.kernel
def hammer():
    for k in range(200000):
        x[(k * 7) % 1024] += 1

@ti.kernel
def stats() -> ti.i32:
    s = 0
    for i in x:
        s += x[i]
    return s

@ti.kernel
def blocks() -> ti.i32:
    n = 0
    for b in block:
        n += 1
    return n

hammer()
print(stats(), blocks(), x[0], x[1023])
