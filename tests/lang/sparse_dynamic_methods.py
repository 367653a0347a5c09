# Methods of a field placed under a dynamic SNode, indexed by every axis but
# the dynamic one: x[i].append(v) returns the old length, x[i].length(),
# x[i].deactivate() empties the list; a field whose only axis is dynamic
# takes them directly (y.append(v)). Vector, matrix and struct fields append
# one element made of all their components.
import taichi as ti
ti.init(arch=ti.cpu)

x = ti.field(ti.i32)
ti.root.dense(ti.i, 4).dynamic(ti.j, 16, chunk_size=4).place(x)
y = ti.field(ti.f32)
ti.root.dynamic(ti.i, 8).place(y)
v = ti.Vector.field(2, ti.i32)
ti.root.dense(ti.i, 2).dynamic(ti.j, 8).place(v)
pair = ti.types.struct(a=ti.u8, m=ti.types.matrix(2, 2, ti.i16), b=ti.u64)
s = pair.field()
ti.root.dynamic(ti.i, 4).place(s)


@ti.kernel
def build() -> ti.i32:
    slots = 0
    for i in range(4):
        for k in range(i * 3):
            slots += x[i].append(k * 10 + i)
    for k in range(5):
        y.append(k * 0.5)
    v[1].append(ti.Vector([7, 8]))
    s.append(pair(200, ti.Matrix([[1, -2], [3, -4]], dt=ti.i16), ti.u64(10 ** 12)))
    return slots


@ti.kernel
def lengths() -> ti.types.vector(6, ti.i32):
    return ti.Vector([x[0].length(), x[1].length(), x[2].length(), x[3].length(), y.length(), v[1].length()])


@ti.kernel
def clear():
    x[2].deactivate()
    y.deactivate()


print(build())
print(lengths())
print(x[1, 2], x[3, 8], y[4], v[1, 0], s[0].a, s[0].m, s[0].b)
clear()
print(lengths())
print(x[2, 0], x[3, 8], y[4])
