# Writing index k of a dynamic list extends its length to k + 1.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.f32)
ti.root.dynamic(ti.i, 64, chunk_size=8).place(x)

@ti.kernel
def write(k: ti.i32, v: ti.f32):
    x[k] = v

@ti.kernel
def length() -> ti.i32:
    return ti.length(x.parent(), [])

@ti.kernel
def total() -> ti.f32:
    s = 0.0
    for i in x:
        s += x[i] + 1
    return s

print(length())
write(20, 2.5)
print(length(), total())
write(3, 1.0)
print(length(), total(), x[19], x[20])
