# Parallel appends to one dynamic list: each gets its own slot.
import taichi as ti
ti.init(arch=ti.cpu, cpu_max_num_threads=4)
x = ti.field(ti.i32)
ti.root.dynamic(ti.i, 4096, chunk_size=64).place(x)
seen = ti.field(ti.i32, shape=3000)

@ti.kernel
def push():
    for k in range(3000):
        ti.append(x.parent(), [], k)

@ti.kernel
def check() -> ti.i32:
    for i in x:
        seen[x[i]] += 1
    bad = 0
    for k in range(3000):
        if seen[k] != 1:
            bad += 1
    return bad

@ti.kernel
def length() -> ti.i32:
    return ti.length(x.parent(), [])

push()
print(length(), check())
