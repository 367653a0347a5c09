# ti.deactivate_all_snodes() clears every sparse SNode; dense fields keep their values.
import taichi as ti
ti.init(arch=ti.cpu)
a = ti.field(ti.i32)
b = ti.field(ti.i32)
d = ti.field(ti.i32, shape=3)
ti.root.pointer(ti.i, 8).place(a)
ti.root.dense(ti.i, 2).bitmasked(ti.i, 4).place(b)

@ti.kernel
def fill():
    for i in range(8):
        a[i] = i
        b[i] = 2 * i
    d[1] = 7

@ti.kernel
def counts() -> ti.i32:
    n = 0
    for i in a:
        n += 1
    for i in b:
        n += 10
    return n

fill()
print(counts())
ti.deactivate_all_snodes()
print(counts(), a[3], b[3], d[1])
