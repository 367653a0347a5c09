# Struct-for over dynamic lists visits cells below each list's length.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
ti.root.dense(ti.i, 4).dynamic(ti.j, 8, chunk_size=2).place(x)

@ti.kernel
def build():
    for i in range(4):
        for k in range(i + 1):
            ti.append(x.parent(), i, i * 10 + k)

@ti.kernel
def visit() -> ti.i32:
    s = 0
    for i, j in x:
        s += x[i, j] * (j + 1)
    return s

build()
print(visit())
