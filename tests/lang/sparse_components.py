# Seed 001's S0-S6 tree: one pointer cell holds two dense components.
import taichi as ti
ti.init(arch=ti.cpu)
x = ti.field(ti.i32)
y = ti.field(ti.i32)
z = ti.field(ti.i32)
S0 = ti.root
S1 = S0.pointer(ti.i, 4)
S2 = S1.dense(ti.i, 2)
S2.place(x, y)
S5 = S1.dense(ti.i, 2)
S5.place(z)
print(S1.shape, S2.shape, z.snode.shape)

@ti.kernel
def fill():
    for i in range(8):
        x[i] = i

@ti.kernel
def counts():
    a = 0
    b = 0
    c = 0
    for i in S1:
        a += 1
    for i in y:
        b += 1
    for i in z:
        c += 1
    print(a, b, c)

counts()
fill()
counts()
print(x[7], y[7], z[7])
